// A bug while a file is linked is no read error: the command's main() rejects with it, and bin/irilink.js ends
// with status 70 and the error's stack (README, "Exit status"). Only errors about the input — a system error of
// reading it, a UTF-16 file where lines are read as bytes — are "cannot read FILE" with status 1.
// The bugs are simulated by replacing a method for the length of one run.
import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PassThrough, Writable } from 'node:stream';
import { main } from '../src/cli/main.js';
import { createHtmlRenderer } from '../src/render/html.js';
import { DistinctLinks } from '../src/cli/unique.js';
import { LogLineLinker } from '../src/logs/index.js';
import { repoRoot } from './support/shared.js';
import { ensureBuilt, irilink } from './support/cli.js';

const TEXT = 'see https://example.com/a and bob@example.org\n';
const MAIL = 'From: a@example.org\nSubject: s\n\nsee https://example.com/a\n';

/** main() in this process on `input`: its exit code, or the error it rejected with; what it wrote. */
async function run(args: string[], input: string | Buffer): Promise<{ result: number | Error; out: string; err: string }> {
  let out = '';
  let err = '';
  const stdout = new Writable({ write: (c: Buffer, _e, cb) => ((out += c.toString()), cb()) });
  const stderr = new Writable({ write: (c: Buffer, _e, cb) => ((err += c.toString()), cb()) });
  const stdin = new PassThrough();
  stdin.end(input);
  let result: number | Error;
  try {
    result = await main([...args, '-'], { stdin, stdout, stderr });
  } catch (error) {
    result = error as Error;
  }
  return { result, out, err };
}

/** Runs `body` with `target[name]` replaced by a method that throws `bug`. */
async function withBug<T>(target: object, name: string, bug: Error, body: () => Promise<T>): Promise<T> {
  const t = target as Record<string, unknown>;
  const had = Object.prototype.hasOwnProperty.call(t, name);
  const original = t[name];
  t[name] = () => {
    throw bug;
  };
  try {
    return await body();
  } finally {
    if (had) t[name] = original;
    else delete t[name];
  }
}

const htmlRenderer = Object.getPrototypeOf(createHtmlRenderer({})) as object;

describe('irilink command: an internal error is not a read error', function () {
  this.timeout(60_000);

  it('a renderer that throws: main() rejects with the error (it was "cannot read -: …", status 1)', async () => {
    const bug = new Error('simulated renderer bug');
    const { result, err } = await withBug(htmlRenderer, 'link', bug, () => run(['--format', 'html'], TEXT));
    expect(result).to.equal(bug);
    expect(err).to.equal('');
  });

  it('the stage between the link stream and the renderer (--unique) that throws: a rejection, not an uncaught exception', async () => {
    const bug = new TypeError('simulated bug in DistinctLinks.add');
    const { result, err } = await withBug(DistinctLinks.prototype, 'add', bug, () => run(['--unique'], TEXT));
    expect(result).to.equal(bug);
    expect(err).to.equal('');
  });

  it('--records and --logs: the record stream that throws', async () => {
    for (const args of [['--records'], ['--logs']]) {
      const bug = new RangeError(`simulated bug (${args[0]})`);
      const { result, err } = await withBug(LogLineLinker.prototype, 'links', bug, () => run(args, TEXT));
      expect(result, args[0]).to.equal(bug);
      expect(err, args[0]).to.equal('');
    }
  });

  it('--mail --format html: the renderer that throws (it was said as "standard input: …", status 1)', async () => {
    const bug = new Error('simulated renderer bug');
    // main() loads the mail code with import(), which the test runner resolves to modules of their own: the renderer
    // it uses is the one a dynamic import gives.
    const html = await import('../src/render/html.js');
    const renderer = Object.getPrototypeOf(html.createHtmlRenderer({})) as object;
    const { result, err } = await withBug(renderer, 'link', bug, () => run(['--mail', '--format', 'html'], MAIL));
    expect(result).to.equal(bug);
    expect(err).to.equal('');
  });

  it('without the bug the same runs succeed (the replaced methods are the ones these runs use)', async () => {
    expect((await run(['--format', 'html'], TEXT)).result).to.equal(0);
    expect((await run(['--unique'], TEXT)).out).to.equal('https://example.com/a\nmailto:bob@example.org\n');
    expect((await run(['--records'], TEXT)).out).to.match(/^\{"line":1,"links":\[\{"start":4,/);
    expect((await run(['--mail', '--format', 'html'], MAIL)).out).to.include('<a href="https://example.com/a"');
  });

  it('the command: status 70, "irilink: internal error:" and the stack on standard error, nothing said about reading', () => {
    ensureBuilt();
    const dir = mkdtempSync(path.join(tmpdir(), 'irilink-bug-'));
    try {
      // A module loaded before the command (node --import) that breaks the HTML renderer of the built package.
      const html = pathToFileURL(path.join(repoRoot, 'dist', 'render', 'html.js')).href;
      const inject = path.join(dir, 'inject.mjs');
      writeFileSync(inject, `import { createHtmlRenderer } from ${JSON.stringify(html)};\n` +
        `Object.getPrototypeOf(createHtmlRenderer({})).link = function () { throw new Error('simulated renderer bug'); };\n`);
      const input = path.join(dir, 'in.txt');
      writeFileSync(input, TEXT);
      const r = irilink(['--format', 'html', input, input], undefined, ['--import', pathToFileURL(inject).href]);
      expect(r.status).to.equal(70);
      expect(r.stderr).to.match(/^irilink: internal error: Error: simulated renderer bug\n {4}at /);
      expect(r.stderr).to.not.include('cannot read');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
