// What src/keep.ts keeps (a stream that linked samples; findLinks() and linkify() of them) must have the hidden classes
// (V8 maps) of what every plain stream and every call make, or keeping it alive would not keep V8's optimised code
// alive. Checked with V8's own %HaveSameMap in a child process started with --allow-natives-syntax, on the built
// package.
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from '../bench/lib/paths.js';

const transform = pathToFileURL(path.join(repoRoot, 'dist', 'stream', 'transform.js')).href;
const detect = pathToFileURL(path.join(repoRoot, 'dist', 'detect', 'index.js')).href;

interface Report {
  /** keptShapeChunks() before any stream, and right when the first stream has ended. */
  before: unknown;
  atEnd: unknown;
  kept: string[];
  /** Each chunk of the stream that no kept chunk shares a map with: its type, kind and text. */
  unmatched: string[];
  chunks: number;
}

/** Runs `text` (one write per element) through createLinkStream in a fresh process and compares maps. */
function compareMaps(writes: string[]): Report {
  const script = `
    const { createLinkStream, keptShapeChunks } = await import(${JSON.stringify(transform)});
    const before = keptShapeChunks();
    const first = createLinkStream();
    first.resume();
    first.end('a first stream, ended');
    await new Promise((resolve) => first.on('end', resolve));
    const atEnd = keptShapeChunks();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const kept = keptShapeChunks() ?? [];
    const stream = createLinkStream();
    const chunks = [];
    stream.on('data', (c) => chunks.push(c));
    for (const w of ${JSON.stringify(writes)}) stream.write(Buffer.from(w, 'utf8'));
    stream.end();
    await new Promise((resolve) => stream.on('end', resolve));
    const describe = (c) => c.type + ' ' + (c.kind ?? '') + ' ' + JSON.stringify(c.text);
    const unmatched = chunks.filter((c) => !kept.some((k) => %HaveSameMap(c, k))).map(describe);
    console.log(JSON.stringify({ before, atEnd, kept: kept.map(describe), unmatched, chunks: chunks.length }));
  `;
  return runWithNatives(script) as Report;
}

/** Runs a module script with V8's natives syntax in a fresh process; its one line of JSON output. */
function runWithNatives(script: string): unknown {
  const out = execFileSync(process.execPath, ['--allow-natives-syntax', '--input-type=module', '-e', script], {
    cwd: repoRoot,
    encoding: 'utf8',
  });
  return JSON.parse(out);
}

interface CallReport {
  before: unknown;
  links: number;
  chunks: number;
  unmatched: string[];
}

/** findLinks() and linkify() of `text` in a fresh process, compared with what is kept after a first call. */
function compareCallMaps(text: string): CallReport {
  const script = `
    const { findLinks, linkify, keptLinksAndChunks } = await import(${JSON.stringify(detect)});
    const before = keptLinksAndChunks();
    findLinks('a first call');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const kept = keptLinksAndChunks() ?? { links: [], chunks: [] };
    const text = ${JSON.stringify(text)};
    const links = findLinks(text);
    const chunks = linkify(text);
    const describe = (c) => (c.type ?? 'findLinks') + ' ' + c.kind + ' ' + JSON.stringify(c.text);
    const unmatched = [
      ...links.filter((l) => !kept.links.some((k) => %HaveSameMap(l, k))),
      ...chunks.filter((c) => !kept.chunks.some((k) => %HaveSameMap(c, k))),
    ].map(describe);
    console.log(JSON.stringify({ before, links: links.length, chunks: chunks.length, unmatched }));
  `;
  return runWithNatives(script) as CallReport;
}

const ENGLISH = 'Docs at http://example.org/docs?q=1, ftp.example.com and bob@example.com (see https://x.example/a_(b)).\n';
const MULTILINGUAL =
  '\u53c2\u7167 https://\u4f8b\u3048.jp/\u30d1\u30b9 \u3001\u30e1\u30fc\u30eb \u592a\u90ce@\u4f8b\u3048.jp\u3002 ' +
  'https://ru.wikipedia.org/wiki/\u041c\u043e\u0441\u043a\u0432\u0430 \u0438 \u043c\u043e\u0441\u043a\u0432\u0430.\u0440\u0444\n';

describe('keep: what is kept has the maps of every stream and call (V8 keeps optimised code between them)', function () {
  this.timeout(30_000);

  it('is made a little after the first stream has ended, not before nor at its end, and holds linked samples', () => {
    const { before, atEnd, kept } = compareMaps([]);
    expect(before).to.equal(null);
    expect(atEnd).to.equal(null);
    expect(kept.filter((k) => k.startsWith('link url'))).to.have.length.of.at.least(5);
    expect(kept.some((k) => k.startsWith('link email'))).to.equal(true);
    expect(kept.some((k) => k.includes('www.'))).to.equal(true);
    expect(kept.some((k) => k.startsWith('link url') && /[^\0-\x7f]/.test(k))).to.equal(true);
    expect(kept.some((k) => k.startsWith('text'))).to.equal(true);
  });

  it('every chunk of English and of dense multilingual text has the map of a kept chunk', () => {
    const report = compareMaps([
      ENGLISH,
      MULTILINGUAL,
      'A link cut by a write: https://example.net/pa',
      'th?x=1 and the end.\n',
    ]);
    expect(report.chunks).to.be.greaterThan(12);
    expect(report.unmatched).to.deep.equal([]);
  });

  it('findLinks() and linkify(): kept a little after the first call, with the maps of every later call', () => {
    const report = compareCallMaps(ENGLISH + MULTILINGUAL);
    expect(report.before).to.equal(null);
    expect(report.links).to.be.greaterThan(6);
    expect(report.chunks).to.be.greaterThan(12);
    expect(report.unmatched).to.deep.equal([]);
  });
});
