// Failure paths of the streams (issue 7): a source that errors mid-way, a consumer that stops early, a stream
// destroyed while being written. Each scenario runs in a child process started with
// `--unhandled-rejections=strict` (an unhandled rejection kills it with a non-zero status and a stack trace on
// stderr), on the built package (dist/), as a user's program would load it.
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createLinkStream } from '../src/stream/transform.js';
import { createRenderStream } from '../src/render/index.js';
import { repoRoot } from './support/shared.js';
import { ensureBuilt as ensureBuiltEntry } from './support/cli.js';

const ensureBuilt = (): void => ensureBuiltEntry('index.js');


const dist = (p: string): string => pathToFileURL(path.join(repoRoot, 'dist', p)).href;

/** The streams under test, as the expression that makes one in a scenario (names imported below). */
const STREAMS: Record<string, string> = {
  'createLinkStream()': 'createLinkStream()',
  'createLinkStream({ markdown: true })': 'createLinkStream({ markdown: true })',
  'createRecordStream()': 'createRecordStream()',
  'createLogLinkStream()': 'createLogLinkStream()',
};

interface Outcome {
  status: number | null;
  stderr: string;
  report: Record<string, unknown>;
}

let dir = '';

/** Runs `body` (ESM, top-level await) in a child with strict unhandled rejections; it prints one JSON report. */
function scenario(body: string): Outcome {
  const file = path.join(dir, `scenario-${Math.random().toString(36).slice(2)}.mjs`);
  writeFileSync(
    file,
    `import { createLinkStream } from ${JSON.stringify(dist('stream/transform.js'))};\n` +
      `import { createRecordStream, createLogLinkStream } from ${JSON.stringify(dist('logs/index.js'))};\n` +
      `import { createRenderStream } from ${JSON.stringify(dist('render/index.js'))};\n` +
      `import { Readable, pipeline as pipelineCb } from 'node:stream';\n` +
      `import { pipeline } from 'node:stream/promises';\n` +
      `import { createReadStream } from 'node:fs';\n` +
      `process.on('uncaughtException', (e) => { process.stderr.write('uncaught: ' + e.stack + '\\n'); process.exit(3); });\n` +
      body +
      `\n`,
  );
  const r = spawnSync(process.execPath, ['--unhandled-rejections=strict', file], { encoding: 'utf8', timeout: 60_000 });
  const last = r.stdout.trim().split('\n').pop() ?? '';
  let report: Record<string, unknown> = {};
  try {
    report = JSON.parse(last) as Record<string, unknown>;
  } catch {
    report = { unparsable: r.stdout };
  }
  return { status: r.status, stderr: r.stderr, report };
}

describe('stream failure paths (issue 7)', function () {
  this.timeout(120_000);
  let big = '';
  before(() => {
    ensureBuilt();
    dir = mkdtempSync(path.join(tmpdir(), 'irilink-stream-fail-'));
    big = path.join(dir, 'big.txt');
    writeFileSync(big, 'see https://example.com/page and more\n'.repeat(100_000));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  for (const [name, make] of Object.entries(STREAMS)) {
    describe(name, () => {
      it('a source that errors mid-way: pipeline rejects with that error, the stream is destroyed, what came out is whole', () => {
        const { status, stderr, report } = scenario(`
const src = new Readable({ read() {} });
src.push('see https://a.example/ and\\nhttps://b.exam');
setTimeout(() => src.destroy(new Error('disk gone')), 20);
const stream = ${make};
const out = [];
let result = 'resolved';
try {
  await pipeline(src, stream, async function (s) { for await (const c of s) out.push(typeof c === 'object' && !Buffer.isBuffer(c) ? JSON.stringify(c) + '\\n' : String(c)); });
} catch (e) { result = 'rejected: ' + e.message; }
await new Promise((r) => setTimeout(r, 50));
console.log(JSON.stringify({ result, destroyed: stream.destroyed, out: out.join('') }));
`);
        expect(stderr).to.equal('');
        expect(status).to.equal(0);
        expect(report.result).to.equal('rejected: disk gone');
        expect(report.destroyed).to.equal(true);
        // Every line that came out is a complete JSON text (no half-written object).
        const out = report.out as string;
        expect(out === '' || out.endsWith('\n'), out).to.equal(true);
        for (const line of out.split('\n').filter((l) => l !== '')) expect(() => JSON.parse(line), line).to.not.throw();
      });

      it('a consumer that stops after three chunks: no error afterwards, the file source is destroyed and closed', () => {
        const { status, stderr, report } = scenario(`
const src = createReadStream(${JSON.stringify(big)}, { highWaterMark: 4096 });
const stream = ${make};
let callback = 'not called';
pipelineCb(src, stream, (e) => { callback = e ? 'error' : 'ok'; });
let n = 0;
for await (const chunk of stream) { if (++n === 3) break; }
await new Promise((r) => setTimeout(r, 100));
console.log(JSON.stringify({ n, destroyed: stream.destroyed, srcDestroyed: src.destroyed, srcClosed: src.closed, callback, bytesRead: src.bytesRead }));
`);
        expect(stderr).to.equal('');
        expect(status).to.equal(0);
        expect(report.n).to.equal(3);
        expect(report.destroyed).to.equal(true);
        expect(report.srcDestroyed).to.equal(true);
        expect(report.srcClosed).to.equal(true); // the file descriptor is released
        expect(report.callback).to.equal('error'); // pipeline says the chain was cut short
        expect(report.bytesRead as number).to.be.below(3_800_000); // it stopped reading: far less than the file
      });

      it('destroyed while a producer still writes: writes fail through their callbacks, nothing is thrown', () => {
        const { status, stderr, report } = scenario(`
const stream = ${make};
stream.on('error', () => {});
stream.resume();
const errors = [];
let called = 0;
let allCalled;
const done = new Promise((r) => { allCalled = r; });
for (let i = 0; i < 5; i++) {
  stream.write(Buffer.from('see https://example.com/' + i + ' '), (e) => { if (e) errors.push(e.code); if (++called === 5) allCalled(); });
  if (i === 1) stream.destroy();
}
// (A Markdown stream loads its parser before it works on the first write: that callback comes when it is loaded.)
await Promise.race([done, new Promise((r) => setTimeout(r, 5000))]);
await new Promise((r) => setTimeout(r, 50));
console.log(JSON.stringify({ destroyed: stream.destroyed, errors, called }));
`);
        expect(stderr).to.equal('');
        expect(status).to.equal(0);
        expect(report.destroyed).to.equal(true);
        // Every write fails: the streams work on a write in a later turn of the event loop (src/stream/later.ts), so
        // destroy() in the same turn comes before the first two writes were worked on. Their text was dropped, and
        // their callbacks must not report success either.
        expect(report.errors).to.deep.equal(Array(5).fill('ERR_STREAM_DESTROYED'));
        expect(report.called).to.equal(5); // each callback once
      });
    });
  }

  it('the harness itself: an unhandled rejection in a scenario fails it (so the passes above mean there was none)', () => {
    const { status, stderr } = scenario(`Promise.reject(new Error('nobody handles me'));\nawait new Promise((r) => setTimeout(r, 50));`);
    expect(status).to.not.equal(0);
    expect(stderr).to.include('nobody handles me');
  });

  it('in process: an async-generator source that throws after a link rejects the pipeline; the JSON lines before are whole', async () => {
    async function* source(): AsyncGenerator<Buffer> {
      yield Buffer.from('see https://a.example/ and\nmore https://b.example/x ');
      throw new Error('source broke');
    }
    const out: string[] = [];
    let caught: unknown = null;
    try {
      await pipeline(Readable.from(source()), createLinkStream(), createRenderStream('jsonl', { links: true }), async (s: AsyncIterable<Buffer>) => {
        for await (const piece of s) out.push(piece.toString());
      });
    } catch (error) {
      caught = error;
    }
    expect((caught as Error).message).to.equal('source broke');
    const text = out.join('');
    expect(text === '' || text.endsWith('\n')).to.equal(true);
    for (const line of text.split('\n').filter((l) => l !== '')) {
      expect((JSON.parse(line) as { uri: string }).uri).to.match(/^https:\/\/[ab]\.example\//);
    }
  });

  it('in process: junk from an async generator given to pipeline() rejects it (README: the way to read a source that may yield junk)', async () => {
    async function* source(): AsyncGenerator<unknown> {
      yield 'see https://a.example/ ';
      yield 42;
    }
    let caught: unknown = null;
    try {
      await pipeline(source, createLinkStream(), async (s: AsyncIterable<unknown>) => {
        for await (const _ of s);
      });
    } catch (error) {
      caught = error;
    }
    expect((caught as NodeJS.ErrnoException).code).to.equal('ERR_INVALID_ARG_TYPE');
  });
});
