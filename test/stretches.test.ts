// The labelled stretches of the built corpora (corpora/stretches): the files are well-formed on any checkout; where
// `npm run corpora` has built the corpus, every stretch still has its recorded bytes, every label slices the text
// to exactly its text, and irilink's findLinks (from the package entry) finds exactly the labelled links of each
// stretch, but for the errors listed below. Without the corpus the text checks cannot run: the test names say so.
import { expect } from 'chai';
import { parseLinksTsv } from '../bench/lib/links-tsv.js';
import { largeCorpusPath } from '../bench/lib/paths.js';
import {
  joinedStretchText,
  parseStretches,
  readStretches,
  stretchCases,
  stretchCorpora,
  stretchesFile,
  stretchLinksFile,
} from '../bench/lib/stretches.js';
import { findLinks } from '../src/index.js';
import { linkErrors } from './support/labelled-links.js';

/**
 * irilink's errors on the stretches, found by the labels and left in irilink, so that the test pins them as the
 * accuracy figure does: links irilink finds that are not labelled (`extra`) and labelled links it does not find with
 * that span (`missed`), as `stretch id: text`, in text order. A fix in irilink shortens the list; a label found
 * wrong is corrected in the .links.tsv with a # line saying what was wrong, never listed here.
 */
const knownErrors: Record<string, { extra: string[]; missed: string[] }> = {
  'en-mixed': { extra: [], missed: [] },
  logs: { extra: [], missed: [] },
  markdown: { extra: [], missed: [] },
  multilingual: { extra: [], missed: [] },
};

describe('corpora/stretches', () => {
  it('labels the multilingual, en-mixed, markdown and logs corpora, each with its list of known errors', () => {
    expect(stretchCorpora()).to.deep.equal(['en-mixed', 'logs', 'markdown', 'multilingual']);
    expect(Object.keys(knownErrors).sort()).to.deep.equal(stretchCorpora());
  });

  it('the stretches parser rejects malformed rows', () => {
    const header = 'id\tbyteStart\tbyteEnd\tsha256\tsource\n';
    expect(() => parseStretches('x.tsv', 'id byteStart\n')).to.throw(/x.tsv:1: header/);
    expect(() => parseStretches('x.tsv', header + '1\t0\t9\t0123456789abcdef\n')).to.throw(/expected 5/);
    expect(() => parseStretches('x.tsv', header + '1\t9\t9\t0123456789abcdef\ta\n')).to.throw(/empty stretch/);
    expect(() => parseStretches('x.tsv', header + '1\t0\t9\t0123\ta\n')).to.throw(/16 lower-case hex/);
    expect(() => parseStretches('x.tsv', header + '2\t0\t9\t0123456789abcdef\ta\n')).to.throw(/ids must run/);
    expect(parseStretches('x.tsv', header + '# why\n1\t0\t9\t0123456789abcdef\ta/b\n')).to.deep.equal([
      { id: 1, byteStart: 0, byteEnd: 9, sha256: '0123456789abcdef', source: 'a/b' },
    ]);
  });

  for (const corpus of stretchCorpora()) {
    describe(corpus, () => {
      it('the stretches are in draw order and do not overlap; the labels are in order, ASCII uris with a scheme', () => {
        const stretches = parseStretches(stretchesFile(corpus));
        expect(stretches.length).to.be.greaterThan(0);
        for (const [i, s] of stretches.entries()) {
          for (const t of stretches.slice(0, i)) {
            expect(s.byteStart >= t.byteEnd || s.byteEnd <= t.byteStart, `stretch ${s.id} overlaps ${t.id}`).to.equal(true);
          }
        }
        let prevEnd = 0;
        for (const r of parseLinksTsv(stretchLinksFile(corpus))) {
          expect(r.start, `line ${r.line} starts before the previous link ends`).to.be.at.least(prevEnd);
          expect(r.end - r.start, `line ${r.line}`).to.equal(r.text.length);
          expect(r.uri, `line ${r.line}`).to.match(/^[a-z][a-z0-9+.-]*:[\x21-\x7e]+$/);
          prevEnd = r.end;
        }
      });

      if (largeCorpusPath(`${corpus}.txt`) === undefined) {
        it(`corpora/large/${corpus}.txt is not built (npm run corpora), so its text is not checked`, () => {
          expect(readStretches(corpus)).to.equal(undefined);
        });
        return;
      }

      it('every stretch has its recorded bytes and every label slices the text to its text', () => {
        const text = joinedStretchText(corpus)!;
        for (const r of parseLinksTsv(stretchLinksFile(corpus))) {
          expect(text.slice(r.start, r.end), `${corpus}.links.tsv line ${r.line}`).to.equal(r.text);
        }
      });

      it('irilink finds the labelled links of each stretch (spans, kind, uri) but for its listed errors', () => {
        const extra: string[] = [];
        const missed: string[] = [];
        for (const { stretch, expected } of stretchCases(corpus)!) {
          const e = linkErrors(findLinks(stretch.text), expected);
          extra.push(...e.extra.map((t) => `${stretch.id}: ${t}`));
          missed.push(...e.missed.map((t) => `${stretch.id}: ${t}`));
          for (const [f, l] of e.matched) expect([f.kind, f.uri], `line ${l.line}`).to.deep.equal([l.kind, l.uri]);
        }
        expect({ extra, missed }).to.deep.equal(knownErrors[corpus]);
      });
    });
  }
});

