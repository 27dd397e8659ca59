// Helper for writing corpora/samples/NAME.links.tsv by hand: write the rows with `?` for start and end
// (and for uri, to take the value bench/lib/expected-uri.ts computes), in text order; this fills them in by
// finding each text after the previous link, then prints the file for review. It never runs irilink.
// Usage: tsx bench/fill-links-tsv.ts corpora/samples/NAME.links.tsv
import { readFileSync, writeFileSync } from 'node:fs';
import { expectedUri } from './lib/expected-uri.js';

const file = process.argv[2];
if (file === undefined) throw new Error('usage: tsx bench/fill-links-tsv.ts corpora/samples/NAME.links.tsv');
const sample = readFileSync(file.replace(/\.links\.tsv$/, '.txt'), 'utf8');
let from = 0;
const out = readFileSync(file, 'utf8')
  .split('\n')
  .map((row, i) => {
    if (i === 0 || row === '' || row.startsWith('#')) return row;
    const [s, , kind, text, uri] = row.split('\t') as [string, string, 'url' | 'email', string, string];
    let start = Number(s);
    if (s === '?') {
      start = sample.indexOf(text, from);
      if (start < 0) throw new Error(`${file}:${i + 1}: "${text}" not found after offset ${from}`);
    }
    from = start + text.length;
    const u = uri === '?' ? expectedUri(text, kind) : uri;
    if (u === undefined) throw new Error(`${file}:${i + 1}: no computable uri for "${text}"; write it by hand`);
    return [start, start + text.length, kind, text, u].join('\t');
  })
  .join('\n');
writeFileSync(file, out);
process.stdout.write(out);
