// Mail mode on messages over the MIME parser's limits (a header over 1 MiB, more than 1000 MIME parts) and on
// large messages: failure is a value (MailMessage.error), the messages after a bad one are read, and the output
// of a large message is written in pieces that add up to the whole.
import { expect } from 'chai';
import { PassThrough, Readable } from 'node:stream';
import {
  linkifyMail,
  linkifyMessage,
  MAIL_LIMITS,
  mailHtmlPieces,
  mailJsonlPieces,
  mailToHtml,
  mailToJsonl,
  runMail,
  type MailMessage,
} from '../src/mail/index.js';
import { toHtml } from '../src/render/index.js';

const FROM_ = 'From a@example.org Sat Jan  1 00:00:00 2000\n';
const ok = (n: number): string => `Subject: ok${n}\n\nsee https://ok${n}.example/ fine\n`;
/** A message whose Subject alone is over the 1 MiB header limit. */
const bigHeader = `Subject: ${'x'.repeat(MAIL_LIMITS.headerBytes)}\n\nhttps://lost.example/ body\n`;
/** `depth` multiparts, each inside the one before (the first is the message), around one text part. */
function nested(depth: number): string {
  let m = 'Subject: deep\n';
  for (let i = 0; i < depth; i++) m += `Content-Type: multipart/mixed; boundary=b${i}\n\n--b${i}\n`;
  return m + 'Content-Type: text/plain\n\nhttps://deep.example/ x\n';
}
/** One multipart/mixed with `count` text parts side by side. */
function flat(count: number): string {
  let m = 'Subject: flat\nContent-Type: multipart/mixed; boundary=B\n\n';
  for (let i = 0; i < count; i++) m += `--B\nContent-Type: text/plain\n\nhttps://p${i}.example/\n`;
  return m + '--B--\n';
}
const mbox = (...messages: string[]): Buffer => Buffer.from(messages.map((m) => FROM_ + m).join('\n'));

async function all(input: Parameters<typeof linkifyMail>[0]): Promise<MailMessage[]> {
  const out: MailMessage[] = [];
  for await (const m of linkifyMail(input)) out.push(m);
  return out;
}

const uris = (m: MailMessage): string[] => m.parts.flatMap((p) => p.links.map((l) => l.uri));

describe('mail: a message over the MIME limits is a value, and the mbox goes on', () => {
  it('a 1 MiB header: message 1 has error header-too-large and no parts; message 2 is read', async () => {
    const messages = await all(mbox(ok(1), bigHeader, ok(3)));
    expect(messages.map((m) => [m.index, m.error?.code, uris(m)])).to.deep.equal([
      [0, undefined, ['https://ok1.example/']],
      [1, 'header-too-large', []],
      [2, undefined, ['https://ok3.example/']],
    ]);
    expect(messages[1]!.error!.message).to.equal('a MIME header is over 1048576 bytes');
    expect('error' in messages[0]!).to.equal(false);
  });

  it('more than 999 MIME parts below the top, nested or side by side: too-many-parts; 999 are read', async () => {
    expect(MAIL_LIMITS).to.deep.equal({ headerBytes: 1048576, parts: 999 });
    const deep = await linkifyMessage(Buffer.from(nested(1000)), {}, 4); // 999 multiparts + 1 text part below the top
    expect([deep.index, deep.error, deep.parts]).to.deep.equal([
      4,
      { code: 'too-many-parts', message: 'the message has more than 999 MIME parts' },
      [],
    ]);
    expect(uris(await linkifyMessage(Buffer.from(nested(999))))).to.deep.equal(['https://deep.example/']);
    expect((await linkifyMessage(Buffer.from(flat(1000)))).error?.code).to.equal('too-many-parts');
    const fine = await linkifyMessage(Buffer.from(flat(999)));
    expect([fine.error, fine.parts.length, uris(fine)[998]]).to.deep.equal([undefined, 999, 'https://p998.example/']);
  });

  it('a header block of 1 MiB is read, one byte more is header-too-large', async () => {
    // "Subject: " + value + "\n" + the empty line: 1 MiB exactly, then one byte more.
    const header = (bytes: number): string => `Subject: ${'x'.repeat(bytes - 11)}\n\nhttps://a.example/\n`;
    const [at, over] = [await linkifyMessage(Buffer.from(header(MAIL_LIMITS.headerBytes))), await linkifyMessage(Buffer.from(header(MAIL_LIMITS.headerBytes + 1)))];
    expect([at.error, uris(at)]).to.deep.equal([undefined, ['https://a.example/']]);
    expect([over.error?.code, over.subject, uris(over)]).to.deep.equal(['header-too-large', undefined, []]);
  });

  it('runMail: html says why in the message section, jsonl has the other messages; counts include failed', async () => {
    const input = mbox(ok(1), nested(1000), ok(3));
    const run = async (format: 'html' | 'jsonl'): Promise<{ text: string; counts: object }> => {
      const out = new PassThrough();
      let text = '';
      out.on('data', (b: Buffer) => (text += b.toString()));
      const counts = await runMail(Readable.from([input]), out, format);
      return { text, counts };
    };
    const jsonl = await run('jsonl');
    expect(jsonl.counts).to.deep.equal({ messages: 3, links: 2, failed: 1 });
    expect(jsonl.text.trimEnd().split('\n').map((l) => (JSON.parse(l) as { message: number; uri: string }))
      .map((r) => [r.message, r.uri])).to.deep.equal([[0, 'https://ok1.example/'], [2, 'https://ok3.example/']]);
    const html = await run('html');
    expect(html.text.match(/<section [^>]*>/g)).to.deep.equal([
      '<section class="irilink-message" data-index="0">',
      '<section class="irilink-message" data-index="1" data-error="too-many-parts">',
      '<section class="irilink-message" data-index="2">',
    ]);
    expect(html.text).to.include(
      '<section class="irilink-message" data-index="1" data-error="too-many-parts">\n<h2>deep</h2>\n' +
        '<p class="irilink-error">the message has more than 999 MIME parts</p>\n</section>\n',
    );
  });

  it('the renderers refuse an error field that is not a MailError', async () => {
    const m = await linkifyMessage(Buffer.from(ok(1)));
    expect(() => mailToJsonl({ ...m, error: 'oops' } as unknown as MailMessage)).to.throw(TypeError, /mailToJsonl\(\): message.error must be/);
    expect(() => mailToHtml({ ...m, error: { code: 1 } } as unknown as MailMessage)).to.throw(TypeError, /mailToHtml\(\): message.error must be/);
  });
});

describe('mail: a large message is written in pieces', () => {
  // 720 KB of link-dense text: its jsonl is about 13 MB (200 pieces), its HTML about 2 MB.
  const line = 'see http://x.example/ a@example.org\n';
  const raw = Buffer.from(`Subject: big\n\n${line.repeat(20_000)}`);
  let m: MailMessage;
  before(async () => {
    m = await linkifyMessage(raw);
  });

  it('mailJsonlPieces: whole lines of about 64 Ki code units, together mailToJsonl; one line per link', () => {
    const pieces = [...mailJsonlPieces(m)];
    expect(pieces.length).to.be.greaterThan(100);
    for (const p of pieces) {
      expect(p.endsWith('\n')).to.equal(true);
      expect(p.length).to.be.within(1, 64 * 1024 + 1024);
    }
    const whole = pieces.join('');
    expect(whole).to.equal(mailToJsonl(m));
    const rows = whole.split('\n').slice(0, -1);
    expect(rows.length).to.equal(40_000);
    expect(JSON.parse(rows[39_999]!)).to.include({ line: 20_000, column: 23, text: 'a@example.org', uri: 'mailto:a@example.org' });
  });

  it('mailHtmlPieces: together the section around toHtml() of the part, and mailToHtml', () => {
    const pieces = [...mailHtmlPieces(m)];
    expect(pieces.length).to.be.greaterThan(10);
    for (const p of pieces) expect(p.length).to.be.within(1, 64 * 1024 + 1024);
    const expected =
      '<section class="irilink-message" data-index="0">\n<h2>big</h2>\n' +
      '<pre class="irilink-part" data-part="1" data-content-type="text/plain">\n' + toHtml(m.parts[0]!.chunks) + '</pre>\n' +
      '</section>\n';
    expect(pieces.join('')).to.equal(expected);
    expect(mailToHtml(m)).to.equal(expected);
  });

  it('runMail writes the pieces, with the same output as mailToJsonl', async () => {
    const out = new PassThrough({ highWaterMark: 1024 });
    const writes: string[] = [];
    out.on('data', (b: Buffer) => writes.push(b.toString()));
    const counts = await runMail(Readable.from([raw]), out, 'jsonl');
    expect(counts).to.deep.equal({ messages: 1, links: 40_000, failed: 0 });
    expect(writes.length).to.be.greaterThan(100);
    expect(writes.join('')).to.equal(mailToJsonl(m));
  });

  it('the pieces functions check their arguments at the call', () => {
    expect(() => mailJsonlPieces(null as unknown as MailMessage)).to.throw(TypeError, /mailJsonlPieces\(\): message must be/);
    expect(() => mailHtmlPieces({ index: -1 } as unknown as MailMessage)).to.throw(TypeError, /mailHtmlPieces\(\): message.index must be/);
  });
});
