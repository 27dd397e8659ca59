// Bytes → text for the stream (DESIGN.md "Streaming contract": input encodings).
//
// Every decoder is incremental: a multi-byte sequence split across writes is held until it is complete,
// so the text does not depend on how the bytes were split. Each decoder also fills a ByteMap, from which
// the stream puts exact byteStart/byteEnd on every chunk.
//
// - UTF-8 (the default): WHATWG Encoding "UTF-8 decoder" — a leading BOM is dropped, every maximal
//   invalid subpart becomes one U+FFFD (Unicode §3.9 "U+FFFD Substitution of Maximal Subparts"). Valid
//   writes take the native path (buffer.isAscii or isUtf8, then Latin-1 or buffer.transcode); only a write holding
//   invalid bytes is walked here.
// - ISO-2022-JP: WHATWG Encoding "ISO-2022-JP decoder" (iconv-lite has no ISO-2022-JP); JIS X 0208 pairs are looked up
//   through iconv-lite's EUC-JP table, the same JIS X 0208 set shifted by 0x80.
// - Labels: WHATWG Encoding §4.2 "Names and labels" (a label names an encoding: latin1 is windows-1252, x-euc-jp is
//   EUC-JP), else iconv-lite's names (src/charsets.ts, planOf).
// - Single-byte charsets (windows-125x, ISO-8859-x, KOI8-R, …): a 256-entry table per charset, the WHATWG index where
//   the WHATWG Encoding Standard defines the charset (iconv-lite's table corrected by facts from the index, see
//   TableCodec in src/charsets.ts; not Node's TextDecoder, so the same on every Node build), else iconv-lite's.
// - GB18030 four-byte sequences: by pointer (WHATWG Encoding "gb18030 decoder"), see gbFourByte.
// - Other legacy charsets (Shift_JIS, EUC-JP, GB18030, Big5, EUC-KR, …): iconv-lite,
//   with the byte length of each character found from the charset's lead-byte structure and checked
//   against iconv-lite's output; a write where they disagree (invalid bytes, a pair that maps to two code
//   points) is decoded character by character, exact but slower. A charset of no known structure is refused (iconv-lite
//   has none today). UTF-16, UTF-32 and CESU-8 are decoded here (see utf16or32, cesu8).
// - Nothing is lost at the end: bytes left incomplete when the input ends become U+FFFD standing for them, and
//   every U+FFFD that replaced invalid bytes gives its chunk a diagnostic (`invalid-utf8`, or `invalid-bytes` for
//   the other charsets; a U+FFFD the input encodes is text).
// - base64 and hex, which iconv-lite also knows, are refused: they are not text charsets.
// - Text from a legacy charset is normalised to NFC (RFC 3987 §3.1 step 1, variant B), see NfcStage. A single-byte
//   charset whose every character is an NFC boundary and NFC on its own needs none (SingleByteDecoder).
import { Buffer, isAscii, isUtf8, transcode } from 'node:buffer';
import { TextDecoder } from 'node:util';
import type Iconv from 'iconv-lite';
import { lazyRequire } from '../lazy.js';
import { ByteMap } from './bytemap.js';
import { checkEncoding, planOf, resolvedName, type Family, type Plan, type TableCodec } from '../charsets.js';

export { checkEncoding, singleByteCharset, streamEncodings, type SingleByteCharset } from '../charsets.js';
import { bytesHoldEmbedding } from '../detect/embedding.js';
import { isMark } from '../unicode/index.js';

const iconv = lazyRequire<typeof Iconv>('iconv-lite');

export interface Decoder {
  readonly byteMap: ByteMap;
  /** The charset name to hand the scanner as `documentCharset` (3987bis §3.5), or undefined for UTF-8. */
  readonly documentCharset: string | undefined;
  /**
   * Whether the text returned is always a flat string (never a V8 rope built by `+`), so that the linkifier may
   * scan it where it lies.
   */
  readonly flatOutput: boolean;
  /**
   * True when the text the last write() or end() returned is known to hold no explicit bidi embedding, override or
   * isolate control (U+202A–202E, U+2066–2069), so the linkifier need not test it (src/detect/embedding.ts); false
   * when it may hold one or nobody looked.
   */
  readonly bidiFree: boolean;
  /** Decodes the next bytes; returns the text that is now complete. */
  write(bytes: Uint8Array): string;
  /** Flushes what is held back (an incomplete sequence becomes U+FFFD). */
  end(): string;
}

/**
 * Whether `bytes` start with a UTF-16 byte order mark, FF FE (LE) or FE FF (BE): WHATWG Encoding §6 "decode" reads
 * such input as UTF-16 whatever its label says (LinkStream), and the record streams refuse it (src/logs/records.ts).
 */
export function startsWithUtf16Bom(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff));
}

export function createDecoder(encoding?: string): Decoder {
  checkEncoding(encoding);
  if (encoding === undefined) return new Utf8Decoder();
  const plan = planOf(encoding);
  if (plan.kind === 'utf8') return new Utf8Decoder();
  if (plan.kind === 'iso2022jp') return new Iso2022JpDecoder();
  const direct = directTable(plan);
  if (direct !== null) return new SingleByteDecoder(direct, plan.documentCharset);
  return new LegacyDecoder(plan);
}

/** The table of a single-byte charset whose text is always NFC (SingleByteDecoder's way), else null. */
function directTable(plan: Plan): TableCodec | null {
  return plan.kind === 'legacy' && plan.single !== null && traitsOf(plan.single).alwaysNfc ? plan.single : null;
}

/**
 * The decoder createDecoder gives but for SingleByteDecoder: a single-byte charset through LegacyDecoder, its NFC
 * stage and per-unit ByteMap. For tests that hold SingleByteDecoder to it.
 * @internal
 */
export function createGeneralDecoder(encoding: string): Decoder {
  checkEncoding(encoding);
  const plan = planOf(encoding);
  if (plan.kind === 'legacy' && plan.single !== null) return new LegacyDecoder(plan);
  return createDecoder(encoding);
}

/** Whether createDecoder(encoding) takes SingleByteDecoder's way (a single-byte charset whose text is always NFC). @internal */
export function decodesAsSingleBytes(encoding: string): boolean {
  checkEncoding(encoding);
  return directTable(planOf(encoding)) !== null;
}

// ---------------------------------------------------------------------------------------------------
// UTF-8

const BOM0 = 0xef;
const BOM1 = 0xbb;
const BOM2 = 0xbf;

function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * WHATWG Encoding "UTF-8 decoder": the number of continuation bytes a lead byte needs and the bounds of the
 * first one, or -1 for a byte that cannot start a sequence (0x80–0xC1, 0xF5–0xFF).
 */
function utf8Needed(lead: number): number {
  if (lead >= 0xc2 && lead <= 0xdf) return 1;
  if (lead >= 0xe0 && lead <= 0xef) return 2;
  if (lead >= 0xf0 && lead <= 0xf4) return 3;
  return -1;
}

function utf8Lower(lead: number): number {
  return lead === 0xe0 ? 0xa0 : lead === 0xf0 ? 0x90 : 0x80;
}

function utf8Upper(lead: number): number {
  return lead === 0xed ? 0x9f : lead === 0xf4 ? 0x8f : 0xbf;
}

/**
 * Where the complete part of `buf` ends: the start of a trailing sequence that is a valid but
 * incomplete prefix (held for the next write), else buf.length. An invalid tail is not held: the
 * streaming decoder of WHATWG Encoding "UTF-8 decoder" would already have reported it.
 */
function completeUtf8End(buf: Buffer): number {
  const n = buf.length;
  const low = n >= 3 ? n - 3 : 0;
  for (let i = n - 1; i >= low; i--) {
    const b = buf[i]!;
    if (b < 0x80) return n;
    if (b <= 0xbf) continue; // a continuation byte: keep looking for its lead
    const needed = utf8Needed(b);
    if (needed < 0 || i + needed < n) return n; // invalid lead, or the sequence is complete
    let lower = utf8Lower(b);
    let upper = utf8Upper(b);
    for (let j = i + 1; j < n; j++) {
      const c = buf[j]!;
      if (c < lower || c > upper) return n; // not a valid prefix: decoded (as invalid) now
      lower = 0x80;
      upper = 0xbf;
    }
    return i;
  }
  return n;
}

/**
 * Decodes valid, complete UTF-8 (only complete sequences are passed, so nothing is ever held between calls).
 * buffer.transcode to UTF-16LE, then a string of those units, is the cheapest native way on Node 20 (its UTF-8 →
 * UTF-16 conversion is a vectorised one), and V8 makes the string one-byte when every unit fits (a Latin-1 write stays
 * one, which the scanner reads faster). TextDecoder in streaming mode (Node's ICU converter) comes next, then
 * Buffer#toString and StringDecoder (V8's UTF-8 decoder). 30 MB in 64 KiB writes, this decode alone, CPU ms/MB:
 * multilingual toString 3.15, TextDecoder 1.57, transcode 0.61; en-mixed 2.03, 1.34, 0.90. The input is known
 * valid (buffer.isUtf8), so every way gives the same text; a way that fails (a Node without ICU) is left for the next.
 */
class ValidUtf8 {
  private transcodes = true;
  private decoder: TextDecoder | null = ValidUtf8.make();

  private static make(): TextDecoder | null {
    try {
      // `fatal`, so that a surprise throws (and falls back to toString) instead of substituting silently.
      return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
    } catch {
      return null; // a Node built without ICU: no fatal TextDecoder
    }
  }

  decode(view: Buffer): string {
    if (this.transcodes && view.length < TRANSCODE_LIMIT) {
      try {
        return transcode(view, 'utf8', 'utf16le').toString('utf16le');
      } catch {
        this.transcodes = false;
      }
    }
    if (this.decoder !== null) {
      try {
        return this.decoder.decode(view, STREAM);
      } catch {
        this.decoder = ValidUtf8.make();
      }
    }
    return view.toString('utf8');
  }
}

/**
 * Bytes from which a write goes to TextDecoder instead: Node makes a string of 1,031,913 UTF-16 units or more (its
 * EXTERN_APEX) external, two-byte even when every unit is ASCII, and read through an indirection. Valid UTF-8 has at
 * least as many bytes as its text has units, so a write below this makes fewer units.
 */
const TRANSCODE_LIMIT = 1_000_000;

const STREAM = { stream: true };

class Utf8Decoder implements Decoder {
  readonly byteMap = new ByteMap('utf8');
  readonly documentCharset = undefined;
  readonly flatOutput = true;
  bidiFree = false;
  private pending: Buffer | null = null;
  private bomDone = false;
  /** UTF-16 units produced so far. */
  private produced = 0;
  private readonly valid = new ValidUtf8();

  write(bytes: Uint8Array): string {
    let buf = asBuffer(bytes);
    if (this.pending !== null) {
      buf = Buffer.concat([this.pending, buf]);
      this.pending = null;
    }
    let from = 0;
    if (!this.bomDone) {
      // WHATWG Encoding "decode" (BOM sniffing): a leading EF BB BF is dropped. Wait for 3 bytes to decide.
      if (buf.length < 3 && isBomPrefix(buf)) {
        this.pending = buf.length > 0 ? Buffer.from(buf) : null;
        return '';
      }
      this.bomDone = true;
      if (buf.length >= 3 && buf[0] === BOM0 && buf[1] === BOM1 && buf[2] === BOM2) {
        this.byteMap.addGap(0, 3);
        from = 3;
      }
    }
    const cut = completeUtf8End(buf);
    if (cut < buf.length) this.pending = Buffer.from(buf.subarray(cut)); // a copy: the caller may reuse buf
    return this.decode(buf, from, cut);
  }

  end(): string {
    this.bomDone = true;
    const rest = this.pending;
    this.pending = null;
    // What is held is an incomplete sequence (or the start of a BOM): invalid now that the input has ended.
    this.bidiFree = true;
    return rest === null ? '' : this.decodeWithErrors(rest, 0, rest.length);
  }

  /** Decodes buf[from:to), which ends with a complete sequence or with invalid bytes, never a valid prefix. */
  private decode(buf: Buffer, from: number, to: number): string {
    if (from >= to) return '';
    const view = from === 0 && to === buf.length ? buf : buf.subarray(from, to);
    // The bytes hold whole sequences (an incomplete one waits in `pending`): a control is seen whole here.
    const ascii = isAscii(view);
    this.bidiFree = ascii || !bytesHoldEmbedding(view);
    if (ascii || isUtf8(view)) {
      // ASCII is its own Latin-1 decoding, the cheapest native one (no UTF-16 buffer in between).
      const text = ascii ? view.toString('latin1') : this.valid.decode(view);
      this.byteMap.addUtf8(this.produced, text.length, view);
      this.produced += text.length;
      return text;
    }
    return this.decodeWithErrors(buf, from, to);
  }

  // WHATWG Encoding "UTF-8 decoder" UTF-8 decoder, for a stretch known to hold invalid bytes. Valid runs are
  // still decoded natively; each maximal invalid subpart becomes one U+FFFD and is recorded with its
  // byte length.
  private decodeWithErrors(buf: Buffer, from: number, to: number): string {
    const at = this.produced;
    const out = this.walkWithErrors(buf, from, to);
    this.byteMap.addCounted(at, this.produced - at);
    return out;
  }

  private walkWithErrors(buf: Buffer, from: number, to: number): string {
    // Parts joined at the end: the result is a flat string (Decoder.flatOutput), not a rope of `+`.
    const out: string[] = [];
    let runStart = from;
    let i = from;
    while (i < to) {
      const b = buf[i]!;
      if (b < 0x80) {
        i++;
        continue;
      }
      const needed = utf8Needed(b);
      let j = i + 1;
      if (needed > 0) {
        let lower = utf8Lower(b);
        let upper = utf8Upper(b);
        let seen = 0;
        while (seen < needed && j < to) {
          const c = buf[j]!;
          if (c < lower || c > upper) break;
          lower = 0x80;
          upper = 0xbf;
          j++;
          seen++;
        }
        if (seen === needed) {
          i = j;
          continue;
        }
      }
      // bytes i..j-1 are one maximal subpart: one U+FFFD; byte j is looked at again.
      if (i > runStart) {
        const run = buf.toString('utf8', runStart, i);
        out.push(run);
        this.produced += run.length;
      }
      this.byteMap.addReplacement(this.produced, j - i);
      out.push('\uFFFD');
      this.produced++;
      i = j;
      runStart = j;
    }
    if (to > runStart) {
      const run = buf.toString('utf8', runStart, to);
      out.push(run);
      this.produced += run.length;
    }
    return out.length === 1 ? out[0]! : out.join('');
  }
}

function isBomPrefix(buf: Buffer): boolean {
  return (buf.length < 1 || buf[0] === BOM0) && (buf.length < 2 || buf[1] === BOM1);
}

// ---------------------------------------------------------------------------------------------------
// Single-byte charsets whose text is always NFC (windows-1252, KOI8-R, most of them): each byte is one UTF-16 unit
// and the text passes as the table makes it. The same text, byte offsets and diagnostics as LegacyDecoder's, at
// about UTF-8's cost: no per-unit record (ByteMap 'bytes'), no NFC stage, nothing held between writes.

interface SingleTraits {
  /**
   * UAX #15: every character of the table is an NFC boundary (isNfcBoundary) and is NFC alone, so any text the table
   * makes is NFC (no character composes with the one before it, none decomposes) and RFC 3987 §3.1 variant B changes
   * nothing. False for windows-1258 (combining marks), for a table with a surrogate.
   */
  readonly alwaysNfc: boolean;
  /** The table has no explicit bidi embedding, override or isolate control (U+202A–202E, U+2066–2069). */
  readonly bidiFree: boolean;
  /** Some byte is one the charset lacks (U+FFFD in the table): a U+FFFD in the text replaced it. */
  readonly lacks: boolean;
}

const singleTraits = new WeakMap<TableCodec, SingleTraits>();

/** The table's SingleTraits, found once per table (plans, so tables, are shared per charset name). */
function traitsOf(codec: TableCodec): SingleTraits {
  let traits = singleTraits.get(codec);
  if (traits !== undefined) return traits;
  let alwaysNfc = true;
  let bidiFree = true;
  let lacks = false;
  for (let b = 0; b < 256; b++) {
    const c = codec.unitOf(b);
    if (c === 0xfffd) lacks = true;
    if ((c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069)) bidiFree = false;
    if (c >= 0xd800 && c <= 0xdfff) alwaysNfc = false;
    else if (!isNfcBoundary(c)) alwaysNfc = false;
    else {
      const one = String.fromCharCode(c);
      if (one.normalize('NFC') !== one) alwaysNfc = false; // U+212B ANGSTROM SIGN → U+00C5
    }
  }
  traits = { alwaysNfc, bidiFree, lacks };
  singleTraits.set(codec, traits);
  return traits;
}

class SingleByteDecoder implements Decoder {
  readonly byteMap = new ByteMap('bytes');
  readonly documentCharset: string | undefined;
  /** TableCodec.decode's strings are Latin-1 or UTF-16LE slices: flat (but on a big-endian machine). */
  readonly flatOutput: boolean;
  readonly bidiFree: boolean;
  private readonly codec: TableCodec;
  private readonly lacks: boolean;

  constructor(codec: TableCodec, documentCharset: string | undefined) {
    const traits = traitsOf(codec);
    this.codec = codec;
    this.documentCharset = documentCharset;
    this.bidiFree = traits.bidiFree;
    this.lacks = traits.lacks;
    this.flatOutput = codec.flat;
  }

  write(bytes: Uint8Array): string {
    const map = this.byteMap;
    const at = map.produced;
    const text = this.codec.decode(bytes);
    map.addBytes(text.length);
    // WHATWG Encoding §9.1 "single-byte decoder" step 4: a byte the index lacks is an error, U+FFFD (replacement mode).
    if (this.lacks) for (let k = text.indexOf('\uFFFD'); k >= 0; k = text.indexOf('\uFFFD', k + 1)) map.addReplacement(at + k, 0);
    return text;
  }

  end(): string {
    return ''; // one byte, one character: nothing is ever held
  }
}

// ---------------------------------------------------------------------------------------------------
// Legacy charsets: text plus, for every produced UTF-16 unit, the bytes it stands for (`units`) and the
// bytes before it that produced nothing (`gaps`, ISO-2022-JP escapes). NfcStage then normalises and
// hands them to the ByteMap. Typed arrays, grown per write, never per character.

class Produced {
  private pieces: string[] = [];
  /** Text built one code unit at a time (appendCode), here; then appendText writes here too. */
  private codes: Uint16Array | null = null;
  units: Uint32Array;
  gaps: Uint32Array | null = null;
  /** UTF-16 units produced so far. */
  n = 0;
  /** Whether the text may hold a U+FFFD (a replacement or one the input encodes). */
  fffd = false;
  /**
   * The positions (UTF-16 units) of the U+FFFD that the input encodes itself (text, not replacements), in order;
   * null while there is none (the usual case). Every other U+FFFD replaced invalid bytes.
   */
  encoded: number[] | null = null;
  private built: string | null = null;

  constructor(capacity: number) {
    this.units = new Uint32Array(Math.max(16, capacity));
  }

  private grow(need: number): void {
    if (need <= this.units.length) return;
    const size = Math.max(need, this.units.length * 2);
    const units = new Uint32Array(size);
    units.set(this.units.subarray(0, this.n));
    this.units = units;
    if (this.gaps !== null) {
      const gaps = new Uint32Array(size);
      gaps.set(this.gaps.subarray(0, this.n));
      this.gaps = gaps;
    }
    if (this.codes !== null) {
      const codes = new Uint16Array(size);
      codes.set(this.codes.subarray(0, this.n));
      this.codes = codes;
    }
  }

  /**
   * Appends decoded text; its units' byte counts are set by the caller through `units`. `replaced`: whether a
   * U+FFFD in it stands for invalid bytes (else it is one the input encodes, see `encoded`).
   */
  appendText(text: string, replaced: boolean): number {
    const at = this.n;
    this.grow(at + text.length);
    if (this.codes === null) this.pieces.push(text);
    else for (let k = 0; k < text.length; k++) this.codes[at + k] = text.charCodeAt(k);
    this.n += text.length;
    this.units.fill(0, at, this.n);
    if (replaced) {
      if (!this.fffd) this.fffd = text.indexOf('\uFFFD') >= 0;
    } else {
      for (let k = text.indexOf('\uFFFD'); k >= 0; k = text.indexOf('\uFFFD', k + 1)) (this.encoded ??= []).push(at + k);
      if (this.encoded !== null) this.fffd = true;
    }
    return at;
  }

  /**
   * Appends one code unit standing for `bytes` input bytes, after `gap` bytes that produced nothing. `replaced`:
   * the unit is a U+FFFD standing for invalid bytes.
   */
  appendCode(code: number, bytes: number, gap: number, replaced = false): void {
    if (code === 0xfffd) {
      this.fffd = true;
      if (!replaced) (this.encoded ??= []).push(this.n);
    }
    this.grow(this.n + 1);
    if (this.codes === null) {
      // From here on the text is built in `codes`, the pieces so far first.
      const codes = new Uint16Array(this.units.length);
      let k = 0;
      for (const piece of this.pieces) for (let i = 0; i < piece.length; i++) codes[k++] = piece.charCodeAt(i);
      this.pieces.length = 0;
      this.codes = codes;
    }
    if (gap > 0 && this.gaps === null) this.gaps = new Uint32Array(this.units.length);
    this.codes[this.n] = code;
    this.units[this.n] = bytes;
    if (this.gaps !== null) this.gaps[this.n] = gap;
    this.n++;
  }

  /** Adds bytes to the last unit (bytes that belong to the character before). */
  addToLast(bytes: number): void {
    if (this.n > 0) this.units[this.n - 1]! += bytes;
  }

  /** The text appended (built once: call it when everything is appended). */
  text(): string {
    if (this.built !== null) return this.built;
    if (this.codes === null) return (this.built = this.pieces.length === 1 ? this.pieces[0]! : this.pieces.join(''));
    let out = '';
    for (let i = 0; i < this.n; i += 4096) {
      out += String.fromCharCode.apply(null, this.codes.subarray(i, Math.min(this.n, i + 4096)) as unknown as number[]);
    }
    return (this.built = out);
  }
}

/** The code unit of UTF-16 (`width` 2) or UTF-32 (4) at buf[i] in byte order `order` (LE or BE), unsigned. */
function readUnit(buf: Buffer, i: number, width: number, order: number): number {
  if (width === 2) return order === LE ? buf[i]! | (buf[i + 1]! << 8) : (buf[i]! << 8) | buf[i + 1]!;
  return order === LE
    ? (buf[i]! | (buf[i + 1]! << 8) | (buf[i + 2]! << 16) | (buf[i + 3]! << 24)) >>> 0
    : ((buf[i]! << 24) | (buf[i + 1]! << 16) | (buf[i + 2]! << 8) | buf[i + 3]!) >>> 0;
}

/** Counts code points (a surrogate pair is one). */
function codePoints(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/**
 * Appends `text` to `out`, giving its code points the byte lengths lengths[from…] in order (the second
 * unit of a surrogate pair gets 0).
 */
function assignLengths(text: string, lengths: Uint8Array, from: number, out: Produced): void {
  let u = out.appendText(text, false); // the fast path takes no text holding U+FFFD
  const units = out.units;
  let k = from;
  for (let i = 0; i < text.length; i++, u++) {
    units[u] = lengths[k++]!;
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        i++;
        u++;
      }
    }
  }
}

/**
 * Appends `text` (a character or two), all of whose bytes (`bytes`) go to its first unit; `replaced` as in
 * Produced.appendText. Unit by unit (Produced.appendCode): a piece per character cost more than the character.
 */
function assignAll(text: string, bytes: number, out: Produced, replaced: boolean): void {
  if (text.length === 0) {
    out.addToLast(bytes);
    return;
  }
  for (let i = 0; i < text.length; i++) out.appendCode(text.charCodeAt(i), i === 0 ? bytes : 0, 0, replaced);
}


/** Byte order of a UTF-16 or UTF-32 stream: fixed by its name, or decided on its first bytes (AUTO). */
const AUTO = 0;
const LE = 1;
const BE = 2;

function byteOrderOf(encoding: string): number {
  const name = resolvedName(encoding);
  if (name === 'ucs2' || name === 'utf32le') return LE;
  if (name === 'utf16be' || name === 'utf32be') return BE;
  return AUTO;
}

/** Code units looked at to guess the byte order of "utf-16" / "utf-32" without a BOM (iconv-lite's number). */
const ORDER_UNITS = 100;

/**
 * The byte order of "utf-16": a BOM says it; otherwise the order in which more of the first 100 units (fewer if the
 * input is shorter) look like U+0001–U+00FF (one zero byte, one not), little-endian on a tie: iconv-lite's rule, so
 * the text is iconv.decode(input, 'utf-16')'s for the whole input, however it was split into writes.
 * Deviation (WHATWG Encoding §4.2 "Names and labels": the label "utf-16" is UTF-16LE; Unicode §3.10 D98: UTF-16
 * without a BOM is big-endian): a file read as utf-16 without a BOM is as often big-endian (Java, network order) as
 * little-endian (Windows), and the text nearly always holds ASCII (spaces, line ends, URLs) that tells them apart.
 * Mail follows RFC 2781 §4.3 instead (big-endian without a BOM; src/mail/message.ts charsetDecoder).
 */
function utf16Order(buf: Buffer): number {
  if (buf.length >= 2 && buf[0] === 0xff && buf[1] === 0xfe) return LE;
  if (buf.length >= 2 && buf[0] === 0xfe && buf[1] === 0xff) return BE;
  const end = Math.min(buf.length, ORDER_UNITS * 2);
  let le = 0;
  let be = 0;
  for (let k = 0; k + 1 < end; k += 2) {
    if (buf[k] === 0 && buf[k + 1] !== 0) be++;
    if (buf[k] !== 0 && buf[k + 1] === 0) le++;
  }
  return be > le ? BE : LE; // Deviation (WHATWG Encoding §4.2, Unicode §3.10 D98): guessed, see above
}

/**
 * The byte order of "utf-32": a BOM says it; otherwise, over the first 100 units, per order, the units whose upper
 * 16 bits are zero (and the unit not) minus those that read as no code point at all, the higher score winning,
 * little-endian on a tie: iconv-lite's rule, as for utf16Order.
 * Deviation (Unicode §3.10 D101: UTF-32 without a BOM is big-endian): a guess, as for "utf-16".
 */
function utf32Order(buf: Buffer): number {
  if (buf.length >= 4 && buf[0] === 0xff && buf[1] === 0xfe && buf[2] === 0 && buf[3] === 0) return LE;
  if (buf.length >= 4 && buf[0] === 0 && buf[1] === 0 && buf[2] === 0xfe && buf[3] === 0xff) return BE;
  const end = Math.min(buf.length, ORDER_UNITS * 4);
  let le = 0;
  let be = 0;
  for (let k = 0; k + 3 < end; k += 4) {
    const b0 = buf[k]!;
    const b1 = buf[k + 1]!;
    const b2 = buf[k + 2]!;
    const b3 = buf[k + 3]!;
    if (b0 !== 0 || b1 > 0x10) be--;
    if (b3 !== 0 || b2 > 0x10) le--;
    if (b0 === 0 && b1 === 0 && (b2 !== 0 || b3 !== 0)) be++;
    if ((b0 !== 0 || b1 !== 0) && b2 === 0 && b3 === 0) le++;
  }
  return be > le ? BE : LE; // Deviation (Unicode §3.10 D101): guessed, see above
}

// Multi-byte charsets against the WHATWG Encoding Standard (compared with Node's TextDecoder, which is ICU's converters
// and itself departs from WHATWG for Big5 (HKSCS as private use), EUC-KR (no UHC), EUC-JP (C1 bytes), Shift_JIS
// (0x80, 1A/1C/7F) and GBK (0xFF); where they differ, iconv-lite's reading here is WHATWG's), these differences are kept:
// - Deviation (WHATWG Encoding §10.2.1, §11.1.1, §12.1.1, §12.3.1, §13.1.1: after a lead byte, a byte that makes no
//   character is read again only if it is ASCII): iconv-lite reads any such byte again, so Big5 `DE 84` is two U+FFFD where
//   WHATWG has one, and what follows may align differently. Kept so that the text is iconv.decode()'s.
// - Deviation (WHATWG gb18030 index, GB18030-2022): iconv-lite decodes the 18 two-byte sequences the 2022 edition moved
//   out of private use (A6D9–A6DF, A6EC, A6ED, A6F3, FE59, FE61, FE66, FE67, FE6D, FE7E, FE90, FEA0) as the 2005
//   edition's private-use code points (A6D9 is U+E78D, not U+FE10).
// - Deviation (WHATWG Shift_JIS decoder: pointers 8836–10715 are U+E000–U+E757): iconv-lite lacks the last row, lead
//   0xF9 (U+E69C–U+E757): U+FFFD and the trail byte read again.
// - Fixed here: GB18030 four-byte pointers of no code point (see gbFourByte); GBK decodes four-byte sequences, as
//   WHATWG's GBK decoder is the gb18030 decoder (iconv-lite's gbk did not).

/**
 * The byte length of the character starting at buf[i] from the charset's lead-byte structure, or 0 when
 * more bytes are needed to tell. Checked against iconv-lite's output afterwards, never trusted blindly.
 */
function structuralLength(family: Family, buf: Buffer, i: number): number {
  const b = buf[i]!;
  switch (family) {
    case 'sjis': // Shift_JIS / windows-31j lead bytes (WHATWG Encoding "Shift_JIS decoder")
      return (b >= 0x81 && b <= 0x9f) || (b >= 0xe0 && b <= 0xfc) ? 2 : 1;
    case 'eucjp': // EUC-JP: SS2 (0x8E) two bytes, SS3 (0x8F) three, JIS X 0208 two (WHATWG "EUC-JP decoder")
      return b === 0x8e ? 2 : b === 0x8f ? 3 : b >= 0xa1 && b <= 0xfe ? 2 : 1;
    case 'gb': // GB18030: a second byte 0x30–0x39 makes a four-byte sequence (WHATWG "gb18030 decoder")
      if (b < 0x81 || b > 0xfe) return 1;
      if (i + 1 >= buf.length) return 0;
      return buf[i + 1]! >= 0x30 && buf[i + 1]! <= 0x39 ? 4 : 2;
    case 'dbcs2': // Big5, EUC-KR / windows-949: lead 0x81–0xFE, two bytes (WHATWG "Big5 decoder", "EUC-KR decoder")
      return b >= 0x81 && b <= 0xfe ? 2 : 1;
    default:
      return 1;
  }
}

// WHATWG Encoding §10.2.1 "gb18030 decoder", four-byte sequences: pointer = (b1 − 0x81) × 12600 + (b2 − 0x30) × 1260 +
// (b3 − 0x81) × 10 + (b4 − 0x30). Pointers 0–39419 are the BMP characters of "index gb18030 ranges", 189000–1237575 are
// U+10000 + (pointer − 189000), any other has no code point: one error for the four bytes.
// Deviation from iconv-lite, which gives pointers from 39420 on U+10000 + (pointer − 39420) (84 31 A5 30 as U+10000)
// and, past 1237575, lone surrogates (E3 32 9A 36 as U+DC00 U+DC00).

const GB_NOT_FOUR = -2;
const GB_UNMAPPED = -1;
/** The BMP code points of pointers 0–39419, read from iconv-lite's decoder once (one call for all of them). */
let gbRanges: Uint16Array | null = null;

function gbRangesTable(): Uint16Array {
  if (gbRanges !== null) return gbRanges;
  const n = 39420;
  const bytes = Buffer.alloc(n * 4);
  for (let p = 0; p < n; p++) {
    bytes[p * 4] = 0x81 + Math.floor(p / 12600);
    bytes[p * 4 + 1] = 0x30 + (Math.floor(p / 1260) % 10);
    bytes[p * 4 + 2] = 0x81 + (Math.floor(p / 10) % 126);
    bytes[p * 4 + 3] = 0x30 + (p % 10);
  }
  const text = iconv().decode(bytes, 'gb18030');
  if (text.length !== n) throw new Error('irilink: iconv-lite\'s GB18030 four-byte BMP range is not one unit per sequence');
  const table = new Uint16Array(n);
  for (let p = 0; p < n; p++) table[p] = text.charCodeAt(p);
  return (gbRanges = table);
}

/**
 * The code point of the GB18030 four-byte sequence at buf[i] (b1 0x81–0xFE and b2 0x30–0x39 checked by the caller),
 * GB_UNMAPPED for a pointer of no code point, or GB_NOT_FOUR when b3 or b4 is out of range (an invalid sequence,
 * read as iconv-lite reads it).
 */
function gbFourByte(buf: Buffer, i: number): number {
  const b3 = buf[i + 2]!;
  const b4 = buf[i + 3]!;
  if (b3 < 0x81 || b3 > 0xfe || b4 < 0x30 || b4 > 0x39) return GB_NOT_FOUR;
  const pointer = (buf[i]! - 0x81) * 12600 + (buf[i + 1]! - 0x30) * 1260 + (b3 - 0x81) * 10 + (b4 - 0x30);
  if (pointer < 39420) return gbRangesTable()[pointer]!;
  if (pointer >= 189000 && pointer <= 1237575) return 0x10000 + pointer - 189000;
  return GB_UNMAPPED;
}

class LegacyDecoder implements Decoder {
  readonly byteMap = new ByteMap('units');
  readonly documentCharset: string | undefined;
  readonly flatOutput = false;
  readonly bidiFree = false;
  private readonly encoding: string;
  private readonly family: Family;
  private readonly nfc: NfcStage;
  private pending: Buffer | null = null;
  /** 'cesu8' family only: the bytes of the sequence so far. */
  private unattributed = 0;
  /** 'cesu8' family only: the code unit so far, the continuation bytes still needed, and the next one's lower bound. */
  private cesuCode = 0;
  private cesuNeeded = 0;
  private cesuLower = 0x80;
  /** 'cesu8' only: a high surrogate decoded and held until the unit after it is known (0: none), and its bytes. */
  private cesuHigh = 0;
  private cesuHighBytes = 0;
  /** 'utf16' and 'utf32' only: the byte order (AUTO until decided), whether the start was looked at for a BOM. */
  private order = AUTO;
  private started = false;
  /** 'utf16' and 'utf32' only: the bytes of a BOM not yet given to a unit as a gap. */
  private bomGap = 0;
  /** decodeChar's texts of one- and two-byte characters, by their bytes; null until a write needs it. */
  private charCache: (string | undefined)[] | null = null;
  /** The charset's own bytes for U+FFFD (a U+FFFD decoded from exactly these is text, not a replacement). */
  private fffdBytes: Buffer | null = null;
  /** 'single' family only: the charset's 256 code units (see TableCodec). */
  private readonly single: TableCodec | null;

  constructor(plan: Extract<Plan, { kind: 'legacy' }>) {
    this.encoding = plan.encoding;
    this.family = plan.family;
    this.single = plan.single;
    this.documentCharset = plan.documentCharset;
    // RFC 3987 §3.1 step 1: variant B (NFC) for a legacy charset, C (as it is) for a Unicode one.
    this.nfc = new NfcStage(plan.documentCharset !== undefined);
    if (this.family === 'utf16' || this.family === 'utf32') this.order = byteOrderOf(this.encoding);
  }

  write(bytes: Uint8Array): string {
    let buf = asBuffer(bytes);
    if (this.pending !== null) {
      buf = Buffer.concat([this.pending, buf]);
      this.pending = null;
    }
    const out = new Produced(buf.length);
    if (this.family === 'cesu8') this.cesu8(buf, out);
    else if (this.family === 'utf16' || this.family === 'utf32') this.utf16or32(buf, out, false);
    else if (this.family === 'single') {
      // One byte, one UTF-16 unit, whatever the byte; a U+FFFD is a byte the charset does not define.
      const text = this.single!.decode(buf);
      const at = out.appendText(text, true);
      out.units.fill(1, at, at + text.length);
    } else {
      // Fast path: split by the lead-byte structure, decode the whole write once, and accept it when
      // iconv-lite produced one code point per structural character and no U+FFFD (so no error, and no
      // re-read byte, shifted the alignment).
      const lengths = new Uint8Array(buf.length);
      let count = 0;
      let i = 0;
      let unmapped = false;
      while (i < buf.length) {
        const len = structuralLength(this.family, buf, i);
        if (len === 0 || i + len > buf.length) break;
        if (len === 4 && gbFourByte(buf, i) === GB_UNMAPPED) unmapped = true; // iconv-lite gives it a code point
        lengths[count++] = len;
        i += len;
      }
      const text = i === 0 ? '' : iconv().decode(buf.subarray(0, i), this.encoding);
      if (!unmapped && text.indexOf('\uFFFD') < 0 && codePoints(text) === count) {
        assignLengths(text, lengths, 0, out);
        if (i < buf.length) this.pending = Buffer.from(buf.subarray(i));
      } else {
        i = this.charByChar(buf, out);
        if (i < buf.length) this.pending = Buffer.from(buf.subarray(i));
      }
    }
    return this.nfc.process(out, false, this.byteMap);
  }

  end(): string {
    const out = new Produced(16);
    const rest = this.pending;
    this.pending = null;
    if (this.family === 'cesu8') {
      // A high surrogate held, then an incomplete sequence at the end: each one U+FFFD, standing for its bytes.
      this.cesuFlush(out);
      if (this.cesuNeeded > 0) out.appendCode(0xfffd, this.unattributed, 0, true);
      this.cesuNeeded = 0;
      this.unattributed = 0;
    } else if (this.family === 'utf16' || this.family === 'utf32') {
      if (rest !== null) this.utf16or32(rest, out, true);
    } else {
      // An incomplete character at the end, as iconv-lite's DBCS decoder ends (so the text is iconv-lite's for the
      // whole input): its first byte is one U+FFFD and the bytes after it are read again, each keeping its own bytes.
      let tail = rest;
      while (tail !== null && tail.length > 0) {
        const i = this.charByChar(tail, out);
        if (i >= tail.length) break;
        // Deviation (WHATWG Encoding §10.2.1 "gb18030 decoder", §12.1.1 "EUC-JP decoder": at the end of the input the
        // bytes of a cut character are one U+FFFD): iconv-lite's reading, so that the text is iconv.decode()'s —
        // GB18030 81 30 is U+FFFD then "0", EUC-JP 8F A1 two U+FFFD (WHATWG: one U+FFFD for both).
        assignAll('\uFFFD', 1, out, true);
        tail = tail.subarray(i + 1);
      }
    }
    return this.nfc.process(out, true, this.byteMap);
  }

  /**
   * The slow path, for a write that holds an invalid sequence (or a pair that maps to two code points):
   * character by character, as iconv-lite reads them. A structural character that decodes to one code
   * point, or to several not starting with U+FFFD (Big5-HKSCS pairs such as 88 62 → Ê̄), is one
   * character. One that decodes to U+FFFD followed by more is an invalid sequence: iconv-lite replaces
   * its first byte and reads the next byte again as the start of a character ("\x81 " → "\uFFFD "), so
   * the U+FFFD stands for one byte and the walk goes on from the next. Returns where the complete
   * characters end (the rest is held for the next write).
   */
  private charByChar(buf: Buffer, out: Produced): number {
    let pos = 0;
    while (pos < buf.length) {
      const len = structuralLength(this.family, buf, pos);
      if (len === 0 || pos + len > buf.length) return pos;
      if (len === 4) {
        // GB18030 four bytes: by pointer, not a call of iconv-lite each (~2 µs: 20 MB took ~6 s).
        const cp = gbFourByte(buf, pos);
        if (cp !== GB_NOT_FOUR) {
          if (cp === GB_UNMAPPED) out.appendCode(0xfffd, 4, 0, true);
          else if (cp < 0x10000) out.appendCode(cp, 4, 0, cp !== 0xfffd); // 84 31 A4 37 encodes U+FFFD: text
          else {
            out.appendCode(0xd800 + ((cp - 0x10000) >> 10), 4, 0);
            out.appendCode(0xdc00 + ((cp - 0x10000) & 0x3ff), 0, 0);
          }
          pos += 4;
          continue;
        }
      }
      const text = this.decodeChar(buf, pos, len);
      if (len > 1 && text.charCodeAt(0) === 0xfffd && text.length > 1) {
        assignAll('\uFFFD', 1, out, true);
        pos += 1;
      } else {
        assignAll(text, len, out, !this.isEncodedFffd(text, buf, pos, len));
        pos += len;
      }
    }
    return pos;
  }

  /**
   * iconv-lite's text for the one character buf[pos, pos + len), decoded on its own. Those of one or two bytes are
   * remembered (at most 256 + 65536 of them), so that a write holding invalid bytes costs a table look-up per
   * character rather than a call of iconv-lite (~2 µs: 20 MB of Shift_JIS 0xFD took ~40 s).
   */
  private decodeChar(buf: Buffer, pos: number, len: number): string {
    if (len > 2) return iconv().decode(buf.subarray(pos, pos + len), this.encoding);
    const key = len === 1 ? buf[pos]! : 256 + ((buf[pos]! << 8) | buf[pos + 1]!);
    const cache = (this.charCache ??= new Array<string | undefined>(256 + 65536));
    return (cache[key] ??= iconv().decode(buf.subarray(pos, pos + len), this.encoding));
  }

  /** Whether `text`, decoded from buf[pos, pos + len), is a U+FFFD the charset encodes (GB18030 84 31 A4 37). */
  private isEncodedFffd(text: string, buf: Buffer, pos: number, len: number): boolean {
    if (text !== '\uFFFD') return false;
    const own = (this.fffdBytes ??= iconv().encode('\uFFFD', this.encoding));
    if (own.length !== len) return false;
    for (let k = 0; k < len; k++) if (buf[pos + k] !== own[k]) return false; // (Buffer#compare costs ~100 ns a call)
    return true;
  }

  /**
   * UTF-16 and UTF-32 (Unicode §3.9 D90, D91; WHATWG Encoding "shared UTF-16 decoder"), decoded here: iconv-lite's
   * decoders, fed byte by byte, dropped an odd last byte, passed unpaired surrogates on, and gave a BOM's bytes to
   * the character after it. Each code unit stands for its bytes. A BOM (U+FEFF in the stream's byte order at its
   * very start) is dropped, and its bytes are a gap, as UTF-8's are. Errors become one U+FFFD standing for their
   * bytes: an unpaired UTF-16 surrogate (the unit after it is read again), a UTF-32 unit that is a surrogate or
   * above U+10FFFF, and at the end of the input an incomplete unit, with the high surrogate before it if any (one
   * U+FFFD for both, as WHATWG). An incomplete unit and a high surrogate at the end of a write are held.
   */
  private utf16or32(buf: Buffer, out: Produced, final: boolean): void {
    const width = this.family === 'utf16' ? 2 : 4;
    const n = buf.length;
    let i = 0;
    if (!this.started) {
      // "utf-16" and "utf-32" without LE/BE: the byte order is decided on the first 100 units (see utf16Order), held
      // until they have all come (or the input ends), so that the decision does not depend on the writes.
      if (n < (this.order === AUTO ? ORDER_UNITS * width : width) && !final) {
        if (n > 0) this.pending = Buffer.from(buf);
        return;
      }
      if (this.order === AUTO) this.order = width === 2 ? utf16Order(buf) : utf32Order(buf);
      this.started = true;
      if (n >= width && readUnit(buf, 0, width, this.order) === 0xfeff) {
        this.bomGap = width;
        i = width;
      }
    }
    const order = this.order;
    while (i + width <= n) {
      const u = readUnit(buf, i, width, order);
      if (width === 4) {
        if (u > 0x10ffff || (u >= 0xd800 && u <= 0xdfff)) this.unit(0xfffd, 4, out, true);
        else if (u >= 0x10000) {
          this.unit(0xd800 + ((u - 0x10000) >> 10), 4, out, false);
          out.appendCode(0xdc00 + ((u - 0x10000) & 0x3ff), 0, 0);
        } else this.unit(u, 4, out, false);
        i += 4;
        continue;
      }
      if (u >= 0xd800 && u <= 0xdbff) {
        if (i + 4 > n) break; // the unit after it decides
        const v = readUnit(buf, i + 2, 2, order);
        if (v >= 0xdc00 && v <= 0xdfff) {
          this.unit(u, 4, out, false);
          out.appendCode(v, 0, 0);
          i += 4;
          continue;
        }
        this.unit(0xfffd, 2, out, true);
      } else this.unit(u >= 0xdc00 && u <= 0xdfff ? 0xfffd : u, 2, out, u >= 0xdc00 && u <= 0xdfff);
      i += 2;
    }
    if (i < n) {
      if (final) this.unit(0xfffd, n - i, out, true);
      else this.pending = Buffer.from(buf.subarray(i));
    }
  }

  /** Appends a code unit of UTF-16 or UTF-32 standing for `bytes` bytes, after the BOM's gap if it is the first. */
  private unit(code: number, bytes: number, out: Produced, replaced: boolean): void {
    out.appendCode(code, bytes, this.bomGap, replaced);
    this.bomGap = 0;
  }

  /**
   * CESU-8 (Unicode Technical Report #26): UTF-8 in which each UTF-16 code unit is encoded on its own, so a
   * supplementary character is two three-byte sequences, one per surrogate. Decoded here, not by iconv-lite (whose
   * cesu8 decoder returns a number from end(), and a stray "0" before the U+FFFD of a truncated sequence). Errors
   * as in WHATWG Encoding "UTF-8 decoder": each maximal invalid subpart becomes one U+FFFD standing for its bytes,
   * and the byte that ended it is read again. Lead bytes: C2–DF one continuation byte, E0–EF two (E0: the first
   * A0–BF); ED is not limited to 80–9F, since surrogates are how CESU-8 spells supplementary characters. An unpaired
   * surrogate is U+FFFD standing for its three bytes, as in UTF-16 (Unicode §3.9 D91; WHATWG Encoding "shared UTF-16
   * decoder"), so a high surrogate is held until the sequence after it is known (see cesuUnit).
   */
  private cesu8(buf: Buffer, out: Produced): void {
    let code = this.cesuCode;
    let needed = this.cesuNeeded;
    let lower = this.cesuLower;
    let waiting = this.unattributed;
    let i = 0;
    while (i < buf.length) {
      const b = buf[i]!;
      if (needed > 0) {
        if (b >= lower && b <= 0xbf) {
          code = (code << 6) | (b & 0x3f);
          waiting++;
          i++;
          lower = 0x80;
          if (--needed === 0) {
            this.cesuUnit(code, waiting, out); // U+FFFD here is encoded in the input: text, not a replacement
            waiting = 0;
          }
          continue;
        }
        // The sequence so far is a maximal invalid subpart; b is read again as a lead byte.
        this.cesuFlush(out);
        out.appendCode(0xfffd, waiting, 0, true);
        waiting = 0;
        needed = 0;
        lower = 0x80;
        continue;
      }
      i++;
      if (b < 0x80) {
        this.cesuFlush(out);
        out.appendCode(b, 1, 0);
      } else if (b >= 0xc2 && b <= 0xdf) {
        code = b & 0x1f;
        needed = 1;
        waiting = 1;
      } else if (b >= 0xe0 && b <= 0xef) {
        code = b & 0x0f;
        needed = 2;
        waiting = 1;
        if (b === 0xe0) lower = 0xa0;
      } else {
        this.cesuFlush(out);
        out.appendCode(0xfffd, 1, 0, true);
      }
    }
    this.cesuCode = code;
    this.cesuNeeded = needed;
    this.cesuLower = lower;
    this.unattributed = waiting;
  }

  /** The code unit of a complete CESU-8 sequence: a high surrogate waits for the next unit, a low one pairs with it. */
  private cesuUnit(code: number, bytes: number, out: Produced): void {
    if (code >= 0xdc00 && code <= 0xdfff) {
      if (this.cesuHigh === 0) out.appendCode(0xfffd, bytes, 0, true);
      else {
        out.appendCode(this.cesuHigh, this.cesuHighBytes, 0);
        out.appendCode(code, bytes, 0);
        this.cesuHigh = 0;
      }
      return;
    }
    this.cesuFlush(out);
    if (code >= 0xd800 && code <= 0xdbff) {
      this.cesuHigh = code;
      this.cesuHighBytes = bytes;
    } else out.appendCode(code, bytes, 0);
  }

  /** A held high surrogate that no low one follows: U+FFFD standing for its bytes. */
  private cesuFlush(out: Produced): void {
    if (this.cesuHigh === 0) return;
    out.appendCode(0xfffd, this.cesuHighBytes, 0, true);
    this.cesuHigh = 0;
  }
}

// ---------------------------------------------------------------------------------------------------
// ISO-2022-JP, WHATWG Encoding "ISO-2022-JP decoder".

const enum JisState {
  Ascii,
  Roman,
  Katakana,
  LeadByte,
  TrailByte,
  EscapeStart,
  Escape,
}

let jis0208: Uint16Array | null = null;

/** JIS X 0208 pointer → code point, through iconv-lite's EUC-JP decoder (0 = unmapped). Built once. */
function jis0208Table(): Uint16Array {
  if (jis0208 !== null) return jis0208;
  const table = new Uint16Array(94 * 94);
  const pair = Buffer.alloc(2);
  for (let lead = 0; lead < 94; lead++) {
    for (let trail = 0; trail < 94; trail++) {
      pair[0] = 0xa1 + lead;
      pair[1] = 0xa1 + trail;
      const s = iconv().decode(pair, 'euc-jp');
      table[lead * 94 + trail] = s.length === 1 && s !== '\uFFFD' ? s.charCodeAt(0) : 0;
    }
  }
  jis0208 = table;
  return table;
}

class Iso2022JpDecoder implements Decoder {
  readonly byteMap = new ByteMap('units');
  readonly flatOutput = false;
  readonly bidiFree = false;
  // Deviation (3987bis §3.5): iconv-lite cannot encode ISO-2022-JP, so queries stay UTF-8 percent-encoded.
  readonly documentCharset = undefined;
  private readonly nfc = new NfcStage();
  private state = JisState.Ascii;
  private outputState = JisState.Ascii;
  private lead = 0;
  /** Bytes read since the last output that produced nothing yet (escape sequence or a pending lead). */
  private waiting = 0;
  /** Of `waiting`, the bytes that belong to complete escape sequences (a gap before the next output). */
  private escaped = 0;
  /**
   * WHATWG Encoding §12.2.1 "ISO-2022-JP output": the last thing read was an escape sequence; a second one right after
   * it is an error (a U+FFFD standing for it), as TextDecoder has it (`ESC ( B ESC ( B a` is `\uFFFDa`).
   */
  private escapeLast = false;

  write(bytes: Uint8Array): string {
    const buf = asBuffer(bytes);
    const out = new Produced(buf.length);
    for (let i = 0; i < buf.length; i++) this.byte(buf[i]!, out);
    return this.nfc.process(out, false, this.byteMap);
  }

  end(): string {
    const out = new Produced(16);
    // WHATWG: the end of the input in the TrailByte or an Escape state is an error. Escape bytes at the
    // very end produce no text and belong to no chunk.
    if (this.state === JisState.TrailByte || this.state === JisState.EscapeStart || this.state === JisState.Escape) {
      this.emit(0xfffd, out);
    }
    this.waiting = 0;
    this.escaped = 0;
    return this.nfc.process(out, true, this.byteMap);
  }

  private emit(cp: number, out: Produced): void {
    // Every U+FFFD of this decoder is an error (JIS X 0208 has no U+FFFD).
    out.appendCode(cp, this.waiting - this.escaped, this.escaped, true);
    this.waiting = 0;
    this.escaped = 0;
    this.escapeLast = false;
  }

  private byte(b: number, out: Produced): void {
    this.waiting++;
    switch (this.state) {
      case JisState.Ascii:
      case JisState.Roman:
        if (b === 0x1b) {
          this.state = JisState.EscapeStart;
          return;
        }
        if (b <= 0x7f && b !== 0x0e && b !== 0x0f) {
          let cp = b;
          if (this.state === JisState.Roman) cp = b === 0x5c ? 0xa5 : b === 0x7e ? 0x203e : b;
          this.emit(cp, out);
          return;
        }
        this.emit(0xfffd, out);
        return;
      case JisState.Katakana:
        if (b === 0x1b) {
          this.state = JisState.EscapeStart;
          return;
        }
        this.emit(b >= 0x21 && b <= 0x5f ? 0xff61 - 0x21 + b : 0xfffd, out);
        return;
      case JisState.LeadByte:
        if (b === 0x1b) {
          this.state = JisState.EscapeStart;
          return;
        }
        if (b >= 0x21 && b <= 0x7e) {
          this.lead = b;
          this.state = JisState.TrailByte;
          return;
        }
        this.emit(0xfffd, out);
        return;
      case JisState.TrailByte:
        this.state = JisState.LeadByte;
        if (b === 0x1b) {
          // The lead was an error; the ESC starts an escape sequence.
          this.waiting--;
          this.emit(0xfffd, out);
          this.waiting = 1;
          this.state = JisState.EscapeStart;
          return;
        }
        if (b >= 0x21 && b <= 0x7e) {
          const cp = jis0208Table()[(this.lead - 0x21) * 94 + (b - 0x21)]!;
          this.emit(cp === 0 ? 0xfffd : cp, out);
          return;
        }
        this.emit(0xfffd, out);
        return;
      case JisState.EscapeStart:
        if (b === 0x24 || b === 0x28) {
          this.lead = b;
          this.state = JisState.Escape;
          return;
        }
        // WHATWG: an error for the ESC, and b is read again in the output state.
        this.state = this.outputState;
        this.waiting--;
        this.emit(0xfffd, out);
        this.byte(b, out);
        return;
      case JisState.Escape: {
        const lead = this.lead;
        let next = -1;
        if (lead === 0x28 && b === 0x42) next = JisState.Ascii;
        else if (lead === 0x28 && b === 0x4a) next = JisState.Roman;
        else if (lead === 0x28 && b === 0x49) next = JisState.Katakana;
        else if (lead === 0x24 && (b === 0x40 || b === 0x42)) next = JisState.LeadByte;
        if (next >= 0) {
          this.state = next;
          this.outputState = next;
          // Two escape sequences in a row: the second is the error (the first stays a gap before its U+FFFD).
          if (this.escapeLast) this.emit(0xfffd, out);
          else this.escaped = this.waiting;
          this.escapeLast = true;
          return;
        }
        // WHATWG: an error for the ESC, and the two bytes after it are read again in the output state.
        this.state = this.outputState;
        this.waiting -= 2;
        this.emit(0xfffd, out);
        this.byte(lead, out);
        this.byte(b, out);
        return;
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// RFC 3987 §3.1 step 1, variant B: text from a non-Unicode charset is normalised to NFC.
//
// The text is cut into pieces at NFC boundaries, each normalised on its own: UAX #15 §9 "Detecting Normalization
// Forms" / "Stable Code Points": before a character X with Canonical_Combining_Class 0 that composes with nothing
// before it, and whose decomposition starts with such a character, NFC(a + b) = NFC(a) + NFC(b) when b starts with
// X (canonical reordering never moves a character across a starter, and nothing before X composes with X).
// - The stream cannot normalise a write on its own (a combining mark at the start of the next write may compose
//   with the last character of this one), so the last piece is held until the boundary after it has arrived.
// - Byte offsets: a piece that normalisation leaves as it is keeps each unit's bytes; in a piece that changes, each
//   character's bytes go to the character of the result that holds the start of its decomposition (see
//   addNormalizedUnits). A piece is one starter and the marks after it, so each composed character gets its own
//   bytes and the characters after it keep theirs.
// - Speed: String.prototype.normalize is quadratic in a run of combining marks, so no piece is longer than
//   NFC_PIECE_LIMIT (+ 1 to keep a surrogate pair whole) and no call gets more than NFC_BLOCK + that. Where the
//   pieces lie depends on the text only, never on how it was split into writes, so neither does the output.

/**
 * Whether `c` (a UTF-16 unit) is one of the common starters known to be NFC boundaries, by range (ASCII to U+02FF,
 * the basic Greek, Cyrillic, Hebrew, Arabic and Thai letters, kana, CJK ideographs, Hangul syllables, U+FFFD): the fast
 * path of isNfcBoundary.
 */
function isSafeStarter(c: number): boolean {
  if (c < 0x300) return true;
  if (c < 0x391) return false;
  if (c <= 0x3a9) return true; // Greek capitals
  if (c >= 0x3b1 && c <= 0x3c9) return true; // Greek small letters
  if (c >= 0x410 && c <= 0x44f) return true; // Cyrillic А–я
  if (c >= 0x5d0 && c <= 0x5ea) return true; // Hebrew letters
  if (c >= 0x621 && c <= 0x64a) return true; // Arabic letters
  if (c >= 0xe01 && c <= 0xe30) return true; // Thai consonants and vowels
  if (c >= 0x3041 && c <= 0x3096) return true; // Hiragana (not U+3099/U+309A)
  if (c >= 0x30a1 && c <= 0x30fa) return true; // Katakana
  if (c >= 0x4e00 && c <= 0x9fff) return true; // CJK Unified Ideographs
  if (c >= 0xac00 && c <= 0xd7a3) return true; // Hangul syllables
  if (c >= 0xff01 && c <= 0xff9d) return true; // full-width ASCII, half-width katakana (not the sound marks)
  return c === 0xfffd; // U+FFFD: where a legacy charset's bytes were replaced
}

/**
 * UAX #15 (NFC boundary before a code point): Canonical_Combining_Class 0, composes with nothing before it, and its
 * canonical decomposition starts with such a character. Every character with a non-zero combining class is a mark
 * (General_Category M*), and the non-marks that compose with a character before them are the Hangul vowel and
 * final jamo (Unicode §3.12) and the Kirat Rai vowel signs U+16D67/U+16D68 (UnicodeData.txt, CompositionExclusions.txt);
 * test/stream-legacy.test.ts checks this against String.prototype.normalize for every code point. Marks are never
 * taken as boundaries, though some spacing marks (Mc) are: that only makes a piece longer.
 */
export function isNfcBoundary(cp: number): boolean {
  if (cp < 0x10000 && isSafeStarter(cp)) return true;
  if (isMark(cp)) return false;
  if (cp >= 0x1161 && cp <= 0x1175) return false; // Hangul vowel jamo (compose with a leading jamo)
  if (cp >= 0x11a8 && cp <= 0x11c2) return false; // Hangul final jamo (compose with an LV syllable)
  if (cp === 0x16d67 || cp === 0x16d68) return false; // Kirat Rai vowel signs
  return true;
}

/**
 * Whether text[k] starts a new NFC piece: an NFC boundary (a surrogate pair is looked at as its code point; a low
 * surrogate is never a boundary, so pairs stay whole).
 */
function boundaryAt(text: string, k: number): boolean {
  const c = text.charCodeAt(k);
  if (c < 0xd800 || c > 0xdfff) return isNfcBoundary(c);
  if (c >= 0xdc00) return false;
  const d = k + 1 < text.length ? text.charCodeAt(k + 1) : 0;
  return isNfcBoundary(d >= 0xdc00 && d <= 0xdfff ? ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000 : c);
}

/**
 * Deviation (RFC 3987 §3.1 variant B): a piece (a starter and the characters after it up to the next NFC
 * boundary) longer than this is cut here anyway, so that normalising stays linear. It takes a run of more than
 * 1024 combining marks, far beyond UAX #15 §13 "Stream-Safe Text Format" (30); the marks after a cut are then not
 * reordered with those before it and do not compose with the base character, so the text is not quite NFC there.
 * (String.prototype.normalize takes about 0.7 ms for a run of 1024 marks of two classes, 12 ms for 4096.)
 */
const NFC_PIECE_LIMIT = 1024;

/** Normalised per call: a block ends at the first piece boundary at least this far from its start. */
const NFC_BLOCK = 4096;

const NO_UNITS = new Uint32Array(0);

class NfcStage {
  /** False for a Unicode encoding (RFC 3987 §3.1 variant C): the text passes as it is. */
  private readonly normalize: boolean;

  constructor(normalize = true) {
    this.normalize = normalize;
  }

  /** The held text: one piece, not yet known to be complete (no boundary after its first unit). */
  private text = '';
  private units = NO_UNITS;
  private gaps: Uint32Array | null = null;
  private readonly parts: string[] = [];
  /**
   * Which U+FFFD of the held text the input encodes itself (text, not replacements): their ordinals among the held
   * text's U+FFFD (0 = its first), in order; null when none (every U+FFFD held replaced invalid bytes). NFC keeps
   * every U+FFFD, in order (a starter that neither composes nor decomposes), so the k-th U+FFFD of the output is the
   * k-th of the input. Only the held text's are kept, so this is no longer than the held piece, however long the
   * input (DESIGN.md: memory does not grow with the input).
   */
  private heldEncoded: number[] | null = null;
  /** Whether the held text holds a U+FFFD. */
  private heldFffd = false;

  /** Normalises (or passes on) the text of `add` that is complete, records its bytes in `map`, and returns it. */
  process(add: Produced, final: boolean, map: ByteMap): string {
    const at = map.produced;
    const fffd = this.heldFffd || add.fffd;
    // Rare: the input encodes U+FFFD itself. Their ordinals among the U+FFFD of the held text and `add`.
    const encoded = fffd && (this.heldEncoded !== null || add.encoded !== null) ? this.encodedOrdinals(add) : null;
    const out = this.run(add, final, map);
    if (!fffd) return out;
    this.placeReplacements(out, at, map, encoded);
    return out;
  }

  /** The ordinals of the encoded U+FFFD of the held text followed by `add`'s text, in order. */
  private encodedOrdinals(add: Produced): number[] {
    const list = this.heldEncoded === null ? [] : this.heldEncoded.slice();
    if (add.encoded !== null) {
      let base = 0;
      for (let k = this.text.indexOf('\uFFFD'); k >= 0; k = this.text.indexOf('\uFFFD', k + 1)) base++;
      const text = add.text();
      let ordinal = 0;
      let k = text.indexOf('\uFFFD');
      for (const position of add.encoded) {
        while (k >= 0 && k < position) {
          ordinal++;
          k = text.indexOf('\uFFFD', k + 1);
        }
        list.push(base + ordinal);
      }
    }
    return list;
  }

  /**
   * Tells `map` where the U+FFFD of `out` (which starts at unit `at`) that replaced invalid bytes are: all but the
   * `encoded` ordinals. Then keeps what is left of `encoded` for the held text.
   */
  private placeReplacements(out: string, at: number, map: ByteMap, encoded: number[] | null): void {
    let ordinal = 0;
    let next = 0; // the next entry of `encoded`
    // A walk by charCodeAt: cheaper than indexOf where U+FFFD are many (a replaced byte in every other position).
    for (let k = 0; k < out.length; k++) {
      if (out.charCodeAt(k) !== 0xfffd) continue;
      if (encoded !== null && next < encoded.length && encoded[next] === ordinal) next++;
      else map.addReplacement(at + k, 0);
      ordinal++;
    }
    this.heldFffd = this.text.length > 0 && this.text.indexOf('\uFFFD') >= 0;
    this.heldEncoded = null;
    if (encoded !== null && next < encoded.length) {
      this.heldEncoded = encoded.slice(next);
      for (let j = 0; j < this.heldEncoded.length; j++) this.heldEncoded[j]! -= ordinal;
    }
  }

  private run(add: Produced, final: boolean, map: ByteMap): string {
    const addText = add.text();
    if (!this.normalize) {
      keepBlock(add.units, add.gaps, 0, add.n, map);
      return addText;
    }
    const held = this.text.length;
    const text = held === 0 ? addText : this.text + addText;
    const n = held + add.n;
    let units = add.units;
    let gaps = add.gaps;
    if (held > 0) {
      units = new Uint32Array(n);
      units.set(this.units.subarray(0, held));
      units.set(add.units.subarray(0, add.n), held);
      if (gaps !== null || this.gaps !== null) {
        const g = new Uint32Array(n);
        if (this.gaps !== null) g.set(this.gaps.subarray(0, held));
        if (add.gaps !== null) g.set(add.gaps.subarray(0, add.n), held);
        gaps = g;
      }
    }
    if (n === 0) return '';
    const parts = this.parts;
    let pieceStart = 0;
    let blockStart = 0;
    // The held units after the first are known not to be boundaries, except a high surrogate at their end.
    for (let k = held > 1 ? held - 1 : 1; k < n; k++) {
      const c = text.charCodeAt(k);
      if (c >= 0xd800 && c <= 0xdbff && k + 1 === n && !final) break; // its code point is not known yet
      const forced = k - pieceStart >= NFC_PIECE_LIMIT && (c < 0xdc00 || c > 0xdfff);
      if (!forced && !boundaryAt(text, k)) continue;
      if (forced || k - blockStart >= NFC_BLOCK) {
        parts.push(normalizeBlock(text, units, gaps, blockStart, k, map));
        blockStart = k;
      }
      pieceStart = k;
    }
    const end = final ? n : pieceStart;
    if (end > blockStart) parts.push(normalizeBlock(text, units, gaps, blockStart, end, map));
    if (end === n) {
      this.text = '';
      this.units = NO_UNITS;
      this.gaps = null;
    } else {
      this.text = text.slice(end);
      this.units = units.slice(end, n);
      this.gaps = gaps === null ? null : gaps.slice(end, n);
    }
    const out = parts.length === 1 ? parts[0]! : parts.join('');
    parts.length = 0;
    return out;
  }
}

/**
 * Normalises text[from:to) (which starts at a piece boundary and ends at one or at a forced cut) and records the
 * bytes of its units in `map`; returns the normalised text.
 */
/** The byte map of text[from, to) passed on as it is: each unit keeps its bytes, and the gaps between them. */
function keepBlock(units: Uint32Array, gaps: Uint32Array | null, from: number, to: number, map: ByteMap): void {
  if (gaps !== null) {
    const at = map.produced - from;
    for (let i = from; i < to; i++) if (gaps[i]! > 0) map.addGap(at + i, gaps[i]!);
  }
  map.addUnits(units, from, to);
}

function normalizeBlock(text: string, units: Uint32Array, gaps: Uint32Array | null, from: number, to: number, map: ByteMap): string {
  const block = from === 0 && to === text.length ? text : text.slice(from, to);
  const nfc = block.normalize('NFC');
  if (nfc === block) {
    keepBlock(units, gaps, from, to, map);
    return block;
  }
  // Something changed: piece by piece. Within a block every piece ends at an NFC boundary (a forced cut ends the block).
  const out: string[] = [];
  let run = from; // the start of the unchanged text not yet in `out`
  let p = from;
  while (p < to) {
    let q = p + 1;
    while (q < to && !boundaryAt(text, q)) q++;
    if (gaps !== null && gaps[p]! > 0) map.addGap(map.produced, gaps[p]!);
    // A lone safe starter is NFC as it is.
    const piece = q === p + 1 && isSafeStarter(text.charCodeAt(p)) ? null : text.slice(p, q);
    const norm = piece === null ? null : piece.normalize('NFC');
    if (norm === piece) {
      for (let i = p; i < q; i++) {
        if (i > p && gaps !== null && gaps[i]! > 0) map.addGap(map.produced, gaps[i]!);
        map.addUnit(units[i]!);
      }
    } else {
      addNormalizedUnits(piece!, norm!, units, gaps, p, map);
      if (p > run) out.push(text.slice(run, p));
      out.push(norm!);
      run = q;
    }
    p = q;
  }
  if (to > run) out.push(text.slice(run, to));
  return out.join('');
}

/** Longest changed piece whose bytes are shared out character by character (UAX #15 §13: 30 marks at most in real text). */
const NFC_FINE_LIMIT = 64;

/**
 * Records the bytes of the units of `norm`, the NFC of `piece` = text[p:p + piece.length). Canonically equivalent
 * strings have the same full decomposition (Unicode §3.11): each character of `piece` goes, with its bytes, to the
 * character of `norm` that holds the first code point of its decomposition. So e + U+0323 + U+0301 gives ẹ the bytes
 * of e and U+0323 and leaves U+0301 its own, and marks that are only reordered keep theirs. A longer piece gives all
 * its bytes to its first unit.
 */
function addNormalizedUnits(piece: string, norm: string, units: Uint32Array, gaps: Uint32Array | null, p: number, map: ByteMap): void {
  const shares = piece.length <= NFC_FINE_LIMIT ? shareBytes(piece, norm, units, gaps, p) : null;
  if (shares === null) {
    let bytes = 0;
    for (let i = 0; i < piece.length; i++) bytes += units[p + i]! + (i > 0 && gaps !== null ? gaps[p + i]! : 0);
    map.addUnit(bytes);
    for (let i = 1; i < norm.length; i++) map.addUnit(0);
    return;
  }
  for (let j = 0; j < norm.length; j++) map.addUnit(shares[j]!);
}

/** The bytes of each unit of `norm` (see addNormalizedUnits), or null if the decompositions do not match up. */
function shareBytes(piece: string, norm: string, units: Uint32Array, gaps: Uint32Array | null, p: number): Uint32Array | null {
  // The code points of the decomposition of `piece`, each with the unit of `piece` it starts (-1: not the first).
  const comps: number[] = [];
  const owner: number[] = [];
  let total = 0;
  for (let i = 0; i < piece.length; ) {
    const cp = piece.codePointAt(i)!;
    const width = cp > 0xffff ? 2 : 1;
    let first = true;
    for (const ch of String.fromCodePoint(cp).normalize('NFD')) {
      comps.push(ch.codePointAt(0)!);
      owner.push(first ? i : -1);
      first = false;
    }
    for (let k = i; k < i + width && k < piece.length; k++) total += units[p + k]! + (k > 0 && gaps !== null ? gaps[p + k]! : 0);
    i += width;
  }
  const used = new Uint8Array(comps.length);
  const shares = new Uint32Array(norm.length);
  let assigned = 0;
  for (let j = 0; j < norm.length; ) {
    const cp = norm.codePointAt(j)!;
    for (const ch of String.fromCodePoint(cp).normalize('NFD')) {
      const c = ch.codePointAt(0)!;
      let k = 0;
      while (k < comps.length && (used[k] === 1 || comps[k] !== c)) k++;
      if (k === comps.length) return null;
      used[k] = 1;
      const i = owner[k]!;
      if (i < 0) continue;
      const width = piece.codePointAt(i)! > 0xffff ? 2 : 1;
      for (let u = i; u < i + width && u < piece.length; u++) {
        const bytes = units[p + u]! + (u > 0 && gaps !== null ? gaps[p + u]! : 0);
        shares[j] += bytes;
        assigned += bytes;
      }
    }
    j += cp > 0xffff ? 2 : 1;
  }
  return assigned === total ? shares : null;
}
