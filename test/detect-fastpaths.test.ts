// The scanner's fast paths give the answers of the steps they stand in for (H12, performance):
// - surelyNoLink (scanner.ts): a trigger it rejects is one atDot / atColon would reject too, whatever the segment;
// - isTld's ASCII trie (domains.ts): the same answer as the TLD set, for every case and prefix;
// - dotSurelyNoTld and colonSurelyNoScheme (scanner.ts), which decide prose triggers before advance(): a trigger
//   they take is one the step rejects; and a whole scan gives the same result with and without every fast path of
//   setScanFastPaths (also atDot's folded label check and authorityForm's plain host run), whole, in pieces, cut;
// - the scheme trie (options.ts, url.ts schemeStart): the same schemes as the lower-cased name in the set.
import { expect } from 'chai';
import fc from 'fast-check';
import { atDot, isTld } from '../src/detect/domains.js';
import { createScanner, type ScanResult } from '../src/detect/index.js';
import { resolveOptions, type LinkOptions } from '../src/detect/options.js';
import { colonSurelyNoScheme, dotSurelyNoTld, setScanFastPaths, surelyNoLink } from '../src/detect/scanner.js';
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
  'テスト', 'ｃｏｍ', '．', 'vermögensberatung', 'xn--p1ai', '\u202e', '😀', 'を参照してくださいこれは長い日本語の文章です',
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

  it('dotSurelyNoTld rejects only dots that atDot rejects at its step 1, and resumes where atDot does', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...TOKENS, ...DOT_TOKENS), { minLength: 1, maxLength: 16 }), (parts) => {
        const text = parts.join('');
        for (let t = 0; t < text.length; t++) {
          if (text.charCodeAt(t) !== 0x2e) continue;
          for (const limit of [text.length, t + 3, t + 5]) {
            const st = stateOver(text);
            const next = dotSurelyNoTld(text, t, Math.min(limit, text.length), st.tldTrie, st.opts.tldMaxLength);
            if (next < 0) continue;
            const where = `dot ${t} in ${JSON.stringify(text)}, limit ${limit}`;
            expect(atDot(st, t), where).to.equal(false);
            expect(next, where).to.equal(st.next);
          }
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('dotSurelyNoTld takes prose dots and leaves TLDs, non-ASCII labels and the end of the room to atDot', () => {
    const st = stateOver('');
    const take = (text: string, t: number, limit = text.length): number => dotSurelyNoTld(text, t, limit, st.tldTrie, st.opts.tldMaxLength);
    expect(take('e.g. this', 1)).to.equal(3); // `g` is no TLD
    expect(take('3.5 GHz', 1)).to.equal(3);
    expect(take('v1.2.3 ok', 2)).to.equal(4);
    expect(take('end. Next', 3)).to.equal(4); // empty label
    expect(take('a.' + 'x'.repeat(80) + ' ok', 1)).to.equal(2 + st.opts.tldMaxLength + 1); // longer than any TLD
    expect(take('see example.com ok', 11)).to.equal(-1);
    expect(take('see example.COM ok', 11)).to.equal(-1);
    expect(take('see example.co', 11)).to.equal(-1); // the label runs to the end of the room
    expect(take('see example.cox ok', 11, 14)).to.equal(-1); // …or to the cut
    expect(take('x.comを参照', 1)).to.equal(-1); // a non-ASCII character: atDot decides
    expect(take('x.рф ok', 1)).to.equal(-1);
  });

  it('colonSurelyNoScheme rejects only colons that atColon rejects', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...TOKENS, ...COLON_TOKENS), { minLength: 1, maxLength: 16 }), (parts) => {
        const text = parts.join('');
        for (let t = 0; t < text.length; t++) {
          if (text.charCodeAt(t) !== 0x3a || !colonSurelyNoScheme(text, t)) continue;
          expect(stepFinds(text, t), `colon ${t} in ${JSON.stringify(text)}`).to.equal(false);
        }
      }),
      { numRuns: 3000 },
    );
    expect(colonSurelyNoScheme('at 12:30 ok', 5)).to.equal(true);
    expect(colonSurelyNoScheme('ratio 1.5:1', 9)).to.equal(true);
    expect(colonSurelyNoScheme('x ' + '1'.repeat(40) + ':y', 42)).to.equal(true);
    expect(colonSurelyNoScheme('see http://x.jp', 8)).to.equal(false);
    expect(colonSurelyNoScheme('a1:b', 2)).to.equal(false);
  });

  it('a scan gives the same result with and without the fast paths (whole, in pieces, with cuts)', () => {
    const scanAll = (text: string, options: LinkOptions | undefined, size: number): ScanResult[] => {
      const scanner = createScanner(options);
      const out: ScanResult[] = [];
      let buf = '';
      let base = 0;
      let from = 0;
      let resume: ScanResult['resume'];
      for (let i = 0; ; i += size) {
        buf += text.slice(i, i + size);
        const final = i + size >= text.length;
        const r = scanner.scan(buf, from, final, base, resume);
        out.push(r);
        if (final) return out;
        const k = Math.max(0, r.settled - scanner.contextLength);
        buf = buf.slice(k);
        base += k;
        from = r.settled - k;
        resume = r.resume === undefined ? undefined : { ...r.resume, at: r.resume.at - k, lowerLimit: r.resume.lowerLimit - k };
      }
    };
    const both = (text: string, options: LinkOptions | undefined, size: number): void => {
      const fast = scanAll(text, options, size);
      const was = setScanFastPaths(false);
      let plain: ScanResult[];
      try {
        plain = scanAll(text, options, size);
      } finally {
        setScanFastPaths(was);
      }
      expect(fast, `${JSON.stringify(text)} in pieces of ${size}, ${JSON.stringify(options)}`).to.deep.equal(plain);
    };
    let links = 0;
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...TOKENS, ...DOT_TOKENS, ...COLON_TOKENS, ...LINK_TOKENS), { minLength: 1, maxLength: 60 }),
        fc.integer({ min: 1, max: 70 }),
        fc.nat({ max: 63 }),
        (parts, size, pad) => {
          const text = parts.join('');
          both(text, undefined, text.length);
          both(text, undefined, size);
          both(text, { maxLinkLength: 64 }, size);
          // Without whitespace the segments are cut every 64 units: cuts fall next to the triggers, wherever `pad` puts them.
          both('y'.repeat(pad) + text.replace(/[ \n\t]/g, '-'), { maxLinkLength: 64 }, size);
          both(text, { tlds: ['com', 'org', '-x', 'y-', 'md'] }, size); // TLDs that start or end with a hyphen
          links += createScanner().scan(text, 0, true, 0).links.length;
        },
      ),
      { numRuns: 1500 },
    );
    expect(links).to.be.greaterThan(300); // the texts hold links, not only prose
  });

  it('a scheme right after a link cut at maxLinkLength is part of the cut link\'s run, with either path', () => {
    // `…a.` ends the cut link (64 units); `tel:+1-201` was linked from a floor at the cut, a part of the URL the cut
    // shortened. The rest of the run up to the space is the cut link's (scanner.ts cutRunEnd); after the space a
    // scheme is decided as anywhere else.
    const cutLink = 'http://example.com/' + 'a'.repeat(44);
    for (const fast of [true, false]) {
      const was = setScanFastPaths(fast);
      try {
        for (const glue of ['.', '-']) {
          const text = `${cutLink}${glue}tel:+1-201 ok tel:+1-202`;
          const links = createScanner({ maxLinkLength: 64 }).scan(text, 0, true, 0).links;
          expect(links.map((l) => [l.text, l.diagnostics]), text).to.deep.equal([
            [cutLink + glue, ['link-too-long']],
            ['tel:+1-202', []],
          ]);
        }
      } finally {
        setScanFastPaths(was);
      }
    }
  });

  it('schemes: listed and never-linked names in any case, dotted prefixes, names the list does not hold', () => {
    const found = (text: string, options?: LinkOptions): string[] => createScanner(options).scan(text, 0, true, 0).links.map((l) => l.text);
    expect(found('see HTTPS://example.com/a and Tel:+1-201-555-0123 ok')).to.deep.equal(['HTTPS://example.com/a', 'Tel:+1-201-555-0123']);
    expect(found('see the page.https://example.com/a ok')).to.deep.equal(['https://example.com/a']);
    expect(found('JavaScript://example.com/%0Aalert(1) x.javascript://a.jp/ ok')).to.deep.equal([]);
    expect(found('stroke:none fill:#000 font-size:12px tel:+1-201 ok', { schemes: ['fill', 'tel'] })).to.deep.equal(['fill:#000', 'tel:+1-201']);
    expect(found('x.Fill:#000 ok', { schemes: ['fill'] })).to.deep.equal(['Fill:#000']);
    expect(found('telx:+1 te:+1 ok')).to.deep.equal([]);
  });
});

/** Texts around dots: labels that are TLDs, prefixes of TLDs, too long for one, digits, cases, hyphens. */
const DOT_TOKENS = ['.-x', '.y-', 'e.g.', '3.5', 'v1.2.3', '.c', '.co', '.com', '.comx', '.Org', '.x', '.' + 'q'.repeat(30), '.xn--p1ai', '.-', 'Q'];
/** Texts around colons: times, ratios, digits before a scheme, prose and markup colons. */
const COLON_TOKENS = ['12:30', '1.5:1', '+1:', 'a1:', 'x-1:', 'font-size:12px', 'Note:', 'http:', 'tel:+1', '9:'];
/** Whole links, so that the random texts hold some next to the prose triggers. */
const LINK_TOKENS = [
  ' example.com ', 'http://a.jp/x.y', ' x@y.org', 'www.例え.jp', 'tel:+1-2', ' ok.md ', 'https://x_y.z:80/p', 'http://u@h.jp',
  'http://a-.b/', 'https://a.b. ', 'ftp://[::1]/', ' -a.com', 'a-.com ', 'x..com', 'b.-c.org', 'file:///x', 'http://例え.jp',
];
