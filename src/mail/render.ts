// Output of mail mode: HTML per message, or one JSON line per link with the message it came from.
import { createHtmlRenderer } from '../render/index.js';
import { checkChunk } from '../render/common.js';
import { jsonlText, linkRow } from '../render/jsonl.js';
import type { HtmlOptions, JsonlLink } from '../render/index.js';
import type { MailMessage } from './message.js';
import { badArgument } from '../errors.js';
import { CR, LF, startsLineBreak } from '../breaks.js';

const MESSAGE_SHAPE = 'a MailMessage (from linkifyMail or linkifyMessage)';

/**
 * A TypeError unless `message` has the fields mailToHtml and mailToJsonl read: `index`, optional string
 * `messageId` and `subject`, and `parts`, each with string `part`, `contentType`, `charset`, `text` and the arrays
 * `chunks` and `links` (the chunks themselves are checked by toHtml).
 */
function checkMessage(fn: string, message: unknown): MailMessage {
  if (message === null || typeof message !== 'object' || Array.isArray(message)) {
    throw badArgument(fn, 'message', MESSAGE_SHAPE, message);
  }
  const m = message as Partial<Record<keyof MailMessage, unknown>>;
  if (!Number.isInteger(m.index) || (m.index as number) < 0) throw badArgument(fn, 'message.index', 'a non-negative integer', m.index);
  for (const key of ['messageId', 'subject'] as const) {
    if (m[key] !== undefined && typeof m[key] !== 'string') throw badArgument(fn, `message.${key}`, 'a string or undefined', m[key]);
  }
  if (m.error !== undefined) {
    const e = m.error as { code?: unknown; message?: unknown } | null;
    if (e === null || typeof e !== 'object' || typeof e.code !== 'string' || typeof e.message !== 'string') {
      throw badArgument(fn, 'message.error', 'a MailError ({ code, message }) or undefined', m.error);
    }
  }
  if (!Array.isArray(m.parts)) throw badArgument(fn, 'message.parts', 'an array of parts', m.parts);
  for (const part of m.parts as unknown[]) {
    if (part === null || typeof part !== 'object') throw badArgument(fn, 'each of message.parts', 'a MailPart object', part);
    const p = part as Record<string, unknown>;
    for (const key of ['part', 'contentType', 'charset', 'text']) {
      if (typeof p[key] !== 'string') throw badArgument(fn, `each part's ${key}`, 'a string', p[key]);
    }
    if (!Array.isArray(p.chunks)) throw badArgument(fn, "each part's chunks", 'an array', p.chunks);
    if (!Array.isArray(p.links)) throw badArgument(fn, "each part's links", 'an array', p.links);
    for (const link of p.links as unknown[]) {
      const l = link as { start?: unknown } | null;
      if (l === null || typeof l !== 'object' || !Number.isInteger(l.start) || (l.start as number) < 0) {
        throw badArgument(fn, "each part's links", 'an array of links ({ start, end, text, uri, … })', link);
      }
    }
  }
  return message as MailMessage;
}

// HTML Standard §13.1.2.3 / §13.1.3: the same five references make text and quoted attribute values safe.
const REFERENCE: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => REFERENCE[c]!);
}

/**
 * How much output mailHtmlPieces and mailJsonlPieces gather before yielding it (UTF-16 code units, give or
 * take one link or one JSON line): large enough that writing costs little, small enough that a message of any
 * size is never one string (V8 strings end at about 512 MiB; a link-dense message's jsonl is ~30× its size).
 */
const PIECE = 64 * 1024;

/**
 * One message as an HTML fragment: a `<section class="irilink-message">` with the subject as `<h2>` and each
 * text part as `<pre class="irilink-part">` holding toHtml() of its chunks (links as `<a href>`, unsafe ones as
 * a marked `<span>`). Header values are escaped; nothing from the message becomes markup. A message with an
 * `error` gets `data-error="code"` and a `<p class="irilink-error">` saying what went wrong.
 */
export function mailToHtml(message: MailMessage, options?: HtmlOptions): string {
  checkMessage('mailToHtml', message);
  createHtmlRenderer(options, 'mailToHtml'); // checks the options now, also for a message without text parts
  let out = '';
  for (const piece of htmlPieces('mailToHtml', message, options)) out += piece;
  return out;
}

/**
 * mailToHtml's output in pieces of about 64 Ki code units, rendered as they are asked for: their concatenation is
 * mailToHtml(message, options). For writing a large message without building its HTML as one string.
 * The message and the options are checked at the call, before the first piece.
 */
export function mailHtmlPieces(message: MailMessage, options?: HtmlOptions): Iterable<string> {
  checkMessage('mailHtmlPieces', message);
  createHtmlRenderer(options, 'mailHtmlPieces'); // checks the options now, also for a message without text parts
  return htmlPieces('mailHtmlPieces', message, options);
}

function* htmlPieces(fn: string, message: MailMessage, options: HtmlOptions | undefined): Generator<string> {
  let out = `<section class="irilink-message" data-index="${message.index}"`;
  if (message.messageId !== undefined) out += ` data-message-id="${escapeHtml(message.messageId)}"`;
  if (message.error !== undefined) out += ` data-error="${escapeHtml(message.error.code)}"`;
  out += '>\n';
  if (message.subject !== undefined) out += `<h2>${escapeHtml(message.subject)}</h2>\n`;
  if (message.error !== undefined) out += `<p class="irilink-error">${escapeHtml(message.error.message)}</p>\n`;
  for (const part of message.parts) {
    // HTML Living Standard §13.2.6.4.7 ("in body", a <pre> start tag): a line feed right after <pre> is dropped, so
    // one is always written there; a part that starts with a line break keeps it.
    out += `<pre class="irilink-part" data-part="${escapeHtml(part.part)}" data-content-type="${escapeHtml(part.contentType)}">\n`;
    const renderer = createHtmlRenderer(options, fn);
    for (const chunk of part.chunks) {
      out += renderer.chunk(checkChunk(fn, chunk));
      if (out.length >= PIECE) {
        yield out;
        out = '';
      }
    }
    out += renderer.end() + '</pre>\n';
  }
  yield out + '</section>\n';
}

/**
 * The object written per link by mailToJsonl: the message it came from, then the link fields of `toJsonl(…,
 * { links: true })` — `line`/`column` count in the part's text (a line ends at CR LF, LF or a lone CR, as jsonl counts
 * lines), offsets are UTF-16 in that text.
 */
export interface MailJsonlLink extends Omit<JsonlLink, 'byteStart' | 'byteEnd'> {
  message: number;
  messageId: string | null;
  subject: string | null;
  part: string;
  contentType: string;
  charset: string;
}

/**
 * One JSON line (RFC 8259 + `\n`) per link of the message, in order; '' when it has none (also when the
 * message has an `error` and no parts).
 */
export function mailToJsonl(message: MailMessage): string {
  checkMessage('mailToJsonl', message);
  let out = '';
  for (const piece of jsonlPieces(message)) out += piece;
  return out;
}

/**
 * mailToJsonl's output in pieces of whole lines, about 64 Ki code units each, made as they are asked for: their
 * concatenation is mailToJsonl(message). No piece is empty. The message is checked at the call.
 */
export function mailJsonlPieces(message: MailMessage): Iterable<string> {
  checkMessage('mailJsonlPieces', message);
  return jsonlPieces(message);
}

function* jsonlPieces(message: MailMessage): Generator<string> {
  let out = '';
  for (const part of message.parts) {
    const text = part.text;
    let line = 1;
    let lineStart = 0;
    let counted = 0;
    let afterCr = false;
    for (const link of part.links) {
      // Count line breaks up to the link's start, once over the part: CR LF, a lone LF and a lone CR are one break
      // each (src/breaks.ts, the jsonl renderer's rule).
      for (let i = counted; i < link.start; i++) {
        const c = text.charCodeAt(i);
        if (startsLineBreak(c, afterCr)) line++;
        if (c === CR || c === LF) lineStart = i + 1;
        afterCr = c === CR;
      }
      counted = Math.max(counted, link.start);
      // The row's own fields, then the link's (src/render/jsonl.ts linkRow: the one writer of a link's fields).
      const lead = {
        message: message.index,
        messageId: message.messageId ?? null,
        subject: message.subject ?? null,
        part: part.part,
        contentType: part.contentType,
        charset: part.charset,
        line,
        column: link.start - lineStart + 1,
      };
      const record: MailJsonlLink = linkRow(lead, link, link.start, link.end);
      out += jsonlText(record) + '\n';
      if (out.length >= PIECE) {
        yield out;
        out = '';
      }
    }
  }
  if (out !== '') yield out;
}
