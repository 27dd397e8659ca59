// Failure paths of the `irilink` command (issue 7), run as users run it: `node bin/irilink.js …`.
// For each: a clear message, the right exit status, no unhandled rejection, no partial garbage.
import { expect } from 'chai';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync, createWriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startsLineBreak } from '../src/breaks.js';
import { repoRoot } from './support/shared.js';
import { bin, ensureBuilt, fixture, irilink as runIrilink } from './support/cli.js';
import type { Run } from './support/cli.js';


/** The command under `--unhandled-rejections=strict`: an unhandled rejection would end it with a stack trace. */
function irilink(args: string[], input?: string | Buffer): Run {
  return runIrilink(args, input, ['--unhandled-rejections=strict']);
}

/** Runs a shell command line (for redirections node cannot express: `>&-`, `1<file`, pipes into head). */
function sh(line: string): Run {
  const r = spawnSync('/bin/sh', ['-c', line], { cwd: repoRoot, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;
const cmd = (args: string[]): string => [process.execPath, '--unhandled-rejections=strict', bin, ...args].map(quote).join(' ');


/** Deterministic pseudo-random bytes (a linear congruential generator), every byte value likely present. */
function randomBytes(length: number, seed: number): Buffer {
  const b = Buffer.alloc(length);
  let x = seed >>> 0;
  for (let i = 0; i < length; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    b[i] = x >>> 24;
  }
  return b;
}

function jsonLines(text: string): Record<string, any>[] {
  return text.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Record<string, any>);
}

describe('irilink command: failure paths (issue 7)', function () {
  this.timeout(120_000);
  let dir = '';
  before(() => {
    ensureBuilt();
    dir = mkdtempSync(path.join(tmpdir(), 'irilink-fail-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  describe('inputs that cannot be read', () => {
    it('a directory: exit 1, "is a directory" naming it, the files after it still processed (every mode)', () => {
      const log = fixture('tail.log');
      const plain = irilink([dir, log]);
      expect(plain.status).to.equal(1);
      expect(plain.stderr).to.equal(`irilink: cannot read ${dir}: is a directory\n`);
      expect(plain.stdout).to.equal('https://end.example/z\n');
      for (const mode of [['--markdown'], ['--logs'], ['--records'], ['--mail']]) {
        const r = irilink([...mode, dir, log]);
        expect(r.status, mode[0]).to.equal(1);
        expect(r.stderr, mode[0]).to.equal(`irilink: cannot read ${dir}: is a directory\n`);
        if (mode[0] !== '--mail') expect(r.stdout, mode[0]).to.include('https://end.example/z');
      }
      // --records: the records of the readable file are numbered from 1 (the directory gave no lines).
      expect(jsonLines(irilink(['--records', dir, log]).stdout).map((o) => o.line)).to.deep.equal([1, 2]);
    });

    it('standard input redirected from a directory: exit 1, "is a directory" (Node\'s process.stdin just ended)', () => {
      for (const mode of [[], ['--markdown'], ['--logs'], ['--records'], ['--mail'], ['-']]) {
        const r = sh(`${cmd(mode)} < ${quote(dir)}`);
        expect(r.status, mode.join(' ')).to.equal(1);
        expect(r.stderr, mode.join(' ')).to.equal('irilink: cannot read standard input: is a directory\n');
      }
      // A file and the null device still read as before, `-` twice too (the second reads the end of the input).
      const file = path.join(dir, 'in.txt');
      writeFileSync(file, 'see https://in.example/\n');
      expect(sh(`${cmd(['-', '-'])} < ${quote(file)}`)).to.deep.equal({ status: 0, stdout: 'https://in.example/\n', stderr: '' });
      expect(sh(`${cmd([])} < /dev/null`)).to.deep.equal({ status: 0, stdout: '', stderr: '' });
    });

    it('a name that is listed but gone (a dangling symbolic link): exit 1, "no such file"', () => {
      const link = path.join(dir, 'dangling.txt');
      symlinkSync(path.join(dir, 'removed-target.txt'), link);
      const r = irilink([link, fixture('tail.log')]);
      expect(r.status).to.equal(1);
      expect(r.stderr).to.equal(`irilink: cannot read ${link}: no such file\n`);
      expect(r.stdout).to.equal('https://end.example/z\n');
    });

    it('a file removed after the command started, while it reads the input before it (a FIFO we hold open)', async () => {
      const fifo = path.join(dir, 'first.fifo');
      const second = path.join(dir, 'second.txt');
      execFileSync('mkfifo', [fifo]);
      writeFileSync(second, 'https://second.example/\n');
      const child = spawn(process.execPath, ['--unhandled-rejections=strict', bin, fifo, second], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      const writer = createWriteStream(fifo);
      writer.write('see https://first.example/ then\n');
      // The first link has come out: the command is inside the first input, the second not yet opened.
      await new Promise<void>((resolve) => {
        child.stdout.setEncoding('utf8').on('data', (d: string) => {
          stdout += d;
          if (stdout.includes('\n')) resolve();
        });
      });
      unlinkSync(second);
      writer.end();
      const status = await new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
      expect(status).to.equal(1);
      expect(stdout).to.equal('https://first.example/\n');
      expect(stderr).to.equal(`irilink: cannot read ${second}: no such file\n`);
    });
  });

  describe('a binary file (random bytes with NUL)', () => {
    const bytes = randomBytes(200_000, 20261121);
    // A link among the bytes, after a space and before a NUL: found, and the bytes around it still pass.
    bytes.write(' https://in.binary.example/\0', 5000, 'latin1');
    let file = '';
    before(() => {
      file = path.join(dir, 'random.bin');
      writeFileSync(file, bytes);
    });

    it('--format text: exit 0, the output is the input decoded as UTF-8 (invalid bytes U+FFFD, WHATWG), the one note of invalid UTF-8', () => {
      const r = spawnSync(process.execPath, ['--unhandled-rejections=strict', bin, '--format', 'text', file], { cwd: repoRoot, timeout: 60_000 });
      expect(r.status).to.equal(0);
      expect(r.stderr.toString()).to.equal(
        `irilink: ${file}: not valid UTF-8 (bytes read as U+FFFD, links through them flagged invalid-utf8); name its charset with --encoding\n`,
      );
      // Not byte for byte (invalid UTF-8 cannot pass through a text decoder), but exactly the decoded text:
      // every valid byte sequence kept, each maximal invalid subpart one U+FFFD.
      expect(r.stdout.equals(Buffer.from(new TextDecoder().decode(bytes), 'utf8'))).to.equal(true);
      expect(r.stdout.includes(Buffer.from(' https://in.binary.example/\0'))).to.equal(true);
    });

    it('--format jsonl: the chunks tile the input, in UTF-16 units and in the file\'s bytes, and the link is found', () => {
      const r = spawnSync(process.execPath, ['--unhandled-rejections=strict', bin, '--format', 'jsonl', file], { cwd: repoRoot, encoding: 'utf8', timeout: 60_000, maxBuffer: 64 * 1024 * 1024 });
      expect(r.status).to.equal(0);
      const chunks = jsonLines(r.stdout);
      let start = 0;
      let byteStart = 0;
      for (const c of chunks) {
        expect([c.start, c.byteStart]).to.deep.equal([start, byteStart]);
        start = c.end;
        byteStart = c.byteEnd;
      }
      expect(byteStart).to.equal(bytes.length);
      expect(chunks.map((c) => c.text).join('')).to.equal(new TextDecoder().decode(bytes));
      const link = chunks.find((c) => c.type === 'link' && c.text === 'https://in.binary.example/')!;
      expect(bytes.subarray(link.byteStart, link.byteEnd).toString('latin1')).to.equal('https://in.binary.example/');
    });

    it('--records on binary bytes: one record per line (CR LF, LF or a lone CR ends one), each a complete JSON object', () => {
      const r = spawnSync(process.execPath, ['--unhandled-rejections=strict', bin, '--records', file], { cwd: repoRoot, encoding: 'utf8', timeout: 60_000, maxBuffer: 64 * 1024 * 1024 });
      expect(r.status).to.equal(0);
      let lines = 0;
      let afterCr = false;
      for (const b of bytes) {
        if (startsLineBreak(b, afterCr)) lines++;
        afterCr = b === 0x0d;
      }
      const last = bytes[bytes.length - 1];
      if (last !== 0x0a && last !== 0x0d) lines++;
      expect(jsonLines(r.stdout).map((o) => o.line)).to.deep.equal(Array.from({ length: lines }, (_, i) => i + 1));
    });
  });

  describe('output that goes away or cannot be written', () => {
    let big = '';
    let bigLog = '';
    let bigMbox = '';
    before(() => {
      big = path.join(dir, 'big.txt');
      writeFileSync(big, 'see https://example.com/page and more text here\n'.repeat(100_000));
      bigLog = path.join(dir, 'big.log');
      writeFileSync(bigLog, '{"url":"https://example.com/page","n":1}\n'.repeat(100_000));
      bigMbox = path.join(dir, 'big.mbox');
      writeFileSync(bigMbox, readFileSync(path.join(repoRoot, 'test', 'fixtures-mail', 'three.mbox')).toString('latin1').repeat(3000), 'latin1');
    });

    it('`irilink … | head -1` in every mode: exit 0, nothing on stderr, one complete line', () => {
      const cases = [[big], ['--format', 'jsonl', big], ['--format', 'html', big], ['--markdown', '--format', 'markdown', big], ['--records', bigLog], ['--logs', bigLog], ['--mail', bigMbox], ['--mail', '--format', 'html', bigMbox]];
      for (const args of cases) {
        // The status of irilink (not of head), through a file descriptor the shell gives it.
        const r = sh(`{ ${cmd(args)} 2>&3; echo "status $?" >&3; } 3>&2 | head -1`);
        expect(r.stderr, args.join(' ')).to.equal('status 0\n');
        expect(r.stdout.split('\n').length, args.join(' ')).to.equal(2);
        if (args.includes('jsonl') || args.includes('--records') || (args.includes('--mail') && !args.includes('html'))) {
          expect(() => JSON.parse(r.stdout), args.join(' ')).to.not.throw();
        }
      }
    });

    it('standard output not open for writing (fd 1 read-only): exit 1 and one clear line, in every mode', () => {
      for (const args of [['--format', 'html'], [], ['--records'], ['--logs'], ['--markdown']]) {
        const r = sh(`${cmd([...args, fixture('access.log')])} 1<${quote(fixture('access.log'))}`);
        expect(r.status, args.join(' ')).to.equal(1);
        expect(r.stderr, args.join(' ')).to.match(/^irilink: cannot write output: EBADF: bad file descriptor, write\n$/);
      }
      const mail = sh(`${cmd(['--mail', fixture('two.mbox')])} 1<${quote(fixture('access.log'))}`);
      expect([mail.status, mail.stderr]).to.deep.equal([1, 'irilink: cannot write output: EBADF: bad file descriptor, write\n']);
    });

    it('standard error closed early: the run goes on, every input read, no uncaught EPIPE (found in review: exit 1, the rest not read)', async () => {
      const missing = path.join(dir, 'missing.txt');
      const expected = irilink([fixture('access.log')]).stdout;
      // A pipe whose reader has gone, as `2> >(head -c1)` leaves it: each write to standard error fails with EPIPE.
      const child = spawn(process.execPath, ['--unhandled-rejections=strict', bin, missing, missing, fixture('access.log')], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stderr.destroy();
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
      const status = await new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
      expect(out).to.equal(expected); // the file after the two missing ones was read
      expect(status).to.equal(1); // two inputs could not be read
    });

    it('a full device (/dev/full): exit 1, "no space left on device"', () => {
      const r = sh(`${cmd(['--format', 'jsonl', big])} >/dev/full`);
      expect(r.status).to.equal(1);
      expect(r.stderr).to.equal('irilink: cannot write output: ENOSPC: no space left on device, write\n');
    });

    it('--help and --version to a full device: the same one line and exit 1 (they threw an unhandled error event)', () => {
      for (const flag of ['--help', '--version']) {
        const r = sh(`${cmd([flag])} >/dev/full`);
        expect([flag, r.status, r.stderr]).to.deep.equal([flag, 1, 'irilink: cannot write output: ENOSPC: no space left on device, write\n']);
      }
    });

    it('a closed standard output (`>&-`): Node opens /dev/null in its place at start-up, so the run is a quiet success', () => {
      // Node (src/node.cc, PlatformInit) reopens fds 0–2 on /dev/null when they are closed: the command
      // cannot tell this from `>/dev/null`, which must succeed.
      const r = sh(`${cmd(['--format', 'text', fixture('access.log')])} >&-`);
      expect([r.status, r.stderr]).to.deep.equal([0, '']);
    });
  });
});
