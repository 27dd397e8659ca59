// MailError `part-failed` (src/mail/message.ts): a text part that cannot be linkified makes the message resolve with
// `error: { code: 'part-failed', part }`, the other parts still linked, and `irilink --mail` names it on standard
// error. No real input of test size fails a part (the stream's decoder never throws on any bytes, see
// test/stream-decode-tails.test.ts; what is left is a part over V8's string limit, about 512 MiB), so the part step
// is made to fail through the seam `partSteps`, as such a part would: with a RangeError.
import { expect } from 'chai';
import { PassThrough, Writable } from 'node:stream';
import { main } from '../src/cli/main.js';

// src/mail/message.ts as the CLI loads it, by a dynamic import: mocha may load this file and its static imports as
// CommonJS (through tsx), which would be a second instance of the module, whose seam the CLI never sees.
let mail: typeof import('../src/mail/message.js');

const message = [
  'Subject: three parts',
  'Content-Type: multipart/mixed; boundary=b',
  '',
  '--b',
  'Content-Type: text/plain; charset=utf-8',
  '',
  'one https://one.example/',
  '--b',
  'Content-Type: text/plain; charset=utf-8',
  '',
  'two https://two.example/',
  '--b',
  'Content-Type: text/plain; charset=utf-8',
  '',
  'three https://three.example/',
  '--b--',
  '',
].join('\r\n');

/** Runs `body` with part `failing` made to throw `error` in the part step, as a part over the string limit would. */
async function withFailingPart<T>(failing: string, error: Error, body: () => Promise<T>): Promise<T> {
  const { partSteps } = mail;
  const real = partSteps.linkifyPart;
  partSteps.linkifyPart = (node, ...rest) => {
    const part = real(node, ...rest);
    if (part.part === failing) throw error;
    return part;
  };
  try {
    return await body();
  } finally {
    partSteps.linkifyPart = real;
  }
}

describe('mail: a text part that cannot be linkified (part-failed)', () => {
  before(async () => {
    mail = await import('../src/mail/message.js');
  });

  it('without the seam, the three parts are linked and there is no error', async () => {
    const m = await mail.linkifyMessage(Buffer.from(message));
    expect(m.parts.map((p) => [p.part, p.links.map((l) => l.uri)])).to.deep.equal([
      ['1', ['https://one.example/']],
      ['2', ['https://two.example/']],
      ['3', ['https://three.example/']],
    ]);
    expect(m.error).to.equal(undefined);
  });

  it('part 2 failing: error { code: part-failed, part: "2" } with the reason, parts 1 and 3 still linked', async () => {
    const m = await withFailingPart('2', new RangeError('Invalid string length'), () => mail.linkifyMessage(Buffer.from(message)));
    expect(m.error).to.deep.equal({ code: 'part-failed', message: 'part 2 could not be linkified: Invalid string length', part: '2' });
    expect(m.parts.map((p) => [p.part, p.links.map((l) => l.uri)])).to.deep.equal([
      ['1', ['https://one.example/']],
      ['3', ['https://three.example/']],
    ]);
    expect(m.subject).to.equal('three parts');
  });

  it('a TypeError from the part step is API misuse and is thrown, not made a part-failed', async () => {
    const misuse = new TypeError('irilink: option x must be …');
    let thrown: unknown;
    await withFailingPart('1', misuse, () => mail.linkifyMessage(Buffer.from(message))).catch((e: unknown) => (thrown = e));
    expect(thrown).to.equal(misuse);
  });

  it('irilink --mail: the message is written without the failed part, and standard error names it; exit 0', async () => {
    let out = '';
    let err = '';
    const stdout = new Writable({ write: (c: Buffer, _e, cb) => ((out += c.toString()), cb()) });
    const stderr = new Writable({ write: (c: Buffer, _e, cb) => ((err += c.toString()), cb()) });
    const stdin = new PassThrough();
    stdin.end(message);
    const code = await withFailingPart('2', new RangeError('Invalid string length'), () => main(['--mail', '-'], { stdin, stdout, stderr }));
    expect(err).to.equal('irilink: standard input: message 0 partly linked: part 2 could not be linkified: Invalid string length (part-failed)\n');
    expect(code).to.equal(0);
    const rows = out.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as { part: string; uri: string });
    expect(rows.map((r) => [r.part, r.uri])).to.deep.equal([
      ['1', 'https://one.example/'],
      ['3', 'https://three.example/'],
    ]);
  });
});
