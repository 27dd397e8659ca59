// `npm run bench`: irilink through its stream API against the peers and two floors, on named corpora.
//
//   npm run bench                       full run: main corpora (prefix ≤ 200 MB), scaling (20 MB vs 200 MB),
//                                       hostile inputs; 5 runs each; writes bench/results/latest.{json,md}
//                                       and bench/results/chart.svg
//   npm run bench -- --quick            small prefixes, 1 run each, finishes within a minute (→ quick.*)
//   npm run bench -- --corpus en-mixed --size 20 --runs 5
//   options: --corpus NAME (repeatable or a,b), --size MB (prefix, cut at a line end), --runs N (default 5),
//            --contenders a,b, --timeout S (per run, default 60), --no-hostile, --no-scaling, --quick,
//            --out STEM (result files STEM.{json,md}, STEM relative to bench/results; default latest, or quick)
//
// Method (also in bench/README.md): every contender runs in its own child process (bench/child.ts), so the
// peak RSS is its own, and the runs of all contenders on an input are interleaved (lib/processes.ts); the file is read as 64 KiB Buffers; irilink and the pass-through floor consume them
// as a stream, the peers get the decoded text in line-aligned ~64 KiB pieces (bench/lib/pieces.ts).
// MB = 10^6 bytes of UTF-8 input. MB/s is the median over the runs. A run longer than the timeout is
// killed and reported as "timeout". Each run reports links found; the bench fails if irilink finds none
// on an input that has links, so a broken fast path cannot look fast (STYLE.md habit 12).
import { closeSync, openSync, readFileSync, readSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { barChartSvg, type ChartSeries } from './lib/chart.js';
import { generatedCorpora, hostileCorpora, realCorpora, realCorpus, type Corpus } from './lib/corpora.js';
import { loadIrilink } from './lib/irilink.js';
import { ensureDir, largeDir, resultsDir } from './lib/paths.js';
import { packageVersion, peerNames } from './lib/peers.js';
import { runJob, type ContenderResult, type Warmup } from './lib/processes.js';

const MB = 1e6;
const ALL_CONTENDERS = ['irilink', ...peerNames, 'passthrough', 'read+decode'];

interface Options {
  corpora: string[] | undefined;
  sizeMB: number | undefined;
  runs: number;
  quick: boolean;
  contenders: string[];
  hostile: boolean;
  scaling: boolean;
  timeoutS: number;
  /** Stem of the result files in bench/results (default latest, or quick with --quick). */
  out: string | undefined;
}

function parseArgs(argv: string[]): Options {
  const o: Options = {
    corpora: undefined,
    sizeMB: undefined,
    runs: 5,
    quick: false,
    contenders: ALL_CONTENDERS,
    hostile: true,
    scaling: true,
    timeoutS: 60,
    out: undefined,
  };
  let runsGiven = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const next = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--corpus') (o.corpora ??= []).push(...next().split(','));
    else if (a === '--size') o.sizeMB = Number(next());
    else if (a === '--runs') {
      o.runs = Number(next());
      runsGiven = true;
    } else if (a === '--quick') o.quick = true;
    else if (a === '--contenders') o.contenders = next().split(',');
    else if (a === '--timeout') o.timeoutS = Number(next());
    else if (a === '--no-hostile') o.hostile = false;
    else if (a === '--out') o.out = next();
    else if (a === '--no-scaling') o.scaling = false;
    else throw new Error(`unknown option ${a} (see the header of bench/run.ts)`);
  }
  for (const c of o.contenders) if (!ALL_CONTENDERS.includes(c)) throw new Error(`unknown contender ${c}; known: ${ALL_CONTENDERS.join(', ')}`);
  if (o.quick) {
    if (!runsGiven) o.runs = 1;
    o.timeoutS = Math.min(o.timeoutS, 10);
  }
  if (o.quick || o.corpora !== undefined) {
    o.hostile = o.corpora?.some((c) => c.startsWith('hostile')) ?? false;
    o.scaling = false;
  }
  if (!(o.runs >= 1) || (o.sizeMB !== undefined && !(o.sizeMB > 0))) throw new Error('--runs and --size must be positive');
  return o;
}

/** Bytes of the first `mb` MB of `file`, cut after the last line break (no split UTF-8 sequence). */
function prefixBytes(file: string, mb: number | undefined): number {
  const size = statSync(file).size;
  if (mb === undefined || mb * MB >= size) return size;
  const limit = Math.floor(mb * MB);
  const window = Math.min(limit, 1 << 20);
  const buf = Buffer.alloc(window);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, buf, 0, window, limit - window);
  } finally {
    closeSync(fd);
  }
  const nl = buf.lastIndexOf(0x0a);
  return nl < 0 ? limit : limit - window + nl + 1;
}

type Section = 'main' | 'scaling' | 'hostile';

interface Row extends ContenderResult {
  section: Section;
  corpus: string;
}

interface Job {
  section: Section;
  corpus: Corpus;
  bytes: number;
}

function plan(o: Options): { jobs: Job[]; notes: string[] } {
  const notes: string[] = [];
  const jobs: Job[] = [];
  const generated = generatedCorpora();
  const hostile = o.hostile || o.corpora?.some((c) => c.startsWith('hostile')) ? hostileCorpora() : [];
  const byName = (name: string): Corpus | undefined =>
    realCorpus(name) ?? generated.find((c) => c.name === name) ?? hostile.find((c) => c.name === name);
  let mainNames: string[];
  let size: number | undefined = o.sizeMB;
  if (o.corpora !== undefined) mainNames = o.corpora.filter((c) => !c.startsWith('hostile'));
  else if (o.quick) {
    mainNames = ['en-mixed', 'multilingual', 'iri-dense'];
    size ??= 2;
  } else {
    mainNames = [...realCorpora.map((c) => c.name), 'iri-dense', 'prose-nolinks'];
    size ??= 200;
  }
  for (const name of mainNames) {
    const c = byName(name);
    if (c === undefined) {
      const known = realCorpora.some((r) => r.name === name);
      notes.push(
        known
          ? `corpus ${name} is not built (${path.relative(process.cwd(), largeDir)}/${name}.txt missing): run \`npm run corpora\` (see corpora/README.md)`
          : `unknown corpus ${name}`,
      );
      if (!known) throw new Error(notes[notes.length - 1]);
      continue;
    }
    jobs.push({ section: 'main', corpus: c, bytes: prefixBytes(c.file, size) });
  }
  if (o.scaling) {
    for (const name of ['en-mixed', 'multilingual']) {
      const c = realCorpus(name);
      if (c !== undefined) jobs.push({ section: 'scaling', corpus: c, bytes: prefixBytes(c.file, 20) });
    }
  }
  for (const c of hostile) if (o.hostile || o.corpora?.includes(c.name)) jobs.push({ section: 'hostile', corpus: c, bytes: prefixBytes(c.file, undefined) });
  return { jobs, notes };
}

/** Bytes a contender links, untimed, before its timed runs on a real corpus (at least three runs of a prefix). */
const WARMUP_TOTAL_MB = 6;

/**
 * The warm-up of every contender on a job's input. Real corpora: runs on a prefix of at most 2 MB (half the input
 * at most), three of them or as many as make 6 MB. V8 optimises a program by the work it has done, not by how many
 * runs it took: three runs on the 0.9 MB log sample (1.4 MB in all) left irilink in the middle of being optimised
 * (it then took 62, 21, 23, 93 and 46 ms/MB in its timed runs, about 10 once warm), while the big corpora got 6 MB.
 * Hostile inputs: three runs on a 1/10 prefix of at most 64 kB (a quadratic peer must not spend its time limit
 * warming up; without any warm-up a 0.1 MB input measures only start-up). The first timed run is reported beside
 * the median for what a process gets without more warm-up.
 */
function warmupFor(job: { section: Section; corpus: { file: string }; bytes: number }): Warmup {
  if (job.section === 'hostile') return { bytes: prefixBytes(job.corpus.file, Math.min(0.064, job.bytes / MB / 10)), runs: 3 };
  const bytes = prefixBytes(job.corpus.file, Math.min(2, job.bytes / MB / 2));
  return { bytes, runs: bytes === 0 ? 0 : Math.max(3, Math.ceil((WARMUP_TOTAL_MB * MB) / bytes)) };
}

/**
 * Reads the first `bytes` of `file` once and drops them, so that the page cache holds the input before any
 * contender is timed: otherwise the first run of the first contender also measures the disk (irilink's first run
 * on 200 MB of en-mixed took 63.5 ms/MB cold, 11.5 warm).
 */
function readThrough(file: string, bytes: number): void {
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.allocUnsafe(1 << 20);
    for (let at = 0; at < bytes; ) {
      const n = readSync(fd, buf, 0, Math.min(buf.length, bytes - at), at);
      if (n === 0) break;
      at += n;
    }
  } finally {
    closeSync(fd);
  }
}

function fmt(n: number | undefined, digits = 1): string {
  return n === undefined ? '' : n.toFixed(digits);
}

function machine(): Record<string, unknown> {
  const cpuinfo = readFileSync('/proc/cpuinfo', 'utf8');
  return {
    nproc: os.availableParallelism(),
    cpu: /model name\s*:\s*(.*)/.exec(cpuinfo)?.[1] ?? os.cpus()[0]?.model ?? 'unknown',
    node: process.version,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    memGiB: +(os.totalmem() / 2 ** 30).toFixed(1),
    loadAvgAtStart: os.loadavg().map((x) => +x.toFixed(2)),
  };
}

async function main(): Promise<void> {
  const o = parseArgs(process.argv.slice(2));
  const startMachine = machine();
  const iri = await loadIrilink();
  const contenders = o.contenders.filter((c) => c !== 'irilink' || iri.api.createLinkStream !== undefined);
  const notes: string[] = [];
  if (o.contenders.includes('irilink') && iri.api.createLinkStream === undefined) {
    notes.push(`irilink not measured: ${iri.missing.join('; ')}`);
  }
  const planned = plan(o);
  notes.push(...planned.notes);
  for (const n of notes) console.error(`NOTE: ${n}`);
  const rows: Row[] = [];
  const failures: string[] = [];
  for (const job of planned.jobs) {
    const header = `${job.section} ${job.corpus.name} ${(job.bytes / MB).toFixed(2)} MB`;
    console.error(`\n== ${header}`);
    // Hostile inputs: the median of up to three runs (one run of a 1 MB input was at the mercy of a moment's load:
    // 15 ms once, 208 ms in the next minute). A peer that times out is not run again.
    const hostile = job.section === 'hostile';
    const warmup = warmupFor(job);
    readThrough(job.corpus.file, job.bytes);
    const results = await runJob(contenders, job.corpus.file, job.bytes, hostile ? Math.min(3, o.runs) : o.runs, warmup, o.timeoutS, (line) => console.error(line));
    for (const r of results) {
      const c = r.contender;
      const row: Row = { section: job.section, corpus: job.corpus.name, ...r };
      rows.push(row);
      console.error(
        `  ${c.padEnd(15)} ${row.status === 'ok' ? `${fmt(row.mbPerS).padStart(8)} MB/s ${fmt(row.maxRssMiB, 0).padStart(5)} MiB ${String(row.links).padStart(8)} links${row.note === undefined ? '' : ` (${row.note})`}` : `${row.status}: ${row.error}`}`,
      );
      if (c === 'irilink' && row.status === 'ok' && job.corpus.hasLinks && row.links === 0) {
        failures.push(`irilink found 0 links in ${job.corpus.name} (${job.bytes} bytes), which has links: a broken fast path`);
      }
      if (c === 'irilink' && row.status !== 'ok') failures.push(`irilink ${row.status} on ${job.corpus.name}: ${row.error}`);
    }
  }
  // Ratios and targets.
  const get = (section: Section, corpus: string, bytes: number, contender: string): Row | undefined =>
    rows.find((r) => r.section === section && r.corpus === corpus && r.bytes === bytes && r.contender === contender);
  const ratios = planned.jobs.map((j) => {
    const me = get(j.section, j.corpus.name, j.bytes, 'irilink');
    const li = get(j.section, j.corpus.name, j.bytes, 'linkify-it');
    const pt = get(j.section, j.corpus.name, j.bytes, 'passthrough');
    const ok = (r: Row | undefined): r is Row & { mbPerS: number } => r?.status === 'ok' && r.mbPerS !== undefined;
    const first = (r: Row): number => r.runsMs[0]!;
    return {
      section: j.section,
      corpus: j.corpus.name,
      bytes: j.bytes,
      vsLinkifyIt: ok(me) && ok(li) ? me.mbPerS / li.mbPerS : undefined,
      vsPassthrough: ok(me) && ok(pt) ? me.mbPerS / pt.mbPerS : undefined,
      // The first timed run of each (a process that has linked only the warm-up prefix before): irilink is then
      // still being optimised by V8, the peers are not (bench/README.md "First run").
      firstVsLinkifyIt: ok(me) && ok(li) ? first(li) / first(me) : undefined,
      firstVsPassthrough: ok(me) && ok(pt) ? first(pt) / first(me) : undefined,
    };
  });
  const targets: { target: string; measured: string; met: boolean | undefined }[] = [];
  for (const name of ['en-mixed', 'multilingual']) {
    const r = ratios.find((x) => x.section === 'main' && x.corpus === name);
    if (r === undefined) continue;
    const big = r.bytes >= 150 * MB;
    targets.push({
      target: `${name}${big ? '' : ` (only ${(r.bytes / MB).toFixed(0)} MB: not the ≥ 200 MB target run)`}: irilink ≥ 4× linkify-it`,
      measured: r.vsLinkifyIt === undefined ? 'n/a' : `${r.vsLinkifyIt.toFixed(2)}× (first run ${r.firstVsLinkifyIt!.toFixed(2)}×)`,
      met: r.vsLinkifyIt === undefined ? undefined : r.vsLinkifyIt >= 4,
    });
    targets.push({
      target: `${name}: irilink ≥ 70 % of the pass-through floor`,
      measured: r.vsPassthrough === undefined ? 'n/a' : `${(r.vsPassthrough * 100).toFixed(0)} % (first run ${(r.firstVsPassthrough! * 100).toFixed(0)} %)`,
      met: r.vsPassthrough === undefined ? undefined : r.vsPassthrough >= 0.7,
    });
    const small = rows.find((x) => x.section === 'scaling' && x.corpus === name && x.contender === 'irilink');
    const large = rows.find((x) => x.section === 'main' && x.corpus === name && x.contender === 'irilink');
    if (small?.status === 'ok' && large?.status === 'ok') {
      targets.push({
        target: `${name}: time linear in size (ms/MB at ${(large.bytes / MB).toFixed(0)} MB within 25 % of ${(small.bytes / MB).toFixed(0)} MB)`,
        measured: `${fmt(small.msPerMb, 2)} → ${fmt(large.msPerMb, 2)} ms/MB`,
        met: large.msPerMb! <= small.msPerMb! * 1.25,
      });
      targets.push({
        target: `${name}: peak RSS flat (${(large.bytes / MB).toFixed(0)} MB within 25 % of ${(small.bytes / MB).toFixed(0)} MB)`,
        measured: `${fmt(small.maxRssMiB, 0)} → ${fmt(large.maxRssMiB, 0)} MiB`,
        met: large.maxRssMiB! <= small.maxRssMiB! * 1.25,
      });
    }
  }
  // Inputs under 1 MB (the 0.1 MB `(` input) are left out: their per-MB figure is the pipeline's fixed start-up.
  for (const h of rows.filter((r) => r.section === 'hostile' && r.contender === 'irilink' && r.status === 'ok' && r.bytes >= MB)) {
    const floor = rows.find((r) => r.section === 'main' && r.contender === 'irilink' && r.corpus === 'en-mixed');
    if (floor?.msPerMb !== undefined) {
      targets.push({
        target: `${h.corpus}: no worse than 10× the ms/MB of en-mixed`,
        measured: `${fmt(h.msPerMb, 1)} ms/MB (en-mixed ${fmt(floor.msPerMb, 1)})`,
        met: h.msPerMb! <= floor.msPerMb * 10,
      });
    }
  }

  const versions: Record<string, string> = { irilink: iri.version };
  for (const p of peerNames) versions[p] = packageVersion(p);
  const result = {
    date: new Date().toISOString(),
    machine: { ...startMachine, loadAvgAtEnd: os.loadavg().map((x) => +x.toFixed(2)) },
    versions,
    method: {
      mb: '10^6 bytes of UTF-8 input',
      chunkBytes: 65536,
      runs: o.runs,
      statistic: 'median of runs after untimed warm-up runs on a prefix of ≤ 2 MB, at least three and at least 6 MB in all (hostile: median of up to 3 runs after three warm-up runs on ≤ 64 kB); also the first run alone (irilink is still being optimised by V8 then); the runs of all contenders on an input interleaved (run 1 of each, then run 2 in reverse order, …), each contender in its own process',
      timeoutSPerRun: o.timeoutS,
      feeding:
        'irilink: fs read stream of 64 KiB Buffers → createLinkStream() → sink counting link chunks. ' +
        'Peers: the same Buffers decoded and cut into line-aligned ~64 KiB pieces, find() on each. ' +
        'passthrough: the same stream → a Transform that only decodes → the same sink. read+decode: read + StringDecoder.',
      rss: 'process.resourceUsage().maxRSS of a child process per contender and input (includes Node + tsx baseline; compare with the floors)',
      quick: o.quick,
    },
    notes,
    rows,
    ratios,
    targets,
    failures,
  };
  // STEM is resolved against bench/results, so an absolute STEM writes where it says.
  const stem = path.resolve(resultsDir, o.out ?? (o.quick ? 'quick' : 'latest'));
  ensureDir(path.dirname(stem));
  writeFileSync(`${stem}.json`, JSON.stringify(result, null, 2) + '\n');
  const md = markdownReport(result, planned.jobs);
  writeFileSync(`${stem}.md`, md);
  const chartCorpora = ['en-mixed', 'multilingual', 'iri-dense'].filter((n) => rows.some((r) => r.section === 'main' && r.corpus === n));
  if (chartCorpora.length > 0) {
    const series: ChartSeries[] = chartCorpora.map((corpus) => {
      const values = new Map<string, number | undefined>();
      const notesMap = new Map<string, string>();
      for (const c of contenders) {
        const r = rows.find((x) => x.section === 'main' && x.corpus === corpus && x.contender === c);
        values.set(c, r?.status === 'ok' ? r.mbPerS : undefined);
        if (r !== undefined && r.status !== 'ok') notesMap.set(c, `${corpus}: ${r.status}${r.error === undefined ? '' : ` (${r.error})`}`);
      }
      const bytes = rows.find((x) => x.section === 'main' && x.corpus === corpus)!.bytes;
      return { corpus: `${corpus} (${(bytes / MB).toFixed(0)} MB)`, values, notes: notesMap };
    });
    const m = result.machine as unknown as { cpu: string; nproc: number; node: string };
    const svg = barChartSvg(
      'Throughput finding links (irilink via its stream API)',
      `${m.cpu}, ${m.nproc} cores, Node ${m.node}; median of ${o.runs} run(s); ${result.date.slice(0, 10)}`,
      contenders,
      series,
    );
    writeFileSync(stem === path.join(resultsDir, 'latest') ? path.join(resultsDir, 'chart.svg') : `${stem}.svg`, svg);
  }
  process.stdout.write(md);
  if (failures.length > 0) {
    for (const f of failures) console.error(`\nBENCH FAILURE: ${f}`);
    process.exitCode = 1;
  }
}

function markdownReport(result: { date: string; machine: Record<string, unknown>; versions: Record<string, string>; rows: Row[]; ratios: { section: Section; corpus: string; bytes: number; vsLinkifyIt?: number; vsPassthrough?: number; firstVsLinkifyIt?: number; firstVsPassthrough?: number }[]; targets: { target: string; measured: string; met: boolean | undefined }[]; notes: string[] }, jobs: Job[]): string {
  const m = result.machine as { cpu: string; nproc: number; node: string; memGiB: number; loadAvgAtStart: number[]; loadAvgAtEnd: number[] };
  const lines: string[] = [];
  lines.push(`# Bench results (${result.date})`, '');
  lines.push(
    `Machine: ${m.cpu}, ${m.nproc} cores, ${m.memGiB} GiB, Node ${m.node}; load average ${m.loadAvgAtStart[0]} at the start, ${m.loadAvgAtEnd[0]} at the end ` +
      `(other work on the machine makes single numbers noisy; compare contenders within one run).`,
  );
  lines.push(`Versions: ${Object.entries(result.versions).map(([k, v]) => `${k} ${v}`).join(', ')}.`, '');
  for (const n of result.notes) lines.push(`> ${n}`, '');
  const sections: [Section, string][] = [
    ['main', 'Throughput'],
    ['scaling', 'Scaling (compare with the main rows of the same corpus)'],
    ['hostile', 'Hostile inputs'],
  ];
  for (const [section, title] of sections) {
    const sjobs = jobs.filter((j) => j.section === section);
    if (sjobs.length === 0) continue;
    lines.push(`## ${title}`, '');
    lines.push('| input | MB | contender | MB/s | ms/MB | first run ms/MB | peak RSS MiB | links | × linkify-it | % of pass-through |');
    lines.push('|---|---:|---|---:|---:|---:|---:|---:|---:|---:|');
    for (const j of sjobs) {
      const ratio = result.ratios.find((r) => r.section === section && r.corpus === j.corpus.name && r.bytes === j.bytes);
      for (const r of result.rows.filter((x) => x.section === section && x.corpus === j.corpus.name && x.bytes === j.bytes)) {
        const me = r.contender === 'irilink';
        const name = me ? '**irilink**' : r.contender;
        if (r.status !== 'ok') {
          lines.push(`| ${j.corpus.name} | ${(j.bytes / MB).toFixed(2)} | ${name} | ${r.status} | | | | | | |`);
          continue;
        }
        lines.push(
          `| ${j.corpus.name} | ${(j.bytes / MB).toFixed(2)} | ${name} | ${fmt(r.mbPerS)} | ${fmt(r.msPerMb, 2)} | ${fmt(r.runsMs[0]! / (j.bytes / MB), 2)} | ${fmt(r.maxRssMiB, 0)} | ${r.links} | ` +
            `${me && ratio?.vsLinkifyIt !== undefined ? ratio.vsLinkifyIt.toFixed(2) + '×' : ''} | ${me && ratio?.vsPassthrough !== undefined ? (ratio.vsPassthrough * 100).toFixed(0) + ' %' : ''} |`,
        );
      }
    }
    lines.push('');
    // Why a row says what it says: failures, and trouble after the last run (the runs stand).
    for (const r of result.rows.filter((x) => x.section === section && (x.error !== undefined || x.note !== undefined))) {
      lines.push(`- ${r.contender} on ${r.corpus}: ${r.status === 'ok' ? r.note : `${r.status}, ${r.error}`}`);
    }
    if (result.rows.some((x) => x.section === section && (x.error !== undefined || x.note !== undefined))) lines.push('');
  }
  if (result.targets.length > 0) {
    lines.push('## Targets (DESIGN.md quality bar)', '', '| target | measured | met |', '|---|---|---|');
    for (const t of result.targets) lines.push(`| ${t.target} | ${t.measured} | ${t.met === undefined ? 'n/a' : t.met ? 'yes' : '**no**'} |`);
    lines.push('');
  }
  return lines.join('\n');
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});
