// createLinkStream(): bytes or strings in, Chunk objects out (DESIGN.md "Streaming contract").
//
//   Buffer ─ decoder (UTF-8 / legacy + NFC) ─ text ─ Linkifier ─ chunks ─ ByteMap (byteStart/byteEnd) ─▶
//
// Offsets: `start`/`end` count UTF-16 code units of the decoded text over the whole stream. With Buffer
// input every chunk also gets `byteStart`/`byteEnd` over the input bytes, exact for every charset:
// chunks tile the bytes except for bytes that produce no text — a UTF-8 BOM, ISO-2022-JP escape
// sequences — which lie between two chunks (the first chunk of a file with a BOM starts at byte 3). A
// U+FFFD that replaced invalid bytes counts the bytes it replaced. Where NFC (legacy charsets only)
// composed several characters into one, the composed unit stands for all their bytes.
//
// Backpressure is the Transform machinery's: _transform calls back only after pushing, and Node does
// not call it again while the readable buffer is over its highWaterMark, so a slow reader slows the
// writer. Memory is bounded by one write, the linkifier's tail and the readable buffer.
//
// Each write is worked on in a later turn of the event loop, so that a piped file source reads on meanwhile
// (later.ts says why and what it gained).
import { Transform } from 'node:stream';
import type { TransformCallback } from 'node:stream';
import { badArgument, badOption, isOptionsObject } from '../errors.js';
import type { Chunk } from '../types.js';
import type { LinkOptions } from '../detect/index.js';
import { createDecoder, startsWithUtf16Bom } from './decode.js';
import type { Decoder } from './decode.js';
import { Linkifier } from './linkifier.js';
import { workLater } from './later.js';
import { checkOptionNames, resolveOptions } from '../detect/options.js';
import { splitMarkdownOptions } from '../markdown/options.js';
import { types } from 'node:util';
import { keepSoon, keptBy, SHAPE_SAMPLES } from '../keep.js';

export type StreamOptions = LinkOptions & {
  /**
   * Charset of Buffer input: 'utf-8' (default), a WHATWG Encoding Standard label or a name iconv-lite knows; not
   * UTF-7, base64, hex, x-user-defined or a WHATWG replacement label (a TypeError).
   */
  encoding?: string;
  /** Readable side's highWaterMark, in chunks (default 16). */
  highWaterMark?: number;
  /**
   * Markdown mode (issue 6): no links in code or HTML; links, images, definitions and autolinks reported with
   * their destination; bare links around them as in plain text (src/markdown).
   */
  markdown?: boolean;
  /** With `markdown`: GFM tables and strikethrough (default true). */
  gfm?: boolean;
};

/** What the stream drives: the plain Linkifier or the Markdown one, both push/end over the same chunks. */
interface PushLinkifier {
  push(text: string): Chunk[];
  /**
   * push() of a flat string (the decoder's output), where the linkifier has a cheaper way for one; `bidiFree`: the
   * decoder found no explicit bidi embedding, override or isolate control in it (Decoder.bidiFree).
   */
  pushFlat?(text: string, bidiFree: boolean): Chunk[];
  end(): Chunk[];
}

/** createLinkStream's own options, besides the detector's. */
const STREAM_OPTION_NAMES: readonly string[] = ['encoding', 'highWaterMark', 'markdown', 'gfm'];

/**
 * A Transform whose writable side takes Buffers (decoded per `encoding`) or strings (already text), and
 * whose readable side emits Chunk objects. Throws a TypeError for a bad option (an unknown encoding
 * included) before any data flows. Typed as a plain Transform, as Node's typings need for `pipeline()`; its
 * async iterator yields Chunk objects (`for await (const chunk of stream as AsyncIterable<Chunk>)`).
 */
export function createLinkStream(options: StreamOptions = {}): Transform {
  if (!isOptionsObject(options)) {
    throw badArgument('createLinkStream', 'options', 'an object or undefined', options);
  }
  checkOptionNames(options, STREAM_OPTION_NAMES);
  const { encoding, highWaterMark, markdown, gfm, ...rest } = options;
  if (markdown !== undefined && typeof markdown !== 'boolean') throw badOption('markdown', 'a boolean', markdown);
  if (gfm !== undefined && markdown !== true) throw badOption('gfm', 'used only with markdown: true', gfm);
  if (highWaterMark !== undefined && !(Number.isInteger(highWaterMark) && highWaterMark > 0)) {
    throw badOption('highWaterMark', 'a positive integer', highWaterMark);
  }
  const decoder = createDecoder(encoding);
  const linkOptions: LinkOptions = { ...rest } as LinkOptions;
  // 3987bis §3.5: http(s) queries of a non-Unicode document are percent-encoded in its charset.
  const withCharset = linkOptions as LinkOptions & { documentCharset?: string };
  if (decoder.documentCharset !== undefined && withCharset.documentCharset === undefined) {
    withCharset.documentCharset = decoder.documentCharset;
  }
  if (markdown !== true) return new LinkStream(new Linkifier(linkOptions), null, decoder, highWaterMark ?? 16);
  // Start-up: the Markdown linkifier (micromark and its extensions, some 40 ms to load) is loaded at the stream's
  // first write, so that a program that never asks for Markdown does not load it with the stream (the command line
  // reaches createLinkStream without the package entry). Its options are checked now, as every option is.
  const mdOptions = gfm === undefined ? linkOptions : { ...linkOptions, gfm };
  resolveOptions(splitMarkdownOptions('createLinkStream', mdOptions).link);
  const load = (): Promise<PushLinkifier> => import('../markdown/linkifier.js').then((m) => new m.MarkdownLinkifier(mdOptions));
  return new LinkStream(NOT_LOADED, load, decoder, highWaterMark ?? 16);
}

/** The linkifier of a stream whose linkifier is still to be loaded (never called: `load` is tried first). */
const NOT_LOADED: PushLinkifier = {
  push: () => [],
  end: () => [],
};

type Mode = 'unknown' | 'bytes' | 'text';

const NO_BYTES = Buffer.alloc(0);

class LinkStream extends Transform {
  private linkifier: PushLinkifier;
  /** Loads the linkifier before the first write or the end is worked on; null once it is there. */
  private load: (() => Promise<PushLinkifier>) | null;
  private decoder: Decoder;
  private mode: Mode = 'unknown';
  /**
   * WHATWG Encoding §6 "decode": a byte order mark at the start of the bytes wins over the label, and FF FE or FE FF
   * means UTF-16 (LE or BE). A stream reading UTF-8 (the default) holds its first bytes here until it can tell (null
   * once it has): a file saved as UTF-16 with a BOM (PowerShell 5's `>`, Notepad's "Unicode") read as UTF-8 was
   * U+FFFD and letters between NULs, no link found. (The UTF-8 decoder drops its own BOM, EF BB BF.)
   */
  private sniff: Buffer | null;

  constructor(linkifier: PushLinkifier, load: (() => Promise<PushLinkifier>) | null, decoder: Decoder, highWaterMark: number) {
    super({ readableObjectMode: true, decodeStrings: false, readableHighWaterMark: highWaterMark });
    this.linkifier = linkifier;
    this.load = load;
    this.decoder = decoder;
    this.sniff = decoder.byteMap.counting === 'utf8' ? NO_BYTES : null;
  }

  /** Bytes into the decoder: past the first two, as they come; before, held until the BOM is known (see sniff). */
  private decode(bytes: Uint8Array): string {
    if (this.sniff === null) return this.decoder.write(bytes);
    const view = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const head = this.sniff.length === 0 ? view : Buffer.concat([this.sniff, view]);
    if (head.length < 2) {
      this.sniff = Buffer.from(head); // a copy: the writer may reuse its buffer
      return '';
    }
    this.sniff = null;
    if (startsWithUtf16Bom(head)) this.decoder = createDecoder('utf-16');
    return this.decoder.write(head);
  }

  override _transform(data: unknown, encoding: BufferEncoding, callback: TransformCallback): void {
    if (this.load !== null) {
      this.loadThen(() => workLater(this, this.work, data, encoding, callback), callback);
      return;
    }
    workLater(this, this.work, data, encoding, callback);
  }

  /** Loads the linkifier, then goes on; a failed load fails the stream through `callback`. */
  private loadThen(next: () => void, callback: TransformCallback): void {
    this.load!().then(
      (linkifier) => {
        this.linkifier = linkifier;
        this.load = null;
        next();
      },
      (error: unknown) => callback(error as Error),
    );
  }

  /** One write: decoded, linked and pushed; then the callback (later.ts: why not in _transform). */
  private work(data: unknown, encoding: BufferEncoding | 'buffer', callback: TransformCallback): void {
    let chunks: Chunk[];
    try {
      // (An empty write of either kind decides nothing: `write('')` then Buffers is no mix.)
      if (typeof data === 'string' && (encoding === 'utf8' || encoding === 'utf-8' || (encoding as string) === 'buffer')) {
        if (data.length > 0) this.setMode('text');
        chunks = this.linkifier.push(data);
      } else if (typeof data === 'string') {
        // A string written with another encoding ('hex', 'base64', …) stands for bytes.
        const bytes = Buffer.from(data, encoding as BufferEncoding);
        if (bytes.length > 0) this.setMode('bytes');
        chunks = this.pushDecoded(this.decode(bytes));
      } else if (types.isUint8Array(data)) { // another realm's Uint8Array too
        if (data.byteLength > 0) this.setMode('bytes');
        chunks = this.pushDecoded(this.decode(data));
      } else {
        throw new TypeError(`irilink: createLinkStream(): write a Buffer, a Uint8Array or a string, got ${typeof data}`);
      }
    } catch (error) {
      callback(error as Error);
      return;
    }
    this.release(chunks);
    callback();
  }

  override _flush(callback: TransformCallback): void {
    if (this.load !== null) {
      this.loadThen(() => this._flush(callback), callback);
      return;
    }
    let chunks: Chunk[];
    try {
      chunks = [];
      if (this.mode === 'bytes') {
        // A lone first byte still held: it is the input (no BOM).
        if (this.sniff !== null && this.sniff.length > 0) chunks = this.pushDecoded(this.decoder.write(this.sniff));
        this.sniff = null;
        const last = this.pushDecoded(this.decoder.end());
        chunks = chunks.length === 0 ? last : chunks.concat(last);
      }
      const rest = this.linkifier.end();
      chunks = chunks.length === 0 ? rest : chunks.concat(rest);
    } catch (error) {
      callback(error as Error);
      return;
    }
    this.release(chunks);
    if (this.linkifier instanceof Linkifier) keepSoon(keptStream);
    callback();
  }

  /**
   * `for await` over the chunks. Node's own iterator is an async generator: each chunk costs a generator
   * resumption and a few promise jobs, and a stream of English text has about 3600 chunks per MB (a link every
   * ~500 bytes: the link and the text before it) — about 0.3 CPU ms/MB, a tenth of what the whole stream may cost.
   * This iterator hands out a chunk that is already buffered with one read() and one resolved promise, exactly
   * what Node's generator does in its loop (`stream.destroyed ? null : stream.read()`, then yield); everything
   * else — the first chunk, waiting, the end, errors, `break` (return(), which destroys the stream) — goes to
   * Node's iterator. Node's generator is then always suspended at a yield when read() is called here (no call handed
   * to it is still pending: for await asks for the next chunk only after the previous promise settled, and a caller
   * that asks early goes through Node's iterator), so the two never see different states.
   */
  override [Symbol.asyncIterator](): NodeJS.AsyncIterator<Chunk> {
    const inner = super[Symbol.asyncIterator]() as NodeJS.AsyncIterator<Chunk>;
    let started = false;
    // next() calls handed to Node's iterator that have not settled: while one waits, a chunk read here would
    // overtake it (a caller may call next() again before the last promise settled; for await never does).
    let pending = 0;
    const settled = (): void => {
      pending--;
    };
    const iterator = {
      next: (): Promise<IteratorResult<Chunk>> => {
        if (started && pending === 0 && !this.destroyed && this.readableLength > 0) {
          const chunk = this.read() as Chunk | null;
          if (chunk !== null) return Promise.resolve({ value: chunk, done: false });
        }
        started = true;
        pending++;
        const result = inner.next();
        result.then(settled, settled);
        return result;
      },
      return: (value?: unknown): Promise<IteratorResult<Chunk>> => inner.return!(value),
      throw: (error?: unknown): Promise<IteratorResult<Chunk>> => inner.throw!(error),
      [Symbol.asyncIterator]: () => iterator,
    };
    return iterator as unknown as NodeJS.AsyncIterator<Chunk>;
  }

  /**
   * The readable side emits Chunk objects, which no string decoder can take: Node would throw from push(), in a
   * later turn of the event loop (later.ts), where nothing can catch it and the process dies. Refused here, at
   * the call, like every other misuse.
   */
  override setEncoding(encoding?: BufferEncoding): this {
    throw new TypeError(
      `irilink: createLinkStream(): setEncoding(${JSON.stringify(encoding) ?? ''}) does not apply: the stream emits Chunk objects (read chunk.text)`,
    );
  }

  /** Decoded text (a flat string from the decoder) into the linkifier. */
  private pushDecoded(text: string): Chunk[] {
    const linkifier = this.linkifier;
    return linkifier.pushFlat === undefined || !this.decoder.flatOutput ? linkifier.push(text) : linkifier.pushFlat(text, this.decoder.bidiFree);
  }

  private setMode(mode: 'bytes' | 'text'): void {
    if (this.mode === mode) return;
    if (this.mode !== 'unknown') {
      throw new TypeError(
        `irilink: createLinkStream(): do not mix bytes and text in one stream (byte offsets would be meaningless): ` +
          `write Buffers or Uint8Arrays (a string written with an encoding other than utf8, such as 'hex' or 'utf16le', ` +
          `stands for bytes too), or UTF-8 strings, not both`,
      );
    }
    this.mode = mode;
  }

  /** keptStream(): the samples, one write each, worked on now; their chunks stay unread in the readable buffer. */
  linkSamples(samples: readonly string[]): void {
    const ignore = (): void => {};
    for (const sample of samples) this.work(Buffer.from(sample, 'utf8'), 'buffer', ignore);
    this._flush(ignore);
  }

  private release(chunks: Chunk[]): void {
    const bytes = this.mode === 'bytes';
    for (const chunk of chunks) {
      if (bytes) this.decoder.byteMap.annotate(chunk);
      this.push(chunk);
    }
  }
}

/** keep.ts: a stream that has linked the samples, kept with its chunks unread in its buffer. */
function keptStream(): LinkStream {
  const stream = new LinkStream(new Linkifier(), null, createDecoder(), 16);
  stream.linkSamples(SHAPE_SAMPLES);
  return stream;
}

/** Internal (tests): the chunks of the kept stream, read without taking them out of its buffer; null before it is. */
export function keptShapeChunks(): Chunk[] | null {
  const stream = keptBy(keptStream) as LinkStream | null;
  if (stream === null) return null;
  // Node's Readable#readableBuffer (not in its typings): the chunks pushed and not yet read.
  return [...(stream as unknown as { readableBuffer: Iterable<Chunk> }).readableBuffer];
}
