// DESIGN.md "What each link carries": a detected span becomes a Link — its URI (RFC 3987 §3.1 with UTS #46 hosts),
// its IRI (RFC 3987 §3.2) and its diagnostics.

import { IriError } from '../errors.js';
import { checkIriBidi, isRtl } from '../iri/bidi.js';
import { toLinkIri } from '../iri/to-iri.js';
import { encodeGeneral, toLinkUri } from '../iri/to-uri.js';
import { queryCharset } from '../charsets.js';
import type { DiagnosticCode, Link } from '../types.js';
import { domainToUnicode, isDnsScheme } from '../iri/idna.js';
import { isPctTriplet, pctByte } from '../iri/percent.js';
import { confusableHost } from '../unicode/confusables.js';
import { isSuspiciousHostLabel } from '../unicode/mixed-script.js';
import { hexValue, INCLUDE, isBidiControl, isHostDot, termOf, URI_SIMPLE } from './chars.js';
import { isInvisibleOrSpace, isUcschar } from '../iri/chars.js';
import type { ScanState } from './state.js';
import { removeWrapSpace } from './wrap.js';
import { displayIri } from './display.js';
import { BoundedMemo, detached } from '../memo.js';

/** The Link for the candidate text[s, e) described by `st`; offsets shifted by `base`. */
export function makeLink(st: ScanState, s: number, e: number, base: number): Link {
  markBidiStop(st, s, e);
  const raw = st.text.slice(s, e);
  if (!fastPath) return fullLink(st, s, e, base, raw);
  const quick = st.wrapped || st.jsonEscaped || st.colonEscaped || st.quoteEscaped ? null : quickLink(st, s, e, base, raw);
  if (quick !== null) return quick;
  // (Not remembered when the text alone does not decide the conversion: an escaped quotation mark is the link's only
  // inside its string.)
  if (raw.length > LINK_MEMO_MAX_LENGTH || st.quoteEscaped) return fullLink(st, s, e, base, raw);
  const known = linkMemo.get(raw);
  if (known !== undefined && sameCandidate(known, st, s)) return memoLink(known, st, s, e, base, raw);
  const link = fullLink(st, s, e, base, raw);
  remember(raw, st, s, link);
  return link;
}

let fastPath = true;

/**
 * Internal to src/detect, not in the package entry: `false` sends every link through the full conversion, without
 * the memo, so test/detect-convert-fastpath.test.ts can check that the fast path and the memo give the same Links.
 * Empties the memo. Returns the previous value.
 */
export function setConvertFastPath(on: boolean): boolean {
  const was = fastPath;
  fastPath = on;
  linkMemo.clear();
  return was;
}

// Memo (performance) of the full conversion, for the links quickLink leaves to it (IDN hosts, `{` `|` and other
// characters a URI may not hold, wrapped links): they are few, so that code stays cold in V8 (tens of µs a link where
// quickLink takes well under one), and the same link text recurs in running text (an IDN host linked again and
// again). The conversion is a pure function of the text and of what the scanner found in it (kind, scheme, host
// range, wrapping) and the document charset, all checked on a hit; what belongs to the occurrence (bidi-control,
// userinfo, link-too-long, the offsets) is not remembered. So a hit gives the Link a miss would give (checked by
// test/detect-convert-fastpath.test.ts). Bounded as src/iri/idna.ts bounds its memo: at most LINK_MEMO_SIZE texts of
// at most LINK_MEMO_MAX_LENGTH units, cleared when full. Every Link is a new object with its own diagnostics array.
// (A memo in front of quickLink too was measured slower: hashing a new string costs more than quickLink.)
const LINK_MEMO_SIZE = 2048;
const LINK_MEMO_MAX_LENGTH = 256;

interface Converted {
  kind: Link['kind'];
  scheme: string;
  schemeInferred: boolean;
  wrapped: boolean;
  /** The scanned host, relative to the link (0, 0 when none). */
  hostStart: number;
  hostEnd: number;
  documentCharset: string | undefined;
  uri: string;
  iri: string;
  /** The diagnostics of the conversion (idna-failed … invalid-percent-encoding), in order. */
  found: DiagnosticCode[];
  conversionFailed: boolean;
}

const linkMemo = new BoundedMemo<Converted>(LINK_MEMO_SIZE, LINK_MEMO_MAX_LENGTH);

function relativeHost(st: ScanState, s: number, n: number): number {
  return st.hostEnd > st.hostStart && st.hostStart >= s && st.hostEnd <= s + n ? st.hostStart - s : -1;
}

function sameCandidate(c: Converted, st: ScanState, s: number): boolean {
  return c.kind === st.kind && c.scheme === st.scheme && c.schemeInferred === st.schemeInferred &&
    c.wrapped === st.wrapped && c.documentCharset === st.opts.documentCharset &&
    (st.hostEnd > st.hostStart ? c.hostStart === st.hostStart - s && c.hostEnd === st.hostEnd - s : c.hostEnd === 0);
}

function remember(raw: string, st: ScanState, s: number, link: Link): void {
  let hostStart = 0;
  let hostEnd = 0;
  if (st.hostEnd > st.hostStart) {
    // a host outside the link would make the conversion depend on more than the text: not remembered
    if (relativeHost(st, s, raw.length) < 0) return;
    hostStart = st.hostStart - s;
    hostEnd = st.hostEnd - s;
  }
  const found: DiagnosticCode[] = [];
  let conversionFailed = false;
  for (const d of link.diagnostics) {
    if (d === 'conversion-failed') conversionFailed = true;
    else if (d !== 'bidi-control' && d !== 'userinfo' && d !== 'wrapped' && d !== 'link-too-long') found.push(d);
  }
  linkMemo.set(raw, {
    kind: st.kind,
    scheme: st.scheme,
    schemeInferred: st.schemeInferred,
    wrapped: st.wrapped,
    hostStart,
    hostEnd,
    documentCharset: st.opts.documentCharset,
    uri: detached(link.uri),
    iri: detached(link.iri),
    found,
    conversionFailed,
  });
}

/** The Link of a remembered conversion. */
function memoLink(c: Converted, st: ScanState, s: number, e: number, base: number, raw: string): Link {
  return linkOf(st, s, e, base, raw, c.found, c.uri, c.iri, c.conversionFailed);
}

/**
 * The Link of the candidate, with the diagnostics in their fixed order: what belongs to the occurrence (bidi-control),
 * then the conversion's own (`found`: idna-failed … invalid-percent-encoding), then userinfo, wrapped, link-too-long
 * and conversion-failed.
 */
function linkOf(
  st: ScanState,
  s: number,
  e: number,
  base: number,
  raw: string,
  found: readonly DiagnosticCode[],
  uri: string,
  iri: string,
  conversionFailed: boolean,
): Link {
  const diagnostics: DiagnosticCode[] = [];
  if (st.bidiStop) diagnostics.push('bidi-control');
  for (const d of found) diagnostics.push(d);
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

// P1: a bidi control right before or after the link (its scan stopped there).
function markBidiStop(st: ScanState, s: number, e: number): void {
  if (st.bidiStop) return;
  const text = st.text;
  if (s > 0 && isBidiControl(text.charCodeAt(s - 1))) st.bidiStop = true;
  else if (e < st.end && isBidiControl(text.charCodeAt(e))) st.bidiStop = true;
}

/** The full conversion: toUri (RFC 3987 §3.1, UTS #46 hosts), toIri (RFC 3987 §3.2), toValidUri, the checks. */
function fullLink(st: ScanState, s: number, e: number, base: number, raw: string): Link {
  const text = st.text;

  let iriText = st.wrapped ? removeWrapSpace(raw) : raw;
  if (st.jsonEscaped) iriText = unescapeJson(iriText);
  // (`https\://…`: the colon's escape, url.ts schemeBefore)
  if (st.colonEscaped) iriText = iriText.replace('\\:', ':');
  // (`'…/wiki/Ender\'s_Game'`: a string literal's escaped quotation mark, terminate.ts)
  if (st.quoteEscaped) iriText = iriText.replace(/\\(["'])/g, '$1');
  if (st.schemeInferred) iriText = st.kind === 'email' ? 'mailto:' + mailtoAddress(iriText) : st.scheme + '://' + iriText;

  const found: DiagnosticCode[] = [];
  const c = convertLinkText(iriText, raw, text, st.hostStart, st.hostEnd, st.opts.documentCharset, found);
  // displayIri: the iri keeps encoded what would end a bare link, so that it is found whole again.
  return linkOf(st, s, e, base, raw, found, c.uri, displayIri(c.iri), c.conversionFailed);
}

/**
 * RFC 8259 §7: the escapes a URL in a JSON string that escapes `/` holds (terminate.ts takes only these: `\/`, `\\`,
 * `\uXXXX`), decoded: `https:\/\/example.com\/a?b=1\u0026c=2` is `https://example.com/a?b=1&c=2`.
 */
function unescapeJson(text: string): string {
  return text.replace(/\\(?:u([0-9A-Fa-f]{4})|([\\/]))/g, (_, hex: string | undefined, c: string | undefined) =>
    hex !== undefined ? String.fromCharCode(parseInt(hex, 16)) : c!,
  );
}

/**
 * RFC 8089 Appendix E.2 and E.2.2, WHATWG URL §4.4 (file host state, path state): a drive letter after `file://` is
 * the path's, and `|` after one is `:`, as a browser reads them: `file://c|/a` and `file:///c|/a` are
 * `file:///c:/a` (toUri alone would write `file://c%7C/a`, a host no browser takes, and `file:///c%7C/a`, a
 * directory named `c|`).
 */
function fileDriveLetter(iri: string): string {
  const m = /^(file:)\/\/\/?([A-Za-z])[:|](?=\/)/i.exec(iri);
  return m === null ? iri : `${m[1]}///${m[2]}:${iri.slice(m[0].length)}`;
}

/**
 * RFC 6068 §2 item 1: in a mailto URI's addr-spec, `%`, the gen-delims other than `@` and `:`, and `&` `;` `=` must be
 * percent-encoded. A bare address's local part may hold `/ ? # % & =` (UTS #58 Link_Email takes RFC 5322 atext;
 * `;` `[` `]` are not atext): `a?b@x.example` is that address, `mailto:a%3Fb@x.example`, not `mailto:a` with a query,
 * and `%` is a character of the address, not an escape (`fallingrock.net%david@fallingrock.net`, the percent hack
 * of source routing, is `mailto:fallingrock.net%25david@…`: read as an escape it named the mailbox `…\xDAvid`;
 * found in review).
 */
export function mailtoAddress(address: string): string {
  const at = address.lastIndexOf('@');
  let out = '';
  let from = 0;
  for (let i = 0; i < at; i++) {
    const c = address.charCodeAt(i);
    if (c >= 128 || MAILTO_ENCODED[c] === 0) continue;
    out += address.slice(from, i) + pctByte(c);
    from = i + 1;
  }
  return from === 0 ? address : out + address.slice(from);
}

/** 1 for the atext characters mailtoAddress encodes (RFC 6068 §2 item 1). */
const MAILTO_ENCODED = new Uint8Array(128);
for (const ch of '/?#%&=') MAILTO_ENCODED[ch.charCodeAt(0)] = 1;

/** Does the local part raw[0, at) hold a character mailtoAddress encodes? */
function hasMailtoEncoded(raw: string, at: number): boolean {
  for (let i = 0; i < at; i++) {
    const c = raw.charCodeAt(i);
    if (c < 128 && MAILTO_ENCODED[c] === 1) return true;
  }
  return false;
}

/** What convertLinkText gives: the two forms, and whether a conversion failed (`conversion-failed` is the caller's). */
export interface ConvertedLink {
  uri: string;
  iri: string;
  conversionFailed: boolean;
}

/**
 * Deviation (UTS #46 UseSTD3ASCIIRules, RFC 3987 §3.1; to-uri.ts toLinkUri): the uri of a link takes `_` in an
 * all-ASCII host without an ACE label (`http://other_side.blogspot.com/`), as browsers do; toUri keeps STD3.
 */
const UNDERSCORE_HOSTS = true;

/**
 * The conversion every link shares — the detector's and the Markdown mode's destinations: `iriText` (the link
 * with its scheme) to its uri (toUri with UTS #46 hosts, then toValidUri: an RFC 3986 URI) and its iri (toIri),
 * pushing onto `diagnostics`, in this order, `idna-failed`, `mixed-script-host` and `confusable-host` (UTS #39, for
 * the host hostText[hostStart, hostEnd) when it has a non-ASCII character or an ACE label), `bidi-component`
 * (RFC 3987 §4.2) and `invalid-percent-encoding` (a `%` in `written` not followed by two hex digits).
 * The uri is to-uri.ts toLinkUri's: the scheme and DNS hosts in lower case, as UTS #46 ToASCII writes them.
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
  if ((iriText.charCodeAt(0) | 0x20) === 0x66) iriText = fileDriveLetter(iriText); // `f`: maybe file:
  let uri: string;
  let charset = documentCharset; // the charset the uri's query is in (undefined: UTF-8)
  let idnaFailed = false;
  let conversionFailed = false;
  try {
    uri = toLinkUri(iriText, 'idna', documentCharset, UNDERSCORE_HOSTS);
  } catch (err) {
    if (!(err instanceof IriError)) throw err;
    if (err.code === 'idna-failed') idnaFailed = true;
    else conversionFailed = true;
    ({ uri, charset } = fallbackUri(iriText, idnaFailed, documentCharset));
  }
  let iri: string;
  try {
    iri = toLinkIri(uri, queryInCharset(uri, charset));
  } catch {
    conversionFailed = true;
    iri = iriText;
  }
  // The iri above is the readable form of what was written (`[`, a second `#` shown as they are); the uri, which
  // an href gets, must be an RFC 3986 URI.
  uri = toValidUri(uri);

  if (idnaFailed) diagnostics.push('idna-failed');
  if (hostEnd > hostStart && needsHostCheck(hostText, hostStart, hostEnd)) {
    const found = hostChecks(hostText.slice(hostStart, hostEnd));
    if ((found & MIXED_SCRIPT) !== 0) diagnostics.push('mixed-script-host');
    if ((found & CONFUSABLE) !== 0) diagnostics.push('confusable-host');
  }
  if (checkIriBidi(iri).length > 0) diagnostics.push('bidi-component');
  if (hasInvalidPercent(written)) diagnostics.push('invalid-percent-encoding');
  return { uri, iri, conversionFailed };
}

/**
 * The uri when toUri failed, and the charset of its query: after an IDNA failure, with the host percent-encoded
 * (the query still in the document charset); else, or if that fails too (a document charset that cannot hold the
 * query), without the charset; as a last resort the text itself.
 */
function fallbackUri(
  iriText: string,
  idnaFailed: boolean,
  documentCharset: string | undefined,
): { uri: string; charset: string | undefined } {
  const ways: ReadonlyArray<readonly ['idna' | 'percent', string | undefined]> = idnaFailed
    ? [['percent', documentCharset], ['percent', undefined]]
    : [['idna', undefined], ['percent', undefined]];
  for (const [host, charset] of ways) {
    try {
      return { uri: toLinkUri(iriText, host, charset, UNDERSCORE_HOSTS), charset };
    } catch {
      // try the next way
    }
  }
  return { uri: iriText, charset: undefined };
}

/**
 * bis §3.5: whether the query of `uri` (scheme in lower case, as toLinkUri writes it) is percent-encoded in
 * `charset` rather than UTF-8: an http(s) link, a charset that is not UCS-based (charsets.ts queryCharset).
 */
function queryInCharset(uri: string, charset: string | undefined): boolean {
  if (charset === undefined || !(uri.startsWith('http:') || uri.startsWith('https:'))) return false;
  return queryCharset(charset) !== 'utf-8';
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

const MIXED_SCRIPT = 1;
const CONFUSABLE = 2;

// Memo (performance): hosts repeat in running text, and the UTS #39 checks (UTS #46 ToUnicode of ACE labels, the
// restriction level of each label, skeletons) are pure functions of the host as written, so a memo cannot change
// a result. Bounded as src/iri/idna.ts bounds its memo: at most HOST_MEMO_SIZE hosts of at most 256 units
// (RFC 1035 §2.3.4: 253 octets is the longest name), cleared when full.
const HOST_MEMO_SIZE = 2048;
const hostMemo = new BoundedMemo<number>(HOST_MEMO_SIZE, 256);

/** UTS #39 for one host: MIXED_SCRIPT (a label isSuspiciousLabel finds) and CONFUSABLE (confusableHost) bits. */
function hostChecks(host: string): number {
  const known = hostMemo.get(host);
  if (known !== undefined) return known;
  const labels = hostLabels(host);
  const found =
    (labels.some(isSuspiciousLabel) ? MIXED_SCRIPT : 0) | (confusableHost(labels.join('.')) !== null ? CONFUSABLE : 0);
  hostMemo.set(host, found);
  return found;
}

/**
 * The labels of `host` as the UTS #39 checks see them: split at the UTS #46 label separators (isHostDot), each
 * ACE label (`xn--`) decoded by UTS #46 ToUnicode, so `xn--pypal-4ve` is judged as `pаypal`; other labels, and ACE
 * labels that do not decode without error, as written.
 */
function hostLabels(host: string): string[] {
  const labels: string[] = [];
  let from = 0;
  for (let i = 0; i <= host.length; i++) {
    if (i < host.length && !isHostDot(host.charCodeAt(i))) continue;
    const label = host.slice(from, i);
    if (isAceLabel(label)) {
      const decoded = domainToUnicode(label);
      labels.push(decoded.error ? label : decoded.domain); // invalid Punycode: judged as written (idna-failed says it)
    } else {
      labels.push(label);
    }
    from = i + 1;
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
 * holds no `[`, `]`, `%`, at most one `#` and at most one `@` (almost every link; a userinfo `@` needs a second one).
 */
export function toValidUri(uri: string): string {
  let hashes = 0;
  let ats = 0;
  let suspect = false;
  for (let i = 0; i < uri.length; i++) {
    const c = uri.charCodeAt(i);
    if (c === 0x5b || c === 0x5d || c === 0x25 || (c === 0x23 && ++hashes > 1) || (c === 0x40 && ++ats > 1)) {
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
      else if (c === 0x25 && !isPctTriplet(uri, k)) put(k, '%25');
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
      else if (c === 0x25 && !isPctTriplet(uri, k)) put(k, '%25');
    }
    i = e;
  }
  // §3.3 path, §3.4 query, §3.5 fragment: pchar / "/" / "?" — no `[`, `]`, and `#` only to start the fragment.
  let inFragment = false;
  for (; i < uri.length; i++) {
    const c = uri.charCodeAt(i);
    if (c === 0x5b) put(i, '%5B');
    else if (c === 0x5d) put(i, '%5D');
    else if (c === 0x25 && !isPctTriplet(uri, i)) put(i, '%25');
    else if (c === 0x23) {
      if (inFragment) put(i, '%23');
      inFragment = true;
    }
  }
  return last === 0 ? uri : out + uri.slice(last);
}

/** A `%` not followed by two hex digits. */
function hasInvalidPercent(s: string): boolean {
  for (let i = s.indexOf('%'); i >= 0; i = s.indexOf('%', i + 1)) if (!isPctTriplet(s, i)) return true;
  return false;
}

// ASCII characters that toUri copies and toIri leaves alone: unreserved and reserved (RFC 3986 §2.2, §2.3); `%` is
// judged by quickLink. `[` and `]` are left out: outside an IP-literal they need toValidUri, and IP-literal links
// are rare.
const PLAIN = new Uint8Array(128);
for (const ch of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?#@!$&'()*+,;=") {
  PLAIN[ch.charCodeAt(0)] = 1;
}
// RFC 3986 §2.3 unreserved: the `%XX` octets below 0x80 that toIri decodes (RFC 3987 §3.2 step 2).
const UNRESERVED = new Uint8Array(128);
for (const ch of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~') UNRESERVED[ch.charCodeAt(0)] = 1;

/**
 * The first character of text[from, to) that is not URI_SIMPLE (chars.ts: not unreserved or reserved, or `#`, `[`,
 * `]`; so also `%` and every non-ASCII character), or `to`. Most paths hold none: then they need no walk at all.
 */
function firstNotSimple(text: string, from: number, to: number): number {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c >= 128 || URI_SIMPLE[c] === 0) return i;
  }
  return to;
}

// What quickLink found (module state: one link at a time, no allocation per link).
/** A `%XX` that toIri decodes or re-encodes (an unreserved octet or one ≥ 0x80). */
let qDecodes = false;
/** RFC 3986 §2.1: a `%` not followed by two hex digits. */
let qStray = false;
let qHashes = 0;
/** A non-ASCII character (a scalar value: a lone surrogate makes the walk fail). */
let qNonAscii = false;
/** A non-ASCII character that the IRI conversion may not leave as it is (shownAsIs). */
let qIriCare = false;
/** A `%` (percent() saw every one the link holds: the scan's plain parts hold none). */
let qPercent = false;
/** The domain the walk validated (raw offsets; −1: none), whether it is LDH, and whether it holds A–Z. */
let qHostStart = -1;
let qHostEnd = -1;
let qHostOk = false;
let qHostUpper = false;
/** The authority holds more than one `@`: the userinfo holds one, which toValidUri encodes. */
let qUserinfoAt = false;

/**
 * Walks raw[i, e): every ASCII character PLAIN or `%`, every non-ASCII one (only when `ascii` is false) a scalar
 * value (a lone surrogate has no UTF-8: toUri fails, the full path says conversion-failed). Notes `%` triplets,
 * stray `%`, `#` and non-ASCII characters in the q* state. Returns false when the link cannot take the fast path.
 */
function walk(raw: string, i: number, e: number, ascii: boolean): boolean {
  for (; i < e; i++) {
    const c = raw.charCodeAt(i);
    if (c < 128) {
      if (PLAIN[c] === 1) {
        if (c === 0x23) qHashes++;
      } else if (c === 0x25) {
        i = percent(raw, i, e);
      } else {
        return false;
      }
      continue;
    }
    if (ascii) return false;
    let cp = c;
    if (c >= 0xd800 && c <= 0xdfff) {
      // RFC 3987 §3.1 step 2.1: only a scalar value has UTF-8; a lone surrogate is the full path's
      // (conversion-failed).
      if (c > 0xdbff || i + 1 >= e) return false;
      const d = raw.charCodeAt(i + 1);
      if (d < 0xdc00 || d > 0xdfff) return false;
      cp = ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
      i++;
    }
    qNonAscii = true;
    if (!qIriCare && !shownAsIs(cp)) qIriCare = true;
  }
  return true;
}

/**
 * Does the conversion leave the non-ASCII character `cp` of a link as it is? toIri keeps it raw (RFC 3987 §3.2
 * step 4: ucschar, nothing invisible or space-like, and no bidi formatting character, which termOf makes Hard),
 * displayIri shows it (Link_Term Include: no character the detector would end a bare link at) and no RFC 3987 §4.2
 * rule can concern it (not right-to-left). A link whose every non-ASCII character is so, with no `%XX` toIri
 * changes, has its text (after the scheme and domain in lower case) as its iri, and checkIriBidi finds nothing in
 * it: quickLink then calls none of the three (performance: each reads the whole link again).
 */
function shownAsIs(cp: number): boolean {
  return isUcschar(cp) && termOf(cp) === INCLUDE && !isInvisibleOrSpace(cp) && !isRtl(cp);
}

/** The `%` at raw[i]: notes a stray `%` (RFC 3986 §2.1) or a triplet toIri changes; returns the last index read. */
function percent(raw: string, i: number, e: number): number {
  qPercent = true;
  const hi = i + 2 < e ? hexValue(raw.charCodeAt(i + 1)) : -1;
  const lo = hi >= 0 ? hexValue(raw.charCodeAt(i + 2)) : -1;
  if (lo < 0) {
    qStray = true;
    return i;
  }
  const octet = hi * 16 + lo;
  if (octet >= 0x80 || UNRESERVED[octet] === 1) qDecodes = true;
  return i + 2;
}

/** The label raw[a, i): non-empty, no hyphen first or last, none in both the 3rd and 4th positions (CheckHyphens). */
function labelIsLdh(raw: string, a: number, i: number): boolean {
  const n = i - a;
  if (n === 0 || raw.charCodeAt(a) === 0x2d || raw.charCodeAt(i - 1) === 0x2d) return false;
  return !(n >= 4 && raw.charCodeAt(a + 2) === 0x2d && raw.charCodeAt(a + 3) === 0x2d);
}

// The characters of an authority or mailto path for walkAuthority and walkMailto (RFC 3986 §3.2, RFC 6068 §2): 0 not
// PLAIN (nor `%`), else what the host check does with it. A host passes when it is a domain to-uri.ts isLdhDomain
// accepts: non-empty labels of ASCII letters (any case), digits and hyphens (and `_` with UNDERSCORE_HOSTS), no
// hyphen first or last and none in both the 3rd and 4th positions (UTS #46 CheckHyphens; so no `xn--`), an empty
// label only as a trailing root dot. toLinkUri takes such a domain without UTS #46 and writes it in lower case.
const A_OTHER = 1; // PLAIN, but no LDH character: fine in userinfo and port, not in a host
const A_LDH = 2; // a–z 0–9 (and `_` with UNDERSCORE_HOSTS)
const A_UPPER = 3; // A–Z
const A_HYPHEN = 4;
const A_DOT = 5;
const A_AT = 6;
const A_COLON = 7;
const A_END = 8; // `/` `?` `#`
const A_PERCENT = 9;
const AUTHORITY = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  if (PLAIN[c] !== 1) continue;
  AUTHORITY[c] =
    (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || (c === 0x5f && UNDERSCORE_HOSTS) ? A_LDH
    : c >= 0x41 && c <= 0x5a ? A_UPPER
    : c === 0x2d ? A_HYPHEN : c === 0x2e ? A_DOT : c === 0x40 ? A_AT : c === 0x3a ? A_COLON
    : c === 0x2f || c === 0x3f || c === 0x23 ? A_END : A_OTHER;
}
AUTHORITY[0x25] = A_PERCENT;

/**
 * RFC 3986 §3.2: walks the authority from raw[a] up to `/` `?` `#` (returned; −1 when the link cannot take the fast
 * path: a character that is not ASCII, PLAIN or `%`). With `dns`, checks the host — after the last `@`, before the
 * last `:` (§3.2.2, §3.2.3; parse.ts splitAuthority) — as above, in the same pass, with local state.
 */
function walkAuthority(raw: string, a: number, dns: boolean): number {
  const n = raw.length;
  let hostStart = a;
  let labelAt = a; // start of the current label
  let hostEnd = -1; // the host ended at a `:`
  let ok = true;
  let upper = false;
  let i = a;
  for (; i < n; i++) {
    const c = raw.charCodeAt(i);
    const k = c < 128 ? AUTHORITY[c]! : 0;
    if (k === A_LDH) continue;
    if (k === A_END) break;
    if (k === 0) return -1;
    if (k === A_PERCENT) {
      i = percent(raw, i, n);
      ok = false;
    } else if (k === A_AT) {
      if (hostStart > a) qUserinfoAt = true; // RFC 3986 §3.2.1: the userinfo holds an `@` (toValidUri: `%40`)
      hostStart = labelAt = i + 1;
      hostEnd = -1;
      ok = true;
      upper = false;
    } else if (hostEnd >= 0) {
      if (k === A_COLON) ok = false; // the host runs to the last `:`: it holds the one before
    } else if (k === A_UPPER) {
      upper = true;
    } else if (k === A_DOT) {
      if (!labelIsLdh(raw, labelAt, i)) ok = false;
      labelAt = i + 1;
    } else if (k === A_COLON) {
      if (labelAt === i ? i === hostStart : !labelIsLdh(raw, labelAt, i)) ok = false;
      hostEnd = i;
    } else if (k === A_OTHER) {
      ok = false;
    }
  }
  if (!dns) return i;
  if (hostEnd < 0) {
    // The last label: empty only after a trailing root dot of a non-empty domain.
    if (labelAt === i ? i === hostStart : !labelIsLdh(raw, labelAt, i)) ok = false;
    hostEnd = i;
  }
  qHostStart = hostStart;
  qHostEnd = hostEnd;
  qHostOk = ok;
  qHostUpper = upper;
  return i;
}

/**
 * RFC 6068 §2: walks a mailto path from raw[a] up to `?` `#` (returned; −1 when the link cannot take the fast path:
 * a `,` (several addresses), a character that is not PLAIN or `%`, or a non-ASCII one when `ascii`); checks the
 * domain after the last `@` as walkAuthority checks a host (qHostOk stays false when there is no `@`).
 */
function walkMailto(raw: string, a: number, ascii: boolean): number {
  const n = raw.length;
  let hostStart = -1;
  let labelAt = 0;
  let ok = false;
  let upper = false;
  let i = a;
  for (; i < n; i++) {
    const c = raw.charCodeAt(i);
    if (c >= 128) {
      if (ascii) return -1;
      // in the local part toUri percent-encodes it; in the domain it needs UTS #46
      const width = c >= 0xd800 && c <= 0xdbff ? 2 : 1;
      if (!walk(raw, i, i + width, false)) return -1;
      i += width - 1;
      ok = false;
      continue;
    }
    const k = AUTHORITY[c]!;
    if (k === A_LDH) continue;
    if (k === A_END) {
      if (c === 0x2f) {
        ok = false; // `/` is no end here, and no domain character
        continue;
      }
      break;
    }
    if (k === 0) return -1;
    if (c === 0x2c) return -1;
    if (k === A_PERCENT) {
      i = percent(raw, i, n);
      ok = false;
    } else if (k === A_AT) {
      hostStart = labelAt = i + 1;
      ok = true;
      upper = false;
    } else if (k === A_UPPER) {
      upper = true;
    } else if (k === A_DOT) {
      if (!labelIsLdh(raw, labelAt, i)) ok = false;
      labelAt = i + 1;
    } else if (k !== A_HYPHEN) {
      ok = false; // A_COLON, A_OTHER
    }
  }
  if (hostStart >= 0) {
    // The last label: empty only after a trailing root dot of a non-empty domain.
    if (labelAt === i ? i === hostStart : !labelIsLdh(raw, labelAt, i)) ok = false;
    qHostStart = hostStart;
    qHostEnd = i;
    qHostUpper = upper;
  }
  qHostOk = ok;
  return i;
}

/**
 * The Link of a link whose conversion needs neither the IRI parser nor UTS #46, or null when the link needs the
 * full conversion (test/detect-convert-fastpath.test.ts checks the two agree). It applies when the link is not
 * wrapped and:
 * - every ASCII character is PLAIN or `%`; non-ASCII characters (scalar values) may appear anywhere but in the
 *   authority, and only when no document charset is set (bis §3.5 would encode the query in it);
 * - the host of a DNS scheme (RFC 3986 §3.2.2: after the authority's last `@`, before a port) or the domain of a
 *   one-address mailto (RFC 6068 §2) is LDH (the AUTHORITY table; `_` as toLinkUri allows it): UTS #46 §4.2 ToASCII
 *   accepts it and writes it in lower case; other schemes' hosts toUri does not map;
 * - the scanned host has no non-ASCII character and no ACE label (`xn--`): only those reach the UTS #39 checks.
 * Then toLinkUri(text) is the text with the scheme and that domain in lower case and every non-ASCII character
 * percent-encoded as UTF-8 (RFC 3987 §3.1 step 2: what toUri does to each component, the host left as it is), so:
 * - iri = displayIri(toIri(that text before the encoding)): toIri reads a raw non-ASCII character as its UTF-8
 *   octets would be read (to-iri.ts, step 1), and both are the identity when every non-ASCII character is
 *   shownAsIs and there is no `%XX` toIri decodes or re-encodes (reserved, `%` and disallowed ASCII triplets stay as
 *   written; step 2), unless the text ends in `.` or the scan noted a word displayIri encodes (ScanState.pathGlued:
 *   glued.ts; the three then run as for a character not shownAsIs);
 * - uri = toValidUri(the encoded text), the text itself unless a `%` starts no `%XX` (→ `%25`,
 *   `invalid-percent-encoding`), a second `#` follows the fragment's (→ `%23`, RFC 3986 §3.5) or the userinfo
 *   holds an `@` (→ `%40`, §3.2.1: `<ftp://a@b@example.com/>`, a link taken on to its `>`);
 * - bidi-component only when the iri has a right-to-left character (so one not shownAsIs, or one decoded).
 * Most links hold only unreserved and reserved characters but `#` (URI_SIMPLE ones): then only the authority (or a
 * mailto path) is walked, and not even that when the scan found it plain; the rest is walked from its first other
 * character, which terminate() notes as it reads it (ScanState.plainAuthority, pathNotSimple).
 */
function quickLink(st: ScanState, s: number, e: number, base: number, raw: string): Link | null {
  const n = raw.length;
  const email = st.kind === 'email';
  qDecodes = false;
  qStray = false;
  qHashes = 0;
  qNonAscii = false;
  qIriCare = false;
  qPercent = false;
  qHostStart = -1;
  qHostOk = false;
  qHostUpper = false;
  qUserinfoAt = false;
  // A file link may hold a drive letter the full conversion rewrites (fileDriveLetter); file links are rare.
  if (st.scheme === 'file') return null;
  // Where the hier-part starts (RFC 3986 §3), and what toUri validates in it.
  let i = 0;
  let schemeUpper = false;
  let authority: boolean;
  let mailto: boolean;
  if (st.schemeInferred) {
    authority = !email;
    mailto = email;
  } else {
    const colon = st.scheme.length;
    if (raw.charCodeAt(colon) !== 0x3a) return null;
    for (let k = 0; k < colon; k++) {
      const c = raw.charCodeAt(k);
      if (c >= 0x41 && c <= 0x5a) schemeUpper = true;
    }
    i = colon + 1;
    authority = raw.charCodeAt(i) === 0x2f && raw.charCodeAt(i + 1) === 0x2f;
    if (authority) i += 2;
    mailto = !authority && st.scheme === 'mailto';
  }
  // bis §3.5: with a document charset the query of a non-ASCII link may be encoded in it; the full path decides.
  const ascii = st.opts.documentCharset !== undefined;
  if ((authority || mailto) && st.plainAuthority) {
    // The scan saw the host (or the address) and found it plain (ScanState.plainAuthority): what the walk below
    // would find — an LDH domain in lower case, nothing toIri decodes, no `/` in an address — without reading it
    // again. The rest starts at the domain's end (a trailing dot before a path is walked there: it is PLAIN).
    qHostStart = st.hostStart - s;
    qHostEnd = st.hostEnd - s;
    qHostOk = true;
    i = qHostEnd;
  } else if (authority) {
    const dns = isDnsScheme(st.scheme);
    i = walkAuthority(raw, i, dns);
    if (i < 0 || (dns && !qHostOk)) return null;
  } else if (mailto) {
    i = walkMailto(raw, i, ascii);
    if (i < 0 || !qHostOk) return null;
    // A bare address with `/ % & =` in its local part: fullLink encodes it (mailtoAddress; `?` `#` end the walk above).
    if (email && hasMailtoEncoded(raw, qHostStart)) return null;
  }
  // The rest (path, query, fragment): walked from its first character that is not unreserved or reserved (what comes
  // before holds nothing walk() notes), found by terminate() when it walked the rest (ScanState.pathNotSimple).
  let from = s + i;
  if (st.pathStart >= 0 && st.pathStart <= from) {
    if (st.pathNotSimple < 0) from = e;
    else if (st.pathNotSimple > from) from = st.pathNotSimple;
  } else {
    from = firstNotSimple(st.text, from, e);
  }
  if (from < e && !walk(raw, from - s, n, ascii)) return null;
  if (st.pathGlued) qIriCare = true;
  // The scanned host, unless it is the domain just found LDH (which has no ACE label).
  if (st.hostEnd > st.hostStart && (qHostStart !== st.hostStart - s || qHostEnd !== st.hostEnd - s || !qHostOk) &&
    needsHostCheck(st.text, st.hostStart, st.hostEnd)) {
    return null;
  }

  let written: string; // the uri before the RFC 3986 repair, with raw non-ASCII characters
  const prefix = st.schemeInferred ? (email ? 'mailto:' : st.scheme + '://') : '';
  if (!schemeUpper && !qHostUpper) {
    written = st.schemeInferred ? prefix + raw : raw;
  } else {
    // RFC 3986 §3.1, UTS #46 §4 step 1: the scheme and the validated domain in lower case (to-uri.ts toLinkUri).
    let body = raw;
    if (qHostUpper) {
      body = raw.slice(0, qHostStart) + raw.slice(qHostStart, qHostEnd).toLowerCase() + raw.slice(qHostEnd);
    }
    written = schemeUpper ? st.scheme + body.slice(st.scheme.length) : prefix + body;
  }
  const decoded =
    qIriCare || qDecodes || qStray ? toLinkIri(written, queryInCharset(written, st.opts.documentCharset)) : written;
  // encodeURI (ECMA-262) encodes what encodeGeneral does, natively, but for `%` (and `[` `]`, which walk
  // refuses): it leaves exactly the PLAIN characters unescaped and writes the rest as UTF-8, uppercase hex.
  let uri = qNonAscii ? (qPercent ? encodeGeneral(written) : encodeURI(written)) : written;
  if (qStray || qHashes > 1 || qUserinfoAt) uri = toValidUri(uri);
  const diagnostics: DiagnosticCode[] = [];
  // The order of fullLink's diagnostics (idna-failed, the host checks, wrapped and conversion-failed cannot occur).
  if (st.bidiStop) diagnostics.push('bidi-control');
  if ((qIriCare || qDecodes) && checkIriBidi(decoded).length > 0) diagnostics.push('bidi-component'); // toIri's iri
  if (qStray) diagnostics.push('invalid-percent-encoding');
  if (st.userinfo) diagnostics.push('userinfo');
  if (st.tooLong) diagnostics.push('link-too-long');
  return {
    start: s + base,
    end: e + base,
    text: raw,
    kind: st.kind,
    scheme: email ? 'mailto' : st.scheme,
    schemeInferred: st.schemeInferred,
    uri,
    // All ASCII and nothing decoded: displayIri could change only a final `.` (performance: most links skip it).
    // `written` ends as `raw` does; asked of `written`, a rope (`prefix + raw`), charCodeAt would first flatten it.
    iri: qIriCare || qDecodes || qStray || raw.charCodeAt(n - 1) === 0x2e ? displayIri(decoded) : written,
    diagnostics,
  };
}
