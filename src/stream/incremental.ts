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
import { isHighSurrogate } from '../iri/chars.js';
import type { Chunk } from '../types.js';
import type { Scanner, ScanResume } from '../detect/index.js';
import { appendChunks, EmbeddingTracker, linkChunk, textChunk } from '../detect/index.js';

/**
 * The least left context kept, whatever the scanner declares. More context never changes a correct
 * scanner's answer (it sees more of what the whole text holds) and costs a few bytes; it keeps the
 * output whole-text-exact should a look-behind reach further than the scanner's contextLength says.
 * This once happened (a schemeless host right after `https://` glued to a letter, found by the property
 * test); the scanner was fixed, and test/detect-scan-context.test.ts now checks the scanner with exactly
 * its declared context. The margin stays as defence in depth. (The scanner declares more today, for the
 * header fields of mail, detect/fields.ts: copying that context with each push is not measurable next to a
 * 64 KiB push; with pushes of a unit or a few it made mail text some 15–20 % slower, measured in review.)
 */
const MIN_CONTEXT = 64;

/**
 * Longest piece of a push appended to the tail at once (UTF-16 units), when a push cannot be scanned where it
 * lies (below). V8 puts a string of more than 128 KiB (64 Ki two-byte units) in its large-object space, where
 * every allocation maps fresh memory: the tail + piece copy stays below that.
 */
const MAX_PIECE = 16384;

/**
 * Units of a push first scanned together with the tail (a copy). Once the scan has settled at least the left
 * context past the push's start, the rest of the push is scanned in place, in the push's own string: no copy of
 * the push, one scan call per push instead of one per MAX_PIECE, and text decoded as a one-byte string (an
 * ASCII or Latin-1 write) stays one, which the scanner reads faster. Scanner CPU time inside the stream, 20 MB in
 * 64 KiB writes (load ~8): en-mixed 5.0–7.4 → 3.2–4.2 ms/MB, multilingual 3.8–4.3 → 2.9–3.6.
 */
const HEAD = 1024;

/**
 * Undecided units past which pushes are held and scanned together (DESIGN.md: time linear in input size). The
 * scanner decides a trigger from its start, so while one link stays undecided every scan reads it again: with a
 * scan per push that is quadratic in the link's length. With the default maxLinkLength the scanner never leaves
 * more than maxLinkLength + 2048 units undecided (10,240), below this, and nothing is held. With a raised
 * maxLinkLength (up to 2²⁸) a long undecided run is rescanned only once the pushes held since the last scan are as
 * long as it: each scan at least doubles the text, so all of them read O(input) units. Chunks come out later, and
 * the same (the scanner is chunking-invariant).
 */
const HOLD_FROM = 1 << 14;

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
  /** Pushes held while the undecided run is at least HOLD_FROM units, and their length. */
  private held: string[] = [];
  private heldLength = 0;
  private ended = false;
  /** Left context kept: the scanner's contextLength, at least MIN_CONTEXT. */
  private readonly context: number;
  /** `bidi-embedded` (src/detect/embedding.ts): the pushes noted, the released chunks marked. */
  private readonly embedding = new EmbeddingTracker();

  constructor(scanner: Scanner) {
    this.scanner = scanner;
    this.context = Math.max(scanner.contextLength, MIN_CONTEXT);
  }

  /** UTF-16 code units held back (context plus undecided text), for callers that watch memory. */
  get pending(): number {
    return this.tail.length + this.heldLength + this.heldHigh.length;
  }

  /** Adds text; returns the chunks that are now final (possibly none). */
  push(text: string): Chunk[] {
    if (typeof text !== 'string') throw badArgument('Linkifier.push', 'text', 'a string', text);
    return this.add(text, false, false);
  }

  /**
   * push() for text known to be a flat string (a decoder's output; createLinkStream uses it): the push is then
   * scanned where it lies. A string from elsewhere may be a rope (V8 ConsString, e.g. the result of `a + b`), whose
   * every charCodeAt is many times dearer, so push() copies it into the flat tail instead. The chunks are those
   * push() gives; only the time differs. Internal (left out of the published types by `stripInternal`).
   * `bidiFree`: the text is known to hold no explicit bidi embedding, override or isolate control (the UTF-8
   * decoder tested its bytes), so it need not be tested again (src/detect/embedding.ts).
   * @internal
   */
  pushFlat(text: string, bidiFree = false): Chunk[] {
    if (typeof text !== 'string') throw badArgument('Linkifier.pushFlat', 'text', 'a string', text);
    return this.add(text, true, bidiFree);
  }

  private add(text: string, flat: boolean, bidiFree: boolean): Chunk[] {
    if (this.ended) throw new TypeError('irilink: Linkifier.push() called after end()');
    if (text.length === 0) return [];
    this.embedding.note(text.length, !bidiFree);
    const out = this.addNoted(text, flat);
    this.embedding.mark(out);
    return out;
  }

  private addNoted(text: string, flat: boolean): Chunk[] {
    if (this.heldHigh !== '') {
      text = concatFlat(this.heldHigh, text); // flat, as it may be scanned in place
      this.heldHigh = '';
    }
    // A surrogate pair split between two pushes must reach the scanner whole.
    if (isHighSurrogate(text.charCodeAt(text.length - 1))) {
      this.heldHigh = text.slice(-1);
      text = text.slice(0, -1);
      if (text.length === 0) return [];
    }
    const undecided = this.tail.length - this.from;
    if (undecided >= HOLD_FROM) {
      this.held.push(text);
      this.heldLength += text.length;
      if (this.heldLength < undecided) return [];
      // One append and one scan: a scan per MAX_PIECE (below) would read the undecided run again each time.
      this.tail = concatFlat(this.tail, this.takeHeld());
      return this.scan(false);
    }
    if (this.tail.length === 0 && (flat || text.length <= MAX_PIECE)) {
      // Nothing held (the first push): the push is the tail as it is.
      this.tail = text;
      return this.scan(false);
    }
    if (text.length <= HEAD) {
      this.tail = concatFlat(this.tail, text);
      return this.scan(false);
    }
    // The push goes through the tail piece by piece (a copy each: HEAD units, then at most MAX_PIECE) until a scan
    // has settled at least `context` units into the push; from then on the tail is the push itself (the left
    // context the scanner needs lies in it) and the rest is scanned in place. The scanner's chunking invariance
    // makes every way of splitting give the same chunks. Without a barrier for a long stretch (a long word, a
    // long link) the push is copied piece by piece; a piece of 64 Ki two-byte units would make that copy a
    // large-object allocation, about six times dearer per unit than a 16 Ki one.
    const textBase = this.base + this.tail.length;
    const out: Chunk[] = [];
    for (let i = 0; i < text.length; ) {
      let j = Math.min(i + (i === 0 ? HEAD : MAX_PIECE), text.length);
      if (j < text.length && isHighSurrogate(text.charCodeAt(j - 1))) j--; // keep a surrogate pair together
      this.tail = this.tail.length === 0 ? text.slice(i, j) : concatFlat(this.tail, text.slice(i, j));
      for (const chunk of this.scan(false)) out.push(chunk);
      i = j;
      const settled = this.base + this.from;
      if (flat && i < text.length && settled - textBase >= this.context) {
        const shift = textBase - this.base;
        if (this.resume !== undefined) this.resume = shifted(this.resume, shift);
        this.tail = text;
        this.base = textBase;
        this.from = settled - textBase;
        for (const chunk of this.scan(false)) out.push(chunk);
        break;
      }
    }
    return out;
  }

  /** Ends the input; returns the remaining chunks. */
  end(): Chunk[] {
    if (this.ended) return [];
    this.ended = true;
    if (this.heldLength > 0) this.tail = concatFlat(this.tail, this.takeHeld());
    if (this.heldHigh !== '') {
      this.tail += this.heldHigh; // a lone high surrogate is still text, passed on unchanged
      this.heldHigh = '';
    }
    const out = this.scan(true);
    this.embedding.mark(out);
    return out;
  }

  private takeHeld(): string {
    const text = this.held.length === 1 ? this.held[0]! : this.held.join('');
    this.held = [];
    this.heldLength = 0;
    return text;
  }

  private scan(final: boolean): Chunk[] {
    const tail = this.tail;
    const base = this.base;
    const result = this.scanner.scan(tail, this.from, final, base, this.resume);
    this.resume = undefined;
    const out: Chunk[] = [];
    const pos = appendChunks(out, tail, base, base + this.from, result.links, result.unlinked, linkChunk);
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
    // The hint is kept when the next scan starts where this one settled. A scan that stops in a cut link's run
    // (hint.cutRun, which the next scan needs) always settles there: past every link, at a code point's boundary.
    const hint = result.resume;
    if (hint !== undefined && base + result.settled === settled) {
      this.resume = shifted(hint, this.base - base);
    }
    return out;
  }
}

/** A scan's resume hint for the same text with its first `shift` units dropped. */
function shifted(r: ScanResume, shift: number): ScanResume {
  const out: ScanResume = { at: r.at - shift, lowerLimit: r.lowerLimit - shift };
  if (r.cutRun !== undefined) out.cutRun = r.cutRun;
  return out;
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
