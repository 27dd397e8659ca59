// A mail part full of invalid bytes (binary mislabelled as text) costs no more per replaced byte than any other text:
// a part that is not valid UTF-8 is decoded 64 KiB at a time like a legacy charset's (src/mail/message.ts decodeText),
// the ByteMap hands over the positions of its replacements with no chunk built (ByteMap.skipTo), and they are kept as
// runs of consecutive positions. The result is that of the per-U+FFFD reading it replaces: the reference below is
// that reading (one write, ByteMap.annotate asked about each U+FFFD, positions in a plain array moved through CR LF
// and format=flowed), compared on random parts with many invalid bytes (fast-check, fixed seed).
import { expect } from 'chai';
import fc from 'fast-check';
import { decodeText, linkifyMessage, linkifyQuoted, ReplacementRuns } from '../src/mail/message.js';
import { unflow } from '../src/mail/flowed.js';
import { createDecoder } from '../src/stream/decode.js';
import { textChunk } from '../src/detect/index.js';
import type { Chunk, DiagnosticCode } from '../src/types.js';

const PIECE = 64 * 1024;

/** The per-U+FFFD reading: one write, each U+FFFD annotated alone; the positions that replaced bytes and the code. */
function referenceDecode(charset: string, bytes: Buffer): { text: string; marks: number[]; code: DiagnosticCode | undefined; documentCharset: string | undefined } {
  const decoder = createDecoder(charset);
  const text = decoder.write(bytes) + decoder.end();
  const marks: number[] = [];
  let code: DiagnosticCode | undefined;
  let pos = 0;
  for (let f = text.indexOf('\uFFFD'); f >= 0; f = text.indexOf('\uFFFD', f + 1)) {
    if (f > pos) decoder.byteMap.annotate(textChunk(text, 0, pos, f));
    const one = textChunk(text, 0, f, f + 1);
    decoder.byteMap.annotate(one);
    if (one.diagnostics !== undefined && one.diagnostics.length > 0) {
      marks.push(f);
      code = one.diagnostics[0];
    }
    pos = f + 1;
  }
  return { text, marks, code, documentCharset: decoder.documentCharset };
}

/** The part as the per-U+FFFD reading gave it: CR LF → LF and format=flowed moving each position, then the chunks. */
function referencePart(charset: string, bytes: Buffer, flowed: boolean, delSp: boolean): { text: string; chunks: Chunk[] } {
  const ref = referenceDecode(charset, bytes);
  let text = ref.text;
  const marks = ref.marks;
  if (text.includes('\r')) {
    let removed = 0;
    let next = text.indexOf('\r\n');
    for (let m = 0; m < marks.length; m++) {
      while (next >= 0 && next < marks[m]!) {
        removed++;
        next = text.indexOf('\r\n', next + 2);
      }
      marks[m] = marks[m]! - removed;
    }
    text = text.replace(/\r\n/g, '\n');
  }
  if (flowed) text = unflow(text, delSp, marks);
  const chunks = linkifyQuoted(text, ref.documentCharset === undefined ? undefined : { documentCharset: ref.documentCharset });
  let m = 0;
  for (const chunk of chunks) {
    while (m < marks.length && marks[m]! < chunk.start) m++;
    if (m < marks.length && marks[m]! < chunk.end && ref.code !== undefined) {
      const d = chunk.diagnostics ?? [];
      if (!d.includes(ref.code)) chunk.diagnostics = [...d, ref.code];
    }
  }
  return { text, chunks };
}

function message(charset: string, flowed: boolean, delSp: boolean, body: Buffer): Buffer {
  const type = `Content-Type: text/plain; charset=${charset}${flowed ? '; format=flowed' : ''}${delSp ? '; delsp=yes' : ''}`;
  return Buffer.concat([Buffer.from(`Subject: x\r\n${type}\r\nContent-Transfer-Encoding: 8bit\r\n\r\n`, 'latin1'), body]);
}

const latin1 = (s: string): Buffer => Buffer.from(s, 'latin1');

/** Pieces of a body: text that links, line breaks, quotes, flowed line ends, invalid bytes, encoded U+FFFD, padding. */
function atoms(charset: string): fc.Arbitrary<Buffer> {
  const utf16 = charset === 'utf-16le';
  const text = (s: string): Buffer => (utf16 ? Buffer.from(s, 'utf16le') : latin1(s));
  const words = ['see ', 'https://ex.example/', 'www.a.org/p', 'x@y.org', ' ', '\r\n', '\n', '\r', '> ', '>> ', ' \r\n', '-- \r\n', '?q=', '(', ')', 'abc'];
  return fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...words).map(text) },
    // Invalid (or, by chance, valid) high bytes; in UTF-16 also lone surrogates.
    { weight: 5, arbitrary: fc.uint8Array({ minLength: 1, maxLength: 4 }).map((a) => Buffer.from(a.map((b) => 0x80 | b))) },
    // A U+FFFD the part encodes itself: text, never a replacement.
    { weight: 1, arbitrary: fc.constant(utf16 ? Buffer.from('\uFFFD', 'utf16le') : charset === 'utf-8' ? Buffer.from('\uFFFD') : latin1('')) },
    // Long runs of one byte (binary mislabelled as text) and ASCII padding up to near the 64 KiB piece boundaries.
    { weight: 1, arbitrary: fc.tuple(fc.integer({ min: PIECE - 8, max: PIECE + 8 }), fc.constantFrom(0xff, 0xaa, 0x61, 0xc3)).map(([n, b]) => Buffer.alloc(utf16 ? n & ~1 : n, b)) },
  );
}

const CHARSETS = ['utf-8', 'windows-1253', 'shift_jis', 'utf-16le', 'euc-kr'];

describe('mail: parts full of invalid bytes, read without a chunk per U+FFFD', () => {
  it('random parts with many invalid bytes: text, chunks, diagnostics and links as the per-U+FFFD reading gives them (fast-check, seed 310)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...CHARSETS).chain((charset) => fc.tuple(fc.constant(charset), fc.array(atoms(charset), { minLength: 1, maxLength: 40 }), fc.boolean(), fc.boolean())),
        async ([charset, body, flowed, delSp]) => {
          const bytes = Buffer.concat(body);
          const m = await linkifyMessage(message(charset, flowed, delSp, bytes));
          expect(m.error).to.equal(undefined);
          const part = m.parts[0]!;
          const ref = referencePart(charset, bytes, flowed, flowed && delSp);
          expect(part.text).to.equal(ref.text);
          expect(part.chunks).to.deep.equal(ref.chunks);
          const links = part.chunks.filter((c) => c.type === 'link');
          expect(part.links.map((l) => l.diagnostics)).to.deep.equal(links.map((c) => c.diagnostics));
        },
      ),
      { seed: 310, numRuns: 120 },
    );
  });

  it('a UTF-8 character or invalid sequence straddling a piece boundary, at every split: as one write', async () => {
    // 😀 é € (whole), a cut 4-byte and 3-byte sequence, a lone lead byte, an encoded surrogate, an encoded U+FFFD.
    const straddlers = [Buffer.from('\u{1F600}'), Buffer.from('\u00e9'), Buffer.from('\u20ac'), latin1('\xf0\x9f\x98'), latin1('\xe2\x82'), latin1('\xc3'), latin1('\xed\xa0\x80'), latin1('\xef\xbf\xbd')];
    for (const unit of straddlers) {
      const s = unit.toString('hex');
      for (let before = 0; before <= unit.length; before++) {
        const bytes = Buffer.concat([Buffer.alloc(PIECE - before, 0xff), unit, latin1(' https://ex.example/p\xff x')]);
        const m = await linkifyMessage(message('utf-8', false, false, bytes));
        const ref = referencePart('utf-8', bytes, false, false);
        expect(m.parts[0]!.text, `${s} at ${before}`).to.equal(ref.text);
        expect(m.parts[0]!.chunks, `${s} at ${before}`).to.deep.equal(ref.chunks);
      }
    }
  });

  // Counted, not timed: what is done and kept per replaced byte.
  for (const [charset, byte] of [
    ['utf-8', 0xff],
    ['windows-1253', 0xaa],
  ] as const) {
    it(`${charset}: 1 MiB of 0x${byte.toString(16).toUpperCase()} — no chunk annotated, the ByteMap read once a piece and holding one piece's replacements, one run kept`, () => {
      const n = 1 << 20;
      const decoder = createDecoder(charset);
      const map = decoder.byteMap;
      let annotated = 0;
      let reads = 0;
      let live = 0; // replacements recorded in the map and not yet handed over
      let mostLive = 0;
      const annotate = map.annotate.bind(map);
      map.annotate = (chunk: Chunk): void => {
        annotated++;
        annotate(chunk);
      };
      const addReplacement = map.addReplacement.bind(map);
      map.addReplacement = (at: number, bytes: number): void => {
        mostLive = Math.max(mostLive, ++live);
        addReplacement(at, bytes);
      };
      const skipTo = map.skipTo.bind(map);
      map.skipTo = (end: number, replaced: (at: number) => void): void => {
        reads++;
        skipTo(end, (at) => {
          live--;
          replaced(at);
        });
      };
      const runs = new ReplacementRuns();
      const { text, invalid } = decodeText(decoder, Buffer.alloc(n, byte), runs);
      expect(text).to.equal('\uFFFD'.repeat(n));
      expect(annotated).to.equal(0);
      expect(reads).to.be.within(n / PIECE, n / PIECE + 1); // and end(): a legacy decoder holds the last unit for NFC
      expect(live).to.equal(0);
      expect(mostLive).to.equal(PIECE);
      expect(runs.added).to.equal(n);
      expect(runs.n).to.equal(1);
      expect(runs.starts.length).to.equal(16); // as allocated: nothing grows with the replaced bytes
      expect(invalid!.code).to.equal(charset === 'utf-8' ? 'invalid-utf8' : 'invalid-bytes');
      expect([...invalid!.starts, ...invalid!.lengths]).to.deep.equal([0, n]);
    });
  }

  it('isolated replacements: one run each, at most 2 × 8 bytes kept per replaced byte', () => {
    const bytes = Buffer.alloc(3 * 100_000, 0x61);
    for (let i = 0; i < bytes.length; i += 3) bytes[i] = 0xff;
    const runs = new ReplacementRuns();
    const { invalid } = decodeText(createDecoder('utf-8'), bytes, runs);
    expect(runs.added).to.equal(100_000);
    expect(runs.n).to.equal(100_000);
    expect(runs.starts.byteLength + runs.lengths.byteLength).to.be.at.most(2 * 8 * 100_000);
    expect(invalid!.starts[99_999]).to.equal(299_997);
  });

  it('valid UTF-8 (a U+FFFD it encodes included) is one write and the ByteMap is not read', () => {
    const decoder = createDecoder('utf-8');
    let reads = 0;
    const skipTo = decoder.byteMap.skipTo.bind(decoder.byteMap);
    decoder.byteMap.skipTo = (end: number, replaced: (at: number) => void): void => {
      reads++;
      skipTo(end, replaced);
    };
    const { text, invalid } = decodeText(decoder, Buffer.from('a\uFFFD'.repeat(PIECE)));
    expect(text).to.equal('a\uFFFD'.repeat(PIECE));
    expect(invalid).to.equal(null);
    expect(reads).to.equal(0);
  });
});
