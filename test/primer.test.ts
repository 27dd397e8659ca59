// The primer (src/detect/primer.ts): once a process has scanned PRIME_AFTER code units, the scanner links sample text
// once with a scanner of its own, so that V8 has type feedback for rare paths before it compiles them. It is for speed
// only: it must change no result, run once, and not before the threshold. Checked in a fresh process on the built
// package (the test process itself has long crossed the threshold).
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from '../bench/lib/paths.js';
import { findLinks } from '../src/detect/index.js';
import { PRIMER_SAMPLES } from '../src/detect/primer.js';
import { PRIME_AFTER } from '../src/detect/scanner.js';

const scanner = pathToFileURL(path.join(repoRoot, 'dist', 'detect', 'scanner.js')).href;
const detect = pathToFileURL(path.join(repoRoot, 'dist', 'detect', 'index.js')).href;
const stream = pathToFileURL(path.join(repoRoot, 'dist', 'stream', 'transform.js')).href;

interface State {
  scanned: number;
  done: boolean;
  runs: number;
}

interface Report {
  before: State;
  belowThreshold: State;
  /** After a link of 6,020 units written to a stream one unit at a time. */
  pieces: State;
  after: State;
  later: State;
  /** findLinks of the probe text before the primer ran, and after. */
  first: unknown;
  second: unknown;
  /** The links of the scan that crossed the threshold, against its copies × the probe's links. */
  crossing: number;
  expected: number;
  crossingSample: unknown;
}

function runFresh(): Report {
  const script = `
    const { createScanner, primerState, PRIME_AFTER } = await import(${JSON.stringify(scanner)});
    const { findLinks } = await import(${JSON.stringify(detect)});
    const { createLinkStream } = await import(${JSON.stringify(stream)});
    const plain = (links) => links.map((l) => [l.start, l.end, l.kind, l.uri, l.iri, l.diagnostics.join(',')]);
    const probe = ${JSON.stringify(probeText())};
    const before = primerState();
    const first = plain(findLinks(probe));
    const belowThreshold = primerState();
    const s = createLinkStream();
    s.resume();
    for (const unit of 'https://example.com/' + 'a'.repeat(6000)) s.write(unit);
    s.end();
    await new Promise((resolve) => s.on('end', resolve));
    const pieces = primerState();
    // One scan that crosses the threshold: the probe, repeated.
    const copies = Math.ceil(PRIME_AFTER / (probe.length + 1)) + 1;
    const big = (probe + '\\n').repeat(copies);
    const crossingLinks = createScanner().scan(big, 0, true, 0).links;
    const after = primerState();
    const second = plain(findLinks(probe));
    findLinks(probe);
    const later = primerState();
    console.log(JSON.stringify({
      before, belowThreshold, pieces, after, later, first, second,
      crossing: crossingLinks.length, expected: copies * first.length,
      crossingSample: plain(crossingLinks.slice(0, first.length)),
    }));
  `;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: repoRoot, encoding: 'utf8' });
  return JSON.parse(out) as Report;
}

/** Text that takes many paths: the samples themselves and links of other kinds, so that a changed result shows. */
function probeText(): string {
  return [
    ...PRIMER_SAMPLES,
    'Mail ceo@example.com or visit https://例え.テスト/パス?q=値#frag, www.example.org/a_(b) and [x](https://example.com/y).',
  ].join('\n');
}

describe('primer: sample text linked once per process for V8’s type feedback (performance only)', () => {
  let report: Report;
  before(function () {
    this.timeout(60_000);
    report = runFresh();
  });

  it('is not linked before the process has scanned PRIME_AFTER code units', () => {
    expect(report.before).to.deep.equal({ scanned: 0, done: false, runs: 0 });
    expect(report.belowThreshold.done).to.equal(false);
    expect(report.belowThreshold.scanned).to.be.greaterThan(0).and.below(PRIME_AFTER);
  });

  it('counts each code unit of a stream once, though the stream scans its unfinished tail with every write', () => {
    expect(report.pieces.done).to.equal(false);
    const written = report.pieces.scanned - report.belowThreshold.scanned;
    // Rescanning the tail counted every write's whole tail again: about 6020² / 2 units. (src/keep.ts may link its
    // few hundred units of samples meanwhile, a timer after the first findLinks call.)
    expect(written).to.be.at.least(6020).and.below(2 * 6020);
  });

  it('is linked by the scan that crosses the threshold, once: the count stops there', () => {
    expect(report.after).to.include({ done: true, runs: 1 });
    expect(report.after.scanned).to.be.at.least(PRIME_AFTER);
    expect(report.later).to.deep.equal(report.after);
  });

  it('changes no result: the same links before and after, and in the scan that crossed the threshold', () => {
    expect(report.first).to.be.an('array').that.is.not.empty;
    expect(report.second).to.deep.equal(report.first);
    expect(report.crossing).to.equal(report.expected);
    expect(report.crossingSample).to.deep.equal(report.first);
  });

  it('its samples link without an exception, and most of them find a link', () => {
    let withLinks = 0;
    for (const sample of PRIMER_SAMPLES) if (findLinks(sample).length > 0) withLinks++;
    expect(withLinks).to.be.at.least(Math.ceil(PRIMER_SAMPLES.length * 0.9));
    expect(findLinks(PRIMER_SAMPLES.join('\n')).length).to.be.at.least(PRIMER_SAMPLES.length);
  });
});
