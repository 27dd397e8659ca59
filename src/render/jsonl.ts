// JSON Lines renderer (one JSON text per line, RFC 8259 + "\n"): one object per chunk, or with `links: true`
// one object per link. Keys come in a fixed order whatever order the chunk objects had.
//
// Every object carries `line` and `column` of its start: `line` is 1-based and counts line breaks, where
// `\r\n`, a lone `\n` and a lone `\r` are one break each (so CRLF, LF and old-Mac files number alike, also when
// a chunk ends between `\r` and `\n`); `column` is 1-based in UTF-16 code units from the start of the line,
// like `start`. Both are counted from the chunks' own `start` offsets, so give the renderer every chunk, text
// included (with `links: true` the text is read for counting and not written).
import { CR, LF, startsLineBreak } from '../breaks.js';
import type { Chunk, LinkChunk } from '../types.js';
import { badArgument } from '../errors.js';
import { readBoolean, readOptions, renderAll, type ChunkRenderer } from './common.js';

export interface JsonlOptions {
  /** One object per link (`start end byteStart byteEnd line column text uri iri kind scheme schemeInferred diagnostics`). */
  links?: boolean;
}

/** The object written for a link with `links: true`. byteStart/byteEnd appear when the input was bytes. */
export interface JsonlLink {
  start: number;
  end: number;
  byteStart?: number;
  byteEnd?: number;
  line: number;
  column: number;
  text: string;
  uri: string;
  iri: string;
  kind: string;
  scheme: string;
  schemeInferred: boolean;
  diagnostics: string[];
}

// Every row carries text, uri and iri, and no link is made clickable: `display` and `schemes` have no meaning here.
const JSONL_OPTION_NAMES: readonly string[] = ['links'];

class JsonlRenderer implements ChunkRenderer {
  private readonly linksOnly: boolean;
  private line = 1;
  /** UTF-16 offset (over the whole input) where the current line starts. */
  private lineStart = 0;
  /** The last code unit seen was `\r`: a `\n` now belongs to the same break. */
  private afterCr = false;
  /** Where the line before the current one started (for a chunk that starts with the `\n` of a `\r\n`). */
  private previousLineStart = 0;

  /** `fn`: the function that options errors name (the plain function, createRenderer or createRenderStream). */
  private readonly fn: string;

  constructor(options: unknown, fn = 'toJsonl') {
    this.fn = fn;
    const o = readOptions(fn, options, JSONL_OPTION_NAMES);
    this.linksOnly = readBoolean('links', o.links, false);
  }

  chunk(chunk: Chunk): string {
    checkFields(this.fn, chunk);
    const start = typeof chunk.start === 'number' ? chunk.start : this.lineStart;
    // A chunk that starts with the `\n` of a `\r\n` starts on the line that break ends.
    const inBreak = this.afterCr && chunk.text.charCodeAt(0) === 0x0a;
    const line = inBreak ? this.line - 1 : this.line;
    const column = start - (inBreak ? this.previousLineStart : this.lineStart) + 1;
    this.count(chunk.text, start);
    if (chunk.type === 'link') return JSON.stringify(linkObject(chunk, line, column, this.linksOnly)) + '\n';
    if (this.linksOnly) return '';
    return (
      JSON.stringify({
        type: 'text',
        start: chunk.start,
        end: chunk.end,
        byteStart: chunk.byteStart,
        byteEnd: chunk.byteEnd,
        line,
        column,
        text: chunk.text,
        diagnostics: chunk.diagnostics ?? [],
      }) + '\n'
    );
  }

  end(): string {
    return '';
  }

  // Advance the line counter over `text`, which starts at offset `start`.
  private count(text: string, start: number): void {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (startsLineBreak(c, this.afterCr)) {
        this.line++;
        this.previousLineStart = this.lineStart;
      }
      if (c === CR || c === LF) this.lineStart = start + i + 1;
      this.afterCr = c === CR;
    }
  }
}

const NUMBER_FIELDS = ['start', 'end', 'byteStart', 'byteEnd'] as const;
const STRING_FIELDS = ['uri', 'iri', 'kind', 'scheme'] as const;

/**
 * Every field a row writes is of its type or absent: JSON.stringify would otherwise write `null` for a NaN offset,
 * `{}` for an object, or throw its own error on a BigInt — a junk field would pass as an answer. (`text` and `type`
 * are checked by checkChunk.)
 */
function allStrings(list: readonly unknown[]): boolean {
  for (let i = 0; i < list.length; i++) if (typeof list[i] !== 'string') return false; // holes too
  return true;
}

function checkFields(fn: string, chunk: Chunk): void {
  const c = chunk as unknown as Record<string, unknown>;
  for (const name of NUMBER_FIELDS) {
    const v = c[name];
    if (v !== undefined && !(typeof v === 'number' && Number.isFinite(v))) throw badArgument(fn, `chunk.${name}`, 'a finite number or absent', v);
  }
  const d = c.diagnostics;
  if (d !== undefined && !(Array.isArray(d) && allStrings(d))) {
    throw badArgument(fn, 'chunk.diagnostics', 'an array of diagnostic codes or absent', d);
  }
  if (chunk.type !== 'link') return;
  for (const name of STRING_FIELDS) {
    const v = c[name];
    if (v !== undefined && typeof v !== 'string') throw badArgument(fn, `chunk.${name}`, 'a string or absent', v);
  }
  const inferred = c.schemeInferred;
  if (inferred !== undefined && typeof inferred !== 'boolean') throw badArgument(fn, 'chunk.schemeInferred', 'a boolean or absent', inferred);
}

function linkObject(link: LinkChunk, line: number, column: number, linksOnly: boolean): object {
  const fields: JsonlLink = {
    start: link.start,
    end: link.end,
    byteStart: link.byteStart,
    byteEnd: link.byteEnd,
    line,
    column,
    text: link.text,
    uri: link.uri,
    iri: link.iri,
    kind: link.kind,
    scheme: link.scheme,
    schemeInferred: link.schemeInferred,
    diagnostics: link.diagnostics ?? [],
  };
  return linksOnly ? fields : { type: 'link', ...fields };
}

/** A per-chunk JSON Lines renderer (used by createRenderStream). */
export function createJsonlRenderer(options?: JsonlOptions, fn = 'toJsonl'): ChunkRenderer {
  return new JsonlRenderer(options, fn);
}

/** Render chunks as JSON Lines: one object per chunk (`type` first), or with `links: true` one per link. */
export function toJsonl(chunks: readonly Chunk[], options?: JsonlOptions): string {
  return renderAll('toJsonl', chunks, new JsonlRenderer(options));
}
