// Bidirectional IRIs: RFC 3987 §4 (and draft-ietf-iri-3987bis, which moves it to the bidi guidelines).
//
// Two things live here:
//  - checkIriBidi(): the RFC 3987 §4.2 structure rules, reported as values (the detector turns a
//    non-empty result into the `bidi-component` diagnostic);
//  - visualOrder() / resolveBidi(): the Unicode Bidirectional Algorithm (UAX #9, Unicode 17), which
//    RFC 3987 §4.1 says MUST be used to render a Bidi IRI, for one line of text per paragraph.
//
// The UBA is written from the rules of UAX #9 (https://www.unicode.org/reports/tr9/), each function named
// after the rule it implements. Character data (Bidi_Class, Bidi_Paired_Bracket, Bidi_Paired_Bracket_Type)
// comes from the generated tables in src/unicode. Checked by hand against the UCD conformance files
// BidiTest.txt (770,241 cases) and BidiCharacterTest.txt (91,707 cases), all passing; a sample of the
// latter is in test/iri-bidi.test.ts.

import { badArgument } from '../errors.js';
import { BIDI_CLASS_NAMES, bidiClassIndex, bidiPairedBracket, bidiPairedBracketType } from '../unicode/index.js';
import { splitIriReference } from './parse.js';

// ---------------------------------------------------------------------------------------------------
// Bidi_Class values as small numbers (UAX #9 Table 4), so the rules work on a Uint8Array.

const L = 0;
const R = 1;
const AL = 2;
const EN = 3;
const ES = 4;
const ET = 5;
const AN = 6;
const CS = 7;
const NSM = 8;
const BN = 9;
const B = 10;
const S = 11;
const WS = 12;
const ON = 13;
const LRE = 14;
const LRO = 15;
const RLE = 16;
const RLO = 17;
const PDF = 18;
const LRI = 19;
const RLI = 20;
const FSI = 21;
const PDI = 22;

const CLASS_CODE: Record<string, number> = {
  L, R, AL, EN, ES, ET, AN, CS, NSM, BN, B, S, WS, ON, LRE, LRO, RLE, RLO, PDF, LRI, RLI, FSI, PDI,
};

/** src/unicode's Bidi_Class index → the code above (the two orders need not agree). */
const FROM_TABLE_INDEX = Uint8Array.from(BIDI_CLASS_NAMES, (name: string) => CLASS_CODE[name] ?? L);

function bidiType(cp: number): number {
  return FROM_TABLE_INDEX[bidiClassIndex(cp)]!;
}

function isIsolateInitiator(t: number): boolean {
  return t === LRI || t === RLI || t === FSI;
}

// X9: the characters the algorithm removes (explicit embeddings/overrides, PDF, and BN).
function isRemovedByX9(t: number): boolean {
  return t === BN || (t >= LRE && t <= PDF);
}

// N1: NI = "Neutral or Isolate formatting character (B, S, WS, ON, FSI, LRI, RLI, PDI)".
function isNI(t: number): boolean {
  return t === B || t === S || t === WS || t === ON || t >= LRI;
}

// N0/N1: "European and Arabic numbers act as if they were R" for the purpose of neutral resolution.
// Returns L, R, or -1 (not strong).
function strongDirectionForNeutrals(t: number): number {
  if (t === L) return L;
  if (t === R || t === AL || t === EN || t === AN) return R;
  return -1;
}

/** BD2 / X1: the greatest explicit embedding level. */
const MAX_DEPTH = 125;
/** BD16: the bracket stack holds 63 elements. */
const MAX_BRACKET_STACK = 63;

// ---------------------------------------------------------------------------------------------------
// Public API

export type BidiBaseDirection = 'ltr' | 'rtl' | 'auto';

/** The result of running UAX #9 on a text: one entry per code point, in logical order. */
export interface BidiResolution {
  /** UTF-16 offset of each code point in the text. */
  offsets: Int32Array;
  /** The resolved embedding level of each code point after rule L1. X9-removed characters take the level
   *  of the character before them (UAX #9 §5.2), or the paragraph level at the start of a paragraph. */
  levels: Uint8Array;
  /** 1 where rule X9 removed the character (BN, LRE, RLE, LRO, RLO, PDF), else 0. */
  removed: Uint8Array;
  /** Code point indices in visual order (rule L2), paragraph after paragraph. */
  visual: Int32Array;
  /** The embedding level of each paragraph (P2/P3 when the direction is 'auto'), in order. */
  paragraphLevels: number[];
}

/**
 * Runs the Unicode Bidirectional Algorithm (UAX #9) over `text`, each paragraph (P1) being one line.
 * `baseDirection` sets the paragraph embedding level ('ltr' = 0, 'rtl' = 1, 'auto' = rules P2/P3).
 * Explicit embeddings, overrides and isolates (LRE … PDI) are implemented (X1–X10); a text that holds
 * them is not an IRI (RFC 3987 §4.1), but the function gives them their standard meaning.
 */
export function resolveBidi(text: string, baseDirection: BidiBaseDirection = 'ltr'): BidiResolution {
  if (typeof text !== 'string') throw badArgument('resolveBidi', 'text', 'a string', text);
  const requested = paragraphDirectionArgument('resolveBidi', baseDirection);

  // Code points and their Bidi_Class (surrogate pairs combined, lone surrogates kept as they are).
  const n = text.length;
  const offsetsTmp = new Int32Array(n);
  const codePointsTmp = new Int32Array(n);
  let count = 0;
  for (let i = 0; i < n; i++) {
    let cp = text.charCodeAt(i);
    offsetsTmp[count] = i;
    if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < n) {
      const lo = text.charCodeAt(i + 1);
      if (lo >= 0xdc00 && lo <= 0xdfff) {
        cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
        i++;
      }
    }
    codePointsTmp[count++] = cp;
  }
  const offsets = offsetsTmp.slice(0, count);
  const codePoints = codePointsTmp.subarray(0, count);
  const initialTypes = new Uint8Array(count);
  for (let i = 0; i < count; i++) initialTypes[i] = bidiType(codePoints[i]);

  const levels = new Uint8Array(count);
  const removed = new Uint8Array(count);
  const visual = new Int32Array(count);
  const paragraphLevels: number[] = [];

  // P1: split into paragraphs; the paragraph separator is kept with the paragraph before it.
  let start = 0;
  while (start < count) {
    let end = start;
    while (end < count && initialTypes[end] !== B) end++;
    if (end < count) {
      end++;
      // CR LF is one paragraph separator, not two.
      if (codePoints[end - 1] === 0x0d && end < count && codePoints[end] === 0x0a) end++;
    }
    const paragraph = new Paragraph(codePoints, initialTypes, start, end, levels, removed);
    paragraphLevels.push(paragraph.resolve(requested));
    reorderLine(levels, start, end, visual);
    start = end;
  }
  return { offsets, levels, removed, visual, paragraphLevels };
}

/**
 * The visual order of `text` (UAX #9 rules up to L2) as a string: the code points in the order they are
 * displayed from left to right. No glyph mirroring is applied (L4 is a rendering step: `(` stays `(`),
 * and X9-removed characters (BN and explicit embedding controls) stay in the output beside the
 * character they followed. Each paragraph is treated as a single line.
 */
export function visualOrder(text: string, baseDirection: BidiBaseDirection = 'ltr'): string {
  if (typeof text !== 'string') throw badArgument('visualOrder', 'text', 'a string', text);
  paragraphDirectionArgument('visualOrder', baseDirection);
  const { offsets, visual } = resolveBidi(text, baseDirection);
  // Copy runs of code points that stay in logical order with one slice each.
  const parts: string[] = [];
  let k = 0;
  while (k < visual.length) {
    let j = k + 1;
    while (j < visual.length && visual[j] === visual[j - 1]! + 1) j++;
    const last = visual[j - 1]!;
    parts.push(text.slice(offsets[visual[k]!], last + 1 < offsets.length ? offsets[last + 1] : text.length));
    k = j;
  }
  return parts.join('');
}

function paragraphDirectionArgument(fn: string, value: unknown): number {
  if (value === 'ltr') return 0;
  if (value === 'rtl') return 1;
  if (value === 'auto') return -1;
  throw badArgument(fn, 'baseDirection', "'ltr', 'rtl' or 'auto'", value);
}

// ---------------------------------------------------------------------------------------------------
// One paragraph, rules P2 to I2 and L1.

class Paragraph {
  /** Current bidi types, changed by X6 overrides and the W/N rules. */
  private readonly types: Uint8Array;
  /** BD9: for an isolate initiator, the index of its matching PDI (or -1). */
  private readonly matchingPDI: Int32Array;
  /** BD9: for a PDI, the index of its isolate initiator (or -1). */
  private readonly matchingInitiator: Int32Array;
  private paragraphLevel = 0;

  constructor(
    private readonly codePoints: Int32Array,
    private readonly initialTypes: Uint8Array,
    private readonly start: number,
    private readonly end: number,
    private readonly levels: Uint8Array,
    private readonly removed: Uint8Array,
  ) {
    this.types = initialTypes.slice(start, end);
    this.matchingPDI = new Int32Array(end - start).fill(-1);
    this.matchingInitiator = new Int32Array(end - start).fill(-1);
  }

  /** Resolves the levels of the paragraph into `levels`; returns the paragraph embedding level. */
  resolve(requestedLevel: number): number {
    this.matchIsolates();
    // P2, P3 (only when the caller asked for 'auto'); HL1 otherwise: the base direction is given.
    this.paragraphLevel = requestedLevel >= 0 ? requestedLevel : this.firstStrongLevel(0, this.end - this.start, 0);
    this.explicitLevels();
    const kept = this.keptIndices();
    for (const sequence of this.isolatingRunSequences(kept)) sequence.resolve();
    this.levelsOfRemovedCharacters();
    this.L1();
    return this.paragraphLevel;
  }

  // BD9: a PDI matches the nearest preceding isolate initiator that is not yet matched.
  private matchIsolates(): void {
    const open: number[] = [];
    for (let i = 0; i < this.types.length; i++) {
      const t = this.types[i];
      if (isIsolateInitiator(t)) open.push(i);
      else if (t === PDI && open.length > 0) {
        const initiator = open.pop()!;
        this.matchingPDI[initiator] = i;
        this.matchingInitiator[i] = initiator;
      }
    }
  }

  // P2, P3: the level given by the first strong character, skipping isolates; `fallback` when none.
  private firstStrongLevel(from: number, to: number, fallback: number): number {
    for (let i = from; i < to; i++) {
      const t = this.types[i];
      if (t === L) return 0;
      if (t === R || t === AL) return 1;
      if (isIsolateInitiator(t)) {
        const pdi = this.matchingPDI[i];
        if (pdi < 0) break; // the isolate runs to the end of the paragraph
        i = pdi;
      }
    }
    return fallback;
  }

  // X1–X8: explicit levels and directions, with the directional status stack.
  private explicitLevels(): void {
    const levels = this.levels;
    const base = this.start;
    const types = this.types;
    // X1: the stack, its first entry, and the counters.
    const stackLevel = new Uint8Array(MAX_DEPTH + 2);
    const stackOverride = new Uint8Array(MAX_DEPTH + 2); // 0 neutral, 1 left-to-right, 2 right-to-left
    const stackIsolate = new Uint8Array(MAX_DEPTH + 2);
    let depth = 1;
    stackLevel[0] = this.paragraphLevel;
    let overflowIsolateCount = 0;
    let overflowEmbeddingCount = 0;
    let validIsolateCount = 0;

    for (let i = 0; i < types.length; i++) {
      const t = types[i];
      switch (t) {
        // X2–X5: RLE, LRE, RLO, LRO.
        case RLE:
        case LRE:
        case RLO:
        case LRO: {
          const current = stackLevel[depth - 1];
          const newLevel = t === RLE || t === RLO ? (current + 1) | 1 : (current + 2) & ~1;
          if (newLevel <= MAX_DEPTH && overflowIsolateCount === 0 && overflowEmbeddingCount === 0) {
            stackLevel[depth] = newLevel;
            stackOverride[depth] = t === LRO ? 1 : t === RLO ? 2 : 0;
            stackIsolate[depth] = 0;
            depth++;
          } else if (overflowIsolateCount === 0) {
            overflowEmbeddingCount++;
          }
          levels[base + i] = current; // X9 removes it; the level is replaced later (§5.2)
          break;
        }
        // X5a–X5c: RLI, LRI, FSI.
        case RLI:
        case LRI:
        case FSI: {
          const current = stackLevel[depth - 1];
          levels[base + i] = current;
          if (stackOverride[depth - 1] !== 0) types[i] = stackOverride[depth - 1] === 1 ? L : R;
          let rtl = t === RLI;
          if (t === FSI) {
            // X5c: P2/P3 on the text between the FSI and its matching PDI (or the end of the paragraph).
            const pdi = this.matchingPDI[i];
            rtl = this.firstStrongLevel(i + 1, pdi < 0 ? types.length : pdi, 0) === 1;
          }
          const newLevel = rtl ? (current + 1) | 1 : (current + 2) & ~1;
          if (newLevel <= MAX_DEPTH && overflowIsolateCount === 0 && overflowEmbeddingCount === 0) {
            validIsolateCount++;
            stackLevel[depth] = newLevel;
            stackOverride[depth] = 0;
            stackIsolate[depth] = 1;
            depth++;
          } else {
            overflowIsolateCount++;
          }
          break;
        }
        // X6a: PDI.
        case PDI: {
          if (overflowIsolateCount > 0) {
            overflowIsolateCount--;
          } else if (validIsolateCount > 0) {
            overflowEmbeddingCount = 0;
            while (stackIsolate[depth - 1] === 0) depth--;
            depth--;
            validIsolateCount--;
          }
          levels[base + i] = stackLevel[depth - 1];
          if (stackOverride[depth - 1] !== 0) types[i] = stackOverride[depth - 1] === 1 ? L : R;
          break;
        }
        // X7: PDF.
        case PDF: {
          levels[base + i] = stackLevel[depth - 1];
          if (overflowIsolateCount > 0) {
            // matched by an overflow isolate: nothing
          } else if (overflowEmbeddingCount > 0) {
            overflowEmbeddingCount--;
          } else if (stackIsolate[depth - 1] === 0 && depth >= 2) {
            depth--;
          }
          break;
        }
        // X8: the paragraph separator takes the paragraph level (the stack ends with the paragraph).
        case B:
          levels[base + i] = this.paragraphLevel;
          break;
        // X9 will remove BN; it keeps the current level for now.
        case BN:
          levels[base + i] = stackLevel[depth - 1];
          break;
        // X6: everything else.
        default:
          levels[base + i] = stackLevel[depth - 1];
          if (stackOverride[depth - 1] !== 0) types[i] = stackOverride[depth - 1] === 1 ? L : R;
      }
    }
  }

  // X9: the indices (relative to the paragraph) of the characters that are not removed.
  private keptIndices(): Int32Array {
    const kept = new Int32Array(this.types.length);
    let k = 0;
    for (let i = 0; i < this.types.length; i++) {
      if (isRemovedByX9(this.initialTypes[this.start + i])) this.removed[this.start + i] = 1;
      else kept[k++] = i;
    }
    return kept.subarray(0, k);
  }

  // X10 with BD7 (level runs) and BD13 (isolating run sequences), and the sos/eos of each sequence.
  private isolatingRunSequences(kept: Int32Array): IsolatingRunSequence[] {
    const levels = this.levels;
    const base = this.start;
    // BD7: level runs, as [start, end) ranges of `kept`.
    const runStarts: number[] = [];
    const runOf = new Int32Array(this.types.length).fill(-1);
    for (let k = 0; k < kept.length; k++) {
      if (k === 0 || levels[base + kept[k]] !== levels[base + kept[k - 1]]) runStarts.push(k);
      runOf[kept[k]] = runStarts.length - 1;
    }
    const runCount = runStarts.length;
    const runEnd = (r: number): number => (r + 1 < runCount ? runStarts[r + 1] : kept.length);

    // BD13: chain a run ending with an isolate initiator to the run starting with its matching PDI.
    const used = new Uint8Array(runCount);
    const sequences: IsolatingRunSequence[] = [];
    for (let r = 0; r < runCount; r++) {
      if (used[r]) continue;
      const members: number[] = [];
      let run = r;
      for (;;) {
        used[run] = 1;
        for (let k = runStarts[run]; k < runEnd(run); k++) members.push(kept[k]);
        const last = kept[runEnd(run) - 1];
        const pdi = isIsolateInitiator(this.initialTypes[base + last]) ? this.matchingPDI[last] : -1;
        if (pdi < 0) break;
        const next = runOf[pdi];
        if (next < 0 || used[next]) break;
        run = next;
      }
      const indices = Int32Array.from(members);
      const first = indices[0];
      const last = indices[indices.length - 1];
      const level = levels[base + first];
      // X10: sos from the level of the preceding (kept) character, eos from the following one;
      // the paragraph level at the edges and after an isolate initiator without a matching PDI.
      const firstPos = lowerBound(kept, first);
      const levelBefore = firstPos > 0 ? levels[base + kept[firstPos - 1]] : this.paragraphLevel;
      const lastPos = lowerBound(kept, last);
      const levelAfter =
        isIsolateInitiator(this.initialTypes[base + last]) || lastPos + 1 >= kept.length
          ? this.paragraphLevel
          : levels[base + kept[lastPos + 1]];
      const sos = Math.max(level, levelBefore) & 1 ? R : L;
      const eos = Math.max(level, levelAfter) & 1 ? R : L;
      sequences.push(new IsolatingRunSequence(this, indices, level, sos, eos));
    }
    return sequences;
  }

  // UAX #9 §5.2 (retaining BNs and explicit formatting characters): a removed character takes the level
  // of the character before it, so that L1 and L2 can place it.
  private levelsOfRemovedCharacters(): void {
    let previous = this.paragraphLevel;
    for (let i = this.start; i < this.end; i++) {
      if (this.removed[i]) this.levels[i] = previous;
      else previous = this.levels[i];
    }
  }

  // L1: segment and paragraph separators, and whitespace (with isolate formatting characters and,
  // per §5.2, the X9-removed characters) before them or at the end of the line, go to the paragraph level.
  private L1(): void {
    let trailing = true; // at the end of the line
    for (let i = this.end - 1; i >= this.start; i--) {
      const t = this.initialTypes[i];
      if (t === S || t === B) {
        this.levels[i] = this.paragraphLevel;
        trailing = true;
      } else if (t === WS || isIsolateInitiator(t) || t === PDI || isRemovedByX9(t)) {
        if (trailing) this.levels[i] = this.paragraphLevel;
      } else {
        trailing = false;
      }
    }
  }

  // Accessors for the run sequences.
  typeAt(i: number): number {
    return this.types[i];
  }
  setType(i: number, t: number): void {
    this.types[i] = t;
  }
  initialTypeAt(i: number): number {
    return this.initialTypes[this.start + i];
  }
  codePointAt(i: number): number {
    return this.codePoints[this.start + i];
  }
  levelAt(i: number): number {
    return this.levels[this.start + i];
  }
  setLevel(i: number, level: number): void {
    this.levels[this.start + i] = level;
  }
}

function lowerBound(sorted: Int32Array, value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// ---------------------------------------------------------------------------------------------------
// One isolating run sequence (BD13): rules W1–W7, N0–N2, I1–I2 treat it as if it were contiguous.

class IsolatingRunSequence {
  /** Current types of the members, in sequence order. */
  private readonly t: Uint8Array;
  /** Types after the X rules, before W1 (N0 needs to know which characters were NSM). */
  private readonly typesBeforeW1: Uint8Array;
  /** The embedding direction of the sequence (L for an even level, R for an odd one). */
  private readonly embeddingDirection: number;

  constructor(
    private readonly paragraph: Paragraph,
    private readonly indices: Int32Array,
    private readonly level: number,
    private readonly sos: number,
    private readonly eos: number,
  ) {
    this.t = new Uint8Array(indices.length);
    for (let k = 0; k < indices.length; k++) this.t[k] = paragraph.typeAt(indices[k]);
    this.typesBeforeW1 = this.t.slice();
    this.embeddingDirection = level & 1 ? R : L;
  }

  resolve(): void {
    this.W1();
    this.W2();
    this.W3();
    this.W4();
    this.W5();
    this.W6();
    this.W7();
    this.N0();
    this.N1N2();
    this.I1I2();
  }

  // W1: a nonspacing mark takes the type of the previous character (ON after an isolate initiator or
  // PDI), or sos at the start of the sequence.
  private W1(): void {
    const t = this.t;
    for (let k = 0; k < t.length; k++) {
      if (t[k] !== NSM) continue;
      if (k === 0) t[k] = this.sos;
      else t[k] = isIsolateInitiator(t[k - 1]) || t[k - 1] === PDI ? ON : t[k - 1];
    }
  }

  // W2: a European number after Arabic letter context (looking back to the first strong type) is an
  // Arabic number.
  private W2(): void {
    const t = this.t;
    let lastStrong = this.sos;
    for (let k = 0; k < t.length; k++) {
      const c = t[k];
      if (c === L || c === R || c === AL) lastStrong = c;
      else if (c === EN && lastStrong === AL) t[k] = AN;
    }
  }

  // W3: AL becomes R.
  private W3(): void {
    const t = this.t;
    for (let k = 0; k < t.length; k++) if (t[k] === AL) t[k] = R;
  }

  // W4: a single ES between two ENs is EN; a single CS between two numbers of the same type takes it.
  private W4(): void {
    const t = this.t;
    for (let k = 1; k + 1 < t.length; k++) {
      const c = t[k];
      if (c !== ES && c !== CS) continue;
      const before = t[k - 1];
      const after = t[k + 1];
      if (before === EN && after === EN) t[k] = EN;
      else if (c === CS && before === AN && after === AN) t[k] = AN;
    }
  }

  // W5: a sequence of European terminators next to a European number becomes European numbers.
  private W5(): void {
    const t = this.t;
    for (let k = 0; k < t.length; k++) {
      if (t[k] !== ET) continue;
      let end = k;
      while (end < t.length && t[end] === ET) end++;
      if ((k > 0 && t[k - 1] === EN) || (end < t.length && t[end] === EN)) t.fill(EN, k, end);
      k = end - 1;
    }
  }

  // W6: the remaining separators and terminators become Other Neutral.
  private W6(): void {
    const t = this.t;
    for (let k = 0; k < t.length; k++) if (t[k] === ES || t[k] === ET || t[k] === CS) t[k] = ON;
  }

  // W7: a European number whose first strong type before it (or sos) is L becomes L.
  private W7(): void {
    const t = this.t;
    let lastStrong = this.sos;
    for (let k = 0; k < t.length; k++) {
      const c = t[k];
      if (c === L || c === R) lastStrong = c;
      else if (c === EN && lastStrong === L) t[k] = L;
    }
  }

  // BD16: the bracket pairs of the sequence, as positions in the sequence, sorted by the opening bracket.
  private bracketPairs(): number[] {
    const t = this.t;
    const stackBracket: number[] = [];
    const stackPosition: number[] = [];
    const pairs: number[] = []; // flattened [open, close, open, close, …]
    for (let k = 0; k < t.length; k++) {
      // BD14/BD15: only a character whose current type is ON can be a paired bracket.
      if (t[k] !== ON) continue;
      const cp = this.paragraph.codePointAt(this.indices[k]);
      const kind = bidiPairedBracketType(cp);
      if (kind === 'o') {
        if (stackBracket.length === MAX_BRACKET_STACK) break; // BD16: stop processing for this sequence
        stackBracket.push(canonicalBracket(bidiPairedBracket(cp)));
        stackPosition.push(k);
      } else if (kind === 'c') {
        const closing = canonicalBracket(cp);
        for (let s = stackBracket.length - 1; s >= 0; s--) {
          if (stackBracket[s] === closing) {
            pairs.push(stackPosition[s], k);
            stackBracket.length = s;
            stackPosition.length = s;
            break;
          }
        }
      }
    }
    // Sort the pairs by the position of the opening bracket.
    const order: number[] = [];
    for (let p = 0; p < pairs.length; p += 2) order.push(p);
    order.sort((x, y) => pairs[x] - pairs[y]);
    const sorted: number[] = [];
    for (const p of order) sorted.push(pairs[p], pairs[p + 1]);
    return sorted;
  }

  // N0: paired brackets take the embedding direction when they enclose a strong type of that direction,
  // else the opposite direction when they enclose it and the context before them is of it too.
  private N0(): void {
    const t = this.t;
    const e = this.embeddingDirection;
    const pairs = this.bracketPairs();
    for (let p = 0; p < pairs.length; p += 2) {
      const open = pairs[p];
      const close = pairs[p + 1];
      let foundEmbedding = false;
      let foundOpposite = false;
      for (let k = open + 1; k < close; k++) {
        const d = strongDirectionForNeutrals(t[k]);
        if (d === e) {
          foundEmbedding = true;
          break;
        }
        if (d >= 0) foundOpposite = true;
      }
      let direction = -1;
      if (foundEmbedding) {
        direction = e; // N0 b
      } else if (foundOpposite) {
        // N0 c: look back for the first strong type (numbers count as R), or sos.
        let context = this.sos;
        for (let k = open - 1; k >= 0; k--) {
          const d = strongDirectionForNeutrals(t[k]);
          if (d >= 0) {
            context = d;
            break;
          }
        }
        direction = context !== e ? context : e; // N0 c1 / c2
      } // N0 d: no strong type inside: leave the brackets alone
      if (direction < 0) continue;
      t[open] = direction;
      t[close] = direction;
      // N0: characters that were NSM before W1, right after a bracket that changed, follow it.
      for (let k = open + 1; k < t.length && this.typesBeforeW1[k] === NSM; k++) t[k] = direction;
      for (let k = close + 1; k < t.length && this.typesBeforeW1[k] === NSM; k++) t[k] = direction;
    }
  }

  // N1: a run of NIs between two strong types of the same direction (numbers count as R, sos/eos at the
  // edges) takes that direction. N2: any other NI takes the embedding direction.
  private N1N2(): void {
    const t = this.t;
    for (let k = 0; k < t.length; k++) {
      if (!isNI(t[k])) continue;
      let end = k;
      while (end < t.length && isNI(t[end])) end++;
      const before = k === 0 ? this.sos : strongDirectionForNeutrals(t[k - 1]);
      const after = end === t.length ? this.eos : strongDirectionForNeutrals(t[end]);
      t.fill(before === after && before >= 0 ? before : this.embeddingDirection, k, end);
      k = end - 1;
    }
  }

  // I1: on an even level, R goes up one level and AN/EN two. I2: on an odd level, L, EN and AN go up one.
  private I1I2(): void {
    const t = this.t;
    const odd = (this.level & 1) === 1;
    for (let k = 0; k < t.length; k++) {
      const c = t[k];
      let raise = 0;
      if (!odd) {
        if (c === R) raise = 1;
        else if (c === AN || c === EN) raise = 2;
      } else if (c === L || c === EN || c === AN) {
        raise = 1;
      }
      if (raise) this.paragraph.setLevel(this.indices[k], this.level + raise);
      this.paragraph.setType(this.indices[k], c);
    }
  }
}

// BD16: compare brackets by canonical equivalence (U+2329/U+232A decompose to U+3008/U+3009).
function canonicalBracket(cp: number): number {
  if (cp === 0x2329) return 0x3008;
  if (cp === 0x232a) return 0x3009;
  return cp;
}

// L2: from the highest level down to the lowest odd level, reverse every run at that level or higher.
function reorderLine(levels: Uint8Array, start: number, end: number, visual: Int32Array): void {
  let highest = 0;
  let lowestOdd = 255;
  for (let i = start; i < end; i++) {
    visual[i] = i;
    const level = levels[i];
    if (level > highest) highest = level;
    if (level & 1 && level < lowestOdd) lowestOdd = level;
  }
  for (let level = highest; level >= lowestOdd; level--) {
    let i = start;
    while (i < end) {
      if (levels[visual[i]] < level) {
        i++;
        continue;
      }
      let j = i;
      while (j < end && levels[visual[j]] >= level) j++;
      visual.subarray(i, j).reverse();
      i = j;
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// RFC 3987 §4.2 Bidi IRI Structure

/** The IRI component a {@link BidiProblem} was found in (RFC 3987 §4.2's list of components). */
export type BidiComponentKind = 'userinfo' | 'host' | 'path' | 'query' | 'fragment';

/** One RFC 3987 §4.2 rule that one component breaks. `iri.slice(start, end)` is the component. */
export interface BidiProblem {
  start: number;
  end: number;
  component: BidiComponentKind;
  /** 'mixed-direction': rule 1, the component holds both right-to-left (R, AL) and left-to-right (L)
   *  characters. 'rtl-not-at-ends': rule 2, it holds right-to-left characters but does not start and end
   *  with one. A component that breaks both rules gives two problems. */
  reason: 'mixed-direction' | 'rtl-not-at-ends';
}

/**
 * RFC 3987 §4.2: checks every component of `iri` against the two Bidi IRI rules — a component SHOULD NOT
 * use both right-to-left and left-to-right characters, and a component using right-to-left characters
 * SHOULD start and end with right-to-left characters. Returns the problems found, `[]` when there are none.
 *
 * The components are those of §4.2, divided further as §4.2 allows: iuserinfo (user and password apart,
 * at `:`), each label of the host (at `.`, as RFC 3490 does for domain names), each dot-separated part of
 * a path segment (a resource name and its extensions: `KL.html` is `KL` and `html`), each name and value
 * of the query (at `&`, `;`, `=`), and the fragment. The scheme and port are ASCII and not checked.
 * Characters are taken as written: a percent-encoded octet is three ASCII characters (§4.2: mapping a
 * whole component to URI notation is how to satisfy the rules when nothing else can).
 * Never throws on a string; the input need not be a valid IRI (it is split leniently).
 *
 * @example checkIriBidi('http://ab.cd.ef/GH1/2IJ/KL.html') with Hebrew for the capitals
 *   // RFC 3987 §4.4 Example 8: two problems, `GH1` and `2IJ` do not end/start with rtl characters
 */
export function checkIriBidi(iri: string): BidiProblem[] {
  if (typeof iri !== 'string') throw badArgument('checkIriBidi', 'iri', 'a string', iri);
  const problems: BidiProblem[] = [];
  // Fast path: without any character of Bidi_Class R or AL, no rule can be broken.
  if (!hasRtl(iri, 0, iri.length)) return problems;

  // Offsets follow from the lossless split (RFC 3986 Appendix B): recomposeIri(split) === iri.
  const c = splitIriReference(iri);
  let pos = c.scheme !== undefined ? c.scheme.length + 1 : 0;
  if (c.authority !== undefined) {
    pos += 2;
    let hostStart = pos;
    if (c.userinfo !== undefined) {
      checkParts(iri, pos, pos + c.userinfo.length, 'userinfo', USERINFO_SEPARATORS, problems);
      hostStart += c.userinfo.length + 1;
    }
    if (c.host !== undefined) checkParts(iri, hostStart, hostStart + c.host.length, 'host', HOST_SEPARATORS, problems);
    pos += c.authority.length;
  }
  checkParts(iri, pos, pos + c.path.length, 'path', PATH_SEPARATORS, problems);
  pos += c.path.length;
  if (c.query !== undefined) {
    checkParts(iri, pos + 1, pos + 1 + c.query.length, 'query', QUERY_SEPARATORS, problems);
    pos += 1 + c.query.length;
  }
  if (c.fragment !== undefined) checkParts(iri, pos + 1, iri.length, 'fragment', NO_SEPARATORS, problems);
  return problems;
}

// The delimiters that divide each component into §4.2 components, as 128-bit ASCII sets.
const USERINFO_SEPARATORS = asciiSet(':');
const HOST_SEPARATORS = asciiSet('.');
const PATH_SEPARATORS = asciiSet('/.');
const QUERY_SEPARATORS = asciiSet('&;=');
const NO_SEPARATORS = asciiSet('');

function asciiSet(chars: string): Uint8Array {
  const set = new Uint8Array(128);
  for (let i = 0; i < chars.length; i++) set[chars.charCodeAt(i)] = 1;
  return set;
}

function checkParts(
  s: string,
  from: number,
  to: number,
  kind: BidiComponentKind,
  separators: Uint8Array,
  problems: BidiProblem[],
): void {
  let start = from;
  for (let i = from; i <= to; i++) {
    const c = i < to ? s.charCodeAt(i) : -1;
    if (c >= 0 && (c >= 128 || separators[c] === 0)) continue;
    if (i > start) checkComponent(s, start, i, kind, problems);
    start = i + 1;
  }
}

// RFC 3987 §4.2 rules 1 and 2 for the component s[start, end).
function checkComponent(s: string, start: number, end: number, kind: BidiComponentKind, problems: BidiProblem[]): void {
  let hasLtr = false;
  let hasRtlChar = false;
  let firstType = -1;
  let lastType = -1;
  for (let i = start; i < end; i++) {
    const cp = codePointAt(s, i, end);
    if (cp > 0xffff) i++;
    const t = bidiType(cp);
    if (firstType < 0) firstType = t;
    // Deviation (RFC 3987 §4.2): a nonspacing mark belongs to the character it follows (an Arabic or
    // Hebrew letter with its vowel marks still ends with that letter), as RFC 5893 rule 3 allows.
    if (t !== NSM || lastType < 0) lastType = t;
    if (t === L) hasLtr = true;
    else if (t === R || t === AL) hasRtlChar = true;
  }
  if (!hasRtlChar) return;
  if (hasLtr) problems.push({ start, end, component: kind, reason: 'mixed-direction' });
  const rtlAtStart = firstType === R || firstType === AL;
  const rtlAtEnd = lastType === R || lastType === AL;
  if (!rtlAtStart || !rtlAtEnd) problems.push({ start, end, component: kind, reason: 'rtl-not-at-ends' });
}

function hasRtl(s: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    // Every R and AL character is at U+0590 or above.
    if (c < 0x590) continue;
    const cp = codePointAt(s, i, to);
    if (cp > 0xffff) i++;
    if (isRtl(cp)) return true;
  }
  return false;
}

/** Is `cp` a right-to-left character, Bidi_Class R or AL (RFC 3987 §4.2's "right-to-left characters")? */
export function isRtl(cp: number): boolean {
  const t = bidiType(cp);
  return t === R || t === AL;
}

function codePointAt(s: string, i: number, end: number): number {
  const c = s.charCodeAt(i);
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < end) {
    const d = s.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) return 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
  }
  return c;
}
