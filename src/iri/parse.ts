// IRI syntax: an exact checker/parser for the RFC 3987 §2.2 ABNF (IRI, IRI-reference, absolute-IRI),
// a lenient splitter in the manner of RFC 3986 Appendix B, and RFC 3986 §5.3 recomposition.
//
// Every function here is a single forward scan with charCodeAt: linear in the input, no regular
// expressions, no recursion, so a multi-megabyte input costs what its length says and cannot exhaust
// the stack (STYLE.md habit 5).

import { badArgument } from '../errors.js';
import {
  isAlpha,
  isBidiFormat,
  isDigit,
  isHexDig,
  isIprivate,
  isSchemeChar,
  isSubDelim,
  isUcschar,
  isUnreserved,
} from './chars.js';

/** The components of an IRI reference (RFC 3986 §3 names, RFC 3987 §2.2 grammar). */
export interface IriComponents {
  /** Without the `:`. Absent for a relative reference. */
  scheme?: string;
  /** Without the `//`; present iff `//` was present (it may be `''`). */
  authority?: string;
  /** Without the `@`; present iff the authority holds an `@`. */
  userinfo?: string;
  /** Present iff authority is; an IP-literal keeps its brackets (`[2001:db8::7]`), as RFC 3986 `host` does. */
  host?: string;
  /** Digits (RFC 3986 §3.2.3); `''` when `:` has no digits; absent when there is no `:`. */
  port?: string;
  /** Always present, possibly `''`. */
  path: string;
  /** Without the `?`; `''` when `?` is present with nothing after. */
  query?: string;
  /** Without the `#`. */
  fragment?: string;
}

export type IriProduction = 'IRI' | 'IRI-reference' | 'absolute-IRI';

// ASCII part of the allowed sets, one bit per context (RFC 3987 §2.2). `%` is handled as pct-encoded
// by the scanner in every context, so it is in none of these sets.
const IN_PATH = 1; //     ipath:      ipchar / "/"            (ipchar = iunreserved / pct / sub-delims / ":" / "@")
const IN_QUERY = 2; //    iquery:     ipchar / "/" / "?"      (+ iprivate, checked apart)
const IN_FRAGMENT = 4; // ifragment:  ipchar / "/" / "?"
const IN_USERINFO = 8; // iuserinfo:  iunreserved / pct / sub-delims / ":"
const IN_REGNAME = 16; // ireg-name:  iunreserved / pct / sub-delims
const IN_SEGMENT_NC = 32; // isegment-nz-nc: ipchar without ":"
const ALLOWED = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  let bits = 0;
  const base = isUnreserved(c) || isSubDelim(c);
  if (base) bits |= IN_PATH | IN_QUERY | IN_FRAGMENT | IN_USERINFO | IN_REGNAME | IN_SEGMENT_NC;
  if (c === 0x3a /* : */) bits |= IN_PATH | IN_QUERY | IN_FRAGMENT | IN_USERINFO;
  if (c === 0x40 /* @ */) bits |= IN_PATH | IN_QUERY | IN_FRAGMENT | IN_SEGMENT_NC;
  if (c === 0x2f /* / */) bits |= IN_PATH | IN_QUERY | IN_FRAGMENT;
  if (c === 0x3f /* ? */) bits |= IN_QUERY | IN_FRAGMENT;
  ALLOWED[c] = bits;
}

/**
 * True when `s[start, end)` is a sequence of the characters allowed in context `ctx`: the ASCII ones
 * of ALLOWED, pct-encoded triplets, ucschar (by code point, surrogate pairs combined), and iprivate
 * in iquery only. A lone surrogate is never allowed.
 */
function validRun(s: string, start: number, end: number, ctx: number): boolean {
  for (let i = start; i < end; i++) {
    const c = s.charCodeAt(i);
    if (c < 128) {
      if ((ALLOWED[c]! & ctx) !== 0) continue;
      // RFC 3986 §2.1: pct-encoded = "%" HEXDIG HEXDIG
      if (c === 0x25 && i + 2 < end && isHexDig(s.charCodeAt(i + 1)) && isHexDig(s.charCodeAt(i + 2))) {
        i += 2;
        continue;
      }
      return false;
    }
    let cp = c;
    if (c >= 0xd800 && c <= 0xdfff) {
      if (c > 0xdbff || i + 1 >= end) return false;
      const d = s.charCodeAt(i + 1);
      if (d < 0xdc00 || d > 0xdfff) return false;
      cp = ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
      i++;
    }
    if (isUcschar(cp)) continue;
    if (ctx === IN_QUERY && isIprivate(cp)) continue; // RFC 3987 §2.2: iprivate only in iquery
    return false;
  }
  return true;
}

/** The index of the first of `stops` code units in `s[from, end)`, or `end`. */
function findAny3(s: string, from: number, end: number, a: number, b: number, c: number): number {
  for (let i = from; i < end; i++) {
    const x = s.charCodeAt(i);
    if (x === a || x === b || x === c) return i;
  }
  return end;
}

function findChar(s: string, from: number, end: number, a: number): number {
  const i = s.indexOf(String.fromCharCode(a), from);
  return i < 0 || i > end ? end : i;
}

// RFC 3986 §3.2.2: dec-octet = DIGIT / %x31-39 DIGIT / "1" 2DIGIT / "2" %x30-34 DIGIT / "25" %x30-35
// Returns the index after the dec-octet starting at i, or -1. Greedy and unambiguous: no leading zeros.
function decOctet(s: string, i: number, end: number): number {
  if (i >= end || !isDigit(s.charCodeAt(i))) return -1;
  let j = i;
  let value = 0;
  while (j < end && j - i < 3 && isDigit(s.charCodeAt(j))) {
    value = value * 10 + (s.charCodeAt(j) - 0x30);
    j++;
  }
  if (j - i > 1 && s.charCodeAt(i) === 0x30) return -1; // leading zero
  if (value > 255) return -1;
  return j;
}

// RFC 3986 §3.2.2: IPv4address = dec-octet "." dec-octet "." dec-octet "." dec-octet (exactly s[i, end))
export function isIpv4Address(s: string, i = 0, end = s.length): boolean {
  for (let k = 0; k < 4; k++) {
    if (k > 0) {
      if (i >= end || s.charCodeAt(i) !== 0x2e) return false;
      i++;
    }
    i = decOctet(s, i, end);
    if (i < 0) return false;
  }
  return i === end;
}

// RFC 3986 §3.2.2: IPv6address, the nine alternatives of the ABNF, checked as one scan:
// 8 pieces without "::", at most 7 with one "::" (which stands for at least one zero piece), an
// IPv4address only as the last two pieces (ls32), h16 = 1*4HEXDIG. Exactly s[i, end).
export function isIpv6Address(s: string, i = 0, end = s.length): boolean {
  let pieces = 0;
  let compressed = false;
  if (i + 1 < end && s.charCodeAt(i) === 0x3a && s.charCodeAt(i + 1) === 0x3a) {
    compressed = true;
    i += 2;
    if (i === end) return true; // "::"
  }
  while (i < end) {
    const groupStart = i;
    while (i < end && i - groupStart < 5 && isHexDig(s.charCodeAt(i))) i++;
    const len = i - groupStart;
    if (len === 0 || len > 4) return false;
    if (i < end && s.charCodeAt(i) === 0x2e) {
      // ls32 as IPv4address: must run to the end and occupy pieces 7–8 (or fewer with "::").
      if (!isIpv4Address(s, groupStart, end)) return false;
      pieces += 2;
      i = end;
      break;
    }
    pieces++;
    if (i === end) break;
    if (s.charCodeAt(i) !== 0x3a) return false;
    i++;
    if (i < end && s.charCodeAt(i) === 0x3a) {
      if (compressed) return false; // a second "::"
      compressed = true;
      i++;
      if (i === end) break; // trailing "::"
    } else if (i === end) {
      return false; // a single trailing ":"
    }
  }
  return compressed ? pieces <= 7 : pieces === 8;
}

// RFC 3986 §3.2.2: IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )  (exactly s[i, end))
// ("v" is case-insensitive, as every ABNF quoted string is: RFC 5234 §2.3.)
export function isIpvFuture(s: string, i = 0, end = s.length): boolean {
  if (i >= end || (s.charCodeAt(i) | 0x20) !== 0x76) return false;
  i++;
  const hexStart = i;
  while (i < end && isHexDig(s.charCodeAt(i))) i++;
  if (i === hexStart || i >= end || s.charCodeAt(i) !== 0x2e) return false;
  i++;
  if (i >= end) return false;
  for (; i < end; i++) {
    const c = s.charCodeAt(i);
    if (!(isUnreserved(c) || isSubDelim(c) || c === 0x3a)) return false;
  }
  return true;
}

/**
 * RFC 3987 §2.2 iauthority = [ iuserinfo "@" ] ihost [ ":" port ], exactly s[a, e); fills `out`.
 * ihost = IP-literal / IPv4address / ireg-name (every IPv4address is also an ireg-name, so only the
 * ireg-name check is needed; `192.168.0.256` is a valid ireg-name).
 */
function parseAuthority(s: string, a: number, e: number, out: IriComponents): boolean {
  let hostStart = a;
  const at = findChar(s, a, e, 0x40);
  if (at < e) {
    if (!validRun(s, a, at, IN_USERINFO)) return false;
    out.userinfo = s.slice(a, at);
    hostStart = at + 1;
  }
  let hostEnd: number;
  if (hostStart < e && s.charCodeAt(hostStart) === 0x5b /* [ */) {
    // IP-literal = "[" ( IPv6address / IPvFuture ) "]"
    const close = findChar(s, hostStart, e, 0x5d);
    if (close >= e) return false;
    if (!isIpv6Address(s, hostStart + 1, close) && !isIpvFuture(s, hostStart + 1, close)) return false;
    hostEnd = close + 1;
    if (hostEnd < e && s.charCodeAt(hostEnd) !== 0x3a) return false;
  } else {
    hostEnd = findChar(s, hostStart, e, 0x3a);
    if (!validRun(s, hostStart, hostEnd, IN_REGNAME)) return false;
  }
  out.host = s.slice(hostStart, hostEnd);
  if (hostEnd < e) {
    // port = *DIGIT
    for (let i = hostEnd + 1; i < e; i++) if (!isDigit(s.charCodeAt(i))) return false;
    out.port = s.slice(hostEnd + 1, e);
  }
  return true;
}

/** The end of the scheme (the index of its `:`) when `s` starts with `scheme ":"`, else -1. RFC 3986 §3.1. */
export function schemeEnd(s: string): number {
  if (s.length === 0 || !isAlpha(s.charCodeAt(0))) return -1;
  let j = 1;
  while (j < s.length && isSchemeChar(s.charCodeAt(j))) j++;
  return j < s.length && s.charCodeAt(j) === 0x3a ? j : -1;
}

// RFC 3987 §2.2:
//   IRI-reference  = IRI / irelative-ref
//   IRI            = scheme ":" ihier-part [ "?" iquery ] [ "#" ifragment ]
//   ihier-part     = "//" iauthority ipath-abempty / ipath-absolute / ipath-rootless / ipath-empty
//   irelative-ref  = irelative-part [ "?" iquery ] [ "#" ifragment ]
//   irelative-part = "//" iauthority ipath-abempty / ipath-absolute / ipath-noscheme / ipath-empty
// The alternatives are told apart by their first characters, so one forward pass decides: a scheme is
// taken when the text starts with `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"`; otherwise the
// reference is relative and its first segment must not hold a ":" (ipath-noscheme), which is exactly
// when the IRI alternative would have applied instead.
function parseStrict(s: string): IriComponents | null {
  const n = s.length;
  const out: IriComponents = { path: '' };
  let pos = 0;
  const se = schemeEnd(s);
  if (se >= 0) {
    out.scheme = s.slice(0, se);
    pos = se + 1;
  }
  if (pos + 1 < n && s.charCodeAt(pos) === 0x2f && s.charCodeAt(pos + 1) === 0x2f) {
    const a = pos + 2;
    const e = findAny3(s, a, n, 0x2f, 0x3f, 0x23); // "/" "?" "#"
    out.authority = s.slice(a, e);
    if (!parseAuthority(s, a, e, out)) return null;
    pos = e;
  }
  // ipath-abempty / ipath-absolute / ipath-rootless / ipath-noscheme / ipath-empty. After an authority
  // the path starts with "/" or is empty by construction; without one it cannot start with "//" (that
  // would have been an authority).
  const pathEnd = findAny3(s, pos, n, 0x3f, 0x23, 0x23);
  if (out.scheme === undefined && out.authority === undefined) {
    // ipath-noscheme: the first segment is isegment-nz-nc (no ":")
    const firstSlash = findChar(s, pos, pathEnd, 0x2f);
    if (!validRun(s, pos, firstSlash, IN_SEGMENT_NC)) return null;
    if (!validRun(s, firstSlash, pathEnd, IN_PATH)) return null;
  } else if (!validRun(s, pos, pathEnd, IN_PATH)) {
    return null;
  }
  out.path = s.slice(pos, pathEnd);
  pos = pathEnd;
  if (pos < n && s.charCodeAt(pos) === 0x3f) {
    const qEnd = findChar(s, pos + 1, n, 0x23);
    if (!validRun(s, pos + 1, qEnd, IN_QUERY)) return null;
    out.query = s.slice(pos + 1, qEnd);
    pos = qEnd;
  }
  if (pos < n) {
    // "#" ifragment; a second "#" is not an ifragment character.
    if (!validRun(s, pos + 1, n, IN_FRAGMENT)) return null;
    out.fragment = s.slice(pos + 1);
  }
  return out;
}

/**
 * Parses an IRI reference exactly per the RFC 3987 §2.2 ABNF (the syntax only: the §4.1 rule against
 * bidi formatting characters is applied by {@link isIri}). Returns its components, or null when `s`
 * is not an IRI-reference. Linear time.
 *
 * @example parseIriReference('http://例え.jp:8080/パス?q#f')
 *   // { scheme: 'http', authority: '例え.jp:8080', host: '例え.jp', port: '8080', path: '/パス', query: 'q', fragment: 'f' }
 */
export function parseIriReference(s: string): IriComponents | null {
  if (typeof s !== 'string') throw badArgument('parseIriReference', 's', 'a string', s);
  return parseStrict(s);
}

/**
 * True when `s` matches the ABNF production alone (RFC 3987 §2.2), without the §4.1 bidi rule.
 * This is what ABNF-only validators answer (the vectors' `abnf_only_result`).
 */
export function matchesIriAbnf(s: string, production: IriProduction = 'IRI'): boolean {
  if (typeof s !== 'string') throw badArgument('matchesIriAbnf', 's', 'a string', s);
  checkProduction('matchesIriAbnf', production);
  return matchesProduction(parseStrict(s), production);
}

function checkProduction(fn: string, production: unknown): void {
  if (production !== 'IRI' && production !== 'IRI-reference' && production !== 'absolute-IRI') {
    throw badArgument(fn, 'production', "'IRI', 'IRI-reference' or 'absolute-IRI'", production);
  }
}

function matchesProduction(c: IriComponents | null, production: IriProduction): boolean {
  if (c === null) return false;
  if (production === 'IRI-reference') return true;
  if (c.scheme === undefined) return false;
  // absolute-IRI = scheme ":" ihier-part [ "?" iquery ]   (no fragment)
  return production === 'IRI' || c.fragment === undefined;
}

/**
 * True when `s` is an IRI (or the given production) per RFC 3987 §2.2 and has no bidirectional
 * formatting character (RFC 3987 §4.1: "IRIs MUST NOT contain bidirectional formatting characters").
 * Tags U+E0000–E0FFF are not allowed anywhere (RFC 3987, vectors INV-07/INV-31; 3987bis would allow
 * them in the query). The isolates U+2066–2069 and U+061C count as bidi formatting characters
 * (labelled deviation in chars.ts `isBidiFormat`).
 *
 * @example isIri('http://www.example.org/résumé.html') // true
 * @example isIri('résumé.html#x') // false: a relative reference is not an IRI…
 * @example isIri('résumé.html#x', 'IRI-reference') // …but it is an IRI reference: true
 */
export function isIri(s: string, production: IriProduction = 'IRI'): boolean {
  if (typeof s !== 'string') throw badArgument('isIri', 's', 'a string', s);
  checkProduction('isIri', production);
  if (!matchesProduction(parseStrict(s), production)) return false;
  // RFC 3987 §4.1. The parse above guaranteed there is no lone surrogate; bidi formats are all BMP.
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x61c && isBidiFormat(c)) return false;
  }
  return true;
}

/**
 * Splits any string into IRI reference components the way RFC 3986 Appendix B's regular expression
 * `^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?` does, written as a linear scan. Never
 * fails and never validates (a `scheme` here may hold any characters but `:/?#`).
 *
 * The authority is then split leniently: `userinfo` is what precedes its last `@`; a host starting
 * with `[` runs to the first `]` and `port` is what follows a `:` right after it (if anything else
 * follows, the whole rest is the host and there is no port); any other host runs to its last `:` and
 * `port` is whatever follows (digits or not).
 */
export function splitIriReference(s: string): IriComponents {
  if (typeof s !== 'string') throw badArgument('splitIriReference', 's', 'a string', s);
  const n = s.length;
  const out: IriComponents = { path: '' };
  let pos = 0;
  // (([^:/?#]+):)?
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x3a) {
      if (i > 0) {
        out.scheme = s.slice(0, i);
        pos = i + 1;
      }
      break;
    }
    if (c === 0x2f || c === 0x3f || c === 0x23) break;
  }
  // (//([^/?#]*))?
  if (pos + 1 < n && s.charCodeAt(pos) === 0x2f && s.charCodeAt(pos + 1) === 0x2f) {
    const a = pos + 2;
    const e = findAny3(s, a, n, 0x2f, 0x3f, 0x23);
    out.authority = s.slice(a, e);
    splitAuthority(out.authority, out);
    pos = e;
  }
  // ([^?#]*)
  const pathEnd = findAny3(s, pos, n, 0x3f, 0x23, 0x23);
  out.path = s.slice(pos, pathEnd);
  pos = pathEnd;
  // (\?([^#]*))?
  if (pos < n && s.charCodeAt(pos) === 0x3f) {
    const qEnd = findChar(s, pos + 1, n, 0x23);
    out.query = s.slice(pos + 1, qEnd);
    pos = qEnd;
  }
  // (#(.*))?
  if (pos < n) out.fragment = s.slice(pos + 1);
  return out;
}

function splitAuthority(auth: string, out: IriComponents): void {
  const at = auth.lastIndexOf('@');
  let hostport = auth;
  if (at >= 0) {
    out.userinfo = auth.slice(0, at);
    hostport = auth.slice(at + 1);
  }
  if (hostport.charCodeAt(0) === 0x5b) {
    const close = hostport.indexOf(']');
    if (close >= 0 && close + 1 < hostport.length && hostport.charCodeAt(close + 1) === 0x3a) {
      out.host = hostport.slice(0, close + 1);
      out.port = hostport.slice(close + 2);
    } else {
      out.host = hostport;
    }
    return;
  }
  const colon = hostport.lastIndexOf(':');
  if (colon >= 0) {
    out.host = hostport.slice(0, colon);
    out.port = hostport.slice(colon + 1);
  } else {
    out.host = hostport;
  }
}

// The components besides `path`: each a string or absent.
const OPTIONAL_COMPONENTS = ['scheme', 'authority', 'userinfo', 'host', 'port', 'query', 'fragment'] as const;

/**
 * RFC 3986 §5.3 Component Recomposition. When `host` is defined the authority is rebuilt from
 * `userinfo`, `host` and `port` (so a caller may change the host); otherwise `authority` is used as it is.
 *
 * @example recomposeIri({ scheme: 'http', host: 'xn--rsum-bpad.example.org', path: '/' })
 *   // 'http://xn--rsum-bpad.example.org/'
 */
export function recomposeIri(c: IriComponents): string {
  if (c === null || typeof c !== 'object') throw badArgument('recomposeIri', 'c', 'an IriComponents object', c);
  if (typeof c.path !== 'string') throw badArgument('recomposeIri', 'c.path', 'a string', c.path);
  // A component that is not a string would be written as "42", "[object Object]" … (or throw a Symbol's error).
  for (const name of OPTIONAL_COMPONENTS) {
    const v = c[name] as unknown;
    if (v !== undefined && typeof v !== 'string') throw badArgument('recomposeIri', `c.${name}`, 'a string or undefined', v);
  }
  let out = '';
  if (c.scheme !== undefined) out += c.scheme + ':';
  if (c.host !== undefined) {
    out += '//';
    if (c.userinfo !== undefined) out += c.userinfo + '@';
    out += c.host;
    if (c.port !== undefined) out += ':' + c.port;
  } else if (c.authority !== undefined) {
    out += '//' + c.authority;
  }
  out += c.path;
  if (c.query !== undefined) out += '?' + c.query;
  if (c.fragment !== undefined) out += '#' + c.fragment;
  return out;
}
