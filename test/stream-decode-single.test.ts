// Single-byte charsets whose text is always NFC take SingleByteDecoder (src/stream/decode.ts): no NFC stage, no
// per-unit byte record. It must give what the general path (LegacyDecoder: NFC stage, ByteMap 'units') gives, for
// every such charset the stream takes, any bytes, any writes: the same text, and the same byteStart/byteEnd and
// diagnostics on any chunks over it. Both paths decode through TableCodec.decode (its Latin-1 shortcuts), so the text
// is also held to the table read byte by byte.
import { expect } from 'chai';
import fc from 'fast-check';
import { Readable } from 'node:stream';
import { createDecoder, createGeneralDecoder, decodesAsSingleBytes, streamEncodings, type Decoder } from '../src/stream/decode.js';
import { createLinkStream } from '../src/stream/transform.js';
import { planOf } from '../src/charsets.js';
import type { Chunk, TextChunk } from '../src/types.js';
import { splitAt } from './support/split.js';

function decodeInWrites(decoder: Decoder, input: Buffer, cuts: number[]): string {
  let text = '';
  for (const part of splitAt(input, cuts)) text += decoder.write(part);
  return text + decoder.end();
}

/** Text chunks tiling `text`, cut at `cuts` (each modulo length + 1), annotated in order by `decoder`'s ByteMap. */
function annotated(decoder: Decoder, text: string, cuts: number[]): TextChunk[] {
  const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
  const chunks: TextChunk[] = [];
  let last = 0;
  for (const p of [...points, text.length]) {
    if (p <= last) continue;
    const chunk: TextChunk = { type: 'text', text: text.slice(last, p), start: last, end: p };
    decoder.byteMap.annotate(chunk);
    chunks.push(chunk);
    last = p;
  }
  return chunks;
}

/**
 * The reference text: each byte its table entry, one at a time (TableCodec.unitOf), not through TableCodec.decode,
 * which both paths share.
 */
function tableText(encoding: string, input: Buffer): string {
  const plan = planOf(encoding);
  if (plan.kind !== 'legacy' || plan.single === null) throw new Error(`${encoding} is not single-byte`);
  let text = '';
  for (const b of input) text += String.fromCharCode(plan.single.unitOf(b));
  return text;
}

const fastEncodings = streamEncodings().filter((e) => decodesAsSingleBytes(e));

// Any byte, with runs of ASCII letters and the bytes most tables map away from Latin-1 (0x80–0x9F) made likelier.
const byte = fc.oneof(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0x61, max: 0x7a }), fc.integer({ min: 0x80, max: 0x9f }));

describe('stream decoder: single-byte charsets always NFC = the general path', () => {
  it('most single-byte charsets take it, the windows-1252 of mail and logs among them; windows-1258 does not', () => {
    expect(fastEncodings.length).to.be.at.least(40);
    expect(decodesAsSingleBytes('windows-1252')).to.equal(true);
    expect(decodesAsSingleBytes('latin1')).to.equal(true);
    expect(decodesAsSingleBytes('koi8-r')).to.equal(true);
    expect(decodesAsSingleBytes('windows-1251')).to.equal(true);
    // windows-1258 holds combining marks (0xCC is U+0300): its text is normalised, A + U+0300 → À.
    expect(decodesAsSingleBytes('windows-1258')).to.equal(false);
    expect(decodeInWrites(createDecoder('windows-1258'), Buffer.from([0x41, 0xcc]), [])).to.equal('\u00c0');
    expect(decodesAsSingleBytes('utf-8')).to.equal(false);
    expect(decodesAsSingleBytes('shift_jis')).to.equal(false);
  });

  it('windows-1252: C1 bytes are their WHATWG characters, the rest Latin-1, split anywhere', () => {
    const input = Buffer.from([0x93, 0x63, 0x61, 0x66, 0xe9, 0x94, 0x20, 0x80, 0x35, 0x81]);
    for (const cuts of [[], [1], [5, 6], [...input.keys()]]) {
      expect(decodeInWrites(createDecoder('windows-1252'), input, cuts)).to.equal('“café” €5\u0081');
    }
    const ascii = createDecoder('windows-1252');
    expect(ascii.write(Buffer.from('see http://a.example/'))).to.equal('see http://a.example/');
    expect(ascii.flatOutput).to.equal(true);
    expect(ascii.bidiFree).to.equal(true);
  });

  it('a byte the charset lacks (ISO-8859-3 0xA5) is U+FFFD with invalid-bytes, one byte wide', () => {
    const decoder = createDecoder('iso-8859-3');
    const text = decodeInWrites(decoder, Buffer.from([0x61, 0xa5, 0x62, 0x63]), [2]);
    expect(text).to.equal('a\uFFFDbc');
    expect(annotated(decoder, text, [1, 2]).map((c) => [c.text, c.byteStart, c.byteEnd, c.diagnostics])).to.deep.equal([
      ['a', 0, 1, undefined],
      ['\uFFFD', 1, 2, ['invalid-bytes']],
      ['bc', 2, 4, undefined],
    ]);
  });

  for (const encoding of fastEncodings) {
    it(`${encoding}: same text, byte offsets and diagnostics as the general path, any bytes, any writes`, () => {
      fc.assert(
        fc.property(
          fc.array(byte, { maxLength: 120 }),
          fc.array(fc.nat({ max: 130 }), { maxLength: 6 }),
          fc.array(fc.nat({ max: 130 }), { maxLength: 8 }),
          (raw, writeCuts, chunkCuts) => {
            const input = Buffer.from(raw);
            const fast = createDecoder(encoding);
            const general = createGeneralDecoder(encoding);
            const text = decodeInWrites(fast, input, writeCuts);
            expect(text).to.equal(tableText(encoding, input));
            expect(text).to.equal(decodeInWrites(general, input, []));
            expect(fast.documentCharset).to.equal(general.documentCharset);
            expect(annotated(fast, text, chunkCuts)).to.deep.equal(annotated(general, text, chunkCuts));
          },
        ),
        { seed: 1252, numRuns: 60 },
      );
    });
  }

  it('long writes with few bytes away from Latin-1 (fixed one by one) and with many (looked up): as the general path', () => {
    const high = fc.oneof(fc.integer({ min: 0x80, max: 0x9f }), fc.integer({ min: 0xa0, max: 0xff }));
    const sparse = fc.array(fc.tuple(fc.nat({ max: 4095 }), high), { maxLength: 300 });
    fc.assert(
      fc.property(fc.constantFrom('windows-1252', 'iso-8859-15', 'windows-1254', 'koi8-r'), sparse, (encoding, marks) => {
        const input = Buffer.alloc(4096, 0x61);
        for (const [at, b] of marks) input[at] = b;
        const text = decodeInWrites(createDecoder(encoding), input, []);
        expect(text).to.equal(tableText(encoding, input));
        expect(text).to.equal(decodeInWrites(createGeneralDecoder(encoding), input, []));
      }),
      { seed: 874, numRuns: 200 },
    );
  });

  it('every byte of every such charset, one write and one byte a write', () => {
    const all = Buffer.from(Array.from({ length: 256 }, (_, b) => b));
    for (const encoding of fastEncodings) {
      const fast = createDecoder(encoding);
      const general = createGeneralDecoder(encoding);
      const text = decodeInWrites(fast, all, [...all.keys()]);
      expect(text, encoding).to.equal(tableText(encoding, all));
      expect(decodeInWrites(createDecoder(encoding), all, []), encoding).to.equal(text);
      expect(text, encoding).to.equal(decodeInWrites(general, all, []));
      const cuts = [...all.keys()];
      expect(annotated(fast, text, cuts), encoding).to.deep.equal(annotated(general, text, cuts));
    }
  });
});

async function streamChunks(encoding: string, input: Buffer, cuts: number[]): Promise<Chunk[]> {
  const chunks: Chunk[] = [];
  for await (const chunk of Readable.from(splitAt(input, cuts), { objectMode: true }).pipe(createLinkStream({ encoding }))) {
    chunks.push(chunk as Chunk);
  }
  return chunks;
}

/** Adjacent text chunks merged (the stream's contract: chunks do not depend on the writes once merged). */
function merged(chunks: Chunk[]): [string, string, number | undefined, number | undefined][] {
  const out: [string, string, number | undefined, number | undefined][] = [];
  for (const c of chunks) {
    const last = out[out.length - 1];
    if (c.type === 'text' && last !== undefined && last[0] === 'text' && last[3] === c.byteStart) {
      last[1] += c.text;
      last[3] = c.byteEnd;
    } else out.push([c.type, c.text, c.byteStart, c.byteEnd]);
  }
  return out;
}

describe('createLinkStream over a single-byte charset always NFC', () => {
  it('windows-1252: a link between C1 quotes, byte offsets = UTF-16 offsets, the same for any writes', async () => {
    const input = Buffer.from([0x93, ...Buffer.from('http://example.com/caf'), 0xe9, 0x94, 0x20, 0x61]);
    const expected = [
      ['text', '“', 0, 1],
      ['link', 'http://example.com/café', 1, 24],
      ['text', '” a', 24, 27],
    ];
    for (const cuts of [[], [1, 20], [...input.keys()]]) {
      const chunks = await streamChunks('windows-1252', input, cuts);
      expect(merged(chunks)).to.deep.equal(expected);
      expect(chunks.find((c) => c.type === 'link')?.diagnostics ?? []).to.not.include('invalid-bytes');
    }
  });

  it('any bytes: chunks tile the input byte for byte, invalid-bytes exactly where a U+FFFD is, whatever the writes', async () => {
    const linky = fc.oneof(byte, fc.constantFrom(...Buffer.from('http://a.b/ www.x.org @ .')));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('windows-1252', 'iso-8859-3', 'koi8-r', 'windows-1253'), fc.array(linky, { maxLength: 80 }), fc.array(fc.nat({ max: 90 }), { maxLength: 5 }), async (encoding, raw, cuts) => {
        const input = Buffer.from(raw);
        const chunks = await streamChunks(encoding, input, cuts);
        expect(chunks.map((c) => c.text).join('')).to.equal(decodeInWrites(createGeneralDecoder(encoding), input, []));
        for (const c of chunks) {
          expect([c.byteStart, c.byteEnd]).to.deep.equal([c.start, c.end]);
          expect((c.diagnostics ?? []).includes('invalid-bytes')).to.equal(c.text.includes('\uFFFD'));
        }
      }),
      { seed: 1251, numRuns: 150 },
    );
  });
});
