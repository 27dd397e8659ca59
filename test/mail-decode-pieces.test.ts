// A legacy-charset (or UTF-16) mail part is decoded 64 KiB at a time (src/mail/message.ts decodeText): a character,
// an invalid sequence, an ISO-2022-JP escape sequence or a sequence NFC composes may straddle a piece boundary. Each
// such case, at every split of its bytes over the first and the second boundary, gives the text of one whole
// decode (as createLinkStream gives it) and the link, with `invalid-bytes` exactly where a U+FFFD replaced bytes.
import { expect } from 'chai';
import { createLinkStream } from '../src/stream/transform.js';
import { linkifyMessage } from '../src/mail/index.js';
import type { Chunk } from '../src/types.js';

const PIECE = 64 * 1024;
const latin1 = (s: string): Buffer => Buffer.from(s, 'latin1');

interface Case {
  charset: string;
  /** The bytes placed across a boundary, right after `see https://ex.example/p`. */
  bytes: Buffer;
  /** The link they end, as `⸠…⸡`, with `{invalid-bytes}` when it has that diagnostic. */
  link: string;
}

const cases: Case[] = [
  { charset: 'shift_jis', bytes: latin1('\x82\xa0'), link: '⸠https://ex.example/pあ⸡' },
  { charset: 'shift_jis', bytes: latin1('\x82 '), link: '⸠https://ex.example/p\uFFFD⸡{invalid-bytes}' },
  { charset: 'euc-jp', bytes: latin1('\x8f\xb0\xa1'), link: '⸠https://ex.example/p丂⸡' },
  { charset: 'gb18030', bytes: latin1('\x95\x32\x82\x36'), link: '⸠https://ex.example/p𠀀⸡' },
  // WHATWG Encoding §10.2.1: a fourth byte out of range is an error, and the bytes after the first are read again.
  { charset: 'gb18030', bytes: latin1('\x81\x30\x81\x7a'), link: '⸠https://ex.example/p\uFFFD0亃⸡{invalid-bytes}' },
  // WHATWG Encoding §11.1.1: Big5 88 62 is two code points, Ê and U+0304.
  { charset: 'big5', bytes: latin1('\x88\x62'), link: '⸠https://ex.example/pÊ\u0304⸡' },
  { charset: 'iso-2022-jp', bytes: latin1('\x1b$B\x24\x22\x1b(B'), link: '⸠https://ex.example/pあ⸡' },
  { charset: 'utf-16le', bytes: Buffer.from('\uD83D\uDE00', 'utf16le'), link: '⸠https://ex.example/p😀⸡' },
  { charset: 'utf-16le', bytes: Buffer.from([0x3d, 0xd8, 0x41, 0x00]), link: '⸠https://ex.example/p\uFFFDA⸡{invalid-bytes}' },
  // RFC 3987 §3.1 step 1 (variant B): NFC; windows-1258 EC is U+0301, composed with the `a` before it.
  { charset: 'windows-1258', bytes: latin1('a\xec'), link: '⸠https://ex.example/pá⸡' },
];

function encode(charset: string, s: string): Buffer {
  if (charset === 'utf-16le') return Buffer.from(s, 'utf16le');
  return latin1(s);
}

function shownLinks(chunks: readonly Chunk[]): string[] {
  return chunks
    .filter((c) => c.type === 'link')
    .map((c) => `⸠${c.text}⸡` + ((c.diagnostics ?? []).length > 0 ? `{${c.diagnostics!.join(',')}}` : ''));
}

describe('mail: a part decoded in 64 KiB pieces reads as one decode, whatever straddles a boundary', () => {
  for (const { charset, bytes, link } of cases) {
    it(`${charset} ${bytes.toString('hex')} split at every byte over the boundaries: ${link}`, async () => {
      const head = encode(charset, 'see https://ex.example/p');
      const tail = encode(charset, ' https://next.example/ x\n');
      const unit = charset === 'utf-16le' ? 2 : 1;
      let tried = 0;
      for (const boundary of [PIECE, 2 * PIECE]) {
        for (let split = 1; split < bytes.length; split++) {
          // `bytes` start `split` bytes before the boundary.
          const fillBytes = boundary - split - head.length;
          if (fillBytes % unit !== 0) continue;
          const fill = encode(charset, 'y'.repeat(fillBytes / unit - 1) + '\n');
          const body = Buffer.concat([fill, head, bytes, tail]);
          expect(body.indexOf(bytes, fill.length + head.length)).to.equal(boundary - split);
          const raw = Buffer.concat([latin1(`Content-Type: text/plain; charset=${charset}\r\n\r\n`), body]);
          const m = await linkifyMessage(raw);
          const part = m.parts[0]!;
          expect(shownLinks(part.chunks)).to.deep.equal([link, '⸠https://next.example/⸡']);
          const streamed: Chunk[] = [];
          for await (const chunk of createLinkStream({ encoding: charset }).end(body)) streamed.push(chunk as Chunk);
          expect(part.text).to.equal(streamed.map((c) => c.text).join(''));
          tried++;
        }
      }
      expect(tried).to.be.greaterThan(0);
    });
  }
});
