// A held bracket (src/detect/terminate.ts: a `<` without its `>`, a CJK or full-width bracket opening an aside after
// an ASCII path character), both labelled deviations from UTS #58 §3.5.1. Review findings: the
// pair of an aside is the link's when the link ends past its Close; a held bracket is not kept by the maxLinkLength
// cut; the `<` rule lets a link delimited by quotation marks or a Markdown destination stand; and the scan stays
// linear — reads are COUNTED on hostile text, never timed.
import { expect } from 'chai';
import { findLinks } from '../src/detect/index.js';
import { HELD_LOOKAHEAD } from '../src/detect/terminate.js';
import { itMarks } from './detect-support.js';

describe('detect: the pair of an aside is the link’s when the link ends past its Close (RB finding 3)', () => {
  itMarks([
    // ASCII of the link after a Soft or Open character that follows the Close
    '⸠https://example.com/a（b）.html⸡ ⸠https://example.com/a（b）?q=1⸡ ⸠https://example.com/a（b）:c⸡',
    '⸠https://example.com/a（b）(c)d⸡ ⸠https://example.com/a(（b）)c⸡ ⸠https://example.com/a（c）<b>⸡',
    '⸠https://example.com/a(（b）)⸡ ⸠https://example.com/a（b）-⸡ ⸠https://example.com/a（b）#f⸡',
    // the link ends at the Close (a Soft character after it is dropped): the aside is left out, as before
    '⸠https://example.com/a⸡（b）. ⸠https://example.com/a⸡（b）!? ⸠https://example.com/a⸡（b）',
    // text that is not ASCII right after the Close is the sentence's (the aside of the reviewed rule)
    '请看 ⸠http://www.perl.com/CPAN⸡（最后头没有斜线）的说明 ⸠https://example.com/a⸡（b）的c ⸠https://example.com/a⸡（b）\u200Fc',
    // a second aside glued to the first is left out with it, unless the link goes on past both
    '⸠https://example.com/a⸡（b）（c） ⸠https://example.com/a⸡（b）【c】。 ⸠https://example.com/a（b）（c）d⸡',
    '⸠https://example.com/a（b）c⸡（d） ⸠https://example.com/a（b）c（d）e⸡',
  ]);
});

describe('detect: a held bracket is not kept by the maxLinkLength cut (RB finding 4)', () => {
  for (const [bracket, path] of [['<', '/a'], ['（', '/a'], ['<', '/?q=a'], ['<', '/#a']] as const) {
    it(`${bracket} after ${path} and 100 letters, maxLinkLength 64: the link ends before it, not too long`, () => {
      const text = `see http://x.com${path}${bracket}${'b'.repeat(100)} ok`;
      const links = findLinks(text, { maxLinkLength: 64 });
      expect(links.map((l) => text.slice(l.start, l.end))).to.deep.equal([`http://x.com${path}`]);
      expect(links[0]!.diagnostics).to.deep.equal([]);
    });
  }
  it('a link without a held bracket is still cut and flagged', () => {
    const text = `see http://x.com/a${'b'.repeat(100)} ok`;
    const [l] = findLinks(text, { maxLinkLength: 64 });
    expect(l!.end - l!.start).to.equal(64);
    expect(l!.diagnostics).to.include('link-too-long');
  });
});

describe('detect: the `<` rule lets a link the author delimited stand (RB finding 5)', () => {
  itMarks([
    // quotation marks and a Markdown destination: as written (Markdown mode keeps `a<b` too)
    'href="⸠https://example.com/a<b⸡" [x](⸠https://example.com/a<b⸡) ‘⸠https://example.com/a<b⸡’',
    // `<…>` (RFC 3986 Appendix C): a `<` inside is no URI character; its pair stays if the delimiting `>` follows
    '<⸠https://example.com/a⸡<b <⸠https://example.com/a⸡<b> <URL:⸠https://example.com/a⸡<b',
    '<⸠https://example.com/a<b>c⸡> <⸠https://example.com/a<b>⸡> <⸠https://example.com/a⸡.<b> <⸠https://example.com/a⸡<b>.',
    // the same without a wrap (a name without a path, an email address) and before an HTML end tag
    '<⸠www.example.com?q=⸡<b> <⸠www.example.com?q=<b>⸡> <⸠mailto:a@b.com?subject=x⸡<b> <⸠a@b.com⸡>',
    '<p><⸠https://example.com/a⸡</p> -> next, x <⸠https://example.com/a⸡</b>/c> and <⸠https://example.com/a⸡<a/b>/c>',
    // bare, unchanged
    '⸠https://example.com/a⸡<b ⸠http://x/a⸡<⸠http://x/a⸡<⸠http://x/a⸡< ⸠https://example.com/a<b>c⸡',
  ]);
  it('a `<…>` closed within HELD_LOOKAHEAD stays; one closed later is left out', () => {
    const inside = 'b'.repeat(HELD_LOOKAHEAD - 1);
    const near = `see https://example.com/a<${inside}>c ok`;
    const far = `see https://example.com/a<${inside}bb>c ok`;
    expect(findLinks(near).map((l) => near.slice(l.start, l.end))).to.deep.equal([`https://example.com/a<${inside}>c`]);
    expect(findLinks(far).map((l) => far.slice(l.start, l.end))).to.deep.equal(['https://example.com/a']);
  });
  it('a `<…>` pair with HELD_LOOKAHEAD units inside is left out, on one line and in a wrapped link alike', () => {
    const inside = 'b'.repeat(HELD_LOOKAHEAD);
    const bare = `see https://example.com/a<${inside}>c ok`;
    expect(findLinks(bare).map((l) => bare.slice(l.start, l.end))).to.deep.equal(['https://example.com/a']);
    const wrapped = `<URL:https://example.com/\n<${inside}>/c>`;
    expect(findLinks(wrapped).map((l) => l.uri)).to.deep.equal(['https://example.com/']);
  });
  it('in a wrapped `<…>` link, a pair closed within HELD_LOOKAHEAD stays; one closed later ends the link', () => {
    const inside = 'b'.repeat(HELD_LOOKAHEAD - 1);
    const near = `<URL:https://example.com/\n<${inside}>/c>`;
    const far = `<URL:https://example.com/\n<${inside}bb>/c>`;
    expect(findLinks(near).map((l) => l.uri)).to.deep.equal([`https://example.com/%3C${inside}%3E/c`]);
    expect(findLinks(far).map((l) => l.uri)).to.deep.equal(['https://example.com/']);
  });
  it('a link that ends before a pair the delimiter did not follow is not flagged by a bidi control after the pair', () => {
    const [link] = findLinks('<http://x.example/a<b>\u202E');
    expect(link!.text).to.equal('http://x.example/a');
    expect(link!.diagnostics).to.deep.equal([]);
  });
});

/** findLinks(text, options), with every String.prototype.charCodeAt call of the scan counted. */
function countedReads(text: string, options?: object): { reads: number; links: number } {
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const original = String.prototype.charCodeAt;
  let reads = 0;
  String.prototype.charCodeAt = function (this: string, i: number): number {
    reads++;
    return original.call(this, i);
  };
  try {
    const links = findLinks(text, options).length;
    return { reads, links };
  } finally {
    String.prototype.charCodeAt = original;
  }
}

describe('detect: a held bracket keeps the scan linear (RB finding 2; reads counted)', () => {
  // Runs of links that each hold a bracket whose Close never comes, ended by a space: before, each link read to the
  // run's end (reads per unit grew with the run, up to maxLinkLength); now each reads at most HELD_LOOKAHEAD past
  // its bracket or stops where a separator decides the end, so a unit is read a bounded number of times.
  const shapes = ['http://x/a<', 'x.co/a<', 'x.co?a<', 'x.co#a<', 'x.co?a=1&b<', 'http://x/a（', 'x.co/a（', 'x.co/a（b（'];
  const plain = 'see http://example.com/p and x.co/a?b=c ';
  const perUnit = (text: string, options?: object): number => countedReads(text, options).reads / text.length;
  const base = perUnit(plain.repeat(500));
  it(`plain text is read a few times per unit (${base.toFixed(1)})`, () => {
    expect(base).to.be.greaterThan(1).and.lessThan(20);
  });
  for (const shape of shapes) {
    for (const maxLinkLength of [8192, 65536]) {
      it(`${JSON.stringify(shape)} × 700, then a space, × 4 (maxLinkLength ${maxLinkLength}): at most 64 reads per unit`, () => {
        const text = (shape.repeat(700) + ' ').repeat(4);
        const { reads, links } = countedReads(text, { maxLinkLength });
        expect(links).to.be.greaterThan(700); // every link of the run is found on its own
        expect(reads / text.length).to.be.lessThan(64);
      });
    }
  }
  it('the count grows with the text, not with the run: × 4 runs read about 4 × the reads of one', () => {
    const one = countedReads('x.co?a<'.repeat(700) + ' ').reads;
    const four = countedReads(('x.co?a<'.repeat(700) + ' ').repeat(4)).reads;
    expect(four / one).to.be.within(3.5, 4.5);
    const long = countedReads('x.co?a<'.repeat(2800) + ' ').reads;
    expect(long / one).to.be.within(3.5, 4.5); // one run 4 × as long: 4 × the reads, not 16 ×
  });
});
