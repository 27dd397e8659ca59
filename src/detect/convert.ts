// DESIGN.md "What each link carries": a detected span becomes a Link — its URI (RFC 3987 §3.1 with UTS #46 hosts),
// its IRI (RFC 3987 §3.2) and its diagnostics.

import { IriError } from '../errors.js';
import { checkIriBidi } from '../iri/bidi.js';
import { toIri } from '../iri/to-iri.js';
import { toUri } from '../iri/to-uri.js';
import type { ToUriOptions } from '../iri/to-uri.js';
import type { DiagnosticCode, Link } from '../types.js';
import { domainToUnicode, isDnsScheme } from '../iri/idna.js';
import { confusableHost } from '../unicode/confusables.js';
import { isSuspiciousHostLabel } from '../unicode/mixed-script.js';
import { isBidiControl, isHostDot } from './chars.js';
import type { ScanState } from './state.js';
import { removeWrapSpace } from './wrap.js';

/** The Link for the candidate text[s, e) described by `st`; offsets shifted by `base`. */
export function makeLink(st: ScanState, s: number, e: number, base: number): Link {
  markBidiStop(st, s, e);
  return (fastPath && !st.wrapped ? plainAsciiLink(st, s, e, base) : null) ?? fullLink(st, s, e, base);
}

let fastPath = true;

/**
 * Internal to src/detect, not in the package entry: `false` sends every link through the full conversion, so
 * test/detect-convert-fastpath.test.ts can check that the fast path gives the same Links. Returns the previous value.
 */
export function setConvertFastPath(on: boolean): boolean {
  const was = fastPath;
  fastPath = on;
  return was;
}

// P1: a bidi control right before or after the link (its scan stopped there).
function markBidiStop(st: ScanState, s: number, e: number): void {
  if (st.bidiStop) return;
  const text = st.text;
  if (s > 0 && isBidiControl(text.charCodeAt(s - 1))) st.bidiStop = true;
  else if (e < st.end && isBidiControl(text.charCodeAt(e))) st.bidiStop = true;
}

/** The full conversion: toUri (RFC 3987 §3.1, UTS #46 hosts), toIri (RFC 3987 §3.2), toValidUri, the checks. */
function fullLink(st: ScanState, s: number, e: number, base: number): Link {
  const text = st.text;
  const raw = text.slice(s, e);

  let iriText = st.wrapped ? removeWrapSpace(raw) : raw;
  if (st.schemeInferred) iriText = (st.kind === 'email' ? 'mailto:' : st.scheme + '://') + iriText;

  const diagnostics: DiagnosticCode[] = [];
  if (st.bidiStop) diagnostics.push('bidi-control');
  const c = convertLinkText(iriText, raw, text, st.hostStart, st.hostEnd, st.opts.documentCharset, diagnostics);
  if (st.userinfo) diagnostics.push('userinfo');
  if (st.wrapped) diagnostics.push('wrapped');
  if (st.tooLong) diagnostics.push('link-too-long');
  if (c.conversionFailed) diagnostics.push('conversion-failed');

  return {
    start: s + base,
    end: e + base,
    text: raw,
    kind: st.kind,
    scheme: st.kind === 'email' ? 'mailto' : st.scheme,
    schemeInferred: st.schemeInferred,
    uri: c.uri,
    iri: c.iri,
    diagnostics,
  };
}

/** What convertLinkText gives: the two forms, and whether a conversion failed (`conversion-failed` is the caller's). */
export interface ConvertedLink {
  uri: string;
  iri: string;
  conversionFailed: boolean;
}

/**
 * The conversion every link shares — the detector's and the Markdown mode's destinations: `iriText` (the link
 * with its scheme) to its uri (toUri with UTS #46 hosts, then toValidUri: an RFC 3986 URI) and its iri (toIri),
 * pushing onto `diagnostics`, in this order, `idna-failed`, `mixed-script-host` and `confusable-host` (UTS #39, for
 * the host hostText[hostStart, hostEnd) when it has a non-ASCII character or an ACE label), `bidi-component`
 * (RFC 3987 §4.2) and `invalid-percent-encoding` (a `%` in `written` not followed by two hex digits).
 */
export function convertLinkText(
  iriText: string,
  written: string,
  hostText: string,
  hostStart: number,
  hostEnd: number,
  documentCharset: string | undefined,
  diagnostics: DiagnosticCode[],
): ConvertedLink {
  const uriOptions: ToUriOptions = { host: 'idna', asciiDisallowed: 'encode' };
  if (documentCharset !== undefined) uriOptions.documentCharset = documentCharset;
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

  if (idnaFailed) diagnostics.push('idna-failed');
  if (hostEnd > hostStart && needsHostCheck(hostText, hostStart, hostEnd)) {
    const labels = hostLabels(hostText, hostStart, hostEnd);
    if (labels.some(isSuspiciousLabel)) diagnostics.push('mixed-script-host');
    if (confusableHost(labels.join('.')) !== null) diagnostics.push('confusable-host');
  }
  if (checkIriBidi(iri).length > 0) diagnostics.push('bidi-component');
  if (hasInvalidPercent(written)) diagnostics.push('invalid-percent-encoding');
  return { uri, iri, conversionFailed };
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

// ASCII characters that toUri copies and toIri leaves alone: unreserved and reserved (RFC 3986 §2.2, §2.3); `%` is
// judged by plainAsciiLink. `[` and `]` are left out: outside an IP-literal they need toValidUri, and IP-literal
// links are rare.
const PLAIN = new Uint8Array(128);
for (const ch of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?#@!$&'()*+,;=") {
  PLAIN[ch.charCodeAt(0)] = 1;
}
// RFC 3986 §2.3 unreserved: the `%XX` octets below 0x80 that toIri decodes (RFC 3987 §3.2 step 2).
const UNRESERVED = new Uint8Array(128);
for (const ch of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~') UNRESERVED[ch.charCodeAt(0)] = 1;

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const l = c | 0x20;
  return l >= 0x61 && l <= 0x66 ? l - 0x57 : -1;
}

/**
 * The Link of an ASCII link whose toUri is the identity, built without toUri and the host checks, or null when the
 * link needs the full conversion (test/detect-convert-fastpath.test.ts checks the two agree). It applies when
 * text[s, e) holds only PLAIN characters and `%`, and:
 * - the host of a DNS scheme (RFC 3986 §3.2.2) or the domain of a one-address mailto (RFC 6068 §2) is a plain LDH
 *   domain, any case, no `%` (UTS #46 §4.2 ToASCII accepts it and toUri keeps it as written: to-uri.ts
 *   isPlainLdhDomain); other schemes' hosts toUri does not map;
 * - the scanned host holds no ACE label (`xn--`): only those reach the UTS #39 checks, and toIri decodes them.
 * Then toUri(text) is the text (every character is a URI character or `%`, which RFC 3987 §3.1 copies), so:
 * - iri = toIri(text), and toIri is the identity when every `%` starts a triplet it keeps as written (reserved,
 *   `%` and disallowed ASCII octets; step 2), so it runs only for an unreserved or non-ASCII octet or a stray `%`;
 * - uri = toValidUri(text), the text itself unless a `%` starts no `%XX` (→ `%25`, `invalid-percent-encoding`) or
 *   a second `#` follows the fragment's (→ `%23`, RFC 3986 §3.5; `&#x3D;` in a query copied from HTML);
 * - bidi-component only when toIri decoded something (an ASCII iri has no right-to-left character).
 * Reads the text in place; the prefixed string of an inferred scheme is built once.
 */
function plainAsciiLink(st: ScanState, s: number, e: number, base: number): Link | null {
  const text = st.text;
  let hashes = 0;
  let decodes = false; // a triplet toIri decodes or re-encodes
  let stray = false; // RFC 3986 §2.1: a `%` not followed by two hex digits
  for (let i = s; i < e; i++) {
    const c = text.charCodeAt(i);
    if (c >= 128) return null;
    if (PLAIN[c] === 1) {
      if (c === 0x23) hashes++;
      continue;
    }
    if (c !== 0x25) return null;
    const hi = i + 2 < e ? hexValue(text.charCodeAt(i + 1)) : -1;
    const lo = hi >= 0 ? hexValue(text.charCodeAt(i + 2)) : -1;
    if (lo < 0) {
      stray = true;
      continue;
    }
    const octet = hi * 16 + lo;
    if (octet >= 0x80 || UNRESERVED[octet] === 1) decodes = true;
    i += 2;
  }
  ldhStart = -1;
  if (!hasPlainHosts(st, s, e)) return null;
  // The scanned host, unless hasPlainHosts has just found it plain LDH (which has no ACE label).
  if (st.hostEnd > st.hostStart && (ldhStart !== st.hostStart || ldhEnd !== st.hostEnd) &&
    needsHostCheck(text, st.hostStart, st.hostEnd)) {
    return null;
  }

  const raw = text.slice(s, e);
  const uri0 = st.schemeInferred ? (st.kind === 'email' ? 'mailto:' : st.scheme + '://') + raw : raw;
  const iri = decodes || stray ? toIri(uri0) : uri0;
  const diagnostics: DiagnosticCode[] = [];
  // The order of fullLink's diagnostics (idna-failed, the host checks, wrapped and conversion-failed cannot occur).
  if (st.bidiStop) diagnostics.push('bidi-control');
  if (decodes && checkIriBidi(iri).length > 0) diagnostics.push('bidi-component');
  if (stray) diagnostics.push('invalid-percent-encoding');
  if (st.userinfo) diagnostics.push('userinfo');
  if (st.tooLong) diagnostics.push('link-too-long');
  return {
    start: s + base,
    end: e + base,
    text: raw,
    kind: st.kind,
    scheme: st.kind === 'email' ? 'mailto' : st.scheme,
    schemeInferred: st.schemeInferred,
    uri: stray || hashes > 1 ? toValidUri(uri0) : uri0,
    iri,
    diagnostics,
  };
}

/**
 * True when every domain toUri validates in the ASCII link text[s, e) (PLAIN characters and `%`) is a plain LDH
 * domain: the host of a DNS scheme (after the authority's last `@`, before a port: RFC 3986 §3.2), or the domain
 * after the `@` of a mailto address (RFC 6068 §2; one address, no `,`). Other schemes: true.
 */
function hasPlainHosts(st: ScanState, s: number, e: number): boolean {
  const text = st.text;
  let i: number; // where the hier-part starts
  let mailto: boolean;
  let dns: boolean;
  if (st.schemeInferred) {
    i = s;
    mailto = st.kind === 'email';
    dns = !mailto && isDnsScheme(st.scheme);
    if (!mailto) return !dns || authorityHostIsPlain(text, i, e);
  } else {
    const colon = s + st.scheme.length;
    if (text.charCodeAt(colon) !== 0x3a) return false;
    i = colon + 1;
    if (text.charCodeAt(i) === 0x2f && text.charCodeAt(i + 1) === 0x2f) {
      return !isDnsScheme(st.scheme) || authorityHostIsPlain(text, i + 2, e);
    }
    mailto = st.scheme === 'mailto';
    if (!mailto) return true;
  }
  // RFC 6068 §2: mailto:addr-spec, the path up to `?` or `#`.
  let end = i;
  let at = -1;
  for (; end < e; end++) {
    const c = text.charCodeAt(end);
    if (c === 0x3f || c === 0x23) break;
    if (c === 0x2c) return false;
    if (c === 0x40) at = end;
  }
  return at >= 0 && isPlainLdh(text, at + 1, end);
}

/** The host of the authority starting at `a` (RFC 3986 §3.2: up to `/` `?` `#`, after the last `@`, before `:`). */
function authorityHostIsPlain(text: string, a: number, e: number): boolean {
  let hostStart = a;
  let colon = -1;
  let k = a;
  for (; k < e; k++) {
    const c = text.charCodeAt(k);
    if (c === 0x2f || c === 0x3f || c === 0x23) break;
    if (c === 0x40) {
      hostStart = k + 1;
      colon = -1;
    } else if (c === 0x3a) colon = k;
  }
  return isPlainLdh(text, hostStart, colon >= 0 ? colon : k);
}

/** The range isPlainLdh was last asked about (plainAsciiLink reads it when isPlainLdh said yes). */
let ldhStart = -1;
let ldhEnd = -1;

/**
 * text[a, b) is a domain UTS #46 ToASCII certainly accepts and toUri keeps as written (to-uri.ts isPlainLdhDomain):
 * non-empty labels of ASCII letters (any case), digits and hyphens (UseSTD3ASCIIRules), no hyphen first or last and
 * none in both the 3rd and 4th positions (CheckHyphens; no `xn--`), an empty label only as a trailing root dot.
 */
function isPlainLdh(text: string, a: number, b: number): boolean {
  ldhStart = a;
  ldhEnd = b;
  let labelStart = a;
  for (let i = a; i <= b; i++) {
    const c = i < b ? text.charCodeAt(i) : 0x2e;
    if (c === 0x2e) {
      const n = i - labelStart;
      if (n === 0) return i === b && i > a;
      if (text.charCodeAt(labelStart) === 0x2d || text.charCodeAt(i - 1) === 0x2d) return false;
      if (n >= 4 && text.charCodeAt(labelStart + 2) === 0x2d && text.charCodeAt(labelStart + 3) === 0x2d) return false;
      labelStart = i + 1;
    } else if (!((c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x2d)) {
      return false;
    }
  }
  return true;
}
