// The streaming contract (DESIGN.md "Streaming contract"): lossless, chunking-invariant (also for splits
// inside UTF-8 sequences, surrogate pairs and CRLF), exact byte offsets, invalid bytes and BOM, legacy
// charsets, backpressure, errors, for-await and pipeline.
import { expect } from 'chai';
import fc from 'fast-check';
import iconv from 'iconv-lite';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import through2 from 'through2';
import { createScanner, linkify } from '../src/detect/index.js';
import type { Scanner } from '../src/detect/index.js';
import { IncrementalLinkifier } from '../src/stream/incremental.js';
import type { LinkOptions } from '../src/detect/index.js';
import { Linkifier } from '../src/stream/linkifier.js';
import { createLinkStream } from '../src/stream/transform.js';
import type { StreamOptions } from '../src/stream/transform.js';
import type { Chunk } from '../src/types.js';
import { loggingPushes, loggingSource } from './support/read-order.js';
import { splitAt, splitString } from './support/split.js';

// ---- helpers ----

async function collect(stream: AsyncIterable<unknown>): Promise<Chunk[]> {
  const out: Chunk[] = [];
  for await (const chunk of stream) out.push(chunk as Chunk);
  return out;
}

/** Streams `parts` through createLinkStream, writing with backpressure, and collects the chunks. */
async function streamParts(parts: (Buffer | string)[], options?: StreamOptions): Promise<Chunk[]> {
  // Object mode, so that strings reach the link stream as strings (not converted to Buffers).
  return collect(Readable.from(parts, { objectMode: true }).pipe(createLinkStream(options)));
}

/** Merges adjacent text chunks (the streaming contract compares chunks after this). */
function merge(chunks: Chunk[]): Chunk[] {
  const out: Chunk[] = [];
  for (const chunk of chunks) {
    const last = out[out.length - 1];
    if (chunk.type === 'text' && last !== undefined && last.type === 'text') {
      const merged: Chunk = { ...last, text: last.text + chunk.text, end: chunk.end };
      if (chunk.byteEnd !== undefined) merged.byteEnd = chunk.byteEnd;
      const diagnostics = [...new Set([...(last.diagnostics ?? []), ...(chunk.diagnostics ?? [])])];
      if (diagnostics.length > 0) merged.diagnostics = diagnostics;
      out[out.length - 1] = merged;
    } else out.push({ ...chunk });
  }
  return out;
}

/** The chunks without the fields only a byte stream adds. */
function withoutBytes(chunks: Chunk[]): Chunk[] {
  return chunks.map((c) => {
    const { byteStart: _s, byteEnd: _e, ...rest } = c;
    if (rest.type === 'text' && rest.diagnostics === undefined) delete rest.diagnostics;
    return rest as Chunk;
  });
}

function joined(chunks: Chunk[]): string {
  return chunks.map((c) => c.text).join('');
}

/** Marker rendering of the links, for failures that show the answer at a glance. */
function markers(chunks: Chunk[]): string {
  return chunks.map((c) => (c.type === 'link' ? `⸠${c.text}⸡` : c.text)).join('');
}

// Text built from pieces that exercise the scanner: links in several scripts, emails, punctuation that
// may or may not end a link, CRLF, astral characters, brackets and quotes — plus arbitrary strings.
const piece = fc.oneof(
  fc.constantFrom(
    'https://例え.jp/パス', 'http://example.com/a_(b)', 'see ', ' ', '\r\n', '\r', '\n', '\t', 'example.com',
    'www.straße.de/öffnungszeiten', 'user@example.org', 'jürgen.müller@beispiel.de', '。', '、', '(', ')', '"',
    '“', '”', '<', '>', '.', ',', '!', '?', ':', '/', '😀', '𠮷', 'Ω', 'ab', 'https://пример.рф/логи?q=1#x',
    'mailto:a@b.jp', '<http://a.example/b\n  /c>', 'ftp://files.example/x.tar.gz', '\uFEFF', '\u202E', 'README.md',
    '詳細はhttps://ja.wikipedia.org/wiki/東京', 'ftp', '://', '%E4%BE%8B', '[', ']', '「', '」',
  ),
  fc.string({ unit: 'binary', maxLength: 6 }).map((s) => Buffer.from(s, 'utf8').toString('utf8')),
);
const textArb = fc.array(piece, { maxLength: 24 }).map((p) => p.join(''));
const cutsArb = fc.array(fc.nat({ max: 100_000 }), { maxLength: 12 });

// ---- tests ----

describe('createLinkStream: chunking invariance (DESIGN.md "Streaming contract")', () => {
  it('for any text and any split of its UTF-8 bytes, the merged chunks equal linkify(text) and join back to it', async () => {
    await fc.assert(
      fc.asyncProperty(textArb, cutsArb, async (text, cuts) => {
        const bytes = Buffer.from(text, 'utf8');
        const chunks = await streamParts(splitAt(bytes, cuts));
        // A U+FEFF at the very start is a BOM in UTF-8 and is dropped (WHATWG Encoding "decode").
        const decoded = text.startsWith('\uFEFF') ? text.slice(1) : text;
        expect(joined(chunks)).to.equal(decoded);
        const merged = merge(chunks);
        expect(markers(merged)).to.equal(markers(linkify(decoded)));
        expect(withoutBytes(merged)).to.deep.equal(linkify(decoded));
      }),
      { numRuns: 300 },
    );
  });

  it('byteStart/byteEnd are the UTF-8 lengths of the text before and up to each chunk', async () => {
    await fc.assert(
      fc.asyncProperty(textArb, cutsArb, async (text, cuts) => {
        const chunks = await streamParts(splitAt(Buffer.from(text, 'utf8'), cuts));
        const bom = text.startsWith('\uFEFF') ? 3 : 0;
        if (bom > 0) text = text.slice(1);
        for (const c of chunks) {
          // No chunk boundary falls inside a surrogate pair.
          expect(c.text.charCodeAt(0) >= 0xdc00 && c.text.charCodeAt(0) <= 0xdfff, JSON.stringify(c.text)).to.equal(false);
          expect(c.byteStart, `byteStart of ${JSON.stringify(c.text)}`).to.equal(bom + Buffer.byteLength(text.slice(0, c.start)));
          expect(c.byteEnd, `byteEnd of ${JSON.stringify(c.text)}`).to.equal(bom + Buffer.byteLength(text.slice(0, c.end)));
        }
      }),
      { numRuns: 200 },
    );
  });

  it('string input split anywhere (inside surrogate pairs, between \\r and \\n) gives the same chunks, without byte offsets', async () => {
    await fc.assert(
      fc.asyncProperty(textArb, cutsArb, async (text, cuts) => {
        const chunks = await streamParts(splitString(text, cuts));
        expect(joined(chunks)).to.equal(text);
        for (const c of chunks) expect(c).to.not.have.property('byteStart');
        expect(merge(chunks)).to.deep.equal(linkify(text));
      }),
      { numRuns: 200 },
    );
  });

  it('splits a surrogate pair and a CRLF: "😀https://例え.jp/\\r\\n" cut at every position', async () => {
    const text = 'a😀 https://例え.jp/😀\r\nb https://x.example/\r\n';
    const expected = linkify(text);
    expect(markers(expected)).to.equal('a😀 ⸠https://例え.jp/😀⸡\r\nb ⸠https://x.example/⸡\r\n');
    for (let i = 1; i < text.length; i++) {
      const chunks = await streamParts([text.slice(0, i), text.slice(i)]);
      expect(merge(chunks), `cut at ${i}`).to.deep.equal(expected);
    }
    const bytes = Buffer.from(text);
    for (let i = 1; i < bytes.length; i++) {
      const chunks = await streamParts([bytes.subarray(0, i), bytes.subarray(i)]);
      expect(withoutBytes(merge(chunks)), `byte cut at ${i}`).to.deep.equal(expected);
    }
  });

  it('Linkifier push()/end() gives the same chunks as linkify for any split of the string', () => {
    fc.assert(
      fc.property(textArb, cutsArb, (text, cuts) => {
        const linkifier = new Linkifier();
        const chunks: Chunk[] = [];
        for (const part of splitString(text, cuts)) chunks.push(...linkifier.push(part));
        chunks.push(...linkifier.end());
        expect(merge(chunks)).to.deep.equal(linkify(text));
        // Offsets are over the whole stream and the chunks tile it.
        let pos = 0;
        for (const c of chunks) {
          expect(c.start).to.equal(pos);
          expect(c.text).to.equal(text.slice(c.start, c.end));
          pos = c.end;
        }
        expect(pos).to.equal(text.length);
      }),
      { numRuns: 300 },
    );
  });

  it('passes options through to the scanner (same chunks as linkify with the same options)', async () => {
    const text = 'mail aiko@example.jp or visit example.com and https://例え.jp/';
    for (const options of [{ email: false }, { schemeless: false }] as LinkOptions[]) {
      const chunks = merge(await streamParts([text], options as StreamOptions));
      expect(chunks).to.deep.equal(linkify(text, options));
    }
  });
});

// Long texts, for what short ones never reach: pushes longer than the linkifier's head (scanned in place once the
// scan has settled into them), long runs without a barrier (copied piece by piece), and the byte map's two ways of
// counting UTF-8 (mostly-ASCII text: the extra bytes of its few non-ASCII characters; denser text: byteLength).
const prose = fc.constantFrom(
  'The quick brown fox jumps over the lazy dog. ', 'see https://example.com/a/b?c=d for details, ', 'mail bob@example.org; ',
  'It’s “quoted” — fine. ', 'café naïve résumé ', 'https://例え.jp/パス。', '東京都の詳細は https://ja.wikipedia.org/wiki/東京 を参照。',
  '😀 𠮷 ', 'Привет, мир: https://пример.рф/логи ', '\r\n', 'example.com. ', '(https://x.example/a_(b)) ',
);
const longRun = fc.integer({ min: 1, max: 40 }).map((n) => 'x'.repeat(n * 100)); // no barrier for up to 4000 units
const longTextArb = fc
  .array(fc.oneof({ weight: 6, arbitrary: prose }, { weight: 1, arbitrary: longRun }, { weight: 1, arbitrary: piece }), {
    minLength: 20,
    maxLength: 400,
  })
  .map((p) => p.join(''));
const longCutsArb = fc.array(fc.nat({ max: 1_000_000 }), { maxLength: 8 });

describe('createLinkStream: long writes', () => {
  it('any split of a long text: the merged chunks equal linkify(text); byte offsets are the UTF-8 lengths before each chunk', async () => {
    await fc.assert(
      fc.asyncProperty(longTextArb, longCutsArb, fc.nat({ max: 3 }), async (text, cuts, shift) => {
        // The bytes start `shift` bytes into their ArrayBuffer: word-at-a-time reads must not assume alignment.
        const whole = Buffer.alloc(Buffer.byteLength(text) + shift);
        whole.write(text, shift);
        const chunks = await streamParts(splitAt(whole.subarray(shift), cuts));
        const decoded = text.startsWith('\uFEFF') ? text.slice(1) : text;
        const bom = decoded === text ? 0 : 3;
        expect(joined(chunks)).to.equal(decoded);
        expect(withoutBytes(merge(chunks))).to.deep.equal(linkify(decoded));
        for (const c of chunks) {
          expect([c.byteStart, c.byteEnd], JSON.stringify(c.text)).to.deep.equal([
            bom + Buffer.byteLength(decoded.slice(0, c.start)),
            bom + Buffer.byteLength(decoded.slice(0, c.end)),
          ]);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('mostly-ASCII, dense and invalid stretches in one stream: each chunk’s bytes decode to its text, and they tile the input', async () => {
    const stretch = fc.oneof(
      fc.constantFrom('plain ascii text with a link https://a.example/x and more words ', 'é', '’', '😀', '東京'),
      fc.integer({ min: 1, max: 30 }).map((n) => '東京都 https://例え.jp/パス '.repeat(n)),
      fc.integer({ min: 1, max: 30 }).map((n) => 'ascii only, https://b.example/y. '.repeat(n)),
      fc.constantFrom(Buffer.from([0xff]), Buffer.from([0xe3, 0x81]), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from([0xf0, 0x9f])),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(stretch, { minLength: 1, maxLength: 60 }), longCutsArb, async (parts, cuts) => {
        const bytes = Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : p)));
        const chunks = await streamParts(splitAt(bytes, cuts));
        const text = new TextDecoder('utf-8').decode(bytes);
        expect(joined(chunks)).to.equal(text);
        expect(merge(chunks)).to.deep.equal(merge(await streamParts([bytes])));
        let pos = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
        for (const c of chunks) {
          expect(c.byteStart).to.equal(pos);
          expect(new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes.subarray(c.byteStart, c.byteEnd))).to.equal(c.text);
          pos = c.byteEnd!;
        }
        expect(pos).to.equal(bytes.length);
      }),
      { numRuns: 60 },
    );
  });

  it('Linkifier with a raised maxLinkLength: a long undecided link in small pushes is read O(input) times in all, not once per push', () => {
    // The scanner decides a link from its start; one scan per push would read the whole undecided link each time.
    const options = { maxLinkLength: 2 ** 28 };
    const counting = (): { scanner: Scanner; read: () => number } => {
      const inner = createScanner(options);
      let units = 0;
      const scanner: Scanner = {
        contextLength: inner.contextLength,
        scan(text, from, final, base, resume) {
          units += text.length - from;
          return inner.scan(text, from, final, base, resume);
        },
      };
      return { scanner, read: () => units };
    };
    for (const [body, push] of [['a.', 64], ['(', 1024], ['a/b', 4096]] as const) {
      const text = 'see http://x/' + body.repeat(Math.ceil(400_000 / body.length)) + ' ok. http://y.example/ end';
      const { scanner, read } = counting();
      const linkifier = new IncrementalLinkifier(scanner);
      const out: Chunk[] = [];
      for (let i = 0; i < text.length; i += push) out.push(...linkifier.push(text.slice(i, i + push)));
      out.push(...linkifier.end());
      expect(merge(out)).to.deep.equal(linkify(text, options));
      expect(read(), `${body} in pushes of ${push}`).to.be.below(8 * text.length);
    }
  });

  it('Linkifier with a raised maxLinkLength: the same chunks for any split of text with long undecided runs', () => {
    const options = { maxLinkLength: 2 ** 28 };
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('a.', '(', ')', 'x', '/', ' ', 'é', '。'), { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 5_000, max: 40_000 }),
        fc.array(fc.integer({ min: 1, max: 9_000 }), { minLength: 1, maxLength: 30 }),
        (units, length, sizes) => {
          let text = 'http://x/';
          for (let k = 0; text.length < length; k++) text += units[k % units.length];
          text += ' https://b.example/ tail';
          const linkifier = new Linkifier(options);
          const out: Chunk[] = [];
          for (let i = 0, k = 0; i < text.length; k++) {
            const j = Math.min(text.length, i + sizes[k % sizes.length]!);
            out.push(...linkifier.push(text.slice(i, j)));
            i = j;
          }
          out.push(...linkifier.end());
          expect(merge(out)).to.deep.equal(linkify(text, options));
        },
      ),
      { numRuns: 25, seed: 3987 },
    );
  });

  it('Linkifier: push() and pushFlat() refuse what is not a string, naming the method', () => {
    for (const bad of [undefined, null, 42, Buffer.from('a.com'), ['a.com']]) {
      expect(() => new Linkifier().push(bad as unknown as string)).to.throw(TypeError, /^irilink: Linkifier\.push\(\): text must be a string/);
      expect(() => new Linkifier().pushFlat(bad as unknown as string)).to.throw(TypeError, /^irilink: Linkifier\.pushFlat\(\): text must be a string/);
    }
  });

  it('Linkifier: pushFlat() (a push scanned where it lies) gives the chunks push() gives, for any split of a long text', () => {
    fc.assert(
      fc.property(longTextArb, longCutsArb, (text, cuts) => {
        const parts = splitString(text, cuts);
        const run = (flat: boolean): Chunk[] => {
          const linkifier = new Linkifier();
          const out: Chunk[] = [];
          for (const part of parts) out.push(...(flat ? linkifier.pushFlat(part) : linkifier.push(part)));
          out.push(...linkifier.end());
          return out;
        };
        const flat = run(true);
        expect(merge(flat)).to.deep.equal(merge(run(false)));
        expect(merge(flat)).to.deep.equal(linkify(text));
        let pos = 0;
        for (const c of flat) {
          expect(c.start).to.equal(pos);
          expect(c.text).to.equal(text.slice(c.start, c.end));
          pos = c.end;
        }
        expect(pos).to.equal(text.length);
      }),
      { numRuns: 60 },
    );
  });
});

describe('createLinkStream: a link cut at maxLinkLength', () => {
  // The rest of a cut link's run is that link's: no link starts in it (src/detect/scanner.ts cutRunEnd). The stream
  // settles through it and carries that fact from one scan to the next (ScanResume.cutRun), across pushes scanned in
  // the tail and in place.
  const run = (n: number): string => 'https://example.com/?a=' + 'é'.repeat(n) + '&u=www.example.org/x&v=a@b.example';
  const text = `see ${run(9_000)} and www.example.net; {"u":"${run(70_000)}","v":"https://example.net/y"} ${run(200_000)}\u2067www.example.net/z`;
  const expected = ['www.example.net', 'https://example.net/y', 'www.example.net/z'];

  it('whole: the cut links, then only the links after each run', () => {
    const links = linkify(text).filter((c) => c.type === 'link');
    expect(links.filter((l) => l.diagnostics.includes('link-too-long'))).to.have.length(3);
    expect(links.filter((l) => !l.diagnostics.includes('link-too-long')).map((l) => l.text)).to.deep.equal(expected);
  });

  it('any split of its bytes, and any split of its text through push() and pushFlat(): the same chunks', async () => {
    const bytes = Buffer.from(text);
    const whole = linkify(text);
    await fc.assert(
      fc.asyncProperty(longCutsArb, fc.boolean(), async (cuts, flat) => {
        expect(withoutBytes(merge(await streamParts(splitAt(bytes, cuts.map((c) => c % bytes.length)))))).to.deep.equal(whole);
        const linkifier = new Linkifier();
        const out: Chunk[] = [];
        for (const part of splitString(text, cuts.map((c) => c % text.length))) out.push(...(flat ? linkifier.pushFlat(part) : linkifier.push(part)));
        out.push(...linkifier.end());
        expect(merge(out)).to.deep.equal(whole);
      }),
      { numRuns: 25 },
    );
  });
});

describe('createLinkStream: UTF-8 decoding (WHATWG Encoding "UTF-8 decoder")', () => {
  const decoder = new TextDecoder('utf-8');

  it('any byte sequence, split anywhere: never throws, text as TextDecoder gives it, chunks tile the bytes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 64 }), cutsArb, async (raw, cuts) => {
        const bytes = Buffer.from(raw);
        const whole = await streamParts(bytes.length > 0 ? [bytes] : []);
        const chunks = await streamParts(splitAt(bytes, cuts));
        // A UTF-16 BOM (FF FE, FE FF) makes the bytes UTF-16 (WHATWG Encoding §6 "decode"; TextDecoder('utf-8') does
        // not sniff it).
        const utf16 = bytes[0] === 0xff && bytes[1] === 0xfe ? 'utf-16le' : bytes[0] === 0xfe && bytes[1] === 0xff ? 'utf-16be' : null;
        const text = utf16 === null ? decoder.decode(bytes) : new TextDecoder(utf16).decode(bytes);
        expect(joined(chunks)).to.equal(text);
        expect(merge(chunks)).to.deep.equal(merge(whole));
        // Chunks tile the bytes after a BOM; each chunk's bytes decode to its text.
        const bom = utf16 !== null ? 2 : bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
        let pos = bom;
        for (const c of chunks) {
          expect(c.byteStart).to.equal(pos);
          const slice = new TextDecoder(utf16 ?? 'utf-8', { ignoreBOM: true }).decode(bytes.subarray(c.byteStart, c.byteEnd));
          expect(slice).to.equal(c.text);
          pos = c.byteEnd!;
        }
        expect(pos).to.equal(chunks.length === 0 ? pos : bytes.length);
      }),
      { numRuns: 500 },
    );
  });

  it('a UTF-16 byte order mark first (FF FE, FE FF) wins over UTF-8, split anywhere: the links of PowerShell 5 output', async () => {
    const body = 'see https://例え.jp/x and a@example.org\r\n';
    for (const [bom, order] of [[[0xff, 0xfe], 'utf16le'], [[0xfe, 0xff], 'utf16be']] as const) {
      const le = Buffer.from(body, 'utf16le');
      const bytes = Buffer.concat([Buffer.from(bom), order === 'utf16le' ? le : Buffer.from(le).swap16()]);
      for (const cuts of [[], [1], [1, 2], [3], [2, 9, 10]]) {
        const chunks = await streamParts(splitAt(bytes, cuts));
        expect(joined(chunks), `${order} ${cuts}`).to.equal(body); // it was U+FFFD and letters between NULs
        expect(chunks.filter((c) => c.type === 'link').map((c) => [c.text, c.byteStart, c.byteEnd])).to.deep.equal([
          ['https://例え.jp/x', 10, 40],
          ['a@example.org', 50, 76],
        ]);
      }
    }
    // Without one nothing changes, also for input shorter than a BOM (held until the end).
    expect(joined(await streamParts([Buffer.from([0x68, 0x69])]))).to.equal('hi');
    expect(joined(await streamParts([Buffer.from([0xff])]))).to.equal('\uFFFD');
  });

  const cases: [string, number[], string, [number, number][]][] = [
    // [name, bytes, decoded text, byte ranges of the chunks]
    ['a lone 0xFF', [0x61, 0xff, 0x62], 'a\uFFFDb', [[0, 3]]],
    ['a truncated 3-byte sequence before ASCII', [0xe3, 0x81, 0x20], '\uFFFD ', [[0, 3]]],
    ['a surrogate encoded in UTF-8 (ED A0 80): three replacements', [0xed, 0xa0, 0x80], '\uFFFD\uFFFD\uFFFD', [[0, 3]]],
    ['an overlong "/" (C0 AF)', [0xc0, 0xaf], '\uFFFD\uFFFD', [[0, 2]]],
    ['a truncated 4-byte sequence at the end', [0x78, 0xf0, 0x9f, 0x98], 'x\uFFFD', [[0, 4]]],
  ];
  for (const [name, raw, text, ranges] of cases) {
    it(`${name} → U+FFFD with invalid-utf8, byte offsets exact`, async () => {
      const bytes = Buffer.from(raw);
      for (let cut = 0; cut <= bytes.length; cut++) {
        const chunks = merge(await streamParts(splitAt(bytes, [cut])));
        expect(joined(chunks)).to.equal(text);
        expect(chunks.map((c) => [c.byteStart, c.byteEnd])).to.deep.equal(ranges);
        expect(chunks[0]!.diagnostics).to.deep.equal(['invalid-utf8']);
      }
    });
  }

  it('puts invalid-utf8 on the link when the replaced bytes land inside one', async () => {
    const bytes = Buffer.concat([Buffer.from('see https://example.com/a'), Buffer.from([0xff]), Buffer.from('b ok')]);
    const chunks = merge(await streamParts([bytes]));
    const link = chunks.find((c) => c.type === 'link');
    expect(link, markers(chunks)).to.not.equal(undefined);
    expect(link!.text).to.include('\uFFFD');
    expect(link!.diagnostics).to.include('invalid-utf8');
    expect(link!.byteEnd! - link!.byteStart!).to.equal(Buffer.byteLength(link!.text) - 2); // 1 byte stood for 3
  });

  it('valid text has no diagnostics on its text chunks, and a real U+FFFD is not flagged', async () => {
    const chunks = merge(await streamParts([Buffer.from('x \uFFFD y https://a.example/')]));
    for (const c of chunks) if (c.type === 'text') expect(c).to.not.have.property('diagnostics');
  });

  it('drops a BOM (also split over three writes) and starts byte offsets after it', async () => {
    const body = Buffer.from('\uFEFFhi https://例え.jp/ x'); // EF BB BF …
    for (const parts of [[body], [body.subarray(0, 1), body.subarray(1, 2), body.subarray(2)], splitAt(body, [2, 5])]) {
      const chunks = merge(await streamParts(parts));
      expect(joined(chunks)).to.equal('hi https://例え.jp/ x');
      expect(chunks[0]!.byteStart).to.equal(3);
      expect(chunks[chunks.length - 1]!.byteEnd).to.equal(body.length);
      expect(markers(chunks)).to.equal('hi ⸠https://例え.jp/⸡ x');
    }
  });

  it('keeps a U+FEFF that is not at the start', async () => {
    const chunks = await streamParts([Buffer.from('a\uFEFFb')]);
    expect(joined(chunks)).to.equal('a\uFEFFb');
  });

  it('a lone BOM prefix at the end (EF BB) is two replacements', async () => {
    const chunks = merge(await streamParts([Buffer.from([0xef, 0xbb])]));
    expect(joined(chunks)).to.equal('\uFFFD');
    expect([chunks[0]!.byteStart, chunks[0]!.byteEnd]).to.deep.equal([0, 2]);
  });
});

describe('createLinkStream: legacy charsets (iconv-lite), NFC (RFC 3987 §3.1 variant B)', () => {
  it('windows-1258: a query NFC composes into a character the charset lacks keeps its own bytes (was conversion-failed)', async () => {
    // "Viết": ê (0xEA) and a combining acute (0xEC); NFC gives U+1EBF, which windows-1258 has no byte for.
    const bytes = Buffer.from('see http://a.vn/?q=Vi\xea\xect x\n', 'latin1');
    const links = merge(await streamParts([bytes], { encoding: 'windows-1258' })).filter((c) => c.type === 'link');
    expect(links.map((l) => [l.text, l.uri, l.diagnostics])).to.deep.equal([['http://a.vn/?q=Vi\u1EBFt', 'http://a.vn/?q=Vi%EA%ECt', []]]);
  });

  it('Shift_JIS: a query whose Å (81 F0, U+212B) NFC made U+00C5 keeps its own bytes (was conversion-failed; found in review)', async () => {
    const bytes = Buffer.concat([Buffer.from('see http://a.jp/?q=5000'), Buffer.from([0x81, 0xf0]), Buffer.from(' x\n')]);
    const links = merge(await streamParts([bytes], { encoding: 'shift_jis' })).filter((c) => c.type === 'link');
    expect(links.map((l) => [l.text, l.uri, l.iri, l.diagnostics])).to.deep.equal([
      ['http://a.jp/?q=5000\u00C5', 'http://a.jp/?q=5000%81%F0', 'http://a.jp/?q=5000%81%F0', []],
    ]);
  });

  it('EUC-KR: the iri keeps the query\'s escapes, which are no UTF-8 even where they read as it (found in review)', async () => {
    // 퐈 is C7 A1, which as UTF-8 is ǡ.
    const bytes = Buffer.concat([Buffer.from('see http://a.kr/?q='), Buffer.from([0xc7, 0xa1]), Buffer.from(' x\n')]);
    const links = merge(await streamParts([bytes], { encoding: 'euc-kr' })).filter((c) => c.type === 'link');
    expect(links.map((l) => [l.text, l.uri, l.iri])).to.deep.equal([['http://a.kr/?q=퐈', 'http://a.kr/?q=%C7%A1', 'http://a.kr/?q=%C7%A1']]);
  });

  // Real-looking text per charset: the text, where its links are, byte offsets checked by re-encoding.
  const samples: [string, string][] = [
    ['shift_jis', '資料：https://ja.wikipedia.org/wiki/東京 です。連絡は aiko@example.jp まで\r\n'],
    ['euc-jp', '会場は http://例え.テスト/地図 にあります（徒歩5分）。\n'],
    ['gb18030', '请看 https://zh.wikipedia.org/wiki/北京 和 http://例子.测试/路径 。𠮷\n'],
    ['big5', '詳見 https://zh.wikipedia.org/wiki/臺北 ，謝謝。\n'],
    ['euc-kr', '자세한 내용은 https://ko.wikipedia.org/wiki/서울 을 보세요.\n'],
    ['koi8-r', 'логи тут: https://пример.рф/логи/сегодня, пароль в чате\n'],
    ['windows-1251', 'Смотрите https://ru.wikipedia.org/wiki/Москва.\n'],
    ['windows-1252', 'Voir https://fr.wikipedia.org/wiki/Château_de_Versailles ou écrire à zoë@exemple.fr.\n'],
  ];
  for (const [encoding, text] of samples) {
    it(`${encoding}: round-trips, same links as linkify, exact byte offsets, any split`, async () => {
      const bytes = iconv.encode(text, encoding);
      expect(iconv.decode(bytes, encoding)).to.equal(text); // the sample is representable
      const expected = linkify(text, { documentCharset: encoding } as LinkOptions);
      expect(expected.some((c) => c.type === 'link')).to.equal(true);
      for (const cuts of [[], [1], [5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15], [...Array(bytes.length).keys()]]) {
        const chunks = await streamParts(splitAt(bytes, cuts), { encoding });
        expect(joined(chunks)).to.equal(text);
        expect(withoutBytes(merge(chunks))).to.deep.equal(expected);
        for (const c of chunks) {
          expect(c.byteStart).to.equal(iconv.encode(text.slice(0, c.start), encoding).length);
          expect(c.byteEnd).to.equal(iconv.encode(text.slice(0, c.end), encoding).length);
        }
      }
    });
  }

  it('windows-1258: a base letter and a combining mark split over two writes are normalised to NFC', async () => {
    // "Việt" in windows-1258 is V i ê + COMBINING DOT BELOW (0xF2) t: decoded to "Viê\u0323t", NFC "Việt".
    const bytes = Buffer.concat([iconv.encode('Vi\u00ea\u0323t Nam https://vi.wikipedia.org/wiki/Vi\u00ea\u0323t_Nam', 'windows-1258')]);
    expect([...bytes.subarray(0, 5)]).to.deep.equal([0x56, 0x69, 0xea, 0xf2, 0x74]);
    const text = 'Việt Nam https://vi.wikipedia.org/wiki/Việt_Nam';
    for (let cut = 1; cut < bytes.length; cut++) {
      const chunks = merge(await streamParts(splitAt(bytes, [cut]), { encoding: 'windows-1258' }));
      expect(joined(chunks), `cut at ${cut}`).to.equal(text);
      expect(markers(chunks)).to.equal('Việt Nam ⸠https://vi.wikipedia.org/wiki/Việt_Nam⸡');
      const link = chunks.find((c) => c.type === 'link')!;
      expect([link.byteStart, link.byteEnd]).to.deep.equal([10, bytes.length]); // "Viêt\xF2 Nam " is 10 bytes
    }
  });

  it('iso-2022-jp: decodes escapes (WHATWG "ISO-2022-JP decoder"), the link bytes exclude them, any split', async () => {
    // "詳細は" ESC ( B "https://example.jp/a" ESC $ B "。" ESC ( B "\n"
    const jis = (s: string): Buffer => Buffer.from(iconv.encode(s, 'euc-jp').map((b) => b & 0x7f));
    const bytes = Buffer.concat([
      Buffer.from('\x1b$B'), jis('詳細は'), Buffer.from('\x1b(Bhttps://example.jp/a\x1b$B'), jis('。'),
      Buffer.from('\x1b(B\n'),
    ]);
    const text = '詳細はhttps://example.jp/a。\n';
    for (const cuts of [[], [1], [2], [4, 10, 12], [...Array(bytes.length).keys()]]) {
      const chunks = merge(await streamParts(splitAt(bytes, cuts), { encoding: 'ISO-2022-JP' }));
      expect(joined(chunks)).to.equal(text);
      expect(markers(chunks)).to.equal('詳細は⸠https://example.jp/a⸡。\n');
      const link = chunks.find((c) => c.type === 'link')!;
      const at = bytes.indexOf('https://');
      expect([link.byteStart, link.byteEnd]).to.deep.equal([at, at + 'https://example.jp/a'.length]);
    }
  });

  /** Whether `b` holds a lead 84–8F or E3–FE, a digit, 81–FE, a digit: a GB18030 four-byte sequence that may have no code point. */
  const mayHoldUnmappedGb = (b: Buffer): boolean => {
    for (let i = 0; i + 3 < b.length; i++) {
      const lead = b[i]!;
      if (((lead >= 0x84 && lead <= 0x8f) || lead >= 0xe3) && b[i + 1]! >= 0x30 && b[i + 1]! <= 0x39 && b[i + 2]! >= 0x81 && b[i + 2]! <= 0xfe && b[i + 3]! >= 0x30 && b[i + 3]! <= 0x39) return true;
    }
    return false;
  };

  for (const encoding of ['shift_jis', 'euc-jp', 'gb18030', 'big5', 'euc-kr', 'koi8-r', 'windows-1258', 'iso-2022-jp']) {
    it(`${encoding}: any bytes, split anywhere — no crash, the same chunks as one write, chunks tile the bytes`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.uint8Array({ maxLength: 48 }), cutsArb, async (raw, cuts) => {
          const bytes = Buffer.from(raw);
          const whole = merge(await streamParts(bytes.length > 0 ? [bytes] : [], { encoding }));
          const split = merge(await streamParts(splitAt(bytes, cuts), { encoding }));
          expect(split).to.deep.equal(whole);
          if (encoding !== 'iso-2022-jp') {
            // Stateless charsets: the text is iconv-lite's (windows-1258: WHATWG's table, TextDecoder's in stream mode),
            // normalised; the chunks tile the bytes. A GB18030 four-byte sequence of no code point is one U+FFFD, not
            // iconv-lite's reading (test/stream-decode-whatwg.test.ts): an input that may hold one is checked there.
            const reference = encoding === 'windows-1258' ? new TextDecoder(encoding).decode(bytes, { stream: true }) : iconv.decode(bytes, encoding);
            if (encoding !== 'gb18030' || !mayHoldUnmappedGb(bytes)) expect(joined(split)).to.equal(reference.normalize('NFC'));
            let pos = 0;
            for (const c of split) {
              expect(c.byteStart).to.equal(pos);
              pos = c.byteEnd!;
            }
            expect(pos).to.equal(split.length === 0 ? 0 : bytes.length);
          }
        }),
        { numRuns: 150 },
      );
    });
  }

  it('invalid Shift_JIS bytes become U+FFFD without losing the following characters', async () => {
    const bytes = Buffer.concat([Buffer.from([0x81, 0x20]), Buffer.from('https://a.example/ x')]);
    const chunks = merge(await streamParts([bytes], { encoding: 'shift_jis' }));
    expect(joined(chunks)).to.equal('\uFFFD https://a.example/ x');
    const link = chunks.find((c) => c.type === 'link')!;
    expect([link.byteStart, link.byteEnd]).to.deep.equal([2, 2 + 'https://a.example/'.length]);
  });

  it('an unknown encoding is a TypeError at createLinkStream(), before any data', () => {
    expect(() => createLinkStream({ encoding: 'klingon-8' })).to.throw(TypeError, /encoding/);
    expect(() => createLinkStream({ encoding: '' })).to.throw(TypeError, /encoding/);
  });
});

describe('createLinkStream: stream behaviour', () => {
  it('works with for await and with pipeline through a through2 stage', async () => {
    const text = 'see https://例え.jp/パス。 and mail aiko@example.jp\n';
    const viaForAwait = await collect(Readable.from([Buffer.from(text)]).pipe(createLinkStream()));
    const seen: string[] = [];
    await pipeline(
      Readable.from([Buffer.from(text.slice(0, 7)), Buffer.from(text.slice(7))]),
      createLinkStream(),
      through2.obj(function (chunk: Chunk, _enc, callback) {
        if (chunk.type === 'link') seen.push(chunk.uri);
        callback(null, chunk);
      }),
      new Writable({ objectMode: true, write: (_c, _e, cb) => cb() }),
    );
    const links = viaForAwait.filter((c) => c.type === 'link').map((c) => (c.type === 'link' ? c.uri : ''));
    expect(seen).to.deep.equal(links);
    expect(links.length).to.equal(2);
  });

  it('lets a piped source start its next read before the current write is worked on (the read overlaps the scan)', async () => {
    const events: string[] = [];
    const source = loggingSource(events, 3, (k) => `see https://example.com/${k} and more text\n`);
    const stream = loggingPushes(createLinkStream(), events, (c) => (c as Chunk).type);
    const links: string[] = [];
    await pipeline(source, stream, async (chunks: AsyncIterable<Chunk>) => {
      for await (const c of chunks) if (c.type === 'link') links.push(c.text);
    });
    expect(links).to.deep.equal(['https://example.com/0', 'https://example.com/1', 'https://example.com/2']);
    // Worked on inside the source's push(), the first write's chunks would come before `read 1`.
    expect(events.indexOf('read 1')).to.be.greaterThan(-1);
    expect(events.indexOf('read 1'), events.join(', ')).to.be.below(events.indexOf('push text'));
  });

  it('honours backpressure: with no reader, write() returns false long before the input is used up', () => {
    const stream = createLinkStream({ highWaterMark: 4 });
    const line = Buffer.from('a line of text with a link https://example.com/x and some more words\n'.repeat(100));
    let written = 0;
    let accepted = true;
    while (accepted && written < 64 * 1024 * 1024) {
      accepted = stream.write(line);
      written += line.length;
    }
    expect(accepted).to.equal(false);
    expect(written).to.be.below(256 * 1024);
    stream.destroy();
  });

  it('a slow reader slows the source: the source is never read far ahead of what was consumed', async () => {
    const chunkBytes = 16 * 1024;
    const total = 2 * 1024 * 1024;
    let produced = 0;
    const block = Buffer.from('word https://example.org/page?id=1 word word word\n'.repeat(Math.ceil(chunkBytes / 50))).subarray(0, chunkBytes);
    const source = new Readable({
      highWaterMark: chunkBytes,
      read() {
        if (produced >= total) this.push(null);
        else {
          produced += block.length;
          this.push(block);
        }
      },
    });
    let consumed = 0;
    let maxAhead = 0;
    let count = 0;
    const sink = new Writable({
      objectMode: true,
      highWaterMark: 1,
      write(chunk: Chunk, _enc, callback) {
        consumed = chunk.byteEnd ?? consumed;
        maxAhead = Math.max(maxAhead, produced - consumed);
        // Every 16th chunk, yield to the event loop: a consumer slower than the source.
        if (++count % 16 === 0) setImmediate(callback);
        else callback();
      },
    });
    await pipeline(source, createLinkStream({ highWaterMark: 2 }), sink);
    expect(consumed).to.equal(total);
    expect(maxAhead, `source ran ${maxAhead} bytes ahead of the consumer`).to.be.below(512 * 1024);
  });

  it('end() flushes the undecided tail', async () => {
    const stream = createLinkStream();
    const out = collect(stream);
    stream.write('see https://例え.jp/パス');
    stream.end();
    expect(markers(await out)).to.equal('see ⸠https://例え.jp/パス⸡');
  });

  it('an upstream error propagates through pipeline and destroys the stream', async () => {
    const linkStream = createLinkStream();
    const source = new Readable({
      read() {
        this.push(Buffer.from('https://a.example/ '));
        this.destroy(new Error('disk on fire'));
      },
    });
    let error: unknown;
    try {
      await pipeline(source, linkStream, new Writable({ objectMode: true, write: (_c, _e, cb) => cb() }));
    } catch (e) {
      error = e;
    }
    expect((error as Error).message).to.equal('disk on fire');
    expect(linkStream.destroyed).to.equal(true);
  });

  // for await uses the stream's own iterator (buffered chunks without Node's async generator); Node's
  // stream.iterator() is the reference it must agree with.
  const manyLinks = Buffer.from('see https://a.example/x and https://例え.jp/パス。 mail bob@example.org\n'.repeat(200));
  async function consume(
    iterable: AsyncIterable<unknown>,
    stream: ReturnType<typeof createLinkStream>,
    stopAfter: number,
    how: 'break' | 'destroy',
  ): Promise<{ seen: number; error: string; destroyed: boolean }> {
    let seen = 0;
    let error = '';
    try {
      for await (const _chunk of iterable) {
        if (++seen === stopAfter) {
          if (how === 'break') break;
          stream.destroy(new Error('stop'));
        }
      }
    } catch (e) {
      error = (e as Error).message;
    }
    return { seen, error, destroyed: stream.destroyed };
  }

  it('for await agrees with Node’s stream.iterator(): all chunks in order, break destroys, destroy(error) throws', async () => {
    const viaIterator = await collect(Readable.from([manyLinks]).pipe(createLinkStream()).iterator());
    const viaForAwait = await collect(Readable.from([manyLinks]).pipe(createLinkStream()));
    expect(viaForAwait).to.deep.equal(viaIterator);
    expect(viaForAwait.filter((c) => c.type === 'link').length).to.equal(600);
    for (const how of ['break', 'destroy'] as const) {
      for (const stopAfter of [1, 2, 50]) {
        const a = createLinkStream();
        const b = createLinkStream();
        Readable.from([manyLinks]).pipe(a);
        Readable.from([manyLinks]).pipe(b);
        const ours = await consume(a, a, stopAfter, how);
        const node = await consume(b.iterator(), b, stopAfter, how);
        expect(ours, `${how} after ${stopAfter}`).to.deep.equal(node);
        expect(ours).to.deep.equal({ seen: stopAfter, error: how === 'break' ? '' : 'stop', destroyed: true });
      }
    }
  });

  it('next() called again before the last call settled gives the chunks in order, as Node’s iterator does', async () => {
    const run = async (iterator: AsyncIterator<unknown>, stream: ReturnType<typeof createLinkStream>): Promise<string[]> => {
      const p1 = iterator.next();
      stream.write('see https://a.example/ and ');
      const p2 = iterator.next();
      const p3 = iterator.next();
      stream.end('https://b.example/ x');
      const all = await Promise.all([p1, p2, p3, iterator.next(), iterator.next(), iterator.next(), iterator.next()]);
      return all.map((r) => (r.done === true ? '(done)' : (r.value as Chunk).text));
    };
    const a = createLinkStream();
    const b = createLinkStream();
    const ours = await run(a[Symbol.asyncIterator](), a);
    const node = await run(b.iterator(), b);
    expect(ours).to.deep.equal(node);
    expect(ours).to.deep.equal(['see ', 'https://a.example/', ' and ', 'https://b.example/', ' ', 'x', '(done)']);
  });

  it('destroy(error) makes for await throw that error', async () => {
    const stream = createLinkStream();
    stream.write('text ');
    setImmediate(() => stream.destroy(new Error('stop')));
    let error: unknown;
    try {
      await collect(stream);
    } catch (e) {
      error = e;
    }
    expect((error as Error).message).to.equal('stop');
  });

  /** The error a stream fails with after `writes` (each a chunk, or a string with its encoding). */
  async function mixError(writes: Array<Buffer | string | [string, BufferEncoding]>): Promise<unknown> {
    const stream = createLinkStream();
    const done = collect(stream);
    for (const w of writes) {
      if (Array.isArray(w)) stream.write(w[0], w[1]);
      else stream.write(w);
    }
    try {
      await done;
    } catch (e) {
      return e;
    }
    return undefined;
  }

  it('mixing Buffer and string writes is an error on the stream (TypeError)', async () => {
    const error = await mixError([Buffer.from('bytes '), 'then a string']);
    expect(error).to.be.instanceOf(TypeError);
    expect((error as Error).message).to.match(/do not mix bytes and text in one stream/);
  });

  it('a string with another encoding stands for bytes: the error after a UTF-8 string says so (found in review)', async () => {
    const error = await mixError(['a ', ['https://x.com', 'utf16le']]);
    expect(error).to.be.instanceOf(TypeError);
    expect((error as Error).message).to.include("a string written with an encoding other than utf8, such as 'hex' or 'utf16le', stands for bytes");
  });

  it('an empty write of either kind is no mix: it decides nothing', async () => {
    for (const [first, then] of [['', Buffer.from('see https://a.example/')], [Buffer.alloc(0), 'see https://a.example/']] as const) {
      const stream = createLinkStream();
      const done = collect(stream);
      stream.write(first);
      stream.end(then);
      const chunks = await done;
      expect(chunks.map((c) => c.text).join('')).to.equal('see https://a.example/');
      expect(chunks.filter((c) => c.type === 'link').map((c) => c.byteStart)).to.deep.equal([typeof then === 'string' ? undefined : 4]);
    }
  });

  it('a bad option is a TypeError at creation', () => {
    expect(() => createLinkStream({ highWaterMark: 0 })).to.throw(TypeError, /highWaterMark/);
    expect(() => createLinkStream(null as unknown as StreamOptions)).to.throw(TypeError);
  });
});
