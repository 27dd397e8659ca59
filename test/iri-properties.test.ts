// Invariants of the IRI functions over generated strings (fast-check): idempotence, round trips,
// and "no exception on any string except the IriErrors the specifications call for".
import { expect } from 'chai';
import fc from 'fast-check';
import { IriError } from '../src/errors.js';
import { isInvisibleOrSpace } from '../src/iri/chars.js';
import { leiriToIri } from '../src/iri/leiri.js';
import { isIri, matchesIriAbnf, parseIriReference, recomposeIri, splitIriReference } from '../src/iri/parse.js';
import { pctByte } from '../src/iri/percent.js';
import { toIri } from '../src/iri/to-iri.js';
import { toUri, type ToUriOptions } from '../src/iri/to-uri.js';

const STRUCTURE = [
  'http://', 'https://', 'mailto:', 'ftp://', 'foo:', '//', '/', '?', '#', '@', ':', '[', ']', '%', '.', ',',
  '%%', '%4', '%2', 'xn--', 'XN--rsum-bpad', 'xn--99zt52a', 'a', 'Z', '0', '-', '~', ' ', '<', '\\', '\t', '\u0000', '\u007f',
];
const UNICODE = [
  'é', 'ß', 'Σ', '例', '。', 'ｅ', '\u0301', '\u00a0', '\u200b', '\u200d', '\u202e', '\u2066', '\u061c',
  '\ue000', '\u{f0000}', '\u{e0041}', '\ufdd0', '\ufffd', '\ufffe', '\uffff', '\u{1fffe}', '𐌀', '\uf900', 'א',
];
const LONE = ['\ud800', '\udbff', '\udc00', '\udfff'];

/** A %XX triplet of a random octet, in random hex case. */
const triplet = fc
  .tuple(fc.integer({ min: 0, max: 255 }), fc.boolean())
  .map(([b, lower]) => (lower ? pctByte(b).toLowerCase() : pctByte(b)));
/** The UTF-8 triplets of a random code point (mostly valid sequences), in random hex case. */
const encodedChar = fc
  .tuple(fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }), fc.boolean())
  .map(([c, lower]) => {
    const t = [...new TextEncoder().encode(c)].map(pctByte).join('');
    return lower ? t.toLowerCase() : t;
  });
const anyUnit = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...STRUCTURE) },
  { weight: 3, arbitrary: fc.constantFrom(...UNICODE) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
  { weight: 1, arbitrary: fc.constantFrom(...LONE) },
  { weight: 2, arbitrary: triplet },
  { weight: 2, arbitrary: encodedChar },
);
const anyString = fc.array(anyUnit, { maxLength: 24 }).map((a) => a.join(''));

// Pieces of URIs: ASCII URI characters and triplets only.
const URI_UNITS = ['http://', 'mailto:', 'x:', '//', '/', '?', '#', '@', ':', '.', 'a', 'B', '9', '-', '_', '~', '!', '=', 'xn--99zt52a'];
const uriString = fc
  .array(fc.oneof(fc.constantFrom(...URI_UNITS), triplet, encodedChar), { maxLength: 20 })
  .map((a) => a.join(''))
  .filter((u) => isIri(u, 'IRI-reference'));

const TOURI_CODES = new Set(['lone-surrogate', 'disallowed-ascii', 'idna-failed']);

/** The result, or the IriError code; any other exception fails the property. */
function attempt(run: () => string, allowed: Set<string>): string | { code: string } {
  try {
    return run();
  } catch (e) {
    if (e instanceof IriError && allowed.has(e.code)) return { code: e.code };
    throw e;
  }
}

/** RFC 3987 §3.2: a round trip may differ in the case of triplets and in encoded unreserved characters. */
function normalizePct(u: string): string {
  return u.replace(/%([0-9A-Fa-f]{2})/g, (t, hex: string) => {
    const c = String.fromCharCode(parseInt(hex, 16));
    return /[A-Za-z0-9\-._~]/.test(c) ? c : t.toUpperCase();
  });
}

describe('iri properties', () => {
  const modes: ToUriOptions[] = [
    { asciiDisallowed: 'encode' },
    { asciiDisallowed: 'encode', host: 'idna' },
    { asciiDisallowed: 'encode', normalize: 'NFC' },
    {},
  ];
  for (const opts of modes) {
    it(`toUri is idempotent and its result is ASCII (${JSON.stringify(opts)})`, () => {
      fc.assert(
        fc.property(anyString, (s) => {
          const once = attempt(() => toUri(s, opts), TOURI_CODES);
          if (typeof once !== 'string') return true;
          expect(toUri(once, opts)).to.equal(once);
          expect(/^[\x21-\x7e]*$/.test(once), once).to.equal(true);
          return true;
        }),
        { numRuns: 2000 },
      );
    });
  }

  it('toUri maps a valid IRI reference to a valid URI reference', () => {
    const iri = anyString.filter((s) => isIri(s, 'IRI-reference'));
    fc.assert(
      fc.property(iri, (s) => {
        const u = toUri(s);
        return isIri(u, 'IRI-reference') && matchesIriAbnf(u, 'IRI-reference');
      }),
      { numRuns: 1000 },
    );
  });

  it('toUri(toIri(u)) equals u up to triplet case and encoded unreserved characters (RFC 3987 §3.2)', () => {
    fc.assert(
      fc.property(uriString, (u) => {
        expect(normalizePct(toUri(toIri(u, { toUnicode: false })))).to.equal(normalizePct(u));
        return true;
      }),
      { numRuns: 3000 },
    );
  });

  it('toIri(toUri(iri)) gives the IRI back when it holds no triplet and nothing toIri keeps encoded', () => {
    const iri = anyString.filter((s) => {
      if (!isIri(s, 'IRI-reference') || s.includes('%')) return false;
      for (const ch of s) if (isInvisibleOrSpace(ch.codePointAt(0)!)) return false;
      return true;
    });
    fc.assert(fc.property(iri, (s) => toIri(toUri(s), { toUnicode: false }) === s), { numRuns: 1000 });
  });

  it('toIri never throws on any string, and is idempotent', () => {
    fc.assert(
      fc.property(anyString, fc.boolean(), (s, toUnicode) => {
        const once = toIri(s, { toUnicode });
        return typeof once === 'string' && toIri(once, { toUnicode }) === once;
      }),
      { numRuns: 3000 },
    );
  });

  it('leiriToIri throws only lone-surrogate / noncharacter, and is idempotent', () => {
    const codes = new Set(['lone-surrogate', 'noncharacter']);
    fc.assert(
      fc.property(anyString, (s) => {
        const once = attempt(() => leiriToIri(s), codes);
        return typeof once !== 'string' || leiriToIri(once) === once;
      }),
      { numRuns: 3000 },
    );
  });

  it('the parser functions never throw on strings; split and recompose are inverse', () => {
    fc.assert(
      fc.property(anyString, (s) => {
        for (const p of ['IRI', 'IRI-reference', 'absolute-IRI'] as const) {
          isIri(s, p);
          matchesIriAbnf(s, p);
        }
        const parsed = parseIriReference(s);
        if (parsed !== null) expect(recomposeIri(parsed)).to.equal(s);
        return recomposeIri(splitIriReference(s)) === s;
      }),
      { numRuns: 3000 },
    );
  });
});
