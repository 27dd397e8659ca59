// The stream's single-byte decoders against the WHATWG Encoding Standard (§9.1 "single-byte decoder"), with Node's
// TextDecoder as the reference for the index, for every charset the stream takes whose name, or another of iconv-lite's
// names for the same charset, is a WHATWG label. Two places where TextDecoder (ICU) is not WHATWG are corrected:
// an ASCII byte is its own code point (ICU's ibm866 rotates 0x1A 0x1C 0x7F), and windows-1255 0xCA is U+05BA (ICU
// leaves it undefined; WHATWG's index and iconv-lite's table have it). Then the same bytes through the mail charset
// path and the log decoder, and GB18030 four-byte characters in writes that hold invalid bytes.
import { expect } from 'chai';
import fc from 'fast-check';
import iconv from 'iconv-lite';
import { Readable } from 'node:stream';
import { createLogLinkStream } from '../src/logs/index.js';
import { linkifyMessage } from '../src/mail/index.js';
import { createDecoder, streamEncodings } from '../src/stream/decode.js';
import { createLinkStream } from '../src/stream/transform.js';
import type { StreamOptions } from '../src/stream/transform.js';
import type { Chunk } from '../src/types.js';
import { splitAt } from './support/split.js';

function decodeInWrites(encoding: string, input: Uint8Array, cuts: number[]): string {
  const decoder = createDecoder(encoding);
  let text = '';
  for (const part of splitAt(Buffer.from(input), cuts)) text += decoder.write(part);
  return text + decoder.end();
}

async function streamParts(parts: Buffer[], options: StreamOptions): Promise<Chunk[]> {
  const out: Chunk[] = [];
  for await (const chunk of Readable.from(parts, { objectMode: true }).pipe(createLinkStream(options))) out.push(chunk as Chunk);
  return out;
}

/** Each link, and each run of text between links, as ⸠link⸡ or text, @byteStart-byteEnd, and invalid-bytes if any. */
function spans(chunks: Chunk[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < chunks.length; i++) {
    const c = chunks[i]!;
    let j = i;
    let text = c.type === 'link' ? `⸠${c.text}⸡` : c.text;
    let bad = c.diagnostics?.includes('invalid-bytes') === true;
    while (c.type === 'text' && j + 1 < chunks.length && chunks[j + 1]!.type === 'text') {
      j++;
      text += chunks[j]!.text;
      bad ||= chunks[j]!.diagnostics?.includes('invalid-bytes') === true;
    }
    out.push(`${text}@${c.byteStart}-${chunks[j]!.byteEnd}${bad ? ' invalid-bytes' : ''}`);
    i = j;
  }
  return out;
}

const hex = (b: number): string => b.toString(16).toUpperCase().padStart(2, '0');
const ALL = Buffer.from(Array.from({ length: 256 }, (_, b) => b));

/** The WHATWG encoding (TextDecoder's name) of a label, or null when TextDecoder does not know it. */
function whatwgOf(label: string): string | null {
  try {
    return new TextDecoder(label).encoding;
  } catch {
    return null;
  }
}

/** The 256 code units WHATWG's single-byte decoder gives `encoding`'s bytes: TextDecoder's, less ICU's two departures. */
function whatwgTable(encoding: string): string[] {
  // `stream: true`: ICU's converter (Node 20.18.3+ decodes a windows-1252 call without it as Latin-1, nodejs/node#60888).
  const text = new TextDecoder(encoding).decode(ALL, { stream: true });
  expect(text.length, `${encoding}: one unit per byte`).to.equal(256);
  return [...text].map((ch, b) => {
    if (b < 0x80) return String.fromCharCode(b); // WHATWG Encoding §9.1 step 2 (ICU's ibm866 rotates 1A 1C 7F)
    if (encoding === 'windows-1255' && b === 0xca) return '\u05BA'; // WHATWG index-windows-1255 pointer 74
    return ch;
  });
}

/** What the stream decodes byte b to, by itself (so no NFC reordering with its neighbours). */
function alone(encoding: string, b: number): string {
  return decodeInWrites(encoding, ALL.subarray(b, b + 1), []);
}

// The labels the WHATWG Encoding Standard gives its single-byte encodings that are not the encoding's own name, and
// iconv-lite's squashed spellings: which encoding each one decodes as. (§4.2 "Names and labels".)
const LABELS: [string, string][] = [
  ['iso-8859-1', 'windows-1252'],
  ['latin1', 'windows-1252'],
  ['us-ascii', 'windows-1252'],
  ['ascii', 'windows-1252'],
  ['cp1252', 'windows-1252'],
  ['windows1252', 'windows-1252'],
  ['windows-1252:2000', 'windows-1252'],
  ['iso-8859-9', 'windows-1254'],
  ['latin5', 'windows-1254'],
  ['iso-8859-11', 'windows-874'],
  ['tis-620', 'windows-874'],
  ['windows874', 'windows-874'],
  ['cp866', 'ibm866'],
  ['koi8r', 'koi8-r'],
  ['koi8u', 'koi8-u'],
  ['iso-8859-15', 'iso-8859-15'],
  // WHATWG labels iconv-lite does not know: taken as the encoding they name.
  ['x-cp1252', 'windows-1252'],
  ['dos-874', 'windows-874'],
  ['koi8', 'koi8-r'],
  ['x-mac-roman', 'macintosh'],
  ['csisolatin9', 'iso-8859-15'],
  ['visual', 'iso-8859-8'],
];

describe('stream decoder: single-byte charsets decode as the WHATWG Encoding Standard (§9.1), TextDecoder the reference', () => {
  const whatwgNames = new Set<string>();
  for (const name of streamEncodings()) {
    const whatwg = whatwgOf(name);
    // (ISO-2022-JP also decodes 256 bytes to 256 units, but is stateful: not a single-byte encoding.)
    if (whatwg !== null && whatwg !== 'iso-2022-jp' && new TextDecoder(whatwg).decode(ALL, { stream: true }).length === 256) whatwgNames.add(name);
  }

  it('the stream takes the WHATWG single-byte encodings under iconv-lite\'s names (list from the code)', () => {
    for (const name of ['iso88591', 'iso88592', 'iso88599', 'iso885911', 'iso885915', 'cp866', 'macintosh', 'ascii']) {
      expect([...whatwgNames], name).to.include(name);
    }
  });

  for (const [label, whatwg] of [...LABELS, ...[...whatwgNames].map((n): [string, string] => [n, whatwgOf(n)!])]) {
    it(`${label}: all 256 bytes as ${whatwg}`, () => {
      const table = whatwgTable(whatwg);
      const wrong: string[] = [];
      for (let b = 0; b < 256; b++) {
        const got = alone(label, b);
        if (got !== table[b]) wrong.push(`${hex(b)}: ${JSON.stringify(got)}, not ${JSON.stringify(table[b])}`);
      }
      expect(wrong).to.deep.equal([]);
    });
  }

  it('windows-1252 0x81 0x8D 0x8F 0x90 0x9D are U+0081 … U+009D (WHATWG index), not U+FFFD; 0x80 0x92 0x9F are € ’ Ÿ', () => {
    expect(decodeInWrites('windows-1252', Buffer.from([0x81, 0x8d, 0x8f, 0x90, 0x9d]), [2])).to.equal('\u0081\u008D\u008F\u0090\u009D');
    for (const label of ['windows-1252', 'latin1', 'us-ascii']) expect(decodeInWrites(label, Buffer.from([0x80, 0x92, 0x9f]), [1]), label).to.equal('€’Ÿ');
  });

  it('any bytes, any writes: the text is the bytes looked up one by one (then NFC), for windows-1252, -1255, -874, ibm866, iso-8859-1', () => {
    for (const encoding of ['windows-1252', 'windows-1255', 'windows-874', 'ibm866', 'iso-8859-1']) {
      const table = whatwgTable(whatwgOf(encoding)!);
      fc.assert(
        fc.property(fc.uint8Array({ maxLength: 40 }), fc.array(fc.nat({ max: 40 }), { maxLength: 6 }), (raw, cuts) => {
          const expected = [...raw].map((b) => table[b]).join('').normalize('NFC');
          expect(decodeInWrites(encoding, raw, cuts), encoding).to.equal(expected);
        }),
        { seed: 9, numRuns: 200 },
      );
    }
  });

  it('charsets WHATWG does not define keep iconv-lite\'s table (cp437, koi8-t, maccyrillic, iso-8859-16: all 256 bytes)', () => {
    for (const encoding of ['cp437', 'koi8t', 'maccyrillic', 'iso885916']) {
      expect(whatwgOf(encoding), encoding).to.equal(null);
      for (let b = 0; b < 256; b++) expect(alone(encoding, b), `${encoding} ${hex(b)}`).to.equal(iconv.decode(ALL.subarray(b, b + 1), encoding));
    }
  });

  it('a byte the encoding defines is text (no invalid-bytes); one it leaves out is U+FFFD + invalid-bytes, one byte each', async () => {
    const input = Buffer.concat([Buffer.from('a'), Buffer.from([0x81]), Buffer.from(' http://x.gr/'), Buffer.from([0xd2]), Buffer.from(' b')]);
    expect(spans(await streamParts([input], { encoding: 'windows-1252' }))).to.deep.equal(['a\u0081 @0-3', '⸠http://x.gr/Ò⸡@3-16', ' b@16-18']);
    expect(spans(await streamParts([input], { encoding: 'windows-1253' }))).to.deep.equal(['a\u0081 @0-3', '⸠http://x.gr/�⸡@3-16 invalid-bytes', ' b@16-18']);
  });

  it('a query is converted in the WHATWG encoding: latin1 0x8A is Š (windows-1252), so ?q=%8A (3987bis §3.5)', async () => {
    const input = Buffer.concat([Buffer.from('see http://x.fr/?q='), Buffer.from([0x8a]), Buffer.from('5 ok')]);
    const link = (await streamParts([input], { encoding: 'latin1' })).find((c) => c.type === 'link')!;
    expect([link.text, link.type === 'link' ? link.uri : '']).to.deep.equal(['http://x.fr/?q=Š5', 'http://x.fr/?q=%8A5']);
  });
});

describe('the mail and log decoders read single-byte charsets the same way', () => {
  // windows-1254 (the WHATWG encoding of the label iso-8859-9) 0x8A is Š; ISO-8859-9 0x8A is a C1 control.
  const line = Buffer.concat([Buffer.from('see https://x.tr/'), Buffer.from([0x8a]), Buffer.from('a end\n')]);

  it('mail: a part declared iso-8859-9 reads 0x8A as Š, and says it was decoded as windows-1254', async () => {
    const m = await linkifyMessage(Buffer.concat([Buffer.from('Content-Type: text/plain; charset=iso-8859-9\r\n\r\n'), line]));
    const p = m.parts[0]!;
    expect([p.charset, p.declaredCharset, p.links.map((l) => l.text)]).to.deep.equal(['windows-1254', 'iso-8859-9', ['https://x.tr/Ša']]);
  });

  it('logs: createLogLinkStream({ encoding: "iso-8859-9" }) reads 0x8A as Š, byte offsets exact', async () => {
    let out = '';
    for await (const b of Readable.from([line]).pipe(createLogLinkStream({ encoding: 'iso-8859-9' }))) out += (b as Buffer).toString('utf8');
    const rows = out.trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(rows.map((r) => [r.text, r.byteStart, r.byteEnd])).to.deep.equal([['https://x.tr/Ša', 4, 19]]);
  });
});

describe('stream decoder: GB18030 four-byte characters in a write that also holds invalid bytes', () => {
  // 😀 (four bytes, beyond the BMP), € … in the BMP's four-byte ranges (e.g. U+00E9 é = 81 30 86 30), FF invalid.
  const text = 'é😀ㄦ\u20ac𠮷ⓐ';

  it('decode as iconv-lite decodes each character, the FF as one U+FFFD, any writes', () => {
    const good = iconv.encode(text, 'gb18030');
    const input = Buffer.concat([good, Buffer.from([0xff]), good, Buffer.from([0x81, 0x20]), good]);
    const expected = `${text}\uFFFD${text}\uFFFD ${text}`;
    fc.assert(
      fc.property(fc.array(fc.nat({ max: input.length }), { maxLength: 5 }), (cuts) => {
        expect(decodeInWrites('gb18030', input, cuts)).to.equal(expected);
      }),
      { seed: 9, numRuns: 200 },
    );
  });

  it('a four-byte sequence of no code point (pointer 39420–188999, or past 1237575) is one U+FFFD for its four bytes (WHATWG), any writes', async () => {
    const input = Buffer.concat([
      Buffer.from('a '),
      Buffer.from([0x84, 0x31, 0xa4, 0x39]), // pointer 39419: U+FFFF, the last of the BMP ranges
      Buffer.from([0x84, 0x31, 0xa5, 0x30]), // 39420: none (iconv-lite: U+10000)
      Buffer.from([0x90, 0x30, 0x81, 0x30]), // 189000: U+10000
      Buffer.from([0xe3, 0x32, 0x9a, 0x35]), // 1237575: U+10FFFF
      Buffer.from([0xe3, 0x32, 0x9a, 0x36]), // 1237576: none (iconv-lite: U+DC00 U+DC00)
      Buffer.from(' b'),
    ]);
    const expected = 'a \uFFFF\uFFFD\u{10000}\u{10FFFF}\uFFFD b';
    for (const encoding of ['gb18030', 'gbk']) {
      for (const cuts of [[], [3], [4, 5, 9, 13, 17, 21], [...input.keys()]]) expect(decodeInWrites(encoding, input, cuts), `${encoding} ${cuts.join()}`).to.equal(expected);
    }
    expect(spans(await streamParts([input], { encoding: 'gb18030' }))).to.deep.equal([`${expected}@0-24 invalid-bytes`]);
    const chunks = await streamParts([Buffer.from([0x84, 0x31, 0xa5, 0x30, 0x20]), Buffer.from('http://x.cn/ '), Buffer.from([0xe3, 0x32, 0x9a, 0x36])], { encoding: 'gb18030' });
    expect(spans(chunks)).to.deep.equal(['\uFFFD @0-5 invalid-bytes', '⸠http://x.cn/⸡@5-17', ' \uFFFD@17-22 invalid-bytes']);
  });

  it('every four-byte character of the BMP (39420 of them) and a sample beyond it, after an invalid byte, is iconv-lite\'s', () => {
    const pointers: number[] = [];
    for (let p = 0; p < 39420; p++) pointers.push(p);
    for (let p = 189000; p <= 1237575; p += 997) pointers.push(p);
    const input = Buffer.alloc(1 + pointers.length * 4);
    input[0] = 0xff;
    pointers.forEach((p, k) => {
      input[1 + k * 4] = 0x81 + Math.floor(p / 12600);
      input[2 + k * 4] = 0x30 + (Math.floor(p / 1260) % 10);
      input[3 + k * 4] = 0x81 + (Math.floor(p / 10) % 126);
      input[4 + k * 4] = 0x30 + (p % 10);
    });
    const expected = '\uFFFD' + pointers.map((_, k) => iconv.decode(input.subarray(1 + k * 4, 5 + k * 4), 'gb18030')).join('');
    expect(decodeInWrites('gb18030', input, []) === expected.normalize('NFC')).to.equal(true);
  });
});
