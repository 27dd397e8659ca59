// Bytes → text for the stream (DESIGN.md "Streaming contract": input encodings).
//
// Every decoder is incremental: a multi-byte sequence split across writes is held until it is complete,
// so the text does not depend on how the bytes were split. Each decoder also fills a ByteMap, from which
// the stream puts exact byteStart/byteEnd on every chunk.
//
// - UTF-8 (the default): WHATWG Encoding §8.1.1 "UTF-8 decoder" — a leading BOM is dropped, every maximal
//   invalid subpart becomes one U+FFFD (Unicode §3.9 "U+FFFD Substitution of Maximal Subparts"). Valid
//   writes take the native path (buffer.isUtf8 + toString); only a write holding invalid bytes is walked here.
// - ISO-2022-JP: WHATWG Encoding §12.2.1 (iconv-lite has no ISO-2022-JP); JIS X 0208 pairs are looked up
//   through iconv-lite's EUC-JP table, the same JIS X 0208 set shifted by 0x80.
// - Other legacy charsets (Shift_JIS, EUC-JP, GB18030, Big5, EUC-KR, windows-125x, KOI8-R, …): iconv-lite,
//   with the byte length of each character found from the charset's lead-byte structure and checked
//   against iconv-lite's output; where they disagree (invalid bytes, a pair that maps to two code points)
//   that stretch is decoded byte by byte, which is exact but slow.
// - Text from a legacy charset is normalised to NFC (RFC 3987 §3.1 step 1, variant B), see NfcStage.
import { Buffer, isUtf8 } from 'node:buffer';
import iconv from 'iconv-lite';
import { badOption } from '../errors.js';
import { ByteMap } from './bytemap.js';

export interface Decoder {
  readonly byteMap: ByteMap;
  /** The charset name to hand the scanner as `documentCharset` (3987bis §3.5), or undefined for UTF-8. */
  readonly documentCharset: string | undefined;
  /** Decodes the next bytes; returns the text that is now complete. */
  write(bytes: Uint8Array): string;
  /** Flushes what is held back (an incomplete sequence becomes U+FFFD). */
  end(): string;
}

type Family = 'single' | 'sjis' | 'eucjp' | 'gb' | 'dbcs2' | 'generic';

/** Normalises an encoding name for comparison: lower case, letters and digits only. */
function squash(name: string): string {
  let out = '';
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i) | 0x20;
    if ((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39)) out += String.fromCharCode(c);
  }
  return out;
}

function isUtf8Name(squashed: string): boolean {
  return squashed === 'utf8' || squashed === 'unicode11utf8';
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
  const s = squash(encoding);
  if (isUtf8Name(s) || isIso2022JpName(s)) return;
  if (!iconv.encodingExists(encoding)) {
    throw badOption('encoding', 'a charset name iconv-lite knows (e.g. "utf-8", "shift_jis", "windows-1252")', encoding);
  }
}

export function createDecoder(encoding?: string): Decoder {
  checkEncoding(encoding);
  if (encoding === undefined) return new Utf8Decoder();
  const s = squash(encoding);
  if (isUtf8Name(s)) return new Utf8Decoder();
  if (isIso2022JpName(s)) return new Iso2022JpDecoder();
  return new LegacyDecoder(encoding);
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
 * WHATWG Encoding §8.1.1: the number of continuation bytes a lead byte needs and the bounds of the
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
 * streaming decoder of WHATWG Encoding §8.1.1 would already have reported it.
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

class Utf8Decoder implements Decoder {
  readonly byteMap = new ByteMap('utf8');
  readonly documentCharset = undefined;
  private pending: Buffer | null = null;
  private bomDone = false;
  /** UTF-16 units produced so far. */
  private produced = 0;

  write(bytes: Uint8Array): string {
    let buf = asBuffer(bytes);
    if (this.pending !== null) {
      buf = Buffer.concat([this.pending, buf]);
      this.pending = null;
    }
    let from = 0;
    if (!this.bomDone) {
      // WHATWG Encoding §6 "decode": a leading EF BB BF is dropped. Wait for 3 bytes to decide.
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
    return rest === null ? '' : this.decode(rest, 0, rest.length);
  }

  private decode(buf: Buffer, from: number, to: number): string {
    if (from >= to) return '';
    const view = from === 0 && to === buf.length ? buf : buf.subarray(from, to);
    if (isUtf8(view)) {
      const text = view.toString('utf8');
      this.produced += text.length;
      return text;
    }
    return this.decodeWithErrors(buf, from, to);
  }

  // WHATWG Encoding §8.1.1 UTF-8 decoder, for a stretch known to hold invalid bytes. Valid runs are
  // still decoded natively; each maximal invalid subpart becomes one U+FFFD and is recorded with its
  // byte length.
  private decodeWithErrors(buf: Buffer, from: number, to: number): string {
    let out = '';
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
        out += run;
        this.produced += run.length;
      }
      this.byteMap.addReplacement(this.produced, j - i);
      out += '\uFFFD';
      this.produced++;
      i = j;
      runStart = j;
    }
    if (to > runStart) {
      const run = buf.toString('utf8', runStart, to);
      out += run;
      this.produced += run.length;
    }
    return out;
  }
}

function isBomPrefix(buf: Buffer): boolean {
  return (buf.length < 1 || buf[0] === BOM0) && (buf.length < 2 || buf[1] === BOM1);
}

// ---------------------------------------------------------------------------------------------------
// Legacy charsets: text plus, for every produced UTF-16 unit, the bytes it stands for (`units`) and the
// bytes before it that produced nothing (`gaps`, ISO-2022-JP escapes). NfcStage then normalises and
// hands them to the ByteMap.

interface Produced {
  text: string;
  units: number[];
  gaps: number[];
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

/** Appends `text` to `out`, giving each code point its byte length from `lengths` (in order). */
function assignLengths(text: string, lengths: number[], lengthFrom: number, out: Produced): void {
  let k = lengthFrom;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    out.units.push(lengths[k++]!);
    out.gaps.push(0);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        out.units.push(0);
        out.gaps.push(0);
        i++;
      }
    }
  }
  out.text += text;
}

function familyOf(encoding: string): Family {
  const codec = iconv.getCodec(encoding) as unknown as { encodingName?: string; decodeBuf?: unknown };
  if (codec.decodeBuf !== undefined) return 'single'; // iconv-lite SBCS: one byte, one UTF-16 unit
  const s = squash(encoding);
  if (s === 'latin1' || s === 'binary' || s === 'ascii' || s === 'usascii' || s === 'iso88591') return 'single';
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
      return 'generic';
  }
}

/**
 * The byte length of the character starting at buf[i] from the charset's lead-byte structure, or 0 when
 * more bytes are needed to tell. Checked against iconv-lite's output afterwards, never trusted blindly.
 */
function structuralLength(family: Family, buf: Buffer, i: number): number {
  const b = buf[i]!;
  switch (family) {
    case 'sjis': // Shift_JIS / windows-31j lead bytes (WHATWG Encoding §12.3.1)
      return (b >= 0x81 && b <= 0x9f) || (b >= 0xe0 && b <= 0xfc) ? 2 : 1;
    case 'eucjp': // EUC-JP: SS2 (0x8E) two bytes, SS3 (0x8F) three, JIS X 0208 two (WHATWG §12.1.1)
      return b === 0x8e ? 2 : b === 0x8f ? 3 : b >= 0xa1 && b <= 0xfe ? 2 : 1;
    case 'gb': // GB18030: a second byte 0x30–0x39 makes a four-byte sequence (WHATWG §11.2.1)
      if (b < 0x81 || b > 0xfe) return 1;
      if (i + 1 >= buf.length) return 0;
      return buf[i + 1]! >= 0x30 && buf[i + 1]! <= 0x39 ? 4 : 2;
    case 'dbcs2': // Big5, EUC-KR / windows-949: lead 0x81–0xFE, two bytes
      return b >= 0x81 && b <= 0xfe ? 2 : 1;
    default:
      return 1;
  }
}

const VERIFY_PIECE = 512; // characters per piece re-checked when a whole write disagrees

class LegacyDecoder implements Decoder {
  readonly byteMap = new ByteMap('units');
  readonly documentCharset: string;
  private readonly encoding: string;
  private readonly family: Family;
  private readonly nfc = new NfcStage();
  private pending: Buffer | null = null;
  /** 'generic' family only: a stateful iconv-lite decoder fed byte by byte, and bytes not yet producing. */
  private readonly stateful: ReturnType<typeof iconv.getDecoder> | null;
  private unattributed = 0;

  constructor(encoding: string) {
    this.encoding = encoding;
    this.documentCharset = encoding;
    this.family = familyOf(encoding);
    this.stateful = this.family === 'generic' ? iconv.getDecoder(encoding) : null;
  }

  write(bytes: Uint8Array): string {
    let buf = asBuffer(bytes);
    if (this.pending !== null) {
      buf = Buffer.concat([this.pending, buf]);
      this.pending = null;
    }
    const out: Produced = { text: '', units: [], gaps: [] };
    if (this.family === 'generic') this.byteByByte(buf, 0, buf.length, out);
    else {
      const lengths: number[] = [];
      let i = 0;
      while (i < buf.length) {
        const len = structuralLength(this.family, buf, i);
        if (len === 0 || i + len > buf.length) break;
        lengths.push(len);
        i += len;
      }
      if (i < buf.length) this.pending = Buffer.from(buf.subarray(i));
      this.verified(buf, 0, i, lengths, 0, lengths.length, out, true);
    }
    return this.nfc.process(out, false, this.byteMap);
  }

  end(): string {
    const out: Produced = { text: '', units: [], gaps: [] };
    const rest = this.pending;
    this.pending = null;
    if (this.family === 'generic') {
      if (rest !== null) this.byteByByte(rest, 0, rest.length, out);
      const tail = this.stateful!.end() ?? '';
      if (tail.length > 0) {
        const lengths = new Array<number>(codePoints(tail)).fill(0);
        lengths[0] = this.unattributed;
        assignLengths(tail, lengths, 0, out);
      }
      this.unattributed = 0;
    } else if (rest !== null) {
      // An incomplete sequence at the end: whatever iconv-lite makes of it (U+FFFD) stands for all of it.
      const tail = iconv.decode(rest, this.encoding);
      const lengths = new Array<number>(codePoints(tail)).fill(0);
      if (lengths.length > 0) lengths[0] = rest.length;
      assignLengths(tail, lengths, 0, out);
    }
    return this.nfc.process(out, true, this.byteMap);
  }

  /** Decodes buf[from:to) (whole characters) and checks its code points against the structural lengths. */
  private verified(
    buf: Buffer, from: number, to: number, lengths: number[], lf: number, lt: number, out: Produced, split: boolean,
  ): void {
    if (from >= to) return;
    const text = iconv.decode(buf.subarray(from, to), this.encoding);
    if (codePoints(text) === lt - lf) {
      assignLengths(text, lengths, lf, out);
      return;
    }
    if (!split || lt - lf <= VERIFY_PIECE) {
      this.charByChar(buf, from, lengths, lf, lt, out);
      return;
    }
    // Narrow the disagreement down: re-check piece by piece, byte by byte only where it persists.
    let pos = from;
    for (let k = lf; k < lt; k += VERIFY_PIECE) {
      const kt = Math.min(lt, k + VERIFY_PIECE);
      let end = pos;
      for (let m = k; m < kt; m++) end += lengths[m]!;
      this.verified(buf, pos, end, lengths, k, kt, out, false);
      pos = end;
    }
  }

  /**
   * Each structural character decoded on its own (the charset is stateless). One that yields several code
   * points is an invalid sequence whose last byte iconv-lite read again as a character of its own
   * ("\x81 " → "\uFFFD "), or a pair that maps to two code points (Big5-HKSCS): in the first case the
   * last byte goes to the last code point, otherwise all bytes go to the first.
   */
  private charByChar(buf: Buffer, from: number, lengths: number[], lf: number, lt: number, out: Produced): void {
    let pos = from;
    for (let k = lf; k < lt; k++) {
      const len = lengths[k]!;
      const text = iconv.decode(buf.subarray(pos, pos + len), this.encoding);
      const n = codePoints(text);
      const split = new Array<number>(n).fill(0);
      if (n > 0) split[0] = len;
      if (n > 1 && len > 1) {
        const head = iconv.decode(buf.subarray(pos, pos + len - 1), this.encoding);
        const last = iconv.decode(buf.subarray(pos + len - 1, pos + len), this.encoding);
        if (head + last === text && codePoints(last) === 1) {
          split[0] = len - 1;
          split[n - 1] += 1;
        }
      }
      if (n > 0) assignLengths(text, split, 0, out);
      else if (out.units.length > 0) out.units[out.units.length - 1]! += len;
      pos += len;
    }
  }

  /** Exact but slow: one byte at a time; the bytes before an output are attributed to its first unit. */
  private byteByByte(buf: Buffer, from: number, to: number, out: Produced): void {
    const decoder = this.stateful ?? iconv.getDecoder(this.encoding);
    let waiting = this.stateful !== null ? this.unattributed : 0;
    for (let i = from; i < to; i++) {
      waiting++;
      const text = decoder.write(buf.subarray(i, i + 1));
      if (text.length === 0) continue;
      const lengths = new Array<number>(codePoints(text)).fill(0);
      lengths[0] = waiting;
      assignLengths(text, lengths, 0, out);
      waiting = 0;
    }
    if (this.stateful !== null) {
      this.unattributed = waiting;
      return;
    }
    const tail = decoder.end() ?? '';
    if (tail.length > 0) {
      const lengths = new Array<number>(codePoints(tail)).fill(0);
      lengths[0] = waiting;
      assignLengths(tail, lengths, 0, out);
    } else if (waiting > 0 && out.units.length > 0) {
      out.units[out.units.length - 1]! += waiting;
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// ISO-2022-JP, WHATWG Encoding §12.2.1 "ISO-2022-JP decoder".

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
      const s = iconv.decode(pair, 'euc-jp');
      table[lead * 94 + trail] = s.length === 1 && s !== '\uFFFD' ? s.charCodeAt(0) : 0;
    }
  }
  jis0208 = table;
  return table;
}

class Iso2022JpDecoder implements Decoder {
  readonly byteMap = new ByteMap('units');
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

  write(bytes: Uint8Array): string {
    const out: Produced = { text: '', units: [], gaps: [] };
    const buf = asBuffer(bytes);
    for (let i = 0; i < buf.length; i++) this.byte(buf[i]!, out);
    return this.nfc.process(out, false, this.byteMap);
  }

  end(): string {
    const out: Produced = { text: '', units: [], gaps: [] };
    // WHATWG: end of queue in LeadByte/Ascii… states finishes; in TrailByte or Escape states it is an error.
    // (Escape bytes at the very end produce no text and belong to no chunk.)
    if (this.state === JisState.TrailByte || this.state === JisState.EscapeStart || this.state === JisState.Escape) {
      this.emit(0xfffd, out);
    }
    this.waiting = 0;
    this.escaped = 0;
    return this.nfc.process(out, true, this.byteMap);
  }

  private emit(cp: number, out: Produced): void {
    out.text += String.fromCharCode(cp);
    out.gaps.push(this.escaped);
    out.units.push(this.waiting - this.escaped);
    this.waiting = 0;
    this.escaped = 0;
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
          this.escaped = this.waiting;
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
// The stream cannot normalise a write on its own: a combining mark at the start of the next write may
// compose with the last character of this one. It normalises only up to the last "safe starter": a
// character with Canonical_Combining_Class 0 and NFC_Quick_Check Yes (UAX #15 §9.1) never composes with
// what precedes it and nothing reorders across it, so NFC(a + b) = NFC(a) + NFC(b) when b starts with one.
// The safe starters used are ranges known to hold only such characters (ASCII to U+02FF, the basic
// Greek, Cyrillic, Hebrew, Arabic and Thai letters, kana, CJK ideographs, Hangul syllables), which covers
// the charsets iconv-lite decodes.

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
  return false;
}

/** Longest text held back waiting for a safe starter before it is normalised anyway. */
const NFC_HOLD_LIMIT = 4096;

class NfcStage {
  private text = '';
  private units: number[] = [];
  private gaps: number[] = [];

  process(add: Produced, final: boolean, map: ByteMap): string {
    const text = this.text + add.text;
    const units = this.units.length === 0 ? add.units : this.units.concat(add.units);
    const gaps = this.gaps.length === 0 ? add.gaps : this.gaps.concat(add.gaps);
    let cut = text.length;
    if (!final) {
      cut = text.length - 1;
      while (cut > 0 && !isSafeStarter(text.charCodeAt(cut))) cut--;
      // Deviation (RFC 3987 §3.1 variant B): a run this long without a safe starter is normalised in
      // pieces, which is exact for all text the supported charsets produce.
      if (cut === 0 && text.length > NFC_HOLD_LIMIT) cut = text.length;
    }
    const head = cut === text.length ? text : text.slice(0, cut);
    this.text = cut === text.length ? '' : text.slice(cut);
    this.units = units.slice(cut);
    this.gaps = gaps.slice(cut);
    if (head.length === 0) return '';
    const nfc = head.normalize('NFC');
    if (nfc === head) {
      for (let i = 0; i < cut; i++) {
        if (gaps[i]! > 0) map.addGap(map.produced, gaps[i]!);
        map.addUnit(units[i]!);
      }
      return head;
    }
    // Something changed: normalise piece by piece (each piece starts at a safe starter) so that byte
    // offsets stay exact outside the pieces that changed; a changed piece's bytes go to its first unit.
    let result = '';
    let p = 0;
    while (p < cut) {
      let q = p + 1;
      while (q < cut && !isSafeStarter(head.charCodeAt(q))) q++;
      const piece = head.slice(p, q);
      const norm = piece.normalize('NFC');
      if (norm === piece) {
        for (let i = p; i < q; i++) {
          if (gaps[i]! > 0) map.addGap(map.produced, gaps[i]!);
          map.addUnit(units[i]!);
        }
      } else {
        let bytes = 0;
        for (let i = p; i < q; i++) bytes += units[i]! + (i > p ? gaps[i]! : 0);
        if (gaps[p]! > 0) map.addGap(map.produced, gaps[p]!);
        map.addUnit(bytes);
        for (let i = 1; i < norm.length; i++) map.addUnit(0);
      }
      result += norm;
      p = q;
    }
    return result;
  }
}
