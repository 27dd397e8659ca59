// Character classes of the scanner, by number (STYLE.md habit 7): an ASCII flag table, and the generated
// Unicode tables of src/unicode for everything else.

import { CLOSE, HARD, INCLUDE, isHostChar, linkTerm, OPEN, SOFT } from '../unicode/index.js';
import { generalCategory, isBidiControl, isLetter, isMark, isNumber, scriptExtensionsIndices, SCRIPT_NAMES } from '../unicode/index.js';
import { isInvisibleOrSpace } from '../iri/chars.js';

export { isBidiControl };

export { CLOSE, HARD, INCLUDE, OPEN, SOFT };

// ASCII flags.
export const A_HARD = 1; //        Link_Term=Hard: C0 controls, space, DEL; and the backquote (below)
const A_TRIGGER = 2; //     '.' and ':' start a look at the text around them
export const A_SCHEME = 4; //      RFC 3986 §3.1 scheme characters: ALPHA DIGIT + - .
export const A_ALPHA = 8;
export const A_DIGIT = 16;
export const A_HOST = 32; //       host characters of the domain scan: ALPHA DIGIT - .
export const A_USERINFO = 64; //   RFC 3986 §3.2.1 userinfo: unreserved, pct-encoded, sub-delims, ':'
export const A_WRAP_SPACE = 128; // RFC 3986 Appendix C: whitespace a wrapped link may hold (SP HT CR LF)

export const ASCII_FLAGS = new Uint8Array(128);
/** UTS #58 Link_Term of ASCII (NOTES §2.1 "ASCII breakdown"). */
export const ASCII_TERM = new Uint8Array(128);
{
  const mark = (chars: string, flag: number): void => {
    for (let i = 0; i < chars.length; i++) ASCII_FLAGS[chars.charCodeAt(i)]! |= flag;
  };
  for (let c = 0; c < 0x20; c++) ASCII_FLAGS[c]! |= A_HARD;
  ASCII_FLAGS[0x20]! |= A_HARD;
  ASCII_FLAGS[0x7f]! |= A_HARD;
  mark('.:', A_TRIGGER);
  for (let c = 0x41; c <= 0x5a; c++) ASCII_FLAGS[c]! |= A_ALPHA | A_SCHEME | A_HOST | A_USERINFO;
  for (let c = 0x61; c <= 0x7a; c++) ASCII_FLAGS[c]! |= A_ALPHA | A_SCHEME | A_HOST | A_USERINFO;
  for (let c = 0x30; c <= 0x39; c++) ASCII_FLAGS[c]! |= A_DIGIT | A_SCHEME | A_HOST | A_USERINFO;
  mark('+-.', A_SCHEME);
  mark('-.', A_HOST);
  mark("-._~%!$&'()*+,;=:", A_USERINFO);
  mark(' \t\r\n', A_WRAP_SPACE);
  for (let c = 0; c < 128; c++) ASCII_TERM[c] = linkTerm(c);
  // Deviation (UTS #58 §2.1): Link_Term makes the backquote Include. No URI or IRI holds one (RFC 3986 §2,
  // RFC 3987 §2.2; RFC 2396 §2.4.3 called it "unwise"), and in running text it delimits code: a link never
  // contains it, and no scan crosses it (`https://example.com/`. and `邮件`bug@example.org` link without it).
  ASCII_FLAGS[0x60]! |= A_HARD;
  ASCII_TERM[0x60] = HARD;
  // Deviation (UTS #58 §2.1): Link_Term makes the backslash Include; here it is Soft, so that a link never ends in
  // one and one inside a path stays (`https://example.com/a\b`). No URI or IRI holds it either (RFC 3986 §2; WHATWG
  // URL reads it as `/` in http(s), so `%5C` at the end went to another resource), and after a link it is a shell's
  // line continuation (`…/docbook.xsl\`) or reStructuredText's escaped space (`…/n1256.pdf\ `; found in review).
  ASCII_TERM[0x5c] = SOFT;
}

/**
 * Characters a link's conversion writes as they are (convert.ts quickLink), for the steps that note whether a link
 * holds only such characters where the conversion would look (ScanState.plainAuthority):
 * - PLAIN_HOST, in a host or an email's domain: `a`–`z`, `0`–`9` and the dot. No case mapping (UTS #46 §4 step 1),
 *   and with no hyphen a label the scan validated is LDH for UTS #46 CheckHyphens too (no `--`, so no `xn--`).
 * - PLAIN_LOCAL, in an email's local part: ASCII letters (kept as written in a local part), digits and
 *   `!$'*+-._~`, the atext of Link_Email that a mailto URI holds unencoded (RFC 6068 §2); not `% / & =` (fullLink
 *   encodes them: convert.ts mailtoAddress), `#` `?` (they end a mailto path).
 */
export const PLAIN_HOST = new Uint8Array(128);
export const PLAIN_LOCAL = new Uint8Array(128);
/**
 * 1 for the ASCII characters a link's path, query and fragment hold as its URI and IRI write them (convert.ts
 * quickLink): unreserved and reserved (RFC 3986 §2.2, §2.3) but `#` (a second one needs toValidUri, RFC 3986 §3.5),
 * `[` and `]` (outside an IP-literal they need toValidUri). Not `%`: toIri may decode a triplet.
 */
export const URI_SIMPLE = new Uint8Array(128);
{
  for (const ch of 'abcdefghijklmnopqrstuvwxyz0123456789.') PLAIN_HOST[ch.charCodeAt(0)] = 1;
  for (const ch of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!$'*+-._~") PLAIN_LOCAL[ch.charCodeAt(0)] = 1;
  for (const ch of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?@!$&'()*+,;=") {
    URI_SIMPLE[ch.charCodeAt(0)] = 1;
  }
}

/** The code point at `i` (a surrogate pair combined; a lone surrogate is returned as itself). */
export function codePointAt(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
    const d = s.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) return ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
  }
  return c;
}

/** The value of an ASCII hex digit (RFC 3986 §2.1 HEXDIG, either case), or −1. */
export { hexValue } from '../iri/percent.js';

/** A letter or a digit of any script (an identifier or a word runs on through it). */
export function isLetterOrDigit(cp: number): boolean {
  return cp < 128 ? (ASCII_FLAGS[cp]! & (A_ALPHA | A_DIGIT)) !== 0 : isLetter(cp) || isNumber(cp);
}

/** The code point that ends just before `i` (i > 0). */
export function codePointBefore(s: string, i: number): number {
  const d = s.charCodeAt(i - 1);
  if (d >= 0xdc00 && d <= 0xdfff && i >= 2) {
    const c = s.charCodeAt(i - 2);
    if (c >= 0xd800 && c <= 0xdbff) return ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
  }
  return d;
}

/**
 * text[a, b) lower-cased, as equalsLowerCased compares it: the key to look up in a set of lower-case ASCII names (one
 * string, where comparing with each name of a long list in turn costs more; performance).
 */
export function lowerCased(text: string, a: number, b: number): string {
  return text.slice(a, b).toLowerCase();
}

/**
 * Does text[a, b) lower-cased equal `lower` (a lower-case ASCII string)? Decided by number when text[a, b) is
 * ASCII (no string built: performance); otherwise by String.prototype.toLowerCase, which maps a few non-ASCII
 * characters onto ASCII (U+212A KELVIN SIGN → `k`).
 */
export function equalsLowerCased(text: string, a: number, b: number, lower: string): boolean {
  if (b - a !== lower.length) {
    for (let i = a; i < b; i++) if (text.charCodeAt(i) >= 128) return text.slice(a, b).toLowerCase() === lower;
    return false;
  }
  for (let i = a; i < b; i++) {
    let c = text.charCodeAt(i);
    if (c >= 128) return text.slice(a, b).toLowerCase() === lower;
    if (c >= 0x41 && c <= 0x5a) c += 0x20;
    if (c !== lower.charCodeAt(i - a)) {
      for (let k = i + 1; k < b; k++) if (text.charCodeAt(k) >= 128) return text.slice(a, b).toLowerCase() === lower;
      return false;
    }
  }
  return true;
}

/**
 * A character no link contains and no scan crosses: UTS #58 Link_Term=Hard, plus (P1) the bidi controls.
 * Deviation (UTS #58 §2.1): Link_Term makes the bidi controls Include; RFC 3987 §4.1 forbids them in IRIs.
 */
export function isBarrier(cp: number): boolean {
  return (cp < 128 ? (ASCII_FLAGS[cp]! & A_HARD) !== 0 : linkTerm(cp) === HARD) || isBidiControl(cp);
}

/**
 * Link_Term with the P1 bidi controls made Hard, and the ellipsis Soft.
 * Deviation (UTS #58 §2.1): Link_Term makes `…` (U+2026) and `‥` (U+2025) Include, so a link took the ellipsis of a
 * sentence or a cut-off post (`More at https://example.com/news…`, Chinese `……`; found in review). They are sentence
 * punctuation, as the `...` they stand for is: Soft, so a link does not end in them and one inside a path stays.
 */
export function termOf(cp: number): number {
  if (cp < 128) return ASCII_TERM[cp]!;
  if (cp === 0x2026 || cp === 0x2025) return SOFT;
  return isBidiControl(cp) ? HARD : linkTerm(cp);
}

/** The label separators of a host: `.` and, after UTS #46 mapping, `。` `．` `｡`. */
export function isHostDot(cp: number): boolean {
  return cp === 0x2e || cp === 0x3002 || cp === 0xff0e || cp === 0xff61;
}

/**
 * A character of a domain name, for the scans around a TLD and after `scheme://`: UTS #58 §4.1's set (IDNA valid
 * or mapped, ASCII letters, digits, `-` and the dots) without punctuation and math symbols (isHostChar's deviation:
 * `„ftp.debian.org“`, `〝example.com〟` and `visit—example.com` link the name alone).
 * Deviation (UTS #58 §4.1): only Link_Term=Include characters (and the dots) — so a Soft or bracket character of
 * the set is not swallowed into a host either.
 */
export function isDomainChar(cp: number): boolean {
  if (cp < 128) return (ASCII_FLAGS[cp]! & A_HOST) !== 0;
  if (isHostDot(cp)) return true;
  return isHostChar(cp) && linkTerm(cp) === INCLUDE && !isBidiControl(cp);
}

/**
 * A middle dot at text[i] that no host holds there (`st`: its room; INCOMPLETE at the end of a non-final chunk). RFC
 * 5892 Appendix A.3 allows U+00B7 in a label only between two `l` (Catalan `col·legi`); elsewhere it is the
 * sentence's: the Greek ano teleia U+0387, which NFC writes U+00B7 (`παράδειγμα.ελ· μετά`). UTS #58 reads it as a
 * host character (found in review: the host took it). Deviation (UTS #58 §4.1).
 */
export function isStrayMiddleDot(st: { text: string; outOfRoom(i: number): boolean }, i: number): boolean {
  const isL = (c: number): boolean => c === 0x6c || c === 0x4c;
  return i === 0 || !isL(st.text.charCodeAt(i - 1)) || st.outOfRoom(i + 1) || !isL(st.text.charCodeAt(i + 1));
}

/** A domain character other than a label separator. */
export function isLabelChar(cp: number): boolean {
  return cp !== 0x2e && cp !== 0x3002 && cp !== 0xff0e && cp !== 0xff61 && isDomainChar(cp);
}

const NO_SPACE_SCRIPTS = new Set(
  ['Han', 'Hiragana', 'Katakana', 'Bopomofo', 'Hangul', 'Thai', 'Lao', 'Khmer', 'Myanmar', 'Tibetan', 'Yi', 'Tai_Tham', 'Tai_Le', 'New_Tai_Lue', 'Tai_Viet', 'Ahom', 'Balinese', 'Javanese']
    .map((name) => SCRIPT_NAMES.indexOf(name))
    .filter((i) => i >= 0),
);

/**
 * P4: may a scheme start right after `cp`? Not after a letter, mark or digit of a script written with spaces
 * between words (`seehttp://…`); yes after one of a script written without them (`詳細はhttps://…`), and after
 * anything else (punctuation, symbols, the start of text).
 */
export function allowsGluedScheme(cp: number): boolean {
  if (cp < 128) return (ASCII_FLAGS[cp]! & (A_ALPHA | A_DIGIT)) === 0;
  if (!(isLetter(cp) || isMark(cp) || isNumber(cp))) return true;
  return isNoSpaceScript(cp);
}

/**
 * Is text[i] the letter of a C-style escape `\n`, `\r`, `\t`, `\"` or `\'` (after an odd run of backslashes, read at
 * most 8 back): a line break, a tab or a quotation mark written out in a string literal or a JSON log, which
 * separates words as the character it stands for does. A link starts after it: `"see\nhttps://…"` (P4 read `n` as
 * a word glued to the scheme), and `"a\njohn@example.com"` is `john@example.com`, not `njohn@…` (found in review).
 */
export function isEscapeLetterAt(text: string, i: number, roff = false): boolean {
  const c = text.charCodeAt(i);
  if (c !== 0x6e && c !== 0x72 && c !== 0x74 && c !== 0x22 && c !== 0x27 && !(roff && (c === 0x66 || c === 0x6d))) return false;
  let k = i;
  while (k > 0 && i - k < 8 && text.charCodeAt(k - 1) === 0x5c) k--;
  return (i - k) % 2 === 1;
}

/**
 * ECMA-48 §5.4: where a terminal's control sequence that `p` is inside ends. A run of ASCII read back from a trigger
 * stops at the `[` of `ESC [` or at a parameter such as `;`; when it starts inside one (`ESC [` and only parameter
 * bytes, 0x30–0x3F, or intermediate bytes, 0x20–0x2F, before `p`), those bytes and the final byte (0x40–0x7E) are
 * the sequence's, not a word's: colours and cursor moves in CI logs and `grep --color` output,
 * `\x1b[38;5;208mwww.example.org\x1b[0m` (found in review: it linked `208mwww.example.org`, and `\x1b[4mhttps://…`
 * nothing). Returns the index after the final byte (at most `limit`), or `p` when no sequence ends in text[p, limit).
 */
export function afterControlSequence(text: string, p: number, limit: number): number {
  let b = p;
  while (b > 0 && p - b < 32 && isControlSequenceByte(text.charCodeAt(b - 1))) b--;
  if (b < 2 || text.charCodeAt(b - 1) !== 0x5b || text.charCodeAt(b - 2) !== 0x1b) return p;
  let k = p;
  while (k < limit && k - b < 32 && isControlSequenceByte(text.charCodeAt(k))) k++;
  const f = text.charCodeAt(k);
  return k < limit && f >= 0x40 && f <= 0x7e ? k + 1 : p;
}

/** Is text[i] the final byte of a terminal's control sequence (afterControlSequence)? Reads at most 33 units back. */
export function isControlSequenceEnd(text: string, i: number): boolean {
  const f = text.charCodeAt(i);
  if (f < 0x40 || f > 0x7e) return false;
  let k = i;
  while (k > 0 && i - k < 32 && isControlSequenceByte(text.charCodeAt(k - 1))) k--;
  return k >= 2 && text.charCodeAt(k - 1) === 0x5b && text.charCodeAt(k - 2) === 0x1b;
}

/** A parameter (0x30–0x3F) or intermediate (0x20–0x2F) byte of a control sequence (ECMA-48 §5.4). */
function isControlSequenceByte(c: number): boolean {
  return c >= 0x20 && c <= 0x3f;
}

/**
 * Where the escape written out whose `\` is at r − 1 ends, or r when none starts there (or it would run past
 * `limit`). The `\` ends an odd run of backslashes (read at most 8 back). An escape stands for a character or for
 * markup, not for letters of a word, and a link starts after it:
 * - a C-style escape, isEscapeLetterAt: `"see\nhttps://…"`;
 * - roff's font and colour escapes in a man page's source, `\fB`, `\f(CW`, `\f[BI]`, `\m[blue]`, `\m[]`:
 *   `\fBhttps://curl.se/docs/manpage.html\fR` (found in review: P4 read `fB` as a word glued to the scheme, and an
 *   address took `fI`, `mailto:fIbug-coreutils@gnu.org`).
 */
export function afterEscape(text: string, r: number, limit: number): number {
  // (A run read back stops at the `(` of `\f(CW`: its two capitals or digits are the escape's.)
  if (r >= 3 && text.charCodeAt(r - 1) === 0x28 && text.charCodeAt(r - 2) === 0x66 && isEscapeLetterAt(text, r - 2, true)) {
    return r + 2 <= limit && isFontNameChar(text.charCodeAt(r)) && isFontNameChar(text.charCodeAt(r + 1)) ? r + 2 : r;
  }
  if (r >= limit || !isEscapeLetterAt(text, r, true)) return r;
  const c = text.charCodeAt(r);
  let e = r + 1;
  if (c === 0x66 || c === 0x6d) {
    // roff: `\fX`, `\f(XX`, `\f[name]`, `\m[name]`
    if (!isRoffEscapeAt(text, r)) return r;
    if (text.charCodeAt(r + 1) === 0x5b) {
      e = r + 2;
      while (e < limit && e - r <= 24 && text.charCodeAt(e) !== 0x5d) e++;
      if (e >= limit || text.charCodeAt(e) !== 0x5d) return r;
      e++;
    } else if (text.charCodeAt(r + 1) === 0x28) {
      if (!isFontNameChar(text.charCodeAt(r + 2)) || !isFontNameChar(text.charCodeAt(r + 3))) return r;
      e = r + 4;
    } else {
      e = r + 2;
    }
  }
  return e <= limit ? e : r;
}

/** A character of a roff font's name as `\fX` and `\f(XX` write it: a capital or a digit (`B`, `CW`, `4`). */
function isFontNameChar(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39);
}

/**
 * Is text[i] (after a `\`) the letter of roff's font or colour escape: `f` before a font's name, a capital or a digit
 * (`\fB`, `\fR`, `\f4`; `\file:///…` is AsciiDoc's escaped link, found in review), `(` or `[`; `m` before `[`?
 */
export function isRoffEscapeAt(text: string, i: number): boolean {
  return isRoffEscape(text.charCodeAt(i), text.charCodeAt(i + 1));
}

/** isRoffEscapeAt of the letter `c` and the unit `n` after it. */
export function isRoffEscape(c: number, n: number): boolean {
  if (c === 0x6d) return n === 0x5b;
  return c === 0x66 && (isFontNameChar(n) || n === 0x28 || n === 0x5b);
}

/** Does an escape written out (afterEscape) end right before `e`? Reads at most 26 units back. */
export function escapeEndsAt(text: string, e: number): boolean {
  for (let k = e - 2; k >= 0 && e - k <= 26; k--) {
    if (text.charCodeAt(k) === 0x5c) return afterEscape(text, k + 1, e) === e;
  }
  return false;
}

/** A letter, mark or digit of a script written without spaces between words (Han, kana, Thai, …). */
export function isNoSpaceScriptLetter(cp: number): boolean {
  return cp >= 128 && (isLetter(cp) || isMark(cp) || isNumber(cp)) && isNoSpaceScript(cp);
}

/**
 * What is glued before an ASCII name without being part of it: a letter of a script written without spaces, the
 * mark such a script separates its words or syllables with (the katakana middle dot `・`, a Japanese list's bullet,
 * `連絡先・user@example.jp`, and the Tibetan tsheg `་`; found in review: `・user@example.jp` linked
 * `mailto:%E3%83%BBuser@…`), and a symbol or emoji (General_Category S*, or a variation selector after one), which
 * tweets, bios and signatures glue to a name: `👉example.com/signup`, `©acme.com`, `✉️jane@example.com` (found in
 * review: they linked `xn--example-ut94f.com`, `xn--acme-4fa.com` and `mailto:%EF%B8%8Fjane@…`; `ACME™acme.com`
 * linked `acmetmacme.com`, UTS #46 mapping ™ to `tm`).
 */
function isTextBeforeAsciiName(cp: number): boolean {
  return cp === 0x30fb || cp === 0x0f0b || isNoSpaceScriptLetter(cp) || isSymbolLike(cp);
}

/**
 * A symbol or a piece of an emoji sequence: General_Category S*, an enclosing mark (the keycap U+20E3), a variation
 * selector or ZWJ. Glued before a name, it is not the name's (isTextBeforeAsciiName, domains.ts afterLeadingSymbols).
 */
export function isSymbolLike(cp: number): boolean {
  if (cp < 0xa0) return false;
  if (cp === 0x200d || (cp >= 0xfe00 && cp <= 0xfe0f)) return true;
  const gc = generalCategory(cp);
  return gc === 'So' || gc === 'Sm' || gc === 'Sc' || gc === 'Sk' || gc === 'Me';
}

/**
 * Where an ASCII name glued to text of a script written without spaces or to a symbol (isTextBeforeAsciiName) starts: the start of the ASCII run that
 * ends at `to`, when a letter of such a script sits right before it inside [from, to) and the run does not start
 * with a dot (`東京.example.com` is one IDN); otherwise `from`.
 *
 * In a domain (`labels`), a label that begins with such text after an ASCII label is a label of its own
 * (`www.ヤフーjapan.co.jp`); after more such text its dot was a full stop (`名字.它从auto.map`), and inside a label
 * the text is glued between ASCII words (`quota.user和quota.group`).
 *
 *     产生quota.user和quota.group   将补丁发送到stable@…   www.ヤフーjapan.co.jp
 *        ^from      ^ returned              ^ returned     ^from = returned
 */
export function asciiAfterNoSpaceText(text: string, from: number, to: number, labels: boolean): number {
  let r = to;
  while (r > from && text.charCodeAt(r - 1) < 128) r--;
  if (r === from || r === to || text.charCodeAt(r) === 0x2e) return from;
  if (text.charCodeAt(r) === 0x2d && r + 1 < to && hebrewPrefixBefore(text, from, r)) return r + 1;
  if (!isTextBeforeAsciiName(codePointBefore(text, r))) return from;
  if (!labels) return r;
  let label = r;
  while (label > from && !isHostDot(text.charCodeAt(label - 1))) label--;
  if (label === from || text.charCodeAt(label) < 128) return r;
  return label - 1 > from && isNoSpaceScriptLetter(codePointBefore(text, label - 1)) ? r : from;
}

/**
 * Hebrew writes its one-letter prefixes (ו ה ב כ ל מ ש: and, the, in, as, to, from, that; up to three together) with a
 * hyphen before a word in Latin letters: `כתבו ל-dana@example.co.il`, `היכנסו ל-www.example.co.il` (found in review:
 * they linked `mailto:%D7%9C-dana@…` and the host `ל-www.example.co.il`). Is text[k, r) such a run of prefixes, at a
 * word's start (k = from or no letter before it)? The hyphen at r and what follows are the caller's.
 */
function hebrewPrefixBefore(text: string, from: number, r: number): boolean {
  let k = r;
  while (k > from && r - k < 3 && HEBREW_PREFIXES.includes(text.charCodeAt(k - 1))) k--;
  if (k === r) return false;
  return k === from || !isLetter(codePointBefore(text, k));
}

const HEBREW_PREFIXES: readonly number[] = [0x5d1, 0x5d4, 0x5d5, 0x5db, 0x5dc, 0x5de, 0x5e9];

/** Every script of the Script_Extensions of `cp` is written without spaces (U+0301, used by Latin too, is not). */
function isNoSpaceScript(cp: number): boolean {
  for (const script of scriptExtensionsIndices(cp)) if (!NO_SPACE_SCRIPTS.has(script)) return false;
  return true;
}

/**
 * Invisible characters a name may hide: those UTS #46 maps to nothing (IdnaMappingTable status `ignored`): the
 * invisible characters toIri keeps encoded (isInvisibleOrSpace, less its spaces), the variation selectors, the
 * shorthand format controls and the musical symbol format characters; and ZWNJ/ZWJ (IDNA's CONTEXTJ). UTS #58 §4.1
 * takes none of them into a host.
 */
export function isHiddenJoiner(cp: number): boolean {
  if (cp < 0xad) return false;
  if (cp === 0x200c || cp === 0x200d || (cp >= 0xfe00 && cp <= 0xfe0f)) return true;
  if (cp >= 0x10000) return (cp >= 0x1bca0 && cp <= 0x1bca3) || (cp >= 0x1d173 && cp <= 0x1d17a) || (cp >= 0xe0100 && cp <= 0xe01ef);
  return isInvisibleOrSpace(cp) && !SPACE_CATEGORIES.has(generalCategory(cp));
}

const SPACE_CATEGORIES = new Set(['Zs', 'Zl', 'Zp']);

const COMMON_SCRIPT = SCRIPT_NAMES.indexOf('Common');
const HANGUL_SCRIPT = SCRIPT_NAMES.indexOf('Hangul');
const INHERITED_SCRIPT = SCRIPT_NAMES.indexOf('Inherited');

/** A letter, mark or digit of any script, or `-`: what a name a reader reads as one is made of (readAsOneName). */
export function isNameChar(cp: number): boolean {
  return cp < 128 ? (ASCII_FLAGS[cp]! & (A_ALPHA | A_DIGIT)) !== 0 || cp === 0x2d : isLetter(cp) || isMark(cp) || isNumber(cp);
}

function anyScript(scripts: readonly number[]): boolean {
  return scripts.includes(COMMON_SCRIPT) || scripts.includes(INHERITED_SCRIPT);
}

/** A letter of a script whose words are written without spaces between them (Thai, Khmer, Japanese; not Korean). */
function isUnspacedWord(cp: number): boolean {
  return cp >= 128 && isNoSpaceScript(cp) && !scriptExtensionsIndices(cp).includes(HANGUL_SCRIPT);
}

/**
 * Would a reader take `a` and `b`, with only invisible characters between them, for one name? Both letters, marks,
 * digits or `-`, of one script (by Script_Extensions; Common and Inherited go with any). `wordSpace`: the invisible
 * characters are all U+200B ZERO WIDTH SPACE, which in Thai, Khmer or Japanese is how words are kept apart
 * (`ดูที่\u200Bตัวอย่าง.ไทย`): not one name there.
 */
export function readAsOneName(a: number, b: number, wordSpace: boolean): boolean {
  if (!isNameChar(a) || !isNameChar(b)) return false;
  if (wordSpace && (isUnspacedWord(a) || isUnspacedWord(b))) return false;
  if (a < 128 && b < 128) return true;
  const sa = scriptExtensionsIndices(a);
  const sb = scriptExtensionsIndices(b);
  return anyScript(sa) || anyScript(sb) || sa.some((s) => sb.includes(s));
}
