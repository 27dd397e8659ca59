// The `irilink` command, run as users run it: `node bin/irilink.js …` on files in the repository.
// bin/irilink.js loads dist/, so dist is rebuilt first when any source file is newer than it.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import iconv from 'iconv-lite';
import { findLinks } from '../src/detect/index.js';
import { repoRoot } from './support/shared.js';
import { bin, ensureBuilt, fixture, irilink } from './support/cli.js';

const sample = path.join(repoRoot, 'examples', 'sample.txt');


describe('irilink command', function () {
  this.timeout(120_000);
  before(() => ensureBuilt());

  it('lists the links of the sample, one URI per line, exactly those findLinks finds', () => {
    const r = irilink([sample]);
    expect(r.status).to.equal(0);
    expect(r.stderr).to.equal('');
    const expected = findLinks(readFileSync(sample, 'utf8')).map((l) => l.uri);
    expect(r.stdout.split('\n').slice(0, -1)).to.deep.equal(expected);
    expect(r.stdout).to.include('https://xn--e1afmkfd.xn--p1ai/%D0%BB%D0%BE%D0%B3%D0%B8/2026-11-21.txt\n');
    expect(r.stdout).to.include('http://xn--r8jz45g.xn--zckzah/%E5%9C%B0%E5%9B%B3?%E9%9A%8E=3\n');
  });

  it('--format text --links is the link list: it writes each link\'s uri by default, as no --format does (it wrote the text)', () => {
    const input = 'www.straße.de/öffnungszeiten aiko@example.jp https://例え.jp/\n';
    const uris = findLinks(input).map((l) => l.uri);
    expect(uris[1]).to.equal('mailto:aiko@example.jp');
    for (const args of [[], ['-f', 'text', '--links'], ['-f', 'text', '-l', '-d', 'uri']]) {
      const r = irilink(args, input);
      expect([r.status, r.stdout], args.join(' ')).to.deep.equal([0, uris.join('\n') + '\n']);
    }
    expect(irilink(['-f', 'text', '-l', '-d', 'text'], input).stdout).to.equal(findLinks(input).map((l) => l.text).join('\n') + '\n');
    // Rendering the whole text, a link is written as found.
    expect(irilink(['-f', 'text'], input).stdout).to.equal(input);
  });

  it('--help: the "file" field of jsonl rows, --mail\'s too; --records numbers lines across the files', () => {
    expect(irilink(['--help']).stdout).to.include('With --format jsonl (and --mail\'s jsonl) and several files, each row starts with "file",\n' +
      'the file\'s name (--mail numbers messages across the files as well; --records numbers lines\n' +
      'across the files instead).\n');
  });

  it('--display iri lists the readable forms', () => {
    const r = irilink(['--display', 'iri', sample]);
    expect(r.status).to.equal(0);
    expect(r.stdout).to.include('https://ja.wikipedia.org/wiki/フィンセント・ファン・ゴッホ\n');
    expect(r.stdout).to.include('http://例え.テスト/地図?階=3\n');
  });

  it('--display iri in the link list writes each link\'s iri, an inferred scheme included (as jsonl\'s iri, as --logs)', () => {
    const input = 'www.straße.de/öffnungszeiten aiko@example.jp https://例え.jp/\n';
    const iris = findLinks(input).map((l) => l.iri);
    expect(iris).to.deep.equal(['https://www.straße.de/öffnungszeiten', 'mailto:aiko@example.jp', 'https://例え.jp/']);
    for (const args of [['-d', 'iri'], ['--logs', '-d', 'iri'], ['-f', 'text', '-l', '-d', 'iri'], ['--markdown', '-d', 'iri']]) {
      const r = irilink(args, input);
      expect(r.status, r.stderr).to.equal(0);
      expect(r.stdout, args.join(' ')).to.equal(iris.join('\n') + '\n');
    }
    // Rendering the whole text, the inferred scheme stays off (the text never had it).
    expect(irilink(['-f', 'text', '-d', 'iri'], input).stdout).to.equal(input);
    // The help says both.
    expect(irilink(['--help']).stdout).to.match(/In the link list, the link's iri with its scheme/).and.match(/inferred https:\/\/ or mailto: is left off/);
  });

  it('--format jsonl --links: one object per link with offsets, bytes, line and the converted forms', () => {
    const r = irilink(['--format', 'jsonl', '--links', sample]);
    expect(r.status).to.equal(0);
    const raw = readFileSync(sample);
    const text = raw.toString('utf8');
    const objects = r.stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(objects.length).to.equal(findLinks(text).length);
    for (const o of objects) {
      for (const key of ['start', 'end', 'byteStart', 'byteEnd', 'line', 'text', 'uri', 'iri', 'kind', 'scheme', 'diagnostics']) {
        expect(o, key).to.have.property(key);
      }
      expect(text.slice(o.start as number, o.end as number)).to.equal(o.text);
      expect(raw.subarray(o.byteStart as number, o.byteEnd as number).toString('utf8')).to.equal(o.text);
      expect(o.line).to.equal(text.slice(0, o.start as number).split('\n').length);
    }
  });

  it('--format jsonl with several files: each row starts with its file (lines and offsets count from its start)', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'irilink-files-'));
    try {
      const a = path.join(dir, 'a.txt');
      const b = path.join(dir, 'b "2".txt');
      writeFileSync(a, 'see https://a.example/\nand x@b.org\n');
      writeFileSync(b, 'https://c.example/\n');
      const rows = (r: { stdout: string }): Record<string, unknown>[] => r.stdout.trim().split('\n').map((l) => JSON.parse(l));
      const links = irilink(['--format', 'jsonl', '--links', a, '-', b], 'stdin https://d.example/\n');
      expect(links.status).to.equal(0);
      expect(rows(links).map((o) => [o.file, o.line, o.start, o.text])).to.deep.equal([
        [a, 1, 4, 'https://a.example/'],
        [a, 2, 27, 'x@b.org'],
        ['-', 1, 6, 'https://d.example/'],
        [b, 1, 0, 'https://c.example/'],
      ]);
      expect(Object.keys(rows(links)[0]!).slice(0, 2)).to.deep.equal(['file', 'line']);
      const chunks = rows(irilink(['--format', 'jsonl', a, b]));
      expect(chunks.every((o) => o.file === a || o.file === b)).to.equal(true);
      expect(chunks.map((o) => o.text).join('')).to.equal('see https://a.example/\nand x@b.org\nhttps://c.example/\n');
      expect(rows(irilink(['--logs', '--format', 'jsonl', '--links', a, b])).map((o) => o.file)).to.deep.equal([a, a, b]);
      // One file: the rows as before, without `file`.
      expect(rows(irilink(['--format', 'jsonl', '--links', a]))[0]).to.not.have.property('file');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('--format html renders the whole text with <a href> on the URI', () => {
    const r = irilink(['--format', 'html', sample]);
    expect(r.status).to.equal(0);
    expect(r.stdout).to.include('<a href="http://xn--r8jz45g.xn--zckzah/%E5%9C%B0%E5%9B%B3?%E9%9A%8E=3"');
    expect(r.stdout).to.include('Subject: Re: 来週の打ち合わせ');
    expect(r.stdout).to.not.include('<dmitri>');
  });

  it('--format text gives the input back unchanged', () => {
    const r = irilink(['--format', 'text', sample]);
    expect(r.stdout).to.equal(readFileSync(sample, 'utf8'));
  });

  it('Shift_JIS: --encoding shift_jis decodes, byte offsets index the file, the query is in Shift_JIS (3987bis §3.5)', () => {
    const raw = readFileSync(fixture('mail-ja.sjis.txt'));
    const r = irilink(['--encoding', 'shift_jis', '--format', 'jsonl', '--links', fixture('mail-ja.sjis.txt')]);
    expect(r.status, r.stderr).to.equal(0);
    const objects = r.stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, string & number>);
    expect(objects.map((o) => o.text)).to.deep.equal([
      'https://ja.wikipedia.org/wiki/東京をご覧ください',
      'aiko@example.jp',
      'http://例え.テスト/地図?階=3',
    ]);
    expect(objects.map((o) => o.line)).to.deep.equal([2, 3, 4]);
    for (const o of objects) expect(iconv.decode(raw.subarray(o.byteStart, o.byteEnd), 'shift_jis')).to.equal(o.text);
    // 階 is 8A 4B in Shift_JIS: the query holds those bytes, not the UTF-8 E9 9A 8E; the path stays UTF-8.
    expect(objects[2]!.uri).to.match(/^http:\/\/xn--r8jz45g\.xn--zckzah\/%E5%9C%B0%E5%9B%B3\?%8A(K|%4B)=3$/);
  });

  it('ISO-2022-JP: decoded through its escapes; a link\'s bytes are its ASCII bytes in the file', () => {
    const raw = readFileSync(fixture('mail-ja.iso2022jp.txt'));
    const r = irilink(['-e', 'ISO-2022-JP', '--format', 'jsonl', '--links', fixture('mail-ja.iso2022jp.txt')]);
    expect(r.status, r.stderr).to.equal(0);
    const objects = r.stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, string & number>);
    const utf8 = irilink(['--format', 'jsonl', '--links', fixture('mail-ja.utf8.txt')]);
    const same = utf8.stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, string & number>);
    expect(objects.map((o) => [o.text, o.start, o.end, o.line])).to.deep.equal(same.map((o) => [o.text, o.start, o.end, o.line]));
    const email = objects.find((o) => o.kind === 'email')!;
    expect(raw.subarray(email.byteStart, email.byteEnd).toString('latin1')).to.equal('aiko@example.jp');
    const first = objects[0]!;
    expect(raw.subarray(first.byteStart, first.byteStart + 8).toString('latin1')).to.equal('https://');
  });

  it('reads standard input when there is no file, and for "-"', () => {
    const input = 'mail aiko@example.jp or see https://例え.jp/パス。\n';
    for (const args of [[], ['-']]) {
      const r = irilink(args, input);
      expect(r.status).to.equal(0);
      expect(r.stdout).to.equal('mailto:aiko@example.jp\nhttps://xn--r8jz45g.jp/%E3%83%91%E3%82%B9\n');
    }
  });

  it('a file that is not valid UTF-8 gets one note on stderr, naming it and --encoding; its links are still printed (found in review)', () => {
    const latin1 = Buffer.from('menu: http://a.com/caf\xe9.html ok\nand http://b.com/\xe9t\xe9\n', 'latin1');
    const r = irilink([], latin1);
    expect(r.status).to.equal(0);
    expect(r.stdout).to.equal('http://a.com/caf%EF%BF%BD.html\nhttp://b.com/%EF%BF%BDt%EF%BF%BD\n');
    expect(r.stderr).to.equal(
      'irilink: standard input: not valid UTF-8 (bytes read as U+FFFD, links through them flagged invalid-utf8); name its charset with --encoding\n',
    );
    // Named, it is read right and nothing is said; valid UTF-8 gets no note.
    const named = irilink(['-e', 'latin1'], latin1);
    expect([named.stdout, named.stderr]).to.deep.equal(['http://a.com/caf%C3%A9.html\nhttp://b.com/%C3%A9t%C3%A9\n', '']);
    expect(irilink(['-f', 'html'], 'caf\u00e9 http://a.com/\n').stderr).to.equal('');
  });


  it('a link cut at the longest link gets a note on stderr; --max-link-length raises the limit (found in review: the cut was silent)', () => {
    const long = `https://a.example/${'p'.repeat(9000)}/delete?id=1`;
    const input = `see ${long} end\nand https://b.example/${'q'.repeat(100)} ok\n`;
    const r = irilink([], input);
    expect(r.status).to.equal(0);
    expect(r.stdout.split('\n').map((l) => l.length)).to.deep.equal([8192, 118, 0]);
    expect(r.stderr).to.equal(
      'irilink: standard input: 1 link was longer than 8192 characters and cut there (link-too-long; the rest follows as text); raise the limit with --max-link-length\n',
    );
    const raised = irilink(['--max-link-length', '10000'], input);
    expect([raised.status, raised.stderr]).to.deep.equal([0, '']);
    expect(raised.stdout.split('\n')[0]).to.equal(long);
    const low = irilink(['--max-link-length=64', '-f', 'html'], input);
    expect(low.status).to.equal(0);
    expect(low.stderr).to.match(/^irilink: standard input: 2 links were longer than 64 characters and cut there/);
    // --logs says it too, for a line held whole and for one scanned in pieces (longer than a record's 1 MiB)
    for (const text of [input, `see https://a.example/${'p'.repeat(2_000_000)} end\n`]) {
      const logs = irilink(['--logs'], text);
      expect([logs.status, logs.stdout.split('\n')[0]!.length]).to.deep.equal([0, 8192]);
      expect(logs.stderr).to.match(/^irilink: standard input: 1 link was longer than 8192 characters and cut there/);
    }
    // The jsonl rows carry the flag; the option reaches --records too.
    const records = irilink(['--records', '--max-link-length', '100'], input);
    expect(records.stdout.split('\n')[0]).to.include('"link-too-long"');
    for (const bad of ['63', '268435457', 'abc', '1e3', '-5']) {
      const e = irilink([`--max-link-length=${bad}`], 'x');
      expect([e.status, e.stderr.split('\n')[0]]).to.deep.equal([2, `irilink: --max-link-length must be a whole number from 64 to 268435456, got '${bad}'`]);
    }
  });
  it('--records and --logs say so too, naming the first line that is not UTF-8 (also a long line, scanned in pieces)', () => {
    const note = (name: string, line: number): string =>
      `irilink: ${name}: not valid UTF-8 from line ${line} (bytes read as U+FFFD, links through them flagged invalid-utf8); name its charset with --encoding\n`;
    const latin1 = Buffer.from('ok http://a.com/\r\nmenu: http://a.com/caf\xe9.html\nand \xe9t\xe9\n', 'latin1');
    for (const mode of [['--records'], ['--logs'], ['--logs', '-f', 'jsonl', '--links'], ['--records', '--logs']]) {
      const r = irilink(mode, latin1);
      expect([r.status, r.stderr], mode.join(' ')).to.deep.equal([0, note('standard input', 2)]);
      expect(r.stdout, mode.join(' ')).to.include('caf%EF%BF%BD.html');
      expect(irilink([...mode, '-e', 'latin1'], latin1).stderr, mode.join(' ')).to.equal('');
      expect(irilink(mode, 'caf\u00e9 http://a.com/\n').stderr, mode.join(' ')).to.equal('');
    }
    // A line longer than the record stream holds whole (256 KiB), its bad byte at its end.
    const long = Buffer.concat([Buffer.from('x\n'), Buffer.alloc(300_000, 'a'), Buffer.from(' http://a.com/\xe9\n', 'latin1')]);
    expect(irilink(['--records'], long).stderr).to.equal(note('standard input', 2));
    // A UTF-8 byte order mark is no invalid byte.
    expect(irilink(['--records'], Buffer.from('\ufeffhttp://a.com/\n')).stderr).to.equal('');
    // Several files: --records numbers the lines across them, --logs each file's own.
    const dir = mkdtempSync(path.join(tmpdir(), 'irilink-utf8-'));
    try {
      const good = path.join(dir, 'good.txt');
      const bad = path.join(dir, 'bad.txt');
      writeFileSync(good, 'http://a.com/\n');
      writeFileSync(bad, latin1);
      expect(irilink(['--records', good, bad]).stderr).to.equal(note('the input', 3));
      expect(irilink(['--logs', good, bad]).stderr).to.equal(note(bad, 2));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('--unique prints each link once by RFC 3987 §5.3.2 comparison; --stats counts on stderr', () => {
    const r = irilink(['--unique', '--stats', fixture('dupes.txt')]);
    expect(r.status).to.equal(0);
    expect(r.stdout).to.equal(
      ['https://example.com/a/b', 'https://example.com/%7euser', 'https://example.com/A/b', 'https://example.org/a/b', ''].join('\n'),
    );
    expect(r.stderr).to.match(/irilink: 8 links \(url 8\), 4 distinct/);
    expect(r.stderr).to.match(/schemes: https 8/);
    // One link is one link (it said "1 links"), as the input count and --mail --stats say.
    expect(irilink(['--stats'], 'see https://example.com/\n').stderr).to.match(/^irilink: 1 input, .*\nirilink: 1 link \(url 1\), 1 distinct\n/);
    // Bytes are the bytes read, also those that give no text: a byte order mark alone is 3 bytes and no character
    // (it said 0 bytes), an ISO-2022-JP escape at the end counts (found in review).
    expect(irilink(['--stats'], Buffer.from([0xef, 0xbb, 0xbf])).stderr).to.match(/^irilink: 1 input, 3 bytes, 0 characters \(UTF-16\)/);
    const jis = Buffer.from('\x1b$B$"\x1b(B', 'latin1'); // あ, then back to ASCII
    expect(irilink(['--stats', '-e', 'iso-2022-jp'], jis).stderr).to.match(/^irilink: 1 input, 8 bytes, 1 character \(UTF-16\)/);
  });

  it('--schemes makes the links of the schemes it names clickable in html, markdown and ansi (they were unsafe spans)', () => {
    const input = 'see spotify://track/1 and ann@example.org\n';
    const href = (args: string[], text = input): string => {
      const r = irilink(args, text);
      expect(r.status, r.stderr).to.equal(0);
      return r.stdout;
    };
    expect(href(['--schemes', 'spotify', '-f', 'html'])).to.equal(
      'see <a href="spotify://track/1" rel="nofollow noopener noreferrer">spotify://track/1</a> and ' +
        '<a href="mailto:ann@example.org" rel="nofollow noopener noreferrer">ann@example.org</a>\n',
    );
    expect(href(['--schemes', 'spotify', '-f', 'markdown'])).to.equal('see <spotify://track/1> and <ann@example.org>\n');
    expect(href(['--schemes', 'spotify', '-f', 'ansi'])).to.include('\x1b]8;;spotify://track/1\x1b\\spotify://track/1\x1b]8;;\x1b\\');
    expect(href(['--schemes', 'spotify', '--markdown', '-f', 'markdown'])).to.equal(
      'see <spotify://track/1> and [ann@example.org](<mailto:ann@example.org>)\n',
    );
    expect(href(['--mail', '--schemes', 'spotify', '-f', 'html'], `Subject: s\n\n${input}`)).to.include('<a href="spotify://track/1"');
    // Without --schemes a scheme found by anyScheme stays unclickable, as the renderers' default says.
    expect(href(['-f', 'html'])).to.include('<span class="irilink-unsafe" title="scheme-not-allowed">spotify://track/1</span>');
  });

  it('--schemes +name: these schemes besides the default ones, clickable, nothing narrowed (asked for in review)', () => {
    const input = 'see matrix:r/room:example.org and foo://x.example/a and ann@example.org and https://a.example/\n';
    const list = irilink(['--schemes', '+matrix,+spotify', '-l'], input);
    expect(list.status, list.stderr).to.equal(0);
    expect(list.stdout).to.equal('matrix:r/room:example.org\nfoo://x.example/a\nmailto:ann@example.org\nhttps://a.example/\n');
    // Without the `+` the list is all there is: the default schemes and any other `scheme://` are left out.
    expect(irilink(['--schemes', 'matrix', '-l'], input).stdout).to.equal('matrix:r/room:example.org\nmailto:ann@example.org\n');
    const html = irilink(['--schemes', '+matrix', '-f', 'html'], input).stdout;
    expect(html).to.include('<a href="matrix:r/room:example.org"');
    expect(html).to.include('<a href="https://a.example/"');
    expect(html).to.include('<span class="irilink-unsafe" title="scheme-not-allowed">foo://x.example/a</span>');
  });

  it('--no-email, --no-schemeless and --schemes narrow what is found', () => {
    const input = 'aiko@example.jp example.com ftp://files.example/x https://a.example/\n';
    expect(irilink(['--no-email'], input).stdout).to.not.include('mailto:');
    expect(irilink(['--no-schemeless'], input).stdout).to.not.include('https://example.com');
    const only = irilink(['--schemes', 'ftp', '--no-email', '--no-schemeless'], input);
    expect(only.status).to.equal(0);
    expect(only.stdout).to.include('ftp://files.example/x\n');
    expect(only.stdout).to.not.include('https://a.example/');
  });

  it('--schemes governs mailto: links too, --no-email only bare addresses; the same in --logs, --records and --mail', () => {
    const input = 'mailto:x@example.com and y@example.org and example.com https://a.example/ ftp://f.example/\n';
    const cases: [string[], string[]][] = [
      [[], ['mailto:x@example.com', 'mailto:y@example.org', 'https://example.com', 'https://a.example/', 'ftp://f.example/']],
      [['--schemes', 'https'], ['mailto:y@example.org', 'https://example.com', 'https://a.example/']],
      [['--schemes', 'https,mailto'], ['mailto:x@example.com', 'mailto:y@example.org', 'https://example.com', 'https://a.example/']],
      [['--schemes', 'mailto', '--no-email'], ['mailto:x@example.com', 'https://example.com']],
      [['--no-email'], ['mailto:x@example.com', 'https://example.com', 'https://a.example/', 'ftp://f.example/']],
      [['--schemes', 'https', '--no-email', '--no-schemeless'], ['https://a.example/']],
    ];
    for (const [args, uris] of cases) {
      const list = irilink(args, input);
      expect(list.status, list.stderr).to.equal(0);
      expect(list.stdout, args.join(' ')).to.equal(uris.join('\n') + '\n');
      expect(irilink(['--logs', ...args], input).stdout, `--logs ${args.join(' ')}`).to.equal(uris.join('\n') + '\n');
      const records = irilink(['--records', ...args], input).stdout.trim().split('\n').map((l) => JSON.parse(l) as { links: { uri: string }[] });
      expect(records.flatMap((r) => r.links.map((l) => l.uri)), `--records ${args.join(' ')}`).to.deep.equal(uris);
      const message = 'Subject: t\nContent-Type: text/plain; charset=utf-8\n\n' + input;
      const mail = irilink(['--mail', ...args], message).stdout.trim().split('\n').map((l) => JSON.parse(l) as { uri: string });
      expect(mail.map((l) => l.uri), `--mail ${args.join(' ')}`).to.deep.equal(uris);
    }
    // --stats counts only the links kept; -f html leaves the others as text.
    const stats = irilink(['--schemes', 'https', '--stats'], input);
    expect(stats.stderr).to.match(/irilink: 3 links \(url 2, email 1\), 3 distinct/);
    const html = irilink(['--schemes', 'mailto', '--no-email', '-f', 'html'], input).stdout;
    expect(html).to.include('<a href="mailto:x@example.com"').and.include(' and y@example.org and ');
  });

  it('--records with --schemes on a line longer than maxRecordBytes: one record, the kept links only', () => {
    const unit = 'see https://a.example/x and ftp://f.example/y, ';
    const line = unit.repeat(Math.ceil(600_000 / unit.length));
    const r = irilink(['--records', '--schemes', 'https'], 'first https://z.example/\n' + line + '\nlast ftp://g.example/\n');
    expect(r.status, r.stderr).to.equal(0);
    const records = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { line: number; links: { uri: string }[] });
    expect(records.map((x) => [x.line, x.links.length])).to.deep.equal([[1, 1], [2, line.length / unit.length], [3, 0]]);
    expect(records[1]!.links.every((l) => l.uri === 'https://a.example/x')).to.equal(true);
  });

  it('--markdown: --schemes governs the links the author wrote too, --no-email only bare addresses (found in review)', () => {
    const input = '[f](ftp://f.example/) <ssh://h.example/x> [d](/docs) <ann@example.org> a@b.com mailto:c@d.com https://ok.example/\n';
    const cases: [string[], string[]][] = [
      [['--schemes', 'https'], ['/docs', 'mailto:a@b.com', 'https://ok.example/']],
      [['--schemes', 'https,mailto', '--no-email'], ['/docs', 'mailto:ann@example.org', 'mailto:c@d.com', 'https://ok.example/']],
      [['--no-email'], ['ftp://f.example/', 'ssh://h.example/x', '/docs', 'mailto:ann@example.org', 'mailto:c@d.com', 'https://ok.example/']],
    ];
    for (const [args, uris] of cases) {
      const r = irilink(['--markdown', ...args], input);
      expect(r.status, r.stderr).to.equal(0);
      expect(r.stdout, args.join(' ')).to.equal(uris.join('\n') + '\n');
    }
  });

  it('a missing file: exit 1, a message naming it, and the other files still processed', () => {
    const r = irilink(['no-such-file.txt', sample]);
    expect(r.status).to.equal(1);
    expect(r.stderr).to.equal('irilink: cannot read no-such-file.txt: no such file\n');
    expect(r.stdout.split('\n').length - 1).to.equal(findLinks(readFileSync(sample, 'utf8')).length);
  });

  it('usage errors exit 2 with a one-line hint to --help', () => {
    for (const args of [['--bogus'], ['--format', 'pdf'], ['--encoding', 'klingon-8', sample], ['--format']]) {
      const r = irilink(args);
      expect(r.status, args.join(' ')).to.equal(2);
      expect(r.stdout).to.equal('');
      const lines = r.stderr.trim().split('\n');
      expect(lines.length, r.stderr).to.equal(2);
      expect(lines[0]).to.match(/^irilink: /);
      expect(lines[1]).to.equal("Try 'irilink --help' for more information.");
    }
  });

  it('a misspelt option, a missing value or a value given to a flag is said in one line naming the option as written', () => {
    const cases: [string[], string][] = [
      [['--bogus'], 'unknown option --bogus'],
      [['--bogus=3'], 'unknown option --bogus'],
      [['-lx'], 'unknown option -x'],
      [['--format'], '--format needs a value'],
      [['--format', '--links'], "--format needs a value, got the option '--links'"],
      [['-e', '-u'], "-e needs a value, got the option '-u'"],
      [['--links=yes'], "--links takes no value, got 'yes'"],
    ];
    for (const [args, message] of cases) {
      const r = irilink(args, 'see https://example.com/\n');
      expect([r.status, r.stdout, r.stderr], args.join(' ')).to.deep.equal([2, '', `irilink: ${message}\nTry 'irilink --help' for more information.\n`]);
    }
    // A value that starts with a dash can still be given inline; `-` alone is a value (and here not a format).
    expect(irilink(['--format=-l']).stderr).to.match(/^irilink: --format must be one of .*, got '-l'\n/);
    expect(irilink(['-f', '-']).stderr).to.match(/^irilink: --format must be one of .*, got '-'\n/);
  });

  it('--version prints the version of package.json; --help the usage', () => {
    const pkg = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string };
    const v = irilink(['--version']);
    expect([v.status, v.stdout]).to.deep.equal([0, `irilink ${pkg.version}\n`]);
    const h = irilink(['--help']);
    expect(h.status).to.equal(0);
    expect(h.stdout).to.match(/^Usage: irilink \[options\] \[file…\]/);
    for (const flag of ['--format', '--links', '--encoding', '--schemes', '--no-schemeless', '--no-email', '--unique', '--stats']) {
      expect(h.stdout).to.include(flag);
    }
    // Every exit status the README lists (70, an internal error, was missing).
    expect(h.stdout).to.match(/^Exit status: 0 ok, 1 an input could not be read .*, 2 usage error,\n70 internal error/m);
  });

  it('`irilink big.txt | head` ends quietly when the reader goes away (EPIPE)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'irilink-cli-'));
    try {
      const big = path.join(dir, 'big.txt');
      writeFileSync(big, 'see https://example.com/page and more text here\n'.repeat(200_000)); // ~9.6 MB
      const child = spawn(process.execPath, [bin, '--format', 'text', big], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      // Like `head -c 100`: read a little, then close the pipe.
      await new Promise<void>((resolve) => {
        child.stdout.once('data', () => {
          child.stdout.destroy();
          resolve();
        });
      });
      const status = await new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
      expect(stderr).to.equal('');
      expect(status).to.equal(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
