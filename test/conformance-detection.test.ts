// UTS #58 conformance: every test line of LinkDetectionTest.txt (17.0.0 and dev), one `it` per line.
// NOTES §6: strip ⸠⸡, detect on the whole line, re-insert the markers, compare.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { sharedPath } from './support/shared.js';
import { detectMarked } from './detect-support.js';

for (const version of ['17.0.0', 'dev']) {
  describe(`UTS #58 LinkDetectionTest.txt (${version})`, () => {
    const lines = readFileSync(sharedPath('uts58', version, 'LinkDetectionTest.txt'), 'utf8').split('\n');
    const cases = lines
      .map((text, index) => ({ text, line: index + 1 }))
      .filter(({ text }) => text !== '' && !text.startsWith('#'));

    it('has the 345 test lines NOTES §6 counts', () => {
      expect(cases).to.have.length(345);
    });

    for (const { text, line } of cases) {
      it(`line ${line}: ${text}`, () => {
        expect(detectMarked(text)).to.equal(text);
      });
    }
  });
}
