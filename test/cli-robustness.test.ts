// The `irilink` command end to end on hostile input (DESIGN.md "Streaming contract"), as users run it: `node
// bin/irilink.js`, standard input written in pieces of random sizes with pauses between some of them. For every mode:
// exit 0 and nothing on standard error, output that is valid for its format, the same output whatever the write sizes
// (jsonl: after merging adjacent text chunks, as the contract says), jsonl rows that tile the input with the right
// line and column, HTML that strips back to the input text, and several inputs (files, `-` twice, a missing file, a
// directory) handled in order.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { isUtf8 } from 'node:buffer';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { bin, ensureBuilt, irilink } from './support/cli.js';

interface Result {
  status: number | null;
  stdout: Buffer;
  stderr: string;
}

/** A deterministic generator (a linear congruential one): the same pieces on every run. */
function generator(seed: number): (n: number) => number {
  let x = seed >>> 0;
  return (n: number): number => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return (x >>> 8) % n;
  };
}

/**
 * Runs the command with `input` on standard input: whole (`maxPiece` 0), or in pieces of 1…maxPiece bytes, with a
 * pause of a few milliseconds after about one piece in eight, waiting for 'drain' when the pipe is full.
 */
function run(args: string[], input: Buffer, maxPiece: number, seed = 1): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--unhandled-rejections=strict', bin, '--no-progress', ...args]);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => err.push(d));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8') }));
    if (maxPiece === 0) {
      child.stdin.end(input);
      return;
    }
    const rnd = generator(seed);
    void (async () => {
      for (let i = 0; i < input.length; ) {
        const n = 1 + rnd(maxPiece);
        const full = !child.stdin.write(input.subarray(i, i + n));
        i += n;
        if (full) await new Promise((r) => child.stdin.once('drain', r));
        if (rnd(8) === 0) await new Promise((r) => setTimeout(r, rnd(4)));
      }
      child.stdin.end();
    })();
  });
}

const utf8 = (s: string): Buffer => Buffer.from(s, 'utf8');

/** Bytes chosen to break things: each covers one of the brief's hostile shapes. */
const HOSTILE: Record<string, Buffer> = {
  empty: Buffer.alloc(0),
  'no final line break': utf8('see https://例え.jp/パス and aiko@example.jp'),
  'invalid UTF-8 and an encoded lone surrogate': Buffer.concat([
    utf8('go https://a.example/x'),
    Buffer.from([0xff, 0xc3, 0x28, 0xe2, 0x82, 0xed, 0xa0, 0x80, 0xf4, 0x90, 0x80, 0x80]),
    utf8('y b@c.example\n'),
  ]),
  NUL: utf8('x\u0000https://a.example/\u0000b\u0000 c@d.example\u0000\n'),
  'CR alone and CR LF': utf8('a https://x.example/a\rb https://y.example\r\rc\r\nd www.example.com\r'),
  'BOM at the start and mid-stream': utf8('\ufeffhttps://a.example/\ufeff x \ufeffhttps://b.example\ufeff\n\ufeff'),
  'U+2028, U+2029, U+0085': utf8('https://a.example/p\u2028https://b.example\u2029c@d.example\u0085https://e.example/\u0085x\n'),
  'bidi controls': utf8('\u202ehttps://a.example/\u202c \u2067https://ب.example/ع\u2069 \u200fhttps://c.example\u200e \u061c\n'),
  'Markdown-looking': utf8('# h\n\n[a](https://x.example/(a) "t")\n```\nhttps://no.example\n```\n<https://auto.example> `https://code.example`\n\n[r]: https://ref.example\n'),
  'log-looking': utf8('{"url":"https://j.example/a","x":"b@c.example"}\nk=https://kv.example/p|q=1\n1.2.3.4 - - [x] "GET /a?u=https://r.example HTTP/1.1" 200 1 "https://ref.example/" "ua"\n'),
};

/** Pieces of link syntax, breaks and troublemakers, strung together at random. */
function texty(length: number, seed: number): Buffer {
  const parts = ['https://', 'http://', 'www.', '例え.jp', '.example', '/', '?', '#', '@', 'a', ' ', '\n', '\r', '\r\n', '\u0000', '(', ')', '[', ']', '<', '>', '"', '`', '*', '_', '~', '|', '\u2028', '\u0085', '\ufeff', '\u202e', 'mailto:', 'x@y.example', '%', '%zz', '\ud800', '.', ',', ':', '\t', 'ß', '٣', 'ｈｔｔｐｓ：／／', '\u3002', '&amp;', '\\'];
  const rnd = generator(seed);
  let s = '';
  while (s.length < length) s += parts[rnd(parts.length)];
  return utf8(s);
}

function randomBytes(length: number, seed: number): Buffer {
  const rnd = generator(seed);
  const b = Buffer.alloc(length);
  for (let i = 0; i < length; i++) b[i] = rnd(256);
  return b;
}

type Row = Record<string, any>;

function rows(out: Buffer): Row[] {
  return out.toString('utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Row);
}

/** jsonl chunk rows with adjacent text rows merged (the contract leaves text chunk boundaries free). */
function merged(out: Buffer): Row[] {
  const result: Row[] = [];
  for (const row of rows(out)) {
    const last = result[result.length - 1];
    if (row.type === 'text' && last !== undefined && last.type === 'text') {
      last.text += row.text;
      last.end = row.end;
      last.byteEnd = row.byteEnd;
      last.diagnostics = [...new Set([...last.diagnostics, ...row.diagnostics])].sort();
    } else {
      result.push({ ...row, diagnostics: [...row.diagnostics].sort() });
    }
  }
  return result;
}

/** The text the decoder gives for UTF-8 bytes: invalid bytes U+FFFD (WHATWG, as Buffer's), a leading BOM dropped. */
function decodedUtf8(input: Buffer): string {
  const text = input.toString('utf8');
  return text.startsWith('\ufeff') ? text.slice(1) : text;
}

/** The number of the first line (LF, CR LF or a lone CR ends one) whose bytes are not UTF-8, or 0. */
function firstInvalidLine(input: Buffer): number {
  let line = 1;
  let start = 0;
  for (let i = 0; i <= input.length; i++) {
    const c = i < input.length ? input[i] : 0x0a;
    if (c !== 0x0a && c !== 0x0d) continue;
    if (!isUtf8(input.subarray(start, i))) return line;
    if (c === 0x0d && input[i + 1] === 0x0a) i++;
    start = i + 1;
    line++;
  }
  return 0;
}

/** HTML back to text: tags dropped, the character references irilink writes decoded. */
function htmlText(html: string): string {
  const named: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
  return html
    .replace(/<[^<>]*>/g, '')
    .replace(/&(?:#x([0-9a-f]{1,6})|#([0-9]{1,7})|(lt|gt|amp|quot|apos));/gi, (_m, hex?: string, dec?: string, name?: string) =>
      hex !== undefined ? String.fromCodePoint(parseInt(hex, 16)) : dec !== undefined ? String.fromCodePoint(Number(dec)) : named[name!.toLowerCase()]!,
    );
}

describe('irilink command: hostile input end to end, written in random pieces', function () {
  this.timeout(600_000);
  // The hostile shapes one after another (a process per input is slow): the BOM first, the missing final line break last.
  const order = ['BOM at the start and mid-stream', ...Object.keys(HOSTILE).filter((k) => k !== 'BOM at the start and mid-stream' && k !== 'no final line break' && k !== 'empty'), 'no final line break'];
  const inputs: [string, Buffer][] = [
    ['empty input', HOSTILE.empty!],
    ['the hostile shapes', Buffer.concat(order.map((k) => HOSTILE[k]!))],
    ['random text', texty(8000, 11)],
    ['random bytes', randomBytes(6000, 13)],
  ];
  before(() => ensureBuilt());

  const MODES: string[][] = [
    [],
    ['-f', 'html'],
    ['-f', 'markdown'],
    ['-f', 'ansi'],
    ['-f', 'jsonl'],
    ['-f', 'text'],
    ['-f', 'jsonl', '--links'],
    ['-u'],
    ['--markdown', '-f', 'jsonl'],
    ['--markdown', '-f', 'markdown'],
    ['--mail'],
    ['--logs'],
    ['--records'],
    ['--schemes', 'https,mailto', '--no-email', '-f', 'html'],
    ['--no-schemeless', '-d', 'iri'],
  ];

  for (const mode of MODES) {
    it(`${mode.join(' ') || '(the link list)'}: exit 0, no message (but the note of invalid UTF-8), valid output, the same for any write sizes`, async () => {
      let seed = 100;
      for (const [name, input] of inputs) {
        const what = `${mode.join(' ')} on ${name}`;
        const whole = await run(mode, input, 0);
        const pieces = await run(mode, input, name.startsWith('random') ? 700 : 5, seed++);
        // The one note of a file that is not valid UTF-8 (but in mail mode; README: the command), naming the first
        // such line where lines are records.
        const lines = mode.includes('--logs') || mode.includes('--records');
        const where = lines ? ` from line ${firstInvalidLine(input)}` : '';
        const note = !isUtf8(input) && !mode.includes('--mail')
          ? `irilink: standard input: not valid UTF-8${where} (bytes read as U+FFFD, links through them flagged invalid-utf8); name its charset with --encoding\n`
          : '';
        expect([whole.status, whole.stderr], what).to.deep.equal([0, note]);
        expect([pieces.status, pieces.stderr], what).to.deep.equal([0, note]);
        const json = mode.includes('jsonl') || mode.includes('--records') || mode.includes('--mail');
        if (mode.includes('jsonl') && !mode.includes('--links')) {
          expect(merged(pieces.stdout), what).to.deep.equal(merged(whole.stdout));
        } else {
          if (json) expect(() => rows(whole.stdout), what).to.not.throw();
          expect(pieces.stdout.toString('utf8'), what).to.equal(whole.stdout.toString('utf8'));
        }
        if (mode[1] === 'text') expect(whole.stdout.toString('utf8'), what).to.equal(decodedUtf8(input));
        if (mode[1] === 'html' && mode.length === 2) expect(htmlText(whole.stdout.toString('utf8')), what).to.equal(decodedUtf8(input));
      }
    });
  }

  it('-f jsonl: the rows tile the decoded input, each with its line and column (LF, CR LF, a lone CR end a line)', async () => {
    let seed = 300;
    for (const [name, input] of inputs) {
      const text = decodedUtf8(input);
      const lineStarts = [0];
      for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c === 0x0a || (c === 0x0d && text.charCodeAt(i + 1) !== 0x0a)) lineStarts.push(i + 1);
      }
      const chunks = rows((await run(['-f', 'jsonl'], input, 9, seed++)).stdout);
      expect(chunks.map((c) => c.text).join(''), name).to.equal(text);
      let at = 0;
      for (const c of chunks) {
        expect([c.start, text.slice(c.start, c.end)], name).to.deep.equal([at, c.text]);
        at = c.end;
        let line = 0;
        while (line + 1 < lineStarts.length && lineStarts[line + 1]! <= c.start) line++;
        expect([c.line, c.column], `${name} at ${c.start}`).to.deep.equal([line + 1, c.start - lineStarts[line]! + 1]);
      }
    }
  });

  it('legacy and UTF-16/32 input with invalid bytes: the same text and links whatever the write sizes', async () => {
    const cases: [string, Buffer][] = [
      // A lone high and a lone low surrogate, then an odd last byte.
      ['utf-16le', Buffer.concat([Buffer.from('h\0t\0t\0p\0s\0:\0/\0/\0a\0.\0e\0x\0a\0m\0p\0l\0e\0 \0', 'latin1'), Buffer.from([0x00, 0xd8, 0x41, 0x00, 0x00, 0xdc, 0x0a, 0x00, 0x41])])],
      ['utf-16be', Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from('\0h\0t\0t\0p\0:\0/\0/\0b\0.\0e\0x\0a\0m\0p\0l\0e\0\r', 'latin1'), Buffer.from([0xd8, 0x00, 0x00, 0x41, 0xdc, 0x00, 0x00])])],
      ['shift_jis', Buffer.concat([utf8('https://a.example/'), Buffer.from([0x83, 0x70, 0x83, 0x58, 0x81, 0x0a, 0x82, 0xff, 0xa0, 0x5c, 0x7e, 0x20]), utf8('x@y.example')])],
      ['gb18030', Buffer.concat([utf8('https://a.example/'), Buffer.from([0xc0, 0xfd, 0x81, 0x30, 0x81, 0xff, 0x84, 0x31, 0xa4, 0x39, 0xfe, 0x20]), utf8('www.example.com\n')])],
      ['windows-1252', Buffer.from([...utf8('https://a.example/'), 0x80, 0x81, 0x8d, 0x99, 0x00, 0xff, 0x20, ...utf8('b@c.example')])],
      // Kanji, a JIS X 0208 pair cut by a line break, a half-width katakana set, a stray SO/SI, an escape cut off.
      ['iso-2022-jp', Buffer.concat([utf8('see https://a.example/'), Buffer.from([0x1b, 0x24, 0x42, 0x24, 0x28, 0x24, 0x22, 0x1b, 0x28, 0x42]), utf8(' x@y.example\r\n'), Buffer.from([0x1b, 0x24, 0x42, 0x30, 0x0a, 0x1b, 0x28, 0x49, 0x21, 0x1b, 0x28, 0x42, 0x0e, 0x0f]), utf8(' https://z.example/\n'), Buffer.from([0x1b, 0x24])])],
    ];
    let seed = 500;
    for (const [encoding, input] of cases) {
      for (const mode of [['-f', 'text'], ['-f', 'jsonl'], ['-f', 'jsonl', '--links'], []]) {
        const what = `-e ${encoding} ${mode.join(' ')}`;
        const args = ['-e', encoding, ...mode];
        const whole = await run(args, input, 0);
        expect([whole.status, whole.stderr], what).to.deep.equal([0, '']);
        const pieces = await run(args, input, 3, seed++);
        expect([pieces.status, pieces.stderr], what).to.deep.equal([0, '']);
        if (mode[1] === 'jsonl' && mode.length === 2) expect(merged(pieces.stdout), what).to.deep.equal(merged(whole.stdout));
        else expect(pieces.stdout.toString('utf8'), what).to.equal(whole.stdout.toString('utf8'));
        if (mode[1] === 'jsonl' && mode.length === 2) {
          // The text the chunks carry is the text output.
          const text = (await run(['-e', encoding, '-f', 'text'], input, 0)).stdout.toString('utf8');
          expect(rows(whole.stdout).map((c) => c.text).join(''), what).to.equal(text);
        }
        if (mode.length === 0) expect(whole.stdout.toString('utf8'), what).to.not.equal('');
      }
    }
  });

  describe('several inputs', () => {
    let dir = '';
    before(() => {
      dir = mkdtempSync(path.join(tmpdir(), 'irilink-robust-'));
      writeFileSync(path.join(dir, 'a.txt'), 'https://a.example/1\n');
      writeFileSync(path.join(dir, 'b.txt'), 'https://b.example/2'); // no final line break
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    it('files, `-` twice (the second reads the end of input), a missing file and a directory among them: in order, exit 1', () => {
      const a = path.join(dir, 'a.txt');
      const b = path.join(dir, 'b.txt');
      const missing = path.join(dir, 'missing');
      const args = [a, '-', missing, b, '-', dir, a];
      const list = irilink(args, 'https://s.example/x');
      expect(list.status).to.equal(1);
      expect(list.stdout).to.equal('https://a.example/1\nhttps://s.example/x\nhttps://b.example/2\nhttps://a.example/1\n');
      expect(list.stderr).to.equal(`irilink: cannot read ${missing}: no such file\nirilink: cannot read ${dir}: is a directory\n`);
      const text = irilink(['-f', 'text', ...args], 'https://s.example/x');
      expect(text.stdout).to.equal('https://a.example/1\nhttps://s.example/xhttps://b.example/2https://a.example/1\n');
      const records = irilink(['--records', ...args], 'https://s.example/x');
      expect(records.status).to.equal(1);
      expect(rows(Buffer.from(records.stdout)).map((r) => [r.line, r.links.map((l: Row) => l.text)])).to.deep.equal([
        [1, ['https://a.example/1']],
        [2, ['https://s.example/x']],
        [3, ['https://b.example/2']],
        [4, ['https://a.example/1']],
      ]);
      const unique = irilink(['-u', ...args], 'https://s.example/x');
      expect(unique.stdout).to.equal('https://a.example/1\nhttps://s.example/x\nhttps://b.example/2\n');
    });
  });
});
