// The stream's decoders against the WHATWG Encoding Standard: its labels (§4.2), and its single-byte decoder (§9.1) by
// the index, pinned to values read from the standard's index files, and compared with Node's TextDecoder (ICU) where
// ICU's tables are the index; the same tables when TextDecoder knows no legacy charset (a Node built with small ICU);
// queries encoded by the same table (§9.2). Then the same bytes through the mail charset path and the log decoder,
// and GB18030 four-byte characters in writes that hold invalid bytes.
import { expect } from 'chai';
import fc from 'fast-check';
import iconv from 'iconv-lite';
import { execFileSync } from 'node:child_process';
import { Readable } from 'node:stream';
import { findLinks } from '../src/detect/index.js';
import { createLogLinkStream } from '../src/logs/index.js';
import { linkifyMessage } from '../src/mail/index.js';
import { createDecoder } from '../src/stream/decode.js';
import { createLinkStream } from '../src/stream/transform.js';
import type { StreamOptions } from '../src/stream/transform.js';
import type { Chunk } from '../src/types.js';
import { splitAt } from './support/split.js';
import { repoRoot } from '../bench/lib/paths.js';

function decodeInWrites(encoding: string, input: Uint8Array, cuts: number[]): string {
  const decoder = createDecoder(encoding);
  let text = '';
  for (const part of splitAt(Buffer.from(input), cuts)) text += decoder.write(part);
  return text + decoder.end();
}

async function streamParts(parts: Buffer[], options: StreamOptions): Promise<Chunk[]> {
  const out: Chunk[] = [];
  for await (const chunk of Readable.from(parts, { objectMode: true }).pipe(createLinkStream(options))) out.push(chunk as Chunk);
  return out;
}

/** Each link, and each run of text between links, as ⸠link⸡ or text, @byteStart-byteEnd, and invalid-bytes if any. */
function spans(chunks: Chunk[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < chunks.length; i++) {
    const c = chunks[i]!;
    let j = i;
    let text = c.type === 'link' ? `⸠${c.text}⸡` : c.text;
    let bad = c.diagnostics?.includes('invalid-bytes') === true;
    while (c.type === 'text' && j + 1 < chunks.length && chunks[j + 1]!.type === 'text') {
      j++;
      text += chunks[j]!.text;
      bad ||= chunks[j]!.diagnostics?.includes('invalid-bytes') === true;
    }
    out.push(`${text}@${c.byteStart}-${chunks[j]!.byteEnd}${bad ? ' invalid-bytes' : ''}`);
    i = j;
  }
  return out;
}

const hex = (b: number): string => b.toString(16).toUpperCase().padStart(2, '0');
const ALL = Buffer.from(Array.from({ length: 256 }, (_, b) => b));

/** Each WHATWG encoding (its name, lower case) and its labels: WHATWG Encoding §4.2 "Names and labels". */
const WHATWG_LABELS: Record<string, string[]> = {
  ibm866: ['866', 'cp866', 'csibm866', 'ibm866'],
  'iso-8859-2': ['csisolatin2', 'iso-8859-2', 'iso-ir-101', 'iso8859-2', 'iso88592', 'iso_8859-2', 'iso_8859-2:1987', 'l2', 'latin2'],
  'iso-8859-3': ['csisolatin3', 'iso-8859-3', 'iso-ir-109', 'iso8859-3', 'iso88593', 'iso_8859-3', 'iso_8859-3:1988', 'l3', 'latin3'],
  'iso-8859-4': ['csisolatin4', 'iso-8859-4', 'iso-ir-110', 'iso8859-4', 'iso88594', 'iso_8859-4', 'iso_8859-4:1988', 'l4', 'latin4'],
  'iso-8859-5': ['csisolatincyrillic', 'cyrillic', 'iso-8859-5', 'iso-ir-144', 'iso8859-5', 'iso88595', 'iso_8859-5', 'iso_8859-5:1988'],
  'iso-8859-6': ['arabic', 'asmo-708', 'csiso88596e', 'csiso88596i', 'csisolatinarabic', 'ecma-114', 'iso-8859-6', 'iso-8859-6-e', 'iso-8859-6-i', 'iso-ir-127', 'iso8859-6', 'iso88596', 'iso_8859-6', 'iso_8859-6:1987'],
  'iso-8859-7': ['csisolatingreek', 'ecma-118', 'elot_928', 'greek', 'greek8', 'iso-8859-7', 'iso-ir-126', 'iso8859-7', 'iso88597', 'iso_8859-7', 'iso_8859-7:1987', 'sun_eu_greek'],
  'iso-8859-8': ['csiso88598e', 'csisolatinhebrew', 'hebrew', 'iso-8859-8', 'iso-8859-8-e', 'iso-ir-138', 'iso8859-8', 'iso88598', 'iso_8859-8', 'iso_8859-8:1988', 'visual'],
  'iso-8859-8-i': ['csiso88598i', 'iso-8859-8-i', 'logical'],
  'iso-8859-10': ['csisolatin6', 'iso-8859-10', 'iso-ir-157', 'iso8859-10', 'iso885910', 'l6', 'latin6'],
  'iso-8859-13': ['iso-8859-13', 'iso8859-13', 'iso885913'],
  'iso-8859-14': ['iso-8859-14', 'iso8859-14', 'iso885914'],
  'iso-8859-15': ['csisolatin9', 'iso-8859-15', 'iso8859-15', 'iso885915', 'iso_8859-15', 'l9'],
  'iso-8859-16': ['iso-8859-16'],
  'koi8-r': ['cskoi8r', 'koi', 'koi8', 'koi8-r', 'koi8_r'],
  'koi8-u': ['koi8-ru', 'koi8-u'],
  macintosh: ['csmacintosh', 'mac', 'macintosh', 'x-mac-roman'],
  'windows-874': ['dos-874', 'iso-8859-11', 'iso8859-11', 'iso885911', 'tis-620', 'windows-874'],
  'windows-1250': ['cp1250', 'windows-1250', 'x-cp1250'],
  'windows-1251': ['cp1251', 'windows-1251', 'x-cp1251'],
  'windows-1252': ['ansi_x3.4-1968', 'ascii', 'cp1252', 'cp819', 'csisolatin1', 'ibm819', 'iso-8859-1', 'iso-ir-100', 'iso8859-1', 'iso88591', 'iso_8859-1', 'iso_8859-1:1987', 'l1', 'latin1', 'us-ascii', 'windows-1252', 'x-cp1252'],
  'windows-1253': ['cp1253', 'windows-1253', 'x-cp1253'],
  'windows-1254': ['cp1254', 'csisolatin5', 'iso-8859-9', 'iso-ir-148', 'iso8859-9', 'iso88599', 'iso_8859-9', 'iso_8859-9:1989', 'l5', 'latin5', 'windows-1254', 'x-cp1254'],
  'windows-1255': ['cp1255', 'windows-1255', 'x-cp1255'],
  'windows-1256': ['cp1256', 'windows-1256', 'x-cp1256'],
  'windows-1257': ['cp1257', 'windows-1257', 'x-cp1257'],
  'windows-1258': ['cp1258', 'windows-1258', 'x-cp1258'],
  'x-mac-cyrillic': ['x-mac-cyrillic', 'x-mac-ukrainian'],
  gbk: ['chinese', 'csgb2312', 'csiso58gb231280', 'gb2312', 'gb_2312', 'gb_2312-80', 'gbk', 'iso-ir-58', 'x-gbk'],
  gb18030: ['gb18030'],
  big5: ['big5', 'big5-hkscs', 'cn-big5', 'csbig5', 'x-x-big5'],
  'euc-jp': ['cseucpkdfmtjapanese', 'euc-jp', 'x-euc-jp'],
  'iso-2022-jp': ['csiso2022jp', 'iso-2022-jp'],
  shift_jis: ['csshiftjis', 'ms932', 'ms_kanji', 'shift-jis', 'shift_jis', 'sjis', 'windows-31j', 'x-sjis'],
  'euc-kr': ['cseuckr', 'csksc56011987', 'euc-kr', 'iso-ir-149', 'korean', 'ks_c_5601-1987', 'ks_c_5601-1989', 'ksc5601', 'ksc_5601', 'windows-949'],
  replacement: ['csiso2022kr', 'hz-gb-2312', 'iso-2022-cn', 'iso-2022-cn-ext', 'iso-2022-kr'],
  'utf-16be': ['unicodefffe', 'utf-16be'],
  'utf-16le': ['csunicode', 'iso-10646-ucs-2', 'ucs-2', 'unicode', 'unicodefeff', 'utf-16', 'utf-16le'],
  'x-user-defined': ['x-user-defined'],
  'utf-8': ['unicode-1-1-utf-8', 'unicode11utf8', 'unicode20utf8', 'utf-8', 'utf8', 'x-unicode20utf8'],
};
const SINGLE_BYTE = Object.keys(WHATWG_LABELS).slice(0, Object.keys(WHATWG_LABELS).indexOf('gbk'));

/**
 * Values read from the WHATWG Encoding Standard's index files (index-<encoding>.txt, pointer = byte − 0x80): byte, code
 * point, or null where the index has no pointer. Each is a place where Node's TextDecoder (ICU) or iconv-lite's table
 * is not the index, and a few where both are.
 */
const INDEX_VALUES: [string, number, number | null][] = [
  ['windows-1253', 0xaa, null], // ICU: U+00AA
  ['windows-1253', 0xd2, null],
  ['windows-1253', 0x81, 0x0081], // iconv-lite: none
  ['windows-1255', 0xca, 0x05ba], // ICU: none
  ['windows-1255', 0xd9, null],
  ['koi8-u', 0xae, 0x045e], // ICU and iconv-lite: U+255D
  ['koi8-u', 0xbe, 0x040e], // ICU and iconv-lite: U+256C
  ['koi8-u', 0xad, 0x0491],
  ...[0xdb, 0xdc, 0xdd, 0xde, 0xfc, 0xfd, 0xfe, 0xff].map((b): [string, number, null] => ['windows-874', b, null]), // ICU: U+F8C1…
  ['windows-874', 0x81, 0x0081], // iconv-lite: none
  ['windows-874', 0xfb, 0x0e5b],
  ['macintosh', 0xbd, 0x03a9], // iconv-lite: U+2126
  ['macintosh', 0xdb, 0x20ac], // iconv-lite: U+00A4
  ['macintosh', 0xf0, 0xf8ff], // iconv-lite: none
  ['x-mac-cyrillic', 0xa2, 0x0490], // iconv-lite's maccyrillic: U+00A2
  ['x-mac-cyrillic', 0xb6, 0x0491], // iconv-lite's maccyrillic: U+2202
  ['x-mac-cyrillic', 0xff, 0x20ac], // iconv-lite's maccyrillic: U+00A4
  ['windows-1252', 0x80, 0x20ac],
  ...[0x81, 0x8d, 0x8f, 0x90, 0x9d].map((b): [string, number, number] => ['windows-1252', b, b]), // iconv-lite: none
  ['windows-1252', 0x9f, 0x0178],
];

/** WHATWG's single-byte decoder for `encoding`, from TextDecoder corrected where ICU's table is not the index. */
function icuTable(encoding: string): string[] | null {
  let text: string;
  try {
    // `stream: true`: ICU's converter (Node 20.18.3+ decodes a windows-1252 call without it as Latin-1, nodejs/node#60888).
    text = new TextDecoder(encoding).decode(ALL, { stream: true });
  } catch {
    return null; // ICU has no converter for it (iso-8859-16), or Node has no full ICU
  }
  const table = [...text].map((ch, b) => (b < 0x80 ? String.fromCharCode(b) : ch)); // §9.1 step 2 (ICU's ibm866 rotates 1A 1C 7F)
  for (const [name, b, cp] of INDEX_VALUES) if (name === encoding) table[b] = cp === null ? '\uFFFD' : String.fromCharCode(cp);
  return table;
}

/** What the stream decodes byte b to, by itself (so no NFC reordering with its neighbours). */
function alone(encoding: string, b: number): string {
  return decodeInWrites(encoding, ALL.subarray(b, b + 1), []);
}

function streamTable(label: string): string[] {
  return Array.from({ length: 256 }, (_, b) => alone(label, b));
}

describe('stream decoder: labels are the WHATWG Encoding Standard\'s (§4.2)', () => {
  it('TextDecoder names the encoding of every label listed here (the list is WHATWG\'s), but those Node does not know', () => {
    const wrong: string[] = [];
    for (const [encoding, labels] of Object.entries(WHATWG_LABELS)) {
      // Node's TextDecoder has no ISO-8859-16 (ICU) and no x-user-defined; it refuses replacement's labels.
      if (encoding === 'iso-8859-16' || encoding === 'x-user-defined' || encoding === 'replacement') continue;
      for (const label of labels) {
        let name: string;
        try {
          name = new TextDecoder(label).encoding;
        } catch {
          name = 'refused';
        }
        if (name !== encoding) wrong.push(`${label}: ${name}`);
      }
    }
    expect(wrong).to.deep.equal([]);
  });

  it('the stream takes every label but x-user-defined and replacement\'s, as given, upper case, or between ASCII whitespace', () => {
    const refused: string[] = [];
    for (const [encoding, labels] of Object.entries(WHATWG_LABELS)) {
      for (const label of labels.flatMap((l) => [l, l.toUpperCase(), ` \t${l}\n\f\r`])) {
        try {
          createDecoder(label);
        } catch (e) {
          refused.push(`${encoding}: ${JSON.stringify(label)} ${(e as Error).message.includes('WHATWG') ? 'WHATWG' : '?'}`);
        }
      }
    }
    const expected = [...WHATWG_LABELS['replacement']!, ...WHATWG_LABELS['x-user-defined']!].flatMap((l) => [l, l.toUpperCase(), ` \t${l}\n\f\r`]);
    expect(refused.map((r) => JSON.parse(r.slice(r.indexOf(' ') + 1, r.lastIndexOf(' '))) as string)).to.deep.equal(expected);
    expect(refused.every((r) => r.endsWith(' WHATWG')), 'the error names the WHATWG reason').to.equal(true);
  });

  it('a single-byte label is its encoding: the same 256 bytes, and documentCharset the encoding\'s name', () => {
    const wrong: string[] = [];
    for (const encoding of SINGLE_BYTE) {
      const table = streamTable(encoding).join('');
      for (const label of WHATWG_LABELS[encoding]!) {
        for (const l of [label, ` ${label.toUpperCase()}\t`]) {
          const d = createDecoder(l);
          if (streamTable(l).join('') !== table) wrong.push(`${JSON.stringify(l)} table`);
          // the WHATWG name, x-mac-cyrillic too (iconv-lite calls it maccyrillic; toUri and the detector take both)
          if (d.documentCharset !== encoding) wrong.push(`${JSON.stringify(l)} documentCharset ${d.documentCharset}`);
        }
      }
    }
    expect(wrong).to.deep.equal([]);
  });

  it('x-euc-jp and cseucpkdfmtjapanese are EUC-JP: 日本 and documentCharset euc-jp', () => {
    const bytes = iconv.encode('日本', 'euc-jp');
    for (const label of ['x-euc-jp', 'cseucpkdfmtjapanese']) {
      expect([decodeInWrites(label, bytes, [1]), createDecoder(label).documentCharset], label).to.deep.equal(['日本', 'euc-jp']);
    }
  });
});

describe('stream decoder: single-byte charsets decode by the WHATWG index (§9.1), on every Node build', () => {
  it('the values read from WHATWG\'s index files, through each label of the encoding', () => {
    const wrong: string[] = [];
    for (const [encoding, b, cp] of INDEX_VALUES) {
      const want = cp === null ? '\uFFFD' : String.fromCharCode(cp);
      for (const label of WHATWG_LABELS[encoding]!) {
        const got = alone(label, b);
        if (got !== want) wrong.push(`${label} ${hex(b)}: ${JSON.stringify(got)}`);
      }
    }
    expect(wrong).to.deep.equal([]);
  });

  for (const encoding of SINGLE_BYTE) {
    it(`${encoding}: all 256 bytes as TextDecoder (ICU) decodes them, but where ICU is not the index (listed above)`, () => {
      const reference = icuTable(encoding === 'iso-8859-16' ? 'windows-1252' : encoding);
      // Node's ICU has no ISO-8859-16: its 128 upper bytes from iconv-lite, its ASCII bytes themselves.
      const table = encoding === 'iso-8859-16' ? [...ALL.subarray(0, 128).toString('latin1'), ...iconv.decode(ALL.subarray(128), 'iso885916')] : reference!;
      expect(table, 'TextDecoder knows it').to.have.length(256);
      const wrong: string[] = [];
      const got = streamTable(encoding);
      for (let b = 0; b < 256; b++) if (got[b] !== table[b]) wrong.push(`${hex(b)}: ${JSON.stringify(got[b])}, not ${JSON.stringify(table[b])}`);
      expect(wrong).to.deep.equal([]);
    });
  }

  it('with a TextDecoder that knows no legacy charset (a Node built with small ICU), every table and mail part is the same', function () {
    this.timeout(30_000);
    // A child process whose TextDecoder throws for every label but UTF-8 and UTF-16LE, as in such a build.
    const script = `
      import util from 'node:util';
      import { syncBuiltinESMExports } from 'node:module';
      const Real = util.TextDecoder;
      class SmallIcu extends Real {
        constructor(label = 'utf-8', options) {
          const name = new Real(label).encoding;
          if (name !== 'utf-8' && name !== 'utf-16le') throw new RangeError('The "' + label + '" encoding is not supported');
          super(label, options);
        }
      }
      util.TextDecoder = SmallIcu; globalThis.TextDecoder = SmallIcu; syncBuiltinESMExports();
      let refused = false; try { new TextDecoder('windows-1252'); } catch { refused = true; }
      const { createDecoder } = await import('./src/stream/decode.ts');
      const { linkifyMessage } = await import('./src/mail/index.ts');
      const all = Buffer.from(Array.from({ length: 256 }, (_, b) => b));
      const tables = {};
      for (const e of ${JSON.stringify(SINGLE_BYTE)}) tables[e] = Array.from(all, (b) => { const d = createDecoder(e); return d.write(all.subarray(b, b + 1)) + d.end(); }).join('');
      const m = await linkifyMessage(Buffer.concat([Buffer.from('Content-Type: text/plain; charset=iso-8859-1\\r\\n\\r\\nsee https://x.fr/'), Buffer.from([0x92]), Buffer.from('a\\n')]));
      console.log(JSON.stringify({ refused, tables, mail: [m.parts[0].charset, m.parts[0].links.map((l) => l.text)] }));`;
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: repoRoot, encoding: 'utf8' });
    const child = JSON.parse(out) as { refused: boolean; tables: Record<string, string>; mail: unknown };
    expect(child.refused, 'the child\'s TextDecoder refuses windows-1252').to.equal(true);
    for (const encoding of SINGLE_BYTE) expect(child.tables[encoding], encoding).to.equal(streamTable(encoding).join(''));
    expect(child.mail).to.deep.equal(['windows-1252', ['https://x.fr/’a']]);
  });

  it('windows-1252 0x81 0x8D 0x8F 0x90 0x9D are U+0081 … U+009D (WHATWG index), not U+FFFD; 0x80 0x92 0x9F are € ’ Ÿ', () => {
    expect(decodeInWrites('windows-1252', Buffer.from([0x81, 0x8d, 0x8f, 0x90, 0x9d]), [2])).to.equal('\u0081\u008D\u008F\u0090\u009D');
    for (const label of ['windows-1252', 'latin1', 'us-ascii']) expect(decodeInWrites(label, Buffer.from([0x80, 0x92, 0x9f]), [1]), label).to.equal('€’Ÿ');
  });

  it('iconv-lite\'s other names of a WHATWG encoding decode as it (windows1252, windows-1252:2000, koi8u, maccyrillic)', () => {
    const cases: [string, string][] = [['windows1252', 'windows-1252'], ['windows-1252:2000', 'windows-1252'], ['windows874', 'windows-874'], ['koi8r', 'koi8-r'], ['koi8u', 'koi8-u'], ['maccyrillic', 'x-mac-cyrillic'], ['iso885916', 'iso-8859-16']];
    for (const [name, encoding] of cases) expect(streamTable(name).join(''), name).to.equal(streamTable(encoding).join(''));
  });

  it('any bytes, any writes: the text is the bytes looked up one by one (then NFC), for windows-1252, -1253, -874, koi8-u, macintosh, iso-8859-1', () => {
    for (const encoding of ['windows-1252', 'windows-1253', 'windows-874', 'koi8-u', 'macintosh', 'iso-8859-1']) {
      const table = streamTable(encoding);
      fc.assert(
        fc.property(fc.uint8Array({ maxLength: 40 }), fc.array(fc.nat({ max: 40 }), { maxLength: 6 }), (raw, cuts) => {
          const expected = [...raw].map((b) => table[b]).join('').normalize('NFC');
          expect(decodeInWrites(encoding, raw, cuts), encoding).to.equal(expected);
        }),
        { seed: 9, numRuns: 200 },
      );
    }
  });

  it('charsets WHATWG does not define keep iconv-lite\'s table (cp437, koi8-t, cp850: all 256 bytes)', () => {
    for (const encoding of ['cp437', 'koi8t', 'cp850']) {
      for (let b = 0; b < 256; b++) expect(alone(encoding, b), `${encoding} ${hex(b)}`).to.equal(iconv.decode(ALL.subarray(b, b + 1), encoding));
    }
  });

  it('a byte the encoding defines is text (no invalid-bytes); one it leaves out is U+FFFD + invalid-bytes, one byte each', async () => {
    const input = Buffer.concat([Buffer.from('a'), Buffer.from([0x81]), Buffer.from(' http://x.gr/'), Buffer.from([0xd2]), Buffer.from(' b')]);
    expect(spans(await streamParts([input], { encoding: 'windows-1252' }))).to.deep.equal(['a\u0081 @0-3', '⸠http://x.gr/Ò⸡@3-16', ' b@16-18']);
    expect(spans(await streamParts([input], { encoding: 'windows-1253' }))).to.deep.equal(['a\u0081 @0-3', '⸠http://x.gr/�⸡@3-16 invalid-bytes', ' b@16-18']);
    const aa = Buffer.concat([Buffer.from('see http://x.gr/'), Buffer.from([0xaa]), Buffer.from(' b')]);
    expect(spans(await streamParts([aa], { encoding: 'windows-1253' }))).to.deep.equal(['see @0-4', '⸠http://x.gr/�⸡@4-17 invalid-bytes', ' b@17-19']);
  });

  it('a query is converted by the same table the stream decoded it with (3987bis §3.5, WHATWG Encoding §9.2)', async () => {
    const cases: [string, number, string, string][] = [
      ['latin1', 0x8a, 'Š', '%8A'], // windows-1252
      ['macintosh', 0xdb, '€', '%DB'], // iconv-lite's macintosh has ¤ there, and no €
      ['x-mac-ukrainian', 0xff, '€', '%FF'],
      ['x-mac-cyrillic', 0xa2, 'Ґ', '%A2'], // iconv-lite's maccyrillic has ¢ there, and no Ґ
      ['maccyrillic', 0xb6, 'ґ', '%B6'],
      ['koi8-u', 0xae, 'ў', '%AE'],
      ['windows-1253', 0xa2, 'Ά', '%A2'],
    ];
    for (const [encoding, byte, char, pct] of cases) {
      const input = Buffer.concat([Buffer.from('see http://x.fr/?q='), Buffer.from([byte]), Buffer.from('5 ok')]);
      const link = (await streamParts([input], { encoding })).find((c) => c.type === 'link')!;
      expect([link.text, link.type === 'link' ? link.uri : '', link.diagnostics ?? []], encoding).to.deep.equal([`http://x.fr/?q=${char}5`, `http://x.fr/?q=${pct}5`, []]);
    }
  });
});

describe('a stream in x-mac-cyrillic hands the detector that WHATWG name as documentCharset', () => {
  it('createDecoder names it x-mac-cyrillic for each of its labels and for iconv-lite\'s maccyrillic', () => {
    const names = ['x-mac-cyrillic', 'x-mac-ukrainian', ' X-Mac-Ukrainian\t', 'maccyrillic'].map((l) => createDecoder(l).documentCharset);
    expect(names).to.deep.equal(['x-mac-cyrillic', 'x-mac-cyrillic', 'x-mac-cyrillic', 'x-mac-cyrillic']);
  });

  it('the stream\'s links are the detector\'s with documentCharset x-mac-cyrillic: the query by the same table', async () => {
    const input = Buffer.concat([Buffer.from('see http://x.ua/'), Buffer.from([0xa2]), Buffer.from('?q='), Buffer.from([0xa2, 0xb6, 0xff]), Buffer.from(' ok')]);
    const link = (await streamParts([input], { encoding: 'x-mac-cyrillic' })).find((c) => c.type === 'link')!;
    const text = 'see http://x.ua/Ґ?q=Ґґ€ ok';
    const direct = findLinks(text, { documentCharset: 'x-mac-cyrillic' })[0]!;
    expect(link.type === 'link' ? [link.text, link.uri] : []).to.deep.equal(['http://x.ua/Ґ?q=Ґґ€', 'http://x.ua/%D2%90?q=%A2%B6%FF']);
    expect([direct.text, direct.uri]).to.deep.equal(['http://x.ua/Ґ?q=Ґґ€', 'http://x.ua/%D2%90?q=%A2%B6%FF']);
  });
});

describe('the mail and log decoders read single-byte charsets the same way', () => {
  // windows-1254 (the WHATWG encoding of the label iso-8859-9) 0x8A is Š; ISO-8859-9 0x8A is a C1 control.
  const line = Buffer.concat([Buffer.from('see https://x.tr/'), Buffer.from([0x8a]), Buffer.from('a end\n')]);

  it('mail: a part declared iso-8859-9 reads 0x8A as Š, and says it was decoded as windows-1254', async () => {
    const m = await linkifyMessage(Buffer.concat([Buffer.from('Content-Type: text/plain; charset=iso-8859-9\r\n\r\n'), line]));
    const p = m.parts[0]!;
    expect([p.charset, p.declaredCharset, p.links.map((l) => l.text)]).to.deep.equal(['windows-1254', 'iso-8859-9', ['https://x.tr/Ša']]);
  });

  it('mail: parts declared x-euc-jp and x-mac-ukrainian are EUC-JP and x-mac-cyrillic (WHATWG labels iconv-lite lacks)', async () => {
    const got: unknown[] = [];
    for (const [charset, body] of [['x-euc-jp', iconv.encode('日本', 'euc-jp')], ['x-mac-ukrainian', Buffer.from([0xa2, 0xff])]] as const) {
      const m = await linkifyMessage(Buffer.concat([Buffer.from(`Content-Type: text/plain; charset=${charset}\r\n\r\nsee https://x.example/`), body, Buffer.from('a\n')]));
      got.push([m.parts[0]!.charset, m.parts[0]!.links.map((l) => l.text)]);
    }
    expect(got).to.deep.equal([['euc-jp', ['https://x.example/日本a']], ['x-mac-cyrillic', ['https://x.example/Ґ€a']]]);
  });

  it('logs: createLogLinkStream({ encoding: "iso-8859-9" }) reads 0x8A as Š, byte offsets exact', async () => {
    let out = '';
    for await (const b of Readable.from([line]).pipe(createLogLinkStream({ encoding: 'iso-8859-9' }))) out += (b as Buffer).toString('utf8');
    const rows = out.trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(rows.map((r) => [r.text, r.byteStart, r.byteEnd])).to.deep.equal([['https://x.tr/Ša', 4, 19]]);
  });
});

describe('stream decoder: GB18030 four-byte characters in a write that also holds invalid bytes', () => {
  // 😀 (four bytes, beyond the BMP), € … in the BMP's four-byte ranges (e.g. U+00E9 é = 81 30 86 30), FF invalid.
  const text = 'é😀ㄦ\u20ac𠮷ⓐ';

  it('decode as iconv-lite decodes each character, the FF as one U+FFFD, any writes', () => {
    const good = iconv.encode(text, 'gb18030');
    const input = Buffer.concat([good, Buffer.from([0xff]), good, Buffer.from([0x81, 0x20]), good]);
    const expected = `${text}\uFFFD${text}\uFFFD ${text}`;
    fc.assert(
      fc.property(fc.array(fc.nat({ max: input.length }), { maxLength: 5 }), (cuts) => {
        expect(decodeInWrites('gb18030', input, cuts)).to.equal(expected);
      }),
      { seed: 9, numRuns: 200 },
    );
  });

  it('a four-byte sequence of no code point (pointer 39420–188999, or past 1237575) is one U+FFFD for its four bytes (WHATWG), any writes', async () => {
    const input = Buffer.concat([
      Buffer.from('a '),
      Buffer.from([0x84, 0x31, 0xa4, 0x39]), // pointer 39419: U+FFFF, the last of the BMP ranges
      Buffer.from([0x84, 0x31, 0xa5, 0x30]), // 39420: none (iconv-lite: U+10000)
      Buffer.from([0x90, 0x30, 0x81, 0x30]), // 189000: U+10000
      Buffer.from([0xe3, 0x32, 0x9a, 0x35]), // 1237575: U+10FFFF
      Buffer.from([0xe3, 0x32, 0x9a, 0x36]), // 1237576: none (iconv-lite: U+DC00 U+DC00)
      Buffer.from(' b'),
    ]);
    const expected = 'a \uFFFF\uFFFD\u{10000}\u{10FFFF}\uFFFD b';
    for (const encoding of ['gb18030', 'gbk']) {
      for (const cuts of [[], [3], [4, 5, 9, 13, 17, 21], [...input.keys()]]) expect(decodeInWrites(encoding, input, cuts), `${encoding} ${cuts.join()}`).to.equal(expected);
    }
    expect(spans(await streamParts([input], { encoding: 'gb18030' }))).to.deep.equal([`${expected}@0-24 invalid-bytes`]);
    const chunks = await streamParts([Buffer.from([0x84, 0x31, 0xa5, 0x30, 0x20]), Buffer.from('http://x.cn/ '), Buffer.from([0xe3, 0x32, 0x9a, 0x36])], { encoding: 'gb18030' });
    expect(spans(chunks)).to.deep.equal(['\uFFFD @0-5 invalid-bytes', '⸠http://x.cn/⸡@5-17', ' \uFFFD@17-22 invalid-bytes']);
  });

  it('every four-byte character of the BMP (39420 of them) and a sample beyond it, after an invalid byte, is iconv-lite\'s', () => {
    const pointers: number[] = [];
    for (let p = 0; p < 39420; p++) pointers.push(p);
    for (let p = 189000; p <= 1237575; p += 997) pointers.push(p);
    const input = Buffer.alloc(1 + pointers.length * 4);
    input[0] = 0xff;
    pointers.forEach((p, k) => {
      input[1 + k * 4] = 0x81 + Math.floor(p / 12600);
      input[2 + k * 4] = 0x30 + (Math.floor(p / 1260) % 10);
      input[3 + k * 4] = 0x81 + (Math.floor(p / 10) % 126);
      input[4 + k * 4] = 0x30 + (p % 10);
    });
    const expected = '\uFFFD' + pointers.map((_, k) => iconv.decode(input.subarray(1 + k * 4, 5 + k * 4), 'gb18030')).join('');
    expect(decodeInWrites('gb18030', input, []) === expected.normalize('NFC')).to.equal(true);
  });
});
