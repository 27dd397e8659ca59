// One RFC 5322 message → its text parts, each decoded the way a mail reader shows it and linkified.
//
//   raw message ─ mailsplit (RFC 2045/2046 MIME tree, transfer decoding) ─ leaf text parts
//     ─ charset (the stream's decoder: iconv-lite / WHATWG ISO-2022-JP, NFC for legacy charsets)
//     ─ CRLF → LF ─ format=flowed (RFC 3676) ─ quote prefixes masked ─ detector ─ chunks
//
// The MIME layer is @zone-eu/mailsplit, the splitter mailparser is built on. mailparser itself merges every
// text part into one string and decodes format=flowed before the charset, so the per-part charset (needed for
// 3987bis §3.5) and the part boundaries would be lost; we use its splitter and do the text steps here.
import { isAscii, isUtf8 } from 'node:buffer';
import type { MimeNode } from '@zone-eu/mailsplit';
import { appendChunks, createScanner, EmbeddingTracker, linkChunk, textChunk } from '../detect/index.js';
import { checkOptionNames, checkOptionsArgument } from '../detect/options.js';
import { badArgument, badOption, isOptionsObject } from '../errors.js';
import type { LinkOptions } from '../detect/index.js';
import { createDecoder, singleByteCharset } from '../stream/decode.js';
import type { Decoder } from '../stream/decode.js';
import type { Chunk, DiagnosticCode, Link } from '../types.js';
import { maskQuotePrefixes, unflow } from './flowed.js';
import { hasBom, isFromLine } from './mbox.js';
import { types } from 'node:util';

/** One linkified text part of a message. */
export interface MailPart {
  /** IMAP-style part number (RFC 3501 §6.4.5): `1` for a single-part message, `1.2` … inside multiparts. */
  part: string;
  /** Lower-case media type, e.g. `text/plain`. */
  contentType: string;
  /** The charset the part was decoded with (lower case; see charsetDecoder for undeclared and unknown ones). */
  charset: string;
  /** The charset parameter as declared, when there was one. */
  declaredCharset: string | undefined;
  /** The part was format=flowed (RFC 3676) and has been unflowed. */
  flowed: boolean;
  /**
   * The text that was scanned: charset-decoded, line ends normalised to LF, format=flowed decoded. Link and
   * chunk offsets (`start`, `end`) are UTF-16 offsets into this string.
   */
  text: string;
  /** Text and link chunks covering `text` exactly. */
  chunks: Chunk[];
  links: Link[];
}

/** One message with its linkified text parts. */
export interface MailMessage {
  /** 0-based position in the input (mbox order). */
  index: number;
  /** The mbox From_ line after `From ` (sender and date), when the input was an mbox. */
  envelope: string | undefined;
  /** The Message-ID header as written (with its `<>`), when present. */
  messageId: string | undefined;
  /** The Subject header, RFC 2047 encoded words decoded. */
  subject: string | undefined;
  /** The From header, RFC 2047 encoded words decoded. */
  from: string | undefined;
  /** The Date header as written. */
  date: string | undefined;
  parts: MailPart[];
  /**
   * Set when the message could not be read or one of its text parts could not be linkified; absent otherwise.
   * Failure is a value: linkifyMessage does not throw for malformed mail, and linkifyMail goes on with the next
   * message. With a MIME error (`header-too-large`, `too-many-parts`, `malformed`) `parts` is empty; with
   * `part-failed` it holds the parts that were linkified.
   */
  error?: MailError;
}

/**
 * Why a message was not (fully) linkified:
 * - `header-too-large`: a header block (of the message or of a MIME part) is over 1 MiB;
 * - `too-many-parts`: the message has 1000 MIME parts or more below its top (nested or not);
 * - `malformed`: the MIME parser gave up for another reason;
 * - `part-failed`: a text part could not be decoded or linkified (e.g. a part too large for a JavaScript string).
 */
export type MailErrorCode = 'header-too-large' | 'too-many-parts' | 'malformed' | 'part-failed';

export interface MailError {
  code: MailErrorCode;
  /** What went wrong, in words (the parser's message for `malformed`). */
  message: string;
  /** The part (MailPart.part numbering) for `part-failed`. */
  part?: string;
}

/**
 * The limits of the MIME parser (@zone-eu/mailsplit's MAX_HEAD_SIZE and MAX_CHILD_NODES): the bytes of one header
 * block (the message's or a part's, with its line breaks), and the MIME parts below the message's top, counting
 * multiparts and leaves at any depth.
 */
export const MAIL_LIMITS: Readonly<{ headerBytes: number; parts: number }> = Object.freeze({ headerBytes: 1024 * 1024, parts: 999 });

/** Options of the mail functions: the detector's, plus which HTML parts to scan. */
export interface MailOptions extends LinkOptions {
  /**
   * Which text/html parts are scanned, as source text: `'alternative'` (default) — only when no text/plain
   * alternative exists (multipart/alternative, RFC 2046 §5.1.4: the parts are the same content); `'all'`; `'none'`.
   * Another text part with a text/plain alternative (text/x-amp-html, text/calendar…) is scanned with `'all'` only.
   */
  html?: 'alternative' | 'all' | 'none';
}

/**
 * Splits MailOptions into the detector's options and the mail ones. `own`: the names `fn` takes besides the detector's
 * (linkifyMessage: `html`; linkifyMail also `mbox`): any other name is checked as a detector option, so an unknown one
 * is a TypeError.
 */
// `link` is undefined when no detector option is given, so the detector's resolved defaults are shared.
export function splitMailOptions(
  fn: string,
  options: object,
  own: readonly string[] = ['html'],
): { link: LinkOptions | undefined; html: 'alternative' | 'all' | 'none' } {
  if (!isOptionsObject(options)) {
    throw badArgument(fn, 'options', 'an object or undefined', options);
  }
  checkOptionNames(options, own);
  const link: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(options)) if (!own.includes(key)) link[key] = value;
  const given = (options as MailOptions).html;
  const html = given === undefined ? 'alternative' : given; // not `??`: null is refused
  if (html !== 'alternative' && html !== 'all' && html !== 'none') {
    throw badOption('html', '"alternative", "all" or "none"', html);
  }
  return { link: Object.keys(link).length === 0 ? undefined : (link as LinkOptions), html };
}

// The MIME packages are loaded on first use: importing irilink (or the CLI without --mail) does not pay for them
// (libmime loads its charset tables, ~0.1 s).
let mime: Promise<{ Splitter: typeof import('@zone-eu/mailsplit').Splitter; decodeWords: (s: string) => string }> | undefined;
function loadMime(): Promise<{ Splitter: typeof import('@zone-eu/mailsplit').Splitter; decodeWords: (s: string) => string }> {
  mime ??= Promise.all([import('@zone-eu/mailsplit'), import('libmime')]).then(([mailsplit, libmime]) => {
    const lib = (libmime as unknown as { default?: { decodeWords(s: string): string } }).default ?? (libmime as unknown as { decodeWords(s: string): string });
    return { Splitter: mailsplit.Splitter, decodeWords: (s: string) => lib.decodeWords(s) };
  });
  return mime;
}

interface Leaf {
  node: MimeNode;
  contentType: string;
  bodies: Buffer[];
  /** The multipart/alternative nodes above this leaf. */
  alternatives: MimeNode[];
}

/**
 * Parses one RFC 5322 message and linkifies each of its text parts. `index` and `envelope` are copied into the
 * result (they come from the mbox). Malformed mail never makes it throw: a message over the MIME parser's limits
 * (MAIL_LIMITS), one it cannot read, or a part that cannot be linkified resolves with `error` set (MailError).
 * Only misuse is thrown (a TypeError: a bad argument or option).
 */
export async function linkifyMessage(
  raw: Uint8Array,
  options: MailOptions = {},
  index = 0,
  envelope?: string,
): Promise<MailMessage> {
  // isUint8Array, not instanceof: a Uint8Array from another realm (a vm context, a test runner's) is one too.
  if (!types.isUint8Array(raw)) throw badArgument('linkifyMessage', 'raw', 'a Buffer or a Uint8Array (the message bytes)', raw);
  const { link: linkOptions, html } = splitMailOptions('linkifyMessage', options);
  if (!Number.isInteger(index) || index < 0) throw badArgument('linkifyMessage', 'index', 'a non-negative integer', index);
  if (envelope !== undefined && typeof envelope !== 'string') throw badArgument('linkifyMessage', 'envelope', 'a string or undefined', envelope);
  const bytes = Buffer.isBuffer(raw) ? raw : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
  const { decodeWords } = await loadMime();
  const { root, parts, error } = await readMessage(bytes, linkOptions, html, 0);
  const headers = root?.headers || undefined;
  const header = (key: string): string | undefined => {
    if (!headers || !headers.hasHeader(key)) return undefined;
    return unfold(headers.getFirst(key));
  };
  const subject = header('subject');
  const from = header('from');
  return {
    index,
    envelope,
    messageId: header('message-id'),
    subject: subject === undefined ? undefined : decodeEncodedWords(subject, decodeWords),
    from: from === undefined ? undefined : decodeEncodedWords(from, decodeWords),
    date: header('date'),
    parts,
    ...(error === undefined ? {} : { error }),
  };
}

/**
 * How deep messages in multipart/digest parts are read as messages (RFC 2046 §5.1.5); a digest deeper down is read
 * as text, as before: each level is a parse of its own, and the parser's limits are per parse.
 */
const DIGEST_DEPTH = 8;

/** One message's MIME tree read into its linkified text parts (`depth`: how many digests it is inside). */
async function readMessage(
  bytes: Buffer,
  linkOptions: LinkOptions | undefined,
  html: 'alternative' | 'all' | 'none',
  depth: number,
): Promise<{ root: MimeNode | undefined; parts: MailPart[]; error: MailError | undefined }> {
  const { Splitter } = await loadMime();
  // RFC 2046 §5.2.1: a message/rfc822 body is a whole message (a forwarded one, each message of a multipart/digest, a
  // bounce's original); RFC 2183 §2: without a Content-Disposition, how it is shown is the reader's choice, and readers
  // show it inline. The parser descends into one only when it says `inline`, unless told to treat a missing disposition
  // as inline; `attachment` stays an attachment, skipped as the other attachments are.
  const splitter = new Splitter({ defaultInlineEmbedded: true });
  const leaves: Leaf[] = [];
  const byNode = new Map<MimeNode, Leaf>();
  const plainUnder = new Set<MimeNode>(); // alternative nodes with a text/plain leaf below them
  let root: MimeNode | undefined;
  let children = 0; // MIME nodes below the root
  const rootData: Buffer[] = []; // the body of a multipart root outside its parts (preamble, epilogue)
  // A UTF-8 byte order mark before the header (a .eml saved by an editor that writes one) is no part of the first
  // field's name: it hid that field (mbox.ts drops it before an mbox's first line alike).
  splitter.end(withHeaderEnd(withoutTransportPadding(withLineFeeds(hasBom(bytes) ? bytes.subarray(3) : bytes))));
  let error: MailError | undefined;
  try {
    for await (const item of splitter as AsyncIterable<{ type: string; node?: MimeNode; value?: Buffer } & Partial<MimeNode>>) {
      if (item.type === 'node') {
        const node = item as unknown as MimeNode;
        if (node.root && root === undefined) root = node;
        else children++;
        if (node.multipart) continue;
        // RFC 2045 §5.2: no Content-Type means text/plain; RFC 2046 §5.1.5: message/rfc822 in a multipart/digest
        // (the parser does not know it, and calls it text/plain: it read such a message's header as text).
        const digested = (node.parentNode || undefined)?.multipart === 'digest' && !(node.headers && node.headers.hasHeader('content-type')) && depth < DIGEST_DEPTH;
        const declared = withoutComments(node.contentType || 'text/plain').toLowerCase();
        // RFC 2045 §5.2: a syntactically invalid Content-Type (`text`, `/plain`: no type/subtype) is taken as
        // text/plain too (found in review: the body was dropped with no error).
        const contentType = digested ? 'message/rfc822' : MEDIA_TYPE.test(declared) ? declared : 'text/plain';
        if (!(digested || contentType.startsWith('text/')) || node.disposition === 'attachment') continue;
        const alternatives: MimeNode[] = [];
        for (let p = node.parentNode; p; p = p.parentNode) if (p.multipart === 'alternative') alternatives.push(p as MimeNode);
        const leaf: Leaf = { node, contentType, bodies: [], alternatives };
        if (contentType === 'text/plain') for (const a of alternatives) plainUnder.add(a);
        leaves.push(leaf);
        byNode.set(node, leaf);
      } else if (item.type === 'body' && item.node !== undefined && item.value !== undefined) {
        byNode.get(item.node)?.bodies.push(item.value);
      } else if (item.type === 'data' && item.node !== undefined && item.node === root && children === 0) {
        rootData.push(item.value!);
      }
    }
  } catch (cause) {
    // Failure is a value (COMMON.md): the parser's limits and errors make the message a MailError, not a throw.
    error = mimeError(cause);
    splitter.destroy();
  }
  // RFC 2046 §5.1.1: the preamble of a multipart is ignored.
  // Deviation (broken mail): a multipart message whose boundary never occurs has no parts at all; it is read as
  // one text/plain part, as mail readers show it, rather than as an empty message.
  if (root !== undefined && root.multipart && children === 0 && rootData.length > 0) {
    leaves.push({ node: root, contentType: 'text/plain', bodies: rootData, alternatives: [] });
  }

  const parts: MailPart[] = [];
  for (const leaf of error === undefined ? leaves : []) {
    // RFC 2046 §5.1.4: the parts of a multipart/alternative are versions of the same content. Beside a text/plain one,
    // the others are skipped unless `html` is 'all': text/html, and the other text versions senders add
    // (text/x-amp-html, text/watch-html, text/enriched, text/calendar), whose links are the plain part's again or
    // the same links in markup read as source (`&amp;` in a query).
    if (html !== 'all' && leaf.contentType !== 'text/plain' && leaf.alternatives.some((a) => plainUnder.has(a))) continue;
    if (html === 'none' && leaf.contentType === 'text/html') continue;
    try {
      const body = await transferDecode(leaf.node, leaf.bodies);
      if (leaf.contentType === 'message/rfc822') {
        // Its parts are numbered below this one (RFC 3501 §6.4.5: `2.1`, `2.1.3`), as the parser numbers those of
        // a message/rfc822 part it reads itself.
        const inner = await readMessage(body, linkOptions, html, depth + 1);
        const prefix = partNumber(leaf.node) + '.';
        for (const part of inner.parts) parts.push({ ...part, part: prefix + part.part });
        if (inner.error !== undefined) error ??= inner.error.part === undefined ? inner.error : { ...inner.error, part: prefix + inner.error.part };
        continue;
      }
      parts.push(partSteps.linkifyPart(leaf.node, leaf.contentType, body, linkOptions));
    } catch (cause) {
      if (cause instanceof TypeError) throw cause; // API misuse (a bad detector option value) stays a TypeError
      // e.g. RangeError "Invalid string length": a part whose text is over V8's string limit (about 512 MiB).
      leaf.bodies = [];
      error ??= { code: 'part-failed', message: `part ${partNumber(leaf.node)} could not be linkified: ${reason(cause)}`, part: partNumber(leaf.node) };
    }
  }

  return { root, parts, error };
}

/**
 * A message whose lines all end in a lone CR (classic Mac OS), with no LF at all, is read with LF line ends, as
 * Python's `email` parser and the plain-text modes read CR: the MIME parser splits lines at LF only, and read the whole
 * message as its header (found in review: the body and its links were lost, with no error).
 */
function withLineFeeds(raw: Buffer): Buffer {
  if (raw.indexOf(LF) >= 0 || raw.indexOf(CR) < 0) return raw;
  const out = Buffer.from(raw);
  for (let i = out.indexOf(CR); i >= 0; i = out.indexOf(CR, i + 1)) out[i] = LF;
  return out;
}

/**
 * RFC 2046 §5.1.1: a delimiter line is `--boundary`, then transport padding (spaces and tabs, which some gateways
 * add), then the line break. The MIME parser takes a delimiter line only without padding: with it, the whole multipart
 * was read as one text part, its parts' headers as text and their base64 undecoded (found in review). So the padding
 * is taken off the lines that are the delimiter of a boundary the message declares (`boundary=` anywhere in it: a
 * line that is one is a delimiter wherever it stands). The message is returned as it is when no line has padding.
 */
function withoutTransportPadding(raw: Buffer): Buffer {
  if (raw.indexOf('oundary') < 0 && raw.indexOf('OUNDARY') < 0) return raw;
  const text = raw.toString('latin1');
  const boundaries: string[] = [];
  for (const m of text.matchAll(/boundary[ \t]*=[ \t]*(?:"([^"\r\n]{1,200})"|([^\s;"]{1,200}))/gi)) {
    boundaries.push((m[1] ?? m[2]!).replace(/[\\^$.*+?()[\]{}|-]/g, '\\$&'));
  }
  if (boundaries.length === 0) return raw;
  const padded = new RegExp(`^(--(?:${boundaries.join('|')})(?:--)?)[ \t]+(?=\r?\n|\r|$)`, 'gm');
  if (!padded.test(text)) return raw;
  padded.lastIndex = 0;
  return Buffer.from(text.replace(padded, '$1'), 'latin1');
}

/**
 * The message with an empty line where its header block ends, when it has none. RFC 5322 §2.2: a header field is a
 * name of printable ASCII other than `:`, a colon and a value (folded onto lines that start with a space or a tab),
 * and an empty line ends the header block. The MIME parser reads every line up to an empty one as a header, so a
 * message without one (text piped to `irilink --mail`, a header block cut short) lost all its text without a word.
 * Deviation (broken mail), as mail readers and Python's `email` parser read it: then the first line that is no header
 * field starts the body (an mbox From_ line first is skipped, as the parser skips it; mbox.ts isFromLine).
 * With an empty line in its first MAIL_LIMITS.headerBytes, the header block is the parser's when a header field comes
 * before that line (the parser passes over a stray line among its headers, a `>From ` line first for one); when none
 * does, nothing before it is a header (text of several paragraphs, piped: its first paragraph was lost) and the body
 * starts at the top.
 * Deviation (plain text): a name followed by `://` starts a URL (RFC 3986 §3: a scheme, `:` and `//` authority), not a
 * header field (no field is written so): `https://…` alone on the first line of piped text was read as a field.
 */
function withHeaderEnd(raw: Buffer): Buffer {
  const head = raw.subarray(0, MAIL_LIMITS.headerBytes);
  const emptyLine = head.indexOf('\n\n') >= 0 || head.indexOf('\n\r\n') >= 0;
  const firstEnd = head.indexOf(LF) + 1;
  const start = firstEnd > 0 && isFromLine(head.subarray(0, firstEnd)) ? firstEnd : 0;
  const bodyAt = (at: number): Buffer => Buffer.concat([raw.subarray(0, at), EMPTY_LINE, raw.subarray(at)]);
  let i = start;
  let sawField = false;
  while (i < head.length) {
    const c = head[i]!;
    // The empty line: it ends the header fields before it; with none, the body starts at the top.
    if (c === LF || (c === CR && head[i + 1] === LF)) return i === start || sawField ? raw : bodyAt(start);
    if (c !== SPACE && c !== TAB) {
      let j = i;
      while (j < head.length && head[j]! > SPACE && head[j]! < DEL && head[j] !== COLON) j++;
      const field = j > i && head[j] === COLON && !(head[j + 1] === SLASH && head[j + 2] === SLASH);
      if (field) sawField = true;
      // After a header field, the first line that is none starts the body, as mail readers read it (the parser
      // would drop it from the header block: `Subject: hi⏎https://…⏎⏎more` lost its URL line); before any field,
      // a stray line (`>From x`) is the parser's when an empty line follows.
      else if (sawField || !emptyLine) return bodyAt(i);
    } else if (i === 0) {
      return bodyAt(0); // a folded line with no field before it
    }
    const nl = head.indexOf(LF, i);
    if (nl < 0) break;
    i = nl + 1;
  }
  return raw;
}

const CR = 0x0d;
const LF = 0x0a;
const TAB = 0x09;
const SPACE = 0x20;
const COLON = 0x3a;
const SLASH = 0x2f;
const DEL = 0x7f;
const ESC = 0x1b;
const EMPTY_LINE = Buffer.from('\r\n');

function reason(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}

/** A MIME parser error as a MailError (mailsplit tags its limit errors with code EMAXLEN). */
function mimeError(cause: unknown): MailError {
  const message = reason(cause);
  if (/header size/i.test(message)) {
    return { code: 'header-too-large', message: `a MIME header is over ${MAIL_LIMITS.headerBytes} bytes` };
  }
  if (/child nodes/i.test(message)) {
    return { code: 'too-many-parts', message: `the message has more than ${MAIL_LIMITS.parts} MIME parts` };
  }
  return { code: 'malformed', message: `the MIME structure could not be read: ${message}` };
}

/**
 * A header value without its comments, trimmed. RFC 2045 §5.1: comments are allowed in Content-Type as in RFC 822
 * structured fields (its example: `charset=us-ascii (Plain text)`); the parser keeps them in the media type and the
 * parameter values (`KOI8-R (Russian)`), and a charset with one was an unknown charset. Neither a media type nor a
 * charset (RFC 2045 §5.1 token) holds a parenthesis. Deviation (simplicity): a nested comment loses its innermost
 * level only, and the value stays unknown, as before.
 */
/** RFC 2045 §5.1: `type "/" subtype`, each a token (lower case here). */
const MEDIA_TYPE = /^[a-z0-9!#$%&'*+.^_`{|}~-]+\/[a-z0-9!#$%&'*+.^_`{|}~-]+$/;

function withoutComments(value: string): string {
  return value.indexOf('(') < 0 ? value.trim() : value.replace(/\([^()]*\)/g, ' ').trim();
}

// RFC 5322 §2.2.3: unfolding removes the CRLF before folding whitespace.
function unfold(value: string): string {
  return value.replace(/\r?\n(?=[ \t])/g, '').trim();
}

// RFC 2047 encoded words; a malformed word stays as written.
function decodeEncodedWords(value: string, decodeWords: (s: string) => string): string {
  try {
    return decodeWords(value);
  } catch {
    return value;
  }
}

// RFC 2045 §6: quoted-printable and base64 bodies through mailsplit's decoder for the node.
async function transferDecode(node: MimeNode, bodies: Buffer[]): Promise<Buffer> {
  if (node.multipart || !node.encoding || node.encoding === '7bit' || node.encoding === '8bit' || node.encoding === 'binary') {
    // One body (mailsplit gives a part's body as one view into the message, usually): that view, not a copy of it.
    return bodies.length === 1 ? bodies[0]! : Buffer.concat(bodies);
  }
  const decoder = node.getDecoder();
  const out: Buffer[] = [];
  const done = new Promise<void>((resolve, reject) => {
    decoder.on('data', (b: Buffer) => out.push(b));
    decoder.on('end', resolve);
    decoder.on('error', reject);
  });
  for (const body of bodies) decoder.write(body);
  decoder.end();
  await done;
  return Buffer.concat(out);
}

/**
 * The charset to decode with. RFC 2046 §4.1.2: the default is US-ASCII.
 * - Deviation (practice): a part declared ASCII, with no charset, or with one nobody knows, is read as UTF-8 when
 *   its bytes are valid UTF-8 and as windows-1252 otherwise — the two charsets such 8-bit bytes nearly always are
 *   (ASCII text reads the same in all three).
 * - WHATWG Encoding §4.2: a label names the WHATWG encoding, as mail readers decode them (senders label windows-1252
 *   text, curly quotes and all, as ISO-8859-1): the stream's decoder reads iso-8859-1 / latin1 as windows-1252,
 *   iso-8859-9 as windows-1254, tis-620 as windows-874, x-euc-jp as EUC-JP (src/stream/decode.ts, on every Node build:
 *   its tables do not come from ICU), and `charset` names that encoding.
 * - UTF-16 and UTF-32: see unicodeCharset.
 */
function charsetDecoder(declared: string | undefined, bytes: Buffer): { decoder: Decoder; charset: string } {
  let name = declared === undefined ? '' : withoutComments(declared).toLowerCase();
  name = unicodeCharset(name, bytes) ?? name;
  const unknown = (): { decoder: Decoder; charset: string } => {
    const guess = looksIso2022Jp(bytes) ? 'iso-2022-jp' : isUtf8(bytes) ? 'utf-8' : 'windows-1252';
    return { decoder: createDecoder(guess), charset: guess };
  };
  if (name === '' || name === 'us-ascii' || name === 'ascii' || name === 'ansi_x3.4-1968') return unknown();
  try {
    const decoder = createDecoder(name);
    // The WHATWG encoding of a single-byte label (iso-8859-9 → windows-1254, x-mac-ukrainian → x-mac-cyrillic), of a
    // multi-byte label iconv-lite does not know (x-euc-jp → euc-jp: documentCharset), else the label.
    const charset = decoder.documentCharset === undefined ? name : (singleByteCharset(decoder.documentCharset)?.whatwg ?? decoder.documentCharset);
    return { decoder, charset: name === 'utf8' ? 'utf-8' : charset };
  } catch {
    return unknown();
  }
}

/**
 * RFC 1468: ISO-2022-JP, the charset of Japanese mail, is 7-bit and switches to JIS X 0208 with ESC $ B (ESC $ @: its
 * 1978 edition). A part with no charset (or us-ascii, or one not known) whose bytes are 7-bit and hold such a switch
 * is ISO-2022-JP whose writer did not say so: read as ASCII, its Japanese came out as `$BF|K\` and an IRI lost its
 * path. Deviation (RFC 2045 §5.2: no charset means us-ascii), as mail readers guess it.
 */
function looksIso2022Jp(bytes: Buffer): boolean {
  for (let i = bytes.indexOf(ESC); i >= 0; i = bytes.indexOf(ESC, i + 1)) {
    if (bytes[i + 1] === 0x24 && (bytes[i + 2] === 0x42 || bytes[i + 2] === 0x40)) return isAscii(bytes);
  }
  return false;
}

/** WHATWG Encoding §4.2 "Names and labels": the labels of UTF-16BE and UTF-16LE ("utf-16" aside, see unicodeCharset). */
const UTF16_LABELS: ReadonlyMap<string, string> = new Map([
  ['unicodefffe', 'utf-16be'],
  ['utf-16be', 'utf-16be'],
  ['csunicode', 'utf-16le'],
  ['iso-10646-ucs-2', 'utf-16le'],
  ['ucs-2', 'utf-16le'],
  ['unicode', 'utf-16le'],
  ['unicodefeff', 'utf-16le'],
  ['utf-16le', 'utf-16le'],
]);

/**
 * The byte order of a part declared UTF-16 or UTF-32 (`name`: the declared charset, trimmed, lower case), as the
 * charset's decoder name, or undefined for any other charset.
 * - RFC 2781 §4.3: "utf-16" starts with a BOM (FF FE little-endian, FE FF big-endian), else it is big-endian — not
 *   the stream's guess (src/stream/decode.ts utf16Order). Likewise "utf-32" (Unicode §3.10 D101: big-endian without
 *   a BOM).
 * - The other labels the WHATWG Encoding Standard gives UTF-16LE or UTF-16BE (`unicode`, `csunicode`, `ucs-2`,
 *   `iso-10646-ucs-2`, `unicodefeff`, `unicodefffe`), most of which iconv-lite does not know: that order, unless a
 *   BOM says otherwise (WHATWG Encoding §6 "decode": BOM sniffing comes before the label).
 */
function unicodeCharset(name: string, bytes: Buffer): string | undefined {
  const le16 = bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe;
  const be16 = bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff;
  if (name === 'utf-16') return le16 ? 'utf-16le' : 'utf-16be';
  if (name === 'utf-32') {
    const le32 = bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xfe && bytes[2] === 0 && bytes[3] === 0;
    return le32 ? 'utf-32le' : 'utf-32be';
  }
  const order = UTF16_LABELS.get(name);
  if (order === undefined) return undefined;
  return le16 ? 'utf-16le' : be16 ? 'utf-16be' : order;
}

/**
 * Test seam for `part-failed`: linkifyMessage linkifies each text part through this object, so that a test can make
 * one part fail. No real input of test size does (the stream's decoder never throws; what is left is a part whose
 * text is over V8's string limit, about 512 MiB).
 */
export const partSteps: { linkifyPart: typeof linkifyPart } = { linkifyPart };

/**
 * The fields of a mailsplit MimeNode a text part is read from. linkifyPart is exported (partSteps), so its type is
 * in irilink's .d.ts files: with MimeNode there, they loaded mailsplit's own, which do not type-check against
 * @types/node 20, and a project without skipLibCheck got their errors.
 */
export interface PartNode {
  charset: string | false;
  flowed: boolean;
  delSp: boolean;
  partNr: (number | 'TEXT')[] | false;
  /** The node above it (false or absent at the top). */
  parentNode?: PartNode | false;
  /** Whether it is a message/rfc822 node. */
  rfc822?: boolean;
}

/** Decodes and linkifies one text part. */
export function linkifyPart(node: PartNode, contentType: string, bytes: Buffer, linkOptions: LinkOptions | undefined): MailPart {
  const declaredCharset = node.charset || undefined;
  const { decoder, charset } = charsetDecoder(declaredCharset, bytes);
  // The stream's decoder: NFC for legacy charsets (RFC 3987 §3.1 step 1, variant B), U+FFFD for invalid bytes.
  const decoded = decodeText(decoder, bytes);
  let text = decoded.text;
  const invalid = decoded.invalid;
  if (text.includes('\r')) {
    if (invalid !== null) afterCrlf(text, invalid.starts);
    text = text.replace(/\r\n/g, '\n');
  }
  const flowed = node.flowed && contentType === 'text/plain';
  if (flowed) text = unflow(text, node.delSp, invalid === null ? null : invalid.starts);
  // 3987bis §3.5: http(s) queries of a non-Unicode document are percent-encoded in its charset.
  const options =
    decoder.documentCharset !== undefined && linkOptions?.documentCharset === undefined
      ? { ...linkOptions, documentCharset: decoder.documentCharset }
      : linkOptions;
  const { chunks, links } = detectQuoted(text, options);
  if (invalid !== null) markInvalid(chunks, links, invalid);
  return { part: partNumber(node), contentType, charset, declaredCharset, flowed, text, chunks, links };
}

/**
 * Where the decoder replaced invalid bytes with U+FFFD, as runs of consecutive positions (binary mislabelled as text
 * is one long run: its memory does not grow with its bytes), and the diagnostic that says so.
 */
interface Replacements {
  /** Where each run starts in the text, in increasing order (moved along as the text is transformed). */
  starts: Uint32Array;
  /** How many U+FFFD each run holds (a run holds no CR, LF, `>` or space, so it moves as one). */
  lengths: Uint32Array;
  /** `invalid-utf8` (UTF-8) or `invalid-bytes` (other charsets), as the stream gives it (src/stream/bytemap.ts). */
  code: DiagnosticCode;
}

/** Positions added in increasing order, kept as runs in typed arrays (no per-position allocation). */
export class ReplacementRuns {
  starts = new Uint32Array(16);
  lengths = new Uint32Array(16);
  n = 0;
  /** Positions added so far (work and memory are counted per position by the tests). */
  added = 0;
  readonly add = (at: number): void => {
    this.added++;
    const last = this.n - 1;
    if (last >= 0 && this.starts[last]! + this.lengths[last]! === at) {
      this.lengths[last]!++;
      return;
    }
    if (this.n === this.starts.length) {
      const starts = new Uint32Array(this.n * 2);
      const lengths = new Uint32Array(this.n * 2);
      starts.set(this.starts);
      lengths.set(this.lengths);
      this.starts = starts;
      this.lengths = lengths;
    }
    this.starts[this.n] = at;
    this.lengths[this.n++] = 1;
  };
}

/**
 * How many bytes the decoder is given at a time when the part is not valid UTF-8. Its bookkeeping (src/stream/decode.ts:
 * a legacy charset's bytes per UTF-16 unit produced, a Uint32Array, in the write and again in the ByteMap; UTF-8's
 * position and length of each U+FFFD, 16 bytes, in the ByteMap) is several times the size of the text when the whole
 * part is one write (135 MB of typed arrays for a 20 MB windows-1252 part, over 500 MB for 20 MB of 0xFF as UTF-8); in
 * pieces, it is that of one piece, taken out of the ByteMap as the piece is read. The text is the same however the
 * bytes are split (the stream's contract).
 */
const DECODE_PIECE = 64 * 1024;

/**
 * The part's text, and where the decoder replaced invalid bytes. Valid UTF-8 in one write (nothing is replaced: a
 * U+FFFD in it is one the input encodes, and one string is built); anything else in pieces of DECODE_PIECE bytes,
 * joined, the ByteMap read after each (runs: the test's view of the positions, for counting).
 */
export function decodeText(decoder: Decoder, bytes: Buffer, runs = new ReplacementRuns()): { text: string; invalid: Replacements | null } {
  const map = decoder.byteMap;
  if (map.counting === 'utf8' && isUtf8(bytes)) return { text: decoder.write(bytes) + decoder.end(), invalid: null };
  const pieces: string[] = [];
  let at = 0;
  // A U+FFFD the input encodes itself (EF BF BD in UTF-8) is text, not a replacement: only the decoder knows which
  // is which, and its ByteMap tells the stream (createLinkStream) chunk by chunk; here it hands over the positions of
  // the replacements (WHATWG Encoding §4.1 "decode", error mode "replacement": each invalid sequence is one U+FFFD).
  const take = (piece: string): void => {
    if (piece.length === 0) return;
    pieces.push(piece);
    at += piece.length;
    map.skipTo(at, runs.add);
  };
  for (let i = 0; i < bytes.length; i += DECODE_PIECE) take(decoder.write(bytes.subarray(i, i + DECODE_PIECE)));
  take(decoder.end());
  const text = pieces.length === 1 ? pieces[0]! : pieces.join('');
  if (runs.n === 0) return { text, invalid: null };
  return { text, invalid: { starts: runs.starts.subarray(0, runs.n), lengths: runs.lengths.subarray(0, runs.n), code: map.replacementCode } };
}

/** Moves `marks` (offsets into `text`, increasing, never at a CR) to where they are once each CR LF is one LF. */
function afterCrlf(text: string, marks: Uint32Array): void {
  let removed = 0; // CR LF pairs before the current mark
  let next = text.indexOf('\r\n');
  for (let m = 0; m < marks.length; m++) {
    while (next >= 0 && next < marks[m]!) {
      removed++;
      next = text.indexOf('\r\n', next + 2);
    }
    marks[m] = marks[m]! - removed;
  }
}

/**
 * Gives every chunk whose span holds a U+FFFD that replaced invalid bytes the decoder's diagnostic, as the stream
 * does (src/stream/bytemap.ts annotate: appended to the chunk's diagnostics, in a new array), and each link the
 * same array as its chunk.
 */
function markInvalid(chunks: Chunk[], links: Link[], invalid: Replacements): void {
  const { starts, lengths, code } = invalid;
  const n = starts.length;
  let m = 0;
  let l = 0;
  for (const chunk of chunks) {
    while (m < n && starts[m]! + lengths[m]! <= chunk.start) m++;
    const hit = m < n && starts[m]! < chunk.end;
    if (chunk.type === 'link') {
      if (hit && !chunk.diagnostics.includes(code)) chunk.diagnostics = [...chunk.diagnostics, code];
      links[l++]!.diagnostics = chunk.diagnostics;
    } else if (hit) {
      if (chunk.diagnostics === undefined) chunk.diagnostics = [code];
      else if (!chunk.diagnostics.includes(code)) chunk.diagnostics = [...chunk.diagnostics, code];
    }
    if (m === n) break;
  }
}

/**
 * linkify() over text with quoted (`> `) lines: detection reads the text with the quote prefixes masked
 * (maskQuotePrefixes), and every chunk's `text` is the original slice.
 */
export function linkifyQuoted(text: string, options?: LinkOptions): Chunk[] {
  if (typeof text !== 'string') throw badArgument('linkifyQuoted', 'text', 'a string', text);
  if (options !== undefined && !isOptionsObject(options)) {
    throw badArgument('linkifyQuoted', 'options', 'an object or undefined', options);
  }
  return detectQuoted(text, options).chunks;
}

/**
 * linkifyQuoted's chunks, and the links among them as Links (without `type`).
 *
 * The steps of linkify() (src/detect/index.ts), keeping the scanner's Links: they become MailPart.links, where the
 * scanner's Links used to be dropped and a copy of each link chunk without its `type` made (memory: one object per
 * link fewer made; the copy, built by object rest, took 120 bytes where the scanner's literal takes 96). A Link fresh
 * from the scanner has the fields of its chunk in the same order (src/detect/chunks.ts linkChunk), and shares its
 * diagnostics array; what is changed on a chunk afterwards (bidi-embedded, the original text of a masked part,
 * invalid bytes) is set on its Link too.
 */
function detectQuoted(text: string, options: LinkOptions | undefined): { chunks: Chunk[]; links: Link[] } {
  const masked = maskQuotePrefixes(text);
  // Compared once: two different strings of the same length are compared unit by unit (up to the first `>`).
  const quoted = masked !== text;
  checkOptionsArgument('linkify', options);
  const { links, unlinked } = createScanner(options).scan(masked, 0, true, 0);
  const chunks: Chunk[] = [];
  const pos = appendChunks(chunks, masked, 0, 0, links, unlinked, linkChunk);
  if (pos < masked.length) chunks.push(textChunk(masked, 0, pos, masked.length));
  if (links.length === 0 && !quoted) return { chunks, links };
  if (links.length > 0) {
    const tracker = new EmbeddingTracker();
    tracker.note(masked.length, true);
    tracker.mark(chunks);
  }
  let l = 0;
  for (const chunk of chunks) {
    if (quoted) chunk.text = text.slice(chunk.start, chunk.end);
    if (chunk.type === 'link') {
      const link = links[l++]!;
      link.text = chunk.text;
      link.diagnostics = chunk.diagnostics;
    }
  }
  return { chunks, links };
}

// RFC 3501 §6.4.5: a message that is not multipart has one part, 1, also inside a message/rfc822 part (`2.1`). The
// parser numbers that body `TEXT` (the message's, [2, 'TEXT'] inside part 2), and only that: its last item. A
// message that is itself message/rfc822 (a bounce's original sent alone) has the message it holds as part 1, so that
// message's parts are `1.1`, `1.2`; the parser numbers them as if they were the top's (`1`, `2`).
function partNumber(node: PartNode): string {
  const nr = node.partNr;
  let top = node;
  while (top.parentNode) top = top.parentNode;
  const inside = top !== node && top.rfc822 === true ? '1.' : '';
  if (!nr) return inside + '1';
  return inside + nr.map((item) => (item === 'TEXT' ? 1 : item)).join('.');
}
