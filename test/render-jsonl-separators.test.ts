// U+0085 (NEL), U+2028 (LS) and U+2029 (PS) in JSON Lines output. JSON.stringify writes them raw, which is valid
// JSON (RFC 8259 §7), but tools that split lines by Unicode's rules (Python's str.splitlines(), some editors,
// JavaScript source before ES2019) would cut such a row in two. Every writer of JSON rows goes through jsonlText
// (src/render/jsonl.ts), which writes them as `\u0085` `\u2028` `\u2029`: the same JSON value, one line a row.
import { expect } from 'chai';
import { Buffer } from 'node:buffer';
import { Readable } from 'node:stream';
import { linkify } from '../src/detect/index.js';
import { createRenderStream, toJsonl } from '../src/render/index.js';
import { jsonlText } from '../src/render/jsonl.js';
import { createLogLinkStream, createRecordStream, linkRecords } from '../src/logs/index.js';
import { linkifyMessage, mailToJsonl } from '../src/mail/index.js';
import { linkifyMarkdown } from '../src/markdown/index.js';
import type { Chunk } from '../src/types.js';
import { ensureBuilt, irilink } from './support/cli.js';
import { link } from './render-support.js';

const NEL = '\u0085';
const LS = '\u2028';
const PS = '\u2029';
const SEPARATORS: readonly [string, string][] = [
  [NEL, '\\u0085'],
  [LS, '\\u2028'],
  [PS, '\\u2029'],
];

/** The lines of `s` as Python's str.splitlines() finds them: \n \r \r\n \v \f \x1c \x1d \x1e \x85 \u2028 \u2029. */
function pythonLines(s: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const isBreak = c === 0x0a || c === 0x0d || c === 0x0b || c === 0x0c || (c >= 0x1c && c <= 0x1e) || c === 0x85 || c === 0x2028 || c === 0x2029;
    if (!isBreak) continue;
    out.push(s.slice(start, i));
    if (c === 0x0d && s.charCodeAt(i + 1) === 0x0a) i++;
    start = i + 1;
  }
  if (start < s.length) out.push(s.slice(start));
  return out;
}

/**
 * The rows of JSON Lines output that must hold `count` rows: exactly `count` LF-terminated lines, the same number
 * of lines for a Python-style splitter, none of the three characters raw; each row parsed.
 */
function rowsOf(out: string, count: number): Record<string, unknown>[] {
  expect(out.endsWith('\n'), 'ends with LF').to.equal(true);
  const lines = out.split('\n').slice(0, -1);
  expect(lines.length, 'LF-terminated lines').to.equal(count);
  expect(pythonLines(out).length, 'lines for str.splitlines()').to.equal(count);
  expect(out).not.to.match(/[\u0085\u2028\u2029]/);
  return lines.map((l) => JSON.parse(l) as Record<string, unknown>);
}

async function streamOut(stream: NodeJS.ReadWriteStream, input: Buffer | Chunk[]): Promise<string> {
  const pieces: Buffer[] = [];
  const source = Array.isArray(input) ? Readable.from(input) : Readable.from([input]);
  for await (const b of source.pipe(stream)) pieces.push(typeof b === 'string' ? Buffer.from(b) : (b as Buffer));
  return Buffer.concat(pieces).toString('utf8');
}

// Text around and between links holding each of the three, and one of them at each end.
const TEXT = `${NEL}a${LS}b see https://例え.jp/パス${PS} and ${LS}www.example.com${NEL} c${PS}d e@example.org${LS}`;

describe('JSON Lines: U+0085, U+2028 and U+2029 are escaped in every writer', () => {
  it('jsonlText: each is written as its escape, JSON.parse gives the value back; without them it is JSON.stringify', () => {
    for (const [c, escape] of SEPARATORS) {
      expect(jsonlText({ text: `a${c}b` })).to.equal(`{"text":"a${escape}b"}`);
      expect(jsonlText({ text: `${c}${c}` })).to.equal(`{"text":"${escape}${escape}"}`);
      // After a backslash of the value (written `\\`), the escape is still an escape of its own.
      const value = { text: `\\${c}"`, list: [c, 'x'] };
      expect(jsonlText(value)).to.equal(`{"text":"\\\\${escape}\\"","list":["${escape}","x"]}`);
      expect(JSON.parse(jsonlText(value))).to.deep.equal(value);
    }
    const plain = { line: 1, text: 'https://例え.jp/パス \u00a0\u0084\u0086\u2027\u202a', links: [] };
    expect(jsonlText(plain)).to.equal(JSON.stringify(plain));
  });

  it('toJsonl and the jsonl render stream: text chunks and link fields holding them, one line a chunk', async () => {
    const chunks = linkify(TEXT);
    expect(chunks.filter((c) => c.type === 'link').map((c) => c.text)).to.deep.equal(['https://例え.jp/パス', 'www.example.com', 'e@example.org']);
    const out = toJsonl(chunks);
    const rows = rowsOf(out, chunks.length);
    expect(rows.map((r) => r.text).join('')).to.equal(TEXT);
    expect(await streamOut(createRenderStream('jsonl'), chunks)).to.equal(out);
    // A link chunk a program made, whose text, uri and iri hold them (the detector never puts them in a link).
    for (const [c] of SEPARATORS) {
      const made = link(`https://a.example/${c}x`, 0, { iri: `https://a.example/${c}x`, uri: 'https://a.example/%E2%80%A8x' });
      const [row] = rowsOf(toJsonl([made], { links: true }), 1);
      expect(row).to.include({ text: `https://a.example/${c}x`, iri: `https://a.example/${c}x` });
      expect(rowsOf(await streamOut(createRenderStream('jsonl', { links: true }), [made]), 1)).to.deep.equal([row]);
    }
  });

  it('--records and --logs streams: one line a record or link, also for a long line written in pieces', async () => {
    // Lines holding them around links; the fourth is long enough (with maxRecordBytes 64) to be scanned in pieces.
    const long = `${LS}https://long.example/a ${NEL.repeat(40)} https://例え.jp/b${PS}`.repeat(6);
    const input = `${TEXT}\nplain${PS}line\n\n${long}\n${NEL}https://z.example/${LS}\n`;
    const expected = linkRecords(input);
    expect(expected.length).to.equal(5);
    expect(expected[3]!.links.length).to.equal(12);
    for (const maxRecordBytes of [64, 1 << 20]) {
      const out = await streamOut(createRecordStream({ maxRecordBytes }), Buffer.from(input));
      // Byte for byte what the shared writer gives for each whole record, however it was written.
      expect(out, `maxRecordBytes ${maxRecordBytes}`).to.equal(expected.map((r) => jsonlText(r) + '\n').join(''));
      expect(rowsOf(out, 5)).to.deep.equal(JSON.parse(JSON.stringify(expected)));
      const links = await streamOut(createLogLinkStream({ maxRecordBytes }), Buffer.from(input));
      expect(rowsOf(links, 16).map((r) => r.text)).to.deep.equal(expected.flatMap((r) => r.links.map((l) => l.text)));
    }
  });

  it('--mail rows: a Subject holding them (RFC 2047 encoded word) stays one line a link', async () => {
    const subject = `one${LS}two${NEL}three${PS}`;
    const encoded = `=?UTF-8?B?${Buffer.from(subject).toString('base64')}?=`;
    const message = await linkifyMessage(Buffer.from(`Subject: ${encoded}\n\nsee https://例え.jp/パス${LS}and www.example.com\n`));
    expect(message.subject).to.equal(subject);
    const rows = rowsOf(mailToJsonl(message), 2);
    expect(rows.map((r) => [r.subject, r.text])).to.deep.equal([
      [subject, 'https://例え.jp/パス'],
      [subject, 'www.example.com'],
    ]);
  });

  describe('the command', () => {
    before(() => ensureBuilt());

    it('-f jsonl, --markdown -f jsonl (with its construct), --records, --logs -f jsonl -l, --mail', () => {
      const jsonl = irilink(['-f', 'jsonl'], TEXT);
      expect(jsonl.status).to.equal(0);
      expect(rowsOf(jsonl.stdout, linkify(TEXT).length).map((r) => r.text).join('')).to.equal(TEXT);

      const markdown = `*${LS}*[see${PS}](https://a.example/) https://b.example/${NEL}\n`;
      const md = irilink(['--markdown', '-f', 'jsonl', '-l'], markdown);
      expect(rowsOf(md.stdout, 2).map((r) => [r.text, r.construct])).to.deep.equal([
        ['https://a.example/', 'link'],
        ['https://b.example/', 'bare'],
      ]);
      expect(rowsOf(irilink(['--markdown', '-f', 'jsonl'], markdown).stdout, linkifyMarkdown(markdown).length).map((r) => r.text).join('')).to.equal(markdown);

      const lines = `${TEXT}\n${LS}${NEL}${PS}\nhttps://z.example/${PS}\n`;
      expect(rowsOf(irilink(['--records'], lines).stdout, 3).map((r) => (r.links as unknown[]).length)).to.deep.equal([3, 0, 1]);
      expect(rowsOf(irilink(['--logs', '-f', 'jsonl', '-l'], lines).stdout, 4).map((r) => r.line)).to.deep.equal([1, 1, 1, 3]);

      const mail = irilink(['--mail'], `Subject: =?UTF-8?B?${Buffer.from(`a${LS}b`).toString('base64')}?=\n\nhttps://a.example/${NEL}\n`);
      expect(rowsOf(mail.stdout, 1)[0]).to.include({ subject: `a${LS}b`, text: 'https://a.example/' });
    });
  });
});
