// `irilink --mail` on inputs that hold a message over the MIME parser's limits, and over several inputs: the bad
// message is said on standard error with its number, the messages after it are read, the file is never "unreadable",
// and the message numbers continue across the inputs so that every row names one message.
import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureBuilt, irilink } from './support/cli.js';

function jsonLines(text: string): Record<string, unknown>[] {
  return text.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Record<string, unknown>);
}

const FROM_ = 'From a@example.org Sat Jan  1 00:00:00 2000\n';
const ok = (n: number): string => `Subject: ok${n}\n\nsee https://ok${n}.example/ fine\n`;

describe('irilink --mail: one bad message does not stop the input', function () {
  this.timeout(120_000);
  let dir = '';
  let mbox = '';
  let deep = '';
  before(() => {
    ensureBuilt();
    dir = mkdtempSync(path.join(tmpdir(), 'irilink-cli-mail-'));
    mbox = path.join(dir, 'bad-header.mbox');
    // Message 1's Subject alone is over the 1 MiB header limit.
    const big = `Subject: ${'x'.repeat(1 << 20)}\n\nhttps://lost.example/ body\n`;
    writeFileSync(mbox, [ok(0), big, ok(2)].map((m) => FROM_ + m).join('\n'));
    deep = path.join(dir, 'deep.eml');
    let nested = 'Subject: deep\n';
    for (let i = 0; i < 1000; i++) nested += `Content-Type: multipart/mixed; boundary=b${i}\n\n--b${i}\n`;
    writeFileSync(deep, nested + 'Content-Type: text/plain\n\nhttps://deep.example/ x\n');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('jsonl: the messages before and after are written, the bad one is named on stderr, exit 0', () => {
    const r = irilink(['--mail', mbox]);
    expect(r.stderr).to.equal(`irilink: ${mbox}: message 1 not linked: a MIME header is over 1048576 bytes (header-too-large)\n`);
    expect(r.status).to.equal(0);
    expect(jsonLines(r.stdout).map((o) => [o.message, o.uri])).to.deep.equal([
      [0, 'https://ok0.example/'],
      [2, 'https://ok2.example/'],
    ]);
  });

  it('html: the bad message has its section with data-error and the reason; --stats counts it', () => {
    const r = irilink(['--mail', '--format', 'html', '--stats', mbox]);
    expect(r.status, r.stderr).to.equal(0);
    expect(r.stdout.match(/<section [^>]*>/g)).to.deep.equal([
      '<section class="irilink-message" data-index="0">',
      '<section class="irilink-message" data-index="1" data-error="header-too-large">',
      '<section class="irilink-message" data-index="2">',
    ]);
    expect(r.stdout).to.include('<p class="irilink-error">a MIME header is over 1048576 bytes</p>');
    expect(r.stdout).to.include('<a href="https://ok2.example/"');
    expect(r.stderr.split('\n')[1]).to.equal('irilink: 1 input, 3 messages (1 with an error), 2 links');
  });

  it('too many MIME parts, and the inputs after it: read on, no "cannot read"', () => {
    const r = irilink(['--mail', deep, '-'], FROM_ + ok(7));
    expect(r.stderr).to.equal(`irilink: ${deep}: message 0 not linked: the message has more than 999 MIME parts (too-many-parts)\n`);
    expect(r.status).to.equal(0);
    expect(jsonLines(r.stdout).map((o) => [o.message, o.uri])).to.deep.equal([[1, 'https://ok7.example/']]);
  });

  it('the message numbers continue across the inputs (as --records line numbers do), in jsonl and html', () => {
    const a = path.join(dir, 'a.eml');
    const b = path.join(dir, 'b.eml');
    writeFileSync(a, ok(10));
    writeFileSync(b, ok(11));
    const r = irilink(['--mail', a, mbox, b]);
    expect(jsonLines(r.stdout).map((o) => [o.message, o.subject])).to.deep.equal([
      [0, 'ok10'],
      [1, 'ok0'],
      [3, 'ok2'],
      [4, 'ok11'],
    ]);
    expect(r.stderr).to.equal(`irilink: ${mbox}: message 2 not linked: a MIME header is over 1048576 bytes (header-too-large)\n`);
    const html = irilink(['--mail', '--format', 'html', a, b]).stdout;
    expect(html.match(/data-index="\d+"/g)).to.deep.equal(['data-index="0"', 'data-index="1"']);
  });

  it('--schemes keeps filtering, with the numbers continuing', () => {
    const a = path.join(dir, 'mixed.eml');
    writeFileSync(a, 'Subject: mixed\n\nhttp://plain.example/ and https://secure.example/\n');
    const r = irilink(['--mail', '--schemes', 'https', a, a]);
    expect(r.status, r.stderr).to.equal(0);
    expect(jsonLines(r.stdout).map((o) => [o.message, o.uri])).to.deep.equal([
      [0, 'https://secure.example/'],
      [1, 'https://secure.example/'],
    ]);
  });
});
