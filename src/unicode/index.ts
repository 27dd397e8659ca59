// Unicode character properties by code point: the UTS #58 link properties, the host-character set of the
// domain back-scan, Bidi_Class and paired brackets (UAX #9), General_Category, Script and Script_Extensions.
//
// Every lookup takes a code point number and allocates nothing. The Basic Multilingual Plane is answered by
// typed arrays indexed by code point, built once when this module loads from the run tables in
// ./tables.generated.ts; supplementary code points by binary search over the run starts.
import {
  BIDI_CLASS_NAMES,
  BIDI_CLASS_RUNS,
  BIDI_PAIRED_BRACKET_PAIRS,
  BIDI_PAIRED_BRACKET_TYPE_RUNS,
  GENERAL_CATEGORY_NAMES,
  GENERAL_CATEGORY_RUNS,
  HOST_CHAR_RUNS,
  LINK_BRACKET_PAIRS,
  LINK_EMAIL_RUNS,
  LINK_TERM_RUNS,
  SCRIPT_EXTENSIONS_RUNS,
  SCRIPT_EXTENSIONS_SETS,
  SCRIPT_NAMES,
  SCRIPT_RUNS,
} from './tables.generated.js';

export { UNICODE_VERSION } from './tables.generated.js';

// ------------------------------------------------------------------------------------------- run tables

/** A property as runs: `starts[i]` is the first code point with value `values[i]`, up to `starts[i + 1]`. */
interface Runs {
  readonly starts: Uint32Array;
  readonly values: Uint16Array;
}

const VLQ_DIGIT = new Int8Array(128).fill(-1);
'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
  .split('')
  .forEach((ch, i) => (VLQ_DIGIT[ch.charCodeAt(0)] = i));

/** Decodes the base-64 VLQ (delta, value) pairs written by scripts/gen-unicode.mjs. */
function decodeRuns(encoded: string): Runs {
  // Every number ends with a digit below 32; two numbers make a run.
  let count = 0;
  for (let i = 0; i < encoded.length; i++) if ((VLQ_DIGIT[encoded.charCodeAt(i)]! & 32) === 0) count++;
  const starts = new Uint32Array(count >> 1);
  const values = new Uint16Array(count >> 1);
  let value = 0;
  let shift = 0;
  let k = 0; // numbers read
  let start = 0;
  for (let i = 0; i < encoded.length; i++) {
    const digit = VLQ_DIGIT[encoded.charCodeAt(i)]!;
    value |= (digit & 31) << shift; // numbers stay below 2^21
    if (digit & 32) {
      shift += 5;
      continue;
    }
    if ((k & 1) === 0) {
      start += value;
      starts[k >> 1] = start;
    } else {
      values[k >> 1] = value;
    }
    k++;
    value = 0;
    shift = 0;
  }
  return { starts, values };
}

/** The value of the run that holds `cp` (binary search; used for code points above the BMP). */
function runValue(runs: Runs, cp: number): number {
  const { starts } = runs;
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= cp) lo = mid;
    else hi = mid - 1;
  }
  return runs.values[lo]!;
}

/** The BMP part of `runs` as one entry per code point U+0000..U+FFFF. */
function bmpTable<T extends Uint8Array | Uint16Array>(target: T, runs: Runs): T {
  const { starts, values } = runs;
  for (let i = 0; i < starts.length && starts[i]! < 0x10000; i++) {
    const end = i + 1 < starts.length ? Math.min(starts[i + 1]!, 0x10000) : 0x10000;
    target.fill(values[i]!, starts[i]!, end);
  }
  return target;
}

/** Binary search in a flat sorted [key, value, key, value, …] list; −1 when `key` is absent. */
function pairLookup(pairs: Int32Array, key: number): number {
  let lo = 0;
  let hi = (pairs.length >> 1) - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const k = pairs[2 * mid]!;
    if (k === key) return pairs[2 * mid + 1]!;
    if (k < key) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

// ------------------------------------------------------------------------------------------- UTS #58 properties

/** UTS #58 §2.1 Link_Term values. */
export const HARD = 0;
export const SOFT = 1;
export const INCLUDE = 2;
export const OPEN = 3;
export const CLOSE = 4;
/** A Link_Term value: HARD, SOFT, INCLUDE, OPEN or CLOSE. */
export type LinkTerm = typeof HARD | typeof SOFT | typeof INCLUDE | typeof OPEN | typeof CLOSE;
/** The property value names of Link_Term, indexed by the numeric value (for messages and tests). */
export const LINK_TERM_NAMES = ['Hard', 'Soft', 'Include', 'Open', 'Close'] as const;

const linkTermRuns = decodeRuns(LINK_TERM_RUNS);
const linkEmailRuns = decodeRuns(LINK_EMAIL_RUNS);
const hostCharRuns = decodeRuns(HOST_CHAR_RUNS);

// One byte per BMP code point for each property, filled run by run (TypedArray.fill) at load.
const bmpLinkTerm = bmpTable(new Uint8Array(0x10000), linkTermRuns);
const bmpLinkEmail = bmpTable(new Uint8Array(0x10000), linkEmailRuns);
const bmpHostChar = bmpTable(new Uint8Array(0x10000), hostCharRuns);

const linkBracketPairs = Int32Array.from(LINK_BRACKET_PAIRS);

/** UTS #58 §2.1: the Link_Term value of `cp` (HARD for unassigned and out-of-range code points). */
export function linkTerm(cp: number): LinkTerm {
  if (cp < 0x10000) return (cp >= 0 ? bmpLinkTerm[cp]! : HARD) as LinkTerm;
  return (cp <= 0x10ffff ? runValue(linkTermRuns, cp) : HARD) as LinkTerm;
}

/** UTS #58 §2.2 Link_Bracket: the opening bracket a Close character `cp` must match, or −1 when it has none. */
export function linkBracketOpener(cp: number): number {
  return pairLookup(linkBracketPairs, cp);
}

/** UTS #58 §2.3 Link_Email: may `cp` appear in an email local-part (scanning back from `@`)? */
export function isLinkEmail(cp: number): boolean {
  if (cp < 0x10000) return cp >= 0 && bmpLinkEmail[cp] === 1;
  return cp <= 0x10ffff && runValue(linkEmailRuns, cp) === 1;
}

/**
 * UTS #58 §4.1 (reference detector): may `cp` be part of a domain name when scanning back from a TLD?
 * IDNA status valid, mapped or deviation (UTS #46, Unicode 17.0) outside Basic Latin, plus `-`, ASCII letters and
 * digits, `.`, `．` and `。`.
 */
export function isHostChar(cp: number): boolean {
  // Deviation (UTS #58 §4.1): Link_Term=Hard characters are excluded (the generator removes them): the IDNA table
  // maps NBSP and U+3000 to a space, so the reference would scan a domain back across them.
  // Deviation (UTS #58 §4.1): deviation characters (ß ς ZWNJ ZWJ) are host characters, as in non-transitional
  // UTS #46 processing, which the uri conversion uses; the reference's valid|mapped set would cut `straße.de`.
  // Deviation (UTS #58 §4.1; UTS #46 UseSTD3ASCIIRules, RFC 5892 §2.1): what maps to ASCII other than a letter,
  // digit, `-` or `.` (`＂` `／` `⑴`), and punctuation and math symbols (`„` `—` `〜` `〝` `→`) but `·` `׳` `״` `་` `・`
  // `。`, are not (scripts/gen-unicode.mjs says why).
  if (cp < 0x10000) return cp >= 0 && bmpHostChar[cp] === 1;
  return cp <= 0x10ffff && runValue(hostCharRuns, cp) === 1;
}

// ------------------------------------------------------------------------------------------- UAX #9

/** A Bidi_Class short name (UAX #9 Table 4). */
export type BidiClass = (typeof BIDI_CLASS_NAMES)[number];
export { BIDI_CLASS_NAMES };

const bidiRuns = decodeRuns(BIDI_CLASS_RUNS);
const bmpBidi = bmpTable(new Uint8Array(0x10000), bidiRuns);

/** The numeric Bidi_Class of `cp`: an index into BIDI_CLASS_NAMES (cheaper to compare than the name). */
export function bidiClassIndex(cp: number): number {
  if (cp < 0x10000) return cp >= 0 ? bmpBidi[cp]! : 9; /* BN */
  return cp <= 0x10ffff ? runValue(bidiRuns, cp) : 9;
}

/** UAX #9: the Bidi_Class of `cp` ('L', 'R', 'AL', 'EN', …; unassigned code points get their block default). */
export function bidiClass(cp: number): BidiClass {
  return BIDI_CLASS_NAMES[bidiClassIndex(cp)]!;
}

const bptRuns = decodeRuns(BIDI_PAIRED_BRACKET_TYPE_RUNS);
const bidiPairedBracketPairs = Int32Array.from(BIDI_PAIRED_BRACKET_PAIRS);
const BPT_NAMES = ['n', 'o', 'c'] as const;

/** UAX #9 BD14/BD15 Bidi_Paired_Bracket_Type: 'o' (Open), 'c' (Close) or 'n' (None). */
export function bidiPairedBracketType(cp: number): 'o' | 'c' | 'n' {
  // All paired brackets are in the BMP; the run search is short (a few dozen runs).
  if (cp < 0 || cp > 0xffff) return 'n';
  return BPT_NAMES[runValue(bptRuns, cp)]!;
}

/** UAX #9 BD16 Bidi_Paired_Bracket: the bracket that pairs with `cp`, or −1 when `cp` is not a paired bracket. */
export function bidiPairedBracket(cp: number): number {
  return pairLookup(bidiPairedBracketPairs, cp);
}

// ------------------------------------------------------------------------------------------- General_Category

/** A two-letter General_Category ('Lu', 'Ll', …, 'Cn'). */
export type GeneralCategory = (typeof GENERAL_CATEGORY_NAMES)[number];
export { GENERAL_CATEGORY_NAMES };

const gcRuns = decodeRuns(GENERAL_CATEGORY_RUNS);
const bmpGc = bmpTable(new Uint8Array(0x10000), gcRuns);

function gcIndex(cp: number): number {
  if (cp < 0x10000) return cp >= 0 ? bmpGc[cp]! : 0;
  return cp <= 0x10ffff ? runValue(gcRuns, cp) : 0;
}

/** The General_Category of `cp`, as its two-letter alias ('Cn' for unassigned and out-of-range values). */
export function generalCategory(cp: number): GeneralCategory {
  return GENERAL_CATEGORY_NAMES[gcIndex(cp)]!;
}

// Index ranges of GENERAL_CATEGORY_NAMES: 1–5 L*, 6–8 M*, 9–11 N*.
/** General_Category L* (Lu, Ll, Lt, Lm, Lo). */
export function isLetter(cp: number): boolean {
  const g = gcIndex(cp);
  return g >= 1 && g <= 5;
}

/** General_Category M* (Mn, Mc, Me). */
export function isMark(cp: number): boolean {
  const g = gcIndex(cp);
  return g >= 6 && g <= 8;
}

/** General_Category N* (Nd, Nl, No). */
export function isNumber(cp: number): boolean {
  const g = gcIndex(cp);
  return g >= 9 && g <= 11;
}

/** General_Category Nd. */
export function isDecimalDigit(cp: number): boolean {
  return gcIndex(cp) === 9;
}

// ------------------------------------------------------------------------------------------- scripts (UAX #24)

export { SCRIPT_NAMES, SCRIPT_EXTENSIONS_SETS };

const scriptRuns = decodeRuns(SCRIPT_RUNS);
const bmpScript = bmpTable(new Uint8Array(0x10000), scriptRuns);
const UNKNOWN_SCRIPT = SCRIPT_NAMES.indexOf('Unknown');

/** The numeric Script of `cp`: an index into SCRIPT_NAMES. */
function scriptIndex(cp: number): number {
  if (cp < 0x10000) return cp >= 0 ? bmpScript[cp]! : UNKNOWN_SCRIPT;
  return cp <= 0x10ffff ? runValue(scriptRuns, cp) : UNKNOWN_SCRIPT;
}

/** The Script property of `cp`, long name ('Latin', 'Han', 'Common', 'Inherited', 'Unknown', …). */
export function script(cp: number): string {
  return SCRIPT_NAMES[scriptIndex(cp)]!;
}

const scxRuns = decodeRuns(SCRIPT_EXTENSIONS_RUNS);
const bmpScx = bmpTable(new Uint16Array(0x10000), scxRuns);
const scxNames: readonly (readonly string[])[] = SCRIPT_EXTENSIONS_SETS.map((set) =>
  Object.freeze(set.map((i) => SCRIPT_NAMES[i]!)),
);

const UNKNOWN_SCX = SCRIPT_EXTENSIONS_SETS.findIndex((set) => set.length === 1 && set[0] === UNKNOWN_SCRIPT);

/** The Script_Extensions of `cp` as a set number: an index into SCRIPT_EXTENSIONS_SETS. */
export function scriptExtensionsIndex(cp: number): number {
  if (cp < 0x10000) return cp >= 0 ? bmpScx[cp]! : UNKNOWN_SCX;
  return cp <= 0x10ffff ? runValue(scxRuns, cp) : UNKNOWN_SCX;
}

/**
 * UAX #24 Script_Extensions of `cp`: long script names, sorted (for a character without an explicit
 * extension, just its Script, e.g. ['Common'], ['Inherited'] or ['Unknown']). The array is shared and frozen.
 */
export function scriptExtensions(cp: number): readonly string[] {
  return scxNames[scriptExtensionsIndex(cp)]!;
}

/** The Script_Extensions of `cp` as SCRIPT_NAMES indices (shared; do not modify). */
export function scriptExtensionsIndices(cp: number): readonly number[] {
  return SCRIPT_EXTENSIONS_SETS[scriptExtensionsIndex(cp)]!;
}

/** Does the Script_Extensions of `cp` contain `scriptName` (a long name from SCRIPT_NAMES)? */
export function hasScriptExtension(cp: number, scriptName: string): boolean {
  return scriptExtensions(cp).includes(scriptName);
}

/**
 * RFC 3987 §4.1 / DESIGN.md P1: the bidi formatting characters that never appear inside a link — LRM, RLM, ALM and
 * the embeddings, overrides and isolates: the list the IRI functions keep out of IRIs (iri/chars.ts isBidiFormat).
 */
export { isBidiFormat as isBidiControl } from '../iri/chars.js';
