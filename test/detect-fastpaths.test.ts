// The scanner's fast paths give the answers of the steps they stand in for (H12, performance):
// - surelyNoLink (scanner.ts): a trigger it rejects is one atDot / atColon would reject too, whatever the segment;
// - isTld's ASCII trie (domains.ts): the same answer as the TLD set, for every case and prefix.
import { expect } from 'chai';
import fc from 'fast-check';
import { atDot, isTld } from '../src/detect/domains.js';
import { resolveOptions, type LinkOptions } from '../src/detect/options.js';
import { surelyNoLink } from '../src/detect/scanner.js';
import { ScanState } from '../src/detect/state.js';
import { DEFAULT_TLDS } from '../src/detect/tlds.js';
import { atColon } from '../src/detect/url.js';

/** A state over the whole of `text` as one segment (the most any back-scan may see). */
function stateOver(text: string, options?: LinkOptions): ScanState {
  const st = new ScanState(resolveOptions(options));
  st.reset(text, 0, true);
  return st;
}

/** Runs the step for the trigger at `t` on a fresh whole-text state; true when it found a link. */
function stepFinds(text: string, t: number, options?: LinkOptions): boolean {
  const st = stateOver(text, options);
  return text.charCodeAt(t) === 0x3a ? atColon(st, t) : atDot(st, t);
}

function tldOf(text: string, options?: LinkOptions): boolean {
  return isTld(stateOver(text, options), 0, text.length);
}

// Pieces around triggers: prose punctuation, schemes, hosts, digits, non-ASCII letters, full-width, CJK.
const TOKENS = [
  '.', '.', ':', ':', '。', ' ', '\n', 'a', 'Z', '5', '-', '_', '/', '//', '?', '@', '#', '(', ')', '"', ',', ';',
  'com', 'COM', 'org', 'jp', 'md', 'e.g', 'http', 'https', 'mailto', 'tel', 'urn', 'x', 'www', 'ä', 'é', '例え',
  'テスト', 'ｃｏｍ', '．', 'vermögensberatung', 'xn--p1ai', '\u202e', '😀',
];

describe('detect fast paths', () => {
  it('surelyNoLink rejects only triggers that atDot / atColon reject', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...TOKENS), { minLength: 1, maxLength: 16 }), (parts) => {
        const text = parts.join('');
        for (let t = 0; t + 2 < text.length; t++) {
          const c = text.charCodeAt(t);
          if (c !== 0x2e && c !== 0x3a && c !== 0x3002) continue;
          if (surelyNoLink(text, t)) expect(stepFinds(text, t), `trigger ${t} in ${JSON.stringify(text)}`).to.equal(false);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('surelyNoLink takes the common prose triggers and leaves link triggers to the steps', () => {
    // rejected:          `. ` `.\n` `..` `.)` `: ` `:x` after space `:/x` `::`
    for (const [text, t] of [['end. Next', 3], ['end.\nNext', 3], ['wait.. ok', 4], ['(see it.) ok', 7], ['Note: see', 4], ['a :x y', 2], ['x:/y z', 1], ['a::b c', 1]] as const) {
      expect(surelyNoLink(text, t), text).to.equal(true);
    }
    // decided by the steps: `.com`, `.5` (a label could start), `://`, `tel:+`, `urn:x`, `magnet:?`, `.例`
    for (const [text, t] of [['see example.com ok', 11], ['3.5 GHz', 1], ['http://x.jp', 4], ['tel:+1 ok', 3], ['urn:isbn ok', 3], ['magnet:?xt ok', 6], ['http://例え.テスト', 9]] as const) {
      expect(surelyNoLink(text, t), text).to.equal(false);
    }
  });

  it('isTld: every listed ASCII TLD in lower, upper and mixed case; prefixes and extensions as the set says', () => {
    let checked = 0;
    for (const tld of DEFAULT_TLDS) {
      if (/[^\x00-\x7f]/.test(tld)) continue;
      const mixed = tld.charAt(0).toUpperCase() + tld.slice(1);
      for (const form of [tld, tld.toUpperCase(), mixed]) expect(tldOf(form), form).to.equal(true);
      const prefix = tld.slice(0, -1);
      if (prefix.length > 0) expect(tldOf(prefix), prefix).to.equal(DEFAULT_TLDS.has(prefix));
      expect(tldOf(tld + 'q'), tld + 'q').to.equal(DEFAULT_TLDS.has(tld + 'q'));
      checked++;
    }
    expect(checked).to.be.greaterThan(1000);
  });

  it('isTld: U-labels, an ASCII start that goes on in non-ASCII, full-width letters, non-LDH characters', () => {
    expect(tldOf('vermögensberatung')).to.equal(true); // `verm` is no prefix of an ASCII TLD
    expect(tldOf('VERMÖGENSBERATUNG')).to.equal(true);
    expect(tldOf('рф')).to.equal(true);
    expect(tldOf('ｃｏｍ')).to.equal(true); // full-width, folded as UTS #46 maps it
    expect(tldOf('ｃoｍ')).to.equal(true);
    expect(tldOf('co_m')).to.equal(false);
    expect(tldOf('c0m')).to.equal(false);
    expect(tldOf('verm')).to.equal(false);
  });

  it('isTld with a custom list: LDH names through the trie, other ASCII through the set', () => {
    expect(tldOf('Intranet', { tlds: ['intranet', 'local'] })).to.equal(true);
    expect(tldOf('intra', { tlds: ['intranet', 'local'] })).to.equal(false);
    expect(tldOf('com', { tlds: ['intranet', 'local'] })).to.equal(false);
    expect(tldOf('my_tld', { tlds: ['my_tld'] })).to.equal(true);
    expect(tldOf('MY_TLD', { tlds: ['my_tld'] })).to.equal(true);
    expect(tldOf('my', { tlds: ['my_tld'] })).to.equal(false);
  });
});
