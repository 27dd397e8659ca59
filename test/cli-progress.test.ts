// The CLI's progress bar (src/cli/progress.ts): shown on standard error for a file of at least 16 MiB when standard
// error is a terminal, never on standard output, never with --no-progress, a small file, or a non-terminal.
// main() runs in-process with a standard error that says it is a terminal (isTTY), as a TTY stream does.
import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { ensureBuilt } from './support/cli.js';
import { repoRoot } from './support/shared.js';

interface Captured {
  code: number;
  stdout: string;
  stderr: string;
}

async function runMain(args: string[], tty: boolean, stdoutTty = false): Promise<Captured> {
  ensureBuilt();
  const { main } = (await import(path.join(repoRoot, 'dist', 'cli', 'main.js'))) as {
    main: (argv: string[], io: unknown) => Promise<number>;
  };
  const out: Buffer[] = [];
  let err = '';
  const stdout = Object.assign(new Writable({ write: (c: Buffer, _e, cb) => (out.push(Buffer.from(c)), cb()) }), stdoutTty ? { isTTY: true } : {});
  const stderr = Object.assign(new Writable({ write: (c: Buffer, _e, cb) => ((err += c.toString()), cb()) }), { isTTY: tty });
  const stdin = new PassThrough();
  stdin.end('see https://example.com/ here\n');
  const code = await main(args, { stdin, stdout, stderr });
  return { code, stdout: Buffer.concat(out).toString(), stderr: err };
}

describe('cli: progress bar on a terminal', function () {
  this.timeout(60_000);
  let dir = '';
  let big = '';
  let small = '';
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'irilink-progress-'));
    const sample = readFileSync(path.join(repoRoot, 'examples', 'sample.txt'));
    const copies = Math.ceil((16 * 1024 * 1024 + 1) / sample.length);
    big = path.join(dir, 'big.txt');
    writeFileSync(big, Buffer.concat(Array.from({ length: copies }, () => sample)));
    small = path.join(dir, 'small.txt');
    writeFileSync(small, sample);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('draws a bar that reaches 100 % on standard error, and standard output is what a non-terminal run gives', async () => {
    const tty = await runMain(['--links', big], true);
    const plain = await runMain(['--links', big], false);
    expect(tty.code).to.equal(0);
    expect(tty.stdout).to.equal(plain.stdout);
    expect(plain.stdout.length).to.be.greaterThan(0);
    expect(tty.stderr).to.match(/\[[█░]+\] \d+% \| [\d.]+\/16\.\d MiB/);
    expect(tty.stderr).to.include('100%');
    // clearOnComplete: the last thing written clears the line, and the cursor is shown again.
    expect(tty.stderr).to.include('\x1b[?25h');
    expect(plain.stderr).to.equal('');
  });

  it('is not drawn with --no-progress, for a small file, or for standard input', async () => {
    expect((await runMain(['--links', '--no-progress', big], true)).stderr).to.equal('');
    expect((await runMain(['--links', small], true)).stderr).to.equal('');
    expect((await runMain(['--links', '-'], true)).stderr).to.equal('');
  });

  it('is not drawn when standard output is that terminal too (it was drawn into the output; found in review)', async () => {
    const both = await runMain(['--links', big], true, true);
    expect(both.stderr).to.equal('');
    expect(both.stdout.length).to.be.greaterThan(0);
  });

  it('puts the terminal back on every way out: stopProgress (the exit event, Ctrl-C, a message) shows the cursor again', async () => {
    const { createProgress, stopProgress } = (await import(path.join(repoRoot, 'dist', 'cli', 'progress.js'))) as {
      createProgress: (stream: Writable, name: string, total: number) => { advance(n: number): void; stop(): void };
      stopProgress: () => void;
    };
    let err = '';
    const stderr = Object.assign(new Writable({ write: (c: Buffer, _e, cb) => ((err += c.toString()), cb()) }), { isTTY: true });
    const exitListeners = process.listenerCount('exit');
    const sigintListeners = process.listenerCount('SIGINT');
    const bar = createProgress(stderr, 'big.txt', 64 << 20);
    bar.advance(1 << 20);
    expect(err).to.include('\x1b[?25l'); // the cursor hidden while it runs
    expect(process.listenerCount('exit')).to.equal(exitListeners + 1);
    expect(process.listenerCount('SIGINT')).to.equal(sigintListeners + 1);
    stopProgress(); // what process.exit(0) after `| head`, Ctrl-C and a write error run
    expect(err).to.include('\x1b[?25h').and.include('\x1b[?7h');
    expect(process.listenerCount('exit')).to.equal(exitListeners);
    expect(process.listenerCount('SIGINT')).to.equal(sigintListeners);
    const length = err.length;
    bar.stop(); // the file's own stop after it: nothing more
    bar.advance(1 << 20);
    stopProgress();
    expect(err.length).to.equal(length);
  });
});
