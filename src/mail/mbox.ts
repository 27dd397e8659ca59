// Splitting an mbox into messages, one at a time (RFC 4155 "The application/mbox Media Type").
//
// A message starts at a "From_" line: `From ` at the start of a line that begins the input or follows an
// empty line. The From_ line is the envelope, not part of the message; the empty line before the next
// From_ line is the separator, not part of the message either.
//
// Deviation (RFC 4155 §2): RFC 4155 allows any line starting with `From ` to begin a message. We also require
// the empty line before it (every mbox writer puts one there), so an unquoted `From ` line inside a body
// written by a careless mboxo writer does not cut a message in two; and, unless the caller says `mbox: true`, the
// timestamp RFC 4155 puts after the sender, known by its weekday (UNIX asctime: `From alice@example.org Mon Nov 23
// 11:17:00 2026`; writers vary the rest: `From - Sat Jan 01 …`, `From bob at example.org  Thu …`), so that neither
// such a line nor text piped to `irilink --mail` that starts `From now on, see https://…` is taken for an envelope
// (its first line was lost).
//
// Quoting: we read the mbox as mboxrd. Lines matching `>+From ` lose one `>` (mboxrd quotes by adding one `>`
// to any line that matches `>*From `). An mboxo writer only quoted `From ` itself, so for an mboxo file a
// line that really began `>From ` loses its `>` too — a cosmetic change in a quoted line, never inside a link
// (a link cannot start with `From `, and a line start is never inside one unless it is an RFC 3986 Appendix C
// wrapped link, which continues after whitespace, not after `>`).
//
// Memory: only the message being read is held (its lines), plus one incomplete line of input.
import { badArgument, badOption, isOptionsObject, unknownOption } from '../errors.js';
import { types } from 'node:util';

/** One message of an mbox (or the whole input when it is not an mbox). */
export interface MboxMessage {
  /** 0-based position of the message in the input. */
  index: number;
  /** The From_ line without `From ` and the line break (`sender date`), undefined for a lone message. */
  envelope: string | undefined;
  /** The RFC 5322 message, un-quoted (mboxrd). */
  raw: Buffer;
}

export interface SplitMboxOptions {
  /**
   * `true`: the input is an mbox; `false`: the input is one RFC 5322 message; `'auto'` (default): an mbox when
   * its first line is a From_ line.
   */
  mbox?: boolean | 'auto';
}

const LF = 0x0a;
const CR = 0x0d;
const GT = 0x3e;
const FROM_ = Buffer.from('From ', 'latin1');

function startsWithFrom(line: Buffer, at: number): boolean {
  if (line.length - at < 5) return false;
  for (let i = 0; i < 5; i++) if (line[at + i] !== FROM_[i]) return false;
  return true;
}

const WEEKDAY = /[ \t](?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)(?:[ \t\r\n]|$)/;

/** A From_ line (RFC 4155 §2): `From `, the sender and a timestamp that starts with its weekday (see above). */
export function isFromLine(line: Buffer): boolean {
  return startsWithFrom(line, 0) && WEEKDAY.test(line.toString('latin1', 4, Math.min(line.length, 512)));
}

/** The line starts with the UTF-8 byte order mark, EF BB BF. */
export function hasBom(line: Buffer): boolean {
  return line.length >= 3 && line[0] === 0xef && line[1] === 0xbb && line[2] === 0xbf;
}

/** An empty line: nothing but an optional CR before its LF. */
function isEmptyLine(line: Buffer): boolean {
  return line.length === 0 || (line.length === 1 && (line[0] === LF || line[0] === CR)) || (line.length === 2 && line[0] === CR && line[1] === LF);
}

/** mboxrd: `>+From ` → one `>` fewer; other lines unchanged (the same Buffer). */
function unquote(line: Buffer): Buffer {
  if (line[0] !== GT) return line;
  let i = 1;
  while (i < line.length && line[i] === GT) i++;
  return startsWithFrom(line, i) ? line.subarray(1) : line;
}

function envelopeOf(line: Buffer): string {
  let end = line.length;
  while (end > 5 && (line[end - 1] === LF || line[end - 1] === CR)) end--;
  return line.toString('latin1', 5, end);
}

/**
 * The messages of an mbox (or the one message of a plain RFC 5322 input), read from byte chunks, yielded one
 * at a time: memory holds the current message only.
 */
export async function* splitMbox(
  input: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string> | Uint8Array | string,
  options: SplitMboxOptions = {},
): AsyncGenerator<MboxMessage> {
  const iterable = (x: object): boolean => Symbol.asyncIterator in x || Symbol.iterator in x;
  // A whole mbox in one Buffer or string, as linkifyMail takes it (a Buffer is an iterable too, of numbers).
  if (typeof input === 'string' || types.isUint8Array(input)) input = [input];
  if (input === null || typeof input !== 'object' || !iterable(input)) {
    throw badArgument('splitMbox', 'input', 'a Buffer, a string, a Readable or an (async) iterable of Buffers', input);
  }
  if (!isOptionsObject(options)) {
    throw badArgument('splitMbox', 'options', 'an object or undefined', options);
  }
  for (const key of Object.keys(options)) if (key !== 'mbox') throw unknownOption(key, ['mbox']);
  const mode = options.mbox === undefined ? 'auto' : options.mbox; // not `??`: null is refused
  // The message linkifyMail and runMail give for the same option.
  if (mode !== true && mode !== false && mode !== 'auto') throw badOption('mbox', 'true, false or "auto"', mode);

  let isMbox: boolean | undefined = mode === 'auto' ? undefined : mode;
  let lines: Buffer[] = [];
  let envelope: string | undefined;
  let index = 0;
  let started = false; // a message (or the lone message) is being collected
  let previousEmpty = true; // the line before the current one was empty (true at the start)
  // The pieces (copies) of an incomplete last line, joined once when its LF comes: joined at every piece, a line
  // without LF over many pieces (a one-line HTML part, unwrapped base64) was copied again and again (40 MB: 19 s).
  let partial: Buffer[] = [];
  let first = true; // the next line is the input's first

  const finish = (): MboxMessage => {
    // The empty line before a From_ line separates messages (RFC 4155 §2); it is not part of the message.
    if (isMbox && lines.length > 0 && isEmptyLine(lines[lines.length - 1]!)) lines.pop();
    const message: MboxMessage = { index: index++, envelope, raw: Buffer.concat(lines) };
    lines = [];
    return message;
  };

  // One complete line (with its LF, or the last line without one). Returns a finished message or undefined.
  const takeLine = (line: Buffer): MboxMessage | undefined => {
    let done: MboxMessage | undefined;
    if (first) {
      // A UTF-8 byte order mark before the first line (a file saved by an editor that writes one) is no part of it:
      // it hid the From_ line, and the mbox was read as one message. (WHATWG Encoding §6, decode, drops it so.)
      first = false;
      if (hasBom(line)) line = line.subarray(3);
    }
    if (isMbox === undefined) isMbox = isFromLine(line);
    // `mbox: true` says the input is an mbox: there any `From ` line after an empty line starts a message (RFC 4155
    // §2 as written, for writers that leave the timestamp out).
    if (isMbox && previousEmpty && (mode === true ? startsWithFrom(line, 0) : isFromLine(line))) {
      if (started) done = finish();
      envelope = envelopeOf(line);
      started = true;
    } else {
      started = true;
      lines.push(isMbox ? unquote(line) : line);
    }
    previousEmpty = isEmptyLine(line);
    return done;
  };

  for await (const piece of input as AsyncIterable<Uint8Array | string>) {
    if (typeof piece !== 'string' && !types.isUint8Array(piece)) { // another realm's Uint8Array too
      throw badArgument('splitMbox', 'each piece of input', 'a Buffer, a Uint8Array or a string', piece);
    }
    const buf: Buffer = typeof piece === 'string' ? Buffer.from(piece, 'utf8') : Buffer.isBuffer(piece) ? piece : Buffer.from(piece);
    let from = 0;
    if (partial.length > 0) {
      const nl = buf.indexOf(LF);
      if (nl < 0) {
        partial.push(Buffer.from(buf));
        continue;
      }
      partial.push(buf.subarray(0, nl + 1));
      const line = Buffer.concat(partial);
      partial = [];
      const message = takeLine(line);
      if (message !== undefined) yield message;
      from = nl + 1;
    }
    for (;;) {
      const nl = buf.indexOf(LF, from);
      if (nl < 0) break;
      // A view into the input chunk: a message pins at most the chunks it spans, until it is yielded.
      const message = takeLine(buf.subarray(from, nl + 1));
      if (message !== undefined) yield message;
      from = nl + 1;
    }
    if (from < buf.length) partial.push(Buffer.from(buf.subarray(from)));
  }
  if (partial.length > 0) {
    const message = takeLine(Buffer.concat(partial));
    if (message !== undefined) yield message;
  }
  if (started && (lines.length > 0 || isMbox)) yield finish();
}
