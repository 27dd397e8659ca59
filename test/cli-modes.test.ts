// The issue-6 modes of the `irilink` command (--markdown, --mail, --records, --logs), run as users run it:
// `node bin/irilink.js …` on the files of test/fixtures (README there says what each holds).
import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import MarkdownIt from 'markdown-it';
import { repoRoot } from './support/shared.js';
import { ensureBuilt, fixture, irilink } from './support/cli.js';
import { main } from '../src/cli/main.js';


function jsonLines(text: string): Record<string, any>[] {
  return text.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Record<string, any>);
}


describe('irilink command: modes (issue 6)', function () {
  this.timeout(120_000);
  before(() => ensureBuilt());

  describe('--markdown', () => {
    const doc = fixture('doc.md');

    it('lists bare links and the destinations the author wrote; nothing from code spans, fenced or indented code', () => {
      const r = irilink(['--markdown', '--display', 'text', doc]);
      expect(r.status, r.stderr).to.equal(0);
      expect(r.stdout.split('\n').slice(0, -1)).to.deep.equal([
        'https://bare.example/one',
        'https://bold.example/two', // **…** is not part of the link
        'https://under.example/three', // _…_ neither
        'https://inline.example/docs',
        'https://image.example/logo.png',
        'https://auto.example/x',
        'ref', // the link text of [reference][ref]; its uri is the definition's
        'https://例え.jp/パス',
        'https://definition.example/ref',
      ]);
      expect(r.stdout).to.not.include('code-span');
      expect(r.stdout).to.not.include('fenced');
      expect(r.stdout).to.not.include('indented');
    });

    it('plain text mode, for contrast, links inside code and keeps `**` out only by its own rules', () => {
      const r = irilink(['--display', 'text', doc]);
      expect(r.stdout).to.include('https://code-span.example/');
      expect(r.stdout).to.include('https://fenced.example/');
    });

    it('--format jsonl --links carries the construct of each link, with offsets into the file', () => {
      const r = irilink(['--markdown', '--format', 'jsonl', '--links', doc]);
      expect(r.status, r.stderr).to.equal(0);
      const links = jsonLines(r.stdout);
      expect(links.map((o) => [o.construct, o.uri])).to.deep.equal([
        ['bare', 'https://bare.example/one'],
        ['bare', 'https://bold.example/two'],
        ['bare', 'https://under.example/three'],
        ['link', 'https://inline.example/docs'],
        ['image', 'https://image.example/logo.png'],
        ['autolink', 'https://auto.example/x'],
        ['link-reference', 'https://definition.example/ref'],
        ['bare', 'https://xn--r8jz45g.jp/%E3%83%91%E3%82%B9'],
        ['definition', 'https://definition.example/ref'],
      ]);
      const raw = readFileSync(doc);
      for (const o of links) expect(raw.subarray(o.byteStart, o.byteEnd).toString('utf8')).to.equal(o.text);
    });

    it('--format markdown keeps the source and makes bare links links; markdown-it finds exactly the expected links', () => {
      const r = irilink(['--markdown', '--format', 'markdown', doc]);
      expect(r.status, r.stderr).to.equal(0);
      const source = readFileSync(doc, 'utf8');
      expect(r.stdout).to.include('See <https://bare.example/one> and **<https://bold.example/two>**');
      expect(r.stdout).to.include('[https://例え.jp/パス](<https://xn--r8jz45g.jp/%E3%83%91%E3%82%B9>)。');
      expect(r.stdout).to.include('Code `https://code-span.example/` is not linked.');
      expect(r.stdout).to.include('```\nhttps://fenced.example/\n```\n\n    https://indented.example/\n');
      // Only bare links changed: the output has the source's lines, no line added or joined.
      const lines = r.stdout.split('\n');
      expect(lines.length).to.equal(source.split('\n').length);
      // The real markdown-it (linkify off) reads the output: every link the author wrote plus every bare link.
      const md = new MarkdownIt();
      const found: string[] = [];
      const walk = (tokens: ReturnType<InstanceType<typeof MarkdownIt>['parse']>): void => {
        for (const t of tokens) {
          if (t.type === 'link_open') found.push(String(t.attrGet('href')));
          if (t.type === 'image') found.push(String(t.attrGet('src')));
          if (t.children) walk(t.children);
        }
      };
      walk(md.parse(r.stdout, {}));
      const expected = jsonLines(irilink(['--markdown', '--format', 'jsonl', '--links', doc]).stdout)
        .filter((o) => o.construct !== 'definition')
        .map((o) => o.uri as string);
      expect(found).to.deep.equal(expected);
      // and in the source as given, markdown-it sees no bare link: they are what irilink added.
      const before: string[] = [];
      for (const t of md.parse(source, {})) for (const c of t.children ?? []) if (c.type === 'link_open') before.push(String(c.attrGet('href')));
      expect(before).to.deep.equal(['https://inline.example/docs', 'https://auto.example/x', 'https://definition.example/ref']);
    });

    it('--no-gfm: ~~ and | are no longer delimiters (CommonMark only)', () => {
      // GFM closes the strikethrough before `b`; as text, `~~` inside the link stays (the plain-text emphasis rule
      // takes out only a run repeated at the link's end).
      // (In a query a `|` is the link's as text; in a path it ends a link anyway, terminate.ts.)
      const input = 'a ~~https://x.example/a~~b\n\n| h | i |\n|---|---|\n| https://t.example/?p|q |\n';
      expect(irilink(['--markdown', '-d', 'text'], input).stdout).to.equal('https://x.example/a\nhttps://t.example/?p\n');
      expect(irilink(['--markdown', '--no-gfm', '-d', 'text'], input).stdout).to.equal('https://x.example/a~~b\nhttps://t.example/?p|q\n');
    });
  });

  describe('--mail', () => {
    const mbox = fixture('two.mbox');

    it('an mbox of two messages (ISO-2022-JP, Shift_JIS): one JSON line per link with its message, each part in its charset', () => {
      const r = irilink(['--mail', mbox]);
      expect(r.status, r.stderr).to.equal(0);
      const links = jsonLines(r.stdout);
      expect(links.map((o) => [o.message, o.subject, o.charset, o.text])).to.deep.equal([
        [0, '会議の資料', 'iso-2022-jp', 'https://ja.wikipedia.org/wiki/東京'],
        [0, '会議の資料', 'iso-2022-jp', 'http://例え.テスト/地図?階=3'],
        [1, '検索の例', 'shift_jis', 'http://example.jp/検索?q=東京&n=1'],
        [1, '検索の例', 'shift_jis', 'aiko@example.jp'],
      ]);
      // 3987bis §3.5: the Shift_JIS message's query is percent-encoded in Shift_JIS (東京 = 93 8C 8B 9E).
      expect(links[2]!.uri).to.equal('http://example.jp/%E6%A4%9C%E7%B4%A2?q=%93%8C%8B%9E&n=1');
      expect(links[1]!.uri).to.equal('http://xn--r8jz45g.xn--zckzah/%E5%9C%B0%E5%9B%B3?%E9%9A%8E=3');
    });

    it('several files: each row starts with "file", messages numbered across the files (found in review: no file field)', () => {
      const r = irilink(['--mail', mbox, '-', mbox], readFileSync(mbox));
      expect(r.status, r.stderr).to.equal(0);
      const rows = jsonLines(r.stdout);
      expect(rows.map((o) => [Object.keys(o)[0], o.file, o.message])).to.deep.equal(
        [mbox, '-', mbox].flatMap((file, k) => [0, 0, 1, 1].map((m) => ['file', file, 2 * k + m])),
      );
      // One file: no file field, as for plain jsonl.
      expect(jsonLines(irilink(['--mail', mbox]).stdout).every((o) => !('file' in o))).to.equal(true);
    });

    it('--encoding is ignored (each part has its declared charset); standard input works the same', () => {
      const plain = irilink(['--mail', mbox]).stdout;
      expect(irilink(['--mail', '--encoding', 'koi8-r', mbox]).stdout).to.equal(plain);
      expect(irilink(['--mail'], readFileSync(mbox)).stdout).to.equal(plain);
    });

    it('--format html: one section per message, links as <a href> on the URI', () => {
      const r = irilink(['--mail', '--format', 'html', mbox]);
      expect(r.status, r.stderr).to.equal(0);
      expect(r.stdout.match(/<section /g)?.length).to.equal(2);
      expect(r.stdout).to.include('<h2>会議の資料</h2>');
      expect(r.stdout).to.include('<a href="https://ja.wikipedia.org/wiki/%E6%9D%B1%E4%BA%AC"');
      expect(r.stdout).to.include('<a href="mailto:aiko@example.jp"');
    });

    it('--stats counts messages and links; two inputs are read one after the other', () => {
      const r = irilink(['--mail', '--stats', mbox, path.join(repoRoot, 'test', 'fixtures-mail', 'three.mbox')]);
      expect(r.status, r.stderr).to.equal(0);
      expect(r.stderr).to.equal('irilink: 2 inputs, 5 messages, 7 links\n');
      expect(jsonLines(r.stdout).length).to.equal(7);
    });
  });

  describe('--records', () => {
    const access = fixture('access.log');
    const tail = fixture('tail.log');

    it('one JSON line per input line, line numbers continuing across two files, empty lines included', () => {
      const r = irilink(['--records', access, tail]);
      expect(r.status, r.stderr).to.equal(0);
      const records = jsonLines(r.stdout);
      // access.log: 4 lines ending in LF; tail.log: a CRLF line and a last line without a line break.
      expect(r.stdout.split('\n').length - 1).to.equal(6);
      expect(records.map((o) => o.line)).to.deep.equal([1, 2, 3, 4, 5, 6]);
      expect(records.map((o) => (o.links as { text: string }[]).map((l) => l.text))).to.deep.equal([
        ['https://ref.example/page'],
        // Plain rules: `,"` starts the next field, a `|` ends a path, a key is not an address's (`user=`).
        ['https://json.example/a', 'https://json.example/b?x=1'],
        [],
        ['https://kv.example/c', 'aiko@example.jp'],
        [],
        ['https://end.example/z'],
      ]);
      // Offsets are relative to the record.
      const line1 = readFileSync(access, 'utf8').split('\n')[0]!;
      const l = records[0]!.links[0] as { start: number; end: number; text: string };
      expect(line1.slice(l.start, l.end)).to.equal(l.text);
    });

    it('a file saved as UTF-16 with a byte order mark is skipped with a message naming it; the other files are read (--records, --logs)', () => {
      // PowerShell 5's `>`: read as UTF-8 it gave a record per 0x0A byte and no link in any, exit 0.
      const dir = mkdtempSync(path.join(tmpdir(), 'irilink-bom-'));
      try {
        const utf16 = path.join(dir, 'ps.log');
        writeFileSync(utf16, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('GET https://ps.example/x\r\n', 'utf16le')]));
        const r = irilink(['--records', access, utf16, tail]);
        expect(r.status).to.equal(1);
        expect(r.stderr).to.include(`cannot read ${utf16}: the input starts with a UTF-16 byte order mark (FF FE, UTF-16LE)`);
        expect(jsonLines(r.stdout).map((o) => o.line)).to.deep.equal([1, 2, 3, 4, 5, 6]); // access.log's 4, tail.log's 2
        const logs = irilink(['--logs', utf16]);
        expect(logs.status).to.equal(1);
        expect(logs.stdout).to.equal('');
        expect(logs.stderr).to.include('UTF-16 byte order mark');
        // Standard input too.
        const piped = irilink(['--records'], readFileSync(utf16));
        expect([piped.status, piped.stdout]).to.deep.equal([1, '']);
        // A charset other than UTF-8 reads FF FE as its own characters.
        expect(irilink(['--records', '--encoding', 'windows-1252', utf16]).status).to.equal(0);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('--mail: a file saved as UTF-16 with a byte order mark is skipped with a message too (it was read as windows-1252: no link, no word)', () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'irilink-bom-'));
      try {
        const utf16 = path.join(dir, 'saved.eml');
        writeFileSync(utf16, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Subject: s\r\n\r\nsee https://saved.example/x\r\n', 'utf16le')]));
        const r = irilink(['--mail', utf16, fixture('two.mbox')]);
        expect(r.status).to.equal(1);
        expect(r.stderr).to.equal(`irilink: cannot read ${utf16}: the input starts with a UTF-16 byte order mark (FF FE, UTF-16LE); ` +
          'lines are read as bytes, which needs UTF-8 or another ASCII-compatible charset: convert it first (iconv -f UTF-16 -t UTF-8)\n');
        // The next file is read, its messages numbered from 0 (the skipped file had none).
        const rows = jsonLines(r.stdout);
        expect(rows.length).to.be.above(0);
        expect(rows[0]!.message).to.equal(0);
        // The same text in UTF-8 is linked.
        const utf8 = path.join(dir, 'saved-utf8.eml');
        writeFileSync(utf8, 'Subject: s\r\n\r\nsee https://saved.example/x\r\n');
        expect(jsonLines(irilink(['--mail', utf8]).stdout).map((o) => o.uri)).to.deep.equal(['https://saved.example/x']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('standard input that delivers its first byte alone: the byte is held until the next shows a BOM or not (--records)', async () => {
      // main() in this process, with a standard input whose reads are the pieces given: no pipe timing involved.
      const run = async (pieces: Buffer[]): Promise<[number, string, string]> => {
        let out = '';
        let err = '';
        const stdout = new Writable({ write: (c: Buffer, _e, cb) => ((out += c.toString()), cb()) });
        const stderr = new Writable({ write: (c: Buffer, _e, cb) => ((err += c.toString()), cb()) });
        const code = await main(['--records', '--no-progress'], { stdin: Readable.from(pieces, { objectMode: false }), stdout, stderr });
        return [code, out, err];
      };
      const ps = Buffer.from('GET https://ps.example/x\r\n', 'utf16le');
      const [code, out, err] = await run([Buffer.from([0xff]), Buffer.from([0xfe]), ps]);
      expect([code, out]).to.deep.equal([1, '']);
      expect(err).to.include('cannot read standard input: the input starts with a UTF-16 byte order mark (FF FE, UTF-16LE)');
      // Not a BOM: the held byte is the first of the input, not lost (`G` alone, then the rest of the line).
      const line = 'GET https://ps.example/x and b@example.com';
      const [status, rows, stderr] = await run([Buffer.from('G'), Buffer.from(line.slice(1, 28)), Buffer.from(line.slice(28) + '\n')]);
      expect([status, stderr]).to.deep.equal([0, '']);
      const links = jsonLines(rows).map((o) => o.links.map((l: { start: number; end: number; text: string }) => [l.start, l.end, l.text]));
      expect(links).to.deep.equal([[[4, 24, 'https://ps.example/x'], [29, 42, 'b@example.com']]]);
      // A one-byte input: a record of its own.
      expect(await run([Buffer.from('x')])).to.deep.equal([0, '{"line":1,"links":[]}\n', '']);
    });

    it('--records --logs: the log rules (no quotes, no |, two links in the JSON line)', () => {
      const r = irilink(['--records', '--logs', access, tail]);
      expect(r.status, r.stderr).to.equal(0);
      const records = jsonLines(r.stdout);
      expect(records.map((o) => (o.links as { text: string }[]).map((l) => l.text))).to.deep.equal([
        ['https://ref.example/page'],
        ['https://json.example/a', 'https://json.example/b?x=1'],
        [],
        ['https://kv.example/c', 'aiko@example.jp'],
        [],
        ['https://end.example/z'],
      ]);
    });

    it('reads standard input; a file not ending in a line break does not join the next file\'s first line', () => {
      const r = irilink(['--records', tail, '-'], 'https://stdin.example/\n');
      expect(jsonLines(r.stdout).map((o) => [o.line, o.links.length])).to.deep.equal([[1, 0], [2, 1], [3, 1]]);
      expect(jsonLines(r.stdout)[2]!.links[0].text).to.equal('https://stdin.example/');
    });

    it('a lone CR ends a record, as in -f jsonl; a file ending in CR and the next starting with LF give an empty line', () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'irilink-cr-'));
      try {
        const [a, b] = [path.join(dir, 'a.txt'), path.join(dir, 'b.txt')];
        writeFileSync(a, 'x\ry https://a.example/\r');
        writeFileSync(b, '\nz https://b.example/');
        const records = jsonLines(irilink(['--records', a, b]).stdout);
        expect(records.map((o) => [o.line, o.links.map((l: { text: string }) => l.text)])).to.deep.equal([
          [1, []],
          [2, ['https://a.example/']],
          [3, []],
          [4, ['https://b.example/']],
        ]);
        const rows = jsonLines(irilink(['-f', 'jsonl', '-l', a]).stdout);
        expect(rows.map((o) => [o.line, o.text])).to.deep.equal([[2, 'https://a.example/']]);
        expect(jsonLines(irilink(['--logs', '-f', 'jsonl', '-l', a]).stdout)).to.deep.equal(rows);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });

  describe('--logs', () => {
    const access = fixture('access.log');

    it('a 9 MiB line loses no link (start, across the 8 MiB mark, end), in --logs, -f jsonl -l and --records', () => {
      const MiB = 1024 * 1024;
      const filler = (n: number): string => 'lorem ipsum '.repeat(Math.ceil(n / 12)).slice(0, n);
      const head = 'https://start.example/a ';
      const a = filler(8 * MiB - 10 - head.length);
      const across = ' https://across.example/8mib ';
      const tail = ' {"u":"https:\\/\\/end.example\\/z"}';
      const line = head + a + across + filler(9 * MiB - head.length - a.length - across.length - tail.length) + tail;
      const dir = mkdtempSync(path.join(tmpdir(), 'irilink-long-'));
      try {
        const file = path.join(dir, 'long.log');
        writeFileSync(file, line + '\nnext https://next.example/\n');
        const expected = ['https://start.example/a', 'https://across.example/8mib', 'https://end.example/z', 'https://next.example/'];
        const list = irilink(['--logs', file]);
        expect(list.status, list.stderr).to.equal(0);
        expect(list.stderr).to.equal('');
        expect(list.stdout).to.equal(expected.join('\n') + '\n');
        const rows = jsonLines(irilink(['--logs', '-f', 'jsonl', '-l', file]).stdout);
        expect(rows.map((o) => [o.line, o.uri])).to.deep.equal(expected.map((u, i) => [i < 3 ? 1 : 2, u]));
        expect(rows[1]!.byteStart).to.equal(head.length + a.length + 1);
        const records = jsonLines(irilink(['--records', '--logs', file]).stdout);
        expect(records.map((r) => [r.line, r.truncated, r.links.map((l: { uri: string }) => l.uri)])).to.deep.equal([
          [1, undefined, expected.slice(0, 3)],
          [2, undefined, expected.slice(3)],
        ]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('without --format: the link list under the log rules', () => {
      const r = irilink(['--logs', access]);
      expect(r.status, r.stderr).to.equal(0);
      expect(r.stdout).to.equal(
        ['https://ref.example/page', 'https://json.example/a', 'https://json.example/b?x=1', 'https://kv.example/c', 'mailto:aiko@example.jp', ''].join('\n'),
      );
      // The request path /index.html is not a link; the plain mode ends a link in a quoted field only at the quote
      // that opened right before it.
      const quoted = 'msg="see https://q.example/x"y\n';
      expect(irilink(['--logs'], quoted).stdout).to.equal('https://q.example/x\n');
      expect(irilink([], quoted).stdout).to.equal('https://q.example/x%22y\n');
    });

    it('--format jsonl --links: line, column and byte offsets that index the file', () => {
      const r = irilink(['--logs', '--format', 'jsonl', '--links', access]);
      expect(r.status, r.stderr).to.equal(0);
      const raw = readFileSync(access);
      const lines = raw.toString('utf8').split('\n');
      const links = jsonLines(r.stdout);
      expect(links.map((o) => o.line)).to.deep.equal([1, 2, 2, 4, 4]);
      for (const o of links) {
        expect(raw.subarray(o.byteStart, o.byteEnd).toString('utf8')).to.equal(o.text);
        expect(lines[o.line - 1]!.slice(o.column - 1, o.column - 1 + o.text.length)).to.equal(o.text);
      }
    });

    it('every JSON row of a link names its own fields first, then the link\'s in one order (-f jsonl -l, --logs, --records, --mail)', () => {
      const access = fixture('access.log');
      const fields = ['start', 'end', 'byteStart', 'byteEnd', 'text', 'uri', 'iri', 'kind', 'scheme', 'schemeInferred', 'diagnostics'];
      const keys = (args: string[]): string[][] => {
        const r = irilink(args);
        expect(r.status, r.stderr).to.equal(0);
        return jsonLines(r.stdout).map((o) => Object.keys(o));
      };
      for (const args of [['-f', 'jsonl', '-l', access], ['--logs', '-f', 'jsonl', '-l', access]]) {
        const rows = keys(args);
        expect(rows.length, args.join(' ')).to.be.above(2);
        for (const row of rows) expect(row, args.join(' ')).to.deep.equal(['line', 'column', ...fields]);
      }
      const records = jsonLines(irilink(['--records', '--logs', access]).stdout).flatMap((r) => r.links as object[]);
      expect(records.length).to.be.above(2);
      for (const link of records) expect(Object.keys(link)).to.deep.equal(fields);
      const mail = keys(['--mail', fixture('two.mbox')]);
      expect(mail).to.have.length(4);
      const head = ['message', 'messageId', 'subject', 'part', 'contentType', 'charset', 'line', 'column'];
      for (const row of mail) expect(row).to.deep.equal([...head, ...fields.filter((f) => !f.startsWith('byte'))]);
    });
  });

  it('incompatible combinations are usage errors: exit 2, a message naming the flags, nothing on stdout', () => {
    const cases: [string[], RegExp][] = [
      [['--mail', '--records'], /--mail and --records cannot be used together/],
      [['--markdown', '--mail'], /--markdown and --mail cannot be used together/],
      [['--markdown', '--records'], /--markdown and --records/],
      [['--logs', '--markdown'], /--logs cannot be used with --markdown/],
      [['--logs', '--mail'], /--logs cannot be used with --mail/],
      [['--logs', '--format', 'html'], /--logs works with --records/],
      [['--logs', '--unique'], /--unique cannot be used with --logs/],
      [['--mail', '--format', 'markdown'], /--mail writes --format jsonl/],
      [['--mail', '--format', 'html', '--links'], /--links goes with jsonl/],
      [['--mail', '--unique'], /--unique cannot be used with --mail/],
      [['--mail', '--format', 'html', '--display', 'bogus'], /--display must be text, iri or uri, got 'bogus'/],
      [['--records', '--format', 'html'], /--records writes JSON lines/],
      [['--records', '--stats'], /--stats cannot be used with --records/],
      [['--records', '--display', 'iri'], /--display cannot be used with --records/],
      [['--records', '--links'], /^irilink: --links cannot be used with --records \(a record holds only its line's links\)$/],
      [['--schemes', 'https,ht tp'], /^irilink: --schemes: 'ht tp' is not a scheme name \(RFC 3986 §3\.1/],
      [['--schemes', '1http'], /--schemes: '1http' is not a scheme name/],
      [['--schemes', 'https,,mailto'], /^irilink: --schemes needs a comma-separated list of schemes, without empty entries$/],
      [['--schemes', ''], /--schemes needs a comma-separated list/],
      [['--schemes', '+matrix,https'], /^irilink: --schemes: either only these schemes \(https,mailto\) or more besides the default ones \(\+matrix,\+spotify\), not both$/],
      [['--schemes', '+'], /--schemes needs a comma-separated list/],
      [['-l=1'], /^irilink: '-l=1': a short option takes its value after a space \(-f jsonl\), not after '='$/],
      [['-f=jsonl'], /^irilink: '-f=jsonl': a short option takes its value after a space/],
      [['--schemes', '+javascript'], /--schemes: 'javascript' is never linked/],
      // Named as the flag, not as the library's option (found in review).
      [['--schemes', 'https,JavaScript'], /^irilink: --schemes: 'JavaScript' is never linked \(javascript, vbscript and data are refused\)$/],
      [['--encoding', 'nosuch'], /^irilink: --encoding must be a charset name .*, got "nosuch"$/],
      [['--records', '--encoding', 'utf-16le'], /utf-16le|UTF-16/i],
      [['--no-gfm'], /--no-gfm is an option of --markdown/],
      // jsonl objects carry text, uri and iri: --display has nothing to choose (and the renderer takes no display).
      [['--format', 'jsonl', '--display', 'iri'], /--display cannot be used with --format jsonl/],
      [['-f', 'jsonl', '-l', '-d', 'uri'], /--display cannot be used with --format jsonl/],
      [['--markdown', '-f', 'jsonl', '-d', 'text'], /--display cannot be used with --format jsonl/],
      [['--logs', '-f', 'jsonl', '-l', '-d', 'iri'], /--display cannot be used with --logs --format jsonl/],
      [['--mail', '--display', 'iri'], /^irilink: --display cannot be used with --mail, whose output is --format jsonl by default: the objects carry text, uri and iri$/],
      [['--mail', '-f', 'jsonl', '--display', 'iri'], /--display cannot be used with --format jsonl/],
      [['--logs', '--display', 'bogus'], /--display must be text, iri or uri, got 'bogus'/],
      // The Markdown written back keeps each link's text: -d would be ignored (found in review).
      [['--markdown', '-f', 'markdown', '-d', 'iri'], /^irilink: --display cannot be used with --markdown --format markdown: the Markdown keeps each link's text as written$/],
    ];
    for (const [args, message] of cases) {
      const r = irilink([...args, fixture('access.log')]);
      expect(r.status, args.join(' ')).to.equal(2);
      expect(r.stdout, args.join(' ')).to.equal('');
      const lines = r.stderr.trim().split('\n');
      expect(lines.length, r.stderr).to.equal(2);
      expect(lines[0], args.join(' ')).to.match(message);
      expect(lines[1]).to.equal("Try 'irilink --help' for more information.");
    }
  });

  it('--help describes the modes, and says --encoding is not used with --mail but an unknown name is an error', () => {
    const h = irilink(['--help']);
    expect(h.status).to.equal(0);
    for (const flag of ['--markdown', '--no-gfm', '--mail', '--records', '--logs']) expect(h.stdout).to.include(flag);
    expect(h.stdout).to.match(/--encoding is not used, though an unknown name\s+is still a usage error/);
  });
});
