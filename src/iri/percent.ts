// UTF-8 percent-encoding and strict percent-decoding, shared by toUri, toIri, leiriToIri and compare.
// RFC 3986 §2.1 (pct-encoded, uppercase hex SHOULD), RFC 3629 (UTF-8, strict: no overlong forms, no
// surrogates, nothing above U+10FFFF, no truncated sequences — RFC 3987 §3.2 step 3 "strictly legal").

import { isHexDig } from './chars.js';

/** "%00" … "%FF", uppercase (RFC 3986 §2.1: "SHOULD use uppercase hexadecimal digits"). */
const TRIPLET: string[] = [];
for (let b = 0; b < 256; b++) TRIPLET.push('%' + (b < 16 ? '0' : '') + b.toString(16).toUpperCase());

/** The pct-encoded form of one octet, uppercase: `pctByte(0xe9) === '%E9'`. */
export function pctByte(octet: number): string {
  return TRIPLET[octet & 0xff]!;
}

/** The value of one hex digit code unit, or -1. */
export function hexValue(cu: number): number {
  if (cu >= 0x30 && cu <= 0x39) return cu - 0x30;
  if (cu >= 0x41 && cu <= 0x46) return cu - 0x37;
  if (cu >= 0x61 && cu <= 0x66) return cu - 0x57;
  return -1;
}

/** True when `s[i]` starts a pct-encoded triplet: `%` HEXDIG HEXDIG (RFC 3986 §2.1). */
export function isPctTriplet(s: string, i: number): boolean {
  return (
    i + 2 < s.length && s.charCodeAt(i) === 0x25 && isHexDig(s.charCodeAt(i + 1)) && isHexDig(s.charCodeAt(i + 2))
  );
}

/** The octet of the triplet at `s[i]` (which must satisfy {@link isPctTriplet}). */
export function tripletOctet(s: string, i: number): number {
  return (hexValue(s.charCodeAt(i + 1)) << 4) | hexValue(s.charCodeAt(i + 2));
}

/**
 * The UTF-8 percent-encoding of one code point, uppercase hex (RFC 3987 §3.1 steps 2.1–2.2).
 * `cp` must be a Unicode scalar value or a surrogate code point (the caller rejects lone surrogates).
 */
export function pctEncodeCodePoint(cp: number): string {
  if (cp < 0x80) return TRIPLET[cp]!;
  if (cp < 0x800) return TRIPLET[0xc0 | (cp >> 6)]! + TRIPLET[0x80 | (cp & 0x3f)]!;
  if (cp < 0x10000) {
    return TRIPLET[0xe0 | (cp >> 12)]! + TRIPLET[0x80 | ((cp >> 6) & 0x3f)]! + TRIPLET[0x80 | (cp & 0x3f)]!;
  }
  return (
    TRIPLET[0xf0 | (cp >> 18)]! +
    TRIPLET[0x80 | ((cp >> 12) & 0x3f)]! +
    TRIPLET[0x80 | ((cp >> 6) & 0x3f)]! +
    TRIPLET[0x80 | (cp & 0x3f)]!
  );
}

/**
 * Percent-encodes the octets of an already-encoded byte sequence (bis §3.5: the query in a document
 * charset), uppercase hex.
 */
export function pctEncodeBytes(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i++) out += TRIPLET[bytes[i]!]!;
  return out;
}

/**
 * RFC 3629 §4, strictly: decodes the UTF-8 sequence whose octets are the consecutive triplets starting
 * at `s[i]` (`%C3%A9…`). Returns `codePoint * 8 + tripletCount` (1–4 triplets), or -1 when the triplet at
 * `i` does not start a well-formed sequence: an ASCII octet, a continuation octet, C0/C1 (overlong
 * 2-byte), E0 followed by 80–9F (overlong 3-byte), ED followed by A0–BF (a surrogate), F0 followed by
 * 80–8F (overlong 4-byte), F4 followed by 90–BF or F5–FF (above U+10FFFF), or a truncated sequence.
 * Packing the answer into one number keeps the hot loop free of allocation.
 */
export function decodeUtf8Triplets(s: string, i: number): number {
  if (!isPctTriplet(s, i)) return -1;
  const b0 = tripletOctet(s, i);
  let need: number;
  let cp: number;
  let lo = 0x80;
  let hi = 0xbf;
  if (b0 < 0xc2 || b0 > 0xf4) return -1; // ASCII, continuation, C0/C1 overlong, F5–FF
  if (b0 < 0xe0) {
    need = 1;
    cp = b0 & 0x1f;
  } else if (b0 < 0xf0) {
    need = 2;
    cp = b0 & 0x0f;
    if (b0 === 0xe0) lo = 0xa0; //    overlong
    else if (b0 === 0xed) hi = 0x9f; // surrogates U+D800–DFFF
  } else {
    need = 3;
    cp = b0 & 0x07;
    if (b0 === 0xf0) lo = 0x90; //    overlong
    else if (b0 === 0xf4) hi = 0x8f; // above U+10FFFF
  }
  let j = i + 3;
  for (let k = 0; k < need; k++, j += 3) {
    if (!isPctTriplet(s, j)) return -1;
    const b = tripletOctet(s, j);
    if (b < lo || b > hi) return -1;
    lo = 0x80;
    hi = 0xbf;
    cp = (cp << 6) | (b & 0x3f);
  }
  return cp * 8 + need + 1;
}

/**
 * Decodes every pct-encoded triplet of `s` as UTF-8 (bis §3.4.2: "If there are any sequences of
 * <pct-encoded>, and their corresponding octets all represent valid UTF-8 octet sequences, then convert
 * these back to Unicode character sequences"). Returns null when some triplet is not part of a
 * well-formed UTF-8 sequence; a `%` that does not start a triplet is kept as it is.
 * ASCII octets (`%41`) decode to their character, as UTF-8 says.
 */
export function pctDecodeUtf8(s: string): string | null {
  let i = s.indexOf('%');
  if (i < 0) return s;
  let out = s.slice(0, i);
  let last = i;
  while (i < s.length) {
    if (s.charCodeAt(i) !== 0x25 || !isPctTriplet(s, i)) {
      i++;
      continue;
    }
    const octet = tripletOctet(s, i);
    let cp: number;
    let end: number;
    if (octet < 0x80) {
      cp = octet;
      end = i + 3;
    } else {
      const r = decodeUtf8Triplets(s, i);
      if (r < 0) return null;
      cp = Math.floor(r / 8);
      end = i + 3 * (r % 8);
    }
    out += s.slice(last, i) + String.fromCodePoint(cp);
    i = last = end;
  }
  return out + s.slice(last);
}

/**
 * Strict UTF-8 decoding of a byte array (fatal on any ill-formed sequence): the code points, or null.
 * Used by tests and by callers that hold octets rather than triplets.
 */
export function decodeUtf8Strict(bytes: Uint8Array): string | null {
  try {
    return UTF8_FATAL.decode(bytes);
  } catch {
    return null;
  }
}
const UTF8_FATAL = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Uppercases the hex digits of every pct-encoded triplet; leaves everything else alone. */
export function uppercasePctHex(s: string): string {
  let i = s.indexOf('%');
  if (i < 0) return s;
  let out = '';
  let last = 0;
  for (; i < s.length; i++) {
    if (s.charCodeAt(i) !== 0x25 || !isPctTriplet(s, i)) continue;
    const t = s.slice(i, i + 3);
    const u = t.toUpperCase();
    if (t !== u) {
      out += s.slice(last, i) + u;
      last = i + 3;
    }
    i += 2;
  }
  return last === 0 ? s : out + s.slice(last);
}
