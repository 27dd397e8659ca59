// src/lazy.ts: importing irilink loads none of its CommonJS dependencies that a caller may never need; each is loaded
// at the first call that needs it. Checked in a fresh Node process on the built package entry (dist/index.js, built
// by `npm test`'s pretest), since this process has loaded them all long ago.
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from '../bench/lib/paths.js';

const entry = pathToFileURL(path.join(repoRoot, 'dist', 'index.js')).href;

/** The lazily loaded packages present in Node's CommonJS cache after `steps` ran in a fresh process. */
function loadedAfter(steps: string): string[] {
  const script = `
    import { createRequire } from 'node:module';
    const irilink = await import(${JSON.stringify(entry)});
    ${steps}
    const cache = Object.keys(createRequire(import.meta.url).cache);
    const names = ['iconv-lite', 'tr46', 'through2', 'cli-progress'];
    console.log(JSON.stringify(names.filter((n) => cache.some((f) => f.includes('/node_modules/' + n + '/')))));
  `;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: repoRoot, encoding: 'utf8' });
  return JSON.parse(out) as string[];
}

describe('lazy dependencies (src/lazy.ts)', function () {
  this.timeout(30_000);

  it('are not loaded by importing the package, nor by linking ASCII text', () => {
    expect(loadedAfter(`irilink.findLinks('see https://example.org/a and mail@example.com');`)).to.deep.equal([]);
  });

  it('are loaded by the first call that needs each', () => {
    expect(loadedAfter(`irilink.findLinks('see https://例え.jp/パス');`)).to.deep.equal(['tr46']);
    expect(loadedAfter(`irilink.createLinkStream({ encoding: 'shift_jis' });`)).to.deep.equal(['iconv-lite']);
    expect(loadedAfter(`irilink.createRenderStream('html');`)).to.deep.equal(['through2']);
  });
});
