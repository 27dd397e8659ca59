// Hostile inputs for the bench (STYLE.md habit 12; DESIGN.md "time linear in input size, also on hostile
// input"). Each one targets a way a linkifier can go quadratic or unbounded:
//   a-dot      `a.` × 1,000,000       every dot is a candidate TLD boundary (backward host scans)
//   paren      `http://x/` + `(` × 100,000   an ever-growing bracket stack / backtracking on brackets
//   long-line  one 10 MB line without spaces, starting `https://example.com/`   one link candidate of 10 MB
//   at         `@` × 1,000,000        every `@` triggers an email back-scan
//   colon      `:` × 1,000,000        every `:` is a scheme trigger
// Usage: tsx bench/gen-hostile.ts [--scale F]   (F < 1 makes smaller copies, e.g. for a quick run)
import { existsSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDir, generatedDir } from './lib/paths.js';

export interface HostileSpec {
  name: string;
  /** What it is, for the tables. */
  shape: string;
  /** True when a correct linkifier finds at least one link in it (the bench asserts irilink does). */
  hasLinks: boolean;
  make(scale: number): string;
}

export const hostileSpecs: HostileSpec[] = [
  { name: 'hostile-a-dot', shape: '`a.` × 1 M', hasLinks: false, make: (s) => 'a.'.repeat(Math.round(1_000_000 * s)) },
  {
    name: 'hostile-paren',
    shape: '`http://x/` + `(` × 100 k',
    hasLinks: true,
    make: (s) => 'http://x/' + '('.repeat(Math.round(100_000 * s)),
  },
  {
    name: 'hostile-long-line',
    shape: 'one 10 MB line, no spaces',
    hasLinks: true,
    make: (s) => {
      const head = 'https://example.com/';
      const unit = 'path/seg-ment_0.9?q=v&k=w#frag~'; // only characters that may continue a URL
      const total = Math.round(10_000_000 * s);
      return head + unit.repeat(Math.ceil((total - head.length) / unit.length)).slice(0, total - head.length);
    },
  },
  { name: 'hostile-at', shape: '`@` × 1 M', hasLinks: false, make: (s) => '@'.repeat(Math.round(1_000_000 * s)) },
  { name: 'hostile-colon', shape: '`:` × 1 M', hasLinks: false, make: (s) => ':'.repeat(Math.round(1_000_000 * s)) },
];

export function hostilePath(name: string, scale: number): string {
  return path.join(generatedDir, 'hostile', scale === 1 ? `${name}.txt` : `${name}.x${scale}.txt`);
}

/** Writes the hostile file if it is not there yet and returns its path (the content is deterministic). */
export function ensureHostile(spec: HostileSpec, scale = 1): string {
  const file = hostilePath(spec.name, scale);
  const text = spec.make(scale);
  if (!existsSync(file) || statSync(file).size !== Buffer.byteLength(text)) {
    ensureDir(path.dirname(file));
    writeFileSync(file, text);
  }
  return file;
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const i = process.argv.indexOf('--scale');
  const scale = i > 0 ? Number(process.argv[i + 1]) : 1;
  for (const spec of hostileSpecs) console.log(ensureHostile(spec, scale));
}
