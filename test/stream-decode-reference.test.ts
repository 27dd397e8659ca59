// The stream's UTF-16 and UTF-32 decoders against references, whatever the writes (first written for a
// review). UTF-16LE/BE: Node's TextDecoder (WHATWG Encoding "shared UTF-16 decoder", a BOM of the label's order
// dropped). UTF-32LE/BE: the small reference below (Unicode §3.9 D90: a unit that is a surrogate or above U+10FFFF is
// ill-formed, one U+FFFD each; 1–3 bytes left at the end are one U+FFFD; a leading BOM is dropped). `utf-16` and
// `utf-32` without LE/BE: the byte order iconv.decode() picks for the whole input (a BOM, else the first 100 units).
import { expect } from 'chai';
import fc from 'fast-check';
import iconv from 'iconv-lite';
import { Readable } from 'node:stream';
import { createDecoder } from '../src/stream/decode.js';
import { createLinkStream } from '../src/stream/transform.js';
import type { Chunk } from '../src/types.js';
import { splitAt } from './support/split.js';

function decodeInWrites(encoding: string, input: Buffer, cuts: number[]): string {
  const decoder = createDecoder(encoding);
  let text = '';
  for (const part of splitAt(input, cuts)) text += decoder.write(part);
  return text + decoder.end();
}

function utf32Reference(input: Buffer, bigEndian: boolean): string {
  const unit = (i: number): number => (bigEndian ? input.readUInt32BE(i) : input.readUInt32LE(i));
  let text = '';
  let i = input.length >= 4 && unit(0) === 0xfeff ? 4 : 0;
  for (; i + 4 <= input.length; i += 4) {
    const cp = unit(i);
    text += cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) ? '\uFFFD' : String.fromCodePoint(cp);
  }
  return i < input.length ? text + '\uFFFD' : text;
}

/** The byte orders ('le', 'be') that iconv.decode(input, encoding) read `input` in: those giving its text. */
function iconvOrders(input: Buffer, encoding: 'utf-16' | 'utf-32'): ('le' | 'be')[] {
  const text = iconv.decode(input, encoding);
  return (['le', 'be'] as const).filter((order) => iconv.decode(input, encoding + order) === text);
}

// Bytes of surrogates, BOMs, U+FFFD and ASCII drawn more often than at random.
const utf16Byte = fc.oneof(fc.integer({ min: 0, max: 255 }), fc.constantFrom(0x00, 0x41, 0xd8, 0xdb, 0xdc, 0xdf, 0xfd, 0xfe, 0xff));
const utf32Unit = fc.oneof(
  fc.integer({ min: 0, max: 0x11ffff }),
  fc.constantFrom(0x41, 0xfeff, 0xfffd, 0xd800, 0xdfff, 0x10ffff, 0x110000, 0x1f600, 0xffffffff),
);

describe('stream decoder: UTF-16 and UTF-32 decoded as the references decode them, any writes', () => {
  for (const encoding of ['utf-16le', 'utf-16be'] as const) {
    it(`${encoding} = TextDecoder('${encoding}')`, () => {
      fc.assert(
        fc.property(fc.array(utf16Byte, { maxLength: 20 }), fc.array(fc.nat({ max: 24 }), { maxLength: 6 }), (raw, cuts) => {
          const input = Buffer.from(raw);
          const expected = new TextDecoder(encoding).decode(input);
          expect(decodeInWrites(encoding, input, cuts)).to.equal(expected);
          expect(decodeInWrites(encoding, input, [...input.keys()])).to.equal(expected); // a byte at a time
        }),
        { seed: 8, numRuns: 400 },
      );
    });
  }

  for (const [encoding, bigEndian] of [['utf-32le', false], ['utf-32be', true]] as const) {
    it(`${encoding} = the Unicode §3.9 reference`, () => {
      fc.assert(
        fc.property(fc.array(utf32Unit, { maxLength: 6 }), fc.array(fc.nat({ max: 255 }), { maxLength: 3 }), fc.array(fc.nat({ max: 28 }), { maxLength: 6 }), (units, tail, cuts) => {
          const input = Buffer.alloc(units.length * 4 + tail.length);
          units.forEach((u, k) => (bigEndian ? input.writeUInt32BE(u >>> 0, k * 4) : input.writeUInt32LE(u >>> 0, k * 4)));
          Buffer.from(tail).copy(input, units.length * 4);
          const expected = utf32Reference(input, bigEndian);
          expect(decodeInWrites(encoding, input, cuts)).to.equal(expected);
          expect(decodeInWrites(encoding, input, [...input.keys()])).to.equal(expected);
        }),
        { seed: 8, numRuns: 400 },
      );
    });
  }
});

// Units that read as ASCII in one order and not the other, and units that tell nothing, mixed: inputs of up to 150
// units, so that the first 100 decide and what follows them does not.
const asciiLe = fc.integer({ min: 1, max: 0xff }).map((b) => [b, 0]);
const asciiBe = fc.integer({ min: 1, max: 0xff }).map((b) => [0, b]);
const other16 = fc.tuple(fc.integer({ min: 1, max: 255 }), fc.integer({ min: 1, max: 255 })).map(([a, b]) => [a, b]);
const bom16 = fc.constantFrom([0xff, 0xfe], [0xfe, 0xff]);

describe('stream decoder: `utf-16` and `utf-32` without LE/BE take the byte order iconv.decode() takes, any writes', () => {
  it('utf-16: a BOM, else the order in which more of the first 100 units read U+0001–U+00FF, little-endian on a tie', () => {
    fc.assert(
      fc.property(
        fc.option(bom16, { nil: undefined }),
        fc.array(fc.oneof(asciiLe, asciiBe, other16, other16), { maxLength: 150 }),
        fc.array(fc.nat({ max: 320 }), { maxLength: 5 }),
        (bom, units, cuts) => {
          const input = Buffer.from([...(bom ?? []), ...units.flat()]);
          const orders = iconvOrders(input, 'utf-16');
          const ours = decodeInWrites('utf-16', input, cuts);
          const matches = orders.filter((order) => new TextDecoder(`utf-16${order}`).decode(input) === ours);
          expect(matches, `iconv-lite read it as ${orders.join(' or ')}`).to.not.be.empty;
        },
      ),
      { seed: 16, numRuns: 300 },
    );
  });

  it('utf-32: a BOM, else the order in which more of the first 100 units are U+0001–U+FFFF less those no code point', () => {
    const unit = fc.oneof(fc.integer({ min: 1, max: 0xffff }), fc.integer({ min: 0, max: 0xffffffff }));
    fc.assert(
      fc.property(fc.boolean(), fc.array(fc.tuple(unit, fc.boolean()), { maxLength: 150 }), fc.array(fc.nat({ max: 640 }), { maxLength: 5 }), (bom, units, cuts) => {
        const input = Buffer.alloc((units.length + (bom ? 1 : 0)) * 4);
        let at = 0;
        if (bom) at = input.writeUInt32BE(0xfeff, 0);
        for (const [u, big] of units) at = big ? input.writeUInt32BE(u >>> 0, at) : input.writeUInt32LE(u >>> 0, at);
        const orders = iconvOrders(input, 'utf-32');
        const ours = decodeInWrites('utf-32', input, cuts);
        const matches = orders.filter((order) => utf32Reference(input, order === 'be') === ours);
        expect(matches, `iconv-lite read it as ${orders.join(' or ')}`).to.not.be.empty;
      }),
      { seed: 32, numRuns: 300 },
    );
  });

  async function links(input: Buffer, encoding: string): Promise<string[]> {
    const out: string[] = [];
    for await (const chunk of Readable.from([input], { objectMode: true }).pipe(createLinkStream({ encoding }))) {
      if ((chunk as Chunk).type === 'link') out.push((chunk as Chunk).text);
    }
    return out;
  }

  // Found in review: big-endian text whose first 8 characters are not ASCII was read little-endian (the order was decided
  // on 8 units, a tie), and gave no link.
  const text = '日本語の文章です see http://x.jp\n';
  it(`utf-16, big-endian without a BOM, 8 kanji/kana first: 日本語の文章です see ⸠http://x.jp⸡`, async () => {
    expect(await links(Buffer.from(text, 'utf16le').swap16(), 'utf-16')).to.deep.equal(['http://x.jp']);
    expect(await links(Buffer.from(text, 'utf16le'), 'utf-16')).to.deep.equal(['http://x.jp']);
  });

  it(`utf-32, big-endian without a BOM, 8 kanji/kana first: 日本語の文章です see ⸠http://x.jp⸡`, async () => {
    const be = Buffer.alloc(text.length * 4);
    [...text].forEach((c, k) => be.writeUInt32BE(c.codePointAt(0)!, k * 4));
    expect(await links(be, 'utf-32')).to.deep.equal(['http://x.jp']);
    expect(await links(Buffer.from(be).swap32(), 'utf-32')).to.deep.equal(['http://x.jp']);
  });
});
