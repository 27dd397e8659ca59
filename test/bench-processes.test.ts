// The bench's child processes (bench/lib/processes.ts, bench/child.ts): a contender's runs are timed in its own
// process, the runs of all contenders on an input are interleaved, and a failing or stuck child becomes a row
// that says so instead of stopping or hanging the bench. Runs on a committed sample (corpora/samples), so it needs
// no built corpora; irilink is loaded from dist/ (built by `npm test`'s pretest).
import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseLinksTsv } from '../bench/lib/links-tsv.js';
import { samplesDir } from '../bench/lib/paths.js';
import { runJob, type Warmup } from '../bench/lib/processes.js';

const file = path.join(samplesDir, 'chat.txt');
const bytes = statSync(file).size;
const expectedLinks = parseLinksTsv(path.join(samplesDir, 'chat.links.tsv')).length;
/** A child that speaks the protocol and misbehaves as its contender name says (see the file). */
const NO_WARMUP: Warmup = { bytes: 0, runs: 0 };
const fake = path.join(path.dirname(fileURLToPath(import.meta.url)), 'support', 'fake-bench-child.mjs');

const scratch = mkdtempSync(path.join(tmpdir(), 'irilink-bench-test-'));
let files = 0;
/** A new file for the stand-in children to note themselves in (given to them as the input file). */
function pidFile(): string {
  const f = path.join(scratch, `children-${files++}.jsonl`);
  writeFileSync(f, '');
  return f;
}
function children(f: string): { contender: string; pid: number; execArgv: string[] }[] {
  return readFileSync(f, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
}
/** Every child noted in `f` has exited (and been reaped: signal 0 finds no such process). */
function expectAllGone(f: string): void {
  const list = children(f);
  expect(list).to.not.be.empty;
  for (const { contender, pid } of list) expect(() => process.kill(pid, 0), contender).to.throw(/ESRCH/);
}

describe('bench: child processes (bench/lib/processes.ts)', function () {
  this.timeout(60_000);
  after(() => rmSync(scratch, { recursive: true, force: true }));

  it('times every run of every contender and interleaves them: run 1 of each, then run 2 in reverse order', async () => {
    const log: string[] = [];
    const results = await runJob(['irilink', 'passthrough'], file, bytes, 2, { bytes: 256, runs: 3 }, 60, (line) => log.push(line.trim().replace(/: \d+ ms$/, '')));
    expect(log).to.deep.equal(['run 1/2 irilink', 'run 1/2 passthrough', 'run 2/2 passthrough', 'run 2/2 irilink']);
    const [iri, pass] = results;
    expect(iri).to.include({ contender: 'irilink', status: 'ok', bytes, links: expectedLinks });
    expect(pass).to.include({ contender: 'passthrough', status: 'ok', links: 0 });
    for (const r of results) {
      expect(r.runsMs).to.have.length(2);
      expect(r.medianMs).to.be.greaterThan(0);
      expect(r.maxRssMiB).to.be.greaterThan(10);
    }
  });

  it('reports a contender whose child fails as an error row, and still measures the others', async () => {
    const [bad, good] = await runJob(['no-such-contender', 'passthrough'], file, bytes, 1, NO_WARMUP, 60);
    expect(bad).to.include({ contender: 'no-such-contender', status: 'error' });
    expect(bad!.error).to.match(/unknown contender/);
    expect(good).to.include({ status: 'ok' });
  });

  it('kills a child whose run exceeds the time limit, reports a timeout, and goes on with the others', async () => {
    const log: string[] = [];
    const pids = pidFile();
    const [slow, good] = await runJob(['slow', 'good'], pids, 0, 3, NO_WARMUP, 1, (line) => log.push(line.trim().replace(/: \d+ ms$/, '')), fake);
    expect(slow).to.include({ status: 'timeout', error: 'run 2 took more than 1 s' });
    expect(slow!.runsMs).to.have.length(1);
    expect(good).to.include({ status: 'ok', links: 3 });
    expect(log).to.deep.equal(['run 1/3 slow', 'run 1/3 good', 'run 2/3 good', 'run 3/3 good']);
    expectAllGone(pids);
  });

  it('turns every protocol failure into an error row for that contender alone, and kills the child', async () => {
    const pids = pidFile();
    const names = ['nonjson', 'dies', 'wrong-reply', 'double-reply', 'fails', 'throws', 'good'];
    const results = await runJob(names, pids, 0, 3, NO_WARMUP, 5, undefined, fake);
    const byName = new Map(results.map((r) => [r.contender, r]));
    const error = (name: string): string => {
      expect(byName.get(name), name).to.include({ status: 'error' });
      return byName.get(name)!.error!;
    };
    expect(error('nonjson')).to.match(/^protocol: unexpected output "hello from a library"/);
    expect(error('dies')).to.match(/^the child stopped during run 2 \(exit 0\)/);
    expect(error('wrong-reply')).to.match(/^protocol: waiting for run 2, got \{"ready":true\}/);
    // A second reply to run 1: the child is out of step (its next reply would be taken for run 2's).
    expect(error('double-reply')).to.match(/^protocol: a message between runs: \{"run":0,/);
    expect(error('fails')).to.equal('the contender threw');
    // What the child said on stderr, not the source line Node prints before it.
    expect(error('throws')).to.match(/^the child stopped during run 2 \(exit 1: TypeError: boom in the contender\)/);
    for (const name of names.slice(0, -1)) expect(byName.get(name)!.runsMs, name).to.have.length(1);
    expect(byName.get('good')).to.include({ status: 'ok', links: 3 });
    expect(byName.get('good')!.runsMs).to.deep.equal([5, 5, 5]);
    expect(byName.get('good')!.maxRssMiB).to.be.closeTo(50_000 / 1024, 1e-9);
    expectAllGone(pids);
  });

  it('does not wait for a process the child left behind holding its output', async () => {
    const started = Date.now();
    const [r] = await runJob(['grandchild'], pidFile(), 0, 2, NO_WARMUP, 10, undefined, fake);
    expect(r).to.include({ status: 'error' });
    expect(r!.error).to.match(/^the child stopped during run 2 \(exit 0/);
    expect(Date.now() - started).to.be.lessThan(2500); // the left-behind process lives 3 s
  });

  it('keeps the runs of a child that fails only after its last run, without its peak RSS and with a note', async () => {
    const pids = pidFile();
    const results = await runJob(['no-done', 'done-stays', 'done-exit-3', 'no-rss'], pids, 0, 2, NO_WARMUP, 1, undefined, fake);
    for (const r of results) {
      expect(r, r.contender).to.include({ status: 'ok', links: 3, maxRssMiB: undefined });
      expect(r.runsMs, r.contender).to.deep.equal([5, 5]);
    }
    const [noDone, stays, exit3, noRss] = results;
    expect(noDone!.note).to.equal('after the last run: the exit took more than 1 s');
    expect(stays!.note).to.equal('the child did not exit within 1 s after its last run (its peak RSS is left out)');
    expect(exit3!.note).to.match(/^the child ended badly after its last run \(exit 3/);
    expect(noRss!.note).to.equal('the child reported no peak RSS');
    expectAllGone(pids);
  });

  it('runs the children with the memory reducer off, from the repository whatever the current directory', async () => {
    const pids = pidFile();
    const cwd = process.cwd();
    process.chdir(tmpdir());
    let results;
    try {
      results = await runJob(['good'], pids, 0, 1, NO_WARMUP, 10, undefined, fake);
    } finally {
      process.chdir(cwd);
    }
    expect(results[0]).to.include({ status: 'ok' });
    const [child] = children(pids);
    expect(child!.execArgv).to.include('--no-memory-reducer');
  });

  it('kills a child whose start and warm-up exceed their limit (3 × the run limit) and reports a timeout', async () => {
    // 10 ms is far less than starting Node with tsx takes.
    const [r] = await runJob(['passthrough'], file, bytes, 1, NO_WARMUP, 0.01);
    expect(r).to.include({ status: 'timeout' });
    expect(r!.error).to.match(/warm-up took more than/);
    expect(r!.runsMs).to.deep.equal([]);
  });
});
