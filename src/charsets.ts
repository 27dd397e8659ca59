// Charset names and single-byte tables, shared by the stream's decoders (src/stream/decode.ts) and by toUri's query
// encoding in a document charset (3987bis §3.5, src/iri/to-uri.ts), so that a query is encoded by the same table its
// text was decoded with.
//
// - Labels: WHATWG Encoding §4.2 "Names and labels" (a label names an encoding: latin1 is windows-1252, x-euc-jp is
//   EUC-JP), else iconv-lite's names. `planOf` works out once per label how the stream decodes it.
// - Single-byte charsets: a 256-entry table per charset (TableCodec), the WHATWG index where the WHATWG Encoding
//   Standard defines the charset, else iconv-lite's.
import { Buffer, isAscii } from 'node:buffer';
import type Iconv from 'iconv-lite';
import { lazyRequire } from './lazy.js';
import { badOption } from './errors.js';

const iconv = lazyRequire<typeof Iconv>('iconv-lite');

export type Family = 'single' | 'sjis' | 'eucjp' | 'gb' | 'dbcs2' | 'cesu8' | 'utf16' | 'utf32';

/**
 * Normalises an encoding name for comparison as iconv-lite does: lower case, letters and digits only, a year suffix
 * (`:2000`) dropped (so `utf-8:2000` is UTF-8 here too, not a charset of unknown structure).
 */
function squash(name: string): string {
  let out = '';
  let end = name.length;
  if (end >= 5 && name.charCodeAt(end - 5) === 0x3a && isDigits(name, end - 4, end)) end -= 5;
  for (let i = 0; i < end; i++) {
    const c = name.charCodeAt(i) | 0x20;
    if ((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39)) out += String.fromCharCode(c);
  }
  return out;
}

function isDigits(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return false;
  }
  return true;
}

function isUtf8Name(squashed: string): boolean {
  return squashed === 'utf8' || squashed === 'unicode11utf8';
}

/**
 * UTF-16, UTF-32 and CESU-8 (and their byte-order variants): Unicode encodings other than UTF-8. RFC 3987 §3.1
 * step 1 variant C: their text is taken as it is, not normalised; 3987bis §3.5 (queries in the document charset)
 * is for non-Unicode documents only, so their links are converted as UTF-8 text's are.
 */
function isUnicodeName(squashed: string): boolean {
  return /^(utf(16|32)(le|be)?|ucs2|ucs4|cesu8)$/.test(squashed);
}

function isIso2022JpName(squashed: string): boolean {
  return squashed === 'iso2022jp' || squashed === 'csiso2022jp';
}

/**
 * Checks an `encoding` option before any data flows; throws a TypeError naming the option for an
 * encoding that neither irilink nor iconv-lite knows.
 */
export function checkEncoding(encoding: unknown): void {
  if (encoding === undefined) return;
  if (typeof encoding !== 'string' || encoding === '') {
    throw badOption('encoding', 'a charset name such as "utf-8" or "shift_jis"', encoding);
  }
  planOf(encoding);
}

/** How a charset label is decoded: worked out once per label (see planOf). */
export type Plan =
  | { readonly kind: 'utf8' }
  | { readonly kind: 'iso2022jp' }
  | {
      readonly kind: 'legacy';
      /** iconv-lite's name for the charset (for a single-byte one, only where its table is used). */
      readonly encoding: string;
      readonly family: Family;
      /** 'single' family: the 256-entry table (see TableCodec). */
      readonly single: TableCodec | null;
      readonly documentCharset: string | undefined;
    };

const UTF8_PLAN: Plan = { kind: 'utf8' };
const ISO2022JP_PLAN: Plan = { kind: 'iso2022jp' };

/**
 * The plan of each label seen. The log decoder makes a decoder per line, so a label is looked up once, not per
 * decoder (finding the WHATWG encoding of a label, and iconv-lite's family of a codec, cost µs to ms). Emptied past
 * LABELS_KEPT labels, so that a mailbox of many spellings cannot make it grow without bound.
 */
const plans = new Map<string, Plan>();
const LABELS_KEPT = 256;

export function planOf(encoding: string): Plan {
  let plan = plans.get(encoding);
  if (plan === undefined) {
    plan = makePlan(encoding);
    if (plans.size >= LABELS_KEPT) plans.clear();
    plans.set(encoding, plan);
  }
  return plan;
}

function makePlan(encoding: string): Plan {
  const s = squash(encoding);
  if (isUtf8Name(s)) return UTF8_PLAN;
  if (isIso2022JpName(s)) return ISO2022JP_PLAN;
  // iconv-lite also knows base64 and hex, which are not charsets: they would "decode" text into its own spelling.
  if (s === 'base64' || s === 'hex') {
    throw badOption('encoding', 'a text charset, not a binary-to-text encoding such as base64 or hex', encoding);
  }
  // UTF-7 (RFC 2152): iconv-lite's decoder loses text when fed a byte at a time, as the generic path does
  // (`e+AwE-` gave `e+`), and the WHATWG Encoding Standard leaves it out for security reasons.
  if (s === 'utf7' || s === 'utf7imap' || s === 'unicode11utf7') {
    throw badOption('encoding', 'a charset other than UTF-7 (not supported: the WHATWG Encoding Standard leaves it out)', encoding);
  }
  const whatwg = whatwgEncodingOf(encoding);
  if (whatwg === 'utf-8') return UTF8_PLAN;
  if (whatwg === 'iso-2022-jp') return ISO2022JP_PLAN;
  if (whatwg === 'x-user-defined') {
    // WHATWG Encoding §14.5: bytes 0x80–0xFF as the private-use U+F780–U+F7FF, for binary data read as text.
    throw badOption('encoding', 'a text charset (x-user-defined is not supported: the WHATWG Encoding Standard maps its bytes to private-use characters)', encoding);
  }
  if (whatwg === 'replacement') {
    // WHATWG Encoding §14.1: these labels name the "replacement" encoding, whose decoder gives one U+FFFD for the
    // whole input (ISO-2022-KR, ISO-2022-CN and HZ-GB-2312 can smuggle ASCII past filters): nothing to link in.
    throw badOption('encoding', 'a charset other than ISO-2022-KR, ISO-2022-CN or HZ-GB-2312 (the WHATWG Encoding Standard reads them as one U+FFFD)', encoding);
  }
  // WHATWG Encoding §4.2: a label of a single-byte encoding is that encoding, whatever iconv-lite calls it.
  if (whatwg !== undefined && SINGLE_BYTE.has(whatwg)) return singlePlan(whatwg, tableCodec(whatwg));
  let name: string = encoding;
  const known: boolean = iconv().encodingExists(encoding); // (a type guard that would narrow `encoding` to never)
  if (!known) {
    // A WHATWG label of a multi-byte encoding that iconv-lite spells otherwise (x-euc-jp, cseucpkdfmtjapanese,
    // unicodefeff, …): the encoding's own name, which iconv-lite knows.
    if (whatwg === undefined || !iconv().encodingExists(whatwg)) {
      throw badOption('encoding', 'a charset name the WHATWG Encoding Standard or iconv-lite knows (e.g. "utf-8", "shift_jis", "windows-1252")', encoding);
    }
    name = whatwg;
  }
  const family = familyOf(name);
  // A codec whose byte structure irilink does not know could not be decoded exactly, with byte offsets (none today).
  if (family === null) {
    throw badOption('encoding', 'a charset of a known byte structure (single-byte, Shift_JIS, EUC-JP, GB18030, Big5, EUC-KR, UTF-16/32, CESU-8)', encoding);
  }
  if (family === 'single') {
    // Another of iconv-lite's names of a WHATWG single-byte encoding (windows1252, windows-1252:2000, maccyrillic), else a
    // charset WHATWG does not define (cp437, koi8-t): iconv-lite's table, read the same way.
    const same = singleByteOfCodec().get(resolvedName(name));
    return singlePlan(same ?? name, same !== undefined ? tableCodec(same) : new TableCodec(null, name));
  }
  const unicode = family === 'utf16' || family === 'utf32' || family === 'cesu8' || isUnicodeName(squash(name));
  return { kind: 'legacy', encoding: name, family, single: null, documentCharset: unicode ? undefined : whatwg !== undefined && !known ? whatwg : encoding };
}

function singlePlan(name: string, codec: TableCodec): Plan {
  return { kind: 'legacy', encoding: name, family: 'single', single: codec, documentCharset: codec.documentCharset };
}

/**
 * Every encoding the stream accepts, one name per entry of iconv-lite's table that checkEncoding takes (its aliases
 * left out), after the two irilink decodes itself, `utf-8` and `iso-2022-jp`, and the WHATWG encodings iconv-lite has
 * no entry for (`x-mac-cyrillic`). For tests and listings.
 */
export function streamEncodings(): string[] {
  const lib = iconv() as unknown as { encodings: Record<string, unknown> | null; getCodec(name: string): unknown };
  if (lib.encodings === null) lib.getCodec('utf-8'); // loads the table
  const names = ['utf-8', 'iso-2022-jp', 'x-mac-cyrillic'];
  for (const [name, entry] of Object.entries(lib.encodings ?? {})) {
    if (typeof entry === 'string' || name.startsWith('_') || isUtf8Name(name)) continue; // an alias, a codec type, UTF-8
    try {
      checkEncoding(name);
    } catch {
      continue; // refused (base64, hex, UTF-7)
    }
    names.push(name);
  }
  return names;
}

/**
 * The WHATWG single-byte encoding `charset` names (a label, WHATWG Encoding §4.2, or another of iconv-lite's names for
 * one), as a table that also encodes: for a query in that document charset (3987bis §3.5), the inverse of the table the
 * stream decoded it with. Null for any other charset.
 */
export function singleByteCharset(charset: string): SingleByteCharset | null {
  let plan: Plan;
  try {
    plan = planOf(charset);
  } catch {
    return null;
  }
  return plan.kind === 'legacy' && plan.single !== null && plan.single.whatwg !== null ? plan.single : null;
}

/** Every label of WHATWG Encoding §4.2's table, in its order (for tests and listings). */
export function whatwgLabels(): string[] {
  return ENCODING_LABELS.flatMap(([, labels]) => labels);
}

/**
 * 3987bis §3.5: the charset in which a query from a document in `name` is percent-encoded (toUri's and the detector's
 * `documentCharset`): `utf-8` for a Unicode encoding (UTF-8, UTF-16, UTF-32, CESU-8: the text is UCS, RFC 3987 §3.1),
 * for a legacy one the name it is encoded with (a WHATWG single-byte encoding's name, or a name iconv-lite knows:
 * `x-euc-jp` → `euc-jp`, `Shift_JIS` as given), and null for a name no stream decodes (base64, hex, UTF-7,
 * x-user-defined, the replacement labels, unknown names) or whose queries irilink cannot encode (ISO-2022-JP: no
 * encoder).
 */
export function queryCharset(name: string): string | null {
  let plan: Plan;
  try {
    plan = planOf(name);
  } catch {
    return null;
  }
  if (plan.kind === 'utf8') return 'utf-8';
  if (plan.kind === 'iso2022jp') return null;
  return plan.documentCharset ?? 'utf-8';
}

/** Whether toUri and the detector take `name` as a document charset (queryCharset gives one). */
export function isDocumentCharset(name: string): boolean {
  return queryCharset(name) !== null;
}

export interface SingleByteCharset {
  /** The WHATWG encoding's name (lower case: `windows-1252`, `x-mac-cyrillic`). */
  readonly whatwg: string | null;
  /**
   * WHATWG Encoding §9.2 "single-byte encoder": each character's byte (an ASCII one itself, any other its pointer in
   * the index + 0x80), or null when a character has none.
   */
  encode(text: string): Uint8Array | null;
}
/** iconv-lite's own name of an encoding (its aliases followed: `utf16le` → `ucs2`), once its table is loaded. */
export function resolvedName(encoding: string): string {
  const lib = iconv() as unknown as { encodings: Record<string, unknown> | null };
  let name = squash(encoding);
  for (let i = 0; i < 16 && lib.encodings !== null; i++) {
    const next = lib.encodings[name];
    if (typeof next !== 'string') break;
    name = next;
  }
  return name;
}

/** How `encoding`'s bytes make characters, or null for a codec of no known structure (checkEncoding refuses it). */
function familyOf(encoding: string): Family | null {
  const codec = iconv().getCodec(encoding) as unknown as { encodingName?: string; decodeBuf?: unknown };
  if (codec.decodeBuf !== undefined) return 'single'; // iconv-lite SBCS: one byte, one UTF-16 unit
  const s = squash(encoding);
  if (s === 'cesu8') return 'cesu8';
  if (s === 'latin1' || s === 'binary' || s === 'ascii' || s === 'usascii' || s === 'iso88591') return 'single';
  const name = resolvedName(encoding);
  if (name === 'ucs2' || name === 'utf16be' || name === 'utf16') return 'utf16';
  if (name === 'utf32le' || name === 'utf32be' || name === 'utf32') return 'utf32';
  switch (codec.encodingName) {
    case 'shiftjis':
      return 'sjis';
    case 'eucjp':
      return 'eucjp';
    case 'gb18030':
    case 'gbk':
    case 'cp936':
      return 'gb';
    case 'big5hkscs':
    case 'cp950':
    case 'cp949':
      return 'dbcs2';
    default:
      return null;
  }
}
// ---------------------------------------------------------------------------------------------------
// Single-byte charsets.
//
// WHATWG Encoding §9.1 "single-byte decoder": an ASCII byte is its own code point; any other byte is looked up in
// the encoding's index, and a byte the index leaves out is an error (U+FFFD + `invalid-bytes` here). §4.2 "Names and
// labels" says which encoding a label names: iso-8859-1, latin1 and us-ascii name windows-1252, iso-8859-9 names
// windows-1254, iso-8859-11 and tis-620 name windows-874 (browsers and mail readers decode them so).
// The index is iconv-lite's table of the same encoding with the corrections below (WHATWG_C1, INDEX_CORRECTIONS):
// the same table on every Node build. Node's TextDecoder is not used: its ICU tables differ from the index (windows-1253
// 0xAA, koi8-u 0xAE 0xBE, windows-874 0xDB–0xDE 0xFC–0xFF, windows-1255 0xCA), and a Node built with small ICU knows
// no legacy charset at all (test/stream-decode-whatwg.test.ts compares the two where ICU is full).
// Other single-byte charsets (cp437, koi8-t, …) keep iconv-lite's table, read the same way. Either way a write is
// decoded by a look-up per byte into a 256-entry table, so the text never depends on how the bytes were split.

/** WHATWG Encoding §4.2 "Names and labels": each encoding (by its name in lower case) and its labels. */
const ENCODING_LABELS: readonly (readonly [string, readonly string[]])[] = [
  ['utf-8', ['unicode-1-1-utf-8', 'unicode11utf8', 'unicode20utf8', 'utf-8', 'utf8', 'x-unicode20utf8']],
  ['ibm866', ['866', 'cp866', 'csibm866', 'ibm866']],
  ['iso-8859-2', ['csisolatin2', 'iso-8859-2', 'iso-ir-101', 'iso8859-2', 'iso88592', 'iso_8859-2', 'iso_8859-2:1987', 'l2', 'latin2']],
  ['iso-8859-3', ['csisolatin3', 'iso-8859-3', 'iso-ir-109', 'iso8859-3', 'iso88593', 'iso_8859-3', 'iso_8859-3:1988', 'l3', 'latin3']],
  ['iso-8859-4', ['csisolatin4', 'iso-8859-4', 'iso-ir-110', 'iso8859-4', 'iso88594', 'iso_8859-4', 'iso_8859-4:1988', 'l4', 'latin4']],
  ['iso-8859-5', ['csisolatincyrillic', 'cyrillic', 'iso-8859-5', 'iso-ir-144', 'iso8859-5', 'iso88595', 'iso_8859-5', 'iso_8859-5:1988']],
  ['iso-8859-6', ['arabic', 'asmo-708', 'csiso88596e', 'csiso88596i', 'csisolatinarabic', 'ecma-114', 'iso-8859-6', 'iso-8859-6-e', 'iso-8859-6-i', 'iso-ir-127', 'iso8859-6', 'iso88596', 'iso_8859-6', 'iso_8859-6:1987']],
  ['iso-8859-7', ['csisolatingreek', 'ecma-118', 'elot_928', 'greek', 'greek8', 'iso-8859-7', 'iso-ir-126', 'iso8859-7', 'iso88597', 'iso_8859-7', 'iso_8859-7:1987', 'sun_eu_greek']],
  ['iso-8859-8', ['csiso88598e', 'csisolatinhebrew', 'hebrew', 'iso-8859-8', 'iso-8859-8-e', 'iso-ir-138', 'iso8859-8', 'iso88598', 'iso_8859-8', 'iso_8859-8:1988', 'visual']],
  ['iso-8859-8-i', ['csiso88598i', 'iso-8859-8-i', 'logical']],
  ['iso-8859-10', ['csisolatin6', 'iso-8859-10', 'iso-ir-157', 'iso8859-10', 'iso885910', 'l6', 'latin6']],
  ['iso-8859-13', ['iso-8859-13', 'iso8859-13', 'iso885913']],
  ['iso-8859-14', ['iso-8859-14', 'iso8859-14', 'iso885914']],
  ['iso-8859-15', ['csisolatin9', 'iso-8859-15', 'iso8859-15', 'iso885915', 'iso_8859-15', 'l9']],
  ['iso-8859-16', ['iso-8859-16']],
  ['koi8-r', ['cskoi8r', 'koi', 'koi8', 'koi8-r', 'koi8_r']],
  ['koi8-u', ['koi8-ru', 'koi8-u']],
  ['macintosh', ['csmacintosh', 'mac', 'macintosh', 'x-mac-roman']],
  ['windows-874', ['dos-874', 'iso-8859-11', 'iso8859-11', 'iso885911', 'tis-620', 'windows-874']],
  ['windows-1250', ['cp1250', 'windows-1250', 'x-cp1250']],
  ['windows-1251', ['cp1251', 'windows-1251', 'x-cp1251']],
  ['windows-1252', ['ansi_x3.4-1968', 'ascii', 'cp1252', 'cp819', 'csisolatin1', 'ibm819', 'iso-8859-1', 'iso-ir-100', 'iso8859-1', 'iso88591', 'iso_8859-1', 'iso_8859-1:1987', 'l1', 'latin1', 'us-ascii', 'windows-1252', 'x-cp1252']],
  ['windows-1253', ['cp1253', 'windows-1253', 'x-cp1253']],
  ['windows-1254', ['cp1254', 'csisolatin5', 'iso-8859-9', 'iso-ir-148', 'iso8859-9', 'iso88599', 'iso_8859-9', 'iso_8859-9:1989', 'l5', 'latin5', 'windows-1254', 'x-cp1254']],
  ['windows-1255', ['cp1255', 'windows-1255', 'x-cp1255']],
  ['windows-1256', ['cp1256', 'windows-1256', 'x-cp1256']],
  ['windows-1257', ['cp1257', 'windows-1257', 'x-cp1257']],
  ['windows-1258', ['cp1258', 'windows-1258', 'x-cp1258']],
  ['x-mac-cyrillic', ['x-mac-cyrillic', 'x-mac-ukrainian']],
  ['gbk', ['chinese', 'csgb2312', 'csiso58gb231280', 'gb2312', 'gb_2312', 'gb_2312-80', 'gbk', 'iso-ir-58', 'x-gbk']],
  ['gb18030', ['gb18030']],
  ['big5', ['big5', 'big5-hkscs', 'cn-big5', 'csbig5', 'x-x-big5']],
  ['euc-jp', ['cseucpkdfmtjapanese', 'euc-jp', 'x-euc-jp']],
  ['iso-2022-jp', ['csiso2022jp', 'iso-2022-jp']],
  ['shift_jis', ['csshiftjis', 'ms932', 'ms_kanji', 'shift-jis', 'shift_jis', 'sjis', 'windows-31j', 'x-sjis']],
  ['euc-kr', ['cseuckr', 'csksc56011987', 'euc-kr', 'iso-ir-149', 'korean', 'ks_c_5601-1987', 'ks_c_5601-1989', 'ksc5601', 'ksc_5601', 'windows-949']],
  ['replacement', ['csiso2022kr', 'hz-gb-2312', 'iso-2022-cn', 'iso-2022-cn-ext', 'iso-2022-kr', 'replacement']],
  ['utf-16be', ['unicodefffe', 'utf-16be']],
  ['utf-16le', ['csunicode', 'iso-10646-ucs-2', 'ucs-2', 'unicode', 'unicodefeff', 'utf-16', 'utf-16le']],
  ['x-user-defined', ['x-user-defined']],
];

const ENCODING_OF_LABEL: ReadonlyMap<string, string> = new Map(ENCODING_LABELS.flatMap(([name, labels]) => labels.map((label): [string, string] => [label, name])));

/**
 * The single-byte encodings of WHATWG Encoding §9, each with the iconv-lite table its index is read from (the same
 * name, but for x-mac-cyrillic; ISO-8859-8-I is ISO-8859-8's index).
 */
const SINGLE_BYTE: ReadonlyMap<string, string> = new Map(
  ENCODING_LABELS.slice(1, ENCODING_LABELS.findIndex(([name]) => name === 'gbk')).map(([name]): [string, string] => [name, name === 'x-mac-cyrillic' ? 'maccyrillic' : name === 'iso-8859-8-i' ? 'iso-8859-8' : name]),
);

/** WHATWG Encoding §4.2 "get an encoding": the encoding `label` names (ASCII whitespace trimmed, ASCII case ignored). */
function whatwgEncodingOf(label: string): string | undefined {
  let from = 0;
  let to = label.length;
  while (from < to && isAsciiWhitespace(label.charCodeAt(from))) from++;
  while (to > from && isAsciiWhitespace(label.charCodeAt(to - 1))) to--;
  let key = '';
  for (let i = from; i < to; i++) {
    const c = label.charCodeAt(i);
    key += String.fromCharCode(c >= 0x41 && c <= 0x5a ? c + 0x20 : c);
  }
  return ENCODING_OF_LABEL.get(key);
}

/** ASCII whitespace (Infra): TAB, LF, FF, CR, SPACE. */
function isAsciiWhitespace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d;
}

const NONE = 0xfffd;

/**
 * Where iconv-lite's table is not the WHATWG index (or ICU's is not: listed too, so that the table does not depend on
 * either), as pairs of byte and code point (NONE: the index has no pointer for the byte). Facts from the Encoding
 * Standard's index files (index-<encoding>.txt; pointer = byte − 0x80).
 */
const INDEX_CORRECTIONS: ReadonlyMap<string, readonly number[]> = new Map([
  // index-windows-1253: no pointer 42 (ICU: U+00AA).
  ['windows-1253', [0xaa, NONE]],
  // index-windows-1255: pointer 74 is U+05BA (ICU: none).
  ['windows-1255', [0xca, 0x05ba]],
  // index-windows-874: no pointers 91–94, 124–127 (ICU: the private-use U+F8C1–U+F8C8).
  ['windows-874', [0xdb, NONE, 0xdc, NONE, 0xdd, NONE, 0xde, NONE, 0xfc, NONE, 0xfd, NONE, 0xfe, NONE, 0xff, NONE]],
  // index-koi8-u: pointers 46 and 62 are U+045E ў and U+040E Ў (ICU and iconv-lite: the box drawings U+255D U+256C).
  ['koi8-u', [0xae, 0x045e, 0xbe, 0x040e]],
  // index-macintosh: pointers 61 U+03A9, 91 U+20AC, 112 U+F8FF (iconv-lite: U+2126, U+00A4, none).
  ['macintosh', [0xbd, 0x03a9, 0xdb, 0x20ac, 0xf0, 0xf8ff]],
  // index-x-mac-cyrillic: pointers 34 U+0490, 54 U+0491, 127 U+20AC (iconv-lite's maccyrillic: U+00A2, U+2202, U+00A4).
  ['x-mac-cyrillic', [0xa2, 0x0490, 0xb6, 0x0491, 0xff, 0x20ac]],
]);

/**
 * The windows-* indexes give each byte 0x80–0x9F that Windows leaves undefined the C1 control of the same number
 * (index-windows-1252 pointers 1, 13, 15, 16, 29 are U+0081 U+008D U+008F U+0090 U+009D); iconv-lite leaves them out.
 */
function hasWhatwgC1(whatwg: string): boolean {
  return whatwg.startsWith('windows-');
}

/**
 * Bytes a table may map away from Latin-1 and still be decoded as Latin-1 where a write holds none of them (measured,
 * decoding alone, 20 MB of en-mixed in windows-1252, 64 KiB writes: 5.6 -> 3.4 CPU ms/MB, 60 % of the writes hold
 * no C1 byte and are one-byte strings).
 */
const LATIN1_EXCEPT_MOST = 64;

/** A write of n bytes has its Latin-1 decoding fixed at most n >> this times before each byte is looked up. */
const LATIN1_FIXES_SHIFT = 6;

function hex2(b: number): string {
  return (b < 16 ? '0' : '') + b.toString(16);
}

/** Whether a Uint16Array's bytes are little-endian, as Buffer#toString('utf16le') reads them. */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

const ALL_BYTES = Buffer.from(Array.from({ length: 256 }, (_, b) => b));

/** The codec of each WHATWG single-byte encoding, built at its first use. */
const tableCodecs = new Map<string, TableCodec>();

function tableCodec(whatwg: string): TableCodec {
  let codec = tableCodecs.get(whatwg);
  if (codec === undefined) {
    codec = new TableCodec(whatwg, SINGLE_BYTE.get(whatwg)!);
    tableCodecs.set(whatwg, codec);
  }
  return codec;
}

/**
 * iconv-lite's codecs (its own names, aliases followed) that a WHATWG label of a single-byte encoding reaches, or that
 * the encoding's index is read from, and that encoding: so that iconv-lite's other names of the same codec
 * (windows1252, windows-1252:2000, koi8u, maccyrillic) decode as the encoding too.
 */
let codecEncodings: Map<string, string> | null = null;

function singleByteOfCodec(): ReadonlyMap<string, string> {
  if (codecEncodings === null) {
    codecEncodings = new Map();
    const lib = iconv() as unknown as { encodings: Record<string, unknown> | null; getCodec(name: string): unknown };
    if (lib.encodings === null) lib.getCodec('utf-8'); // loads the table
    for (const [name, labels] of ENCODING_LABELS) {
      const table = SINGLE_BYTE.get(name);
      if (table === undefined) continue;
      for (const label of [...labels, table]) {
        // Looked up in iconv-lite's table of names, not by encodingExists, which builds each codec (~25 ms in all).
        const codec = resolvedName(label);
        if (typeof lib.encodings?.[codec] === 'object' && !codecEncodings.has(codec)) codecEncodings.set(codec, name);
      }
    }
  }
  return codecEncodings;
}

export class TableCodec implements SingleByteCharset {
  readonly whatwg: string | null;
  /**
   * The charset to encode queries with (3987bis §3.5): the WHATWG encoding's name (`x-mac-cyrillic` too, which
   * iconv-lite calls maccyrillic: toUri and the detector take it, see isDocumentCharset), else the charset's name as
   * given.
   */
  readonly documentCharset: string;
  private readonly table = new Uint16Array(256);
  /** Whether decode's strings are flat (a Latin-1 or UTF-16LE slice, never a rope built by `+`). */
  readonly flat = LITTLE_ENDIAN;
  /** encode's inverse of the table (code unit → byte), built at its first use. */
  private bytesOf: Map<number, number> | null = null;

  /** `whatwg`: the WHATWG encoding, null for another charset; `encoding`: iconv-lite's name of its table. */
  constructor(whatwg: string | null, encoding: string) {
    this.whatwg = whatwg;
    this.documentCharset = whatwg ?? encoding;
    const table = this.table;
    const own = iconv().decode(ALL_BYTES, encoding);
    if (own.length !== 256) throw new Error(`irilink: ${encoding} is not one unit per byte`); // familyOf said it is
    for (let b = 0; b < 256; b++) table[b] = own.charCodeAt(b);
    if (whatwg === null) return;
    // WHATWG Encoding §9.1 step 2: an ASCII byte is its own code point.
    for (let b = 0; b < 0x80; b++) table[b] = b;
    if (hasWhatwgC1(whatwg)) for (let b = 0x80; b < 0xa0; b++) if (table[b] === NONE) table[b] = b;
    const fixes = INDEX_CORRECTIONS.get(whatwg) ?? [];
    for (let i = 0; i < fixes.length; i += 2) table[fixes[i]!] = fixes[i + 1]!;
  }

  /** The code unit byte `b` decodes to (U+FFFD where the table has none). */
  unitOf(b: number): number {
    return this.table[b]!;
  }

  /**
   * The bytes that are not their own Latin-1 character (table[b] !== b), as a character class over a Latin-1 string,
   * when they are few (windows-1252: 0x80–0x9F but for the five C1 bytes WHATWG passes through); null for a table that
   * differs from Latin-1 in more (KOI8-R, windows-1251) or in none (`latin1All`), or has not been asked yet
   * (`latin1Checked`).
   */
  private latin1Except: RegExp | null = null;
  /** The table is Latin-1 (iconv-lite's `binary`): every write decodes as Latin-1. */
  private latin1All = false;
  private latin1Checked = false;
  /** Whether every ASCII byte is its own character (WHATWG tables; most of iconv-lite's). */
  private asciiSame = true;

  private checkLatin1(): void {
    this.latin1Checked = true;
    let ranges = '';
    let count = 0;
    for (let b = 0; b < 256; b++) {
      if (this.table[b] === b) continue;
      if (b < 0x80) this.asciiSame = false;
      count++;
      let e = b;
      while (e + 1 < 256 && this.table[e + 1] !== e + 1) e++;
      count += e - b;
      ranges += `\\x${hex2(b)}-\\x${hex2(e)}`;
      b = e;
    }
    // A one-character class, matched from where the last match ended: no backtracking.
    if (count > 0 && count <= LATIN1_EXCEPT_MOST) this.latin1Except = new RegExp(`[${ranges}]`, 'g');
    this.latin1All = count === 0;
  }

  /**
   * One UTF-16 unit per byte. Where the bytes' characters are their Latin-1 ones (all ASCII, or a table such as
   * windows-1252 and no byte it maps elsewhere), Node's latin1 decoding, a one-byte string (cheaper for everything
   * after: the scanner, Buffer.byteLength); else a table look-up per byte into a two-byte string.
   */
  decode(bytes: Uint8Array): string {
    if (!this.latin1Checked) this.checkLatin1();
    const n = bytes.length;
    if (this.latin1Except !== null || this.asciiSame) {
      const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, n);
      if (this.latin1All || (this.asciiSame && isAscii(buf))) return buf.toString('latin1');
      if (this.latin1Except !== null) {
        const latin1 = buf.toString('latin1');
        const except = this.latin1Except;
        except.lastIndex = 0;
        let match = except.exec(latin1);
        if (match === null) return latin1;
        // A few bytes to map: the Latin-1 units widened natively, those few looked up (en-mixed in windows-1252:
        // 3.8 -> 2.4 CPU ms/MB decoding alone). Past n >> LATIN1_FIXES_SHIFT of them (each match is an array), the
        // look-up for every byte after: random bytes cost about a quarter more than the plain loop (decoding alone
        // 4.4 -> 5.6 CPU ms/MB), the usual text much less.
        const codes = new Uint16Array(n);
        codes.set(buf);
        const most = n >> LATIN1_FIXES_SHIFT;
        let count = 0;
        while (match !== null) {
          const p = match.index;
          codes[p] = this.table[buf[p]!]!;
          if (++count > most) {
            for (let i = p + 1; i < n; i++) codes[i] = this.table[buf[i]!]!;
            break;
          }
          match = except.exec(latin1);
        }
        return this.fromCodes(codes);
      }
    }
    const table = this.table;
    const codes = new Uint16Array(n);
    for (let i = 0; i < n; i++) codes[i] = table[bytes[i]!]!;
    return this.fromCodes(codes);
  }

  private fromCodes(codes: Uint16Array): string {
    const n = codes.length;
    if (LITTLE_ENDIAN) return Buffer.from(codes.buffer, 0, n * 2).toString('utf16le');
    let out = '';
    for (let i = 0; i < n; i += 4096) out += String.fromCharCode.apply(null, codes.subarray(i, Math.min(n, i + 4096)) as unknown as number[]);
    return out;
  }

  // WHATWG Encoding §9.2 "single-byte encoder": an ASCII code point is its byte; any other is its pointer in the
  // index + 0x80, or an error when the index has none (the same table the stream decodes with, inverted).
  encode(text: string): Uint8Array | null {
    const bytesOf = (this.bytesOf ??= this.inverse());
    const out = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      const b = c < 0x80 ? c : bytesOf.get(c);
      if (b === undefined) return null;
      out[i] = b;
    }
    return out;
  }

  private inverse(): Map<number, number> {
    const map = new Map<number, number>();
    for (let b = 0x80; b < 256; b++) {
      const c = this.table[b]!;
      if (c !== NONE && !map.has(c)) map.set(c, b); // the index's first pointer for the code point
    }
    return map;
  }
}
