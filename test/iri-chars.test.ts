// chars.ts against the ABNF ranges written out here (RFC 3987 §2.2, RFC 3986 §2), checked at every
// code point U+0000–10FFFF, so a slip in the hand-written comparisons cannot hide.
import { expect } from 'chai';
import {
  findLoneSurrogate,
  isAlpha,
  isBidiFormat,
  isBidiFormatRfc3987,
  isDigit,
  isDisallowedAscii,
  isGenDelim,
  isHexDig,
  isIpcharSingle,
  isIprivate,
  isIprivateBis,
  isIunreserved,
  isNoncharacter,
  isReserved,
  isSchemeChar,
  isSubDelim,
  isUcschar,
  isUnreserved,
  isUriChar,
} from '../src/iri/chars.js';

type Range = [number, number];
const inRanges = (cp: number, ranges: Range[]): boolean => ranges.some(([a, b]) => cp >= a && cp <= b);
const inString = (cp: number, chars: string): boolean => cp < 128 && chars.includes(String.fromCharCode(cp));

// RFC 3987 §2.2, copied from the ABNF.
const UCSCHAR: Range[] = [
  [0xa0, 0xd7ff], [0xf900, 0xfdcf], [0xfdf0, 0xffef],
  [0x10000, 0x1fffd], [0x20000, 0x2fffd], [0x30000, 0x3fffd],
  [0x40000, 0x4fffd], [0x50000, 0x5fffd], [0x60000, 0x6fffd],
  [0x70000, 0x7fffd], [0x80000, 0x8fffd], [0x90000, 0x9fffd],
  [0xa0000, 0xafffd], [0xb0000, 0xbfffd], [0xc0000, 0xcfffd],
  [0xd0000, 0xdfffd], [0xe1000, 0xefffd],
];
const IPRIVATE: Range[] = [[0xe000, 0xf8ff], [0xf0000, 0xffffd], [0x100000, 0x10fffd]];
// draft-ietf-iri-3987bis-11 §2.2
const IPRIVATE_BIS: Range[] = [[0xe000, 0xf8ff], [0xe0000, 0xe0fff], [0xf0000, 0xffffd], [0x100000, 0x10fffd]];
const ALPHA = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const DIGIT = '0123456789';
const UNRESERVED = ALPHA + DIGIT + '-._~';
const GEN_DELIMS = ':/?#[]@';
const SUB_DELIMS = "!$&'()*+,;=";

describe('iri chars: every code point against the ABNF ranges', () => {
  it('isUcschar, isIprivate, isIprivateBis, isIunreserved, isIpcharSingle over U+0000–10FFFF', () => {
    let mismatches = 0;
    let ucs = 0;
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      const u = inRanges(cp, UCSCHAR);
      if (u) ucs++;
      if (isUcschar(cp) !== u) mismatches++;
      if (isIprivate(cp) !== inRanges(cp, IPRIVATE)) mismatches++;
      if (isIprivateBis(cp) !== inRanges(cp, IPRIVATE_BIS)) mismatches++;
      if (isIunreserved(cp) !== (inString(cp, UNRESERVED) || u)) mismatches++;
      if (isIpcharSingle(cp) !== (inString(cp, UNRESERVED + SUB_DELIMS + ':@') || u)) mismatches++;
      if (mismatches > 0) throw new Error(`mismatch at U+${cp.toString(16).toUpperCase()}`);
    }
    // The number of ucschar code points the ranges above add up to.
    expect(ucs).to.equal(UCSCHAR.reduce((n, [a, b]) => n + b - a + 1, 0));
  });

  it('the ASCII classes at every code point 0–0x10FFFF', () => {
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      const ok =
        isAlpha(cp) === inString(cp, ALPHA) &&
        isDigit(cp) === inString(cp, DIGIT) &&
        isHexDig(cp) === inString(cp, DIGIT + 'ABCDEFabcdef') &&
        isSchemeChar(cp) === inString(cp, ALPHA + DIGIT + '+-.') &&
        isUnreserved(cp) === inString(cp, UNRESERVED) &&
        isGenDelim(cp) === inString(cp, GEN_DELIMS) &&
        isSubDelim(cp) === inString(cp, SUB_DELIMS) &&
        isReserved(cp) === inString(cp, GEN_DELIMS + SUB_DELIMS) &&
        isDisallowedAscii(cp) === inString(cp, ' <>"{}|\\^`') &&
        isUriChar(cp) === inString(cp, UNRESERVED + GEN_DELIMS + SUB_DELIMS + '%');
      if (!ok) throw new Error(`mismatch at U+${cp.toString(16).toUpperCase()}`);
    }
  });

  it('the printable ASCII is split exactly into URI characters and the RFC 3987 §3.1 disallowed ten', () => {
    for (let cp = 0x20; cp < 0x7f; cp++) expect(isUriChar(cp) !== isDisallowedAscii(cp), `U+${cp.toString(16)}`).to.equal(true);
  });

  it('isNoncharacter: U+FDD0–FDEF and the last two code points of each of the 17 planes', () => {
    const expected: number[] = [];
    for (let cp = 0xfdd0; cp <= 0xfdef; cp++) expected.push(cp);
    for (let plane = 0; plane <= 0x10; plane++) expected.push(plane * 0x10000 + 0xfffe, plane * 0x10000 + 0xffff);
    const got: number[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) if (isNoncharacter(cp)) got.push(cp);
    expect(got).to.deep.equal(expected.sort((a, b) => a - b));
  });
});

describe('iri chars: bidi formatting characters (RFC 3987 §4.1)', () => {
  it('isBidiFormatRfc3987 is exactly LRM, RLM, LRE, RLE, PDF, LRO, RLO', () => {
    const got: number[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) if (isBidiFormatRfc3987(cp)) got.push(cp);
    expect(got).to.deep.equal([0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e]);
  });

  it('isBidiFormat adds the isolates LRI RLI FSI PDI and ARABIC LETTER MARK (labelled deviation)', () => {
    const got: number[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) if (isBidiFormat(cp)) got.push(cp);
    expect(got).to.deep.equal([0x061c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069]);
  });

  it('every bidi formatting character is inside ucschar: only the §4.1 rule keeps it out', () => {
    for (const cp of [0x061c, 0x200e, 0x202e, 0x2066, 0x2069]) expect(isUcschar(cp)).to.equal(true);
  });
});

describe('iri chars: findLoneSurrogate', () => {
  it('finds lone high and low surrogates and skips pairs', () => {
    expect(findLoneSurrogate('')).to.equal(-1);
    expect(findLoneSurrogate('a𐌀b')).to.equal(-1);
    expect(findLoneSurrogate('a\ud800')).to.equal(1);
    expect(findLoneSurrogate('a\udc00b')).to.equal(1);
    expect(findLoneSurrogate('𐌀\ud800x')).to.equal(2);
    expect(findLoneSurrogate('\udc00\ud800')).to.equal(0);
    expect(findLoneSurrogate('\ud800\ud800\udc00')).to.equal(0);
  });
});
