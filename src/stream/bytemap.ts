// Byte offsets for chunks (DESIGN.md "Streaming contract": byteStart/byteEnd over the input bytes).
//
// The decoders record what they know about the bytes behind the text they produce, and the stream
// annotates each chunk as it is released, in order. Only the part of the stream not yet released is
// remembered, so the map stays as small as the linkifier's undecided tail.
//
// Two ways of counting:
// - 'utf8': a chunk's bytes are the UTF-8 length of its text, corrected where the decoder replaced
//   invalid bytes with U+FFFD (which re-encodes to 3 bytes but may stand for 1 to 3 input bytes).
// - 'units': the decoder records, for every UTF-16 code unit it produced, how many input bytes it
//   stands for (0 for the second unit of a surrogate pair). Used for legacy charsets.
// Bytes that produce no text at all (a UTF-8 BOM, ISO-2022-JP escape sequences) are "gaps" at a UTF-16
// position: a chunk that ends there ends before the gap, a chunk that starts there starts after it. So
// chunks tile the input bytes except for those gaps.
import type { Chunk, DiagnosticCode } from '../types.js';

const UTF8_REPLACEMENT_BYTES = 3; // U+FFFD in UTF-8: EF BF BD

/** A queue of (UTF-16 position, byte count) pairs, consumed in position order. */
class PairQueue {
  private at: number[] = [];
  private len: number[] = [];
  private head = 0;

  add(at: number, len: number): void {
    this.at.push(at);
    this.len.push(len);
  }

  /** Removes and sums the entries with position in [from, to) (to exclusive), returns [sum, count]. */
  take(from: number, to: number, out: { sum: number; count: number }): void {
    let sum = 0;
    let count = 0;
    while (this.head < this.at.length && this.at[this.head]! < to) {
      if (this.at[this.head]! >= from) {
        sum += this.len[this.head]!;
        count++;
      }
      this.head++;
    }
    if (this.head > 1024 && this.head * 2 > this.at.length) {
      this.at = this.at.slice(this.head);
      this.len = this.len.slice(this.head);
      this.head = 0;
    }
    out.sum = sum;
    out.count = count;
  }
}

export type ByteCounting = 'utf8' | 'units';

export class ByteMap {
  readonly counting: ByteCounting;
  /** UTF-16 offset released so far (the start of the next chunk). */
  private pos = 0;
  /** Byte offset at `pos`, before any gap there. */
  private bytePos = 0;
  private readonly gaps = new PairQueue();
  private readonly replacements = new PairQueue();
  // 'units' counting: bytes per produced UTF-16 unit, a growable queue of numbers.
  private units = new Uint32Array(1024);
  private unitsHead = 0;
  private unitsTail = 0;
  /** UTF-16 units produced so far (the position of the next recorded unit). */
  produced = 0;
  private readonly scratch = { sum: 0, count: 0 };

  constructor(counting: ByteCounting) {
    this.counting = counting;
  }

  // ---- producer side (decoders) ----

  /** `bytes` input bytes that produced no text sit at UTF-16 position `at`. */
  addGap(at: number, bytes: number): void {
    if (bytes > 0) this.gaps.add(at, bytes);
  }

  /** 'utf8': the U+FFFD at `at` replaced `bytes` invalid input bytes. */
  addReplacement(at: number, bytes: number): void {
    this.replacements.add(at, bytes);
  }

  /** 'units': the next produced UTF-16 unit stands for `bytes` input bytes. */
  addUnit(bytes: number): void {
    if (this.unitsTail === this.units.length) {
      const live = this.unitsTail - this.unitsHead;
      if (live * 2 > this.units.length) {
        const next = new Uint32Array(this.units.length * 2);
        next.set(this.units.subarray(this.unitsHead, this.unitsTail), 0);
        this.units = next;
      } else {
        this.units.copyWithin(0, this.unitsHead, this.unitsTail);
      }
      this.unitsHead = 0;
      this.unitsTail = live;
    }
    this.units[this.unitsTail++] = bytes;
    this.produced++;
  }

  /** 'units': appends units[from:to) (bytes per produced UTF-16 unit). */
  addUnits(units: Uint32Array, from: number, to: number): void {
    const n = to - from;
    const live = this.unitsTail - this.unitsHead;
    if (this.unitsTail + n > this.units.length) {
      if (live + n > this.units.length / 2) {
        const next = new Uint32Array(Math.max(this.units.length * 2, (live + n) * 2));
        next.set(this.units.subarray(this.unitsHead, this.unitsTail), 0);
        this.units = next;
      } else {
        this.units.copyWithin(0, this.unitsHead, this.unitsTail);
      }
      this.unitsHead = 0;
      this.unitsTail = live;
    }
    this.units.set(units.subarray(from, to), this.unitsTail);
    this.unitsTail += n;
    this.produced += n;
  }

  // ---- consumer side (the stream, in release order) ----

  /** Sets byteStart/byteEnd on the next released chunk; adds `invalid-utf8` where bytes were replaced. */
  annotate(chunk: Chunk): void {
    const start = chunk.start;
    const end = chunk.end;
    const s = this.scratch;
    // A gap at the chunk's start belongs before it.
    this.gaps.take(this.pos, start + 1, s);
    const byteStart = this.bytePos + s.sum;
    let length: number;
    if (this.counting === 'utf8') {
      length = Buffer.byteLength(chunk.text, 'utf8');
      this.replacements.take(start, end, s);
      if (s.count > 0) {
        length += s.sum - s.count * UTF8_REPLACEMENT_BYTES;
        addDiagnostic(chunk, 'invalid-utf8');
      }
    } else {
      length = 0;
      const n = end - start;
      for (let i = 0; i < n; i++) length += this.units[this.unitsHead + i]!;
      this.unitsHead += n;
    }
    // Gaps strictly inside the chunk belong to it; one at its end belongs to the next chunk.
    this.gaps.take(start + 1, end, s);
    length += s.sum;
    chunk.byteStart = byteStart;
    chunk.byteEnd = byteStart + length;
    this.pos = end;
    this.bytePos = byteStart + length;
  }
}

function addDiagnostic(chunk: Chunk, code: DiagnosticCode): void {
  // A new array: the link's own array may be shared with the scanner's result.
  if (chunk.diagnostics === undefined) chunk.diagnostics = [code];
  else if (!chunk.diagnostics.includes(code)) chunk.diagnostics = [...chunk.diagnostics, code];
}
