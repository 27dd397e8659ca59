// `npm run eval`: detection accuracy of irilink and every peer on labelled inputs, and the peer comparison.
//
// Inputs (each link labelled with its exact span and the uri an href should get):
//   - samples:   corpora/samples/*.txt (but *-random) with their hand-checked *.links.tsv
//   - NAME-random: corpora/samples/NAME-random.txt, real text picked by a seed (not by the team) and labelled by
//                reading; scored apart from the samples written for irilink; and likewise stretches of the built
//                corpora/large/NAME.txt drawn by a seed (corpora/stretches, bench/lib/stretches.ts), each stretch
//                a case; skipped with a note when that corpus is not built
//   - iri-dense: 1 MB of bench/gen-iri-dense.ts output (seed 58), expected links known by construction
//   - uts58:     ../shared/uts58/17.0.0/LinkDetectionTest.txt, 345 lines in the ⸠…⸡ marker format
// Measures: exact-span matches, misses (expected links not found with that exact span), extra links (found
// spans that are not expected), of which "wrong extent" overlap an expected link; precision/recall on exact
// spans; and uri correctness among exact matches (for schemeless links the inferred scheme is not compared:
// peers choose http, irilink https by option). uts58 also counts lines entirely right.
// Writes bench/results/eval.md and eval.json, then runs the peer comparison (bench/compare-peers.ts →
// bench/results/differences.md).
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { collectSources, generateIriDense } from './gen-iri-dense.js';
import { loadContenders, type Contender } from './lib/contenders.js';
import { expectedUri, looksLikeEmail } from './lib/expected-uri.js';
import { parseLinksTsv, type LabelledLink } from './lib/links-tsv.js';
import { ensureDir, resultsDir, samplesDir, uts58DetectionTestPath } from './lib/paths.js';
import { stretchCases, stretchCorpora } from './lib/stretches.js';
import { writeDifferences } from './compare-peers.js';

export interface Labelled {
  start: number;
  end: number;
  text: string;
  uri: string | undefined;
  schemeless: boolean;
}

interface Case {
  text: string;
  expected: Labelled[];
}

interface Dataset {
  name: string;
  about: string;
  cases: Case[];
  /** Count cases entirely right (the conformance file's own measure). */
  perCase: boolean;
}

const hasScheme = (t: string): boolean => /^[A-Za-z][A-Za-z0-9+.-]*:/.test(t);

const labelled = (l: LabelledLink): Labelled => ({
  start: l.start,
  end: l.end,
  text: l.text,
  uri: l.uri,
  schemeless: l.kind === 'url' && !hasScheme(l.text),
});

/** One sample and its expected links (corpora/samples/NAME.txt, NAME.links.tsv). */
function sampleCase(tsv: string): Case {
  const text = readFileSync(path.join(samplesDir, tsv.replace(/\.links\.tsv$/, '.txt')), 'utf8');
  return { text, expected: parseLinksTsv(path.join(samplesDir, tsv)).map(labelled) };
}

/** A sample named `*-random` is real text picked by a seed, not by the team: it is scored on its own. */
const isRandom = (tsv: string): boolean => tsv.endsWith('-random.links.tsv');
const sampleFiles = (): string[] =>
  readdirSync(samplesDir)
    .filter((f) => f.endsWith('.links.tsv'))
    .sort();

function samplesDataset(): Dataset {
  const files = sampleFiles().filter((f) => !isRandom(f));
  return {
    name: 'samples',
    about: `${files.length} hand-labelled samples (corpora/samples)`,
    cases: files.map(sampleCase),
    perCase: false,
  };
}

function randomSampleDatasets(): Dataset[] {
  return sampleFiles()
    .filter(isRandom)
    .map((f) => {
      const name = f.replace(/\.links\.tsv$/, '');
      return {
        name,
        about: `real text picked by a seed, labelled by reading (corpora/samples/${name}.txt, SOURCES.md)`,
        cases: [sampleCase(f)],
        perCase: false,
      };
    });
}

/** Labelled stretches of each built corpus (corpora/stretches), one case per stretch; a note for a corpus not built. */
function stretchDatasets(notes: string[]): Dataset[] {
  const out: Dataset[] = [];
  for (const corpus of stretchCorpora()) {
    const cases = stretchCases(corpus);
    if (cases === undefined) {
      notes.push(`${corpus}-random skipped: corpora/large/${corpus}.txt is not built (npm run corpora)`);
      continue;
    }
    out.push({
      name: `${corpus}-random`,
      about:
        `${cases.length} stretches of corpora/large/${corpus}.txt drawn by a seed, labelled by reading ` +
        `(corpora/stretches/${corpus}.*, corpora/README.md)`,
      cases: cases.map((c) => ({ text: c.stretch.text, expected: c.expected.map(labelled) })),
      perCase: false,
    });
  }
  return out;
}

function denseDataset(): Dataset {
  const sources = collectSources();
  const d = generateIriDense(1e6, 58, sources);
  return {
    name: 'iri-dense',
    about: `1 MB generated, seed 58: ${d.links.length} IRIs (${d.distinctIris} distinct) in prose from ${d.origin}`,
    cases: [{ text: d.text, expected: d.links.map((l) => ({ ...l, schemeless: false })) }],
    perCase: false,
  };
}

/** UTS #58 LinkDetectionTest.txt (NOTES.md §6): strip ⸠ ⸡, the marked spans are the expected links. */
function uts58Dataset(): Dataset {
  const cases: Case[] = [];
  for (const raw of readFileSync(uts58DetectionTestPath(), 'utf8').split('\n')) {
    if (raw === '' || raw.startsWith('#')) continue;
    let text = '';
    const expected: Labelled[] = [];
    let open = -1;
    for (const ch of raw) {
      if (ch === '⸠') open = text.length;
      else if (ch === '⸡') {
        const t = text.slice(open);
        const email = looksLikeEmail(t);
        expected.push({ start: open, end: text.length, text: t, uri: expectedUri(t, email ? 'email' : 'url'), schemeless: !email && !hasScheme(t) });
      } else text += ch;
    }
    cases.push({ text, expected });
  }
  return { name: 'uts58', about: `UTS #58 17.0 LinkDetectionTest.txt, ${cases.length} lines`, cases, perCase: true };
}

export interface Score {
  contender: string;
  dataset: string;
  expected: number;
  found: number;
  exact: number;
  misses: number;
  extra: number;
  wrongExtent: number;
  uriChecked: number;
  uriCorrect: number;
  casesRight?: number;
  cases: number;
  crashed: number;
}

const stripScheme = (u: string): string => u.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '');

function score(c: Contender, d: Dataset): Score {
  const s: Score = {
    contender: c.name,
    dataset: d.name,
    expected: 0,
    found: 0,
    exact: 0,
    misses: 0,
    extra: 0,
    wrongExtent: 0,
    uriChecked: 0,
    uriCorrect: 0,
    cases: d.cases.length,
    crashed: 0,
  };
  if (d.perCase) s.casesRight = 0;
  for (const k of d.cases) {
    let found: ReturnType<Contender['find']>;
    try {
      found = c.find(k.text);
    } catch {
      s.crashed++;
      found = [];
    }
    const exp = new Map(k.expected.map((e) => [`${e.start}:${e.end}`, e]));
    let exactHere = 0;
    for (const f of found) {
      const e = exp.get(`${f.start}:${f.end}`);
      if (e === undefined) {
        s.extra++;
        if (k.expected.some((x) => f.start < x.end && x.start < f.end)) s.wrongExtent++;
        continue;
      }
      exactHere++;
      if (e.uri !== undefined && c.givesUri) {
        s.uriChecked++;
        const got = f.uri ?? '';
        if (e.schemeless ? stripScheme(got) === stripScheme(e.uri) : got === e.uri) s.uriCorrect++;
      }
    }
    s.expected += k.expected.length;
    s.found += found.length;
    s.exact += exactHere;
    s.misses += k.expected.length - exactHere;
    if (s.casesRight !== undefined && exactHere === k.expected.length && found.length === k.expected.length) s.casesRight++;
  }
  return s;
}

function pct(a: number, b: number): string {
  return b === 0 ? 'n/a' : `${((100 * a) / b).toFixed(1)} %`;
}

async function main(): Promise<void> {
  const { contenders, notes } = await loadContenders();
  const datasets = [samplesDataset(), ...randomSampleDatasets(), ...stretchDatasets(notes), denseDataset(), uts58Dataset()];
  for (const n of notes) console.error(`NOTE: ${n}`);
  const scores: Score[] = [];
  for (const d of datasets) for (const c of contenders) scores.push(score(c, d));
  const date = new Date().toISOString();
  const lines: string[] = [];
  lines.push(`# Detection accuracy (${date.slice(0, 10)})`, '');
  lines.push(`Versions: ${contenders.map((c) => `${c.name} ${c.version}`).join(', ')}. Node ${process.version}.`, '');
  for (const n of notes) lines.push(`> ${n}`, '');
  lines.push(
    'Exact = the link found with exactly the expected span; misses = expected links not found with that span; extra = ' +
      'spans found that are not expected (wrong extent: of those, overlapping an expected link); uri ok = exact matches whose ' +
      'href equals the expected ASCII URI (RFC 3987 §3.1 + UTS #46 hosts; the inferred scheme of schemeless links is not compared).',
    '',
  );
  for (const d of datasets) {
    lines.push(`## ${d.name}: ${d.about}`, '');
    lines.push(
      `| tool | exact | misses | extra (wrong extent) | precision | recall | uri ok |${d.perCase ? ' lines right |' : ''}`,
      `|---|---:|---:|---:|---:|---:|---:|${d.perCase ? '---:|' : ''}`,
    );
    for (const s of scores.filter((x) => x.dataset === d.name)) {
      const name = s.contender === 'irilink' ? '**irilink**' : s.contender;
      const uri = contenders.find((c) => c.name === s.contender)!.givesUri ? `${s.uriCorrect}/${s.uriChecked}` : 'no href';
      lines.push(
        `| ${name} | ${s.exact}/${s.expected} | ${s.misses} | ${s.extra} (${s.wrongExtent}) | ${pct(s.exact, s.found)} | ${pct(s.exact, s.expected)} | ${uri} |` +
          (d.perCase ? ` ${s.casesRight}/${s.cases} |` : '') +
          (s.crashed > 0 ? ` threw on ${s.crashed} input(s)` : ''),
      );
    }
    lines.push('');
  }
  const md = lines.join('\n');
  ensureDir(resultsDir);
  writeFileSync(path.join(resultsDir, 'eval.md'), md);
  writeFileSync(
    path.join(resultsDir, 'eval.json'),
    JSON.stringify({ date, versions: Object.fromEntries(contenders.map((c) => [c.name, c.version])), node: process.version, notes, scores }, null, 2) + '\n',
  );
  process.stdout.write(md + '\n');
  const diff = writeDifferences(contenders);
  console.error(`wrote bench/results/eval.md, eval.json and ${path.relative(process.cwd(), diff)}`);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});
