// Mail links (and text chunks) that cover a U+FFFD standing for invalid bytes carry `invalid-utf8` (a UTF-8 part) or
// `invalid-bytes` (any other charset), as createLinkStream gives them (README "Diagnostics"), although the part's
// text went through transfer decoding, charset decoding, CR LF → LF and format=flowed unfolding before detection.
// A U+FFFD the part encodes itself (EF BF BD in UTF-8) is text and gets nothing. Also: MailPart.links are the link
// chunks' values without `type`, linkifyQuoted gives linkify()'s chunks, and the caller's message bytes stay as they were.
import { expect } from 'chai';
import { createLinkStream } from '../src/stream/transform.js';
import { linkify } from '../src/detect/index.js';
import { decodeFlowed, linkifyMessage, linkifyQuoted, mailToJsonl, type MailPart } from '../src/mail/index.js';
import { unflow } from '../src/mail/flowed.js';
import type { Chunk } from '../src/types.js';

/** A one-part message: the header lines, an empty line, then the body bytes (a string is read as latin1). */
function message(headers: string[], body: string | Buffer): Buffer {
  return Buffer.concat([Buffer.from(headers.join('\r\n') + '\r\n\r\n', 'latin1'), typeof body === 'string' ? Buffer.from(body, 'latin1') : body]);
}

async function onePart(headers: string[], body: string | Buffer): Promise<MailPart> {
  const m = await linkifyMessage(message(headers, body));
  expect(m.error).to.equal(undefined);
  expect(m.parts).to.have.length(1);
  return m.parts[0]!;
}

/** Each chunk as `⸠link⸡` or its text, followed by its diagnostics in braces when it has some. */
function shown(chunks: readonly Chunk[]): string {
  return chunks
    .map((c) => {
      const text = c.type === 'link' ? `⸠${c.text}⸡` : c.text;
      const d = c.diagnostics ?? [];
      return d.length > 0 ? `${text}{${d.join(',')}}` : text;
    })
    .join('');
}

/** Every part: links are the link chunks without `type`, sharing their diagnostics arrays. */
function checkLinks(part: MailPart): void {
  const linkChunks = part.chunks.filter((c) => c.type === 'link');
  expect(part.links).to.have.length(linkChunks.length);
  part.links.forEach((link, i) => {
    const { type, ...values } = linkChunks[i]!;
    expect(type).to.equal('link');
    expect(link).to.deep.equal(values);
    expect(Object.keys(link)).to.deep.equal(Object.keys(values));
    expect(link.diagnostics).to.equal(linkChunks[i]!.diagnostics);
  });
}

const UTF8 = 'Content-Type: text/plain; charset=utf-8';

describe('mail: invalid bytes give invalid-utf8 / invalid-bytes, as in the stream', () => {
  it('quoted-printable: =FF inside a URL marks the link; =FE in the text marks its text chunk', async () => {
    const part = await onePart([UTF8, 'Content-Transfer-Encoding: quoted-printable'], 'see https://example.com/a=FFb now =FE x\r\n');
    expect(shown(part.chunks)).to.equal('see ⸠https://example.com/a\uFFFDb⸡{invalid-utf8} now \uFFFD x\n{invalid-utf8}');
    expect(part.links.map((l) => l.diagnostics)).to.deep.equal([['invalid-utf8']]);
    checkLinks(part);
  });

  it('base64: an invalid byte inside a URL', async () => {
    const body = Buffer.from('see https://example.com/a\xffb now\r\nand https://ok.example/ too\r\n', 'latin1').toString('base64');
    const part = await onePart([UTF8, 'Content-Transfer-Encoding: base64'], body + '\r\n');
    expect(shown(part.chunks)).to.equal('see ⸠https://example.com/a\uFFFDb⸡{invalid-utf8} now\nand ⸠https://ok.example/⸡ too\n');
    checkLinks(part);
  });

  it('8bit: a truncated sequence and a lone byte in one link; the same diagnostics as createLinkStream', async () => {
    const body = 'line one\r\nsee https://example.com/a\xe2\x82b\xffc now https://ok.example/\r\n';
    const part = await onePart([UTF8, 'Content-Transfer-Encoding: 8bit'], body);
    expect(shown(part.chunks)).to.equal('line one\nsee ⸠https://example.com/a\uFFFDb\uFFFDc⸡{invalid-utf8} now ⸠https://ok.example/⸡\n');
    checkLinks(part);
    const streamed: Chunk[] = [];
    for await (const chunk of createLinkStream().end(Buffer.from(body, 'latin1'))) streamed.push(chunk as Chunk);
    const links = (chunks: readonly Chunk[]): [string, readonly string[]][] =>
      chunks.filter((c) => c.type === 'link').map((c) => [c.text, c.diagnostics ?? []]);
    expect(links(part.chunks)).to.deep.equal(links(streamed));
  });

  it('a U+FFFD the part encodes (EF BF BD, raw or quoted-printable) gets nothing', async () => {
    const raw = await onePart([UTF8, 'Content-Transfer-Encoding: 8bit'], 'see https://example.com/a\xef\xbf\xbdb now\r\n');
    expect(shown(raw.chunks)).to.equal('see ⸠https://example.com/a\uFFFDb⸡ now\n');
    const qp = await onePart([UTF8, 'Content-Transfer-Encoding: quoted-printable'], 'see https://example.com/a=EF=BF=BDb =EF=BF=BD\r\n');
    expect(shown(qp.chunks)).to.equal('see ⸠https://example.com/a\uFFFDb⸡ \uFFFD\n');
    // Both kinds in one part: only the replacement is marked.
    const both = await onePart([UTF8, 'Content-Transfer-Encoding: 8bit'], 'https://a.example/\xef\xbf\xbd https://b.example/\xff\r\n');
    expect(shown(both.chunks)).to.equal('⸠https://a.example/\uFFFD⸡ ⸠https://b.example/\uFFFD⸡{invalid-utf8}\n');
  });

  it('a charset other than UTF-8 gives invalid-bytes: windows-1253 0xAA, a Shift_JIS lead byte without its trail', async () => {
    const greek = await onePart(['Content-Type: text/plain; charset=windows-1253', 'Content-Transfer-Encoding: 8bit'], 'see https://example.gr/\xe1\xaab now\r\n');
    expect(shown(greek.chunks)).to.equal('see ⸠https://example.gr/α\uFFFDb⸡{invalid-bytes} now\n');
    checkLinks(greek);
    const sjis = await onePart(['Content-Type: text/plain; charset=shift_jis', 'Content-Transfer-Encoding: 8bit'], 'see https://example.jp/\x82\xa0\x85\x40b now\r\n');
    expect(shown(sjis.chunks)).to.equal('see ⸠https://example.jp/あ\uFFFD@b⸡{invalid-bytes} now\n');
    checkLinks(sjis);
  });

  it('a legacy-charset part longer than one decoding piece: the text and the diagnostics of one write, as the stream gives them', async () => {
    // A line of 65,535 bytes first, so that the pair あ (82 A0) starting the next line straddles the first 64 KiB
    // boundary; then lines of three kinds, with lone lead bytes (85) in links, until the body is over 3 pieces.
    const line = (s: string): Buffer => Buffer.from(s, 'latin1');
    const lines: Buffer[] = [line('x'.repeat(65534) + '\n')];
    const kinds = [
      line('\x82\xa0 https://ok.example/\x82\xa0 x\n'),
      line('z https://bad.example/\x85 y\n'),
      line('\x82\xa0\x82\xa0\x82\xa0 plain \x82\xa0\x82\xa0\n'),
    ];
    let size = 65535;
    for (let i = 0; size < 3 * 65536 + 1000; i++) {
      const b = i % 7 === 6 ? kinds[1]! : kinds[i % 2 === 0 ? 0 : 2]!;
      lines.push(b);
      size += b.length;
    }
    const body = Buffer.concat(lines);
    expect([body[65535], body[65536]]).to.deep.equal([0x82, 0xa0]);
    const part = await onePart(['Content-Type: text/plain; charset=shift_jis', 'Content-Transfer-Encoding: 8bit'], body);
    const streamed: Chunk[] = [];
    for await (const chunk of createLinkStream({ encoding: 'shift_jis' }).end(body)) streamed.push(chunk as Chunk);
    expect(part.text).to.equal(streamed.map((c) => c.text).join(''));
    const view = (chunks: readonly Chunk[]): [string, number, readonly string[]][] =>
      chunks.filter((c) => c.type === 'link').map((c) => [c.text, c.start, c.diagnostics ?? []]);
    expect(view(part.chunks)).to.deep.equal(view(streamed));
    const bad = part.links.filter((l) => l.diagnostics.includes('invalid-bytes'));
    expect(bad.length).to.equal(lines.filter((b) => b === kinds[1]).length);
    expect(bad.length).to.be.greaterThan(10);
    expect(bad.every((l) => l.text === 'https://bad.example/\uFFFD')).to.equal(true);
    checkLinks(part);
  });

  it('format=flowed: the mark follows the text through soft breaks, stuffing, quote prefixes and DelSp', async () => {
    const body = [
      'x \uFFFD', // a text chunk's own replacement, before any unfolding (raw \xff below)
      '>> quoted line one ',
      '>> see https://example.com/a\xffb/c ',
      '>> d now',
      ' stuffed https://st.example/\xff',
      '>no space https://q.example/p\xff ',
      '>q done',
      '',
    ].join('\r\n').replace('\uFFFD', '\xfe');
    const part = await onePart(['Content-Type: text/plain; charset=utf-8; format=flowed; delsp=yes', 'Content-Transfer-Encoding: 8bit'], body);
    expect(part.flowed).to.equal(true);
    expect(shown(part.chunks)).to.equal(
      [
        'x \uFFFD\n>> quoted line onesee {invalid-utf8}⸠https://example.com/a\uFFFDb/cd⸡{invalid-utf8} now',
        'stuffed ⸠https://st.example/\uFFFD⸡{invalid-utf8}',
        '> no space ⸠https://q.example/p\uFFFDq⸡{invalid-utf8} done',
        '',
      ].join('\n'),
    );
    checkLinks(part);
  });

  it('unflow moves offsets as decodeFlowed moves the characters', () => {
    const text = 'a \n>>b\u00e9 \n>> c\u00e9\n d\u00e9\n-- \ne\u00e9';
    const marks: number[] = [];
    for (let i = text.indexOf('é'); i >= 0; i = text.indexOf('é', i + 1)) marks.push(i);
    for (const delSp of [false, true]) {
      const moved = marks.slice();
      const out = unflow(text, delSp, moved);
      expect(out).to.equal(decodeFlowed(text, delSp));
      expect(moved.map((m) => out[m])).to.deep.equal(['é', 'é', 'é', 'é']);
      // 'a\n>> bécé\ndé\n-- \neé' and 'a \n>> bé cé\ndé\n-- \neé'
      expect(moved).to.deep.equal(delSp ? [6, 8, 11, 18] : [7, 10, 13, 20]);
    }
  });

  it('an invalid byte outside every link leaves the links and the jsonl rows as they were', async () => {
    const part = await onePart([UTF8, 'Content-Transfer-Encoding: 8bit'], '\xff see https://ok.example/ \xff\r\n');
    expect(shown(part.chunks)).to.equal('\uFFFD see {invalid-utf8}⸠https://ok.example/⸡ \uFFFD\n{invalid-utf8}');
    const jsonl = mailToJsonl({ index: 0, envelope: undefined, messageId: undefined, subject: undefined, from: undefined, date: undefined, parts: [part] });
    expect(JSON.parse(jsonl).diagnostics).to.deep.equal([]);
  });
});

describe('mail: links are the link chunks without type (no copies), linkifyQuoted is linkify()', () => {
  const texts = [
    'see https://例え.jp/パス。 and mail@example.com, www.example.org/x?y=1',
    '> see <https://example.com/a/very/long\n> /path> and \u202Ehttps://evil.example/ there\n',
    'a \u202Eb https://x.example/\n\nhttps://y.example/ user:pw@z.example/ http://[::1/',
    '',
    'no links at all > here',
  ];
  for (const text of texts) {
    it(`linkifyQuoted(${JSON.stringify(text.slice(0, 24))}…) = linkify() of the masked text, with the text's own slices`, () => {
      const masked = text.replace(/^[> \t]*/gm, (prefix) => prefix.replace(/>/g, ' '));
      const expected = linkify(masked).map((c) => ({ ...c, text: text.slice(c.start, c.end) }));
      expect(linkifyQuoted(text)).to.deep.equal(expected);
    });
  }

  it("an 8bit part's body is read where it lies in the message: the caller's bytes are left as they were", async () => {
    for (const [charset, body] of [
      ['utf-16le', Buffer.from('see https://例え.jp/パス\r\n', 'utf16le')],
      ['utf-8', Buffer.from('see https://例え.jp/パス\xff\r\n', 'latin1')],
      ['shift_jis', Buffer.from('see https://example.jp/\x82\xa0\r\n', 'latin1')],
    ] as const) {
      const raw = message([`Content-Type: text/plain; charset=${charset}`, 'Content-Transfer-Encoding: 8bit'], body);
      const copy = Buffer.from(raw);
      const m = await linkifyMessage(raw);
      expect(m.parts[0]!.links).to.have.length(1);
      expect(raw.equals(copy)).to.equal(true);
    }
  });

  it('a message with quoted, bidi-embedded and plain links: every Link deep-equals its chunk without type', async () => {
    const part = await onePart([UTF8, 'Content-Transfer-Encoding: 8bit'], Buffer.from(texts.join('\n') + '\n', 'utf8'));
    expect(part.links.length).to.be.greaterThan(5);
    expect(part.links.some((l) => l.diagnostics.includes('bidi-embedded'))).to.equal(true);
    checkLinks(part);
  });
});
