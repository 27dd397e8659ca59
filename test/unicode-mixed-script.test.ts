// UTS #39 §5 mixed-script detection on host labels (the `mixed-script-host` diagnostic).
import { expect } from 'chai';
import {
  hasMixedNumbers,
  isAtLeast,
  isSuspiciousHostLabel,
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
