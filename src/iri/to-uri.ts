// IRI → URI: RFC 3987 §3.1, draft-ietf-iri-3987bis-11 §3.3–§3.6, RFC 6068 for mailto.

import type Iconv from 'iconv-lite';
import { lazyRequire } from '../lazy.js';
import { badArgument, badOption, IriError, isOptionsObject, unknownOption } from '../errors.js';
import { asciiLower, findLoneSurrogate, isDisallowedAscii, isHexDig, isUriChar } from './chars.js';
import { asciiLowerEquals, domainToAscii, isDnsScheme } from './idna.js';
import { recomposeIri, schemeEnd, splitIriReference } from './parse.js';
import { pctDecodeUtf8, pctEncodeBytes, pctEncodeCodePoint } from './percent.js';
import { planOf, queryCharset, singleByteCharset } from '../charsets.js';
import type { SingleByteCharset } from '../charsets.js';

const iconv = lazyRequire<typeof Iconv>('iconv-lite');

export interface ToUriOptions {
  /**
   * How the ireg-name of a DNS scheme (http https ftp ws wss, and the domains of mailto) is mapped:
   * 'percent' (default) — bis §3.4.1 "SHOULD": UTF-8 percent-encoding like every other component;
   * 'idna' — bis §3.4.2 / RFC 3987 §3.1: percent-decode valid UTF-8, then UTS #46 ToASCII.
   */
  host?: 'percent' | 'idna';
  /** 'none' (default): RFC 3987 §3.1 step 1 variant c, Unicode input is never normalised; 'NFC': variants a/b. */
  normalize?: 'none' | 'NFC';
  /**
   * space < > " { } | \ ^ ` in the input: 'fail' (default) throws IriError('disallowed-ascii'), as
   * RFC 3987 §3.1 says ("If these characters are found but are not converted, then the conversion
   * SHOULD fail"); 'encode' percent-encodes them ("Systems accepting IRIs MAY also deal with" them).
   */
  asciiDisallowed?: 'fail' | 'encode';
  /**
   * bis §3.5: the charset of the document the IRI came from. When it is not UCS-based, the query of an
   * http/https IRI is encoded in it before percent-encoding; path and fragment stay UTF-8. A label of a WHATWG
   * single-byte encoding (windows-1252, latin1, macintosh, …) encodes by the WHATWG index, the table the stream decodes
   * it with (WHATWG Encoding §9.2); any other charset through iconv-lite.
   */
  documentCharset?: string;
}

/**
 * Maps an IRI (or IRI reference) to a URI: RFC 3987 §3.1 / 3987bis §3.3–§3.6.
 *
 * Every character that may not appear in a URI is converted to UTF-8 and percent-encoded with
 * uppercase hex; everything else — unreserved and reserved ASCII, and existing `%XX` triplets, whatever
 * their case or the octets they hold — is copied unchanged. So the mapping is the identity on URIs and
 * is idempotent (RFC 3987 §3.1). In 'idna' mode every host of a DNS scheme is validated by UTS #46, ASCII
 * ones included (`http://a_b.example/`, `http://xn--a.example/` throw 'idna-failed'); a valid ASCII host is
 * written exactly as it was (`HTTP://Example.COM/` stays as it is), so 'idna' mode is the identity on URIs
 * whose hosts are valid. Astral characters are encoded as their four UTF-8 octets, never as
 * CESU-8 surrogate halves (vector I2U-03).
 *
 * Input that is not an IRI is mapped as far as the specifications define a mapping, without throwing:
 * - characters not allowed in an IRI at their position — C0 controls, DEL, C1 controls, bidi
 *   formatting characters, non-characters, specials, private use outside the query, tags — are
 *   percent-encoded like any other (bis §3.3: "This mapping is defined for all sequences of Unicode
 *   characters, whether or not they are valid for the component in question");
 * - a `%` that does not start `%XX`, and `#`, `[`, `]` where the grammar does not allow them, are left as
 *   they are: RFC 3987 §3.1 says they "MUST NOT be converted". The result is then not a valid URI either;
 *   check it with `isIri(result, 'IRI-reference')` when that matters.
 * It throws IriError only where a specification says the conversion fails:
 * - 'lone-surrogate': a lone UTF-16 surrogate has no UTF-8 form (RFC 3987 §3.1 step 2.1);
 * - 'disallowed-ascii': space < > " { } | \ ^ ` with asciiDisallowed 'fail' (RFC 3987 §3.1 SHOULD fail);
 * - 'idna-failed': host 'idna' and UTS #46 ToASCII fails, for an ASCII host too (bis §3.4.2: "the entire IRI
 *   conversion fails");
 * - 'unknown-charset' / 'unencodable-query': documentCharset is not a charset a stream decodes and irilink can
 *   encode (a WHATWG label or a name iconv-lite knows; not base64, hex, UTF-7 or ISO-2022-JP: charsets.ts
 *   queryCharset), or a query character that charset cannot hold (bis §3.5).
 * Bad option values throw TypeError.
 *
 * @example toUri('http://www.example.org/résumé.html') // 'http://www.example.org/r%C3%A9sum%C3%A9.html'
 * @example toUri('http://résumé.example.org', { host: 'idna' }) // 'http://xn--rsum-bpad.example.org'
 */
export function toUri(iri: string, options?: ToUriOptions): string {
  if (typeof iri !== 'string') throw badArgument('toUri', 'iri', 'a string', iri);
  const opts = readOptions(options);
  // A misspelt name (`hots: 'idna'`) would silently leave the default; toLinkUri builds its own, so only here.
  for (const key of Object.keys(options ?? {})) if (!TO_URI_OPTION_NAMES.includes(key)) throw unknownOption(key, TO_URI_OPTION_NAMES);
  return convert(iri, opts);
}

/**
 * The `uri` of a detected link (DESIGN.md "What each link carries"; src/detect/convert.ts, not in the package
 * entry): {@link toUri} with `asciiDisallowed: 'encode'` and the given `host` mode and document charset, and
 * written in the form a URI producer should give:
 * - the scheme in lower case (RFC 3986 §3.1: "should only produce lowercase scheme names for consistency";
 *   §6.2.2.1), in both host modes;
 * - in 'idna' mode every host of a DNS scheme (and every mailto domain) as UTS #46 §4.2 ToASCII writes it, ASCII
 *   hosts included: §4 step 1 maps `Example.COM` to `example.com`, and `%41.example` is decoded first (bis §3.4.2)
 *   — where toUri keeps a valid ASCII host as written (its Deviation, for the identity on URIs);
 * - with `underscore`: Deviation (UTS #46 §4 UseSTD3ASCIIRules, RFC 3987 §3.1): an all-ASCII host whose labels
 *   hold `_` besides letters, digits and hyphens (`other_side.blogspot.com`, no `xn--` label) is accepted and
 *   lower-cased, as UTS #46 with UseSTD3ASCIIRules=false accepts it (UTS #46 §4.1.1: the flag exists "for
 *   example, to allow underscores") and as browsers do (WHATWG URL "domain to ASCII" runs UTS #46 with
 *   UseSTD3ASCIIRules=beStrict=false); CheckHyphens still applies. toUri itself keeps UseSTD3ASCIIRules=true
 *   (vector IDN-22). Other ASCII outside LDH, and `_` in a host with a non-ASCII or ACE label, still fail:
 *   relaxing STD3 there would also admit mapped sequences such as `⑴` → `(1)`.
 * Throws what toUri throws.
 * @example toLinkUri('HTTP://Other_Side.Example.COM/A', 'idna', undefined, true) // 'http://other_side.example.com/A'
 */
export function toLinkUri(
  iri: string,
  host: 'idna' | 'percent',
  documentCharset: string | undefined,
  underscore: boolean,
): string {
  const options: ToUriOptions = { host, asciiDisallowed: 'encode' };
  if (documentCharset !== undefined) options.documentCharset = documentCharset;
  const opts = readOptions(options);
  opts.link = true;
  opts.underscore = underscore;
  return lowerCaseScheme(convert(iri, opts));
}

/** RFC 3986 §3.1 scheme (what precedes the first `:`, when it is a scheme) in lower case. */
function lowerCaseScheme(uri: string): string {
  const se = schemeEnd(uri);
  for (let i = 0; i < se; i++) {
    const c = uri.charCodeAt(i);
    if (c >= 0x41 && c <= 0x5a) return uri.slice(0, se).toLowerCase() + uri.slice(se);
  }
  return uri;
}

/** toUri's mapping, with the options read (and toLinkUri's added). */
function convert(iri: string, opts: Readonly<ReadOptions>): string {
  // RFC 3987 §3.1 step 2.1: only scalar values have a UTF-8 form.
  const lone = findLoneSurrogate(iri);
  if (lone >= 0) throw new IriError('lone-surrogate', `at index ${lone}`, lone);

  // RFC 3987 §3.1 step 1: variant c (Unicode input) by default, NFC for variants a and b.
  const nfc = opts.nfc ? nfcKeepingEscapes(iri) : null;
  let s = nfc === null ? iri : nfc.text;

  // Fast path: a URI (only URI characters) maps to itself, unless idna mode may decode a pct-encoded host.
  let needsWork = false;
  let hasPercent = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x25) hasPercent = true;
    else if (c >= 128 || !isUriChar(c)) {
      needsWork = true;
      if (!opts.encodeDisallowed && c < 128 && isDisallowedAscii(c)) {
        const at = nfc === null ? i : nfc.indexInInput(i);
        throw new IriError('disallowed-ascii', `${JSON.stringify(s[i])} at index ${at}`, at);
      }
    }
  }
  if (!needsWork && !opts.idna) return s;
  if (!needsWork && !hasPercent && !opts.link) {
    // 'idna' on a URI: its ASCII hosts are validated (mapDomain throws when UTS #46 refuses one) and kept as written.
    checkAsciiHosts(s);
    return s;
  }

  // bis §3.2: parse into components, map each (§3.3–§3.5), reassemble with the original punctuation (§3.6).
  const c = splitIriReference(s);
  if (c.scheme !== undefined) c.scheme = encodeGeneral(c.scheme);
  if (c.userinfo !== undefined) c.userinfo = encodeGeneral(c.userinfo);
  if (c.host !== undefined) {
    // bis §3.4.2: only "where it is certain that <ireg-name> is intended to be used as a domain name";
    // other schemes keep §3.4.1 percent-encoding (vector IDN-30). An IP-literal is never a domain.
    c.host =
      opts.idna && isDnsScheme(c.scheme) && c.host.charCodeAt(0) !== 0x5b
        ? mapDomain(c.host, opts)
        : encodeGeneral(c.host);
  }
  if (c.port !== undefined) c.port = encodeGeneral(c.port);
  if (c.authority !== undefined && c.host === undefined) c.authority = encodeGeneral(c.authority);
  c.path =
    opts.idna && c.scheme !== undefined && asciiLowerEquals(c.scheme, 'mailto') && c.authority === undefined
      ? mapMailtoPath(c.path, opts)
      : encodeGeneral(c.path);
  if (c.query !== undefined) {
    c.query =
      opts.charset !== undefined && c.scheme !== undefined && isHttpScheme(c.scheme)
        ? encodeQueryInCharset(c.query, opts.charset, (k) => {
            // RFC 3986 Appendix B: the query starts after the first `?` (the error's index is the input's).
            const at = s.indexOf('?') + 1 + k;
            return nfc === null ? at : nfc.indexInInput(at);
          })
        : encodeGeneral(c.query);
  }
  if (c.fragment !== undefined) c.fragment = encodeGeneral(c.fragment);
  return recomposeIri(c);
}

/**
 * RFC 3987 §3.1 step 1 (variants a and b): the IRI in NFC, its escapes `%HH` as written — NFC of `%7e` and U+0301
 * composed the `e` with the mark (`%7é`: no escape, no URI; found in review). No canonical composition has an ASCII
 * character as its second element, and an ASCII character has combining class 0, so NFC is taken piece by piece, each
 * piece an ASCII character (or the start) and the non-ASCII characters after it, and an escape's last digit a piece of
 * its own. `indexInInput` maps an index of the result back to the input (an error's index is the caller's).
 */
function nfcKeepingEscapes(iri: string): { text: string; indexInInput: (i: number) => number } {
  const whole = iri.normalize('NFC');
  if (whole === iri) return { text: iri, indexInInput: (i) => i };
  const from: number[] = [];
  const to: number[] = [];
  const same: boolean[] = [];
  let text = '';
  for (let i = 0; i < iri.length; ) {
    let j = i + 1;
    const escapeDigit = i >= 2 && iri.charCodeAt(i - 2) === 0x25 && isHexDig(iri.charCodeAt(i - 1)) && isHexDig(iri.charCodeAt(i));
    if (!escapeDigit) while (j < iri.length && iri.charCodeAt(j) >= 128) j++;
    const piece = iri.slice(i, j);
    const normal = piece.normalize('NFC');
    from.push(i);
    to.push(text.length);
    same.push(normal.length === piece.length);
    text += normal;
    i = j;
  }
  const indexInInput = (i: number): number => {
    let k = to.length - 1;
    while (k > 0 && to[k]! > i) k--;
    return same[k] ? from[k]! + (i - to[k]!) : from[k]!;
  };
  return { text, indexInInput };
}

interface ReadOptions {
  idna: boolean;
  nfc: boolean;
  encodeDisallowed: boolean;
  /** Set only for a non-UCS charset (bis §3.5 does not apply to UTF-8/UTF-16 documents). */
  charset: string | undefined;
  /** toLinkUri: ASCII hosts as UTS #46 ToASCII writes them (lower case, percent-decoded). */
  link: boolean;
  /** toLinkUri's Deviation: `_` accepted in all-ASCII hosts. */
  underscore: boolean;
}

const TO_URI: Readonly<ReadOptions> = {
  idna: false,
  nfc: false,
  encodeDisallowed: false,
  charset: undefined,
  link: false,
  underscore: false,
};

const TO_URI_OPTION_NAMES: readonly string[] = ['host', 'normalize', 'asciiDisallowed', 'documentCharset'];

function readOptions(options: ToUriOptions | undefined): ReadOptions {
  if (options === undefined) return { ...TO_URI };
  if (!isOptionsObject(options)) {
    throw badArgument('toUri', 'options', 'an object or undefined', options);
  }
  const { host = 'percent', normalize = 'none', asciiDisallowed = 'fail', documentCharset } = options;
  if (host !== 'percent' && host !== 'idna') throw badOption('host', "'percent' or 'idna'", host);
  if (normalize !== 'none' && normalize !== 'NFC') throw badOption('normalize', "'none' or 'NFC'", normalize);
  if (asciiDisallowed !== 'fail' && asciiDisallowed !== 'encode') {
    throw badOption('asciiDisallowed', "'fail' or 'encode'", asciiDisallowed);
  }
  let charset: string | undefined;
  if (documentCharset !== undefined) {
    if (typeof documentCharset !== 'string' || documentCharset === '') {
      throw badOption('documentCharset', 'a non-empty charset name', documentCharset);
    }
    const query = queryCharset(documentCharset);
    if (query === null) throw new IriError('unknown-charset', documentCharset);
    // bis §3.5: only "a document charset other than one which is UCS-based (e.g., UTF-8 or UTF-16)" changes the query.
    if (query !== 'utf-8') charset = query;
  }
  return {
    idna: host === 'idna',
    nfc: normalize === 'NFC',
    encodeDisallowed: asciiDisallowed === 'encode',
    charset,
    link: false,
    underscore: false,
  };
}

function isHttpScheme(scheme: string): boolean {
  return asciiLowerEquals(scheme, 'http') || asciiLowerEquals(scheme, 'https');
}

/**
 * bis §3.3 (RFC 3987 §3.1 step 2): percent-encodes, as UTF-8 with uppercase hex, every character that
 * is not allowed anywhere in a URI; URI characters and `%` are copied. The caller has already refused
 * lone surrogates and, in 'fail' mode, the printable disallowed ASCII characters.
 */
export function encodeGeneral(s: string): string {
  let out = '';
  let last = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 128 && isUriChar(c)) continue;
    let cp = c;
    let width = 1;
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        cp = ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
        width = 2;
      }
    }
    out += s.slice(last, i) + pctEncodeCodePoint(cp);
    i += width - 1;
    last = i + 1;
  }
  return last === 0 ? s : out + s.slice(last);
}

function isAsciiWithoutPercent(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 128 || c === 0x25) return false;
  }
  return true;
}

function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) >= 128) return false;
  return true;
}

/**
 * bis §3.4.2 for one domain name: decode pct-encoded UTF-8, then UTS #46 ToASCII.
 * - pct-encoded octets that are not valid UTF-8: "leave the entire field as is" (vector IDN-15), apart
 *   from the general encoding of any raw non-ASCII character (the result must be a URI);
 * - a domain that is all ASCII once decoded is validated by UTS #46 ToASCII like any other (`a_b.example`
 *   fails UseSTD3ASCIIRules, `xn--a.example` holds invalid Punycode, `a-.example` fails CheckHyphens), but
 *   Deviation (UTS #46 §4.2): when valid it is left exactly as written (`Example.COM`, `%41.example`,
 *   `XN--R8JZ45G.jp`), not lower-cased or decoded, so toUri stays the identity on valid URIs in 'idna' mode
 *   too (RFC 3987 §3.1). RFC 3490 ToASCII also leaves all-ASCII labels alone (vectors tricky point 3).
 *   For toLinkUri (`opts.link`) it is written as ToASCII gives it: decoded and in lower case.
 * - ToASCII failure → IriError('idna-failed') (bis §3.4.2: "the entire IRI conversion fails").
 */
function mapDomain(host: string, opts: Readonly<ReadOptions>): string {
  if (host === '') return host;
  if (isAsciiWithoutPercent(host)) return checkAsciiDomain(host, opts) ?? host;
  const decoded = pctDecodeUtf8(host);
  if (decoded === null) return encodeGeneral(host);
  if (isAscii(decoded)) return checkAsciiDomain(decoded, opts) ?? encodeGeneral(host);
  const ascii = domainToAscii(decoded);
  if (ascii === null) throw new IriError('idna-failed', JSON.stringify(decoded));
  return ascii;
}

/**
 * UTS #46 §4.2 ToASCII validity of an all-ASCII domain (memoised in idna.ts); IriError('idna-failed') when it
 * fails. For toUri returns undefined (the caller keeps the domain as written); for toLinkUri returns the ToASCII
 * form, which for a valid all-ASCII domain is the domain in lower case (§4 step 1 maps A–Z, before a `xn--` label
 * is decoded and re-encoded), and accepts `_` when `opts.underscore` (toLinkUri's Deviation).
 */
function checkAsciiDomain(domain: string, opts: Readonly<ReadOptions>): string | undefined {
  if (!isLdhDomain(domain, opts.underscore)) {
    const ascii = domainToAscii(domain);
    if (ascii === null) throw new IriError('idna-failed', JSON.stringify(domain));
    return opts.link ? ascii : undefined;
  }
  return opts.link ? asciiLower(domain) : undefined;
}

/**
 * A domain that UTS #46 ToASCII certainly accepts, decided without it (performance: most hosts are such): non-empty
 * labels of ASCII letters, digits and hyphens (UseSTD3ASCIIRules), no hyphen first or last and none in both the
 * 3rd and 4th positions (CheckHyphens; this also excludes `xn--` labels, which ToASCII must decode), a root dot
 * allowed at the end. An ASCII domain has no right-to-left label, so CheckBidi cannot fail it; the mapping only
 * lower-cases it. Anything else is left to ToASCII. With `underscore`, `_` counts as a letter (toLinkUri's
 * Deviation: UseSTD3ASCIIRules=false for `_` only).
 */
export function isLdhDomain(domain: string, underscore: boolean): boolean {
  let labelStart = 0;
  for (let i = 0; i <= domain.length; i++) {
    const c = i < domain.length ? domain.charCodeAt(i) : 0x2e;
    if (c === 0x2e) {
      const n = i - labelStart;
      if (n === 0) return i === domain.length && i > 0; // only a trailing root dot may close an empty label
      if (domain.charCodeAt(labelStart) === 0x2d || domain.charCodeAt(i - 1) === 0x2d) return false;
      if (n >= 4 && domain.charCodeAt(labelStart + 2) === 0x2d && domain.charCodeAt(labelStart + 3) === 0x2d) return false;
      labelStart = i + 1;
    } else if (!((c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x2d ||
      (c === 0x5f && underscore))) {
      return false;
    }
  }
  return true;
}

/**
 * The 'idna' validation of a string that is already a URI without `%`: the host of a DNS scheme (RFC 3986 §3.2.2:
 * after the authority's last `@`, before a port), and the domain of each mailto address (RFC 6068 §2), through
 * {@link mapDomain}, which throws when one is invalid. Scans the authority in place; no split.
 */
function checkAsciiHosts(s: string): void {
  const se = schemeEnd(s);
  if (se < 0) return;
  const scheme = s.slice(0, se);
  if (s.charCodeAt(se + 1) === 0x2f && s.charCodeAt(se + 2) === 0x2f) {
    if (!isDnsScheme(scheme)) return;
    const a = se + 3;
    let e = a;
    let hostStart = a;
    let colon = -1;
    for (; e < s.length; e++) {
      const c = s.charCodeAt(e);
      if (c === 0x2f || c === 0x3f || c === 0x23) break;
      if (c === 0x40) {
        hostStart = e + 1;
        colon = -1;
      } else if (c === 0x3a) colon = e;
    }
    if (s.charCodeAt(hostStart) === 0x5b) return; // an IP-literal is never a domain
    mapDomain(s.slice(hostStart, colon >= 0 ? colon : e), TO_URI);
  } else if (asciiLowerEquals(scheme, 'mailto')) {
    const q = s.indexOf('?', se + 1);
    const h = s.indexOf('#', se + 1);
    const end = q >= 0 && (h < 0 || q < h) ? q : h >= 0 ? h : s.length;
    mapMailtoPath(s.slice(se + 1, end), TO_URI);
  }
}

/**
 * RFC 6068 §2: `mailto:` to = addr-spec *("," addr-spec); in 'idna' mode the domain after the last `@`
 * of each address goes through {@link mapDomain} (RFC 6068 §2: non-ASCII domains as A-labels); the
 * local part is UTF-8 percent-encoded (RFC 6068 §2). A domain literal `[…]` is not a domain name.
 * Header fields in the query (`?to=…`) are percent-encoded without IDNA.
 */
function mapMailtoPath(path: string, opts: Readonly<ReadOptions>): string {
  let out = '';
  let start = 0;
  while (start <= path.length) {
    let end = path.indexOf(',', start);
    if (end < 0) end = path.length;
    const addr = path.slice(start, end);
    const at = addr.lastIndexOf('@');
    if (at >= 0 && addr.charCodeAt(at + 1) !== 0x5b) {
      out += encodeGeneral(addr.slice(0, at + 1)) + mapDomain(addr.slice(at + 1), opts);
    } else {
      out += encodeGeneral(addr);
    }
    if (end === path.length) break;
    out += ',';
    start = end + 1;
  }
  return out;
}

/**
 * bis §3.5: the query of an http/https IRI from a non-UCS document, encoded in the document charset
 * before percent-encoding. Runs of non-ASCII characters are encoded together (stateful charsets such as
 * ISO-2022-JP then need one escape sequence per run); a run that does not survive the round trip
 * through the charset holds a character the charset lacks → IriError('unencodable-query'), whose index is
 * `indexOf` of the run's start in `q`. ASCII characters are handled as everywhere else.
 */
function encodeQueryInCharset(q: string, charset: string, indexOf: (k: number) => number): string {
  const single = singleByteCharset(charset);
  let out = '';
  let i = 0;
  while (i < q.length) {
    let j = i;
    while (j < q.length && q.charCodeAt(j) < 128) j++;
    if (j > i) out += encodeGeneral(q.slice(i, j));
    if (j >= q.length) break;
    let k = j;
    while (k < q.length && q.charCodeAt(k) >= 128) k++;
    const run = q.slice(j, k);
    const bytes = encodeInCharset(run, charset, single) ?? encodeInCharset(decomposedFor(run, charset, single), charset, single);
    if (bytes === null) {
      const at = indexOf(j);
      throw new IriError('unencodable-query', `${JSON.stringify(run)} in ${charset} at index ${at}`, at);
    }
    out += pctEncodeBytes(bytes);
    i = k;
  }
  return out;
}

/** `text` in `charset`'s bytes, or null when the charset lacks one of its characters. */
function encodeInCharset(text: string, charset: string, single: SingleByteCharset | null): Uint8Array | null {
  // WHATWG Encoding §9.2: a single-byte charset by the inverse of the table the stream decoded with (macintosh
  // 0xDB is €, so € is %DB), not iconv-lite's table of that name, which may differ (its macintosh has ¤ at 0xDB).
  if (single !== null) return single.encode(text);
  // WHATWG Encoding §13.3.2 and §13.1.2 (Shift_JIS and EUC-JP encoders): U+2212 MINUS SIGN is written as U+FF0D,
  // which both have (iconv-lite has no byte for it; found in review: unencodable-query).
  if (text.includes('\u2212')) {
    const plan = planOf(charset);
    if (plan.kind === 'legacy' && (plan.family === 'sjis' || plan.family === 'eucjp')) text = text.replaceAll('\u2212', '\uff0d');
  }
  const bytes = iconv().encode(text, charset);
  return iconv().decode(bytes, charset) === text ? bytes : null;
}

/**
 * `run` with each character the charset lacks written as the document may have written it. A stream NFC-normalises
 * legacy text (RFC 3987 §3.1 step 1, variant B), and that can turn the document's own bytes into a character its
 * charset lacks; the query is then encoded as the document wrote it:
 * - a character whose NFC it is (a singleton decomposition, UAX #15): Shift_JIS writes Å as U+212B ANGSTROM SIGN
 *   (0x81F0), NFC makes it U+00C5, which Shift_JIS lacks (found in review: conversion-failed);
 * - the longest head of its canonical decomposition the charset has, composed, and the combining marks after it:
 *   windows-1258 writes ế as ê (0xEA) and a combining acute (0xEC), NFC makes it U+1EBF.
 * A character with no such form is left as it is (and the run stays unencodable). Where the charset has both a
 * character and one whose NFC it is (EUC-KR's compatibility ideographs), the query gets the character's bytes:
 * after NFC the text no longer tells which the document wrote.
 */
function decomposedFor(run: string, charset: string, single: SingleByteCharset | null): string {
  let out = '';
  for (const c of run) {
    const marks = c.normalize('NFD');
    let written = c;
    if (encodeInCharset(c, charset, single) !== null) {
      out += c;
      continue;
    }
    const before = nfcPreimagesOf(c).find((x) => encodeInCharset(x, charset, single) !== null);
    if (before !== undefined) {
      written = before;
    } else if (marks.length > 1) {
      for (let k = marks.length - 1; k >= 1; k--) {
        const head = marks.slice(0, k).normalize('NFC');
        if (encodeInCharset(head + marks.slice(k), charset, single) !== null) {
          written = head + marks.slice(k);
          break;
        }
      }
    }
    out += written;
  }
  return out;
}

/** For each character that is the NFC of another single character, those characters (nfcPreimagesOf). */
let preimages: Map<string, string[]> | null = null;

/**
 * The characters other than `c` whose NFC is `c` alone: the singletons of UAX #15 (U+212B ANGSTROM SIGN and U+00C5,
 * U+2126 OHM SIGN and U+03A9, the CJK compatibility ideographs and their unified ones). They lie in the BMP and the
 * CJK Compatibility Ideographs Supplement; the table is made the first time a query needs it (about 66,000 calls of
 * String.prototype.normalize).
 */
function nfcPreimagesOf(c: string): readonly string[] {
  if (preimages === null) {
    const table = new Map<string, string[]>();
    const add = (cp: number): void => {
      const x = String.fromCodePoint(cp);
      const n = x.normalize('NFC');
      const oneCodePoint = n.length === 1 || (n.length === 2 && n.codePointAt(0)! > 0xffff);
      if (n === x || !oneCodePoint) return;
      const list = table.get(n);
      if (list === undefined) table.set(n, [x]);
      else list.push(x);
    };
    for (let cp = 0; cp <= 0xffff; cp++) if (cp < 0xd800 || cp > 0xdfff) add(cp);
    for (let cp = 0x2f800; cp <= 0x2fa1f; cp++) add(cp);
    preimages = table;
  }
  return preimages.get(c) ?? [];
}
