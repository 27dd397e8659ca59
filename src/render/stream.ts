// The renderers as object-mode stream stages: Chunk objects in, rendered text out (Buffers, UTF-8; call
// setEncoding('utf8') for strings). Each stage drives the same per-chunk renderer as the plain function, so
// for any split of the chunk array the output is the function's output.
import type { Transform } from 'node:stream';
import type Through2 from 'through2';
import { lazyRequire } from '../lazy.js';
import { badArgument } from '../errors.js';
import { isHighSurrogate } from '../iri/chars.js';
import { createAnsiRenderer, type AnsiOptions } from './ansi.js';
import { checkChunk, checkedRenderer, type ChunkRenderer } from './common.js';
import { createHtmlRenderer, type HtmlOptions } from './html.js';
import { createJsonlRenderer, type JsonlOptions } from './jsonl.js';
import { createMarkdownRenderer, type MarkdownOptions } from './markdown.js';
import { createTextRenderer, type TextOptions } from './text.js';

const through2 = lazyRequire<typeof Through2>('through2');

export type RenderFormat = 'html' | 'markdown' | 'ansi' | 'jsonl' | 'text';

export const RENDER_FORMATS: readonly RenderFormat[] = Object.freeze(['html', 'markdown', 'ansi', 'jsonl', 'text'] as RenderFormat[]);

export interface RenderOptionsByFormat {
  html: HtmlOptions;
  markdown: MarkdownOptions;
  ansi: AnsiOptions;
  jsonl: JsonlOptions;
  text: TextOptions;
}

/**
 * A per-chunk renderer for `format`; options are checked now (TypeError), before any chunk, and so is each chunk
 * given to its chunk() (a TypeError naming createRenderer().chunk).
 */
export function createRenderer<F extends RenderFormat>(format: F, options?: RenderOptionsByFormat[F]): ChunkRenderer;
export function createRenderer(format: string, options?: object): ChunkRenderer;
export function createRenderer(format: string, options?: object): ChunkRenderer {
  return checkedRenderer('createRenderer', rendererFor('createRenderer', format, options));
}

// The renderer of `format`, its option errors naming `fn`.
function rendererFor(fn: string, format: unknown, options: object | undefined): ChunkRenderer {
  switch (format) {
    case 'html': return createHtmlRenderer(options, fn);
    case 'markdown': return createMarkdownRenderer(options, fn);
    case 'ansi': return createAnsiRenderer(options, fn);
    case 'jsonl': return createJsonlRenderer(options, fn);
    case 'text': return createTextRenderer(options, fn);
    default: throw badArgument(fn, 'format', `one of ${RENDER_FORMATS.join(', ')}`, format);
  }
}

/**
 * An object-mode stage: write Chunk objects, read the rendered text. A chunk that is not a chunk fails the
 * stream with a TypeError. A surrogate pair split between two chunks' outputs is held together, so the
 * UTF-8 output never holds a replacement character the function's output would not.
 */
export function createRenderStream<F extends RenderFormat>(format: F, options?: RenderOptionsByFormat[F]): Transform;
export function createRenderStream(format: string, options?: object): Transform;
export function createRenderStream(format: string, options?: object): Transform {
  const renderer = rendererFor('createRenderStream', format, options); // each chunk is checked below
  let held = ''; // a trailing high surrogate waiting for its low half
  const emit = (stream: Transform, rendered: string): void => {
    let out = held + rendered;
    held = '';
    if (out.length > 0 && isHighSurrogate(out.charCodeAt(out.length - 1))) {
      held = out.slice(-1);
      out = out.slice(0, -1);
    }
    if (out.length > 0) stream.push(out);
  };
  return through2()(
    { writableObjectMode: true, readableObjectMode: false },
    function transform(chunk: unknown, _enc, callback) {
      let rendered: string;
      try {
        rendered = renderer.chunk(checkChunk('createRenderStream', chunk));
      } catch (error) {
        callback(error as Error);
        return;
      }
      emit(this, rendered);
      callback();
    },
    function flush(callback) {
      emit(this, renderer.end());
      if (held) this.push(held);
      held = '';
      callback();
    },
  );
}
