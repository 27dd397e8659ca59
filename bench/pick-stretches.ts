// Draws the stretches of a built corpus that corpora/stretches labels (bench/lib/stretches.ts), so that the accuracy
// figure also rests on real text of the big corpora that nobody picked for its links, without copying that text here.
//
// How: Mulberry32 (scripts/random.ts) with the seed draws a byte offset uniformly in corpora/large/CORPUS.txt; the
// stretch starts at the first line start at or after it and takes whole lines while it stays within 2,048 bytes (a
// first line longer than that is taken alone, whole). A draw whose stretch would overlap an earlier one, or that
// falls after the last line start, is drawn again. The stretches are numbered in draw order and were labelled by
// reading in that order, none skipped; COUNT is how many were read. multilingual: seed 3987; the first 60 held 136
// links, under the 150–250 aimed at, so reading went on in draw order until the labels reached 200, finishing that
// stretch (206 links in 84 stretches). en-mixed: seed 3987, read the same way until 200 (200 links in 55 stretches).
// markdown: seed 3987, read the same way, as plain text (202 links in 59 stretches). logs: seed 3987, read the same
// way (200 links in 31 stretches). Labels the policy left out after they were made (code names such as
// `{{col.name}}`, file names such as `libfoo.so`: corpora/README.md) are removed, with a `#` line saying so.
// The first line of NAME.stretches.tsv after its header is the command that rebuilds it.
// `--list` prints the order with each stretch's size, source and a rough running count of `scheme://`, `www.` and
// `@` (a regex, not a detector) to see how far to read; `--dump FILE` writes the joined text with a line
// `=== stretch N ===` before each, for reading (not committed).
// Usage: tsx bench/pick-stretches.ts --corpus multilingual [--seed N] [--count N] [--list] [--dump FILE]
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { seededRandom } from '../scripts/random.js';
import { largeDir } from './lib/paths.js';
import { STRETCHES_HEADER, shortSha256, stretchesFile } from './lib/stretches.js';

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i < 0 ? undefined : process.argv[i + 1];
};
const corpus = arg('--corpus') ?? 'multilingual';
const seed = Number(arg('--seed') ?? 3987);
const count = Number(arg('--count') ?? 60);
const MAX_BYTES = 2048;
const NL = 0x0a;

const bytes = readFileSync(path.join(largeDir, `${corpus}.txt`));
// sources/CORPUS.sources.tsv: the 1-based line where each source file starts, and its path.
const sources = readFileSync(path.join(largeDir, 'sources', `${corpus}.sources.tsv`), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((r) => {
    const [line, , rel] = r.split('\t') as [string, string, string];
    return { line: Number(line), rel };
  });

/** 1-based line number of a byte offset (counts line breaks before it). */
function lineOf(at: number): number {
  let n = 1;
  for (let i = bytes.indexOf(NL); i >= 0 && i < at; i = bytes.indexOf(NL, i + 1)) n++;
  return n;
}

function sourceOf(at: number): string {
  const line = lineOf(at);
  let found = '';
  for (const s of sources) {
    if (s.line > line) break;
    found = s.rel;
  }
  return found;
}

const lineEnd = (from: number): number => {
  const nl = bytes.indexOf(NL, from);
  return nl < 0 ? bytes.length : nl + 1;
};

const rand = seededRandom(seed);
const picked: { start: number; end: number }[] = [];
while (picked.length < count) {
  const at = Math.floor(rand() * bytes.length);
  const start = at === 0 || bytes[at - 1] === NL ? at : lineEnd(at);
  if (start >= bytes.length) continue;
  let end = lineEnd(start);
  while (end < bytes.length && lineEnd(end) - start <= MAX_BYTES) end = lineEnd(end);
  if (picked.some((p) => start < p.end && p.start < end)) continue;
  picked.push({ start, end });
}

const rough = (s: string): number => (s.match(/[a-z][a-z0-9+.-]*:\/\/|www\.|@/gi) ?? []).length;
const rows = picked.map((p, i) => ({
  id: i + 1,
  ...p,
  text: bytes.subarray(p.start, p.end).toString('utf8'),
  sha: shortSha256(bytes.subarray(p.start, p.end)),
  source: sourceOf(p.start),
}));

if (process.argv.includes('--list')) {
  let total = 0;
  for (const r of rows) {
    total += rough(r.text);
    console.log(`${r.id}\t${r.end - r.start}\t${total}\t${r.source}`);
  }
} else if (arg('--dump') !== undefined) {
  writeFileSync(arg('--dump')!, rows.map((r) => `=== stretch ${r.id} ===\n${r.text}`).join(''));
} else {
  const out = [
    STRETCHES_HEADER,
    `# bench/pick-stretches.ts --corpus ${corpus} --seed ${seed} --count ${count}`,
    ...rows.map((r) => [r.id, r.start, r.end, r.sha, r.source].join('\t')),
  ];
  writeFileSync(stretchesFile(corpus), out.join('\n') + '\n');
  console.log(out.join('\n'));
}
