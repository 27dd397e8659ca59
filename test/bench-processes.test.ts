// The bench's child processes (bench/lib/processes.ts, bench/child.ts): a contender's runs are timed in its own
// process, the runs of all contenders on an input are interleaved, and a failing or stuck child becomes a row
// that says so instead of stopping or hanging the bench. Runs on a committed sample (corpora/samples), so it needs
// no built corpora; irilink is loaded from dist/ (built by `npm test`'s pretest).
import { expect } from 'chai';
import { statSync } from 'node:fs';
import path from 'node:path';
import { parseLinksTsv } from '../bench/lib/links-tsv.js';
import { samplesDir } from '../bench/lib/paths.js';
import { runJob } from '../bench/lib/processes.js';

const file = path.join(samplesDir, 'chat.txt');
const bytes = statSync(file).size;
const expectedLinks = parseLinksTsv(path.join(samplesDir, 'chat.links.tsv')).length;

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

  it('kills a child that exceeds the time limit and reports a timeout', async () => {
    // 10 ms is far less than starting Node with tsx takes: the warm-up's limit (3 × the run limit) passes first.
    const [r] = await runJob(['passthrough'], file, bytes, 1, 0, 0.01);
    expect(r).to.include({ status: 'timeout' });
    expect(r!.error).to.match(/warm-up took more than/);
    expect(r!.runsMs).to.deep.equal([]);
  });
});
