// Helper for writing corpora/samples/NAME.links.tsv (or corpora/stretches/NAME.links.tsv) by hand: write the rows
// with `?` for start and end (and for uri, to take the value bench/lib/expected-uri.ts computes), in text order;
// this fills them in by finding each text after the previous link, then prints the file for review. It never runs
// irilink. A sample's text is NAME.txt beside the file; the stretches' text is read from the built corpus.
// Usage: tsx bench/fill-links-tsv.ts corpora/samples/NAME.links.tsv
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expectedUri } from './lib/expected-uri.js';
import { joinedStretchText, stretchesDir } from './lib/stretches.js';

const file = process.argv[2];
if (file === undefined) throw new Error('usage: tsx bench/fill-links-tsv.ts corpora/samples/NAME.links.tsv');
const name = path.basename(file).replace(/\.links\.tsv$/, '');
const sample =
  path.resolve(path.dirname(file)) === stretchesDir
    ? joinedStretchText(name)
    : readFileSync(file.replace(/\.links\.tsv$/, '.txt'), 'utf8');
if (sample === undefined) throw new Error(`corpora/large/${name}.txt is not built (npm run corpora)`);
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
