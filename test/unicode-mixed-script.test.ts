// UTS #39 §5 mixed-script detection on host labels (the `mixed-script-host` diagnostic).
import { expect } from 'chai';
import { findLinks, toHtml, linkify } from '../src/index.js';
import {
  hasMixedNumbers,
  isAtLeast,
  isSuspiciousHostLabel,
  OVERLAY_MARKS,
  restrictionLevel,
  type RestrictionLevel,
} from '../src/unicode/mixed-script.js';

describe('UTS #39 §5.2 restrictionLevel', () => {
  const cases: [string, RestrictionLevel, string][] = [
    ['', 'ascii', 'empty'],
    ['paypal', 'ascii', 'ASCII'],
    ['xn--r8jz45g', 'ascii', 'an A-label is ASCII'],
    ['bücher', 'single-script', 'Latin with a non-ASCII Latin letter'],
    ['日本語ひらがな', 'single-script', 'Han + Hiragana resolve to {Jpan}'],
    ['例え', 'single-script', 'Han + Hiragana'],
    ['カタカナー', 'single-script', 'ー has Script_Extensions {Hira, Kana}'],
    ['한국어', 'single-script', 'Hangul'],
    ['中文', 'single-script', 'Han'],
    ['аррӏе', 'single-script', 'all Cyrillic: a whole-script confusable, out of scope of this check'],
    ['ελληνικά', 'single-script', 'Greek'],
    ['مثال', 'single-script', 'Arabic'],
    ['пример1', 'single-script', 'Cyrillic + ASCII digit (Common)'],
    ['abc日本', 'highly-restrictive', 'Latin + Han (Jpan)'],
    ['ab한국', 'highly-restrictive', 'Latin + Hangul (Kore)'],
    ['abㄅ中', 'highly-restrictive', 'Latin + Bopomofo + Han (Hanb)'],
    ['abcไทย', 'moderately-restrictive', 'Latin + Thai'],
    ['abcعربي', 'moderately-restrictive', 'Latin + Arabic'],
    ['pаypal', 'minimally-restrictive', 'Latin + Cyrillic а (U+0430)'],
    ['gοogle', 'minimally-restrictive', 'Latin + Greek ο (U+03BF)'],
    ['ไทยعربي', 'minimally-restrictive', 'Thai + Arabic, no Latin'],
    ['한국ไทย', 'minimally-restrictive', 'Hangul + Thai'],
    ['a☃b', 'unrestricted', 'a symbol is not an identifier character'],
    ['ᚠᚢᚦ', 'unrestricted', 'Runic is not a Recommended script'],
    // UTS #39 Identifier_Type=Inclusion punctuation (found in review: these were 'unrestricted')
    ['col·legi', 'single-script', 'Catalan middle dot'],
    ['བོད་ཡིག', 'single-script', 'Tibetan tsheg'],
    ['צה״ל', 'single-script', 'Hebrew gershayim'],
    ['ウィキ・ペディア', 'single-script', 'katakana middle dot'],
    // …and their Script_Extensions still count: the middle dot's do not hold Thai, the katakana middle dot's are Jpan's
    ['ไทย·ไทย', 'moderately-restrictive', 'Thai + a middle dot (Latin among its scripts)'],
    ['a・b', 'highly-restrictive', 'Latin + the katakana middle dot (Jpan)'],
  ];
  for (const [label, level, why] of cases) {
    it(`${label || '(empty)'} → ${level} (${why})`, () => {
      expect(restrictionLevel(label)).to.equal(level);
    });
  }

  it('a supplementary Han character (U+20B9F 𠮟) counts as Han', () => {
    expect(restrictionLevel('𠮟る')).to.equal('single-script');
    expect(restrictionLevel('ab𠮟')).to.equal('highly-restrictive');
  });

  it('isAtLeast orders the levels', () => {
    expect(isAtLeast('single-script', 'moderately-restrictive')).to.equal(true);
    expect(isAtLeast('moderately-restrictive', 'moderately-restrictive')).to.equal(true);
    expect(isAtLeast('minimally-restrictive', 'moderately-restrictive')).to.equal(false);
  });
});

describe('UTS #39 §5.3 hasMixedNumbers', () => {
  it('flags digits from two numbering systems', () => {
    expect(hasMixedNumbers('a1٢')).to.equal(true); // ASCII 1 + Arabic-Indic 2
    expect(hasMixedNumbers('٣٤٥')).to.equal(false);
    expect(hasMixedNumbers('१२3')).to.equal(true); // Devanagari + ASCII
    expect(hasMixedNumbers('abc123')).to.equal(false);
    expect(hasMixedNumbers('𝟏𝟐')).to.equal(false); // mathematical bold 1, 2: one system
    expect(hasMixedNumbers('𝟏𝟤')).to.equal(true); // bold 1 + sans-serif 4: two runs of ten
  });
});

describe('isSuspiciousHostLabel (mixed-script-host)', () => {
  const suspicious = ['pаypal', 'gοogle', 'аpple', 'ไทยعربي', 'ex٣mple1', 'a☃b'];
  const fine = ['paypal', 'аррӏе', '日本語ひらがな', '例え', 'ab한국', 'münchen', 'abcไทย', 'テスト', '১২৩'];
  for (const label of suspicious) it(`${label} is suspicious`, () => expect(isSuspiciousHostLabel(label)).to.equal(true));
  for (const label of fine) it(`${label} is not flagged`, () => expect(isSuspiciousHostLabel(label)).to.equal(false));
});

describe('UTS #39 §5.4 item 2c: a mark that overlays its base (mixed-script-host)', () => {
  it('a host whose label holds an overlay mark is flagged, and toHtml does not make it clickable', () => {
    // m + U+0338 COMBINING LONG SOLIDUS OVERLAY shows as `m/`: the host reads as google.com/login…
    const text = 'see https://google.com\u0338login.evil.example/ now';
    const [link] = findLinks(text);
    expect(link?.text).to.equal('https://google.com\u0338login.evil.example/');
    expect(link?.diagnostics).to.include('mixed-script-host');
    expect(toHtml(linkify(text))).to.not.include('<a ');
    for (const mark of ['\u0335', '\u20e5', '\u20d2']) expect(isSuspiciousHostLabel(`com${mark}login`), mark).to.equal(true);
  });

  it('other marks are not: é written with U+0301, and i + U+0307 (UTS #46 maps İ to it)', () => {
    expect(isSuspiciousHostLabel('cafe\u0301')).to.equal(false);
    expect(isSuspiciousHostLabel('i\u0307stanbul')).to.equal(false);
  });

  it('OVERLAY_MARKS holds every mark of Canonical_Combining_Class 1 that the normaliser knows', () => {
    // ccc(x) is read from canonical reordering (UAX #15): after U+093C (ccc 7) a mark of a lower non-zero class moves
    // before it; before U+0335 (ccc 1; U+0334 for U+0335 itself) a mark of a higher class moves after it. So ccc(x) = 1 exactly when x moves
    // before U+093C and U+0335 does not move before x.
    const listed = (cp: number) => OVERLAY_MARKS.some(([lo, hi]) => cp >= lo && cp <= hi);
    const found: number[] = [];
    for (let cp = 0x300; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const x = String.fromCodePoint(cp);
      if (x.normalize('NFD') !== x) continue; // a decomposable character: its class is its parts'
      const movesBeforeNukta = ('a\u093c' + x).normalize('NFD') === 'a' + x + '\u093c';
      const one = cp === 0x335 ? '\u0334' : '\u0335';
      const higherThanOne = ('a' + x + one).normalize('NFD') === 'a' + one + x;
      if (movesBeforeNukta && !higherThanOne) found.push(cp);
    }
    expect(found.length).to.be.greaterThan(25);
    expect(found.filter((cp) => !listed(cp)).map((cp) => cp.toString(16))).to.deep.equal([]);
    // and every listed mark is one of them (the normaliser's Unicode may be older than 17.0: none is newer)
    const all = OVERLAY_MARKS.flatMap(([lo, hi]) => Array.from({ length: hi - lo + 1 }, (_, i) => lo + i));
    expect(all.filter((cp) => !found.includes(cp)).map((cp) => cp.toString(16))).to.deep.equal([]);
  });
});
