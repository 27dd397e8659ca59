// src/lazy.ts: importing irilink loads none of its CommonJS dependencies that a caller may never need; each is loaded
// at the first call that needs it. Checked in a fresh Node process on the built package entry (dist/index.js, built
// by `npm test`'s pretest), since this process has loaded them all long ago.
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
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
    // A stream, and what follows its end (src/stream/transform.ts keeps a stream of samples a little after it).
    const streamed = `const s = irilink.createLinkStream(); s.resume(); s.end('see https://example.org/a and mail@example.com');
      await new Promise((resolve) => s.on('end', resolve)); await new Promise((resolve) => setTimeout(resolve, 300));`;
    expect(loadedAfter(streamed)).to.deep.equal([]);
    const found = `irilink.findLinks('see https://example.org/a'); await new Promise((resolve) => setTimeout(resolve, 300));`;
    expect(loadedAfter(found)).to.deep.equal([]);
  });

  it('are loaded by the first call that needs each', () => {
    expect(loadedAfter(`irilink.findLinks('see https://例え.jp/パス');`)).to.deep.equal(['tr46']);
    expect(loadedAfter(`irilink.createLinkStream({ encoding: 'shift_jis' });`)).to.deep.equal(['iconv-lite']);
    expect(loadedAfter(`irilink.createRenderStream('html');`)).to.deep.equal(['through2']);
  });
});

/**
 * Whether the Markdown parser (micromark, ESM: not in the CommonJS cache) was loaded in a fresh process that ran
 * `script` (an ES module with `dist` bound to the built dist/ folder's URL). A module hook notes every micromark
 * module that is loaded, in a file.
 */
function micromarkLoaded(script: string): boolean {
  const dir = mkdtempSync(path.join(tmpdir(), 'irilink-lazy-'));
  try {
    const log = path.join(dir, 'loaded.txt');
    const hook =
      `import { appendFileSync } from 'node:fs';` +
      `export async function load(url, context, next) {` +
      `  if (url.includes('/node_modules/micromark')) appendFileSync(${JSON.stringify(log)}, url + '\\n');` +
      `  return next(url, context);` +
      `}`;
    const register = `import { register } from 'node:module'; register(${JSON.stringify('data:text/javascript,' + encodeURIComponent(hook))});`;
    const dist = pathToFileURL(path.join(repoRoot, 'dist')).href;
    const body = `const dist = ${JSON.stringify(dist)};\n${script}\nconsole.log('done');`;
    const out = execFileSync(process.execPath, ['--import', 'data:text/javascript,' + encodeURIComponent(register), '--input-type=module', '-e', body], {
      cwd: repoRoot,
      encoding: 'utf8',
    });
    expect(out.trim()).to.equal('done');
    let loaded = '';
    try {
      loaded = readFileSync(log, 'utf8');
    } catch {
      // no micromark module was loaded: the hook wrote nothing
    }
    return loaded.length > 0;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the Markdown parser is loaded at the first Markdown write (src/stream/transform.ts)', function () {
  this.timeout(30_000);

  const linkAll = (options: string, input: string): string => `
    const { createLinkStream } = await import(dist + '/stream/transform.js');
    const s = createLinkStream(${options});
    const out = [];
    s.on('data', (c) => out.push(c.text));
    s.end(${JSON.stringify(input)});
    await new Promise((resolve, reject) => { s.on('end', resolve); s.on('error', reject); });
    if (out.join('') !== ${JSON.stringify(input)}) throw new Error('chunks lost');
  `;

  it('is loaded by the package entry (linkifyMarkdown is synchronous)', () => {
    expect(micromarkLoaded(`await import(dist + '/index.js');`)).to.equal(true);
  });

  it('is not loaded by the command line and the plain stream, nor by a Markdown stream before its first write', () => {
    expect(micromarkLoaded(`await import(dist + '/cli/main.js');`)).to.equal(false);
    expect(micromarkLoaded(linkAll('{}', 'see https://example.org/a'))).to.equal(false);
    expect(micromarkLoaded(`const { createLinkStream } = await import(dist + '/stream/transform.js'); createLinkStream({ markdown: true });`)).to.equal(false);
  });

  it('is loaded by a Markdown stream at its first write, or at its end when nothing was written', () => {
    expect(micromarkLoaded(linkAll('{ markdown: true }', 'see `https://no.example` https://example.org/a'))).to.equal(true);
    expect(micromarkLoaded(linkAll('{ markdown: true, gfm: false }', ''))).to.equal(true);
  });
});
