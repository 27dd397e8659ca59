// The cost fuzzer (scripts/fuzz-cost.ts) against stand-ins of known cost (test/support/fake-cost-linkify.mjs): it
// reports time that grows faster than the input, and a call past its budget, and nothing on linear time.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';

const here = path.dirname(fileURLToPath(import.meta.url));
const script = path.join(here, '..', 'scripts', 'fuzz-cost.ts');
const fake = path.join(here, 'support', 'fake-cost-linkify.mjs');

function fuzz(cost: string, out: string, ...args: string[]): { status: number | null; stdout: string; stderr: string } {
  // (At 1,024 units the stand-ins take 1–160 ms: the noise floor comes down with them.)
  const r = spawnSync(process.execPath, ['--import', 'tsx', script, '--entry', fake, '--out', out, '--size', '1024', '--min-ms', '50', '--seed', '5', ...args], {
    env: { ...process.env, FAKE_COST: cost },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('cost fuzzer (scripts/fuzz-cost.ts)', function () {
  this.timeout(90_000);
  const scratch = mkdtempSync(path.join(tmpdir(), 'irilink-fuzz-cost-'));
  after(() => rmSync(scratch, { recursive: true, force: true }));

  it('reports nothing when the time grows as the input does', () => {
    const out = path.join(scratch, 'linear');
    const r = fuzz('linear', out, '--seconds', '2');
    expect(r.status, r.stderr).to.equal(0);
    expect(r.stdout).to.match(/fuzz-cost: \d+ units \(seed 5, 1024 and 4096 units\), 0 super-linear/);
    expect(r.stdout).to.match(/costliest \(linear\): (plain|markdown|markdown-it|remark)(-writes)? /);
    expect(existsSync(out)).to.equal(false);
  });

  it('reports quadratic time, with what replays it, and exits 1', () => {
    const out = path.join(scratch, 'quadratic');
    const r = fuzz('quadratic', out, '--seconds', '2', '--modes', 'markdown,markdown-writes');
    expect(r.status, r.stderr).to.equal(1);
    const rows = readFileSync(path.join(out, 'findings.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(rows).to.not.be.empty;
    for (const row of rows) {
      expect(row.mode).to.be.oneOf(['markdown', 'markdown-writes']);
      expect(row.seed).to.equal(5);
      expect(row.largeMs).to.be.above(7 * row.smallMs);
      expect(row.largeUnits).to.be.at.least(4096);
    }
  });

  it('times what a plugin adds to its host parser, markdown-it and remark', () => {
    const out = path.join(scratch, 'plugins');
    const r = fuzz('quadratic', out, '--seconds', '3', '--modes', 'markdown-it,remark');
    expect(r.status, r.stderr).to.equal(1);
    const rows = readFileSync(path.join(out, 'findings.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(rows.map((row) => row.mode)).to.include.members(['markdown-it', 'remark']);
    for (const row of rows) {
      expect(row.largeMs).to.be.above(7 * row.smallMs);
      // The host parser's time is beside it and not in it: the stand-in plugins take far longer than the parser.
      expect(row.hostLargeMs).to.be.a('number').and.below(row.largeMs);
    }
    expect(r.stdout).to.match(/markdown-it: .* → \d+ ms at 4× the length added to the parser's \d+ ms → \d+ ms/);
    const linear = fuzz('linear', path.join(scratch, 'plugins-linear'), '--seconds', '2', '--modes', 'markdown-it,remark');
    expect(linear.status, linear.stderr).to.equal(0);
    expect(linear.stdout).to.match(/costliest \(linear\): (markdown-it|remark) /);
  });

  it('stops a call past its budget, reports it and goes on', () => {
    const out = path.join(scratch, 'hang');
    const r = fuzz('hang', out, '--seconds', '1', '--budget-ms', '200', '--modes', 'plain');
    expect(r.status, r.stderr).to.equal(1);
    expect(r.stdout).to.match(/plain: .* over 200 ms → over 200 ms/);
    const rows = readFileSync(path.join(out, 'findings.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(rows.length).to.be.at.least(2); // a new worker after the first was stopped
    expect(rows[0]).to.include({ smallMs: -1, largeMs: -1 });
  });

  it('says what is wrong with a module that fails, or a bad option', () => {
    const r = fuzz('throw', path.join(scratch, 'throw'), '--seconds', '1');
    expect(r.status).to.equal(2);
    expect(r.stderr).to.match(/fuzz-cost: .*fake-cost-linkify\.mjs: FAKE_COST is throw/);
    const bad = fuzz('linear', path.join(scratch, 'bad'), '--modes', 'plain,html');
    expect(bad.status).to.equal(2);
    expect(bad.stderr).to.match(/--modes takes plain, markdown, plain-writes, markdown-writes, markdown-it, remark, not "html"/);
  });
});
