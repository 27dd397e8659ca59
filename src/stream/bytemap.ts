// Byte offsets for chunks (DESIGN.md "Streaming contract": byteStart/byteEnd over the input bytes).
//
// The decoders record what they know about the bytes behind the text they produce, and the stream
// annotates each chunk as it is released, in order. Only the part of the stream not yet released is
// remembered, so the map stays as small as the linkifier's undecided tail.
//
// Two ways of counting:
// - 'utf8': a chunk's bytes are the UTF-8 length of its text, corrected where the decoder replaced
//   invalid bytes with U+FFFD (which re-encodes to 3 bytes but may stand for 1 to 3 input bytes).
//   Buffer.byteLength costs about 1 ns per UTF-16 unit of a two-byte string (most decoded text: one `’` in a
//   64 KiB write makes it two-byte), as much as a third of the scanner. So for text decoded from valid UTF-8
//   with few non-ASCII characters, the decoder records each of those characters' extra bytes (UTF-8 length
//   minus UTF-16 length) from the bytes themselves, a word-at-a-time walk, and a chunk's byte length is its
//   unit length plus the extras inside it. Text with many of them ("dense": Cyrillic, CJK, a mix of scripts) is
//   copied as bytes, and each chunk's bytes are found by counting, from where the last chunk ended, the UTF-16 units
//   their lead bytes make, a word at a time (Utf8Bytes). Text with replaced bytes, and dense text past what the copy
//   may hold (DENSE_COPY_LIMIT), is still counted by Buffer.byteLength.
// - 'units': the decoder records, for every UTF-16 code unit it produced, how many input bytes it
//   stands for (0 for the second unit of a surrogate pair). Used for every charset but UTF-8; the decoder also
//   says which U+FFFD replaced invalid bytes (an `invalid-bytes` diagnostic on the chunk).
// - 'bytes': every UTF-16 unit is one input byte (a single-byte charset decoded as it is, src/stream/decode.ts
//   SingleByteDecoder), so a chunk's byte length is its unit length and nothing is recorded per unit; only the U+FFFD
//   that replaced a byte the charset lacks (`invalid-bytes`).
// Bytes that produce no text at all (a BOM, ISO-2022-JP escape sequences) are "gaps" at a UTF-16
// position: a chunk that ends there ends before the gap, a chunk that starts there starts after it. So
// chunks tile the input bytes except for those gaps, which decode to no text on their own. Every other byte is
// in a chunk: an incomplete or invalid sequence, at the end of the input too, is a U+FFFD standing for its bytes.
import { isAscii } from 'node:buffer';
import type { Chunk, DiagnosticCode } from '../types.js';

const UTF8_REPLACEMENT_BYTES = 3; // U+FFFD in UTF-8: EF BF BD

/**
 * A queue of (UTF-16 position, byte count) pairs, consumed in position order: typed arrays, the live entries moved to
 * the front when the tail reaches the end (no per-entry allocation; a stream with a replaced byte in every other
 * position adds millions).
 */
class PairQueue {
  private at = new Float64Array(64);
  private len = new Float64Array(64);
  private head = 0;
  private tail = 0;

  add(at: number, len: number): void {
    if (this.tail === this.at.length) this.makeRoom();
    this.at[this.tail] = at;
    this.len[this.tail++] = len;
  }

  /** Room for one more entry: the live entries moved to the front, in arrays twice as large when over half full. */
  private makeRoom(): void {
    const live = this.tail - this.head;
    if (live * 2 > this.at.length) {
      const at = new Float64Array(this.at.length * 2);
      const len = new Float64Array(this.at.length * 2);
      at.set(this.at.subarray(this.head, this.tail));
      len.set(this.len.subarray(this.head, this.tail));
      this.at = at;
      this.len = len;
    } else {
      this.at.copyWithin(0, this.head, this.tail);
      this.len.copyWithin(0, this.head, this.tail);
    }
    this.head = 0;
    this.tail = live;
  }

  /** Removes and sums the entries with position in [from, to) (to exclusive), returns [sum, count]. */
  take(from: number, to: number, out: { sum: number; count: number }): void {
    let sum = 0;
    let count = 0;
    const at = this.at;
    let h = this.head;
    while (h < this.tail && at[h]! < to) {
      if (at[h]! >= from) {
        sum += this.len[h]!;
        count++;
      }
      h++;
    }
    this.head = h;
    out.sum = sum;
    out.count = count;
  }

  /** Removes the entries with position before `to`, handing each position to `each`, in order. */
  drain(to: number, each: (at: number) => void): void {
    const at = this.at;
    let h = this.head;
    while (h < this.tail && at[h]! < to) each(at[h++]!);
    this.head = h;
  }

  /** Removes the ranges [at, at + len) that end at or before `from`; says whether one meets [from, to). */
  meets(from: number, to: number): boolean {
    while (this.head < this.tail && this.at[this.head]! + this.len[this.head]! <= from) this.head++;
    return this.head < this.tail && this.at[this.head]! < to;
  }

  /**
   * How much of [from, to) the ranges [at, at + len) cover; removes those that end at or before `to`. Asked for
   * consecutive spans in order, so no range ends before `from`.
   */
  overlap(from: number, to: number): number {
    let sum = 0;
    while (this.head < this.tail && this.at[this.head]! < to) {
      const at = this.at[this.head]!;
      const end = at + this.len[this.head]!;
      sum += Math.min(end, to) - Math.max(at, from);
      if (end > to) break;
      this.head++;
    }
    return sum;
  }
}

/** UTF-16 units of the character a UTF-8 byte starts: 0 for a continuation byte, 2 for a four-byte lead, else 1. */
const UNITS_OF_BYTE = new Uint8Array(256).map((_, b) => (b >= 0x80 && b < 0xc0 ? 0 : b >= 0xf0 ? 2 : 1));

/**
 * Valid UTF-8 of dense text not yet annotated, copied (the caller may reuse its buffer once a write has returned),
 * consumed a chunk at a time: take(units) steps over the bytes of the next `units` UTF-16 units. Every byte but a
 * continuation byte (10xxxxxx) starts a character of one unit, a four-byte lead (11110xxx) one of two (a surrogate
 * pair), so the units of a run of bytes are counted two 32-bit words at a time with masks: the continuation bytes and
 * the four-byte leads of a word, each marked by its top bit, are counted by one multiply. On multilingual's chunks
 * (~370 units), CPU ms/MB: this 0.47, Buffer.byteLength of the chunk's text 1.03, a loop over lead bytes 1.25.
 */
class Utf8Bytes {
  // Empty until dense text comes (a log line's decoder rarely sees any).
  private bytes = new Uint8Array(0);
  private words = new Uint32Array(0);
  /** The next byte to take (at the start of a character) and the end of what was added. */
  private head = 0;
  private tail = 0;
  /**
   * Units taken past what was asked for: a chunk that ended between the two units of a surrogate pair (never one from
   * the stream: chunks keep pairs whole) got the pair's four bytes, the next chunk starts one unit in.
   */
  private owed = 0;

  /** Bytes added and not yet taken. */
  get held(): number {
    return this.tail - this.head;
  }

  add(bytes: Uint8Array): void {
    const n = bytes.length;
    if (this.tail + n > this.bytes.length) this.makeRoom(n);
    this.bytes.set(bytes, this.tail);
    this.tail += n;
  }

  /** Forgets every byte added. */
  clear(): void {
    this.head = 0;
    this.tail = 0;
    this.owed = 0;
  }

  /** Room for `n` more bytes: the live bytes moved to the front, in an array twice as large when over half full. */
  private makeRoom(n: number): void {
    const live = this.tail - this.head;
    if ((live + n) * 2 > this.bytes.length) {
      let size = Math.max(this.bytes.length, 1 << 12); // a power of two: whole 32-bit words
      while (size < (live + n) * 2) size *= 2;
      const bytes = new Uint8Array(size);
      bytes.set(this.bytes.subarray(this.head, this.tail));
      this.bytes = bytes;
      this.words = new Uint32Array(bytes.buffer);
    } else {
      this.bytes.copyWithin(0, this.head, this.tail);
    }
    this.head = 0;
    this.tail = live;
  }

  /** Steps over the bytes of the next `units` UTF-16 units (whole characters); returns how many bytes they are. */
  take(units: number): number {
    const bytes = this.bytes;
    const from = this.head;
    const tail = this.tail;
    let left = units - this.owed;
    let p = from;
    while ((p & 3) !== 0 && left > 0 && p < tail) left -= UNITS_OF_BYTE[bytes[p++]!]!;
    if (left >= 8) {
      // The `left` units still to take are whole characters at or after p, and no character has more units than
      // bytes: with left >= 8, both words read lie before `tail`.
      const words = this.words;
      let k = p >> 2;
      do {
        const x = words[k]!;
        const y = words[k + 1]!;
        const highX = x & 0x80808080;
        const highY = y & 0x80808080;
        if ((highX | highY) !== 0) {
          // Per byte, its top bit: a continuation byte is 10xxxxxx, a four-byte lead 11110xxx.
          const continuations = ((highX & ~(x << 1)) >>> 7) + ((highY & ~(y << 1)) >>> 7);
          const leads4 = ((highX & (x << 1) & (x << 2) & (x << 3)) >>> 7) + ((highY & (y << 1) & (y << 2) & (y << 3)) >>> 7);
          // Each byte of these sums is 0–2: one multiply adds them up in the top byte.
          left += (Math.imul(continuations, 0x01010101) >>> 24) - (Math.imul(leads4, 0x01010101) >>> 24);
        }
        left -= 8;
        k += 2;
      } while (left >= 8);
      p = k << 2;
    }
    while (left > 0 && p < tail) left -= UNITS_OF_BYTE[bytes[p++]!]!;
    if (p > tail) p = tail; // more units asked for than were added (never from the stream)
    // The continuation bytes of the last character counted.
    while (p < tail && (bytes[p]! & 0xc0) === 0x80) p++;
    this.owed = -left;
    this.head = p;
    return p - from;
  }
}

const NO_WORDS = new Uint32Array(0);

/**
 * The extra bytes (UTF-8 length minus UTF-16 length) of the non-ASCII characters of sparse UTF-8 text, by UTF-16
 * position, as a running total in typed arrays (no per-character allocation), consumed in position order.
 */
class ExtraQueue {
  private pos = new Float64Array(1024);
  private cum = new Float64Array(1024);
  private head = 0;
  private tail = 0;
  /** Running total at the last entry added, and at the entry before `head`. */
  total = 0;
  private headCum = 0;

  /** Makes room for `n` more entries. */
  private reserve(n: number): void {
    if (this.tail + n <= this.pos.length) return;
    const live = this.tail - this.head;
    if (live + n <= this.pos.length >> 1) {
      this.pos.copyWithin(0, this.head, this.tail);
      this.cum.copyWithin(0, this.head, this.tail);
    } else {
      const size = Math.max(this.pos.length * 2, (live + n) * 2);
      const pos = new Float64Array(size);
      const cum = new Float64Array(size);
      pos.set(this.pos.subarray(this.head, this.tail));
      cum.set(this.cum.subarray(this.head, this.tail));
      this.pos = pos;
      this.cum = cum;
    }
    this.head = 0;
    this.tail = live;
  }

  /**
   * Records each non-ASCII character of the valid UTF-8 `bytes`, decoded at UTF-16 position `at`, with its extra
   * bytes: a two-byte sequence is 1 unit (extra 1), a three-byte one 1 unit (extra 2), a four-byte one a
   * surrogate pair (2 units, extra 2). The byte at index i is the unit at + i - (extras before it). `bytes` may
   * start or end inside a character: only lead bytes count. `most` bounds the number of characters recorded (the
   * text's total extra bytes will do). ASCII is skipped eight bytes at a time, as two 32-bit words.
   */
  record(bytes: Uint8Array, at: number, most: number): void {
    this.reserve(most);
    const pos = this.pos;
    const cum = this.cum;
    let t = this.tail;
    let total = this.total;
    const first = total;
    const n = bytes.length;
    const offset = bytes.byteOffset;
    let i = 0;
    const aligned = Math.min(n, (4 - (offset & 3)) & 3);
    const words = (n - aligned) >> 2;
    // No word when the bytes end before the first word boundary: offset + aligned is then no multiple of 4, which a
    // Uint32Array view refuses even at length 0 (a write of 2,049 bytes at byteOffset 1, `é` last, failed the stream).
    const w = words > 0 ? new Uint32Array(bytes.buffer, offset + aligned, words) : NO_WORDS;
    let k = 0;
    for (;;) {
      // Bytes [i, to) are looked at one by one; then whole words from k on are skipped while ASCII.
      let to: number;
      if (i < aligned) to = aligned;
      else {
        while (k + 1 < words && ((w[k]! | w[k + 1]!) & 0x80808080) === 0) k += 2;
        if (k < words) {
          i = aligned + (k << 2);
          to = Math.min(i + 8, aligned + (words << 2));
          k = (to - aligned) >> 2;
        } else {
          i = aligned + (words << 2);
          to = n;
        }
      }
      for (; i < to; i++) {
        const b = bytes[i]!;
        if (b >= 0xc0) {
          pos[t] = at + i - (total - first);
          total += b >= 0xe0 ? 2 : 1;
          cum[t++] = total;
        }
      }
      if (i >= n) break;
    }
    this.tail = t;
    this.total = total;
  }

  /** Removes the entries before `end`; returns the extra bytes of those at or after `start`. */
  take(start: number, end: number): number {
    const pos = this.pos;
    const tail = this.tail;
    let h = this.head;
    let c = this.headCum;
    while (h < tail && pos[h]! < start) c = this.cum[h++]!;
    const from = c;
    while (h < tail && pos[h]! < end) c = this.cum[h++]!;
    this.head = h;
    this.headCum = c;
    return c - from;
  }
}

/**
 * Extra bytes per byte of a write up to which its non-ASCII characters are recorded one by one ("sparse"); above it
 * the write's bytes are copied and counted a chunk at a time (Utf8Bytes). 1/64: English with curly quotes has about
 * one extra byte in 150; Latin-script European languages 1/40 to 1/15, other scripts more. Recording plus annotating,
 * 30 MB in 64 KiB writes, CPU ms/MB, 1/32 → 1/64: multilingual 0.84 → 0.74, en-mixed 0.39 → 0.38 (1/128 about the
 * same; counting every write's bytes: en-mixed 0.46).
 */
const SPARSE_EXTRA_FACTOR = 64;

/**
 * Bytes per block checked with buffer.isAscii before a sparse write's non-ASCII characters are looked for word by
 * word (en-mixed: about half of the 2 KiB blocks are all ASCII; the walk then costs ~0.2 instead of ~0.35 CPU ms/MB).
 */
const SPARSE_BLOCK = 2048;

/**
 * Most bytes of dense text the copy (Utf8Bytes) holds at once; a dense write that would take it past this is counted
 * by Buffer.byteLength instead. So neither a write longer than this (a whole mail part is one write) nor a long
 * undecided tail (a link under a raised maxLinkLength, a Markdown piece of 1 MiB units: up to 3 MiB of CJK), which the
 * stream already holds as text, is held twice: the copy stays within an array of 2 MiB.
 */
const DENSE_COPY_LIMIT = 1 << 20;

export type ByteCounting = 'utf8' | 'units' | 'bytes';

export class ByteMap {
  readonly counting: ByteCounting;
  /** UTF-16 offset released so far (the start of the next chunk). */
  private pos = 0;
  /** Byte offset at `pos`, before any gap there. */
  private bytePos = 0;
  private readonly gaps = new PairQueue();
  private readonly replacements = new PairQueue();
  // 'utf8' counting: extra bytes (UTF-8 minus UTF-16 length) of the non-ASCII characters of sparse text, at their
  // position; ranges of dense text and its bytes; ranges counted by byteLength (text with replaced bytes, a dense write
  // past the copy's limit); text up to `covered` is recorded one way or another.
  private readonly extras = new ExtraQueue();
  private readonly dense = new PairQueue();
  private readonly denseBytes = new Utf8Bytes();
  private readonly counted = new PairQueue();
  private covered = 0;
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

  /**
   * The U+FFFD at `at` replaced `bytes` invalid input bytes ('utf8'), or replaced invalid bytes counted with its
   * unit ('units' and 'bytes', `bytes` 0).
   */
  addReplacement(at: number, bytes: number): void {
    this.replacements.add(at, bytes);
    this.replaced = true;
  }

  /** Some input bytes were replaced by U+FFFD (addReplacement), ever. */
  replaced = false;

  /**
   * 'utf8': `units` UTF-16 units at position `at` were decoded from `bytes`, which are valid UTF-8 (so every
   * character is whole: its lead byte says its length).
   */
  addUtf8(at: number, units: number, bytes: Uint8Array): void {
    const n = bytes.length;
    const extra = n - units;
    if (extra > 0) {
      // (A multiply, not a shift: a write of 48 MiB of CJK has 2^25 extra bytes, which a 32-bit shift wraps.)
      if (extra * SPARSE_EXTRA_FACTOR <= n) {
        // Blocks that buffer.isAscii (SIMD) finds all ASCII hold no extras: only the others are walked.
        const view = new Uint8Array(bytes.buffer, bytes.byteOffset, n);
        const extras = this.extras;
        const first = extras.total;
        for (let b = 0; b < n; b += SPARSE_BLOCK) {
          const block = view.subarray(b, Math.min(n, b + SPARSE_BLOCK));
          if (!isAscii(block)) extras.record(block, at + b - (extras.total - first), extra);
        }
      } else if (this.denseBytes.held + n <= DENSE_COPY_LIMIT) {
        this.dense.add(at, units);
        this.denseBytes.add(bytes);
      } else this.counted.add(at, units);
    }
    this.covered = at + units;
  }

  /** 'utf8': `units` UTF-16 units at position `at` are counted by their UTF-8 length (corrected by replacements). */
  addCounted(at: number, units: number): void {
    if (units > 0) this.counted.add(at, units);
    this.covered = at + units;
  }

  /** 'units': the next produced UTF-16 unit stands for `bytes` input bytes. */
  addUnit(bytes: number): void {
    if (this.unitsTail === this.units.length) this.makeRoom(1);
    this.units[this.unitsTail++] = bytes;
    this.produced++;
  }

  /** 'units': appends units[from:to) (bytes per produced UTF-16 unit). */
  addUnits(units: Uint32Array, from: number, to: number): void {
    const n = to - from;
    if (this.unitsTail + n > this.units.length) this.makeRoom(n);
    this.units.set(units.subarray(from, to), this.unitsTail);
    this.unitsTail += n;
    this.produced += n;
  }

  /** 'bytes': the next `n` UTF-16 units were produced, one input byte each. */
  addBytes(n: number): void {
    this.produced += n;
  }

  /** Room for `n` more units at the tail: the live units moved to the front, in a queue twice as large when needed. */
  private makeRoom(n: number): void {
    const live = this.unitsTail - this.unitsHead;
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

  // ---- consumer side (the stream, in release order) ----

  /** The diagnostic annotate gives a chunk holding a U+FFFD that replaced invalid bytes. */
  get replacementCode(): DiagnosticCode {
    return this.counting === 'utf8' ? 'invalid-utf8' : 'invalid-bytes';
  }

  /**
   * For a reader that needs no byte offsets (a mail part), instead of annotate: forgets what is recorded before UTF-16
   * position `end` and hands `replaced` the position of each U+FFFD there that replaced invalid bytes, in order (the
   * U+FFFD annotate would mark), with no chunk built. Byte offsets are not kept: such a map is not annotated after.
   */
  skipTo(end: number, replaced: (at: number) => void): void {
    this.gaps.take(0, end, this.scratch);
    if (this.counting === 'utf8') {
      this.extras.take(end, end);
      const dense = this.dense.overlap(this.pos, end);
      if (end >= this.covered) this.denseBytes.clear();
      else if (dense > 0) this.denseBytes.take(dense);
      this.counted.meets(end, end);
    } else if (this.counting === 'units') this.unitsHead += end - this.pos;
    this.replacements.drain(end, replaced);
    this.pos = end;
  }

  /**
   * Sets byteStart/byteEnd on the next released chunk; adds `invalid-utf8` ('utf8' counting) or `invalid-bytes`
   * ('units': the other charsets) where bytes were replaced by U+FFFD.
   */
  annotate(chunk: Chunk): void {
    const start = chunk.start;
    const end = chunk.end;
    const s = this.scratch;
    // A gap at the chunk's start belongs before it.
    this.gaps.take(this.pos, start + 1, s);
    const byteStart = this.bytePos + s.sum;
    let length: number;
    if (this.counting === 'utf8') {
      const dense = this.dense.overlap(start, end);
      const denseBytes = dense > 0 ? this.denseBytes.take(dense) : 0;
      if (end <= this.covered && !this.counted.meets(start, end)) {
        length = end - start + this.extras.take(start, end) + denseBytes - dense;
      } else {
        this.extras.take(end, end);
        length = Buffer.byteLength(chunk.text, 'utf8');
      }
      this.replacements.take(start, end, s);
      if (s.count > 0) {
        length += s.sum - s.count * UTF8_REPLACEMENT_BYTES;
        addDiagnostic(chunk, 'invalid-utf8');
      }
    } else if (this.counting === 'bytes') {
      length = end - start;
      this.replacements.take(start, end, s);
      if (s.count > 0) addDiagnostic(chunk, 'invalid-bytes');
    } else {
      length = 0;
      const n = end - start;
      for (let i = 0; i < n; i++) length += this.units[this.unitsHead + i]!;
      this.unitsHead += n;
      this.replacements.take(start, end, s);
      if (s.count > 0) addDiagnostic(chunk, 'invalid-bytes');
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
