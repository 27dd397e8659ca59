// Mail mode: RFC 5322 messages or an mbox in, linkified text parts out, one message at a time.
import { Readable, type Writable } from 'node:stream';
import { badArgument, badOption, isOptionsObject } from '../errors.js';
import { checkOptionNames } from '../detect/options.js';
import { createHtmlRenderer } from '../render/html.js';
import type { HtmlOptions } from '../render/index.js';
import { splitMbox } from './mbox.js';
import { linkifyMessage, splitMailOptions } from './message.js';
import type { MailMessage, MailOptions } from './message.js';
import { mailHtmlPieces, mailJsonlPieces } from './render.js';
import { types } from 'node:util';

export { splitMbox, type MboxMessage, type SplitMboxOptions } from './mbox.js';
export { decodeFlowed, maskQuotePrefixes } from './flowed.js';
export { linkifyMessage, linkifyQuoted, MAIL_LIMITS, type MailMessage, type MailPart, type MailOptions, type MailError, type MailErrorCode } from './message.js';
export { mailToHtml, mailToJsonl, mailHtmlPieces, mailJsonlPieces, type MailJsonlLink } from './render.js';

/** Options of linkifyMail: MailOptions plus how to read the input. */
export interface LinkifyMailOptions extends MailOptions {
  /** `true`: an mbox; `false`: one RFC 5322 message; `'auto'` (default): an mbox when it starts with a From_ line. */
  mbox?: boolean | 'auto';
}

/**
 * The messages of an mbox (or the one message of an RFC 5322 input), each with its text parts linkified, one
 * at a time: memory holds one message, whatever the size of the mbox. A message that cannot be parsed is
 * yielded with an `error` (MailMessage.error) and the messages after it are read as usual.
 *
 * @example
 * for await (const message of linkifyMail(fs.createReadStream('inbox.mbox'))) {
 *   for (const part of message.parts) for (const link of part.links) console.log(message.subject, link.uri);
 * }
 */
export async function* linkifyMail(
  input: Readable | AsyncIterable<Uint8Array | string> | Uint8Array | string,
  options: LinkifyMailOptions = {},
): AsyncGenerator<MailMessage> {
  const source = mailSource('linkifyMail', input);
  // Validates the options before reading; linkifyMessage gets them as read here (it takes no `mbox`).
  const { link, html } = splitMailOptions('linkifyMail', options, ['html', 'mbox']);
  const messageOptions: MailOptions = { ...link, html };
  const mbox = options.mbox === undefined ? 'auto' : options.mbox; // not `??`: null is refused
  if (mbox !== true && mbox !== false && mbox !== 'auto') throw badOption('mbox', 'true, false or "auto"', mbox);
  for await (const message of splitMbox(source, { mbox })) {
    yield await linkifyMessage(message.raw, messageOptions, message.index, message.envelope);
  }
}

/** linkifyMail's input as splitMbox reads it; a TypeError naming `fn` for anything else. */
function mailSource(fn: string, input: unknown): AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string> {
  if (typeof input === 'string' || types.isUint8Array(input)) return [input];
  if (input !== null && typeof input === 'object' && Symbol.asyncIterator in input) return input as AsyncIterable<Uint8Array | string>;
  throw badArgument(fn, 'input', 'a Buffer, a string, a Readable or an async iterable of Buffers', input);
}

/** Output formats of mail mode (the CLI's `--mail --format html|jsonl`). */
export type MailFormat = 'html' | 'jsonl';

/**
 * Mail mode as a stream stage for the CLI: reads `input` (an mbox or one message), writes HTML per message
 * (`'html'`) or one JSON line per link (`'jsonl'`) to `output`, message by message and in pieces of about 64 Ki
 * code units (mailHtmlPieces / mailJsonlPieces), honouring backpressure. Resolves with the number of messages,
 * links and messages with an `error` (`failed`; in html their section says why, jsonl has no line for them).
 */
export async function runMail(
  input: Readable | AsyncIterable<Uint8Array | string> | Uint8Array | string,
  output: NodeJS.WritableStream,
  format: MailFormat,
  options: LinkifyMailOptions & { render?: HtmlOptions } = {},
): Promise<{ messages: number; links: number; failed: number }> {
  if (format !== 'html' && format !== 'jsonl') throw badArgument('runMail', 'format', "'html' or 'jsonl'", format);
  const out = output as Partial<NodeJS.WritableStream> | null;
  // Only write() is needed: a sink without once() (a `{ write }` object) gets no backpressure, as before.
  if (out === null || typeof out !== 'object' || typeof out.write !== 'function') {
    throw badArgument('runMail', 'output', 'a writable stream (an object with a write method)', output);
  }
  const waitsForDrain = typeof out.once === 'function';
  if (!isOptionsObject(options)) {
    throw badArgument('runMail', 'options', 'an object or undefined', options);
  }
  mailSource('runMail', input);
  checkOptionNames(options, ['html', 'mbox', 'render']); // linkifyMail's check would not list `render`
  const { render, ...mailOptions } = options;
  if (render !== undefined && !isOptionsObject(render)) throw badOption('render', 'an object (the HTML options) or undefined', render);
  // Checked before anything is read, whatever the format and the input (mailHtmlPieces would check them at the first
  // message), and said as render's (the inner message names only the HTML option).
  if (render !== undefined) {
    try {
      createHtmlRenderer(render, 'runMail');
    } catch (error) {
      if (!(error instanceof TypeError)) throw error;
      throw new TypeError(`irilink: option render (the HTML options): ${error.message.replace(/^irilink: /, '')}`);
    }
  }
  let messages = 0;
  let links = 0;
  let failed = 0;
  // The output's error ends the run: runMail rejects with it and reads no further (listening, it also keeps the
  // error from being an unhandled 'error' event while it runs). A wait for 'drain' ends at an error or a close too.
  const listens = waitsForDrain && typeof out.on === 'function' && typeof out.removeListener === 'function';
  let failure: { error: unknown } | undefined;
  let wake: (() => void) | undefined;
  const onError = (error: unknown): void => {
    failure ??= { error };
    wake?.();
  };
  const check = (): void => {
    if (failure !== undefined) throw failure.error;
    if ((output as Partial<Writable>).destroyed === true) throw new Error('irilink: runMail(): the output was closed before the end of the input');
  };
  const drained = (): Promise<void> =>
    new Promise<void>((resolve) => {
      const done = (): void => {
        output.removeListener('drain', done);
        output.removeListener('close', done);
        wake = undefined;
        resolve();
      };
      wake = done;
      output.once('drain', done);
      output.once('close', done);
    });
  // A Node stream calls each write's callback once the piece is written or has failed (destroyed too): runMail
  // settles after the last one, so that a late error is its rejection, not an unhandled 'error' event after it.
  const calls = typeof (out as Partial<Writable>).writableLength === 'number';
  let lastWrite: Promise<void> | undefined;
  const write = (text: string): boolean => {
    if (!calls) return output.write(text);
    let done!: () => void;
    lastWrite = new Promise<void>((resolve) => (done = resolve));
    return output.write(text, (error?: Error | null) => {
      if (error) onError(error);
      done();
    });
  };
  if (listens) output.on('error', onError);
  try {
    for await (const message of linkifyMail(input, mailOptions)) {
      messages++;
      if (message.error !== undefined) failed++;
      for (const part of message.parts) links += part.links.length;
      const pieces = format === 'html' ? mailHtmlPieces(message, render) : mailJsonlPieces(message);
      for (const text of pieces) {
        check();
        if (!write(text) && waitsForDrain) {
          await drained();
          check();
        }
      }
    }
    if (lastWrite !== undefined) await lastWrite;
    // (A stream emits its 'error' after the callback, in a later tick: still heard here.)
    if (calls && failure === undefined) await new Promise<void>((resolve) => setImmediate(resolve));
    check();
  } finally {
    if (listens) output.removeListener('error', onError);
  }
  return { messages, links, failed };
}
