// RFC 3987 §4 (Bidi IRIs): the Unicode Bidirectional Algorithm (UAX #9) that §4.1 says renders them,
// and the §4.2 structure rules.
//
// Bidi Notation as in RFC 3987 §4.4: an upper-case Latin letter stands for a right-to-left letter. The
// helpers put real Hebrew (Bidi_Class R) or Arabic (AL) letters in their place, run the algorithm, and
// map the result back, so each case reads `logical → visual` at a glance.
import { expect } from 'chai';
import { checkIriBidi, resolveBidi, visualOrder, type BidiBaseDirection } from '../src/iri/bidi.js';

// A–Z → Hebrew letters U+05D0… (R) or 26 Arabic letters (AL).
const HEBREW = Array.from({ length: 26 }, (_, i) => 0x5d0 + i);
const ARABIC = [
  0x627, 0x628, 0x62a, 0x62b, 0x62c, 0x62d, 0x62e, 0x62f, 0x630, 0x631, 0x632, 0x633, 0x634, 0x635, 0x636, 0x637,
  0x638, 0x639, 0x63a, 0x641, 0x642, 0x643, 0x644, 0x645, 0x646, 0x647,
];
type Letters = 'hebrew' | 'arabic';

function toRtl(notation: string, letters: Letters = 'hebrew'): string {
  const table = letters === 'arabic' ? ARABIC : HEBREW;
  let out = '';
  for (const ch of notation) {
    const c = ch.charCodeAt(0);
    out += c >= 0x41 && c <= 0x5a ? String.fromCodePoint(table[c - 0x41]!) : ch;
  }
  return out;
}

function toNotation(text: string, letters: Letters = 'hebrew'): string {
  const table = letters === 'arabic' ? ARABIC : HEBREW;
  let out = '';
  for (const ch of text) {
    const i = table.indexOf(ch.codePointAt(0)!);
    out += i >= 0 ? String.fromCharCode(0x41 + i) : ch;
  }
  return out;
}

/** The visual order of a Bidi Notation string, in Bidi Notation. */
function visual(notation: string, base: BidiBaseDirection = 'ltr', letters: Letters = 'hebrew'): string {
  return toNotation(visualOrder(toRtl(notation, letters), base), letters);
}

describe('RFC 3987 §4.4 examples (UAX #9, base direction LTR as §4.1 requires)', () => {
  // [example, logical, visual]: the RFC's own strings, Hebrew letters for the capitals.
  const examples: [string, string, string][] = [
    ['1 a single rtl component is inverted', 'http://ab.CDEFGH.ij/kl/mn/op.html', 'http://ab.HGFEDC.ij/kl/mn/op.html'],
    ['2 consecutive rtl components are inverted as a whole', 'http://ab.CDE.FGH/ij/kl/mn/op.html', 'http://ab.HGF.EDC/ij/kl/mn/op.html'],
    ['3 all components rtl', 'http://AB.CD.EF/GH/IJ/KL?MN=OP;QR=ST#UV', 'http://VU#TS=RQ;PO=NM?LK/JI/HG/FE.DC.BA'],
    ['4 each sequence of rtl components on its own', 'http://AB.CD.ef/gh/IJ/KL.html', 'http://DC.BA.ef/gh/LK/JI.html'],
    ['5 a host label and a path segment together', 'http://ab.cd.EF/GH/ij/kl.html', 'http://ab.cd.HG/FE/ij/kl.html'],
    ['6 more rtl components', 'http://ab.CD.EF/GH/IJ/kl.html', 'http://ab.JI/HG/FE.DC/kl.html'],
    ['7 digits inside an rtl component', 'http://ab.CDE123FGH.ij/kl/mn/op.html', 'http://ab.HGF123EDC.ij/kl/mn/op.html'],
    ['8 (not allowed) numbers at the ends: "1/2" reads as a fraction', 'http://ab.cd.ef/GH1/2IJ/KL.html', 'http://ab.cd.ef/LK/JI1/2HG.html'],
    ['10 (not recommended) an all-digit label', 'http://ab.CDEFGH.123/kl/mn/op.html', 'http://ab.123.HGFEDC/kl/mn/op.html'],
  ];
  for (const [name, logical, expected] of examples) {
    it(`Example ${name}: ${logical} → ${expected}`, () => {
      expect(visual(logical)).to.equal(expected);
    });
  }

  // Example 9: the RFC prints "%31HG/LK/JI%32" (Hebrew) and "31%HG/%LK/JI32" (Arabic), which do not
  // follow UAX #9 (vectors README). With Hebrew, W5 makes "%31" a European number; with Arabic, W2 turns
  // the digits into Arabic numbers, so "%" (ET) stays neutral and resolves to R.
  it('Example 9, Hebrew: the percent-encoded digits stay with their %', () => {
    expect(visual('http://ab.cd.ef/GH%31/%32IJ/KL.html')).to.equal('http://ab.cd.ef/LK/JI%32/%31HG.html');
  });
  it('Example 9, Arabic: W2 makes the digits AN and the % signs are neutrals resolved to R', () => {
    expect(visual('http://ab.cd.ef/GH%31/%32IJ/KL.html', 'ltr', 'arabic')).to.equal('http://ab.cd.ef/LK/JI32%/31%HG.html');
  });

  it('checkIriBidi accepts examples 1–7 and 10 and rejects 8 and 9 (§4.2 rule 2)', () => {
    for (const [name, logical] of examples) {
      const bad = name.startsWith('8');
      expect(checkIriBidi(toRtl(logical)).length > 0, name).to.equal(bad);
    }
    expect(checkIriBidi(toRtl('http://ab.cd.ef/GH%31/%32IJ/KL.html')).map((p) => p.reason)).to.deep.equal([
      'rtl-not-at-ends',
      'rtl-not-at-ends',
    ]);
  });
});

describe('UAX #9 rules, one case each (Bidi Notation: capitals are rtl letters)', () => {
  it('plain ltr text is unchanged, and so is the empty string', () => {
    expect(visual('http://example.com/a b')).to.equal('http://example.com/a b');
    expect(visualOrder('')).to.equal('');
  });

  it('N1: a space between two rtl letters is rtl; between rtl and ltr it takes the embedding direction (N2)', () => {
    expect(visual('AB CD')).to.equal('DC BA');
    expect(visual('ab CD ef')).to.equal('ab DC ef');
  });

  it('N1: numbers count as R for the neutrals around them', () => {
    expect(visual('A 1 B')).to.equal('B 1 A');
  });

  it('W1: a nonspacing mark takes the class of the letter before it', () => {
    // U+0301 after an rtl letter is rtl and moves with it.
    expect(visual('ab CD\u0301')).to.equal('ab \u0301DC');
    expect(visual('ab\u0301 CD')).to.equal('ab\u0301 DC');
  });

  it('W2 and W5: digits after Arabic letters are Arabic numbers, so a following % is not a terminator', () => {
    // Hebrew: R R WS EN EN ET — W5 joins % to the number: "12%" is one level-2 run.
    expect(visual('AB 12%')).to.equal('12% BA');
    // Arabic: AL AL WS AN AN ON — "%" is a neutral between AN and eos(L) and takes the embedding level 0.
    expect(visual('AB 12%', 'ltr', 'arabic')).to.equal('12 BA%');
  });

  it('W4: a single comma between European numbers joins them; two commas do not', () => {
    expect(visual('1,2', 'rtl')).to.equal('1,2');
    expect(visual('1,,2', 'rtl')).to.equal('2,,1');
  });

  it('W5/W6: a terminator next to a number joins it; separated by a space it is a neutral', () => {
    expect(visual('$12', 'rtl')).to.equal('$12');
    expect(visual('$ 12', 'rtl')).to.equal('12 $');
  });

  it('W7: European numbers after ltr context are L (they stay in place in an rtl paragraph)', () => {
    expect(visual('ab 12', 'rtl')).to.equal('ab 12');
    expect(visual('AB 12', 'rtl')).to.equal('12 BA');
  });

  it('N0: a bracket pair around rtl text after rtl context is rtl, without mirroring (L4 is left to rendering)', () => {
    // With N1 alone the ")" would sit between D (R) and e (L) and stay ltr: "DC(BA)ef".
    expect(visual('AB(CD)ef')).to.equal(')DC(BAef');
    // Brackets around rtl text in ltr context take the embedding direction.
    expect(visual('ab(CD)')).to.equal('ab(DC)');
  });

  it('N0: canonically equivalent brackets pair (U+2329 with U+3009)', () => {
    expect(visual('AB\u2329CD\u3009ef')).to.equal('\u3009DC\u2329BAef');
  });

  it('I1/I2 and L2: numbers inside rtl text keep their own order', () => {
    expect(visual('ABC 123 DEF')).to.equal('FED 123 CBA');
  });

  it('L1: a segment separator (tab) goes back to the paragraph level', () => {
    // Without L1 the tab would be rtl between two rtl letters: "DC\tBA".
    expect(visual('AB\tCD')).to.equal('BA\tDC');
  });

  it('L1: trailing whitespace goes back to the paragraph level', () => {
    // RTL paragraph, LRE makes "ab  " level 2; L1 puts the trailing spaces back at level 1.
    expect(visualOrder('\u202Aab  ', 'rtl')).to.equal('  ab\u202A');
  });

  it('X2–X5: an override forces the direction; the controls are kept beside their characters', () => {
    expect(visualOrder('\u202Eabc\u202C')).to.equal('\u202Ecba\u202C');
  });

  it('X5a–X5c, X6a: an FSI whose first strong character is rtl is an RLI', () => {
    expect(visual('x \u2068AB cd\u2069 y')).to.equal('x \u2068cd BA\u2069 y');
    expect(visual('x \u2068ab CD\u2069 y')).to.equal('x \u2068ab DC\u2069 y');
  });

  it('X9: a boundary neutral (soft hyphen) is removed from the algorithm and stays beside its neighbour', () => {
    expect(visual('A\u00ADB')).to.equal('B\u00ADA');
  });

  it('P1: each paragraph is reordered on its own; CR LF is one separator', () => {
    expect(visual('AB CD\nEF')).to.equal('DC BA\nFE');
    expect(visual('AB cd\r\nEF gh')).to.equal('BA cd\r\nFE gh');
    // In an rtl paragraph the separator is at the paragraph level (L1) and so reverses with the line,
    // as BidiTest.txt's "R B" case (RTL: order 1 0) shows.
    expect(visual('AB\nCD', 'rtl')).to.equal('\nBADC');
  });

  it("P2/P3 ('auto'): the first strong letter decides each paragraph's direction", () => {
    const r = resolveBidi(toRtl('AB cd\nef GH'), 'auto');
    expect(r.paragraphLevels).to.deep.equal([1, 0]);
    expect(visual('AB cd', 'auto')).to.equal('cd BA');
    expect(visual('12 ab', 'auto')).to.equal('12 ab');
  });

  it('astral characters move as whole code points (surrogate pairs are never split)', () => {
    // U+10800 U+10801 CYPRIOT SYLLABLE A, E: Bidi_Class R.
    expect(visualOrder('a \u{10800}\u{10801}')).to.equal('a \u{10801}\u{10800}');
  });

  it('resolveBidi reports levels, removed characters and offsets per code point', () => {
    const r = resolveBidi(toRtl('ab CD 12') + '\u00AD');
    expect(Array.from(r.levels)).to.deep.equal([0, 0, 0, 1, 1, 1, 2, 2, 0]);
    expect(Array.from(r.removed)).to.deep.equal([0, 0, 0, 0, 0, 0, 0, 0, 1]);
    expect(Array.from(r.visual)).to.deep.equal([0, 1, 2, 6, 7, 5, 4, 3, 8]);
    expect(Array.from(resolveBidi('a\u{10800}b').offsets)).to.deep.equal([0, 1, 3]);
  });

  it('a lone surrogate is one code point of its own and is kept', () => {
    expect(visualOrder('a\uD800b')).to.equal('a\uD800b');
    // A surrogate code point has Bidi_Class L.
    expect(visual('AB\uDC00')).to.equal('BA\uDC00');
  });

  it('misuse is a TypeError', () => {
    expect(() => visualOrder(1 as unknown as string)).to.throw(TypeError);
    expect(() => visualOrder('a', 'up' as BidiBaseDirection)).to.throw(TypeError, /baseDirection/);
    expect(() => resolveBidi('a', 'rtl ' as BidiBaseDirection)).to.throw(TypeError);
  });

  it('is linear on long and deeply nested input', () => {
    const long = toRtl('AB (cd) 12, '.repeat(20_000));
    expect(visualOrder(long).length).to.equal(long.length);
    const nested = '('.repeat(50_000) + toRtl('A') + ')'.repeat(50_000);
    expect(visualOrder(nested).length).to.equal(nested.length);
    const embeddings = '\u202B'.repeat(300) + 'a' + '\u202C'.repeat(300); // beyond max_depth 125
    expect(resolveBidi(embeddings).levels[300]).to.equal(126); // RLE ×63 reach 125; I2 raises L by one
  });
});

// Lines of BidiCharacterTest.txt (Unicode 15.0, Unicode License): code points; paragraph direction
// (0 LTR, 1 RTL, 2 auto); resolved paragraph level; levels (x = removed by X9); visual order.
// The whole file (91,707 lines) passes; see the report of the commit that added this file.
describe('UAX #9 conformance samples (BidiCharacterTest.txt)', () => {
  const lines = [
    '0028 05D0 0029 05D1 0061 2680 0028 0029;0;0;0 1 0 1 0 0 0 0;0 1 2 3 4 5 6 7',
    '0061 0028 0029 2680 005B 005D 05D0;1;1;2 1 1 1 1 1 1;6 5 4 3 2 1 0',
    '0061 0028 0062 05D0 2680 0028 005B 005D 0029;1;1;2 2 2 1 1 1 1 1 1;8 7 6 5 4 3 0 1 2',
    '0028 05D0 2680 0028 005B 2681 0029 005D 05D1;0;0;0 1 1 1 1 1 1 1 1;0 8 7 6 5 4 3 2 1',
    '05D0 2067 202A 0041;1;1;1 1 x 4;3 1 0',
    '0061 2067 202C 202E 2069 0062;1;1;2 2 x x 2 2;0 1 4 5',
    '0661 0028 0662 0029 0331;0;0;2 1 2 1 1;4 3 2 1 0',
    '202C 0661 0028 0662 0029;2;0;x 2 1 2 1;4 3 2 1',
    '202B 0061 0028 0062 202C 202E 0029 202C;2;0;x 2 2 2 x x 1 x;6 1 2 3',
  ];
  for (const line of lines) {
    it(line, () => {
      const [cps, dir, paragraphLevel, levels, order] = line.split(';') as [string, string, string, string, string];
      const text = String.fromCodePoint(...cps.split(' ').map((h) => parseInt(h, 16)));
      const r = resolveBidi(text, dir === '0' ? 'ltr' : dir === '1' ? 'rtl' : 'auto');
      expect(r.paragraphLevels[0]).to.equal(Number(paragraphLevel));
      expect(Array.from(r.levels, (l, i) => (r.removed[i] ? 'x' : String(l))).join(' ')).to.equal(levels);
      expect(Array.from(r.visual).filter((i) => !r.removed[i]).join(' ')).to.equal(order);
    });
  }
});

describe('checkIriBidi (RFC 3987 §4.2)', () => {
  /** The problems as `reason component «text»` strings, for reading at a glance. */
  function problems(notation: string, letters: Letters = 'hebrew'): string[] {
    const iri = toRtl(notation, letters);
    return checkIriBidi(iri).map((p) => `${p.reason} ${p.component} «${toNotation(iri.slice(p.start, p.end), letters)}»`);
  }

  it('no rtl characters: nothing to check', () => {
    expect(checkIriBidi('http://example.com/a/b?c=d#e')).to.deep.equal([]);
    expect(checkIriBidi('')).to.deep.equal([]);
  });

  it('host labels are components: each rtl label must be rtl only, rtl at both ends', () => {
    expect(problems('http://AB.CD.example/')).to.deep.equal([]);
    expect(problems('http://ABc.example/')).to.deep.equal(['mixed-direction host «ABc»', 'rtl-not-at-ends host «ABc»']);
    expect(problems('http://A1B.example/')).to.deep.equal([]);
    expect(problems('http://AB1.example/')).to.deep.equal(['rtl-not-at-ends host «AB1»']);
  });

  it('reports UTF-16 offsets of the component', () => {
    const iri = toRtl('http://x.ABc.example/');
    expect(checkIriBidi(iri)[0]).to.deep.equal({ start: 9, end: 12, component: 'host', reason: 'mixed-direction' });
  });

  it('path segments, and the dot-separated parts of a segment (extensions), are components', () => {
    expect(problems('/AB/CD.html')).to.deep.equal([]);
    expect(problems('/ABcd/x')).to.deep.equal(['mixed-direction path «ABcd»', 'rtl-not-at-ends path «ABcd»']);
    expect(problems('/1AB')).to.deep.equal(['rtl-not-at-ends path «1AB»']);
  });

  it('query names and values are components; the fragment is one', () => {
    expect(problems('http://e.com/?q=AB&r=CD;s=ef')).to.deep.equal([]);
    expect(problems('http://e.com/?q=ABc')).to.deep.equal(['mixed-direction query «ABc»', 'rtl-not-at-ends query «ABc»']);
    expect(problems('http://e.com/#AB')).to.deep.equal([]);
    expect(problems('http://e.com/#a-AB')).to.deep.equal(['mixed-direction fragment «a-AB»', 'rtl-not-at-ends fragment «a-AB»']);
  });

  it('userinfo: user and password are separate components', () => {
    expect(problems('http://AB:secret@e.com/')).to.deep.equal([]);
    expect(problems('http://ABx@e.com/')).to.deep.equal(['mixed-direction userinfo «ABx»', 'rtl-not-at-ends userinfo «ABx»']);
  });

  it('Arabic letters (AL) are right-to-left too', () => {
    expect(problems('http://e.com/AB/CD', 'arabic')).to.deep.equal([]);
    expect(problems('http://e.com/AB1', 'arabic')).to.deep.equal(['rtl-not-at-ends path «AB1»']);
  });

  it('empty components, an IPv6 literal and a port raise nothing', () => {
    expect(problems('http://[2001:db8::1]:8080//AB//?#')).to.deep.equal([]);
    expect(problems('http:///AB/./../')).to.deep.equal([]);
  });

  it('percent-encoded text is ASCII: a fully encoded component passes, a partly encoded one does not', () => {
    // §4.2: "the affected component can always be mapped to URI notation … the whole component".
    expect(checkIriBidi('http://e.com/%D7%90%D7%91/x')).to.deep.equal([]);
    expect(problems('http://e.com/A%D7%91/x')).to.deep.equal(['rtl-not-at-ends path «A%D7%91»']);
  });

  it('a nonspacing mark after the last rtl letter does not break rule 2 (labelled deviation)', () => {
    // U+05E9 SHIN, U+05B8 QAMATS (NSM).
    expect(checkIriBidi('http://e.com/\u05E9\u05B8')).to.deep.equal([]);
    expect(checkIriBidi('http://e.com/\u05B8\u05E9')).to.have.length(1);
  });

  it('a relative reference is checked the same way', () => {
    expect(problems('AB/CD?EF')).to.deep.equal([]);
    expect(problems('ABc/d')).to.have.length(2);
  });

  it('misuse is a TypeError; any string is fine', () => {
    expect(() => checkIriBidi(undefined as unknown as string)).to.throw(TypeError);
    expect(checkIriBidi('\uD800\u05D0').map((p) => p.reason)).to.deep.equal(['mixed-direction', 'rtl-not-at-ends']);
    expect(checkIriBidi(toRtl('A').repeat(100_000) + 'b')).to.have.length(2);
  });
});
