// DESIGN.md "What each link carries": a detected span becomes a Link — its URI (RFC 3987 §3.1 with UTS #46 hosts),
// its IRI (RFC 3987 §3.2) and its diagnostics.

import { IriError } from '../errors.js';
import { checkIriBidi } from '../iri/bidi.js';
import { toIri } from '../iri/to-iri.js';
import { toUri } from '../iri/to-uri.js';
import type { ToUriOptions } from '../iri/to-uri.js';
import type { DiagnosticCode, Link } from '../types.js';
import { domainToUnicode } from '../iri/idna.js';
import { confusableHost } from '../unicode/confusables.js';
import { isSuspiciousHostLabel } from '../unicode/mixed-script.js';
import { isBidiControl, isHostDot } from './chars.js';
import type { ScanState } from './state.js';
import { removeWrapSpace } from './wrap.js';

/** The Link for the candidate text[s, e) described by `st`; offsets shifted by `base`. */
export function makeLink(st: ScanState, s: number, e: number, base: number): Link {
  const text = st.text;
  const raw = text.slice(s, e);
  const o = st.opts;

  // P1: a bidi control right before or after the link (its scan stopped there).
  if (!st.bidiStop) {
    if (s > 0 && isBidiControl(text.charCodeAt(s - 1))) st.bidiStop = true;
    else if (e < st.end && isBidiControl(text.charCodeAt(e))) st.bidiStop = true;
  }

  let iriText = st.wrapped ? removeWrapSpace(raw) : raw;
  if (st.schemeInferred) iriText = (st.kind === 'email' ? 'mailto:' : st.scheme + '://') + iriText;

  const diagnostics: DiagnosticCode[] = [];
  if (!st.wrapped && isPlainAsciiLink(iriText, st.schemeInferred ? -1 : st.hostStart - s, st.hostEnd - st.hostStart)) {
    // Fast path: nothing to encode, decode, map or check — the URI and the IRI are the text itself
    // (test/detect-convert.test.ts checks this against the full conversion).
    st.diagnosticsOfScan(diagnostics);
    return {
      start: s + base,
      end: e + base,
      text: raw,
      kind: st.kind,
      scheme: st.kind === 'email' ? 'mailto' : st.scheme,
      schemeInferred: st.schemeInferred,
      uri: iriText,
      iri: iriText,
      diagnostics,
    };
  }
  const uriOptions: ToUriOptions = { host: 'idna', asciiDisallowed: 'encode' };
  if (o.documentCharset !== undefined) uriOptions.documentCharset = o.documentCharset;
  let uri: string;
  let idnaFailed = false;
  let conversionFailed = false;
  try {
    uri = toUri(iriText, uriOptions);
  } catch (err) {
    if (!(err instanceof IriError)) throw err;
    if (err.code === 'idna-failed') idnaFailed = true;
    else conversionFailed = true;
    uri = fallbackUri(iriText, idnaFailed);
  }
  let iri: string;
  try {
    iri = toIri(uri);
  } catch {
    conversionFailed = true;
    iri = iriText;
  }
  // The iri above is the readable form of what was written (`[`, a second `#` shown as they are); the uri, which
  // an href gets, must be an RFC 3986 URI.
  uri = toValidUri(uri);

  if (st.bidiStop) diagnostics.push('bidi-control');
  if (idnaFailed) diagnostics.push('idna-failed');
  if (st.hostEnd > st.hostStart && needsHostCheck(text, st.hostStart, st.hostEnd)) {
    const labels = hostLabels(text, st.hostStart, st.hostEnd);
    if (labels.some(isSuspiciousLabel)) diagnostics.push('mixed-script-host');
    if (confusableHost(labels.join('.')) !== null) diagnostics.push('confusable-host');
  }
  if (checkIriBidi(iri).length > 0) diagnostics.push('bidi-component');
  if (hasInvalidPercent(raw)) diagnostics.push('invalid-percent-encoding');
  if (st.userinfo) diagnostics.push('userinfo');
  if (st.wrapped) diagnostics.push('wrapped');
  if (st.tooLong) diagnostics.push('link-too-long');
  if (conversionFailed) diagnostics.push('conversion-failed');

  return {
    start: s + base,
    end: e + base,
    text: raw,
    kind: st.kind,
    scheme: st.kind === 'email' ? 'mailto' : st.scheme,
    schemeInferred: st.schemeInferred,
    uri,
    iri,
    diagnostics,
  };
}

/**
 * The uri when toUri failed: with the host percent-encoded (after an IDNA failure); if that fails too (a
 * document charset that cannot hold the query), without the charset; as a last resort the text itself.
 */
function fallbackUri(iriText: string, idnaFailed: boolean): string {
  for (const host of idnaFailed ? (['percent'] as const) : (['idna', 'percent'] as const)) {
    try {
      return toUri(iriText, { host, asciiDisallowed: 'encode' });
    } catch {
      // try the next way
    }
  }
  return iriText;
}

/**
 * True when the host text[a, b) has a non-ASCII character or an ACE label (`xn--`, ASCII case-insensitive): only
 * then can UTS #39 find anything (an ASCII host is single-script and imitates nothing), so only then is it checked.
 */
function needsHostCheck(text: string, a: number, b: number): boolean {
  for (let i = a; i < b; i++) {
    const c = text.charCodeAt(i);
    if (c >= 128) return true;
    if ((c | 0x20) === 0x78 && (i === a || isHostDot(text.charCodeAt(i - 1))) && i + 4 <= b &&
      (text.charCodeAt(i + 1) | 0x20) === 0x6e && text.charCodeAt(i + 2) === 0x2d && text.charCodeAt(i + 3) === 0x2d) {
      return true;
    }
  }
  return false;
}

/**
 * The labels of the host text[a, b) as the UTS #39 checks see them: split at the UTS #46 label separators
 * (isHostDot), each ACE label (`xn--`) decoded by UTS #46 ToUnicode, so `xn--pypal-4ve` is judged as `pаypal`;
 * other labels, and ACE labels that do not decode without error, as written.
 */
function hostLabels(text: string, a: number, b: number): string[] {
  const labels: string[] = [];
  let labelStart = a;
  for (let i = a; i <= b; i++) {
    if (i < b && !isHostDot(text.charCodeAt(i))) continue;
    const label = text.slice(labelStart, i);
    if (isAceLabel(label)) {
      const decoded = domainToUnicode(label);
      labels.push(decoded.error ? label : decoded.domain); // invalid Punycode: judged as written (idna-failed says it)
    } else {
      labels.push(label);
    }
    labelStart = i + 1;
  }
  return labels;
}

function isAceLabel(label: string): boolean {
  return (
    label.length > 4 && (label.charCodeAt(0) | 0x20) === 0x78 && (label.charCodeAt(1) | 0x20) === 0x6e &&
    label.charCodeAt(2) === 0x2d && label.charCodeAt(3) === 0x2d
  );
}

/** `mixed-script-host`: a non-ASCII label that UTS #39 finds suspicious (H1's isSuspiciousHostLabel). */
function isSuspiciousLabel(label: string): boolean {
  for (let i = 0; i < label.length; i++) {
    if (label.charCodeAt(i) >= 128) return isSuspiciousHostLabel(label);
  }
  return false;
}

/**
 * The uri as an RFC 3986 URI. toUri leaves alone what RFC 3987 §3.1 says "MUST NOT be converted" — a `%` that
 * starts no `%XX`, and `[` `]` `#` where the grammar has no place for them — so its result is not always a URI;
 * the detector hands out an href, which must be one. Deviation (RFC 3987 §3.1): these are percent-encoded here
 * (what the text shows is kept in `iri` and `text`; `invalid-percent-encoding` still reports the stray `%`):
 * - RFC 3986 §2.1: a `%` not followed by two hex digits → `%25`, anywhere;
 * - §3.2.1: in userinfo (before the authority's last `@`), `@` `[` `]` → `%40` `%5B` `%5D`;
 * - §3.2.2: `[` `]` outside an IP-literal host (one that starts with `[`) → `%5B` `%5D`;
 * - §3.3, §3.4, §3.5 (and RFC 6068 §2 for mailto): `[` `]` in the path, query and fragment → `%5B` `%5D`, and
 *   a `#` after the one that starts the fragment → `%23`.
 * Every other character toUri has already encoded (asciiDisallowed 'encode'). Linear; the uri itself when it
 * holds no `[`, `]`, `%` and at most one `#` (almost every link).
 */
export function toValidUri(uri: string): string {
  let hashes = 0;
  let suspect = false;
  for (let i = 0; i < uri.length; i++) {
    const c = uri.charCodeAt(i);
    if (c === 0x5b || c === 0x5d || c === 0x25 || (c === 0x23 && ++hashes > 1)) {
      suspect = true;
      break;
    }
  }
  if (!suspect) return uri;

  // RFC 3986 §3: scheme ":" hier-part [ "?" query ] [ "#" fragment ]; the detector's uri always has a scheme.
  let out = '';
  let last = 0;
  let i = uri.indexOf(':') + 1;
  const put = (at: number, replacement: string): void => {
    out += uri.slice(last, at) + replacement;
    last = at + 1;
  };
  if (uri.charCodeAt(i) === 0x2f && uri.charCodeAt(i + 1) === 0x2f) {
    // §3.2: authority = [ userinfo "@" ] host [ ":" port ], up to the first `/`, `?` or `#`.
    const a = i + 2;
    let e = a;
    while (e < uri.length) {
      const c = uri.charCodeAt(e);
      if (c === 0x2f || c === 0x3f || c === 0x23) break;
      e++;
    }
    const at = uri.lastIndexOf('@', e - 1);
    const hostStart = at >= a ? at + 1 : a;
    for (let k = a; k < hostStart - 1; k++) {
      const c = uri.charCodeAt(k);
      if (c === 0x40) put(k, '%40');
      else if (c === 0x5b) put(k, '%5B');
      else if (c === 0x5d) put(k, '%5D');
      else if (c === 0x25 && !isPctEncoded(uri, k)) put(k, '%25');
    }
    // §3.2.2: IP-literal = "[" ( IPv6address / IPvFuture ) "]" — the scanner checked what it holds.
    let k = hostStart;
    if (uri.charCodeAt(k) === 0x5b) {
      const close = uri.indexOf(']', k);
      if (close >= 0 && close < e) k = close + 1;
    }
    for (; k < e; k++) {
      const c = uri.charCodeAt(k);
      if (c === 0x5b) put(k, '%5B');
      else if (c === 0x5d) put(k, '%5D');
      else if (c === 0x25 && !isPctEncoded(uri, k)) put(k, '%25');
    }
    i = e;
  }
  // §3.3 path, §3.4 query, §3.5 fragment: pchar / "/" / "?" — no `[`, `]`, and `#` only to start the fragment.
  let inFragment = false;
  for (; i < uri.length; i++) {
    const c = uri.charCodeAt(i);
    if (c === 0x5b) put(i, '%5B');
    else if (c === 0x5d) put(i, '%5D');
    else if (c === 0x25 && !isPctEncoded(uri, i)) put(i, '%25');
    else if (c === 0x23) {
      if (inFragment) put(i, '%23');
      inFragment = true;
    }
  }
  return last === 0 ? uri : out + uri.slice(last);
}

function isPctEncoded(s: string, i: number): boolean {
  return isHex(s.charCodeAt(i + 1)) && isHex(s.charCodeAt(i + 2));
}

/** A `%` not followed by two hex digits. */
function hasInvalidPercent(s: string): boolean {
  for (let i = s.indexOf('%'); i >= 0; i = s.indexOf('%', i + 1)) {
    if (!(isHex(s.charCodeAt(i + 1)) && isHex(s.charCodeAt(i + 2)))) return true;
  }
  return false;
}

function isHex(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

// ASCII characters that toUri copies and toIri leaves alone: unreserved and reserved, no `%` (RFC 3986 §2).
const PLAIN = new Uint8Array(128);
// `[` and `]` are left out: outside an IP-literal they need toValidUri, and IP-literal links are rare.
for (const ch of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?#@!$&'()*+,;=") {
  PLAIN[ch.charCodeAt(0)] = 1;
}

/**
 * A link whose conversion is the identity: only PLAIN characters (at most one `#`), and a host (at `hostOffset` in `iriText` when
 * the scheme was written, else found by the `//` or `@`) of lower-case letters, digits, dots and single hyphens,
 * which UTS #46 ToASCII leaves as it is. Emails: the domain after the last `@`.
 */
function isPlainAsciiLink(iriText: string, hostOffset: number, hostLength: number): boolean {
  let hashes = 0;
  for (let i = 0; i < iriText.length; i++) {
    const c = iriText.charCodeAt(i);
    if (c >= 128 || PLAIN[c] === 0) return false;
    if (c === 0x23 && ++hashes > 1) return false; // RFC 3986 §3.5: a second `#` needs toValidUri
  }
  let a: number;
  let b: number;
  if (hostOffset >= 0) {
    a = hostOffset;
    b = hostOffset + hostLength;
  } else {
    const at = iriText.lastIndexOf('@');
    a = at >= 0 ? at + 1 : iriText.indexOf('//') + 2;
    if (a < 2) return false;
    b = a;
    while (b < iriText.length) {
      const c = iriText.charCodeAt(b);
      if (c === 0x2f || c === 0x3f || c === 0x23 || c === 0x3a) break;
      b++;
    }
  }
  if (hostLength < 0 && hostOffset >= 0) return false;
  for (let i = a; i < b; i++) {
    const c = iriText.charCodeAt(i);
    if (c >= 0x41 && c <= 0x5a) return false; // UTS #46 lower-cases
    if (!((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x2d)) return false;
    if (c === 0x2d && iriText.charCodeAt(i - 1) === 0x2d) return false; // `xn--`, `ab--c`: CheckHyphens, Punycode
  }
  return true;
}
