// Record mode: each input line is one record, each output line one JSON object (JSON Lines, RFC 8259 + LF):
//
//   {"line":1,"links":[{"start":4,"end":23,"byteStart":4,"byteEnd":23,"text":"https://example.com","uri":…}]}
//   {"line":2,"links":[]}
//
// so irilink can run as a filter wherever an engine pipes records through a command (Spark's RDD.pipe, Hadoop
// Streaming, `parallel --pipe`). The contract a record filter needs:
// - exactly one output line per input line, in order, also for lines without links (`"links":[]`) and empty
//   lines; a last line without a line break is a record too; the input's final LF does not start one;
// - each record is answered as soon as its line break has arrived (nothing waits for the end of the input);
// - a line is split on LF; a CR before the LF (CRLF) is not part of the record;
// - offsets are relative to the record: `start`/`end` in UTF-16 code units of the decoded line, `byteStart`/
//   `byteEnd` in bytes of the line as it came in (UTF-8; a BOM on line 1 counts), so a tool can cut the link
//   out of the raw record without decoding it;
// - input is UTF-8 unless `encoding` names another charset (each line decoded by itself with the stream's
//   decoders, NFC for legacy charsets, 3987bis §3.5 document charset for http queries; a charset whose bytes
//   can hold 0x0A inside a character, such as UTF-16, cannot be split into lines and is refused); invalid bytes
//   become U+FFFD (with an `invalid-utf8` diagnostic on a UTF-8 link that holds one) and the byte offsets still
//   count the input bytes;
// - memory: one line at a time. A line longer than `maxRecordBytes` is scanned up to that length and marked
//   `"truncated":true`; the rest of it is skipped.
//
// createLogLinkStream is the same machinery writing one object per link in the shape of the CLI's
// `--links --format jsonl` (offsets over the whole input), for logs read with the log rules.
import { Buffer, isUtf8 } from 'node:buffer';
import { Transform } from 'node:stream';
import type { TransformCallback } from 'node:stream';
import { badOption } from '../errors.js';
import { createDecoder } from '../stream/decode.js';
import { workLater } from '../stream/later.js';
import type { JsonlLink } from '../render/index.js';
import type { Chunk, Link } from '../types.js';
import { LogLineLinker, splitLogOptions } from './lines.js';
import type { LogOptions } from './lines.js';

/** Options of RecordLinker and linkRecords: the log options plus the input charset. */
export interface RecordLinkerOptions extends LogOptions {
  /** Charset of the input lines: 'utf-8' (default) or a charset the stream knows (shift_jis, euc-jp, …). */
  encoding?: string;
}

export interface RecordOptions extends RecordLinkerOptions {
  /** The longest line scanned, in bytes (default 8 MiB); the rest of a longer line is skipped. */
  maxRecordBytes?: number;
}

/** A link as written in a record. */
export interface RecordLink {
  start: number;
  end: number;
  byteStart: number;
  byteEnd: number;
  text: string;
  uri: string;
  iri: string;
  kind: string;
  scheme: string;
  schemeInferred: boolean;
  diagnostics: string[];
}

/** One output line. */
export interface LinkRecord {
  /** 1-based line number in the input. */
  line: number;
  links: RecordLink[];
  /** Present (true) when the line was longer than maxRecordBytes. */
  truncated?: true;
}

const LF = 0x0a;
const CR = 0x0d;
const DEFAULT_MAX_RECORD_BYTES = 8 * 1024 * 1024;

/** Turns lines (as bytes, without their line break) into LinkRecords. */
export class RecordLinker {
  private readonly linker: LogLineLinker;
  /** A legacy charset of the input, or undefined for UTF-8. */
  private readonly encoding: string | undefined;
  private lineNumber = 0;

  constructor(options?: RecordLinkerOptions) {
    const { encoding, ...rest } = options ?? {};
    let logOptions: LogOptions | undefined = options === undefined ? undefined : rest;
    this.encoding = undefined;
    if (encoding !== undefined) {
      const decoder = createDecoder(encoding); // TypeError for an unknown charset
      if (!(decoder.byteMap.counting === 'utf8')) {
        if (LINE_UNSAFE.has(encoding.toLowerCase().replace(/[^a-z0-9]/g, ''))) {
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

  /** UTF-16 length of the last line given to record(), as decoded. */
  lastLineUnits = 0;

  /** The record of the next line. `bytes` excludes the LF (and the CR of a CRLF). */
  record(bytes: Buffer, truncated = false): LinkRecord {
    this.lineNumber++;
    const out = { units: 0 };
    const links =
      this.encoding === undefined
        ? recordLinks(this.linker, bytes, this.lineNumber === 1, out)
        : decodedRecordLinks(this.linker, bytes, this.encoding, out);
    this.lastLineUnits = out.units;
    const record: LinkRecord = { line: this.lineNumber, links };
    if (truncated) record.truncated = true;
    return record;
  }
}

function recordLinks(linker: LogLineLinker, bytes: Buffer, first: boolean, out: { units: number }): RecordLink[] {
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
  // A BOM or invalid bytes: the stream's UTF-8 decoder (WHATWG) and its byte map give exact offsets.
  return decodedRecordLinks(linker, bytes, 'utf-8', out);
}

// Charsets in which the byte 0x0A can be part of a character (so lines cannot be found in the bytes).
const LINE_UNSAFE = new Set(['utf16', 'utf16le', 'utf16be', 'ucs2', 'utf32', 'utf32le', 'utf32be', 'utf7', 'hz', 'hzgb2312']);

/** Decodes the line with the stream's decoder for `encoding`; its byte map gives each link's byte offsets. */
function decodedRecordLinks(linker: LogLineLinker, bytes: Buffer, encoding: string, units: { units: number }): RecordLink[] {
  const decoder = createDecoder(encoding);
  const line = decoder.write(bytes) + decoder.end();
  units.units = line.length;
  const links = linker.links(line);
  const out: RecordLink[] = [];
  let pos = 0;
  const annotate = (start: number, end: number): Chunk => {
    const chunk: Chunk = { type: 'text', text: line.slice(start, end), start, end };
    decoder.byteMap.annotate(chunk);
    return chunk;
  };
  for (const link of links) {
    if (link.start > pos) annotate(pos, link.start);
    const chunk = annotate(link.start, link.end);
    if (chunk.diagnostics?.includes('invalid-utf8') && !link.diagnostics.includes('invalid-utf8')) link.diagnostics.push('invalid-utf8');
    out.push(recordLink(link, chunk.byteStart!, chunk.byteEnd!));
    pos = link.end;
  }
  return out;
}

function recordLink(l: Link, byteStart: number, byteEnd: number): RecordLink {
  return {
    start: l.start,
    end: l.end,
    byteStart,
    byteEnd,
    text: l.text,
    uri: l.uri,
    iri: l.iri,
    kind: l.kind,
    scheme: l.scheme,
    schemeInferred: l.schemeInferred,
    diagnostics: l.diagnostics,
  };
}

/**
 * The record filter: bytes in (any chunking), one JSON line per input line out. See the file comment for the
 * contract. Throws a TypeError for a bad option before any data flows.
 *
 * @example
 * process.stdin.pipe(createRecordStream()).pipe(process.stdout);
 */
export function createRecordStream(options?: RecordOptions): Transform {
  return new RecordStream(...resolveStreamOptions(options), 'records');
}

/**
 * The log rules for a whole log, in the shape of `toJsonl(chunks, { links: true })` (the CLI's
 * `--links --format jsonl`): one JSON line per link, `start end byteStart byteEnd line column text uri iri kind
 * scheme schemeInferred diagnostics`, with `start`/`end` and `byteStart`/`byteEnd` over the whole input (UTF-16
 * units of the decoded text, as the link stream counts them; input bytes), `line` and `column` 1-based. Lines
 * without links write nothing. After a line longer than maxRecordBytes the UTF-16 offsets count the skipped
 * bytes as UTF-8 (the byte offsets stay exact).
 *
 * @example
 * fs.createReadStream('access.log').pipe(createLogLinkStream()).pipe(process.stdout);
 */
export function createLogLinkStream(options?: RecordOptions): Transform {
  return new RecordStream(...resolveStreamOptions(options), 'links');
}

function resolveStreamOptions(options: RecordOptions | undefined): [RecordLinker, number] {
  const { logRules, link } = splitLogOptions(options, ['maxRecordBytes', 'encoding']);
  const max = options?.maxRecordBytes ?? DEFAULT_MAX_RECORD_BYTES;
  if (!Number.isInteger(max) || max < 1) throw badOption('maxRecordBytes', 'a positive integer', max);
  const linkerOptions: RecordLinkerOptions = link === undefined ? { logRules } : { ...link, logRules };
  if (options?.encoding !== undefined) linkerOptions.encoding = options.encoding;
  return [new RecordLinker(linkerOptions), max];
}

/** UTF-16 units that valid UTF-8 bytes decode to: one per lead byte, two for a four-byte sequence. */
function utf8Units(bytes: Buffer): number {
  let units = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b < 0x80 || b >= 0xc0) units += b >= 0xf0 ? 2 : 1;
  }
  return units;
}

class RecordStream extends Transform {
  private readonly linker: RecordLinker;
  private readonly max: number;
  private readonly output: 'records' | 'links';
  /** The start of the current line (bytes before its LF), at most `max` bytes of it. */
  private pending: Buffer[] = [];
  private pendingLength = 0;
  private truncated = false;
  /** Bytes of the current line past `max`, and the UTF-16 units they stand for (as UTF-8). */
  private skippedBytes = 0;
  private skippedUnits = 0;
  /** 'links': where the current line starts in the whole input (UTF-16 units, bytes). */
  private unitBase = 0;
  private byteBase = 0;

  constructor(linker: RecordLinker, max: number, output: 'records' | 'links') {
    super({ readableObjectMode: false, decodeStrings: true });
    this.linker = linker;
    this.max = max;
    this.output = output;
  }

  override _transform(data: Buffer, encoding: BufferEncoding, callback: TransformCallback): void {
    workLater(this, this.work, data, encoding, callback);
  }

  /** One write, in a later turn of the event loop (src/stream/later.ts: a piped file source reads on meanwhile). */
  private work(data: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    let out = '';
    try {
      let from = 0;
      for (;;) {
        const nl = data.indexOf(LF, from);
        if (nl < 0) break;
        this.add(data.subarray(from, nl));
        out += this.emitLine(true);
        from = nl + 1;
      }
      if (from < data.length) this.add(data.subarray(from));
    } catch (error) {
      callback(error as Error);
      return;
    }
    // Every complete line is answered now: a record filter must not wait for more input.
    if (out !== '') this.push(out);
    callback();
  }

  override _flush(callback: TransformCallback): void {
    try {
      if (this.pendingLength > 0 || this.truncated) {
        const out = this.emitLine(false);
        if (out !== '') this.push(out);
      }
    } catch (error) {
      callback(error as Error);
      return;
    }
    callback();
  }

  private add(piece: Buffer): void {
    const room = this.max - this.pendingLength;
    if (piece.length > room) {
      this.truncated = true;
      const skipped = piece.subarray(room);
      this.skippedBytes += skipped.length;
      if (this.output === 'links') this.skippedUnits += utf8Units(skipped);
      piece = piece.subarray(0, room);
    }
    if (piece.length === 0) return;
    // Copied: the record may wait for later writes, and must not pin the whole input chunk.
    this.pending.push(Buffer.from(piece));
    this.pendingLength += piece.length;
  }

  /** The output for the pending line; `lf`: it ended with a LF (so a CR before it is a CRLF). */
  private emitLine(lf: boolean): string {
    let line = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending, this.pendingLength);
    const crlf = lf && !this.truncated && line.length > 0 && line[line.length - 1] === CR;
    if (crlf) line = line.subarray(0, line.length - 1);
    const record = this.linker.record(line, this.truncated);
    let out: string;
    if (this.output === 'records') {
      out = JSON.stringify(record) + '\n';
    } else {
      out = '';
      for (const l of record.links) {
        const row: JsonlLink = {
          start: this.unitBase + l.start,
          end: this.unitBase + l.end,
          byteStart: this.byteBase + l.byteStart,
          byteEnd: this.byteBase + l.byteEnd,
          line: record.line,
          column: l.start + 1,
          text: l.text,
          uri: l.uri,
          iri: l.iri,
          kind: l.kind,
          scheme: l.scheme,
          schemeInferred: l.schemeInferred,
          diagnostics: l.diagnostics,
        };
        out += JSON.stringify(row) + '\n';
      }
      const terminator = (crlf ? 1 : 0) + (lf ? 1 : 0);
      this.unitBase += this.linker.lastLineUnits + this.skippedUnits + terminator;
      this.byteBase += line.length + this.skippedBytes + terminator;
    }
    this.pending = [];
    this.pendingLength = 0;
    this.truncated = false;
    this.skippedBytes = 0;
    this.skippedUnits = 0;
    return out;
  }
}

/** The records of a whole text (lines split on LF, CR before LF dropped), for tests and small inputs. */
export function linkRecords(input: string | Uint8Array, options?: RecordLinkerOptions): LinkRecord[] {
  const bytes = typeof input === 'string' ? Buffer.from(input, 'utf8') : Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  const linker = new RecordLinker(options);
  const out: LinkRecord[] = [];
  let from = 0;
  while (from < bytes.length) {
    let nl = bytes.indexOf(LF, from);
    const next = nl < 0 ? bytes.length : nl + 1;
    if (nl < 0) nl = bytes.length;
    let end = nl;
    if (end > from && bytes[end - 1] === CR && nl < bytes.length) end--;
    out.push(linker.record(bytes.subarray(from, end)));
    from = next;
  }
  return out;
}
