// Fuzzer for issue 7: random and mutated corpus bytes through createLinkStream (random chunking) and through the
// CLI (`node bin/irilink.js` with random formats), for a fixed time budget.
//
//   npx tsx scripts/fuzz.ts --seconds 60 [--seed N] [--cli-share 0.2]
//
// Checks, per input: no exception and no unhandled rejection; the chunks are lossless (their text joined is the
// decoded input, their offsets contiguous); for valid UTF-8 the merged chunks equal linkify(text) (chunking
// invariance); the CLI exits 0 with nothing on standard error. The first failure of each kind is saved under
// build/fuzz/ (the input bytes, and a .txt saying what failed and how to replay it) and the run exits 1.
// Corpora: corpora/samples/* and, when present, random slices of corpora/large/*.
// Needs a build for the CLI (`npm run build`; bin/irilink.js loads dist/).
import { spawn } from 'node:child_process';
import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, statSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { seededRandom } from './random.js';
import { linkify, type LinkOptions } from '../src/index.js';
import { createLinkStream } from '../src/stream/transform.js';
import type { Chunk } from '../src/types.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

// ------------------------------------------------------------------------------------------------ options

function argValue(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  if (i < 0) return fallback;
  const v = Number(process.argv[i + 1]);
  if (!Number.isFinite(v)) {
    process.stderr.write(`fuzz: ${name} needs a number\n`);
    process.exit(2);
  }
  return v;
}
const SECONDS = argValue('--seconds', 60);
const SEED = argValue('--seed', Date.now() % 0x7fffffff) >>> 0;
const CLI_SHARE = argValue('--cli-share', 0.2);
const OUT_DIR = join(root, 'build', 'fuzz');

// ------------------------------------------------------------------------------------------------ random

const random = seededRandom(SEED);
const int = (n: number): number => Math.floor(random() * n);
const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!;

// ------------------------------------------------------------------------------------------------ corpus

interface Source {
  name: string;
  read(): Buffer; // a piece of the source
}

function corpusSources(): Source[] {
  const sources: Source[] = [];
  const samples = join(root, 'corpora', 'samples');
  if (existsSync(samples)) {
    for (const f of readdirSync(samples)) {
      const path = join(samples, f);
      if (!statSync(path).isFile()) continue;
      const bytes = readFileSync(path);
      sources.push({ name: `samples/${f}`, read: () => slice(bytes) });
    }
  }
  const large = join(root, 'corpora', 'large');
  if (existsSync(large)) {
    for (const f of readdirSync(large)) {
      const path = join(large, f);
      if (!f.endsWith('.txt') || !statSync(path).isFile()) continue;
      const fd = openSync(path, 'r');
      const size = fstatSync(fd).size;
      closeSync(fd);
      sources.push({
        name: `large/${f}`,
        read: () => {
          const length = Math.min(size, 1 + int(16384));
          const buf = Buffer.alloc(length);
          const fdr = openSync(path, 'r');
          try {
            readSync(fdr, buf, 0, length, int(Math.max(1, size - length)));
          } finally {
            closeSync(fdr);
          }
          return buf;
        },
      });
    }
  }
  return sources;
}

function slice(bytes: Buffer): Buffer {
  if (bytes.length === 0) return bytes;
  const length = 1 + int(Math.min(bytes.length, 16384));
  const start = int(bytes.length - length + 1);
  return bytes.subarray(start, start + length);
}

// ------------------------------------------------------------------------------------------------ mutations

const PUNCT = Buffer.from(':/@.<>()[]"\'');
const FRAGMENTS: readonly Buffer[] = [
  'https://', 'http://', 'mailto:', 'www.', 'xn--', '%', '%E3%81', '://', '@', '.com', '.jp', '<URL:', '\r\n', ' ',
  '\u202E', '\u200F', '\u3002', '例え', 'раураl', 'ｅｘａｍｐｌｅ．ｃｏｍ', '\uD83D\uDE00', '\u0301', '\0', '\uFEFF',
  // Invisible characters inside a name (hidden-split), one astral.
  '\u00AD', '\u200B', '\u200D', '\u2060', '\uDB40\uDD00',
].map((s) => Buffer.from(s, 'utf8'));
// Pieces of UTF-8 sequences: lead bytes without their continuation, lone continuations, overlongs, surrogates.
const UTF8_BITS: readonly Buffer[] = [[0xe3], [0xe3, 0x81], [0x80], [0xbf, 0xbf], [0xf0, 0x9f], [0xf0, 0x9f, 0x98], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xff], [0xef, 0xbb, 0xbf]].map((b) => Buffer.from(b));

type Mutation = (b: Buffer, other: () => Buffer) => Buffer;
const MUTATIONS: readonly [string, Mutation][] = [
  ['bit-flip', (b) => {
    const out = Buffer.from(b);
    for (let n = 1 + int(8); n > 0 && out.length > 0; n--) out[int(out.length)]! ^= 1 << int(8);
    return out;
  }],
  ['insert-punct', (b) => {
    let out = b;
    for (let n = 1 + int(6); n > 0; n--) {
      const at = int(out.length + 1);
      out = Buffer.concat([out.subarray(0, at), Buffer.from([pick([...PUNCT])]), out.subarray(at)]);
    }
    return out;
  }],
  ['insert-fragment', (b) => {
    const at = int(b.length + 1);
    return Buffer.concat([b.subarray(0, at), pick(FRAGMENTS), b.subarray(at)]);
  }],
  ['insert-utf8-bits', (b) => {
    const at = int(b.length + 1);
    return Buffer.concat([b.subarray(0, at), pick(UTF8_BITS), b.subarray(at)]);
  }],
  ['truncate', (b) => b.subarray(int(Math.max(1, b.length / 4)), b.length - int(Math.max(1, b.length / 4)))],
  ['splice', (b, other) => {
    const o = other();
    return Buffer.concat([b.subarray(0, int(b.length + 1)), o.subarray(int(o.length + 1))]);
  }],
  ['repeat', (b) => {
    const piece = b.subarray(int(b.length + 1)).subarray(0, 1 + int(16));
    return Buffer.concat([b, ...Array.from({ length: 1 + int(200) }, () => piece)]);
  }],
];

function randomBytes(): Buffer {
  const out = Buffer.alloc(int(512));
  for (let i = 0; i < out.length; i++) {
    // mostly printable ASCII and link punctuation, some high bytes
    const r = random();
    out[i] = r < 0.6 ? 0x20 + int(0x5f) : r < 0.8 ? pick([...PUNCT]) : int(256);
  }
  return out;
}

// ------------------------------------------------------------------------------------------------ checks

async function streamChunks(input: Buffer, cuts: readonly number[], options: LinkOptions | undefined): Promise<Chunk[]> {
  const stream = createLinkStream(options);
  const chunks: Chunk[] = [];
  const done = (async () => {
    for await (const c of stream) chunks.push(c as Chunk);
  })();
  let last = 0;
  for (const cut of cuts) {
    if (cut > last) {
      if (!stream.write(input.subarray(last, cut))) await new Promise((r) => stream.once('drain', r));
      last = cut;
    }
  }
  stream.end(input.subarray(last));
  await done;
  return chunks;
}

/**
 * Adjacent text chunks joined, except a text chunk that carries diagnostics (an unlinked span, scanner.ts): its
 * bounds are part of the answer and must not depend on the chunking either. (Only valid UTF-8 is compared, so no
 * chunk carries the chunking-dependent `invalid-utf8`.)
 */
function merge(chunks: readonly Chunk[]): Chunk[] {
  const out: Chunk[] = [];
  for (const c of chunks) {
    const prev = out[out.length - 1];
    if (c.type === 'text' && prev?.type === 'text' && c.diagnostics === undefined && prev.diagnostics === undefined) {
      out[out.length - 1] = { ...prev, text: prev.text + c.text, end: c.end };
    } else out.push(c);
  }
  return out;
}

function withoutBytes(chunks: readonly Chunk[]): unknown[] {
  return chunks.map((c) => {
    const { byteStart: _s, byteEnd: _e, ...rest } = c;
    return rest;
  });
}

const utf8 = new TextDecoder('utf-8'); // WHATWG: U+FFFD for invalid bytes, the BOM dropped
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Why the stream got `input` wrong, or '' when it did not. One input in four is linked with a low maxLinkLength, so
 * that the corpora's text holds runs longer than it: links cut there, the rest of their runs, and the segments of a
 * long run (src/detect/state.ts).
 */
async function checkStream(input: Buffer): Promise<string> {
  const cuts: number[] = [];
  for (let n = int(8); n > 0; n--) cuts.push(int(input.length + 1));
  cuts.sort((a, b) => a - b);
  const options = random() < 0.25 ? { maxLinkLength: pick([64, 100, 300]) } : undefined;
  const with_ = options === undefined ? '' : ` with maxLinkLength ${options.maxLinkLength}`;
  let chunks: Chunk[];
  try {
    chunks = await streamChunks(input, cuts, options);
  } catch (err) {
    return `stream threw${with_}: ${(err as Error)?.stack ?? err}`;
  }
  const decoded = utf8.decode(input);
  let at = 0;
  let text = '';
  for (const c of chunks) {
    if (c.start !== at || c.end - c.start !== c.text.length) return `offsets${with_}: chunk ${JSON.stringify(c).slice(0, 200)} at ${at}`;
    at = c.end;
    text += c.text;
  }
  if (text !== decoded) return `lossless${with_}: the chunks do not join to the decoded input`;
  let valid = true;
  try {
    strictUtf8.decode(input);
  } catch {
    valid = false;
  }
  if (valid) {
    const expected = JSON.stringify(withoutBytes(merge(linkify(decoded, options))));
    const got = JSON.stringify(withoutBytes(merge(chunks)));
    if (got !== expected) return `chunking: stream with cuts ${JSON.stringify(cuts)}${with_} differs from linkify`;
  }
  return '';
}

const FORMAT_ARGS: readonly string[][] = [
  [], ['--format', 'html'], ['--format', 'markdown'], ['--format', 'ansi'], ['--format', 'jsonl'], ['--format', 'text'],
  ['--format', 'jsonl', '--links'], ['--format', 'html', '--display', 'iri'], ['--unique'], ['--links', '--display', 'uri'],
  ['--no-schemeless'], ['--encoding', 'shift_jis'], ['--encoding', 'windows-1252', '--format', 'html'], ['--stats'],
];

function checkCli(input: Buffer, args: readonly string[]): Promise<string> {
  return new Promise((resolvePromise) => {
    const child = spawn(process.execPath, [join(root, 'bin', 'irilink.js'), '--no-progress', ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    let out = 0;
    child.stdout.on('data', (d: Buffer) => (out += d.length));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdin.on('error', () => undefined); // EPIPE if the CLI fails early: its exit code says so
    child.on('close', (code, signal) => {
      const statsOnly = args.includes('--stats');
      // The one note a file that is not valid UTF-8 gets (README: the command) is no failure.
      stderr = stderr.replace(/^irilink: standard input: not valid UTF-8 .*\n/m, '');
      if (signal) resolvePromise(`cli ${args.join(' ')}: killed by ${signal}`);
      else if (code !== 0) resolvePromise(`cli ${args.join(' ')}: exit ${code}: ${stderr.slice(0, 500)}`);
      else if (stderr !== '' && !statsOnly) resolvePromise(`cli ${args.join(' ')}: stderr: ${stderr.slice(0, 500)}`);
      else resolvePromise(out >= 0 ? '' : 'cli: no output');
    });
    child.stdin.end(input);
  });
}

// ------------------------------------------------------------------------------------------------ the run

const failures = new Map<string, { input: Buffer; problem: string; how: string }>();
let unhandled = '';
process.on('unhandledRejection', (reason) => {
  unhandled = `unhandled rejection: ${(reason as Error)?.stack ?? reason}`;
});

function record(kind: string, input: Buffer, problem: string, how: string): void {
  const key = `${kind}: ${problem.split('\n')[0]!.slice(0, 120)}`;
  if (failures.has(key)) return;
  failures.set(key, { input, problem, how });
  mkdirSync(OUT_DIR, { recursive: true });
  const hash = createHash('sha256').update(input).digest('hex').slice(0, 16);
  writeFileSync(join(OUT_DIR, `${kind}-${hash}.bin`), input);
  writeFileSync(join(OUT_DIR, `${kind}-${hash}.txt`), `${problem}\n\nhow: ${how}\nseed: ${SEED}\nbytes: ${input.length}\n`);
  process.stderr.write(`fuzz: FAILURE (${kind}) saved as build/fuzz/${kind}-${hash}.bin: ${problem.split('\n')[0]}\n`);
}

async function run(): Promise<void> {
  const cliReady = existsSync(join(root, 'dist', 'cli', 'main.js'));
  if (!cliReady) process.stderr.write('fuzz: dist/ is missing (run `npm run build`): the CLI is not fuzzed\n');
  const sources = corpusSources();
  const deadline = Date.now() + SECONDS * 1000;
  const counts = { inputs: 0, bytes: 0, cli: 0, random: 0, mutated: 0 };
  const byMutation = new Map<string, number>();
  process.stderr.write(`fuzz: seed ${SEED}, ${SECONDS} s, ${sources.length} corpus sources\n`);

  while (Date.now() < deadline) {
    let input: Buffer;
    let how: string;
    if (sources.length === 0 || random() < 0.15) {
      input = randomBytes();
      how = 'random bytes';
      counts.random++;
    } else {
      const source = pick(sources);
      input = source.read();
      const names: string[] = [];
      for (let n = 1 + int(3); n > 0; n--) {
        const [name, mutate] = pick(MUTATIONS);
        input = mutate(input, () => pick(sources).read());
        names.push(name);
        byMutation.set(name, (byMutation.get(name) ?? 0) + 1);
      }
      how = `${source.name} mutated by ${names.join(', ')}`;
      counts.mutated++;
    }
    counts.inputs++;
    counts.bytes += input.length;

    const problem = await checkStream(input);
    if (problem) record('stream', input, problem, how);
    if (unhandled) {
      record('unhandled', input, unhandled, how);
      unhandled = '';
    }
    if (cliReady && random() < CLI_SHARE) {
      const args = pick(FORMAT_ARGS);
      counts.cli++;
      const cliProblem = await checkCli(input, args);
      if (cliProblem) record('cli', input, cliProblem, `${how}; args ${args.join(' ')}`);
    }
  }

  const mutations = [...byMutation].map(([k, v]) => `${k} ${v}`).join(', ');
  process.stdout.write(
    `fuzz: ${SECONDS} s, seed ${SEED}: ${counts.inputs} inputs (${counts.random} random, ${counts.mutated} mutated: ${mutations}), ` +
      `${(counts.bytes / 1e6).toFixed(1)} MB through the stream, ${counts.cli} CLI runs; ${failures.size} distinct failures\n`,
  );
  for (const [key] of failures) process.stdout.write(`  ${key}\n`);
  process.exitCode = failures.size > 0 ? 1 : 0;
}

run().catch((err) => {
  process.stderr.write(`fuzz: the fuzzer itself failed: ${(err as Error)?.stack ?? err}\n`);
  process.exitCode = 1;
});
