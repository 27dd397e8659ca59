// Record mode: each input line is one record, each output line one JSON object (JSON Lines, RFC 8259 + LF):
//
//   {"line":1,"links":[{"start":4,"end":23,"byteStart":4,"byteEnd":23,"text":"https://example.com","uri":…}]}
//   {"line":2,"links":[]}
//
// so irilink can run as a filter wherever an engine pipes records through a command (Spark's RDD.pipe, Hadoop
// Streaming, `parallel --pipe`). The contract a record filter needs:
// - exactly one output line per input line, in order, also for lines without links (`"links":[]`) and empty
//   lines; a last line without a line break is a record too; the input's final line break does not start one;
// - each record is answered as soon as its line break has arrived (nothing waits for the end of the input);
// - lines end at CR LF, a lone LF or a lone CR (src/breaks.ts: the rule of jsonl's `line`), none of which
//   is part of the record;
// - offsets are relative to the record: `start`/`end` in UTF-16 code units of the decoded line, `byteStart`/
//   `byteEnd` in bytes of the line as it came in (UTF-8; a BOM on line 1 counts), so a tool can cut the link
//   out of the raw record without decoding it;
// - input is UTF-8 unless `encoding` names another charset (each line decoded by itself with the stream's
//   decoders, NFC for legacy charsets, 3987bis §3.5 document charset for http queries; a charset whose bytes
//   can hold 0x0A inside a character, such as UTF-16, cannot be split into lines and is refused, as is UTF-8
//   input whose first bytes are a UTF-16 byte order mark, with an error at its first line); invalid bytes
//   become U+FFFD (with an `invalid-utf8` diagnostic on a UTF-8 link that holds one) and the byte offsets still
//   count the input bytes;
// - memory: one line at a time. A line longer than `maxRecordBytes` (default 256 KiB) is not held whole: it is
//   scanned in pieces as it arrives (src/logs/long.ts), with the same links as the whole line would give (nothing
//   is skipped), and its record is written as it goes: `{"line":n,"links":[` first, each link as it is found,
//   `]}` at the line's end, byte for byte what the whole line's record would be. Memory then holds the part of the
//   line that is still undecided (at most about the longest link), not its links; output is pushed in pieces of
//   about 64 Ki units. A shorter line is held and scanned whole (for link-dense text ~70 times its size at peak);
// - every JSON text is jsonlText's (src/render/jsonl.ts): JSON.stringify's, with U+0085, U+2028 and U+2029 written
//   as `\u0085` `\u2028` `\u2029`, so that no line splitter (Python's str.splitlines() …) cuts a record in two; a
//   long line's record, written in pieces, is byte for byte jsonlText of the whole record.
//
// createLogLinkStream is the same machinery writing one object per link in the shape of the CLI's
// `--links --format jsonl` (offsets over the whole input), for logs read with the log rules; createCliLogStream
// (for the command) writes either shape, or the link list, with only the links that --schemes/--no-email keep.
import { Buffer, isAscii, isUtf8 } from 'node:buffer';
import { Transform } from 'node:stream';
import type { TransformCallback } from 'node:stream';
import { badArgument, badOption } from '../errors.js';
import { planOf } from '../charsets.js';
import { createDecoder, startsWithUtf16Bom } from '../stream/decode.js';
import { workLater } from '../stream/later.js';
import { jsonlText, linkRow } from '../render/jsonl.js';
import type { JsonlLink, LinkFields } from '../render/jsonl.js';
import type { Chunk, Link } from '../types.js';
import { CR, LF, LineBreakFinder } from '../breaks.js';
import { LineDecoder, withDecodeDiagnostics } from './decode.js';
import { checkLogOptions, LOG_OPTION_NAMES, LogLineLinker, splitLogOptions } from './lines.js';
import type { LongLineLink, LongLineScanner } from './long.js';
import type { LogOptions } from './lines.js';
import { isLinklessAscii } from './view.js';
import { types } from 'node:util';

/** Options of RecordLinker and linkRecords: the log options plus the input charset. */
export interface RecordLinkerOptions extends LogOptions {
  /** Charset of the input lines: 'utf-8' (default) or a charset the stream knows (shift_jis, euc-jp, …). */
  encoding?: string;
}

export interface RecordOptions extends RecordLinkerOptions {
  /**
   * The longest line held and scanned whole, in bytes (default 256 KiB). A longer line is scanned in pieces as it
   * arrives, with the same output byte for byte; only memory and speed differ. Not a limit on the line.
   */
  maxRecordBytes?: number;
}

/** A link as written in a record: LinkFields (src/render/jsonl.ts), its byte offsets always present. */
export interface RecordLink extends LinkFields {
  byteStart: number;
  byteEnd: number;
}

/** One output line. */
export interface LinkRecord {
  /** 1-based line number in the input. */
  line: number;
  links: RecordLink[];
}

// Why 256 KiB (was 8 MiB): a line held whole is scanned whole, and for link-dense text the links, their JSON and
// the view take about 70 times the line's size at once (a 7.8 MB line of `see https://例え.jp/パス and
// www.example.com, `: --records 570 MB peak RSS, --logs 305 MB). From 256 KiB on, both take 107-109 MB (plain
// irilink on the same line: 99 MB), and lines below it cost at most ~20 MB more. Lower costs speed on lines just
// above the threshold (the piecewise path has a per-line set-up): 17 MB of 180 KB log lines, mean of 5 runs,
// --records 0.52 s at 256 KiB or 1 MiB, 0.61 s at 64 KiB; --logs 0.82 s, 0.85 s, 0.90 s.
const DEFAULT_MAX_RECORD_BYTES = 256 * 1024;

/** Own options of RecordLinker and linkRecords, and of the two streams, besides the detector's. */
const RECORD_LINKER_OPTION_NAMES: readonly string[] = [...LOG_OPTION_NAMES, 'encoding'];
const RECORD_OPTION_NAMES: readonly string[] = [...RECORD_LINKER_OPTION_NAMES, 'maxRecordBytes'];

/** The keys of RecordLinker's methods for the record stream (symbols: not part of the API). */
const writeText = Symbol('writeText');
const lineRecord = Symbol('lineRecord');
const bomOnly = Symbol('bomOnly');

/** Turns lines (as bytes, without their line break) into LinkRecords. */
export class RecordLinker {
  private readonly linker: LogLineLinker;
  /** A legacy charset of the input, or undefined for UTF-8. */
  private readonly encoding: string | undefined;
  private lineNumber = 0;

  constructor(options?: RecordLinkerOptions) {
    checkLogOptions('RecordLinker', options, RECORD_LINKER_OPTION_NAMES);
    const { encoding, ...rest } = options ?? {};
    let logOptions: LogOptions | undefined = options === undefined ? undefined : rest;
    this.encoding = undefined;
    if (encoding !== undefined) {
      const decoder = createDecoder(encoding); // TypeError for an unknown charset
      if (!(decoder.byteMap.counting === 'utf8')) {
        if (isLineUnsafe(encoding)) {
          throw badOption('encoding', 'an ASCII-compatible charset (a line break is the byte 0x0A)', encoding);
        }
        this.encoding = encoding;
        // 3987bis §3.5: http(s) queries of a non-Unicode document are percent-encoded in its charset.
        if (decoder.documentCharset !== undefined && rest.documentCharset === undefined) {
          logOptions = { ...rest, documentCharset: decoder.documentCharset };
        }
      }
    }
    this.linker = new LogLineLinker(logOptions);
  }

  /**
   * UTF-16 length of the last line given to record(), as decoded. The record stream's machinery, left out of the
   * published types.
   * @internal
   */
  lastLineUnits = 0;

  /**
   * The number of the first line, of UTF-8 input, that held bytes not UTF-8 (read as U+FFFD; links through them are
   * flagged `invalid-utf8`), or 0: the command says so on standard error, as for a text input. Not API.
   * @internal
   */
  firstInvalidUtf8Line = 0;

  /** @internal */
  sawInvalidUtf8(line: number): void {
    if (this.firstInvalidUtf8Line === 0) this.firstInvalidUtf8Line = line;
  }

  /**
   * WHATWG Encoding §6 "decode": a byte order mark wins over the label, and FF FE or FE FF at the start of the input
   * mean UTF-16, whose lines cannot be found in its bytes (isLineUnsafe). Read as UTF-8, such a file (PowerShell 5's
   * `>`, Notepad's "Unicode") gave a record per 0x0A byte and no link in any: refused at its first line, as an
   * `encoding` of UTF-16 is. `head`: the first line's first bytes (at least two when the line has them).
   */
  private refuseUtf16(head: Uint8Array): void {
    if (this.encoding === undefined && startsWithUtf16Bom(head)) throw utf16InputError(head);
  }

  /**
   * The next line, when it is too long to hold whole: its number, and a scanner to give its bytes to (the links
   * it returns are those record() would give for the whole line, with the same offsets). The record stream's
   * machinery, left out of the published types.
   * @internal
   */
  longRecord(head: Uint8Array): { line: number; scanner: LongLineScanner } {
    if (this.lineNumber === 0) this.refuseUtf16(head);
    this.lineNumber++;
    return { line: this.lineNumber, scanner: this.linker.longLine(this.encoding, this.lineNumber === 1) };
  }

  /**
   * The record of the next line. `bytes` excludes its line break. Throws an Error when the input is read as UTF-8
   * and its first line starts with a UTF-16 byte order mark (refuseUtf16).
   */
  record(line: Uint8Array): LinkRecord {
    // isUint8Array, not instanceof: a Uint8Array from another realm (a vm context, a test runner's) is one too.
    if (!types.isUint8Array(line)) throw badArgument('RecordLinker.record', 'bytes', 'a Buffer or a Uint8Array (one line)', line);
    const bytes = Buffer.isBuffer(line) ? line : Buffer.from(line.buffer, line.byteOffset, line.byteLength);
    return this[lineRecord](bytes, 0, bytes.length, null);
  }

  /**
   * For the record stream and linkRecords (not API): is `bytes`, the whole input so far and no line yet, the UTF-8
   * byte order mark alone? Decoding drops it (WHATWG Encoding "decode"), so at the end of the input it is no line,
   * as an empty input is none (found in review: it gave one record).
   */
  [bomOnly](bytes: Uint8Array): boolean {
    return this.lineNumber === 0 && this.encoding === undefined && bytes.length === 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  }

  /**
   * For the record stream (not API): the write's text when it can stand for its lines' (given back to lineRecord):
   * UTF-8 input and every byte ASCII, so that a line's text is its bytes, one unit a byte. Otherwise null.
   */
  [writeText](data: Buffer): string | null {
    return this.encoding === undefined && isAscii(data) ? data.toString('latin1') : null;
  }

  /**
   * The record of the next line, bytes[from, to) (record() and the record stream, which gives the lines of a write
   * where they are, and `text` from writeText or null). Many short lines (log files) are cheap:
   * - a line that surely holds no link (empty, or UTF-8 bytes that view.ts isLinklessAscii clears) is counted
   *   without decoding or scanning it;
   * - a line of an ASCII write is its slice of the write's text: no copy, no decoding of its own.
   */
  [lineRecord](bytes: Buffer, from: number, to: number, text: string | null): LinkRecord {
    if (this.lineNumber === 0) this.refuseUtf16(bytes.subarray(from, to));
    const line = ++this.lineNumber;
    if (from === to || (this.encoding === undefined && isLinklessAscii(bytes, from, to))) {
      this.lastLineUnits = to - from; // ASCII: a unit a byte (an empty line is empty in every charset)
      return { line, links: [] };
    }
    if (text !== null) {
      const ascii = text.slice(from, to);
      this.lastLineUnits = ascii.length;
      const links = this.linker.links(ascii);
      return { line, links: links.length === 0 ? [] : links.map((l) => recordLink(l, l.start, l.end)) };
    }
    const lineBytes = from === 0 && to === bytes.length ? bytes : bytes.subarray(from, to);
    const out = { units: 0, invalidUtf8: false };
    const links =
      this.encoding === undefined
        ? recordLinks(this.linker, lineBytes, line === 1, out)
        : decodedRecordLinks(this.linker, lineBytes, this.encoding, line === 1, out);
    this.lastLineUnits = out.units;
    if (out.invalidUtf8) this.sawInvalidUtf8(line);
    return { line, links };
  }
}

/** What a line's decoding tells its record: its length in UTF-16 units, and whether it held bytes not UTF-8. */
interface LineFacts {
  units: number;
  invalidUtf8: boolean;
}

function recordLinks(linker: LogLineLinker, bytes: Buffer, first: boolean, out: LineFacts): RecordLink[] {
  const bom = first && bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  if (!bom && isUtf8(bytes)) {
    const line = bytes.toString('utf8');
    out.units = line.length;
    const links = linker.links(line);
    if (links.length === 0) return [];
    // UTF-8 byte offsets by one walk over the line (valid UTF-8 decodes to well-formed UTF-16).
    let pos = 0;
    let byte = 0;
    const byteAt = (target: number): number => {
      while (pos < target) {
        const c = line.charCodeAt(pos);
        if (c < 0x80) byte += 1;
        else if (c < 0x800) byte += 2;
        else if (c >= 0xd800 && c <= 0xdbff) {
          byte += 4;
          pos++;
        } else byte += 3;
        pos++;
      }
      return byte;
    };
    return links.map((l) => recordLink(l, byteAt(l.start), byteAt(l.end)));
  }
  // A BOM or invalid bytes: the stream's UTF-8 decoder (WHATWG) and its byte map give exact offsets. A BOM is
  // dropped on the input's first line only (decode.ts); on a later line U+FEFF is a character of the line.
  return decodedRecordLinks(linker, bytes, 'utf-8', first, out);
}

/** The error (`code` 'utf16-input') for UTF-8 input that starts with a UTF-16 byte order mark (`bytes`: its first bytes). */
export function utf16InputError(bytes: Uint8Array): Error & { code: 'utf16-input' } {
  const bom = bytes[0] === 0xff ? 'FF FE, UTF-16LE' : 'FE FF, UTF-16BE';
  const message =
    `irilink: the input starts with a UTF-16 byte order mark (${bom}); lines are read as bytes, which needs UTF-8 or ` +
    `another ASCII-compatible charset: convert it first (iconv -f UTF-16 -t UTF-8)`;
  return Object.assign(new Error(message), { code: 'utf16-input' as const });
}

/**
 * A charset in which the byte 0x0A can be part of a character, so that lines cannot be found in the bytes: UTF-16
 * and UTF-32 under any label the decoders take (the WHATWG Encoding Standard's `unicode`, `csunicode`,
 * `iso-10646-ucs-2`, `unicodefeff` and `unicodefffe` name UTF-16 too, iconv-lite's `ucs4` UTF-32), known by the
 * family the decoder reads them by (src/charsets.ts). UTF-7 and HZ-GB-2312 are refused by every decoder already.
 */
function isLineUnsafe(encoding: string): boolean {
  const plan = planOf(encoding);
  return plan.kind === 'legacy' && (plan.family === 'utf16' || plan.family === 'utf32');
}

/**
 * Decodes the line with the stream's decoder for `encoding` (`first`: the input's first line, see decode.ts); its
 * byte map gives each link's byte offsets.
 */
function decodedRecordLinks(linker: LogLineLinker, bytes: Buffer, encoding: string, first: boolean, facts: LineFacts): RecordLink[] {
  const decoder = new LineDecoder(encoding, first);
  const line = decoder.write(bytes) + decoder.end();
  facts.units = line.length;
  facts.invalidUtf8 = decoder.invalidUtf8;
  const links = linker.links(line);
  const out: RecordLink[] = [];
  let pos = 0;
  const annotate = (start: number, end: number): Chunk => {
    const chunk: Chunk = { type: 'text', text: line.slice(start, end), start, end };
    decoder.annotate(chunk);
    return chunk;
  };
  for (const link of links) {
    if (link.start > pos) annotate(pos, link.start);
    const chunk = annotate(link.start, link.end);
    link.diagnostics = withDecodeDiagnostics(link.diagnostics, chunk);
    out.push(recordLink(link, chunk.byteStart!, chunk.byteEnd!));
    pos = link.end;
  }
  return out;
}

/** A link as written in a record (linkRow: the link's fields in DESIGN.md's order). */
function recordLink(l: Link, byteStart: number, byteEnd: number): RecordLink {
  return linkRow({}, l, l.start, l.end, byteStart, byteEnd) as RecordLink;
}

/**
 * The record filter: bytes in (any chunking), one JSON line per input line out. See the file comment for the
 * contract. Throws a TypeError for a bad option before any data flows; fails with an Error when UTF-8 input
 * starts with a UTF-16 byte order mark (RecordLinker refuseUtf16), before writing anything.
 *
 * @example
 * process.stdin.pipe(createRecordStream()).pipe(process.stdout);
 */
export function createRecordStream(options?: RecordOptions): Transform {
  return new RecordStream(...resolveStreamOptions('createRecordStream', options), 'records', null);
}

/**
 * The log rules for a whole log, in the shape of `toJsonl(chunks, { links: true })` (the CLI's
 * `--links --format jsonl`): one JSON line per link, `line column start end byteStart byteEnd text uri iri kind
 * scheme schemeInferred diagnostics`, with `start`/`end` and `byteStart`/`byteEnd` over the whole input (UTF-16
 * units of the decoded text, as the link stream counts them; input bytes), `line` and `column` 1-based. Lines
 * without links write nothing; the links of a line longer than maxRecordBytes are written as they are found.
 *
 * @example
 * fs.createReadStream('access.log').pipe(createLogLinkStream()).pipe(process.stdout);
 */
export function createLogLinkStream(options?: RecordOptions): Transform {
  return new RecordStream(...resolveStreamOptions('createLogLinkStream', options), 'links', null);
}

/**
 * What a record stream writes: `records` (createRecordStream), `links` (createLogLinkStream's rows), or the link
 * list: one field of each link (`text`, `uri` or `iri`, as --display names it) and a LF, nothing else.
 */
export type RecordOutput = 'records' | 'links' | 'text' | 'uri' | 'iri';

/** Whether a link is written (the CLI's --schemes / --no-email choice, src/cli/filter.ts), from the fields it reads. */
export type KeepLink = (link: Pick<LinkFields, 'kind' | 'scheme' | 'schemeInferred'>) => boolean;

/**
 * For the command (not exported by src/logs/index.ts): the stream of --records (`records`), of --logs --format
 * jsonl --links (`links`) and of --logs without --format (the link list), writing only the links `keep` accepts
 * (--schemes, --no-email; null: every link) in that output directly: the output is what the JSON of `records` or
 * `links`, filtered or read back field by field, would be, without writing JSON that is parsed again. Once it has
 * ended, `firstInvalidUtf8Line` is the first line of UTF-8 input that held bytes not UTF-8, or 0.
 */
export function createCliLogStream(
  options: RecordOptions,
  output: RecordOutput,
  keep: KeepLink | null,
): Transform & { readonly firstInvalidUtf8Line: number; readonly cut: number } {
  return new RecordStream(...resolveStreamOptions('createCliLogStream', options), output, keep);
}

function resolveStreamOptions(fn: string, options: RecordOptions | undefined): [RecordLinker, number] {
  checkLogOptions(fn, options, RECORD_OPTION_NAMES);
  const { logRules, link } = splitLogOptions(options, ['maxRecordBytes', 'encoding']);
  const max = options?.maxRecordBytes === undefined ? DEFAULT_MAX_RECORD_BYTES : options.maxRecordBytes; // null is refused
  if (!Number.isInteger(max) || max < 1) throw badOption('maxRecordBytes', 'a positive integer', max);
  const linkerOptions: RecordLinkerOptions = link === undefined ? { logRules } : { ...link, logRules };
  if (options?.encoding !== undefined) linkerOptions.encoding = options.encoding;
  return [new RecordLinker(linkerOptions), max];
}

/**
 * The output line of a record without links: jsonlText({ line, links: [] }) + '\n', byte for byte (an integer
 * is written alike), at a tenth of its cost (0.06 µs against 0.7 µs a line: the cost of a short log line's record).
 */
function emptyRecord(line: number): string {
  return `{"line":${line},"links":[]}\n`;
}

/** Output is pushed in pieces of about this many UTF-16 units, so no string grows with the line or the write. */
const PUSH_UNITS = 64 * 1024;
/** A long line is given to its scanner in slices of at most this many bytes (a single huge write included). */
const LONG_SLICE = 64 * 1024;

class RecordStream extends Transform {
  private readonly linker: RecordLinker;
  private readonly max: number;
  private readonly output: RecordOutput;
  /** The links written (the rest are left out as if not found); null: all. */
  private readonly keep: KeepLink | null;
  /** The start of the current line (bytes before its LF), while it is at most `max` bytes long. */
  private pending: Buffer[] = [];
  private pendingLength = 0;
  /**
   * The current line once it is longer than `max`: scanned in pieces (src/logs/long.ts). Its record is written as
   * it goes (`{"line":n,"links":[`, each link as it is found, `]}` at the line's end); `links`: how many written.
   */
  private long: { line: number; scanner: LongLineScanner; links: number; bytes: number } | null = null;
  /** The last write ended with a CR: a LF at the start of the next one is the rest of that line break. */
  private afterCr = false;
  /** 'links': where the current line starts in the whole input (UTF-16 units, bytes). */
  private unitBase = 0;
  private byteBase = 0;
  /** Output not yet pushed (at most about PUSH_UNITS); whether it is all ASCII (put's `ascii`). */
  private unpushed = '';
  private unpushedAscii = true;

  /** Links written that were cut at the longest link (link-too-long). */
  cut = 0;

  /** The first line, of UTF-8 input, that held bytes not UTF-8, or 0 (RecordLinker firstInvalidUtf8Line). */
  get firstInvalidUtf8Line(): number {
    return this.linker.firstInvalidUtf8Line;
  }

  constructor(linker: RecordLinker, max: number, output: RecordOutput, keep: KeepLink | null) {
    super({ readableObjectMode: false, decodeStrings: true });
    this.linker = linker;
    // At least 3: a line of three bytes is held whole, so that a UTF-8 BOM alone is seen as no line (_flush) under any
    // maxRecordBytes (found in review: with 1 or 2 the BOM went to the long-line scanner and got a record).
    this.max = Math.max(max, 3);
    this.output = output;
    this.keep = keep;
  }

  override _transform(data: Buffer, encoding: BufferEncoding, callback: TransformCallback): void {
    workLater(this, this.work, data, encoding, callback);
  }

  /** One write, in a later turn of the event loop (src/stream/later.ts: a piped file source reads on meanwhile). */
  private work(data: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    try {
      let from = 0;
      // The LF of a CR LF split between two writes: the CR already ended the line.
      if (this.afterCr && data.length > 0 && data[0] === LF) {
        from = 1;
        this.unitBase++;
        this.byteBase++;
      }
      if (data.length > 0) this.afterCr = false;
      const breaks = new LineBreakFinder(data);
      let text: string | null | undefined; // the write's text (RecordLinker writeText), made at its first whole line
      for (;;) {
        const at = breaks.next(from);
        if (at < 0) break;
        const length = breaks.length(at);
        if (this.pendingLength !== 0 || this.long !== null) {
          this.add(data.subarray(from, at));
          this.emitLine(length);
        } else {
          // A whole line inside this write: read where it is (nothing waits for a later write, so no copy).
          if (text === undefined) text = this.linker[writeText](data);
          this.emitWhole(data, from, at, length, text);
        }
        from = at + length;
        // A lone CR as the write's last byte: its LF may start the next write (a whole CR LF has length 2).
        if (from === data.length && length === 1 && data[at] === CR) this.afterCr = true;
      }
      if (from < data.length) this.add(data.subarray(from));
    } catch (error) {
      this.unpushed = '';
      callback(error as Error);
      return;
    }
    // Every complete line is answered now: a record filter must not wait for more input.
    this.flushOut();
    callback();
  }

  override _flush(callback: TransformCallback): void {
    try {
      if (this.long !== null) this.emitLine(0);
      // (Only three bytes can be a BOM alone: a longer last line is not joined twice.)
      else if (this.pendingLength > 0 && !(this.pendingLength === 3 && this.linker[bomOnly](Buffer.concat(this.pending, 3)))) this.emitLine(0);
    } catch (error) {
      this.unpushed = '';
      callback(error as Error);
      return;
    }
    this.flushOut();
    callback();
  }

  /** Appends output; pushes it once a piece is large enough. */
  private put(s: string, ascii = false): void {
    this.unpushed = this.unpushed.length === 0 ? s : this.unpushed + s;
    if (!ascii) this.unpushedAscii = false;
    if (this.unpushed.length >= PUSH_UNITS) this.flushOut();
  }

  private flushOut(): void {
    if (this.unpushed.length === 0) return;
    const out = this.unpushed;
    this.unpushed = '';
    // ASCII text's UTF-8 bytes are its Latin-1 bytes, which Buffer writes at a third of the cost (the records of
    // many short lines: 110 MB of them for 4 MB of empty lines).
    this.push(this.unpushedAscii ? Buffer.from(out, 'latin1') : out);
    this.unpushedAscii = true;
  }

  /** Adds bytes of the current line. */
  private add(piece: Buffer): void {
    if (this.long === null) {
      if (this.pendingLength + piece.length <= this.max) {
        if (piece.length === 0) return;
        // Copied: the record may wait for later writes, and must not pin the whole input chunk.
        this.pending.push(Buffer.from(piece));
        this.pendingLength += piece.length;
        return;
      }
      // Too long to hold: from here on the line is scanned in pieces, starting with what is pending.
      const first = this.pending.length === 0 ? piece : this.pending[0]!.length >= 2 ? this.pending[0]! : Buffer.concat([...this.pending, piece]);
      const { line, scanner } = this.linker.longRecord(first);
      this.long = { line, scanner, links: 0, bytes: 0 };
      // The record's head now, its links as they are found: the same bytes jsonlText gives for the whole record
      // ({ line, links } in that order, see emitLine; jsonlText's escaping maps each character by itself), never
      // held whole.
      if (this.output === 'records') this.put(`{"line":${line},"links":[`);
      const start = this.pending;
      this.pending = [];
      this.pendingLength = 0;
      for (const bytes of start) this.feedLong(bytes);
    }
    this.feedLong(piece);
  }

  /** Gives bytes of the current line to the long line's scanner, a slice at a time. */
  private feedLong(bytes: Buffer): void {
    const long = this.long!;
    for (let i = 0; i < bytes.length; i += LONG_SLICE) {
      const slice = i === 0 && bytes.length <= LONG_SLICE ? bytes : bytes.subarray(i, i + LONG_SLICE);
      long.bytes += slice.length;
      this.found(long.scanner.write(slice));
    }
  }

  /** The links a long line's scanner gives, written at once: into its record, as rows, or as the link list. */
  private found(links: LongLineLink[]): void {
    const long = this.long!;
    for (const { link, byteStart, byteEnd } of links) {
      if (this.keep !== null && !this.keep(link)) continue;
      const l = recordLink(link, byteStart, byteEnd);
      if (this.output === 'records') this.put((long.links++ === 0 ? '' : ',') + jsonlText(l));
      else this.put(this.row(l, long.line));
      if (l.diagnostics.includes('link-too-long')) this.cut++;
    }
  }

  /**
   * A link as a row of the 'links' output: `line` and `column`, then the link's fields (offsets over the whole
   * input); of the link list, its field.
   */
  private row(l: RecordLink, line: number): string {
    const output = this.output;
    if (output === 'text' || output === 'uri' || output === 'iri') return l[output] + '\n';
    const row: JsonlLink = linkRow(
      { line, column: l.start + 1 },
      l,
      this.unitBase + l.start,
      this.unitBase + l.end,
      this.byteBase + l.byteStart,
      this.byteBase + l.byteEnd,
    );
    return jsonlText(row) + '\n';
  }

  /** Writes the output for the current line; `terminator`: the bytes of the line break that ended it (0 at the end). */
  private emitLine(terminator: number): void {
    if (this.long !== null) {
      const long = this.long;
      this.found(long.scanner.end());
      if (long.scanner.invalidUtf8) this.linker.sawInvalidUtf8(long.line);
      if (this.output === 'records') this.put(']}\n');
      this.long = null;
      this.advanceBases(long.scanner.units, long.bytes, terminator);
      return;
    }
    const line = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending, this.pendingLength);
    this.pending = [];
    this.pendingLength = 0;
    this.emitRecord(this.linker.record(line), line.length, terminator);
  }

  /**
   * Writes the output for the whole line data[from, to), none of it pending; `terminator` as for emitLine, `text`
   * the write's (RecordLinker writeText).
   */
  private emitWhole(data: Buffer, from: number, to: number, terminator: number, text: string | null): void {
    if (to - from > this.max) {
      this.add(data.subarray(from, to)); // scanned in pieces (src/logs/long.ts)
      this.emitLine(terminator);
    } else {
      this.emitRecord(this.linker[lineRecord](data, from, to, text), to - from, terminator);
    }
  }

  /** Writes one held line's record (`bytes` long, `terminator` as for emitLine). */
  private emitRecord(record: LinkRecord, bytes: number, terminator: number): void {
    if (this.keep !== null && record.links.length !== 0) record.links = record.links.filter(this.keep);
    if (this.output !== 'records') {
      for (const l of record.links) {
        this.put(this.row(l, record.line));
        if (l.diagnostics.includes('link-too-long')) this.cut++;
      }
    }
    else if (record.links.length === 0) this.put(emptyRecord(record.line), true);
    else this.put(jsonlText(record) + '\n');
    this.advanceBases(this.linker.lastLineUnits, bytes, terminator);
  }

  /** Moves the 'links' offsets past a line of `units` UTF-16 units and `bytes` bytes and its line break. */
  private advanceBases(units: number, bytes: number, terminator: number): void {
    // A line break is one UTF-16 unit per byte (CR, LF) in every charset a record stream accepts.
    this.unitBase += units + terminator;
    this.byteBase += bytes + terminator;
  }
}

/** The records of a whole text (lines split as the stream splits them), for tests and small inputs. */
export function linkRecords(input: string | Uint8Array, options?: RecordLinkerOptions): LinkRecord[] {
  if (typeof input !== 'string' && !types.isUint8Array(input)) { // another realm's Uint8Array too
    throw badArgument('linkRecords', 'input', 'a string or a Uint8Array', input);
  }
  checkLogOptions('linkRecords', options, RECORD_LINKER_OPTION_NAMES);
  const bytes = typeof input === 'string' ? Buffer.from(input, 'utf8') : Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  const linker = new RecordLinker(options);
  const out: LinkRecord[] = [];
  const breaks = new LineBreakFinder(bytes);
  let from = 0;
  if (linker[bomOnly](bytes)) return out;
  while (from < bytes.length) {
    const at = breaks.next(from);
    const end = at < 0 ? bytes.length : at;
    out.push(linker.record(bytes.subarray(from, end)));
    from = at < 0 ? bytes.length : at + breaks.length(at);
  }
  return out;
}
