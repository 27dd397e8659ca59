// The incremental linkifier (DESIGN.md "Streaming contract"): text in, in pieces of any size; text and
// link chunks out, covering the input exactly, with UTF-16 offsets over the whole stream.
//
// It holds only the undecided tail. After each push the scanner says up to where its answer is final
// (`settled`); everything before that is released as chunks, and of it only the last `contextLength`
// code units are kept, as left context for the next scan (UTS #58 looks back before a link start, e.g.
// for P4 and the email back-scan). The scanner promises that rescanning from there gives the same later
// links as scanning the whole text, which is what makes the output independent of how the text was split.
//
//   push("see https://例え.jp/パ")  →  [text "see "]            tail: "see https://例え.jp/パ", settled at 4
//   push("ス。 ok")                  →  [link …パス] [text "。 "] tail: context + "ok"
//   end()                           →  [text "ok"]
import { badArgument } from '../errors.js';
import type { Chunk } from '../types.js';
import type { Scanner, ScanResume } from '../detect/index.js';
import { appendChunks, textChunk } from '../detect/index.js';

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

/**
 * The least left context kept, whatever the scanner declares. More context never changes a correct
 * scanner's answer (it sees more of what the whole text holds) and costs a few bytes; it keeps the
 * output whole-text-exact should a look-behind reach further than the scanner's contextLength says.
 * This once happened (a schemeless host right after `https://` glued to a letter, found by the property
 * test); the scanner was fixed, and test/detect-scan-context.test.ts now checks the scanner with exactly
 * its declared context. The margin stays as defence in depth: copying 64 units per push is not
 * measurable next to the 64 KiB of the push itself.
 */
const MIN_CONTEXT = 64;

/**
 * Longest piece of a push appended to the tail at once (UTF-16 units). V8 puts a string of more than
 * 128 KiB (64 Ki two-byte units) in its large-object space, where every allocation maps fresh memory:
 * the tail + piece copy stays below that.
 */
const MAX_PIECE = 16384;

export class IncrementalLinkifier {
  private readonly scanner: Scanner;
  /** Text from stream offset `base` on: left context, then the undecided part. */
  private tail = '';
  private base = 0;
  /** Index in `tail` where the next scan starts (everything before it has been released). */
  private from = 0;
  /**
   * The last scan's resume hint (indices in `tail`), kept only when the next scan starts exactly at that
   * scan's `settled`: then it does not go through the triggers of the undecided run again, so tiny pushes
   * into a long run without a barrier cost in proportion to what they add (DESIGN.md: linear time).
   */
  private resume: ScanResume | undefined = undefined;
  /** A high surrogate that ended the last push, held until its low surrogate arrives. */
  private heldHigh = '';
  private ended = false;
  /** Left context kept: the scanner's contextLength, at least MIN_CONTEXT. */
  private readonly context: number;

  constructor(scanner: Scanner) {
    this.scanner = scanner;
    this.context = Math.max(scanner.contextLength, MIN_CONTEXT);
  }

  /** UTF-16 code units held back (context plus undecided text), for callers that watch memory. */
  get pending(): number {
    return this.tail.length + this.heldHigh.length;
  }

  /** Adds text; returns the chunks that are now final (possibly none). */
  push(text: string): Chunk[] {
    if (typeof text !== 'string') throw badArgument('Linkifier.push', 'text', 'a string', text);
    if (this.ended) throw new TypeError('irilink: Linkifier.push() called after end()');
    if (text.length === 0) return [];
    if (this.heldHigh !== '') {
      text = this.heldHigh + text;
      this.heldHigh = '';
    }
    // A surrogate pair split between two pushes must reach the scanner whole.
    if (isHighSurrogate(text.charCodeAt(text.length - 1))) {
      this.heldHigh = text.slice(-1);
      text = text.slice(0, -1);
      if (text.length === 0) return [];
    }
    if (text.length <= MAX_PIECE) {
      this.tail = this.tail.length === 0 ? text : concatFlat(this.tail, text);
      return this.scan(false);
    }
    // A long push is scanned in pieces of at most MAX_PIECE units (the result is the same: the scan is
    // chunking-invariant). Each piece is copied once into the flat tail; a piece of 64 Ki two-byte units would
    // make that copy a large-object allocation, about six times dearer per unit than a 16 Ki one.
    const out: Chunk[] = [];
    for (let i = 0; i < text.length; ) {
      let j = Math.min(i + MAX_PIECE, text.length);
      if (j < text.length && isHighSurrogate(text.charCodeAt(j - 1))) j--; // keep a surrogate pair together
      const piece = text.slice(i, j);
      this.tail = this.tail.length === 0 ? piece : concatFlat(this.tail, piece);
      for (const chunk of this.scan(false)) out.push(chunk);
      i = j;
    }
    return out;
  }

  /** Ends the input; returns the remaining chunks. */
  end(): Chunk[] {
    if (this.ended) return [];
    this.ended = true;
    if (this.heldHigh !== '') {
      this.tail += this.heldHigh; // a lone high surrogate is still text, passed on unchanged
      this.heldHigh = '';
    }
    return this.scan(true);
  }

  private scan(final: boolean): Chunk[] {
    const tail = this.tail;
    const base = this.base;
    const result = this.scanner.scan(tail, this.from, final, base, this.resume);
    this.resume = undefined;
    const out: Chunk[] = [];
    const pos = appendChunks(out, tail, base, base + this.from, result.links, result.unlinked);
    // The scanner's `settled` is an index into `tail`; link offsets already include `base`.
    let settled = final ? base + tail.length : Math.max(base + result.settled, pos);
    // Never release half of a surrogate pair: a chunk's text stays well-formed and its bytes exact.
    if (settled > pos && settled - base < tail.length) {
      const i = settled - base;
      const c = tail.charCodeAt(i - 1);
      const d = tail.charCodeAt(i);
      if (c >= 0xd800 && c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff) settled--;
    }
    if (settled > pos) out.push(textChunk(tail, base, pos, settled));
    // Keep the left context the scanner needs, drop the rest.
    const keepFrom = Math.max(0, settled - base - this.context);
    if (keepFrom > 0) {
      this.tail = tail.slice(keepFrom);
      this.base = base + keepFrom;
    }
    this.from = settled - this.base;
    const hint = result.resume;
    if (hint !== undefined && base + result.settled === settled) {
      const shift = this.base - base;
      this.resume = { at: hint.at - shift, lowerLimit: hint.lowerLimit - shift };
    }
    return out;
  }
}

/**
 * `a + b` as a flat string. `a + b` is a rope (V8 ConsString) whose charCodeAt is many times slower than a
 * flat string's, and the scanner reads every code unit. Flattening the rope in place (ToNumber, the trick of
 * the `flatstr` package) is not enough: the variable still holds the ConsString, now pointing at its flat
 * copy, and every charCodeAt of optimised code goes through that indirection. Array.prototype.join builds a
 * new sequential string directly. en-mixed 30 MB through the Linkifier in 64 KiB pushes, CPU MB/s (median of
 * 5, load ~6 on 2 cores): 91 → 149–167.
 */
function concatFlat(a: string, b: string): string {
  return [a, b].join('');
}
