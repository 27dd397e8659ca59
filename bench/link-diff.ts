// What a detection change does over the whole corpora: findLinks of two builds of irilink on every corpus in 1 MB
// slices (cut to whole lines), and every link that one finds and the other does not (by exact span). Links are
// `removed` (only in the base), `added` (only in this build) or, when a removed and an added link overlap, `changed`;
// a link both find with the same span but another field different (`uri`, `iri`, `kind`, `scheme`, `diagnostics`, …)
// is `converted`.
//
//   npm run build && tsx bench/link-diff.ts --base OTHER/dist/index.js [--corpus en-mixed,…] [--out STEM]
//
// Writes STEM.md (counts per corpus and up to 40 examples of each kind, spread over the list) and STEM.jsonl (every
// difference). Not part of `npm test` or `npm run bench`.
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureDir, largeDir, repoRoot, resultsDir } from './lib/paths.js';
import { linePieces, markedLine } from './lib/pieces.js';
import type { Link } from '../src/types.js';

type FindLinks = (text: string) => Link[];

async function load(entry: string): Promise<FindLinks> {
  const mod = (await import(pathToFileURL(path.resolve(entry)).href)) as { findLinks?: FindLinks };
  if (typeof mod.findLinks !== 'function') throw new Error(`link-diff: ${entry} exports no findLinks`);
  return mod.findLinks;
}

interface Diff {
  corpus: string;
  kind: 'removed' | 'added' | 'changed' | 'converted';
  base?: string;
  now?: string;
  context: string;
}

function context(text: string, a: number, b: number, marks: [number, string][]): string {
  return markedLine(text, Math.max(0, a - 40), Math.min(text.length, b + 40), marks);
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  let base: string | undefined;
  let corpora = ['en-mixed', 'multilingual', 'mail', 'markdown', 'logs'];
  let out = path.join(resultsDir, 'link-diff');
  for (let i = 0; i < argv.length; i += 2) {
    if (argv[i] === '--base') base = argv[i + 1];
    else if (argv[i] === '--corpus') corpora = argv[i + 1]!.split(',');
    else if (argv[i] === '--out') out = path.resolve(argv[i + 1]!);
    else throw new Error(`link-diff: unknown argument ${argv[i]}`);
  }
  if (base === undefined) throw new Error('link-diff: --base path/to/dist/index.js is required');
  const before = await load(base);
  const now = await load(path.join(repoRoot, 'dist', 'index.js'));
  const diffs: Diff[] = [];
  const counts: string[] = [
    '| corpus | links (base) | links (now) | removed | added | changed | converted |',
    '|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const corpus of corpora) {
    const file = path.join(largeDir, `${corpus}.txt`);
    if (!existsSync(file)) continue;
    let nBase = 0;
    let nNow = 0;
    const c = { removed: 0, added: 0, changed: 0, converted: 0 };
    for await (const text of linePieces(file, Infinity, 1e6)) {
      const a = before(text);
      const b = now(text);
      nBase += a.length;
      nNow += b.length;
      const key = (l: Link): string => `${l.start}:${l.end}`;
      const inB = new Set(b.map(key));
      const inA = new Set(a.map(key));
      const gone = a.filter((l) => !inB.has(key(l)));
      const come = b.filter((l) => !inA.has(key(l)));
      const paired = new Set<Link>();
      for (const g of gone) {
        const n = come.find((l) => l.start < g.end && g.start < l.end && !paired.has(l));
        if (n !== undefined) {
          paired.add(n);
          c.changed++;
          const marks: [number, string][] = [
            [g.start, '⟦'],
            [g.end, '⟧'],
            [n.start, '⸠'],
            [n.end, '⸡'],
          ];
          diffs.push({ corpus, kind: 'changed', base: g.text, now: n.text, context: context(text, Math.min(g.start, n.start), Math.max(g.end, n.end), marks) });
        } else {
          c.removed++;
          diffs.push({ corpus, kind: 'removed', base: g.text, context: context(text, g.start, g.end, [[g.start, '⟦'], [g.end, '⟧']]) });
        }
      }
      for (const n of come) {
        if (paired.has(n)) continue;
        c.added++;
        diffs.push({ corpus, kind: 'added', now: n.text, context: context(text, n.start, n.end, [[n.start, '⸠'], [n.end, '⸡']]) });
      }
      const sameSpan = new Map(a.map((l) => [key(l), l]));
      for (const n of b) {
        const o = sameSpan.get(key(n));
        if (o === undefined) continue;
        const was = JSON.stringify(o);
        const is = JSON.stringify(n);
        if (was === is) continue;
        c.converted++;
        diffs.push({ corpus, kind: 'converted', base: was, now: is, context: context(text, n.start, n.end, [[n.start, '⸠'], [n.end, '⸡']]) });
      }
    }
    counts.push(`| ${corpus} | ${nBase} | ${nNow} | ${c.removed} | ${c.added} | ${c.changed} | ${c.converted} |`);
    console.error(counts[counts.length - 1]);
  }
  ensureDir(path.dirname(out));
  writeFileSync(`${out}.jsonl`, diffs.map((d) => JSON.stringify(d)).join('\n') + (diffs.length > 0 ? '\n' : ''));
  const lines = ['# irilink, base build against this one, over the whole corpora (bench/link-diff.ts)', '', ...counts, ''];
  lines.push('⟦…⟧ the base build\'s link, ⸠…⸡ this build\'s.', '');
  for (const kind of ['removed', 'added', 'changed', 'converted'] as const) {
    const list = diffs.filter((d) => d.kind === kind);
    lines.push(`## ${kind} (${list.length})`, '');
    const step = Math.max(1, Math.floor(list.length / 40));
    for (let i = 0; i < list.length && i / step < 40; i += step) {
      const d = list[i]!;
      lines.push(`- ${d.corpus} \`${d.context.replace(/`/g, 'ˋ')}\``);
      if (kind === 'converted') lines.push(`  - base: \`${d.base!.replace(/`/g, 'ˋ')}\``, `  - now: \`${d.now!.replace(/`/g, 'ˋ')}\``);
    }
    lines.push('');
  }
  writeFileSync(`${out}.md`, lines.join('\n'));
  console.error(`wrote ${out}.md and ${out}.jsonl (${diffs.length} differences)`);
}

await main();
