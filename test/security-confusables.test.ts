// The generated confusables table (src/unicode/confusables.generated.ts) against its source, and its shape.
// The source is the `unhomoglyph` dev package's data.json (confusables.txt 13.0.0; see scripts/gen-confusables.mjs).
import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { CONFUSABLE_SOURCES, CONFUSABLE_TARGETS, CONFUSABLE_TARGET_INDEX } from '../src/unicode/confusables.generated.js';
import { CONFUSABLES_SOURCE, CONFUSABLES_VERSION, confusablePrototype } from '../src/unicode/confusables.js';

function sourceData(): Record<string, string> | null {
  try {
    const pkg = createRequire(import.meta.url).resolve('unhomoglyph/package.json');
    const data = join(dirname(pkg), 'data.json');
    return existsSync(data) ? (JSON.parse(readFileSync(data, 'utf8')) as Record<string, string>) : null;
  } catch {
    return null;
  }
}

describe('security: the generated confusables table', () => {
  it(`is labelled with its source and version (${CONFUSABLES_SOURCE})`, () => {
    expect(CONFUSABLES_VERSION).to.match(/^\d+\.\d+\.\d+$/);
    expect(CONFUSABLES_SOURCE).to.include(`confusables.txt ${CONFUSABLES_VERSION}`);
  });

  it('has ascending sources and a prototype for each', () => {
    const deltas = CONFUSABLE_SOURCES.split(',').map((d) => parseInt(d, 36));
    const indices = CONFUSABLE_TARGET_INDEX.split(',').map((d) => parseInt(d, 36));
    expect(deltas.length).to.equal(indices.length).and.to.be.greaterThan(6000);
    expect(deltas.slice(1).every((d) => d > 0)).to.equal(true);
    expect(indices.every((i) => i >= 0 && i < CONFUSABLE_TARGETS.length)).to.equal(true);
  });

  const data = sourceData();
  if (data === null) {
    it('source not reachable (the unhomoglyph dev package is not installed): the table is NOT re-checked against it', () => {
      expect(CONFUSABLES_SOURCE).to.match(/^unhomoglyph@/);
    });
  } else {
    it('maps every source code point of the data to its prototype, and nothing else', () => {
      let count = 0;
      for (const [from, to] of Object.entries(data)) {
        expect(confusablePrototype(from.codePointAt(0)!), from).to.equal(to);
        count++;
      }
      expect(CONFUSABLE_SOURCES.split(',').length).to.equal(count);
      // a few code points the data leaves as their own prototype
      for (const cp of [0x61, 0x6c, 0x3042, 0x10ffff]) expect(confusablePrototype(cp)).to.equal(undefined);
    });
  }
});
