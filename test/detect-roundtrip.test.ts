// The `iri` a link is given is found whole again: findLinks(link.iri) is one link spanning all of link.iri
// (convert.ts displayIri keeps encoded what would end a bare link; RFC 3987 §3.2 lets a conversion do that).
import { expect } from 'chai';
import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findLinks } from '../src/detect/index.js';
import type { Link } from '../src/types.js';

/** Is findLinks(iri) exactly one link over the whole of iri? */
function foundWhole(iri: string): boolean {
  const again = findLinks(iri);
  return again.length === 1 && again[0]!.start === 0 && again[0]!.end === iri.length;
}

/**
 * Did the author delimit the link (a quotation mark, `<`, `<URL:` or a Markdown `](` right before it)? Such a link
 * stands as written, also where a bare one would end (`<tel:911>`, `<http://a.example/x?>`): the property is about
 * links found in running text. (Delimited links that do come back whole are tested one by one below.)
 */
function authorDelimited(text: string, l: Link): boolean {
  const before = text.slice(Math.max(0, l.start - 5), l.start);
  return /(?:[<"'«»“„‘‹「『＂＇]|\]\(|<URL:)$/i.test(before);
}

/** The links of `text` found in running text whose iri does not come back whole. */
function notWhole(text: string): string[] {
  const bad: string[] = [];
  for (const l of findLinks(text)) if (!authorDelimited(text, l) && !foundWhole(l.iri)) bad.push(l.iri);
  return bad;
}

describe('detect: the iri of a link is found whole again', () => {
  it('full-width punctuation decoded after an ASCII character stays encoded (found in review)', () => {
    const cases: [string, string][] = [
      ['https://zh.wikipedia.org/wiki/Python%EF%BC%8C%E5%85%A5%E9%97%A8', 'https://zh.wikipedia.org/wiki/Python%EF%BC%8C入门'],
      ['https://example.com/Re%EF%BC%9Ab', 'https://example.com/Re%EF%BC%9Ab'],
      ['https://example.com/Hi%EF%BC%81%E8%B0%A2', 'https://example.com/Hi%EF%BC%81谢'],
    ];
    for (const [text, iri] of cases) {
      const [link] = findLinks(text);
      expect(link, text).to.include({ text, iri });
      expect(foundWhole(link!.iri), iri).to.equal(true);
    }
  });

  it('after a non-ASCII character, in a query before ASCII, and for bidi controls the iri is as before', () => {
    expect(findLinks('https://example.cn/%E8%B7%AF%E5%BE%84%EF%BC%8C%E8%B0%A2')[0]!.iri).to.equal('https://example.cn/路径，谢');
    expect(findLinks('https://example.com/?q=a%EF%BC%8Cb')[0]!.iri).to.equal('https://example.com/?q=a，b');
    expect(findLinks('https://example.com/a%E2%80%AEb')[0]!.iri).to.equal('https://example.com/a%E2%80%AEb');
  });

  it('what a bare link would not end with or hold stays encoded: a trailing 。 or %2E, an unmatched ）', () => {
    const cases: [string, string][] = [
      ['https://example.com/a%E3%80%82', 'https://example.com/a%E3%80%82'],
      ['https://example.com/a%2E', 'https://example.com/a%2E'],
      ['https://example.com/a%EF%BC%89b', 'https://example.com/a%EF%BC%89b'],
      ['https://example.com/%E6%9D%B1%EF%BC%88%E9%83%BD%EF%BC%89', 'https://example.com/東（都）'],
      // a full-width bracket after an ASCII character in a path (terminate.ts's deviation), and its Close
      ['https://example.com/CPAN%EF%BC%88%E6%B3%A8%EF%BC%89', 'https://example.com/CPAN%EF%BC%88注%EF%BC%89'],
      ['https://example.com/a%E3%80%90b%E3%80%91', 'https://example.com/a%E3%80%90b%E3%80%91'],
      ['https://example.com/?q=a%EF%BC%88b%EF%BC%89', 'https://example.com/?q=a（b）'],
      ['mailto:a@b.com?subject=%E4%BD%A0%E5%A5%BD%E3%80%82', 'mailto:a@b.com?subject=你好%E3%80%82'],
      // P8: a Soft character before `scheme://`, or before CJK text and then `scheme://` (`%2E` decoded split it)
      ['https://example.com/a%2Ehttps://b.example/', 'https://example.com/a%2Ehttps://b.example/'],
      ['https://example.com/a%2E%2E%E6%97%A5https://b.example/', 'https://example.com/a.%2E日https://b.example/'],
      ['https://example.com/%E6%97%A5%E3%80%81https://b.example/', 'https://example.com/日%E3%80%81https://b.example/'],
    ];
    for (const [text, iri] of cases) {
      expect(findLinks(text)[0], text).to.include({ text, iri });
      expect(foundWhole(iri), iri).to.equal(true);
    }
  });

  it('a link the author delimited shows a raw ， encoded, so that its iri is one bare link', () => {
    for (const text of ['href="https://example.com/a，b"', '[x](https://example.com/a，b)', '<https://example.com/a，b>']) {
      const [link] = findLinks(text);
      expect(link, text).to.include({ text: 'https://example.com/a，b', iri: 'https://example.com/a%EF%BC%8Cb' });
      expect(foundWhole(link!.iri)).to.equal(true);
    }
  });

  it('property: generated text (fixed seed)', () => {
    const alphabet = fc.constantFrom(
      'a', 'Z', '1', '.', '/', ':', '@', '(', ')', ' ', '?', '#', '-', '=', '&', '"', '<', '>', '例', '東京', '。', '、',
      '，', '！', '·', '”', '（', '）', 'https://', 'mailto:', 'tel:+1', 'com', 'jp', 'x.y', '2.0.9-', '%40', '%2E',
      '【', '】', '%EF%BC%88', '%E3%80%90', '%EF%BC%8C', '%E3%80%82', '%EF%BC%9A', '%E2%80%9D', '%EF%BC%89', '%E2%80%AE', '%C2%B7', '%E4%BE%8B',
      // words glued to a path (glued.ts): file extensions, Korean particles, a Japanese one, their escapes
      '.html', '.js', '.tar.gz', '에서', '를', '은', '으로', 'を参照', '%EC%97%90', '%EB%A5%BC', '%EC%9C%BC',
      // P8 after a decoded Soft character
      '%2Ehttp://', '%E3%80%81ftp://',
    );
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 40 }), (parts) => {
        const text = parts.join('');
        const bad = notWhole(text);
        if (bad.length > 0) throw new Error(`${JSON.stringify(text)}: ${JSON.stringify(bad)} not found whole`);
      }),
      { numRuns: 3000, seed: 58 },
    );
  });

  it('real text: the corpus samples', () => {
    const dir = join(dirname(fileURLToPath(import.meta.url)), '..', 'corpora', 'samples');
    let links = 0;
    for (const name of readdirSync(dir).filter((f) => f.endsWith('.txt'))) {
      const text = readFileSync(join(dir, name), 'utf8');
      links += findLinks(text).length;
      expect(notWhole(text), name).to.deep.equal([]);
    }
    expect(links).to.be.greaterThan(50);
  });
});
