// IRI comparison: the comparison ladder of RFC 3987 §5.3 (after RFC 3986 §6.2).
//
// Each rung is a normalization applied to the result of the rung below it, and two IRIs are equivalent
// at a rung when their normal forms are equal strings:
//
//   simple            s                                         §5.3.1
//   case              N1 = caseNormalize(s)                     §5.3.2.1
//   percent-encoding  N2 = percentEncodingNormalize(N1)         §5.3.2.3
//   path-segment      N3 = pathSegmentNormalize(N2)             §5.3.2.4
//   scheme            N4 = schemeBasedNormalize(N3)             §5.3.3
//
// Because every rung is a function of the rung below, equivalence at one rung implies equivalence at
// every rung above it (the ladder is monotonic), and each rung is reflexive, symmetric and transitive.
// Character normalization (§5.3.2.2) is never applied: "Equivalence of IRIs MUST rely on the assumption
// that IRIs are appropriately pre-character-normalized rather than apply character normalization when
// comparing two IRIs" (vector EQV-07: NFC and NFD résumé are different at every rung).
//
// Nothing here throws on a string: where a mapping is undefined (a lone surrogate has no UTF-8 form, a
// host fails IDNA) the part concerned is compared as written, which can only make two IRIs equal when
// they were already equal at the rung below (see each function).

import { badArgument, IriError } from '../errors.js';
import { isAlpha, isSchemeChar, isUnreserved } from './chars.js';
import { isDnsScheme } from './idna.js';
import { recomposeIri, splitIriReference, type IriComponents } from './parse.js';
import { isPctTriplet, pctByte, tripletOctet, uppercasePctHex } from './percent.js';
import { toUri } from './to-uri.js';

/** The rungs of the RFC 3987 §5.3 comparison ladder, from the cheapest to the most thorough. */
export type ComparisonLevel = 'simple' | 'case' | 'percent-encoding' | 'path-segment' | 'scheme';

const LEVELS: readonly ComparisonLevel[] = ['simple', 'case', 'percent-encoding', 'path-segment', 'scheme'];

/**
 * RFC 3987 §5.3: whether `a` and `b` are equivalent at the given rung of the comparison ladder. Each rung
 * includes the ones below it. Never throws on strings; a bad `level` (or a non-string IRI) is a TypeError.
 *
 * @example compareIris('HTTP://www.EXAMPLE.com/', 'http://www.example.com/', 'case') // true
 * @example compareIris('http://example.org/~user', 'http://example.org/%7euser', 'case') // false
 * @example compareIris('http://example.org/~user', 'http://example.org/%7euser', 'percent-encoding') // true
 * @example compareIris('http://résumé.example.org', 'http://xn--rsum-bpad.example.org', 'scheme') // true
 */
export function compareIris(a: string, b: string, level: ComparisonLevel): boolean {
  if (typeof a !== 'string') throw badArgument('compareIris', 'a', 'a string', a);
  if (typeof b !== 'string') throw badArgument('compareIris', 'b', 'a string', b);
  const rung = ladderRung('compareIris', level);
  // §5.3.1: identical strings are equivalent at every rung.
  if (a === b) return true;
  if (rung === 0) return false;
  return normalizeToRung(a, rung) === normalizeToRung(b, rung);
}

/**
 * The normal form of `iri` at a rung of the ladder: `compareIris(a, b, level)` is exactly
 * `comparisonKey(a, level) === comparisonKey(b, level)`, so the key can index a Map or a Set
 * (deduplication). The key is for comparison only: RFC 3987 §5.3.2.3 says the original form "MUST be
 * preserved" for any other use. At 'simple' the key is `iri` itself.
 *
 * @example comparisonKey('eXAMPLE://a/./b/../b/%63/%7bfoo%7d/ros%C3%A9', 'path-segment')
 *   // 'example://a/b/c/%7Bfoo%7D/ros%C3%A9'
 */
export function comparisonKey(iri: string, level: ComparisonLevel): string {
  if (typeof iri !== 'string') throw badArgument('comparisonKey', 'iri', 'a string', iri);
  return normalizeToRung(iri, ladderRung('comparisonKey', level));
}

function ladderRung(fn: string, level: unknown): number {
  const rung = LEVELS.indexOf(level as ComparisonLevel);
  if (rung < 0) {
    throw badArgument(fn, 'level', "'simple', 'case', 'percent-encoding', 'path-segment' or 'scheme'", level);
  }
  return rung;
}

function normalizeToRung(s: string, rung: number): string {
  if (rung >= 1) s = caseNormalize(s);
  if (rung >= 2) s = percentEncodingNormalize(s);
  if (rung >= 3) s = pathSegmentNormalize(s);
  if (rung >= 4) s = schemeBasedNormalize(s);
  return s;
}

// ---------------------------------------------------------------------------------------------------
// RFC 3987 §5.3.2.1 Case Normalization: "the hexadecimal digits within a percent-encoding triplet …
// should be normalized to use uppercase letters", and "the scheme and US-ASCII only host are case
// insensitive and therefore should be normalized to lowercase". A host with any non-ASCII character is
// left as it is: its case is a matter for IDNA, at the scheme rung (§5.3.3; vector EQV-19).
function caseNormalize(s: string): string {
  const c = splitIriReference(s);
  let changed = false;
  if (c.scheme !== undefined && isScheme(c.scheme)) {
    const lower = asciiLowercase(c.scheme);
    if (lower !== c.scheme) {
      c.scheme = lower;
      changed = true;
    }
  }
  if (c.host !== undefined && isUsAsciiHost(c.host)) {
    const lower = asciiLowercase(c.host);
    if (lower !== c.host) {
      c.host = lower;
      changed = true;
    }
  }
  return uppercasePctHex(changed ? recomposeIri(c) : s);
}

// ---------------------------------------------------------------------------------------------------
// RFC 3987 §5.3.2.3 Percent-Encoding Normalization: "the percent-encoding of both IRIs to be compared has
// to be aligned; for example, by converting both IRIs to URIs (see section 3.1), eliminating escape
// differences in the resulting URIs, and making sure that the case of the hexadecimal characters in the
// percent-encoding is always the same (preferably uppercase)". Escape differences are eliminated as
// RFC 3986 §6.2.2.2 says: triplets of unreserved characters are decoded, in every component including
// the host (vector EQV-24); triplets of reserved characters stay encoded (vector EQV-25).
function percentEncodingNormalize(s: string): string {
  const hostWasAscii = hostIsUsAscii(s);
  let uri: string;
  try {
    // RFC 3987 §3.1. The host is percent-encoded like the rest ('percent'); IDNA belongs to §5.3.3.
    uri = toUri(s, { host: 'percent' });
  } catch (e) {
    if (!(e instanceof IriError)) throw e;
    // No URI exists for this string (a lone surrogate, or a space or < > " { } | \ ^ ` that an IRI cannot
    // hold: RFC 3987 §3.1 says the conversion SHOULD fail). Its characters stay as they are; a mapped
    // URI never holds them, so this form can only equal the form of another unmappable string.
    uri = s;
  }
  const decoded = decodeUnreservedTriplets(uri);
  // A decoded triplet can put an upper-case letter into a US-ASCII host (`%41` → `A`): lowercase it
  // again (§5.3.2.1). A host that had non-ASCII characters in the IRI is left to the scheme rung.
  if (!hostWasAscii) return decoded;
  const c = splitIriReference(decoded);
  if (c.host === undefined) return decoded;
  const lower = asciiLowercaseOutsideTriplets(c.host);
  if (lower === c.host) return decoded;
  c.host = lower;
  return recomposeIri(c);
}

// RFC 3986 §2.3 / §6.2.2.2: "%41" → "A", "%7e" → "~"; every other triplet is kept, in uppercase.
function decodeUnreservedTriplets(s: string): string {
  let i = s.indexOf('%');
  if (i < 0) return s;
  const parts: string[] = [];
  let last = 0;
  for (; i < s.length; i++) {
    if (s.charCodeAt(i) !== 0x25 || !isPctTriplet(s, i)) continue;
    const octet = tripletOctet(s, i);
    const replacement = isUnreserved(octet) ? String.fromCharCode(octet) : pctByte(octet);
    if (replacement !== s.slice(i, i + 3)) {
      parts.push(s.slice(last, i), replacement);
      last = i + 3;
    }
    i += 2;
  }
  if (last === 0) return s;
  parts.push(s.slice(last));
  return parts.join('');
}

// ---------------------------------------------------------------------------------------------------
// RFC 3987 §5.3.2.4 Path Segment Normalization: "IRI normalizers should remove dot-segments by applying
// the remove_dot_segments algorithm to the path, as described in section 5.2.4 of [RFC3986]".
// Applied to hierarchical IRIs: a scheme and either an authority or an absolute path. A relative
// reference is left alone (§5.1: references "should be converted to their respective target IRIs before
// comparison"), and so is a rootless path (`urn:a/../b`), where `..` has no defined meaning.
function pathSegmentNormalize(s: string): string {
  const c = splitIriReference(s);
  if (c.scheme === undefined || !isScheme(c.scheme)) return s;
  if (c.authority === undefined && c.path.charCodeAt(0) !== 0x2f) return s;
  const path = removeDotSegments(c.path);
  if (path === c.path) return s;
  c.path = path;
  return recomposeIri(c);
}

/**
 * RFC 3986 §5.2.4 remove_dot_segments, step by step (A–E), in linear time: the output buffer is a
 * stack of segments, each with the "/" before it, so step C's "remove the last segment and its
 * preceding '/'" is one pop.
 */
export function removeDotSegments(path: string): string {
  if (typeof path !== 'string') throw badArgument('removeDotSegments', 'path', 'a string', path);
  // Only a path holding a "." segment can change.
  if (path.indexOf('.') < 0) return path;
  const output: string[] = [];
  const n = path.length;
  let i = 0; // the input buffer is path.slice(i)
  while (i < n) {
    // A. "../" or "./" at the start of the input buffer: remove it.
    if (startsWith(path, i, '../')) {
      i += 3;
    } else if (startsWith(path, i, './')) {
      i += 2;
    }
    // B. "/./" or "/." as the whole rest: replace it with "/".
    else if (startsWith(path, i, '/./')) {
      i += 2;
    } else if (i + 2 === n && startsWith(path, i, '/.')) {
      output.push('/');
      i = n;
    }
    // C. "/../" or "/.." as the whole rest: replace it with "/" and remove the last output segment.
    else if (startsWith(path, i, '/../')) {
      i += 3;
      output.pop();
    } else if (i + 3 === n && startsWith(path, i, '/..')) {
      output.pop();
      output.push('/');
      i = n;
    }
    // D. "." or ".." as the whole rest: remove it.
    else if ((i + 1 === n && path.charCodeAt(i) === 0x2e) || (i + 2 === n && startsWith(path, i, '..'))) {
      i = n;
    }
    // E. move the first segment, with its "/" if any, to the output.
    else {
      let j = path.charCodeAt(i) === 0x2f ? i + 1 : i;
      while (j < n && path.charCodeAt(j) !== 0x2f) j++;
      output.push(path.slice(i, j));
      i = j;
    }
  }
  return output.join('');
}

function startsWith(s: string, i: number, prefix: string): boolean {
  return s.startsWith(prefix, i);
}

// ---------------------------------------------------------------------------------------------------
// RFC 3987 §5.3.3 Scheme-Based Normalization, for the schemes whose rules irilink knows.
//  - "an explicit ':port', for which the port is empty or the default for the scheme, is equivalent to
//    one where the port and its ':' delimiter are elided" (vectors EQV-13/14/15): an empty port for any
//    scheme with an authority; the default port of http 80, https 443, ftp 21, ws 80, wss 443;
//  - "an IRI that uses the generic syntax for authority with an empty path should be normalized to a
//    path of '/'" (EQV-12), for those same schemes;
//  - IDN hosts "may be considered equivalent" to their ACE form (EQV-18/19): the host of those schemes
//    goes through toUri's bis §3.4.2 mapping (percent-decoding, UTS #46 ToASCII, non-transitional).
//    When ToASCII fails the host stays as it is: a percent-encoded non-ASCII host, which no successful
//    ToASCII produces, so such an IRI is equivalent only to IRIs with the very same host, as it already
//    was one rung below.
//  - "Normalization should not remove delimiters when their associated component is empty": an empty
//    query `?`, an empty fragment `#` and an empty password `user:@` stay (EQV-16/17/28). The fragment
//    "is not subject to any scheme-based normalization".
function schemeBasedNormalize(s: string): string {
  const c = splitIriReference(s);
  if (c.scheme === undefined || c.authority === undefined || c.host === undefined) return s;
  let changed = false;
  const defaultPort = DEFAULT_PORTS.get(c.scheme);
  if (c.port !== undefined && (c.port === '' || c.port === defaultPort)) {
    c.port = undefined;
    changed = true;
  }
  const dns = isDnsScheme(c.scheme);
  if (dns && c.path === '') {
    c.path = '/';
    changed = true;
  }
  if (dns && c.host !== '' && c.host.charCodeAt(0) !== 0x5b /* [ IP-literal */) {
    const ascii = idnaHost(c.scheme, c.host);
    if (ascii !== null && ascii !== c.host) {
      c.host = ascii;
      changed = true;
    }
  }
  return changed ? recomposeIri(c) : s;
}

// The host alone through toUri's bis §3.4.2 mapping (so that what the rest of the IRI holds cannot make
// it fail), or null when the mapping fails or the host would not survive being put back on its own.
function idnaHost(scheme: string, host: string): string | null {
  for (let i = 0; i < host.length; i++) {
    const c = host.charCodeAt(i);
    if (c === 0x3a || c === 0x40 || c === 0x2f || c === 0x3f || c === 0x23) return null; // : @ / ? #
  }
  try {
    const uri = toUri(scheme + '://' + host, { host: 'idna' });
    return uri.slice(scheme.length + 3);
  } catch (e) {
    if (!(e instanceof IriError)) throw e;
    return null;
  }
}

/** Default ports of the schemes irilink normalizes (RFC 7230 §2.7, RFC 959, RFC 6455). */
const DEFAULT_PORTS = new Map<string, string>([
  ['http', '80'],
  ['https', '443'],
  ['ftp', '21'],
  ['ws', '80'],
  ['wss', '443'],
]);

// ---------------------------------------------------------------------------------------------------
// Small helpers (ASCII only, by number).

/** RFC 3986 §3.1: scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ). */
function isScheme(s: string): boolean {
  if (s.length === 0 || !isAlpha(s.charCodeAt(0))) return false;
  for (let i = 1; i < s.length; i++) if (!isSchemeChar(s.charCodeAt(i))) return false;
  return true;
}

function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) >= 128) return false;
  return true;
}

function hostIsUsAscii(s: string): boolean {
  const c: IriComponents = splitIriReference(s);
  return c.host === undefined || isUsAsciiHost(c.host);
}

/**
 * RFC 3987 §5.3.2.1's "US-ASCII only host": no character outside US-ASCII, written or percent-encoded — `K%C3%A9`
 * is the host `Ké`, as toUri writes it. Decided so, the rungs give an IRI and its URI (toUri, toIri) the same form
 * (found in review: `foo://Ké/` kept its `K` while `foo://K%C3%A9/` was lower-cased, and the two differed at every rung).
 */
function isUsAsciiHost(host: string): boolean {
  if (!isAscii(host)) return false;
  for (let i = host.indexOf('%'); i >= 0; i = host.indexOf('%', i + 1)) {
    if (isPctTriplet(host, i) && tripletOctet(host, i) >= 0x80) return false;
  }
  return true;
}

function asciiLowercase(s: string): string {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x41 && c <= 0x5a) return lowercaseFrom(s, i, false);
  }
  return s;
}

// Lowercases A–Z except the hex digits of pct-encoded triplets (which §5.3.2.1 wants uppercase).
function asciiLowercaseOutsideTriplets(s: string): string {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x25 || (c >= 0x41 && c <= 0x5a)) return lowercaseFrom(s, i, true);
  }
  return s;
}

function lowercaseFrom(s: string, from: number, keepTriplets: boolean): string {
  let out = '';
  let last = 0;
  for (let i = from; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (keepTriplets && c === 0x25 && isPctTriplet(s, i)) {
      i += 2;
    } else if (c >= 0x41 && c <= 0x5a) {
      out += s.slice(last, i) + String.fromCharCode(c | 0x20);
      last = i + 1;
    }
  }
  return last === 0 ? s : out + s.slice(last);
}
