// The bench's child processes (bench/lib/processes.ts, bench/child.ts): a contender's runs are timed in its own
// process, the runs of all contenders on an input are interleaved, and a failing or stuck child becomes a row
// that says so instead of stopping or hanging the bench. Runs on a committed sample (corpora/samples), so it needs
// no built corpora; irilink is loaded from dist/ (built by `npm test`'s pretest).
import { expect } from 'chai';
import { statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseLinksTsv } from '../bench/lib/links-tsv.js';
import { samplesDir } from '../bench/lib/paths.js';
import { runJob } from '../bench/lib/processes.js';

const file = path.join(samplesDir, 'chat.txt');
const bytes = statSync(file).size;
const expectedLinks = parseLinksTsv(path.join(samplesDir, 'chat.links.tsv')).length;
/** A child that speaks the protocol and misbehaves as its contender name says (see the file). */
const fake = path.join(path.dirname(fileURLToPath(import.meta.url)), 'support', 'fake-bench-child.mjs');

describe('bench: child processes (bench/lib/processes.ts)', function () {
  this.timeout(60_000);

  it('times every run of every contender and interleaves them: run 1 of each, then run 2 in reverse order', async () => {
    const log: string[] = [];
    const results = await runJob(['irilink', 'passthrough'], file, bytes, 2, 256, 60, (line) => log.push(line.trim().replace(/: \d+ ms$/, '')));
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
    const [bad, good] = await runJob(['no-such-contender', 'passthrough'], file, bytes, 1, 0, 60);
    expect(bad).to.include({ contender: 'no-such-contender', status: 'error' });
    expect(bad!.error).to.match(/unknown contender/);
    expect(good).to.include({ status: 'ok' });
  });

  it('kills a child whose run exceeds the time limit, reports a timeout, and goes on with the others', async () => {
    const log: string[] = [];
    const [slow, good] = await runJob(['slow', 'good'], file, bytes, 3, 0, 1, (line) => log.push(line.trim().replace(/: \d+ ms$/, '')), fake);
    expect(slow).to.include({ status: 'timeout', error: 'a run took more than 1 s' });
    expect(slow!.runsMs).to.have.length(1);
    expect(good).to.include({ status: 'ok', links: 3 });
    expect(log).to.deep.equal(['run 1/3 slow', 'run 1/3 good', 'run 2/3 good', 'run 3/3 good']);
  });

  it('turns every protocol failure into an error row for that contender alone', async () => {
    const results = await runJob(['nonjson', 'dies', 'wrong-reply', 'fails', 'good'], file, bytes, 3, 0, 5, undefined, fake);
    const byName = new Map(results.map((r) => [r.contender, r]));
    expect(byName.get('nonjson')).to.include({ status: 'error' });
    expect(byName.get('nonjson')!.error).to.match(/protocol: unexpected output "hello from a library"/);
    expect(byName.get('dies')).to.include({ status: 'error' });
    expect(byName.get('dies')!.error).to.match(/the child stopped during a run \(exit 0/);
    expect(byName.get('wrong-reply')).to.include({ status: 'error' });
    expect(byName.get('wrong-reply')!.error).to.match(/protocol: waiting for a run, got \{"ready":true\}/);
    expect(byName.get('fails')).to.include({ status: 'error', error: 'the contender threw' });
    for (const name of ['nonjson', 'dies', 'wrong-reply', 'fails']) expect(byName.get(name)!.runsMs, name).to.have.length(1);
    expect(byName.get('good')).to.include({ status: 'ok', links: 3 });
    expect(byName.get('good')!.runsMs).to.deep.equal([5, 5, 5]);
    expect(byName.get('good')!.maxRssMiB).to.be.closeTo(50_000 / 1024, 1e-9);
  });

  it('keeps the runs of a child that fails only after its last run, without its peak RSS and with a note', async () => {
    const results = await runJob(['no-done', 'done-exit-3', 'no-rss'], file, bytes, 2, 0, 1, undefined, fake);
    for (const r of results) {
      expect(r, r.contender).to.include({ status: 'ok', links: 3, maxRssMiB: undefined });
      expect(r.runsMs, r.contender).to.deep.equal([5, 5]);
    }
    const [noDone, exit3, noRss] = results;
    expect(noDone!.note).to.equal('after the last run: the exit took more than 1 s');
    expect(exit3!.note).to.match(/^the child ended badly after its last run \(exit 3/);
    expect(noRss!.note).to.equal('the child reported no peak RSS');
  });

  it('kills a child that exceeds the time limit and reports a timeout', async () => {
    // 10 ms is far less than starting Node with tsx takes: the warm-up's limit (3 × the run limit) passes first.
    const [r] = await runJob(['passthrough'], file, bytes, 1, 0, 0.01);
    expect(r).to.include({ status: 'timeout' });
    expect(r!.error).to.match(/warm-up took more than/);
    expect(r!.runsMs).to.deep.equal([]);
  });
});
