// percent.ts: uppercase encoding, strict UTF-8 decoding of %XX runs (RFC 3629 §4, RFC 3987 §3.2 step 3).
import { expect } from 'chai';
import {
  decodeUtf8Strict,
  decodeUtf8Triplets,
  hexValue,
  isPctTriplet,
  pctByte,
  pctDecodeUtf8,
  pctEncodeBytes,
  pctEncodeCodePoint,
  uppercasePctHex,
} from '../src/iri/percent.js';

/** Decodes the sequence at 0 and answers [code point, triplets] or null. */
function decodeAt(s: string): [number, number] | null {
  const r = decodeUtf8Triplets(s, 0);
  return r < 0 ? null : [Math.floor(r / 8), r % 8];
}

describe('iri percent: encoding', () => {
  it('pctByte is %XX with uppercase hex for every octet', () => {
    for (let b = 0; b < 256; b++) expect(pctByte(b)).to.equal('%' + b.toString(16).toUpperCase().padStart(2, '0'));
  });

  it('pctEncodeCodePoint gives the UTF-8 octets, never CESU-8 (RFC 3987 §3.1 note)', () => {
    expect(pctEncodeCodePoint(0x41)).to.equal('%41');
    expect(pctEncodeCodePoint(0xe9)).to.equal('%C3%A9');
    expect(pctEncodeCodePoint(0x7d0d)).to.equal('%E7%B4%8D');
    expect(pctEncodeCodePoint(0x10300)).to.equal('%F0%90%8C%80');
    expect(pctEncodeCodePoint(0x10ffff)).to.equal('%F4%8F%BF%BF');
  });

  it('pctEncodeCodePoint agrees with TextEncoder on a sweep of code points', () => {
    const enc = new TextEncoder();
    for (let cp = 0; cp <= 0x10ffff; cp += 97) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      expect(pctEncodeCodePoint(cp)).to.equal(pctEncodeBytes(enc.encode(String.fromCodePoint(cp))));
    }
  });

  it('hexValue and isPctTriplet', () => {
    expect([...'09afAFgG'].map((c) => hexValue(c.charCodeAt(0)))).to.deep.equal([0, 9, 10, 15, 10, 15, -1, -1]);
    expect(isPctTriplet('%2f', 0)).to.equal(true);
    expect(isPctTriplet('%2', 0)).to.equal(false);
    expect(isPctTriplet('%', 0)).to.equal(false);
    expect(isPctTriplet('%ZZ', 0)).to.equal(false);
    expect(isPctTriplet('x%41', 1)).to.equal(true);
  });

  it('uppercasePctHex touches only triplets', () => {
    expect(uppercasePctHex('a%2fb%c3%a9%zz%')).to.equal('a%2Fb%C3%A9%zz%');
    expect(uppercasePctHex('no triplets')).to.equal('no triplets');
  });
});

describe('iri percent: strict UTF-8 decoding of triplets', () => {
  it('decodes well-formed sequences of 2, 3 and 4 octets, any hex case', () => {
    expect(decodeAt('%C3%A9')).to.deep.equal([0xe9, 2]);
    expect(decodeAt('%c3%a9rest')).to.deep.equal([0xe9, 2]);
    expect(decodeAt('%E2%80%AE')).to.deep.equal([0x202e, 3]);
    expect(decodeAt('%F0%90%8C%80')).to.deep.equal([0x10300, 4]);
    expect(decodeAt('%F4%8F%BF%BF')).to.deep.equal([0x10ffff, 4]);
    expect(decodeAt('%EF%BF%BF')).to.deep.equal([0xffff, 3]);
  });

  it('refuses ASCII, stray continuation octets and overlong forms', () => {
    expect(decodeAt('%41')).to.equal(null);
    expect(decodeAt('%80')).to.equal(null);
    expect(decodeAt('%BF')).to.equal(null);
    expect(decodeAt('%C0%AF')).to.equal(null); //        overlong "/" (RFC 3987 §8)
    expect(decodeAt('%C1%BF')).to.equal(null);
    expect(decodeAt('%E0%80%AF')).to.equal(null); //     overlong 3-byte
    expect(decodeAt('%E0%9F%BF')).to.equal(null);
    expect(decodeAt('%F0%80%80%AF')).to.equal(null); //  overlong 4-byte
    expect(decodeAt('%F0%8F%BF%BF')).to.equal(null);
  });

  it('refuses surrogates (CESU-8), code points above U+10FFFF and F5–FF lead octets', () => {
    expect(decodeAt('%ED%A0%80')).to.equal(null);
    expect(decodeAt('%ED%BF%BF')).to.equal(null);
    expect(decodeAt('%ED%9F%BF')).to.deep.equal([0xd7ff, 3]);
    expect(decodeAt('%F4%90%80%80')).to.equal(null);
    expect(decodeAt('%F5%80%80%80')).to.equal(null);
    expect(decodeAt('%FF')).to.equal(null);
  });

  it('refuses truncated sequences and sequences broken by a non-triplet', () => {
    expect(decodeAt('%C3')).to.equal(null);
    expect(decodeAt('%E2%80')).to.equal(null);
    expect(decodeAt('%E2%80%A')).to.equal(null);
    expect(decodeAt('%E2%80x%AE')).to.equal(null);
    expect(decodeAt('%C3%41')).to.equal(null);
    expect(decodeAt('%F0%90%8C')).to.equal(null);
  });

  it('agrees with a fatal TextDecoder on every two-octet sequence', () => {
    for (let a = 0x80; a < 0x100; a++) {
      for (let b = 0; b < 0x100; b++) {
        const bytes = new Uint8Array([a, b]);
        const ours = decodeAt(pctEncodeBytes(bytes));
        const ref = decodeUtf8Strict(bytes);
        const refCp = ref !== null && ref.length === 1 ? ref.codePointAt(0)! : null;
        expect(ours === null ? null : ours[0], pctEncodeBytes(bytes)).to.equal(refCp);
      }
    }
  });

  it('agrees with a fatal TextDecoder on three-octet sequences with lead E0, ED, EF', () => {
    for (const a of [0xe0, 0xed, 0xef]) {
      for (let b = 0x70; b < 0xd0; b++) {
        for (const c of [0x41, 0x80, 0xbf, 0xc0]) {
          const bytes = new Uint8Array([a, b, c]);
          const ours = decodeAt(pctEncodeBytes(bytes));
          const ref = decodeUtf8Strict(bytes);
          expect(ours === null ? null : String.fromCodePoint(ours[0]), pctEncodeBytes(bytes)).to.equal(ref);
        }
      }
    }
  });
});

describe('iri percent: pctDecodeUtf8 (3987bis §3.4.2)', () => {
  it('decodes every triplet when all of them are valid UTF-8', () => {
    expect(pctDecodeUtf8('r%C3%A9sum%C3%A9.example.org')).to.equal('résumé.example.org');
    expect(pctDecodeUtf8('%41%2e')).to.equal('A.');
    expect(pctDecodeUtf8('plain')).to.equal('plain');
  });

  it('answers null when some triplet is not valid UTF-8 (the field is then left as is)', () => {
    expect(pctDecodeUtf8('r%E9sum%E9.example.org')).to.equal(null);
    expect(pctDecodeUtf8('%C3%A9%C3')).to.equal(null);
  });

  it('keeps a % that does not start a triplet', () => {
    expect(pctDecodeUtf8('100%')).to.equal('100%');
    expect(pctDecodeUtf8('%ZZ%C3%A9')).to.equal('%ZZé');
  });
});
