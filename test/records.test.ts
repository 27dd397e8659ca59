// Record mode (src/logs/records.ts): one JSON line per input line, in order, answered promptly, CRLF, byte
// offsets relative to the record, invalid UTF-8, BOM, long lines, chunking invariance, and the real
// corpora/large/logs.txt (or the committed sample when it has not been built) through the stream.
import { expect } from 'chai';
import fc from 'fast-check';
import iconv from 'iconv-lite';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { largeCorpusPath, samplesDir } from '../bench/lib/paths.js';
import { linkify } from '../src/detect/index.js';
import { findLogLinks, LogLineLinker } from '../src/logs/index.js';
import { isLinklessAscii } from '../src/logs/view.js';
import { toJsonl } from '../src/render/index.js';
import { createLogLinkStream, createRecordStream, linkRecords, RecordLinker, type LinkRecord, type RecordOptions } from '../src/logs/records.js';
import { loggingPushes, loggingSource } from './support/read-order.js';

async function run(pieces: (Buffer | string)[], options?: RecordOptions): Promise<string> {
  let out = '';
  for await (const s of Readable.from(pieces.map((p) => (typeof p === 'string' ? Buffer.from(p) : p))).pipe(createRecordStream(options))) {
    out += (s as Buffer).toString('utf8');
  }
  return out;
}

async function records(pieces: (Buffer | string)[], options?: RecordOptions): Promise<LinkRecord[]> {
  const out = await run(pieces, options);
  expect(out === '' || out.endsWith('\n')).to.equal(true);
  return out === '' ? [] : out.slice(0, -1).split('\n').map((l) => JSON.parse(l) as LinkRecord);
}

describe('records: one JSON line per input line', () => {
  it('every line answers, also without links and empty; numbers from 1; order kept', async () => {
    const rs = await records(['see https://example.com/a\n\nnothing here\nmail alice@example.jp\n']);
    expect(rs.map((r) => [r.line, r.links.map((l) => l.text)])).to.deep.equal([
      [1, ['https://example.com/a']],
      [2, []],
      [3, []],
      [4, ['alice@example.jp']],
    ]);
  });

  it('exact output text for a line with a link and one without', async () => {
    expect(await run(['go https://例え.jp/パス\nx\n'])).to.equal(
      '{"line":1,"links":[{"start":3,"end":19,"byteStart":3,"byteEnd":27,"text":"https://例え.jp/パス",' +
        '"uri":"https://xn--r8jz45g.jp/%E3%83%91%E3%82%B9","iri":"https://例え.jp/パス","kind":"url","scheme":"https",' +
        '"schemeInferred":false,"diagnostics":[]}]}\n' +
        '{"line":2,"links":[]}\n',
    );
  });

  it('a last line without a line break is a record; the final LF does not start one; empty input gives nothing', async () => {
    expect((await records(['a\nb https://x.example/'])).map((r) => r.links.length)).to.deep.equal([0, 1]);
    expect(await records(['a\n'])).to.have.length(1);
    expect(await records([])).to.deep.equal([]);
    expect(await records(['\n'])).to.deep.equal([{ line: 1, links: [] }]);
  });

  it('CRLF: the CR is not part of the record (a link at the end of the line stops before it)', async () => {
    const rs = await records(['https://example.com/a\r\n\r\nb https://example.com/b\r\n']);
    expect(rs.map((r) => r.links.map((l) => [l.text, l.byteEnd]))).to.deep.equal([
      [['https://example.com/a', 21]],
      [],
      [['https://example.com/b', 23]],
    ]);
    // A CR at the very end ends the last line; it does not start another record.
    expect((await records(['x https://example.com/c\r'])).map((r) => r.links[0]!.text)).to.deep.equal(['https://example.com/c']);
  });

  it('a lone CR ends a record too, as jsonl counts lines (CR LF, LF, CR: one break each, also split between writes)', async () => {
    const text = 'a\rb https://a.example/\r\nc\n\rd https://d.example/\re';
    const lines = (rs: LinkRecord[]): [number, string[]][] => rs.map((r) => [r.line, r.links.map((l) => l.text)]);
    const expected: [number, string[]][] = [[1, []], [2, ['https://a.example/']], [3, []], [4, []], [5, ['https://d.example/']], [6, []]];
    expect(lines(await records([text]))).to.deep.equal(expected);
    expect(lines(linkRecords(text))).to.deep.equal(expected);
    // Every split point, a CR LF cut between its CR and its LF included.
    for (let cut = 1; cut < text.length; cut++) expect(lines(await records([text.slice(0, cut), text.slice(cut)]))).to.deep.equal(expected);
    // The jsonl renderer numbers the same links alike.
    const rows = toJsonl(linkify(text), { links: true }).trimEnd().split('\n').map((l) => JSON.parse(l) as { line: number; text: string });
    expect(rows.map((r) => [r.line, [r.text]])).to.deep.equal(expected.filter(([, links]) => links.length > 0));
  });

  it('byte offsets are relative to the record and cut the link out of the raw line', async () => {
    const lines = ['😀 https://例え.jp/😀?q=テスト', 'a\u00e9 <alice@例え.jp>', '{"u":"https:\\/\\/例え.jp\\/x"}'];
    const input = Buffer.from(lines.join('\n') + '\n');
    const rs = await records([input]);
    let lineStart = 0;
    for (const [i, r] of rs.entries()) {
      const raw = Buffer.from(lines[i]!);
      expect(r.links).to.have.length(1);
      for (const l of r.links) {
        expect(raw.toString('utf8', l.byteStart, l.byteEnd)).to.equal(l.text);
        expect(lines[i]!.slice(l.start, l.end)).to.equal(l.text);
        expect(input.toString('utf8', lineStart + l.byteStart, lineStart + l.byteEnd)).to.equal(l.text);
      }
      lineStart += raw.length + 1;
    }
  });

  it('invalid UTF-8: U+FFFD in the text, byte offsets still count the input bytes; a BOM counts on line 1', async () => {
    const bad = Buffer.concat([Buffer.from('\xff\xfd ', 'latin1'), Buffer.from('https://example.com/a'), Buffer.from([0x80]), Buffer.from('b x\n')]);
    const [r] = await records([bad]);
    expect(r!.links.map((l) => [l.text, l.byteStart, l.byteEnd])).to.deep.equal([['https://example.com/a\ufffdb', 3, 26]]);
    expect(r!.links[0]!.diagnostics).to.include('invalid-utf8');
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('https://example.com/\nhttps://example.org/\n')]);
    const rs = await records([bom]);
    expect(rs.map((x) => x.links.map((l) => [l.start, l.byteStart, l.byteEnd]))).to.deep.equal([[[0, 3, 23]], [[0, 0, 20]]]);
  });

  it('an input of a UTF-8 BOM alone has no line, as an empty one (found in review); read as windows-1252 it has one', async () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    for (const pieces of [[bom], [bom.subarray(0, 1), bom.subarray(1)], [Buffer.alloc(0)]]) expect(await records(pieces)).to.deep.equal([]);
    expect(linkRecords(bom)).to.deep.equal([]);
    expect(linkRecords('\ufeff')).to.deep.equal([]);
    expect(await records([bom, Buffer.from('\n')])).to.deep.equal([{ line: 1, links: [] }]);
    expect(await records([bom, Buffer.from('x')])).to.deep.equal([{ line: 1, links: [] }]);
    expect(await records([bom], { encoding: 'windows-1252' })).to.deep.equal([{ line: 1, links: [] }]);
    expect(linkRecords(bom, { encoding: 'windows-1252' })).to.deep.equal([{ line: 1, links: [] }]);
    // under any maxRecordBytes (found in review: with 1 or 2 the BOM went to the long-line scanner and got a record)
    for (const maxRecordBytes of [1, 2, 3]) {
      expect(await records([bom], { maxRecordBytes })).to.deep.equal([]);
      expect(await records([bom, Buffer.from('https://a.example/ x')], { maxRecordBytes })).to.deep.equal(await records([bom, Buffer.from('https://a.example/ x')]));
    }
  });

  it('a U+FEFF at the start of a later line is a character of it (only the input\'s first BOM is dropped), in every path', async () => {
    const bom = '\xef\xbb\xbf';
    const input = Buffer.from(`a\n${bom}x \xff https://a.example/\n${bom}https://b.example/\n${bom}${bom}c https://c.example/\n`, 'latin1');
    const expected = [
      [1, []],
      // U+FEFF x SP U+FFFD SP: the link starts at unit 5 and byte 7.
      [2, [[5, 7, 'https://a.example/']]],
      [3, [[1, 3, 'https://b.example/']]],
      [4, [[4, 8, 'https://c.example/']]],
    ];
    const shape = (rs: LinkRecord[]): unknown[] => rs.map((r) => [r.line, r.links.map((l) => [l.start, l.byteStart, l.text])]);
    // Whole lines (line 2 holds an invalid byte: the decoding path), lines scanned in pieces, every split.
    for (const maxRecordBytes of [undefined, 1, 4, 16]) {
      expect(shape(await records([input], { maxRecordBytes })), String(maxRecordBytes)).to.deep.equal(expected);
      for (let cut = 1; cut < input.length; cut += 3) {
        expect(shape(await records([input.subarray(0, cut), input.subarray(cut)], { maxRecordBytes }))).to.deep.equal(expected);
      }
    }
    expect(shape(linkRecords(input))).to.deep.equal(expected);
    // On line 1 the BOM is the input's and is dropped (its bytes still count), in both paths.
    const first = Buffer.from(`${bom}x \xff https://a.example/\n`, 'latin1');
    for (const maxRecordBytes of [undefined, 4]) {
      expect(shape(await records([first], { maxRecordBytes }))).to.deep.equal([[1, [[4, 7, 'https://a.example/']]]]);
    }
  });

  it('log rules apply by default (logRules: false turns them off)', async () => {
    const line = 'msg="see https://q.example/x"y <auth.example> "GET /x HTTP/1.1"\n';
    expect((await records([line]))[0]!.links.map((l) => l.text)).to.deep.equal(['https://q.example/x']);
    expect((await records([line], { logRules: false }))[0]!.links.map((l) => l.text)).to.deep.equal(['https://q.example/x"y']);
  });

  it('a line longer than maxRecordBytes is scanned in pieces: every link found, none cut; the next line is whole', async () => {
    const long = 'https://example.com/' + 'a'.repeat(200) + ' https://late.example/\n';
    const rs = await records([long.slice(0, 100), long.slice(100), 'https://next.example/\n'], { maxRecordBytes: 64 });
    expect(rs.map((r) => [r.line, r.links.map((l) => [l.text, l.start, l.byteStart])])).to.deep.equal([
      [1, [['https://example.com/' + 'a'.repeat(200), 0, 0], ['https://late.example/', 221, 221]]],
      [2, [['https://next.example/', 0, 0]]],
    ]);
    expect(rs[0]).to.not.have.property('truncated');
    expect(() => createRecordStream({ maxRecordBytes: 0 })).to.throw(TypeError);
  });

  it('a long line\'s record is written as its links are found, not held: readable before the line ends, the same bytes', async () => {
    const dense = 'see https://例え.jp/パス and www.example.com, '.repeat(4000); // ~200 KB, 8,000 links
    const stream = createRecordStream({ maxRecordBytes: 1024 });
    // Whichever comes first: output to read, or the stream done with the write (it pushed nothing).
    const written = new Promise<string>((resolve) => stream.write(Buffer.from(dense), () => resolve('written')));
    const readable = new Promise<string>((resolve) => stream.once('readable', () => resolve('readable')));
    expect(await Promise.race([readable, written])).to.equal('readable');
    const head = (stream.read() as Buffer).toString('utf8');
    expect(head.startsWith('{"line":1,"links":[{"start":4,"end":20,"byteStart":4,"byteEnd":28,"text":"https://例え.jp/パス"')).to.equal(true);
    expect(head).to.not.include('\n');
    const rest: Buffer[] = [];
    stream.on('data', (b: Buffer) => rest.push(b));
    stream.end('\nnext https://b.example/\n');
    await new Promise((resolve) => stream.on('end', resolve));
    const out = head + Buffer.concat(rest).toString('utf8');
    // Byte for byte what the whole-line path writes (jsonlText of { line, links }).
    expect(out).to.equal(await run([dense + '\nnext https://b.example/\n']));
    const rs = out.trimEnd().split('\n').map((l) => JSON.parse(l) as LinkRecord);
    expect(rs.map((r) => [r.line, r.links.length])).to.deep.equal([[1, 8000], [2, 1]]);
  });

  it('by default a line longer than 256 KiB is scanned in pieces: its record is readable before the line ends', async () => {
    const dense = 'see https://a.example/ and www.example.com, '.repeat(7000); // 308 KB, 14,000 links
    const stream = createRecordStream();
    const written = new Promise<string>((resolve) => stream.write(Buffer.from(dense), () => resolve('written')));
    const readable = new Promise<string>((resolve) => stream.once('readable', () => resolve('readable')));
    expect(await Promise.race([readable, written])).to.equal('readable');
    expect((stream.read() as Buffer).toString('utf8')).to.match(/^\{"line":1,"links":\[\{"start":4,"end":22,/);
    stream.destroy();
    // 200 KB is held whole: nothing before its line break.
    const short = createRecordStream();
    const shortWritten = new Promise<string>((resolve) => short.write(Buffer.from(dense.slice(0, 200_000)), () => resolve('written')));
    const shortReadable = new Promise<string>((resolve) => short.once('readable', () => resolve('readable')));
    expect(await Promise.race([shortReadable, shortWritten])).to.equal('written');
    short.destroy();
  });

  it('a long line written at once is answered in pieces of bounded size, not one string', async () => {
    const dense = 'see https://a.example/ and www.example.com, '.repeat(25000); // 1.1 MB, 50,000 links: 11 MB of JSON
    const pieces: number[] = [];
    const stream = createRecordStream({ maxRecordBytes: 4096 });
    stream.on('data', (b: Buffer) => pieces.push(b.length));
    stream.end(Buffer.from(dense + '\n'));
    await new Promise((resolve) => stream.on('end', resolve));
    expect(pieces.length).to.be.above(100);
    expect(Math.max(...pieces)).to.be.below(1024 * 1024);
    expect(pieces.reduce((a, b) => a + b, 0)).to.be.above(10 * 1024 * 1024);
  });

  it('a whole CR LF at the end of a write does not swallow a LF that starts the next one (found by the property below)', async () => {
    const lines = async (pieces: string[]): Promise<number[]> => (await records(pieces)).map((r) => r.line);
    expect(await lines(['\r\n', '\n'])).to.deep.equal([1, 2]);
    expect(await lines(['a\r\n', '\nb'])).to.deep.equal([1, 2, 3]);
    expect(await lines(['a\r', '\nb'])).to.deep.equal([1, 2]);
    expect(await lines(['a\r', '\r\n'])).to.deep.equal([1, 2]);
  });

  it('maxRecordBytes changes memory only: the same records for any limit and any split (fast-check, log fragments)', async () => {
    const fragments = [
      '{"u":"https:\\/\\/b.example\\/y\\u00e9z","k":"v"} ', 'key=www.example.com ', '"GET /a.com/b HTTP/1.1" ',
      'a|www.example.org|b ', '例え.jp/パス ', 'x@例え.jp ', '😀', 'https://example.com/q ', '<auth.info> ', 'words ',
      '\\"', '"', '=', 'user=bob@example.net', '\r', '\r\n', '\n', '\xff', ' ', '\ufeff',
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(...fragments), { maxLength: 40 }),
        fc.integer({ min: 1, max: 80 }),
        fc.integer({ min: 1, max: 64 }),
        fc.boolean(),
        async (parts, max, step, logRules) => {
          const input = Buffer.from(parts.join(''), 'utf8');
          // An invalid byte too: 0xFF in place of the first "ÿ" (UTF-8 C3 BF).
          const at = input.indexOf(Buffer.from([0xc3, 0xbf]));
          const bytes = at < 0 ? input : Buffer.concat([input.subarray(0, at), Buffer.from([0xff]), input.subarray(at + 2)]);
          const whole = await run([bytes], { logRules });
          const pieces: Buffer[] = [];
          for (let i = 0; i < bytes.length; i += step) pieces.push(bytes.subarray(i, i + step));
          expect(await run(pieces, { logRules, maxRecordBytes: max })).to.equal(whole);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a 1.5 MiB line: links at its start, across the 256 KiB mark (the default maxRecordBytes) and at its end, exact offsets; memory stays small', async () => {
    const KiB = 1024;
    const filler = (n: number): string => 'lorem ipsum '.repeat(Math.ceil(n / 12)).slice(0, n);
    const head = 'https://start.example/a ';
    const across = ' user=across@example.com ';
    const tail = ' {"u":"https:\\/\\/end.example\\/z"}';
    const a = filler(256 * KiB - 10 - head.length);
    const line = head + a + across + filler(1536 * KiB - head.length - a.length - across.length - tail.length) + tail;
    const input = Buffer.from(line + '\nnext https://next.example/\n');
    const pieces: Buffer[] = [];
    for (let i = 0; i < input.length; i += 64 * 1024) pieces.push(input.subarray(i, i + 64 * 1024));
    const rs = await records(pieces);
    expect(rs.map((r) => [r.line, r.links.map((l) => [l.text, l.uri])])).to.deep.equal([
      [1, [
        ['https://start.example/a', 'https://start.example/a'],
        ['across@example.com', 'mailto:across@example.com'],
        ['https:\\/\\/end.example\\/z', 'https://end.example/z'],
      ]],
      [2, [['https://next.example/', 'https://next.example/']]],
    ]);
    for (const l of rs[0]!.links) expect(input.toString('utf8', l.byteStart, l.byteEnd)).to.equal(l.text);
    expect(rs[0]!.links[1]!.byteStart).to.be.below(256 * KiB).and.above(256 * KiB - 20);
    // The same records when the line is held whole.
    expect(await records(pieces, { maxRecordBytes: 2 * 1024 * KiB })).to.deep.equal(rs);
    // The scanner of the long line holds a few KiB at any time, not the line.
    const { scanner } = new RecordLinker().longRecord(input);
    let most = 0;
    for (let i = 0; i < input.length; i += 64 * 1024) {
      scanner.write(input.subarray(i, Math.min(i + 64 * 1024, line.length)));
      most = Math.max(most, scanner.held);
      if (i + 64 * 1024 >= line.length) break;
    }
    expect(scanner.end().map((l) => l.link.text)).to.deep.equal(['https:\\/\\/end.example\\/z']);
    expect(most).to.be.below(256 * 1024);
  });

  it('the output does not depend on how the input is split (fast-check, any cut points)', async () => {
    const text = Buffer.from('a https://例え.jp/x\r\n{"u":"https:\\/\\/b.example\\/y"}\n\nz 😀 mail@例え.jp\n');
    const whole = await run([text]);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 0, max: text.length }), { maxLength: 6 }), async (cuts) => {
        const points = [...new Set(cuts)].sort((a, b) => a - b);
        const pieces: Buffer[] = [];
        let last = 0;
        for (const p of points) {
          pieces.push(text.subarray(last, p));
          last = p;
        }
        pieces.push(text.subarray(last));
        expect(await run(pieces)).to.equal(whole);
      }),
      { numRuns: 200 },
    );
  });
});

// The record stream answers a line that surely holds no link (empty, or ASCII without `.`, `:` or `\`: view.ts
// isLinklessAscii) without decoding or scanning it. Its output must be what the general path gives.
describe('records: many short lines (lines that surely hold no link are not scanned)', () => {
  /** The general path, written out: the decoded line through LogLineLinker, UTF-8 byte offsets, DESIGN.md's order. */
  function expectedLinks(line: string, logRules: boolean): Record<string, unknown>[] {
    const bytesBefore = (i: number): number => Buffer.byteLength(line.slice(0, i));
    return new LogLineLinker({ logRules }).links(line).map((l) => ({
      start: l.start,
      end: l.end,
      byteStart: bytesBefore(l.start),
      byteEnd: bytesBefore(l.end),
      text: l.text,
      uri: l.uri,
      iri: l.iri,
      kind: l.kind,
      scheme: l.scheme,
      schemeInferred: l.schemeInferred,
      diagnostics: l.diagnostics,
    }));
  }

  // Lines of every shape: empty, trigger-free ASCII (the fast path), ASCII with `.`/`:` but no link, links, JSON
  // with escapes (a `\u002e` makes a dot only in the view), key=, quotes and pipes, non-ASCII, 。, long lines.
  const shapes = [
    '', 'a', 'plain words, no link here!', '\t"quoted" | piped | key=value @ user@localhost ~/x', '2026-11-22 12:30:05 v1.2 ok.',
    'see https://例え.jp/パス and www.example.com', '{"u":"x\\u002eexample\\u002ecom"}', '[{"a","https\\u003a\\/\\/b\\u002eexample"}]', '{"msg":"see https:\\/\\/b.example\\/y"}',
    'user=alice@example.com "GET /a.com/b HTTP/1.1"', 'see 例え。コム', 'éàü no link', 'x'.repeat(300), 'y'.repeat(200) + ' https://long.example/',
    'C:\\www\\tools.pl', '<auth.info> started',
  ];
  const separators = ['\n', '\r\n', '\r'];
  /**
   * The shapes three times over with every separator, and its lines as the rule says (CR LF, LF, lone CR: one break
   * each; a lone CR before an empty line's LF is a CR LF), each with the length of the break after it (0 for the
   * last line, a record too).
   */
  function shaped(of: string[]): { name: string; input: Buffer; lines: string[]; breaks: number[] } {
    let text = '';
    for (let k = 0; k < 3 * of.length; k++) text += (k === 0 ? '' : separators[k % 3]!) + of[k % of.length]!;
    const lines: string[] = [];
    const breaks: number[] = [];
    const breakPattern = /\r\n|\r|\n/g;
    let lineStart = 0;
    for (let m = breakPattern.exec(text); m !== null; m = breakPattern.exec(text)) {
      lines.push(text.slice(lineStart, m.index));
      breaks.push(m[0].length);
      lineStart = m.index + m[0].length;
    }
    lines.push(text.slice(lineStart));
    breaks.push(0);
    const ascii = /^[\x00-\x7f]*$/.test(text);
    return { name: ascii ? 'ASCII lines (a write\'s text stands for its lines)' : 'lines with non-ASCII ones', input: Buffer.from(text), lines, breaks };
  }
  // Every shape, and the ASCII ones alone: an all-ASCII write is decoded once for all its lines.
  const inputs = [shaped(shapes), shaped(shapes.filter((l) => /^[\x00-\x7f]*$/.test(l)))];
  /** The input in writes of `size` bytes (all of it at once for Infinity). */
  const writes = (input: Buffer, size: number): Buffer[] => {
    const out: Buffer[] = [];
    for (let i = 0; i < input.length; i += size) out.push(input.subarray(i, i + size));
    return out;
  };

  it('the fast path clears only lines without links: a `\\` is not cleared (JSON escapes make dots), links are found', () => {
    const cleared = (s: string): boolean => isLinklessAscii(Buffer.from(s), 0, Buffer.byteLength(s));
    expect(['', 'a', 'plain words, no link here!', 'user@localhost', 'x'.repeat(300)].map(cleared)).to.deep.equal([true, true, true, true, true]);
    expect(['v1.2', '12:30', 'C:\\x', '例え。コム', 'é'].map(cleared)).to.deep.equal([false, false, false, false, false]);
    // No `.` or `:` in the bytes, yet a link in the view: the reason a `\` is not cleared.
    const escaped = '[{"a","https\\u003a\\/\\/b\\u002eexample"}]';
    expect(cleared(escaped)).to.equal(false);
    expect(findLogLinks(escaped).map((l) => l.uri)).to.deep.equal(['https://b.example']);
    // A window inside a buffer is read, not the bytes around it.
    expect(isLinklessAscii(Buffer.from('a.b c d.e'), 3, 6)).to.equal(true);
  });

  it('a line the fast path clears has no link on the general path, with and without the log rules (fast-check)', () => {
    const fragments = ['www', 'example', 'com', 'jp', '@', '/', '//', 'https', 'mailto', 'http', '"', '{"', '}', '\\', 'u002e', 'u003a',
      '.', ':', ' ', '=', '|', 'localhost', '[', ']', '\t', '#', '?', '%2E', 'xn--r8jz45g', '-', '_', '<', '>', 'a', '1'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...fragments), { maxLength: 16 }), (parts) => {
        const line = parts.join('');
        if (!isLinklessAscii(Buffer.from(line), 0, line.length)) return;
        expect(findLogLinks(line), line).to.deep.equal([]);
        expect(findLogLinks(line, { logRules: false }), line).to.deep.equal([]);
      }),
      { numRuns: 2000 },
    );
  });

  for (const { name, input, lines, breaks } of inputs) {
    for (const logRules of [true, false]) {
      it(`--records${logRules ? ' --logs' : ''}, ${name}: what the general path gives, in writes of any size, long lines in pieces`, async () => {
        const expected = lines.map((l, k) => JSON.stringify({ line: k + 1, links: expectedLinks(l, logRules) }) + '\n').join('');
        expect(expected).to.include('"links":[{');
        for (const size of [Infinity, 1, 7, 100]) {
          expect(await run(writes(input, size), { logRules }), `writes of ${size}`).to.equal(expected);
          expect(await run(writes(input, size), { logRules, maxRecordBytes: 64 }), `writes of ${size}, max 64`).to.equal(expected);
        }
        expect(linkRecords(input, { logRules }).map((r) => JSON.stringify(r) + '\n').join('')).to.equal(expected);
      });
    }

    it(`createLogLinkStream, ${name}: offsets over the whole input after many skipped lines, as the general path gives them`, async () => {
      let expected = '';
      let units = 0;
      let bytes = 0;
      for (const [k, line] of lines.entries()) {
        for (const l of expectedLinks(line, true)) {
          const { start, end, byteStart, byteEnd, ...rest } = l as { start: number; end: number; byteStart: number; byteEnd: number };
          const row = { line: k + 1, column: start + 1, start: units + start, end: units + end, byteStart: bytes + byteStart, byteEnd: bytes + byteEnd, ...rest };
          expected += JSON.stringify(row) + '\n';
        }
        units += line.length + breaks[k]!;
        bytes += Buffer.byteLength(line) + breaks[k]!;
      }
      expect(expected.split('\n').length).to.be.above(10);
      for (const size of [Infinity, 7]) {
        for (const maxRecordBytes of [undefined, 64]) {
          let out = '';
          for await (const b of Readable.from(writes(input, size)).pipe(createLogLinkStream({ maxRecordBytes }))) out += (b as Buffer).toString('utf8');
          expect(out).to.equal(expected);
        }
      }
    });
  }

  it('a legacy charset: only empty lines are skipped (ISO-2022-JP writes 例え。コム in ASCII bytes with no `.` or `:`)', async () => {
    // 例 4E 63, え 24 28, 。21 23, コ 25 33, ム 25 60 (JIS X 0208), between ESC $ B and ESC ( B (RFC 1468).
    const second = Buffer.from('see \x1b$BNc$(!#%3%`\x1b(B', 'latin1');
    expect(isLinklessAscii(second, 0, second.length)).to.equal(true); // as UTF-8 it would be skipped
    const raw = Buffer.concat([Buffer.from('\n'), second, Buffer.from('\n\nno link\n\n')]);
    expect((await records([raw], { encoding: 'iso-2022-jp' })).map((r) => [r.line, r.links.map((l) => l.text)])).to.deep.equal([
      [1, []], [2, ['例え。コム']], [3, []], [4, []], [5, []],
    ]);
  });
});

describe('records: option checks', () => {
  const detector = 'schemes, anyScheme, schemeless, email, defaultScheme, tlds, maxLinkLength, documentCharset';
  const loose = (f: unknown): ((...args: unknown[]) => unknown) => f as (...args: unknown[]) => unknown;

  it('the streams list logRules, encoding and maxRecordBytes with the detector\'s options', () => {
    const known = `logRules, encoding, maxRecordBytes, ${detector}`;
    expect(() => createRecordStream({ maxRecordByte: 5 } as object)).to.throw(TypeError, `irilink: unknown option "maxRecordByte"; the known options are ${known}`);
    expect(() => createLogLinkStream({ encodng: 'latin1' } as object)).to.throw(TypeError, `irilink: unknown option "encodng"; the known options are ${known}`);
    expect(() => createRecordStream({ logRules: false, encoding: 'shift_jis', maxRecordBytes: 9, email: false }).destroy()).to.not.throw();
  });

  it('RecordLinker and linkRecords list logRules and encoding (maxRecordBytes is the streams\')', () => {
    const message = `irilink: unknown option "maxRecordBytes"; the known options are logRules, encoding, ${detector}`;
    expect(() => new RecordLinker({ maxRecordBytes: 5 } as object)).to.throw(TypeError, message);
    expect(() => linkRecords('x', { maxRecordBytes: 5 } as object)).to.throw(TypeError, message);
    expect(linkRecords('a https://a.example/', { encoding: 'utf-8', logRules: true })[0]!.links).to.have.length(1);
  });

  it('all of them refuse options that are not an object, naming the function; linkRecords checks its input', () => {
    for (const bad of [[], 42, null, 'x']) {
      const what = JSON.stringify(bad);
      const expected = (fn: string): RegExp => new RegExp(`^irilink: ${fn}\\(\\): options must be an object or undefined, got `);
      expect(() => loose(createRecordStream)(bad), what).to.throw(TypeError, expected('createRecordStream'));
      expect(() => loose(createLogLinkStream)(bad), what).to.throw(TypeError, expected('createLogLinkStream'));
      expect(() => new RecordLinker(bad as object), what).to.throw(TypeError, expected('RecordLinker'));
      expect(() => loose(linkRecords)('x', bad), what).to.throw(TypeError, expected('linkRecords'));
    }
    expect(() => loose(linkRecords)(42)).to.throw(TypeError, /^irilink: linkRecords\(\): input must be a string or a Uint8Array, got 42/);
    expect(() => createRecordStream(undefined).destroy()).to.not.throw();
  });
});

describe('records: legacy charsets (encoding)', () => {
  it('Shift_JIS lines: decoded per line, query in the document charset, byte offsets into the Shift_JIS bytes', async () => {
    const lines = ['検索 http://example.jp/検索?q=東京 です', '連絡先（aiko@例え.jp）'];
    const bytes = iconv.encode(lines.join('\r\n') + '\r\n', 'shift_jis');
    const rs = await records([bytes], { encoding: 'shift_jis' });
    expect(rs.map((r) => r.links.map((l) => l.text))).to.deep.equal([['http://example.jp/検索?q=東京'], ['aiko@例え.jp']]);
    const sjis = [...iconv.encode('東京', 'shift_jis')].map((b) => '%' + b.toString(16).toUpperCase()).join('');
    expect(rs[0]!.links[0]!.uri).to.equal(`http://example.jp/%E6%A4%9C%E7%B4%A2?q=${sjis}`);
    const rawLines = lines.map((l) => iconv.encode(l, 'shift_jis'));
    for (const [i, r] of rs.entries()) {
      for (const l of r.links) expect(iconv.decode(rawLines[i]!.subarray(l.byteStart, l.byteEnd), 'shift_jis')).to.equal(l.text);
    }
  });

  it('ISO-2022-JP lines (each line returns to ASCII, RFC 1468)', async () => {
    const line = Buffer.concat([Buffer.from('\x1b$B8!:w\x1b(B https://example.jp/a\n', 'latin1')]);
    const [r] = await records([line], { encoding: 'iso-2022-jp' });
    expect(r!.links.map((l) => [l.text, l.start, l.byteStart, l.byteEnd])).to.deep.equal([['https://example.jp/a', 3, 11, 31]]);
  });

  it('refuses a charset whose characters can hold the byte 0x0A, and an unknown one', () => {
    expect(() => createRecordStream({ encoding: 'utf-16le' })).to.throw(TypeError);
    expect(() => createRecordStream({ encoding: 'no-such-charset' })).to.throw(TypeError);
  });

  it('refuses UTF-16 and UTF-32 under every label, not only utf-16/utf-32 (WHATWG: unicode, csunicode, unicodefffe …)', () => {
    // Each of these read a UTF-8 log as UTF-16 or UTF-32 and answered every line with no links, silently.
    for (const encoding of ['unicode', 'csunicode', 'iso-10646-ucs-2', 'unicodefeff', 'unicodefffe', 'ucs4', 'UTF-32']) {
      expect(() => createRecordStream({ encoding }), encoding).to.throw(TypeError, /0x0A/);
      expect(() => createLogLinkStream({ encoding }), encoding).to.throw(TypeError, /0x0A/);
      expect(() => linkRecords('a https://example.com/\n', { encoding }), encoding).to.throw(TypeError, /0x0A/);
    }
    // ASCII-compatible charsets other than UTF-8 stay accepted.
    expect(linkRecords('a https://example.com/\n', { encoding: 'cesu-8' })[0]!.links.map((l) => l.text)).to.deep.equal(['https://example.com/']);
  });
});

describe('records: UTF-8 input that starts with a UTF-16 byte order mark is refused', () => {
  const utf16le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('see https://example.com/\r\nnext\r\n', 'utf16le')]);
  const utf16be = Buffer.from(Buffer.from(utf16le).swap16()); // FE FF and big-endian units
  const failure = async (pieces: Buffer[], options?: RecordOptions): Promise<unknown> => {
    try {
      await run(pieces, options);
    } catch (error) {
      return error;
    }
    return null;
  };

  it('the streams fail with an error that names the byte order mark, whatever the writes (it answered every line without links)', async () => {
    for (const [input, bom] of [[utf16le, 'FF FE'], [utf16be, 'FE FF']] as const) {
      for (const pieces of [[input], [input.subarray(0, 1), input.subarray(1)], [input.subarray(0, 1), input.subarray(1, 2), input.subarray(2)]]) {
        const error = await failure(pieces);
        expect(error, bom).to.be.instanceOf(Error);
        expect((error as Error).message).to.match(/^irilink: /).and.to.include(bom).and.to.include('UTF-16');
        // A code to tell it from other failures (the command skips such a file; any other error is a bug).
        expect((error as { code?: string }).code, bom).to.equal('utf16-input');
      }
      expect(await failure([input], { encoding: 'utf-8' }), 'utf-8 named').to.be.instanceOf(Error);
    }
    const rows: unknown[] = [];
    const stream = createLogLinkStream();
    const done = new Promise<unknown>((resolve) => stream.on('error', resolve).on('end', () => resolve(null)));
    stream.on('data', (d) => rows.push(d));
    stream.end(utf16le);
    expect(await done).to.be.instanceOf(Error);
    expect(rows).to.deep.equal([]);
  });

  it('also when the first line is longer than maxRecordBytes (scanned in pieces)', async () => {
    const long = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('x'.repeat(300), 'utf16le').filter((b) => b !== 0x0a)]);
    expect(await failure([long.subarray(0, 1), long.subarray(1)], { maxRecordBytes: 64 })).to.be.instanceOf(Error);
    expect(await failure([long], { maxRecordBytes: 64 })).to.be.instanceOf(Error);
  });

  it('RecordLinker and linkRecords refuse it at line 1 only; a legacy charset reads FF FE as its characters', () => {
    expect(() => linkRecords(utf16le)).to.throw(Error, /FF FE/);
    expect(() => new RecordLinker().record(utf16le.subarray(0, 20))).to.throw(Error, /FF FE/);
    const linker = new RecordLinker();
    expect(linker.record(Buffer.from('a https://example.com/')).links).to.have.length(1);
    expect(linker.record(Buffer.from([0xff, 0xfe, 0x20, 0x61])).links).to.deep.equal([]); // line 2: U+FFFD U+FFFD
    // windows-1252: FF FE are ÿþ, a line like any other.
    expect(linkRecords(Buffer.from('\xff\xfe https://example.com/\n', 'latin1'), { encoding: 'windows-1252' })[0]!.links.map((l) => l.text)).to.deep.equal([
      'https://example.com/',
    ]);
    // The UTF-8 BOM is still dropped as before.
    expect(linkRecords('\ufeffhttps://example.com/')[0]!.links[0]).to.deep.include({ start: 0, byteStart: 3 });
  });
});

describe('records: a filter that answers each line before the next arrives', () => {
  it('the record of line 1 is readable before line 2 is written', async () => {
    const input = new PassThrough();
    const stream = input.pipe(createRecordStream());
    const reader = stream[Symbol.asyncIterator]();
    input.write('first https://example.com/1\n');
    const first = await reader.next();
    expect(JSON.parse((first.value as Buffer).toString())).to.deep.include({ line: 1 });
    // A partial line is held until its line break arrives (then answered at once).
    input.write('second https://exa');
    input.write('mple.com/2\nthird');
    const second = await reader.next();
    expect((second.value as Buffer).toString()).to.match(/^\{"line":2,"links":\[\{"start":7,"end":28/);
    input.end('\n');
    const third = await reader.next();
    expect(JSON.parse((third.value as Buffer).toString())).to.deep.equal({ line: 3, links: [] });
    expect((await reader.next()).done).to.equal(true);
  });
});

  it('lets a piped source start its next read before the current write is worked on (src/stream/later.ts)', async () => {
    const events: string[] = [];
    const source = loggingSource(events, 3, (k) => `line ${k} https://example.com/${k}\n`);
    const stream = loggingPushes(createRecordStream(), events, () => 'record');
    const lines: number[] = [];
    for await (const out of source.pipe(stream)) {
      for (const l of (out as Buffer).toString().split('\n').filter((x) => x !== '')) lines.push((JSON.parse(l) as { line: number }).line);
    }
    expect(lines).to.deep.equal([1, 2, 3]);
    // Worked on inside the source's push(), the first line's record would come before `read 1`.
    expect(events.indexOf('read 1')).to.be.greaterThan(-1);
    expect(events.indexOf('read 1'), events.join(', ')).to.be.below(events.indexOf('push record'));
  });

describe('records: a real log', () => {
  const file = largeCorpusPath('logs.txt') ?? path.join(samplesDir, 'log.txt');
  it(`${path.basename(path.dirname(file))}/logs: one record per line, each equal to findLogLinks on that line`, async () => {
    if (largeCorpusPath('logs.txt') === undefined) {
      console.log('      note: corpora/large/logs.txt has not been built (npm run corpora); reading corpora/samples/log.txt');
    }
    const bytes = readFileSync(file);
    const lines = bytes.toString('utf8').split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    // Pieces of 4 KiB, as a pipe delivers them.
    const pieces: Buffer[] = [];
    for (let i = 0; i < bytes.length; i += 4096) pieces.push(bytes.subarray(i, i + 4096));
    const rs = await records(pieces);
    expect(rs.length).to.equal(lines.length);
    let links = 0;
    for (const [i, r] of rs.entries()) {
      expect(r.line).to.equal(i + 1);
      const line = lines[i]!.endsWith('\r') ? lines[i]!.slice(0, -1) : lines[i]!;
      expect(r.links.map((l) => l.uri)).to.deep.equal(findLogLinks(line).map((l) => l.uri));
      const raw = Buffer.from(line);
      for (const l of r.links) expect(raw.toString('utf8', l.byteStart, l.byteEnd)).to.equal(l.text);
      links += r.links.length;
    }
    expect(links).to.be.greaterThan(10);
    expect(linkRecords(bytes).map((r) => r.links.length)).to.deep.equal(rs.map((r) => r.links.length));
  });
});

describe('records: as a filter process (the way RDD.pipe and Hadoop Streaming run it)', () => {
  it('a child process answers each line on stdout before the next line is written to its stdin', async () => {
    const { spawn } = await import('node:child_process');
    const module = new URL('../src/logs/records.ts', import.meta.url).href;
    const script = `import { createRecordStream } from ${JSON.stringify(module)}; process.stdin.pipe(createRecordStream()).pipe(process.stdout);`;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['pipe', 'pipe', 'inherit'] });
    const lines: string[] = [];
    let buffered = '';
    let waiting: (() => void) | undefined;
    child.stdout.on('data', (b: Buffer) => {
      buffered += b.toString('utf8');
      let nl: number;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        lines.push(buffered.slice(0, nl));
        buffered = buffered.slice(nl + 1);
      }
      waiting?.();
    });
    child.on('exit', () => waiting?.());
    const nextLine = async (count: number): Promise<string> => {
      while (lines.length < count) {
        if (child.exitCode !== null) throw new Error(`the filter exited (code ${child.exitCode}) before answering line ${count}`);
        await new Promise<void>((resolve) => (waiting = resolve));
      }
      return lines[count - 1]!;
    };
    const inputs = ['GET https://例え.jp/a', 'no link', '{"url":"https:\\/\\/example.com\\/x"}'];
    const expected = ['https://xn--r8jz45g.jp/a', null, 'https://example.com/x'];
    for (const [i, input] of inputs.entries()) {
      child.stdin.write(input + '\n');
      const record = JSON.parse(await nextLine(i + 1)) as LinkRecord;
      expect([record.line, record.links[0]?.uri ?? null]).to.deep.equal([i + 1, expected[i]]);
    }
    child.stdin.end();
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).to.equal(0);
    expect(lines).to.have.length(3);
  });
});

describe('records: a link holding bytes the decoder replaced says so, in any charset (found in review)', () => {
  // Shift_JIS 85 40: row 85 is unassigned; the decoder gives U+FFFD (for 85) then "@". The stream flags the chunk
  // `invalid-bytes`, and a record's link, found in the decoded line, takes it from the byte map's span.
  const line = Buffer.concat([Buffer.from('see https://x.jp/a'), Buffer.from([0x85, 0x40]), Buffer.from('b c\n')]);

  it('a short line: see ⸠https://x.jp/a�@b⸡ c, invalid-bytes', () => {
    const [record] = linkRecords(line, { encoding: 'shift_jis' });
    expect(record!.links.map((l) => [l.text, l.byteStart, l.byteEnd, l.diagnostics])).to.deep.equal([
      ['https://x.jp/a\uFFFD@b', 4, 21, ['invalid-bytes']],
    ]);
  });

  it('a line longer than maxRecordBytes, scanned in pieces: the same', async () => {
    const [record] = await records([line], { encoding: 'shift_jis', maxRecordBytes: 8 });
    expect(record!.links.map((l) => [l.text, l.byteStart, l.byteEnd, l.diagnostics])).to.deep.equal([
      ['https://x.jp/a\uFFFD@b', 4, 21, ['invalid-bytes']],
    ]);
  });

  it('UTF-8: invalid-utf8 on both paths', async () => {
    const utf8 = Buffer.concat([Buffer.from('see https://x.jp/a'), Buffer.from([0xff]), Buffer.from('b c\n')]);
    expect(linkRecords(utf8)[0]!.links[0]!.diagnostics).to.deep.equal(['invalid-utf8']);
    const [record] = await records([utf8], { maxRecordBytes: 8 });
    expect(record!.links[0]!.diagnostics).to.deep.equal(['invalid-utf8']);
  });
});
