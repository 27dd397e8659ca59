// UTS #39 "Unicode Security Mechanisms" §5: mixed-script detection and restriction levels, for host labels.
// https://www.unicode.org/reports/tr39/#Mixed_Script_Detection
//
// Whole-script confusables (an all-Cyrillic `аррӏе` that looks like `apple`) are single-script and pass this
// check; catching them needs the confusables data (UTS #39 §4), which is out of scope here.
import { badArgument } from '../errors.js';
import {
  SCRIPT_EXTENSIONS_SETS,
  SCRIPT_NAMES,
  isDecimalDigit,
  isLetter,
  isMark,
  scriptExtensionsIndex,
} from './index.js';

/** UTS #39 §5.2 restriction levels, from the most to the least restrictive. */
export type RestrictionLevel =
  | 'ascii'
  | 'single-script'
  | 'highly-restrictive'
  | 'moderately-restrictive'
  | 'minimally-restrictive'
  | 'unrestricted';

const LEVEL_ORDER: readonly RestrictionLevel[] = [
  'ascii',
  'single-script',
  'highly-restrictive',
  'moderately-restrictive',
  'minimally-restrictive',
  'unrestricted',
];

// ------------------------------------------------------------------------------------------- script sets
// A script set is a bit set over SCRIPT_NAMES plus the three UTS #39 §5.1 combined "scripts" Hanb, Jpan, Kore.

const scriptIdx = (name: string): number => {
  const i = SCRIPT_NAMES.indexOf(name);
  if (i < 0) throw new Error(`unknown script ${name}`); // a generator/table mismatch, never input-dependent
  return i;
};
const HANB = SCRIPT_NAMES.length;
const JPAN = HANB + 1;
const KORE = HANB + 2;
const WORDS = (KORE + 32) >>> 5;

const HAN = scriptIdx('Han');
const HIRAGANA = scriptIdx('Hiragana');
const KATAKANA = scriptIdx('Katakana');
const HANGUL = scriptIdx('Hangul');
const BOPOMOFO = scriptIdx('Bopomofo');
const LATIN = scriptIdx('Latin');
const COMMON = scriptIdx('Common');
const INHERITED = scriptIdx('Inherited');

// UAX #31 Table 5 "Recommended Scripts" (Unicode 17.0), without Common and Inherited.
const RECOMMENDED = [
  'Arabic', 'Armenian', 'Bengali', 'Bopomofo', 'Cyrillic', 'Devanagari', 'Ethiopic', 'Georgian', 'Greek', 'Gujarati',
  'Gurmukhi', 'Han', 'Hangul', 'Hebrew', 'Hiragana', 'Kannada', 'Katakana', 'Khmer', 'Lao', 'Latin', 'Malayalam',
  'Myanmar', 'Oriya', 'Sinhala', 'Tamil', 'Telugu', 'Thaana', 'Thai', 'Tibetan',
].map(scriptIdx);

function setOf(indices: readonly number[]): Uint32Array {
  const set = new Uint32Array(WORDS);
  for (const i of indices) set[i >>> 5]! |= 1 << (i & 31);
  return set;
}
const has = (set: Uint32Array, i: number): boolean => (set[i >>> 5]! & (1 << (i & 31))) !== 0;

// UTS #39 §5.1: the augmented script set of a character: its Script_Extensions, plus Hanb, Jpan and Kore for Han,
// Jpan for Hiragana and Katakana, Kore for Hangul, Hanb for Bopomofo. `null` stands for ALL (Common, Inherited).
const AUGMENTED: readonly (Uint32Array | null)[] = SCRIPT_EXTENSIONS_SETS.map((scx) => {
  if (scx.length === 1 && (scx[0] === COMMON || scx[0] === INHERITED)) return null;
  const extra: number[] = [];
  if (scx.includes(HAN)) extra.push(HANB, JPAN, KORE);
  if (scx.includes(HIRAGANA) || scx.includes(KATAKANA)) extra.push(JPAN);
  if (scx.includes(HANGUL)) extra.push(KORE);
  if (scx.includes(BOPOMOFO)) extra.push(HANB);
  return setOf([...scx, ...extra]);
});
const RECOMMENDED_SET = setOf(RECOMMENDED);
const MODERATE_OTHERS = setOf(RECOMMENDED.filter((i) => i !== scriptIdx('Cyrillic') && i !== scriptIdx('Greek')));

/** Intersects `acc` with `set` in place; returns false once the result is empty. */
function intersect(acc: Uint32Array, set: Uint32Array): boolean {
  let any = 0;
  for (let w = 0; w < WORDS; w++) any |= acc[w]! &= set[w]!;
  return any !== 0;
}
function intersects(a: Uint32Array, b: Uint32Array): boolean {
  for (let w = 0; w < WORDS; w++) if ((a[w]! & b[w]!) !== 0) return true;
  return false;
}

// ------------------------------------------------------------------------------------------- restriction level

/**
 * The punctuation UTS #39 allows in identifiers (Identifier_Type=Inclusion; UAX #31 Table 3) that a host can hold
 * (UTS #46 valid; RFC 5892 lets most of them stand only in context): the middle dots of Catalan (`col·legi`) and
 * Japanese (`ウィキ・ペディア`), the Tibetan tsheg between syllables (`བོད་ཡིག`), Hebrew geresh and gershayim (`צה״ל`),
 * the Greek lower numeral sign, the Armenian hyphen, two Sindhi signs and the katakana double hyphen. (Found in
 * review: a host of one script holding one was flagged mixed-script-host.)
 */
const INCLUSION: ReadonlySet<number> = new Set([0x00b7, 0x0375, 0x058a, 0x05f3, 0x05f4, 0x06fd, 0x06fe, 0x0f0b, 0x30a0, 0x30fb]);

/**
 * Deviation (UTS #39 §5.2): Identifier_Status (IdentifierStatus.txt) is not in the npm UCD data, so "allowed" is
 * approximated as: a letter, mark or decimal digit (or `-`, ZWNJ, ZWJ, or INCLUSION's punctuation) whose
 * Script_Extensions is Common, Inherited or meets a Recommended script. Symbols, emoji and historic scripts make a
 * label 'unrestricted'.
 */
function isAllowedApprox(cp: number, augmented: Uint32Array | null): boolean {
  if (cp === 0x2d || cp === 0x200c || cp === 0x200d) return true;
  if (INCLUSION.has(cp)) return augmented === null || intersects(augmented, RECOMMENDED_SET);
  if (!isLetter(cp) && !isMark(cp) && !isDecimalDigit(cp)) return false;
  return augmented === null || intersects(augmented, RECOMMENDED_SET);
}

/**
 * UTS #39 §5.2: the most restrictive level a label (a string of code points, e.g. one host label in Unicode form)
 * satisfies. '' and pure ASCII are 'ascii'.
 */
export function restrictionLevel(label: string): RestrictionLevel {
  if (typeof label !== 'string') throw badArgument('restrictionLevel', 'label', 'a string', label);
  let ascii = true;
  let allowed = true;
  // §5.1 resolved script set (null = ALL so far) and the same without characters that have Latin.
  let resolved: Uint32Array | null = null;
  let resolvedEmpty = false;
  let withoutLatin: Uint32Array | null = null;
  let withoutLatinEmpty = false;
  for (let i = 0; i < label.length; i++) {
    let cp = label.charCodeAt(i);
    if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < label.length) {
      const lo = label.charCodeAt(i + 1);
      if (lo >= 0xdc00 && lo <= 0xdfff) {
        cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
        i++;
      }
    }
    if (cp < 0x80) continue; // ASCII letters are Latin, the rest Common: only Latin matters, handled below
    ascii = false;
    const aug = AUGMENTED[scriptExtensionsIndex(cp)]!;
    if (allowed && !isAllowedApprox(cp, aug)) allowed = false;
    if (aug === null) continue;
    if (!resolvedEmpty) {
      if (resolved === null) resolved = Uint32Array.from(aug);
      else resolvedEmpty = !intersect(resolved, aug);
    }
    if (!has(aug, LATIN) && !withoutLatinEmpty) {
      if (withoutLatin === null) withoutLatin = Uint32Array.from(aug);
      else withoutLatinEmpty = !intersect(withoutLatin, aug);
    }
  }
  if (ascii) return 'ascii';
  if (!allowed) return 'unrestricted';
  // ASCII letters: intersect with {Latin} (after the loop, so each label costs one pass).
  if (!resolvedEmpty && hasAsciiLetter(label)) {
    resolvedEmpty = resolved !== null && !has(resolved, LATIN);
  }
  if (!resolvedEmpty) return 'single-script';
  // Highly restrictive: Latin + Jpan, Latin + Hanb or Latin + Kore cover the string.
  if (withoutLatin !== null && !withoutLatinEmpty) {
    if (has(withoutLatin, JPAN) || has(withoutLatin, HANB) || has(withoutLatin, KORE)) return 'highly-restrictive';
    // Moderately restrictive: Latin + one other Recommended script, not Cyrillic or Greek.
    if (intersects(withoutLatin, MODERATE_OTHERS)) return 'moderately-restrictive';
  }
  return 'minimally-restrictive';
}

function hasAsciiLetter(label: string): boolean {
  for (let i = 0; i < label.length; i++) {
    const c = label.charCodeAt(i) | 0x20;
    if (c >= 0x61 && c <= 0x7a) return true;
  }
  return false;
}

/** Is level `a` at least as restrictive as level `b`? */
export function isAtLeast(a: RestrictionLevel, b: RestrictionLevel): boolean {
  const ia = LEVEL_ORDER.indexOf(a);
  const ib = LEVEL_ORDER.indexOf(b);
  if (ia < 0) throw badArgument('isAtLeast', 'a', `a restriction level (${LEVEL_ORDER.join(', ')})`, a);
  if (ib < 0) throw badArgument('isAtLeast', 'b', `a restriction level (${LEVEL_ORDER.join(', ')})`, b);
  return ia <= ib;
}

// ------------------------------------------------------------------------------------------- mixed numbers

/**
 * UTS #39 §5.3: does the label mix decimal digits of different numbering systems (e.g. `1` and `١`)?
 * A digit's system is identified by its zero: decimal digits (gc=Nd) come in contiguous runs of ten, 0 to 9.
 */
export function hasMixedNumbers(label: string): boolean {
  if (typeof label !== 'string') throw badArgument('hasMixedNumbers', 'label', 'a string', label);
  let zero = -1;
  for (let i = 0; i < label.length; i++) {
    let cp = label.charCodeAt(i);
    if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < label.length) {
      const lo = label.charCodeAt(i + 1);
      if (lo >= 0xdc00 && lo <= 0xdfff) {
        cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
        i++;
      }
    }
    let z: number;
    if (cp >= 0x30 && cp <= 0x39) z = 0x30;
    else if (cp < 0x80 || !isDecimalDigit(cp)) continue;
    else {
      let start = cp;
      while (isDecimalDigit(start - 1)) start--;
      z = cp - ((cp - start) % 10);
    }
    if (zero === -1) zero = z;
    else if (zero !== z) return true;
  }
  return false;
}

/**
 * UTS #39 §5.4 Optional Detection, item 2c: a nonspacing mark that overlays its base character, so that base + mark
 * looks like the base alone or like another character (`m` + U+0338 COMBINING LONG SOLIDUS OVERLAY reads as `m/`:
 * `google.com̸login.evil.example` shows as `google.com/login…`). These are the marks of Canonical_Combining_Class
 * Overlay (ccc = 1, UnicodeData.txt, Unicode 17.0); a test checks the list against the normaliser's classes.
 * (U+0307 COMBINING DOT ABOVE, §5.4's own example, is left out: UTS #46 maps `İ` to `i` + U+0307, Turkish text.)
 */
export const OVERLAY_MARKS: readonly (readonly [number, number])[] = [
  [0x0334, 0x0338],
  [0x1cd4, 0x1cd4],
  [0x1ce2, 0x1ce8],
  [0x20d2, 0x20d3],
  [0x20d8, 0x20da],
  [0x20e5, 0x20e6],
  [0x20ea, 0x20eb],
  [0x10a39, 0x10a39],
  [0x16af0, 0x16af4],
  [0x1bc9e, 0x1bc9e],
  [0x1d167, 0x1d169],
];

function hasOverlayMark(label: string): boolean {
  for (let i = 0; i < label.length; i++) {
    const c = label.codePointAt(i)!;
    if (c < 0x0334) continue;
    for (const [lo, hi] of OVERLAY_MARKS) if (c >= lo && c <= hi) return true;
    if (c > 0xffff) i++;
  }
  return false;
}

/**
 * The `mixed-script-host` check: true when the label is less restrictive than UTS #39 'moderately-restrictive'
 * (§5.2, e.g. Latin mixed with Cyrillic as in `pаypal`), mixes numbering systems (§5.3), or holds a mark that
 * overlays its base character (§5.4 item 2c).
 */
export function isSuspiciousHostLabel(label: string): boolean {
  if (typeof label !== 'string') throw badArgument('isSuspiciousHostLabel', 'label', 'a string', label);
  return !isAtLeast(restrictionLevel(label), 'moderately-restrictive') || hasMixedNumbers(label) || hasOverlayMark(label);
}
