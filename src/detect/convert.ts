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
 * other labels as written.
 */
function hostLabels(text: string, a: number, b: number): string[] {
  const labels: string[] = [];
  let labelStart = a;
  for (let i = a; i <= b; i++) {
    if (i < b && !isHostDot(text.charCodeAt(i))) continue;
    const label = text.slice(labelStart, i);
    labels.push(isAceLabel(label) ? domainToUnicode(label).domain : label);
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
for (const ch of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?#[]@!$&'()*+,;=") {
  PLAIN[ch.charCodeAt(0)] = 1;
}

/**
 * A link whose conversion is the identity: only PLAIN characters, and a host (at `hostOffset` in `iriText` when
 * the scheme was written, else found by the `//` or `@`) of lower-case letters, digits, dots and single hyphens,
 * which UTS #46 ToASCII leaves as it is. Emails: the domain after the last `@`.
 */
function isPlainAsciiLink(iriText: string, hostOffset: number, hostLength: number): boolean {
  for (let i = 0; i < iriText.length; i++) {
    const c = iriText.charCodeAt(i);
    if (c >= 128 || PLAIN[c] === 0) return false;
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
