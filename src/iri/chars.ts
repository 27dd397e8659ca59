// Character classes of the IRI grammar, by code point number (STYLE.md habit 7).
// RFC 3987 §2.2 (ABNF), RFC 3986 §2 (the ASCII classes it reuses), RFC 3987 §4.1 (bidi formatting
// characters), draft-ietf-iri-3987bis-11 §2.2 and §6.3 where they differ (each difference says so).
//
// ASCII classes are one 128-entry flag table; the rest are numeric range comparisons.

// Flags of the ASCII table.
const ALPHA = 1;
const DIGIT = 2;
const HEXDIG = 4;
const UNRESERVED_MARK = 8; //  "-" / "." / "_" / "~"
const GEN_DELIM = 16; //       ":" / "/" / "?" / "#" / "[" / "]" / "@"
const SUB_DELIM = 32; //       "!" / "$" / "&" / "'" / "(" / ")" / "*" / "+" / "," / ";" / "="
const DISALLOWED = 64; //      RFC 3987 §3.1: space < > " { } | \ ^ `
const SCHEME_EXTRA = 128; //   "+" / "-" / "." (RFC 3986 §3.1 scheme)

const ASCII = new Uint8Array(128);
function mark(chars: string, flag: number): void {
  for (let i = 0; i < chars.length; i++) ASCII[chars.charCodeAt(i)] |= flag;
}
for (let c = 0x41; c <= 0x5a; c++) ASCII[c] |= ALPHA;
for (let c = 0x61; c <= 0x7a; c++) ASCII[c] |= ALPHA;
for (let c = 0x30; c <= 0x39; c++) ASCII[c] |= DIGIT | HEXDIG;
mark('ABCDEFabcdef', HEXDIG);
mark('-._~', UNRESERVED_MARK);
mark(':/?#[]@', GEN_DELIM);
mark("!$&'()*+,;=", SUB_DELIM);
mark(' <>"{}|\\^`', DISALLOWED);
mark('+-.', SCHEME_EXTRA);

/** RFC 5234 ALPHA: A–Z / a–z. */
export function isAlpha(cp: number): boolean {
  return cp < 128 && (ASCII[cp]! & ALPHA) !== 0;
}

/** `s` with A–Z lower-cased and every other character as it is (STYLE.md: case-insensitive means ASCII). */
export function asciiLower(s: string): string {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x41 && c <= 0x5a) return s.replace(/[A-Z]+/g, (m) => m.toLowerCase());
  }
  return s;
}

/** ALPHA or DIGIT of RFC 5234: an ASCII letter or digit. */
export function isAlnum(cp: number): boolean {
  return cp < 128 && (ASCII[cp]! & (ALPHA | DIGIT)) !== 0;
}

/** RFC 5234 DIGIT: 0–9. */
export function isDigit(cp: number): boolean {
  return cp >= 0x30 && cp <= 0x39;
}

/** RFC 5234 HEXDIG, case-insensitive as ABNF strings are: 0–9 A–F a–f. */
export function isHexDig(cp: number): boolean {
  return cp < 128 && (ASCII[cp]! & HEXDIG) !== 0;
}

/** RFC 3986 §3.1: a character allowed after the first of a scheme (ALPHA / DIGIT / "+" / "-" / "."). */
export function isSchemeChar(cp: number): boolean {
  return cp < 128 && (ASCII[cp]! & (ALPHA | DIGIT | SCHEME_EXTRA)) !== 0;
}

// RFC 3986 §2.3
/** unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~" */
export function isUnreserved(cp: number): boolean {
  return cp < 128 && (ASCII[cp]! & (ALPHA | DIGIT | UNRESERVED_MARK)) !== 0;
}

// RFC 3986 §2.2
/** gen-delims = ":" / "/" / "?" / "#" / "[" / "]" / "@" */
export function isGenDelim(cp: number): boolean {
  return cp < 128 && (ASCII[cp]! & GEN_DELIM) !== 0;
}

/** sub-delims = "!" / "$" / "&" / "'" / "(" / ")" / "*" / "+" / "," / ";" / "=" */
export function isSubDelim(cp: number): boolean {
  return cp < 128 && (ASCII[cp]! & SUB_DELIM) !== 0;
}

/** reserved = gen-delims / sub-delims */
export function isReserved(cp: number): boolean {
  return cp < 128 && (ASCII[cp]! & (GEN_DELIM | SUB_DELIM)) !== 0;
}

/**
 * RFC 3987 §3.1: the printable US-ASCII characters not allowed in URIs — space `<` `>` `"` `{` `}`
 * `|` `\` `^` `` ` `` (bis §6.3 calls them delimiters and "unwise" characters).
 */
export function isDisallowedAscii(cp: number): boolean {
  return cp < 128 && (ASCII[cp]! & DISALLOWED) !== 0;
}

/** C0 controls and DEL (U+0000–001F, U+007F): never allowed in a URI or IRI (RFC 3986 §2). */
export function isAsciiControl(cp: number): boolean {
  return cp <= 0x1f || cp === 0x7f;
}

/**
 * A character that may appear as itself anywhere in a URI reference: unreserved, reserved or `%`
 * (RFC 3986 §2). Everything else is percent-encoded by IRI→URI mapping (bis §3.3).
 */
export function isUriChar(cp: number): boolean {
  return cp < 128 && ((ASCII[cp]! & (ALPHA | DIGIT | UNRESERVED_MARK | GEN_DELIM | SUB_DELIM)) !== 0 || cp === 0x25);
}

// RFC 3987 §2.2
/**
 * ucschar = %xA0-D7FF / %xF900-FDCF / %xFDF0-FFEF / %x10000-1FFFD / … / %xD0000-DFFFD / %xE1000-EFFFD
 * (the same in 3987bis-11 §2.2). Excludes controls, surrogates, private use, non-characters, the
 * specials U+FFF0–FFFF and the tags block U+E0000–E0FFF.
 */
export function isUcschar(cp: number): boolean {
  if (cp < 0xa0) return false;
  if (cp <= 0xd7ff) return true;
  if (cp < 0xf900) return false; //             surrogates, BMP private use
  if (cp <= 0xfdcf) return true;
  if (cp < 0xfdf0) return false; //             non-characters U+FDD0–FDEF
  if (cp <= 0xffef) return true;
  if (cp < 0x10000 || cp > 0xefffd) return false; // specials U+FFF0–FFFF; planes 15–16 are iprivate
  if (cp >= 0xe0000 && cp <= 0xe0fff) return false; // tags and the rest of that block
  return (cp & 0xfffe) !== 0xfffe; //          %xN0000-NFFFD: not the two plane-end non-characters
}

/**
 * RFC 3987 §2.2: iprivate = %xE000-F8FF / %xF0000-FFFFD / %x100000-10FFFD.
 * Allowed only in iquery.
 *
 * The vectors follow RFC 3987 here, not 3987bis: INV-07 (`?` + U+E0041 is not an IRI), INV-31
 * (a tag in ireg-name) and U2I-29 (URI→IRI keeps `%F3%A0%81%81` encoded). See {@link isIprivateBis}.
 */
export function isIprivate(cp: number): boolean {
  return (
    (cp >= 0xe000 && cp <= 0xf8ff) || (cp >= 0xf0000 && cp <= 0xffffd) || (cp >= 0x100000 && cp <= 0x10fffd)
  );
}

/**
 * draft-ietf-iri-3987bis-11 §2.2: iprivate also holds the tags U+E0000–E0FFF.
 * Used only by LEIRI→IRI conversion, which is a 3987bis operation (vector LEI-16 keeps a tag in the
 * query); everything else uses RFC 3987's {@link isIprivate}.
 */
export function isIprivateBis(cp: number): boolean {
  return isIprivate(cp) || (cp >= 0xe0000 && cp <= 0xe0fff);
}

/** RFC 3987 §2.2: iunreserved = ALPHA / DIGIT / "-" / "." / "_" / "~" / ucschar */
export function isIunreserved(cp: number): boolean {
  return cp < 128 ? (ASCII[cp]! & (ALPHA | DIGIT | UNRESERVED_MARK)) !== 0 : isUcschar(cp);
}

/**
 * RFC 3987 §2.2 ipchar without pct-encoded (which is a three-character form, checked by the parser):
 * iunreserved / sub-delims / ":" / "@"
 */
export function isIpcharSingle(cp: number): boolean {
  if (cp < 128) return (ASCII[cp]! & (ALPHA | DIGIT | UNRESERVED_MARK | SUB_DELIM)) !== 0 || cp === 0x3a || cp === 0x40;
  return isUcschar(cp);
}

/**
 * RFC 3987 §4.1: the bidirectional formatting characters an IRI MUST NOT contain —
 * LRM U+200E, RLM U+200F, LRE/RLE/PDF/LRO/RLO U+202A–202E (the same list in bis §6.3).
 */
export function isBidiFormatRfc3987(cp: number): boolean {
  return cp === 0x200e || cp === 0x200f || (cp >= 0x202a && cp <= 0x202e);
}

/**
 * The bidi controls irilink keeps out of IRIs: RFC 3987 §4.1's list plus the isolates LRI/RLI/FSI/PDI
 * U+2066–2069 and ARABIC LETTER MARK U+061C.
 * Deviation (RFC 3987 §4.1): the isolates and ALM were added in Unicode 6.3 (2013), after the RFC; they
 * reorder display exactly as the listed characters do, so isIri rejects them and toIri/leiriToIri keep
 * them percent-encoded, as DESIGN.md P1 does for detection.
 */
export function isBidiFormat(cp: number): boolean {
  return cp === 0x200e || cp === 0x200f || (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) || cp === 0x061c;
}

/**
 * Unicode non-characters: U+FDD0–FDEF and the last two code points of every plane.
 * (bis §6.3 lists them among the characters allowed in LEIRIs but not IRIs, except U+FFFE/U+FFFF,
 * which are not allowed even in LEIRIs.)
 */
export function isNoncharacter(cp: number): boolean {
  return (cp >= 0xfdd0 && cp <= 0xfdef) || (cp <= 0x10ffff && (cp & 0xfffe) === 0xfffe);
}

/**
 * Characters that URI→IRI conversion keeps percent-encoded although they are ucschar, because they
 * cannot be shown safely — RFC 3987 §3.2 step 4 / bis §4 step 4 with bis §5.1 b ("look-alikes of
 * space") and d (invisible characters); the RFC says "results may vary" here, so this list is a choice:
 * non-ASCII white space (U+00A0, U+1680, U+2000–200A, U+2028, U+2029, U+202F, U+205F, U+3000),
 * SOFT HYPHEN U+00AD, COMBINING GRAPHEME JOINER U+034F, the Hangul fillers U+115F, U+1160, U+3164,
 * U+FFA0, KHMER VOWEL INHERENT U+17B4–17B5, the Mongolian variation selectors and vowel separator
 * U+180B–180F, ZERO WIDTH SPACE U+200B, WORD JOINER and the invisible operators U+2060–2064, the
 * deprecated format characters U+206A–206F, and ZERO WIDTH NO-BREAK SPACE U+FEFF.
 * ZWNJ/ZWJ (U+200C/D) and the variation selectors U+FE00–FE0F are decoded: scripts and emoji need them.
 */
export function isInvisibleOrSpace(cp: number): boolean {
  if (cp < 0xa0) return false;
  if (cp <= 0x3164) {
    return (
      cp === 0xa0 ||
      cp === 0xad ||
      cp === 0x34f ||
      cp === 0x115f ||
      cp === 0x1160 ||
      cp === 0x1680 ||
      cp === 0x17b4 ||
      cp === 0x17b5 ||
      (cp >= 0x180b && cp <= 0x180f) ||
      (cp >= 0x2000 && cp <= 0x200b) ||
      cp === 0x2028 ||
      cp === 0x2029 ||
      cp === 0x202f ||
      cp === 0x205f ||
      (cp >= 0x2060 && cp <= 0x2064) ||
      (cp >= 0x206a && cp <= 0x206f) ||
      cp === 0x3000 ||
      cp === 0x3164
    );
  }
  return cp === 0xfeff || cp === 0xffa0;
}

/** UTF-16: true for a high-surrogate code unit, U+D800–DBFF. */
export function isHighSurrogate(cu: number): boolean {
  return cu >= 0xd800 && cu <= 0xdbff;
}

/**
 * The index of the first lone surrogate code unit in `s`, or -1. Linear, no allocation.
 */
export function findLoneSurrogate(s: string): number {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) continue;
    if (c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        i++;
        continue;
      }
    }
    return i;
  }
  return -1;
}
