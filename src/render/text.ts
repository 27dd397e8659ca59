// Plain-text renderer: the input unchanged (every chunk's text, DESIGN.md "Lossless"), or each link rewritten
// to another of its forms, or with `links: true` the links alone, one per line.
import type { Chunk } from '../types.js';
import { displayText, readBoolean, readDisplay, readOptions, renderAll, type ChunkRenderer, type Display } from './common.js';

export interface TextOptions {
  /**
   * What a link is written as: its original `text` (default, so the output is the input), its `iri` (without
   * an inferred scheme, as in the other renderers), or its `uri`.
   */
  display?: 'text' | 'iri' | 'uri';
  /** Only the links, one per line. */
  links?: boolean;
}

// Every link is written as text, clickable or not, so `schemes` has no meaning here.
const TEXT_OPTION_NAMES: readonly string[] = ['display', 'links'];

class TextRenderer implements ChunkRenderer {
  private readonly display: Display;
  private readonly linksOnly: boolean;

  /** `fn`: the function that options errors name (the plain function, createRenderer or createRenderStream). */
  constructor(options: unknown, fn = 'toText') {
    const o = readOptions(fn, options, TEXT_OPTION_NAMES);
    this.display = readDisplay(o.display);
    this.linksOnly = readBoolean('links', o.links, false);
  }

  chunk(chunk: Chunk): string {
    if (chunk.type === 'text') return this.linksOnly ? '' : chunk.text;
    const shown = displayText(chunk, this.display);
    return this.linksOnly ? shown + '\n' : shown;
  }

  end(): string {
    return '';
  }
}

/** A per-chunk plain-text renderer (used by createRenderStream). */
export function createTextRenderer(options?: TextOptions, fn = 'toText'): ChunkRenderer {
  return new TextRenderer(options, fn);
}

/** The chunks as plain text: the input itself by default (see TextOptions). */
export function toText(chunks: readonly Chunk[], options?: TextOptions): string {
  return renderAll('toText', chunks, new TextRenderer(options));
}
