// The UTF-8 decoder's native paths (src/stream/decode.ts: Latin-1 for ASCII, buffer.transcode, TextDecoder for a
// write too long for transcode) and its ByteMap (src/stream/bytemap.ts): byte offsets of chunks over valid UTF-8 of
// every density — all ASCII, mostly ASCII (the extra bytes of its few non-ASCII characters), dense (its bytes, copied
// and counted a word at a time) and dense text past what the copy holds (Buffer.byteLength) — against the UTF-8 length
// of the text before each chunk, for any writes and any chunks.
import { expect } from 'chai';
import fc from 'fast-check';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { ByteMap } from '../src/stream/bytemap.js';
import { createDecoder } from '../src/stream/decode.js';
import { createLinkStream } from '../src/stream/transform.js';
import type { Chunk, TextChunk } from '../src/types.js';

/** Text chunks tiling `text`, cut at `cuts` (each modulo length + 1, never inside a surrogate pair), annotated in order. */
function annotate(annotateOne: (chunk: Chunk) => void, text: string, cuts: number[]): TextChunk[] {
  const points = [...new Set(cuts.map((c) => c % (text.length + 1)))]
    .filter((p) => !(p > 0 && p < text.length && /[\uDC00-\uDFFF]/.test(text[p]!)))
    .sort((a, b) => a - b);
  const chunks: TextChunk[] = [];
  let last = 0;
  for (const p of [...points, text.length]) {
    if (p <= last) continue;
    const chunk: TextChunk = { type: 'text', text: text.slice(last, p), start: last, end: p };
    annotateOne(chunk);
    chunks.push(chunk);
    last = p;
  }
  return chunks;
}

/** `bytes` copied `shift` bytes into a fresh ArrayBuffer (word-at-a-time reads must not assume alignment). */
function shifted(bytes: Buffer, shift: number): Buffer {
  const out = Buffer.alloc(bytes.length + shift);
  bytes.copy(out, shift);
  return out.subarray(shift);
}

function expectExact(chunks: TextChunk[], text: string): void {
  for (const c of chunks) {
    const expected = [Buffer.byteLength(text.slice(0, c.start)), Buffer.byteLength(text.slice(0, c.end))];
    expect([c.byteStart, c.byteEnd], JSON.stringify(c.text)).to.deep.equal(expected);
  }
}

// Whole characters only, so that a write never ends inside one (each write is then one ByteMap record).
const piece = fc.oneof(
  // 'x' × 2045: sparse writes past one 2 KiB block of the extra-bytes walk, their last block of any length.
  fc.constantFrom('ascii words and https://a.example/x. ', 'x'.repeat(300), 'x'.repeat(2045), 'café ', '’'),
  fc.integer({ min: 1, max: 200 }).map((n) => '東京都のhttps://例え.jp/パス。'.repeat(n)),
  fc.integer({ min: 1, max: 200 }).map((n) => 'Привет, мир! '.repeat(n)),
  fc.integer({ min: 1, max: 200 }).map((n) => '😀𠮷 a'.repeat(n)),
  fc.integer({ min: 1, max: 40 }).map((n) => 'ab\u00e9'.repeat(n)), // two-byte characters among ASCII
);

describe('ByteMap (UTF-8): byte offsets for every density of text', () => {
  it('writes of any density, chunks cut anywhere: byteStart/byteEnd are the UTF-8 lengths before each chunk', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.array(piece, { minLength: 1, maxLength: 6 }), fc.nat({ max: 7 })), { minLength: 1, maxLength: 12 }),
        fc.array(fc.nat({ max: 200_000 }), { maxLength: 60 }),
        (writes, cuts) => {
          const decoder = createDecoder('utf-8');
          let text = '';
          for (const [pieces, shift] of writes) text += decoder.write(shifted(Buffer.from(pieces.join('')), shift));
          text += decoder.end();
          expect(text).to.equal(writes.map(([pieces]) => pieces.join('')).join(''));
          expectExact(
            annotate((c) => decoder.byteMap.annotate(c), text, cuts),
            text,
          );
        },
      ),
      { numRuns: 150 },
    );
  });

  it('a sparse write whose last 2 KiB block is 1 to 3 bytes, at every byteOffset mod 8: whole text and exact offsets', async () => {
    // The extra bytes of a mostly-ASCII write are recorded per 2 KiB block, ASCII words skipped as 32-bit words; a
    // last block too short to reach a word boundary failed the stream with a RangeError (a write of 2,049 bytes at
    // byteOffset 1, `é` straddling the block boundary).
    for (const tail of ['é', 'xé', '€', 'x€', '😀']) {
      for (let before = 2040; before <= 2050; before++) {
        const text = 'see https://example.com/a ' + 'x'.repeat(before - 26) + tail;
        for (let shift = 0; shift < 8; shift++) {
          const stream = createLinkStream();
          const chunks: Chunk[] = [];
          stream.on('data', (c: Chunk) => chunks.push(c));
          const done = new Promise<void>((resolve, reject) => {
            stream.on('end', resolve);
            stream.on('error', reject);
          });
          stream.end(shifted(Buffer.from(text), shift));
          await done;
          const label = `${JSON.stringify(tail)} after ${before} bytes, shift ${shift}`;
          expect(chunks.map((c) => c.text).join(''), label).to.equal(text);
          expect(chunks.filter((c) => c.type === 'link').map((c) => c.text), label).to.deep.equal(['https://example.com/a']);
          expectExact(chunks as TextChunk[], text);
        }
      }
    }
  });

  it('a single write of 2^25 extra bytes (48 MiB of CJK) is dense, not sparse: no per-character record (found in review)', () => {
    // `extra << 6` wrapped at 2^25 extra bytes: the write took the sparse path, whose queue reserved two Float64Arrays
    // of 2^26 entries (about 1.07 GB), and under a memory limit the stream failed.
    const chars = 1 << 24;
    const bytes = Buffer.alloc(chars * 3, Buffer.from('例'));
    const map = new ByteMap('utf8');
    const before = process.memoryUsage().arrayBuffers;
    map.addUtf8(0, chars, bytes);
    expect(process.memoryUsage().arrayBuffers - before).to.be.below(64 << 20);
    const chunk: TextChunk = { type: 'text', text: '例'.repeat(chars), start: 0, end: chars };
    map.annotate(chunk);
    expect([chunk.byteStart, chunk.byteEnd]).to.deep.equal([0, bytes.length]);
  });

  it('a dense write longer than the copy limit (counted by Buffer.byteLength) among copied ones', () => {
    const decoder = createDecoder('utf-8');
    const writes = ['東京 https://例え.jp/ '.repeat(300), 'Привет '.repeat(200_000), '😀 x'.repeat(500)];
    let text = '';
    for (const w of writes) text += decoder.write(Buffer.from(w));
    expectExact(
      annotate((c) => decoder.byteMap.annotate(c), text, [5, 4000, 4001, 1_000_000, 1_400_005, 1_400_100]),
      text,
    );
  });

  it('dense text waiting unannotated past what the copy holds (1 MiB) is counted by Buffer.byteLength', () => {
    // About fifty 64 KiB writes, none annotated until the end: the copy takes the first ones, byteLength the others,
    // and a chunk may span both (and writes split inside a character, carried to the next write).
    const decoder = createDecoder('utf-8');
    const source = 'Привет, 東京 😀 https://例え.jp/パス '.repeat(60_000);
    const bytes = Buffer.from(source);
    let text = '';
    for (let i = 0; i < bytes.length; i += 65536) text += decoder.write(bytes.subarray(i, i + 65536));
    text += decoder.end();
    expect(text === source).to.equal(true);
    const cuts = [1, 2, 40_000, 300_000, 300_001, 700_000, 1_100_000, text.length - 3];
    expectExact(
      annotate((c) => decoder.byteMap.annotate(c), text, cuts),
      text,
    );
  });

  it('a long undecided link of dense text: the stream holds no copy of its bytes beyond 1 MiB', async () => {
    // DESIGN.md "Streaming contract": the stream holds back the undecided tail, as text. A raised maxLinkLength lets a
    // link of CJK grow to 8 MiB of bytes before it is released (a copy of all of them took 8-32 MiB of ArrayBuffer).
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const stream = createLinkStream({ maxLinkLength: 1 << 24 });
    const chunks: Chunk[] = [];
    stream.on('data', (c: Chunk) => chunks.push(c));
    const block = Buffer.from('猫'.repeat(21_845)); // 65,535 bytes, whole characters
    const head = 'https://例え.jp/';
    const write = (bytes: Buffer): Promise<void> => new Promise((resolve) => stream.write(bytes, () => resolve()));
    gc();
    const before = process.memoryUsage().arrayBuffers;
    await write(Buffer.from(head));
    for (let i = 0; i < 128; i++) await write(block);
    gc();
    const held = process.memoryUsage().arrayBuffers - before;
    expect(chunks).to.deep.equal([]); // the link is still undecided: all 8 MiB of it wait in the stream
    expect(held / 1048576, 'MiB of ArrayBuffers the stream holds').to.be.lessThan(4);
    stream.end();
    await new Promise<void>((resolve) => stream.on('end', resolve));
    const text = head + '猫'.repeat(21_845 * 128);
    expect(chunks.map((c) => [c.type, c.start, c.end])).to.deep.equal([['link', 0, text.length]]);
    expectExact(chunks as TextChunk[], text);
  });

  it('a chunk that ends between the two units of a surrogate pair gets the pair’s four bytes, and the chunks still tile', () => {
    const decoder = createDecoder('utf-8');
    const text = decoder.write(Buffer.from('😀😀😀😀'));
    const first: TextChunk = { type: 'text', text: text.slice(0, 3), start: 0, end: 3 };
    const second: TextChunk = { type: 'text', text: text.slice(3), start: 3, end: 8 };
    decoder.byteMap.annotate(first);
    decoder.byteMap.annotate(second);
    expect([first.byteStart, first.byteEnd, second.byteStart, second.byteEnd]).to.deep.equal([0, 8, 8, 16]);
  });

  it('a writer that reuses its buffer after each write: chunks released later still get the bytes they came from', async () => {
    // Dense text whose last link stays undecided at the end of each write: its chunk is annotated during a later write,
    // after the writer has overwritten the buffer it came in.
    const part = 'Ссылка: https://пример.рф/путь/' + 'страница'.repeat(40);
    const parts = [part, '/дальше ' + part, '/конец. '];
    const text = parts.join('');
    const stream = createLinkStream();
    const chunks: Chunk[] = [];
    stream.on('data', (c: Chunk) => chunks.push(c));
    const buffer = Buffer.alloc(4096);
    for (const p of parts) {
      const n = buffer.write(p);
      await new Promise<void>((resolve) =>
        stream.write(buffer.subarray(0, n), () => {
          buffer.fill(0xff); // the writer's buffer, reused: what the stream keeps must be its own copy
          resolve();
        }),
      );
    }
    stream.end();
    await new Promise<void>((resolve) => stream.on('end', resolve));
    expect(chunks.map((c) => c.text).join('')).to.equal(text);
    expect(chunks.some((c) => c.type === 'link' && c.text.includes('путь'))).to.equal(true);
    expectExact(chunks as TextChunk[], text);
  });
});

describe('UTF-8 decoder: one write or many, the same text', () => {
  it('a write too long for transcode (TextDecoder) gives what the same bytes give in 64 KiB writes', () => {
    const text = 'ascii https://a.example/ '.repeat(20_000) + 'Привет, 東京 😀 ’ '.repeat(40_000);
    const bytes = Buffer.from(text);
    expect(bytes.length).to.be.greaterThan(1_000_000); // past the limit, in one write
    const whole = createDecoder('utf-8');
    const pieces = createDecoder('utf-8');
    let inPieces = '';
    for (let i = 0; i < bytes.length; i += 65536) inPieces += pieces.write(bytes.subarray(i, i + 65536));
    expect(whole.write(bytes) + whole.end()).to.equal(text);
    expect(inPieces + pieces.end()).to.equal(text);
  });
});
