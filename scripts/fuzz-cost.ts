// Cost fuzzer: looks for inputs on which irilink's time grows faster than the input (DESIGN.md asks for linear time
// on any input; README "Markdown mode → Cost" lists the shapes found so far and the limits that bound them).
//
//   npx tsx scripts/fuzz-cost.ts [--seconds 120] [--seed N] [--modes plain,markdown,…] [--size 65536]
//                                [--budget-ms 10000] [--min-ms 250] [--entry dist/index.js] [--out build/fuzz-cost]
//
// Each round draws a unit of 1 to 6 random fragments (Markdown-significant strings, pieces of links, punctuation
// of several scripts), repeats it to SIZE and to 4 × SIZE code units, and times it on both, in a worker thread, in
// one of the modes taken in turn: `plain` (linkify), `markdown` (linkifyMarkdown), `plain-writes` and
// `markdown-writes` (Linkifier and MarkdownLinkifier, the text pushed in writes of WRITE units, as a stream does),
// `markdown-it` (markdown-it's parse with irilinkMarkdownIt) and `remark` (remark's run with remarkIrilink over the
// parsed tree, the text as its file). In the plugin modes the time is what the plugin adds: the host parser alone
// (markdown-it without linkify, remark's parse) is timed first; markdown-it's is taken off the time of its parse with
// the plugin, remark's run is timed alone. A unit on which the host parser alone is super-linear is not irilink's
// finding: it is printed as a note, and the plugin is not timed on it.
// Linear work takes about 4 times as long on the larger input; a unit is reported when the larger input takes more
// than MIN_MS and more than GROWTH times the smaller one on two measurements, or when one input takes longer than
// the budget (the worker is then stopped and replaced).
// Findings are written to build/fuzz-cost/findings.jsonl (the unit, the mode and the times, -1 for over the budget,
// with the seed to replay the run; in the plugin modes also the host parser's own times) and the run exits 1. It also lists the units that cost the most per unit of
// input without growing faster than it (the limits of README "Markdown mode → Cost" keep some shapes linear but
// slow). Needs a build (`npm run build`): the worker loads dist/.
import { Worker } from 'node:worker_threads';
import { appendFileSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { seededRandom } from './random.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const MODES = ['plain', 'markdown', 'plain-writes', 'markdown-writes', 'markdown-it', 'remark'] as const;
type Mode = (typeof MODES)[number];
/** The modes that time a plugin inside a host parser, and the host parser alone beside it. */
const PLUGIN_MODES: readonly Mode[] = ['markdown-it', 'remark'];

// ------------------------------------------------------------------------------------------------ options

function argValue(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  if (i < 0) return fallback;
  const v = Number(process.argv[i + 1]);
  if (!Number.isFinite(v) || v < 0) usage(`${name} needs a non-negative number`);
  return v;
}

function argText(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  if (i < 0) return fallback;
  const v = process.argv[i + 1];
  if (v === undefined || v.startsWith('--')) usage(`${name} needs a value`);
  return v;
}

function usage(problem: string): never {
  process.stderr.write(`fuzz-cost: ${problem}\n`);
  process.stderr.write(`usage: fuzz-cost [--seconds S] [--seed N] [--modes ${MODES.join(',')}] [--size UNITS] [--budget-ms MS]\n`);
  process.stderr.write('                 [--min-ms MS] [--entry MODULE] [--out DIR]\n');
  process.exit(2);
}

const SECONDS = argValue('--seconds', 120);
const SEED = argValue('--seed', Date.now() % 0x7fffffff) >>> 0;
const SIZE = Math.max(256, Math.round(argValue('--size', 65536)));
const BUDGET_MS = argValue('--budget-ms', 10_000);
const modes = argText('--modes', MODES.join(',')).split(',') as Mode[];
for (const m of modes) if (!MODES.includes(m)) usage(`--modes takes ${MODES.join(', ')}, not ${JSON.stringify(m)}`);
/** What is timed: a module with linkify() and linkifyMarkdown() (another build, or the test's stand-ins). */
const entry = resolve(argText('--entry', join(root, 'dist', 'index.js')));
const OUT_DIR = resolve(argText('--out', join(root, 'build', 'fuzz-cost')));

/** The larger input is 4 times the smaller: linear work takes about 4 times as long. */
const SCALE = 4;
/** Reported above this ratio of the two times (quadratic work gives about 16). */
const GROWTH = 7;
/**
 * Times below this are noise, whatever their ratio: in a warm worker a linear unit's larger input sometimes takes
 * 7–8 times the smaller one's 10–15 ms (about one unit in 3,000 was flagged at 100 ms; each was linear when re-timed
 * in a fresh process). Every super-linear shape found so far took over a second at 256 K units.
 */
const MIN_MS = argValue('--min-ms', 250);

// ------------------------------------------------------------------------------------------------ random

const random = seededRandom(SEED);
const int = (n: number): number => Math.floor(random() * n);

const FRAGMENTS: readonly string[] = [
  // Markdown: containers, blocks, inline constructs.
  '- ', '* ', '+ ', '1. ', '2) ', '> ', '  ', '    ', '\t', '\n', '\n\n', '\r\n', '---', '===', '# ', '```', '~~~',
  '[', ']', '(', ')', '![', '<', '>', '`', '``', '*', '**', '_', '__', '~', '~~', '\\', '&amp;', '&#', '|', ':-',
  '<!--', '-->', '<?', '?>', '<!X', '<![CDATA[', '<a ', '</a>', 'href="', '"', "'", '<div>', '</div>', '[^1]',
  '[x]: ', '[x]', '[ ] ',
  // Links and their pieces.
  'http://a.example/', 'https://', 'www.b.example', 'c@d.example', 'mailto:', 'user@', 'x.com', '.', ':', '//',
  '/', '?', '#', '%', '%2', '%41', '@', 'xn--', '例え.テスト', '。', 'ドメイン', 'пример.рф', '.рф', '.中国',
  '<URL:', 'a.', 'a', 'word ', '-', '=', ',', ';', '!',
  // Brackets, quotes and spaces of other scripts; format characters.
  '「', '」', '（', '）', '«', '»', '“', '”', '\u00a0', '\u3000', '\u200b', '\u200f', '\u202e', '\ufeff',
];

function drawUnit(): string {
  let unit = '';
  const n = 1 + int(6);
  for (let k = 0; k < n; k++) unit += FRAGMENTS[int(FRAGMENTS.length)]!;
  return unit;
}

const repeatTo = (unit: string, units: number): string => unit.repeat(Math.ceil(units / unit.length));

// ------------------------------------------------------------------------------------------------ worker

/** The write size of the `-writes` modes: small, so that every write leaves work undecided for the next. */
const WRITE = 64;

// The worker times one run on request. It is plain JavaScript (no tsx in a worker) and loads the build (and, for the
// plugin modes, markdown-it and remark, at their first use); it repeats the unit itself, as repeatTo does, so that
// only the run is timed and only the unit crosses between threads. `host` asks for the host parser without irilink.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const writes = (linkifier, text) => {
  for (let i = 0; i < text.length; i += ${WRITE}) linkifier.push(text.slice(i, i + ${WRITE}));
  linkifier.end();
};
const hosts = {};
const markdownIt = async () => (hosts.markdownIt ??= (await import(workerData.markdownIt)).default);
const remark = async () => (hosts.remark ??= (await import(workerData.remark)).remark);
import(workerData.entry).then((api) => {
  const run = {
    plain: (text) => api.linkify(text),
    markdown: (text) => api.linkifyMarkdown(text),
    'plain-writes': (text) => writes(new api.Linkifier(), text),
    'markdown-writes': (text) => writes(new api.MarkdownLinkifier(), text),
    'markdown-it': async (text, host) => {
      const MarkdownIt = await markdownIt();
      const md = host ? new MarkdownIt() : new MarkdownIt().use(api.irilinkMarkdownIt);
      return () => md.parse(text, {});
    },
    remark: async (text, host) => {
      const processor = host ? (await remark())() : (await remark())().use(api.remarkIrilink);
      if (host) return () => processor.parse(text);
      // (The plugin's run alone is timed: the parse it needs is made first.)
      const tree = processor.parse(text);
      return () => processor.runSync(tree, text);
    },
  };
  parentPort.on('message', async ({ mode, unit, units, host }) => {
    try {
      const text = unit.repeat(Math.ceil(units / unit.length));
      const prepared = ${JSON.stringify(PLUGIN_MODES)}.includes(mode) ? await run[mode](text, host) : () => run[mode](text);
      const t0 = performance.now();
      prepared();
      parentPort.postMessage(performance.now() - t0);
    } catch (err) {
      parentPort.postMessage({ error: err instanceof Error ? err.message : String(err) });
    }
  });
  parentPort.postMessage('ready');
});
`;

class Timer {
  private worker: Worker | null = null;

  private async start(): Promise<Worker> {
    const workerData = { entry: pathToFileURL(entry).href, markdownIt: import.meta.resolve('markdown-it'), remark: import.meta.resolve('remark') };
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData });
    await new Promise<void>((ok, fail) => {
      worker.once('message', () => ok());
      worker.once('error', fail);
    });
    return worker;
  }

  /**
   * Milliseconds `mode` takes on the unit repeated to `units` (as repeatTo does), or Infinity past the budget;
   * `host`: the plugin mode's host parser alone.
   */
  async time(mode: Mode, unit: string, units: number, host = false): Promise<number> {
    this.worker ??= await this.start();
    const worker = this.worker;
    return new Promise<number>((ok, fail) => {
      const timer = setTimeout(() => {
        worker.removeAllListeners();
        this.worker = null;
        void worker.terminate().then(() => ok(Infinity));
      }, BUDGET_MS);
      worker.once('message', (ms: number | { error: string }) => {
        clearTimeout(timer);
        worker.removeAllListeners('error');
        if (typeof ms === 'number') ok(ms);
        else fail(new Error(ms.error));
      });
      worker.once('error', (err) => {
        clearTimeout(timer);
        this.worker = null;
        fail(err);
      });
      worker.postMessage({ mode, unit, units, host });
    });
  }

  async close(): Promise<void> {
    await this.worker?.terminate();
    this.worker = null;
  }
}

// ------------------------------------------------------------------------------------------------ run

interface Finding {
  mode: Mode;
  unit: string;
  smallUnits: number;
  smallMs: number;
  largeUnits: number;
  largeMs: number;
  /** Plugin modes: the host parser's own times (the finding's are what the plugin adds to them). */
  hostSmallMs?: number;
  hostLargeMs?: number;
  seed: number;
}

/** Milliseconds as a finding records them: -1 for over the budget. */
const rounded = (t: number): number => (t === Infinity ? -1 : Math.round(t));
const ms = (t: number): string => (t === Infinity ? `over ${BUDGET_MS} ms` : `${Math.round(t)} ms`);

/**
 * The two times for one unit, each the best of two runs after a warm-up run of the smaller input (the memos of a
 * warm process serve both sizes alike).
 */
async function timesOf(timer: Timer, mode: Mode, unit: string, host = false): Promise<[number, number]> {
  const warm = await timer.time(mode, unit, SIZE, host);
  if (warm === Infinity) return [Infinity, Infinity];
  const small = Math.min(await timer.time(mode, unit, SIZE, host), await timer.time(mode, unit, SIZE, host));
  const first = await timer.time(mode, unit, SIZE * SCALE, host);
  if (first === Infinity) return [small, Infinity];
  return [small, Math.min(first, await timer.time(mode, unit, SIZE * SCALE, host))];
}

interface Measured {
  /** irilink's times; in a plugin mode, what the plugin adds to its host parser's (none when that is super-linear). */
  times?: [number, number];
  /** A plugin mode's host parser alone. */
  host?: [number, number];
}

async function measure(timer: Timer, mode: Mode, unit: string): Promise<Measured> {
  if (!PLUGIN_MODES.includes(mode)) return { times: await timesOf(timer, mode, unit) };
  // The host parser first: one super-linear on its own (remark's parse is, on some units) hides what the plugin
  // adds, and is not irilink's finding, so the plugin is not timed on it.
  const host = await timesOf(timer, mode, unit, true);
  if (suspicious(host)) return { host };
  const own = await timesOf(timer, mode, unit);
  // markdown-it runs the plugin inside its parse: what it adds is the difference. remark's run is timed alone.
  // A run past the budget stays one: the host parser alone took less.
  const added = (k: 0 | 1): number => (own[k] === Infinity ? Infinity : mode === 'remark' ? own[k] : Math.max(0, own[k] - host[k]));
  return { times: [added(0), added(1)], host };
}

const suspicious = ([small, large]: [number, number]): boolean =>
  large === Infinity || (large > MIN_MS && large > GROWTH * Math.max(small, 1));

interface Costly {
  mode: Mode;
  unit: string;
  msPerMb: number;
}

/** Keeps the COSTLIEST units with the highest time per unit of input, highest first. */
function noteCostly(list: Costly[], c: Costly): void {
  list.push(c);
  list.sort((a, b) => b.msPerMb - a.msPerMb);
  if (list.length > COSTLIEST) list.pop();
}
const COSTLIEST = 5;

async function run(): Promise<void> {
  if (!existsSync(entry)) usage(`no ${entry}: run \`npm run build\` first`);
  const timer = new Timer();
  const findings: Finding[] = [];
  const costliest: Costly[] = [];
  const deadline = Date.now() + SECONDS * 1000;
  let rounds = 0;
  try {
    while (Date.now() < deadline) {
      const unit = drawUnit();
      const mode = modes[rounds % modes.length]!;
      rounds++;
      let measured = await measure(timer, mode, unit);
      // A second measurement before reporting: a pause of the collector or of the machine is not a finding.
      if (measured.times !== undefined && suspicious(measured.times) && measured.times[1] !== Infinity) {
        measured = await measure(timer, mode, unit);
      }
      const { times, host } = measured;
      if (times === undefined) {
        console.log(`note: ${mode}'s parser alone: ${JSON.stringify(unit)} ${ms(host![0])} → ${ms(host![1])} at ${SCALE}× the length`);
        continue;
      }
      if (times[1] !== Infinity) noteCostly(costliest, { mode, unit, msPerMb: (times[1] / (SIZE * SCALE)) * 1e6 });
      if (!suspicious(times)) continue;
      const finding: Finding = {
        mode,
        unit,
        smallUnits: repeatTo(unit, SIZE).length,
        smallMs: rounded(times[0]),
        largeUnits: repeatTo(unit, SIZE * SCALE).length,
        largeMs: rounded(times[1]),
        ...(host === undefined ? {} : { hostSmallMs: rounded(host[0]), hostLargeMs: rounded(host[1]) }),
        seed: SEED,
      };
      findings.push(finding);
      mkdirSync(OUT_DIR, { recursive: true });
      appendFileSync(join(OUT_DIR, 'findings.jsonl'), JSON.stringify(finding) + '\n');
      const added = host === undefined ? '' : ` added to the parser's ${ms(host[0])} → ${ms(host[1])}`;
      console.log(`${mode}: ${JSON.stringify(unit)} ${ms(times[0])} → ${ms(times[1])} at ${SCALE}× the length${added}`);
    }
  } finally {
    await timer.close();
  }
  for (const c of costliest) console.log(`costliest (linear): ${c.mode} ${JSON.stringify(c.unit)} ${Math.round(c.msPerMb)} ms per million units`);
  console.log(`fuzz-cost: ${rounds} units (seed ${SEED}, ${SIZE} and ${SIZE * SCALE} units), ${findings.length} super-linear`);
  if (findings.length > 0) console.log(`findings: ${join(OUT_DIR, 'findings.jsonl')}`);
  process.exitCode = findings.length > 0 ? 1 : 0;
}

try {
  await run();
} catch (err) {
  // The module could not be loaded, or threw: that is no finding about cost.
  process.stderr.write(`fuzz-cost: ${entry}: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 2;
}
