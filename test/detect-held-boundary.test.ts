// Held brackets (terminate.ts: read at most HELD_LOOKAHEAD units past them): the 64-unit
// boundary, exactly, with a surrogate pair across it, and the same answers whatever the chunking (the streaming
// contract, DESIGN.md) and from a link's own iri (findLinks(link.iri) finds it whole).
import { expect } from 'chai';
import { findLinks } from '../src/detect/index.js';
import { HELD_LOOKAHEAD } from '../src/detect/terminate.js';
import { Linkifier } from '../src/stream/linkifier.js';

const marked = (text: string, options?: object): string => {
  let out = '';
  let last = 0;
  for (const l of findLinks(text, options)) {
    out += text.slice(last, l.start) + '⸠' + text.slice(l.start, l.end) + '⸡';
    last = l.end;
  }
  return out + text.slice(last);
};

const b63 = 'b'.repeat(HELD_LOOKAHEAD - 1);
const b64 = 'b'.repeat(HELD_LOOKAHEAD);

describe('detect: a held bracket’s Close at the HELD_LOOKAHEAD boundary', () => {
  it('HELD_LOOKAHEAD is 64 (the cases below are written for it)', () => {
    expect(HELD_LOOKAHEAD).to.equal(64);
  });
  it('63 units between `<` and `>` (the `>` is the 64th unit past `<`): the placeholder stays', () => {
    expect(marked(`see http://x.co/a<${b63}>c ok`)).to.equal(`see ⸠http://x.co/a<${b63}>c⸡ ok`);
    expect(marked(`see x.co/a<${b63}>c ok`)).to.equal(`see ⸠x.co/a<${b63}>c⸡ ok`);
  });
  it('64 units between them: the `<` is left out', () => {
    expect(marked(`see http://x.co/a<${b64}>c ok`)).to.equal(`see ⸠http://x.co/a⸡<${b64}>c ok`);
    expect(marked(`see x.co/a<${b64}>c ok`)).to.equal(`see ⸠x.co/a⸡<${b64}>c ok`);
  });
  it('the same for an aside: 63 units in （…） stay with ASCII after, 64 do not', () => {
    expect(marked(`see http://x.co/a（${b63}）c ok`)).to.equal(`see ⸠http://x.co/a（${b63}）c⸡ ok`);
    expect(marked(`see http://x.co/a（${b64}）c ok`)).to.equal(`see ⸠http://x.co/a⸡（${b64}）c ok`);
  });
  it('a surrogate pair across the boundary counts two units: 61 + 𠀀 stays, 62 + 𠀀 does not', () => {
    const b61 = 'b'.repeat(HELD_LOOKAHEAD - 3);
    const b62 = 'b'.repeat(HELD_LOOKAHEAD - 2);
    expect(marked(`see http://x.co/a<${b61}𠀀>c ok`)).to.equal(`see ⸠http://x.co/a<${b61}𠀀>c⸡ ok`);
    expect(marked(`see http://x.co/a<${b62}𠀀>c ok`)).to.equal(`see ⸠http://x.co/a⸡<${b62}𠀀>c ok`);
  });
});

describe('detect: held brackets near the boundary, chunked at every point, and the iri round trip', () => {
  const key = (chunks: readonly { type: string; text: string; start?: number }[]): string =>
    chunks.map((c) => (c.type === 'link' ? `⸠${c.text}⸡` : c.text)).join('');
  const run = (pieces: readonly string[], options?: object): string => {
    const l = new Linkifier(options);
    const out = [];
    for (const p of pieces) out.push(...l.push(p));
    out.push(...l.end());
    return key(out);
  };
  const texts: string[] = [];
  for (const k of [HELD_LOOKAHEAD - 2, HELD_LOOKAHEAD - 1, HELD_LOOKAHEAD, HELD_LOOKAHEAD + 1]) {
    const b = 'b'.repeat(k);
    texts.push(`see http://x.co/a<${b}>c ok`, `see http://x.co/a（${b}）c ok`, `see http://x.co/a<${b.slice(1)}𠀀>c ok`,
      `see http://x.co/a（b）（${b}）c ok`, `see a@x.co?subject=<${b}>c ok`, `see http://x.co/a?q<${b}>&c ok`,
      `see http://x.co/${'p'.repeat(k - 16)}a<bb>cc ok`);
  }
  for (const options of [undefined, { maxLinkLength: 64 }]) {
    it(`every 2-way split gives the answer of the whole text (${options ? 'maxLinkLength 64' : 'default options'})`, () => {
      for (const t of texts) {
        const whole = run([t], options);
        expect(whole, t).to.equal(marked(t, options));
        for (let i = 1; i < t.length; i++) expect(run([t.slice(0, i), t.slice(i)], options), `${t} | ${i}`).to.equal(whole);
      }
    });
  }
  it('each link’s iri is found whole again', () => {
    for (const t of texts) {
      for (const l of findLinks(t)) {
        const again = findLinks(l.iri);
        expect(again.map((a) => [a.start, a.end]), l.iri).to.deep.equal([[0, l.iri.length]]);
      }
    }
  });
});

describe('detect: a `<` right after an aside’s Close leaves the aside out, as the link ends at the Close', () => {
  // The rule (terminate.ts): the aside pair is the link's only if the link ends past its Close. `…/a（b）.` and
  // `…/a（b） ` link `…/a`; the same link followed by a `<` without its `>` links `…/a（b）` (ends AT the Close).
  it('…/a（b）<c, …/a（b）.<c, …/a（b）?<c, …/a（b）<c/d link …/a, as …/a（b）. does', () => {
    expect(marked('see https://example.com/a（b）. ok')).to.equal('see ⸠https://example.com/a⸡（b）. ok');
    expect(marked('see https://example.com/a（b）<c ok')).to.equal('see ⸠https://example.com/a⸡（b）<c ok');
    expect(marked('see https://example.com/a（b）.<c ok')).to.equal('see ⸠https://example.com/a⸡（b）.<c ok');
    expect(marked('see https://example.com/a（b）?<c ok')).to.equal('see ⸠https://example.com/a⸡（b）?<c ok');
    expect(marked('see https://example.com/a（b）<c/d ok')).to.equal('see ⸠https://example.com/a⸡（b）<c/d ok');
  });
  it('…/a（b）<c> (a placeholder after the aside) stays whole', () => {
    expect(marked('see https://example.com/a（b）<c> ok')).to.equal('see ⸠https://example.com/a（b）<c>⸡ ok');
  });
});

describe('detect: an aside whose Close (or a Soft character after it) meets the maxLinkLength cut is left out, not too long', () => {
  // Unbounded, each text links http://x.co/p…pa (60 or 61 units, under 64); with maxLinkLength 64 the walk past the
  // Close reaches the cut before it can decide the aside, and the cut keeps what was read: the aside, even a `.`.
  for (const [n, tail] of [[48, '（b） ok'], [47, '（b）. ok'], [48, '（b）的说明']] as const) {
    it(`${n} p + a${tail} links what it links without maxLinkLength, not too long`, () => {
      const text = 'see http://x.co/' + 'p'.repeat(n) + 'a' + tail;
      const [whole] = findLinks(text);
      const [l] = findLinks(text, { maxLinkLength: 64 });
      expect(text.slice(whole!.start, whole!.end)).to.equal('http://x.co/' + 'p'.repeat(n) + 'a');
      expect(text.slice(l!.start, l!.end)).to.equal('http://x.co/' + 'p'.repeat(n) + 'a');
      expect(l!.diagnostics).to.deep.equal([]);
    });
  }
});
