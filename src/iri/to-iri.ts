// URI → IRI: RFC 3987 §3.2, draft-ietf-iri-3987bis-11 §4 steps 1–6.

import { badArgument, badOption, isOptionsObject, unknownOption } from '../errors.js';
import { isBidiFormat, isHexDig, isInvisibleOrSpace, isIprivate, isUcschar, isUnreserved } from './chars.js';
import { asciiLowerEquals, domainToUnicode, isDnsScheme } from './idna.js';
import { recomposeIri, splitIriReference } from './parse.js';
import { decodeUtf8Triplets, isPctTriplet, pctByte, pctEncodeCodePoint, tripletOctet } from './percent.js';

export interface ToIriOptions {
  /** bis §4 step 6: convert `xn--` labels of DNS hosts with UTS #46 ToUnicode (default true). */
  toUnicode?: boolean;
}

/**
 * Converts a URI (or URI reference) into the IRI it stands for, for display and further processing:
 * RFC 3987 §3.2 / 3987bis §4.
 *
 * - Step 2: `%XX` triplets are decoded, except those for `%`, reserved characters and US-ASCII
 *   characters not allowed in URIs (controls, space, `<>"{}|\^` and backtick), which are kept exactly as
 *   written, hex case included (`%2f` stays `%2f`). Unreserved ASCII is decoded (`%7E` → `~`,
 *   `%2E` → `.`; vector U2I-14).
 * - Step 3: octets that are not part of a strictly legal UTF-8 sequence (overlong `%C0%AF`, CESU-8
 *   surrogates, above U+10FFFF, truncated, stray continuation bytes) are re-encoded, uppercase.
 * - Step 4: characters not appropriate in an IRI are re-encoded, uppercase (`%e2%80%ae` → `%E2%80%AE`,
 *   vector U2I-03): anything not ucschar; iprivate outside the query (component-aware: only the query,
 *   between the first `?` and the first `#`, may hold private use); the RFC 3987 §4.1 bidi formatting
 *   characters and the isolates/ALM (chars.ts `isBidiFormat`, labelled deviation); tags U+E0000–E0FFF
 *   everywhere (RFC 3987, vector U2I-29; 3987bis would decode them in the query); and invisible or
 *   space-like characters (chars.ts `isInvisibleOrSpace`, bis §5.1 b/d, "results may vary").
 * - Step 5: what remains is read as UTF-8.
 * - Step 6 (when `toUnicode`, the default): for http, https, ftp, ws, wss hosts and mailto domains (after `@`
 *   or an `@` written `%40`),
 *   `xn--` labels are converted with UTS #46 ToUnicode; a label whose conversion reports an error keeps
 *   its ASCII form. Other labels are left as written (no case folding).
 *
 * toIri never throws on a string. Input that is not a URI is handled as its UTF-8 octets would be
 * (step 1): a raw non-ASCII character goes through steps 4–5 like a decoded one (so a raw U+202E comes
 * out as `%E2%80%AE`, a raw `é` stays `é`); raw ASCII, a `%` that does not start a triplet, and lone
 * surrogates (which have no octets) are copied unchanged.
 *
 * @example toIri('http://xn--99zt52a.example.org/%e2%80%ae') // 'http://納豆.example.org/%E2%80%AE'
 * @example toIri('http://www.example.org/D%C3%BCrst') // 'http://www.example.org/Dürst'
 */
export function toIri(uri: string, options?: ToIriOptions): string {
  if (typeof uri !== 'string') throw badArgument('toIri', 'uri', 'a string', uri);
  let toUnicode = true;
  if (options !== undefined) {
    if (!isOptionsObject(options)) {
      throw badArgument('toIri', 'options', 'an object or undefined', options);
    }
    for (const key of Object.keys(options)) if (key !== 'toUnicode') throw unknownOption(key, ['toUnicode']);
    if (options.toUnicode !== undefined) {
      if (typeof options.toUnicode !== 'boolean') throw badOption('toUnicode', 'a boolean', options.toUnicode);
      toUnicode = options.toUnicode;
    }
  }
  const decoded = decodeUri(uri, false);
  return toUnicode ? hostsToUnicode(decoded) : decoded;
}

/**
 * toIri (with `toUnicode`) of a detected link's uri. With `queryInCharset`, the uri's query was percent-encoded in a
 * document charset that is not UTF-8 (bis §3.5, `documentCharset`): its triplets stand for that charset's bytes and
 * stay as written (step 5 would read EUC-KR `%C7%A1` as UTF-8 `ǡ`; found in review), ASCII ones too (Big5 writes
 * 兀 as `%A4%61`, not `%A4a`). The path and fragment, which are
 * UTF-8 (WHATWG URL §4.4), are decoded as toIri decodes them.
 * @internal
 */
export function toLinkIri(uri: string, queryInCharset: boolean): string {
  return hostsToUnicode(decodeUri(uri, queryInCharset));
}

// RFC 3987 §3.2 step 4 / bis §4 step 4 with §2.2 and §5.1: may this character appear as itself?
function isAppropriate(cp: number, inQuery: boolean): boolean {
  if (isUcschar(cp)) return !isBidiFormat(cp) && !isInvisibleOrSpace(cp);
  return inQuery && isIprivate(cp); // RFC 3987 §2.2: iprivate only in iquery
}

/**
 * Steps 1–5. One forward pass; the query is [first "?", first "#") as in RFC 3986 Appendix B. With `keepQuery`,
 * the query's triplets are kept as written (toLinkIri).
 */
function decodeUri(s: string, keepQuery: boolean): string {
  const n = s.length;
  let fragmentStart = s.indexOf('#');
  if (fragmentStart < 0) fragmentStart = n;
  let queryStart = s.indexOf('?');
  if (queryStart < 0 || queryStart > fragmentStart) queryStart = fragmentStart;
  let out = '';
  let last = 0;
  for (let i = 0; i < n; ) {
    const c = s.charCodeAt(i);
    if (c < 128) {
      if (c !== 0x25 || !isPctTriplet(s, i)) {
        i++;
        continue;
      }
      if (keepQuery && i > queryStart && i < fragmentStart) {
        i += 3;
        continue;
      }
      const octet = tripletOctet(s, i);
      if (octet < 0x80) {
        // Step 2: only unreserved ASCII is decoded; "%", reserved and disallowed ASCII keep their triplet.
        // Deviation (bis §4 step 2): a hex digit is not decoded right after a "%" or "%" HEXDIG that
        // starts no triplet, where it would complete a new triplet ("%%34%31" would become "%41");
        // this keeps toIri idempotent and never changes what a triplet means.
        if (isUnreserved(octet) && !(isHexDig(octet) && followsStrayPercent(s, i))) {
          out += s.slice(last, i) + String.fromCharCode(octet);
          last = i + 3;
        }
        i += 3;
        continue;
      }
      const inQuery = i > queryStart && i < fragmentStart;
      const r = decodeUtf8Triplets(s, i);
      if (r < 0) {
        // Step 3: not part of a strictly legal UTF-8 sequence → re-encoded, uppercase.
        out += s.slice(last, i) + pctByte(octet);
        i = last = i + 3;
        continue;
      }
      const cp = Math.floor(r / 8);
      const end = i + 3 * (r % 8);
      // Step 4 re-encodes (uppercase), step 5 reads the rest as UTF-8.
      out += s.slice(last, i) + (isAppropriate(cp, inQuery) ? String.fromCodePoint(cp) : pctEncodeCodePoint(cp));
      i = last = end;
      continue;
    }
    // A raw non-ASCII character: its UTF-8 octets go through step 4 like decoded ones.
    let cp = c;
    let width = 1;
    if (c >= 0xd800 && c <= 0xdfff) {
      const d = i + 1 < n ? s.charCodeAt(i + 1) : 0;
      if (c > 0xdbff || d < 0xdc00 || d > 0xdfff) {
        i++; // a lone surrogate has no octets: copied unchanged
        continue;
      }
      cp = ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
      width = 2;
    }
    if (!isAppropriate(cp, i > queryStart && i < fragmentStart)) {
      out += s.slice(last, i) + pctEncodeCodePoint(cp);
      last = i + width;
    }
    i += width;
  }
  return last === 0 ? s : out + s.slice(last);
}

/** True when `s[i]` is preceded by `%` or by `%` HEXDIG, where that `%` starts no triplet. */
function followsStrayPercent(s: string, i: number): boolean {
  if (i >= 1 && s.charCodeAt(i - 1) === 0x25) return true;
  return i >= 2 && s.charCodeAt(i - 2) === 0x25 && isHexDig(s.charCodeAt(i - 1));
}

/** True when `s` holds `xn--` in any ASCII case. */
function hasAcePrefix(s: string): boolean {
  for (let i = s.indexOf('-'); i >= 0; i = s.indexOf('-', i + 1)) {
    if (i >= 2 && s.charCodeAt(i + 1) === 0x2d && asciiLowerEquals(s.slice(i - 2, i), 'xn')) return true;
  }
  return false;
}

/** bis §4 step 6: the host of a DNS scheme, or the domains of a mailto path. */
function hostsToUnicode(s: string): string {
  if (!hasAcePrefix(s)) return s;
  const c = splitIriReference(s);
  if (c.scheme === undefined) return s;
  if (isDnsScheme(c.scheme)) {
    if (c.host === undefined || c.host.charCodeAt(0) === 0x5b) return s;
    const host = domainLabelsToUnicode(c.host);
    if (host === c.host) return s;
    c.host = host;
    return recomposeIri(c);
  }
  if (asciiLowerEquals(c.scheme, 'mailto') && c.authority === undefined) {
    // RFC 6068 §2: to = addr-spec *("," addr-spec); the domain follows the last "@", or, in an address written
    // with its "@" percent-encoded (RFC 6068 §2 lets any character of the addr-spec be), the last "%40":
    // mailto:a%40xn--r8jz45g.jp shows its domain as mailto:a@xn--r8jz45g.jp does (the "%40" is kept, step 2).
    const parts = c.path.split(',');
    for (let k = 0; k < parts.length; k++) {
      const part = parts[k]!;
      let at = part.lastIndexOf('@');
      let atLength = 1;
      if (at < 0) {
        at = part.lastIndexOf('%40');
        atLength = 3;
      }
      if (at >= 0) parts[k] = part.slice(0, at + atLength) + domainLabelsToUnicode(part.slice(at + atLength));
    }
    c.path = parts.join(',');
    return recomposeIri(c);
  }
  return s;
}

/**
 * UTS #46 ToUnicode applied to the `xn--` labels of `host` only; the other labels keep their form.
 * The whole domain is tried first (so the CheckBidi rule sees every label); if it reports an error,
 * each `xn--` label is tried alone and keeps its ASCII form when that reports an error too (U2I-04).
 */
function domainLabelsToUnicode(host: string): string {
  if (!hasAcePrefix(host)) return host;
  const labels = host.split('.');
  const whole = domainToUnicode(host);
  const converted = whole.error ? null : whole.domain.split('.');
  let changed = false;
  for (let k = 0; k < labels.length; k++) {
    const label = labels[k]!;
    if (label.length < 4 || !asciiLowerEquals(label.slice(0, 4), 'xn--')) continue;
    let u: string | undefined;
    if (converted !== null && converted.length === labels.length) {
      u = converted[k];
    } else {
      const one = domainToUnicode(label);
      if (!one.error) u = one.domain;
    }
    if (u !== undefined && u !== '' && isDisplayableLabel(u)) {
      labels[k] = u;
      changed = true;
    }
  }
  return changed ? labels.join('.') : host;
}

/** A ToUnicode result is used only if every character may appear as itself in an IRI host. */
function isDisplayableLabel(label: string): boolean {
  for (let i = 0; i < label.length; i++) {
    const cp = label.codePointAt(i)!;
    if (cp > 0xffff) i++;
    if (cp < 128) {
      if (cp === 0x2e || cp === 0x25 || !isUnreserved(cp)) return false;
    } else if (!isAppropriate(cp, false)) {
      return false;
    }
  }
  return true;
}
