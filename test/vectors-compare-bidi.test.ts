// The shared IRI vectors (vectors/iri-vectors.json) for comparison and bidi:
//  - `equivalence`: every pair at every rung of the RFC 3987 §5.3 ladder (the `ladder` booleans);
//  - `bidi_display`: the UAX #9 visual order of RFC 3987 §4.4's examples, base direction LTR, with the
//    capitals replaced by Hebrew or Arabic letters (`options.rtl_letters`), and the §4.2 component rules
//    (`component_rules_ok`).
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { checkIriBidi, visualOrder } from '../src/iri/bidi.js';
import { compareIris, type ComparisonLevel } from '../src/iri/compare.js';
import { sharedPath } from './support/shared.js';

interface Vector {
  id: string;
  category: string;
  input: unknown;
  expected: unknown;
  options?: { rtl_letters?: string };
  component_rules_ok?: boolean;
  notes?: string;
}

const vectors = (JSON.parse(readFileSync(sharedPath('vectors', 'iri-vectors.json'), 'utf8')) as { vectors: Vector[] })
  .vectors;

const RUNGS: [string, ComparisonLevel][] = [
  ['simple_string', 'simple'],
  ['case_normalization', 'case'],
  ['percent_encoding_normalization', 'percent-encoding'],
  ['path_segment_normalization', 'path-segment'],
  ['scheme_based_normalization', 'scheme'],
];

describe('vectors: equivalence (RFC 3987 §5.3 comparison ladder)', () => {
  const cases = vectors.filter((v) => v.category === 'equivalence');
  it('has the vectors (25)', () => expect(cases.length).to.equal(25));
  for (const v of cases) {
    const [a, b] = v.input as [string, string];
    const ladder = (v.expected as { ladder: Record<string, boolean> }).ladder;
    for (const [key, level] of RUNGS) {
      it(`${v.id} ${level}: ${a}  ${ladder[key] ? '≡' : '≢'}  ${b}`, () => {
        expect(ladder[key], `vector ${v.id} has ${key}`).to.be.a('boolean');
        expect(compareIris(a, b, level)).to.equal(ladder[key]);
        expect(compareIris(b, a, level)).to.equal(ladder[key]);
      });
    }
  }
});

// Bidi Notation ↔ real letters: A–Z ↔ Hebrew U+05D0… (R) or 26 Arabic letters (AL).
const HEBREW = Array.from({ length: 26 }, (_, i) => 0x5d0 + i);
const ARABIC = [
  0x627, 0x628, 0x62a, 0x62b, 0x62c, 0x62d, 0x62e, 0x62f, 0x630, 0x631, 0x632, 0x633, 0x634, 0x635, 0x636, 0x637,
  0x638, 0x639, 0x63a, 0x641, 0x642, 0x643, 0x644, 0x645, 0x646, 0x647,
];

describe('vectors: bidi_display (UAX #9 visual order, RFC 3987 §4.2 component rules)', () => {
  const cases = vectors.filter((v) => v.category === 'bidi_display');
  it('has the vectors (11)', () => expect(cases.length).to.equal(11));
  for (const v of cases) {
    const letters = v.options?.rtl_letters ?? 'hebrew';
    const table = letters === 'arabic' ? ARABIC : HEBREW;
    const logical = [...(v.input as string)]
      .map((ch) => (ch >= 'A' && ch <= 'Z' ? String.fromCodePoint(table[ch.charCodeAt(0) - 0x41]!) : ch))
      .join('');
    it(`${v.id} (${letters}): ${v.input as string} → ${v.expected as string}`, () => {
      expect(['hebrew', 'arabic']).to.include(letters);
      const shown = [...visualOrder(logical, 'ltr')]
        .map((ch) => {
          const i = table.indexOf(ch.codePointAt(0)!);
          return i >= 0 ? String.fromCharCode(0x41 + i) : ch;
        })
        .join('');
      expect(shown).to.equal(v.expected);
    });
    it(`${v.id} (${letters}): component rules ${v.component_rules_ok ? 'kept' : 'broken'}`, () => {
      expect(v.component_rules_ok).to.be.a('boolean');
      expect(checkIriBidi(logical).length === 0).to.equal(v.component_rules_ok);
    });
  }
});
