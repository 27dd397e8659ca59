// JSON Lines renderer (one JSON text per line, RFC 8259 + "\n"): one object per chunk, or with `links: true`
// one object per link. Keys come in a fixed order whatever order the chunk objects had: `type` (not with `links:
// true`), `line`, `column`, then the link's fields in DESIGN.md's order, written by linkRow, the one writer of a
// link's JSON fields (`start end byteStart byteEnd text uri iri kind scheme schemeInferred diagnostics`; a text
// chunk has `start end byteStart byteEnd text diagnostics`).
//
// Every object carries `line` and `column` of its start: `line` is 1-based and counts line breaks, where
// `\r\n`, a lone `\n` and a lone `\r` are one break each (so CRLF, LF and old-Mac files number alike, also when
// a chunk ends between `\r` and `\n`); `column` is 1-based in UTF-16 code units from the start of the line,
// like `start`. Both are counted from the chunks' own `start` offsets, so give the renderer every chunk, text
// included (with `links: true` the text is read for counting and not written).
//
// Every JSON text a row of irilink holds is written by jsonlText (below): JSON.stringify's text with U+0085,
// U+2028 and U+2029 escaped, so that no line splitter breaks a row in two.
import { CR, LF, startsLineBreak } from '../breaks.js';
import type { Chunk, LinkChunk } from '../types.js';
import { badArgument } from '../errors.js';
import { readBoolean, readOptions, renderAll, type ChunkRenderer } from './common.js';

export interface JsonlOptions {
  /** One object per link (`line column start end byteStart byteEnd text uri iri kind scheme schemeInferred diagnostics`). */
  links?: boolean;
}

/**
 * A link's own fields as every JSON row of irilink writes them, in DESIGN.md's order (`start end byteStart byteEnd
 * text uri iri kind scheme diagnostics`, with `schemeInferred` after `scheme`): the jsonl renderer's rows, the
 * records of --records and the rows of --logs (src/logs/records.ts), the rows of --mail (src/mail/render.ts).
 * A writer puts its own fields first (`line`, `column`, the message …) and then these, through linkRow.
 * byteStart/byteEnd appear when the input was bytes.
 */
export interface LinkFields {
  start: number;
  end: number;
  byteStart?: number;
  byteEnd?: number;
  text: string;
  uri: string;
  iri: string;
  kind: string;
  scheme: string;
  schemeInferred: boolean;
  diagnostics: string[];
}

/** The fields linkRow reads from a link (start, end and the byte offsets are given to it apart). */
export type LinkValues = Pick<LinkFields, 'text' | 'uri' | 'iri' | 'kind' | 'scheme' | 'schemeInferred'> & { diagnostics?: readonly string[] };

/**
 * The one writer of a link's JSON fields: `lead` (a fresh object holding the row's own leading fields, in their
 * order) gets the link's fields appended in DESIGN.md's order (LinkFields), and is returned, ready for
 * jsonlText. `start`/`end`/`byteStart`/`byteEnd` are given apart, as each writer counts them (over the whole
 * input, or relative to a record); byteStart and byteEnd are left out when undefined, `diagnostics` is [] when
 * absent. A field of `lead` with a LinkFields name would keep its place: give none.
 *
 * @example jsonlText(linkRow({ line: 2, column: 5 }, link, link.start, link.end)) // {"line":2,"column":5,"start":…}
 */
export function linkRow<T extends object>(
  lead: T,
  link: LinkValues,
  start: number,
  end: number,
  byteStart?: number,
  byteEnd?: number,
): T & LinkFields {
  const row = lead as T & LinkFields;
  row.start = start;
  row.end = end;
  if (byteStart !== undefined) row.byteStart = byteStart;
  if (byteEnd !== undefined) row.byteEnd = byteEnd;
  row.text = link.text;
  row.uri = link.uri;
  row.iri = link.iri;
  row.kind = link.kind;
  row.scheme = link.scheme;
  row.schemeInferred = link.schemeInferred;
  row.diagnostics = (link.diagnostics ?? []) as string[];
  return row;
}

// RFC 8259 §7: any character may be written as `\uXXXX` inside a string, and JSON.stringify writes these three raw
// (only U+0000–U+001F, `"` and `\` must be escaped). But Unicode makes them mandatory line breaks (UAX #14: U+2028
// and U+2029 are BK, U+0085 is NL), and tools that split lines so (Python's str.splitlines(), some editors, JavaScript
// source before ES2019) would cut a row in two.
const NEL = '\u0085';
const LS = '\u2028';
const PS = '\u2029';

/**
 * The JSON text of `value` for a JSON Lines row (without its LF): JSON.stringify(value), with U+0085, U+2028 and
 * U+2029 written as the escapes `\u0085` `\u2028` `\u2029`, so that no line splitter finds a line break inside a
 * row; JSON.parse gives the same value back. The one JSON writer of every row irilink writes (toJsonl and the
 * render stream, --records and --logs in src/logs/records.ts, --mail's rows in src/mail/render.ts, the CLI).
 *
 * The escaping maps each character of the JSON text by itself (the three only occur inside strings, never after a
 * lone backslash), so the text of a whole object equals the texts of its pieces joined: a record written in pieces
 * (records.ts, a long line's links as they are found) is byte for byte jsonlText of the whole record.
 * Costs nothing measurable when none of them occurs: three indexOf over the text (on a one-byte string V8 answers
 * U+2028 and U+2029 at once).
 *
 * @example jsonlText({ text: 'a\u2028b' }) // '{"text":"a\\u2028b"}' (JSON.stringify: '{"text":"a\u2028b"}' with it raw)
 */
export function jsonlText(value: object): string {
  const json = JSON.stringify(value);
  if (json.indexOf(LS) < 0 && json.indexOf(PS) < 0 && json.indexOf(NEL) < 0) return json;
  let out = '';
  let last = 0;
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (c === 0x85 || c === 0x2028 || c === 0x2029) {
      out += json.slice(last, i) + (c === 0x85 ? '\\u0085' : c === 0x2028 ? '\\u2028' : '\\u2029');
      last = i + 1;
    }
  }
  return out + json.slice(last);
}

/** The object written for a link with `links: true`: `line` and `column`, then the link's fields (LinkFields). */
export interface JsonlLink extends LinkFields {
  line: number;
  column: number;
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

  /**
   * The function a bad chunk's error names: the plain function, createRenderStream, or `createRenderer().chunk`
   * as checkedRenderer names it for the chunk's other errors.
   */
  private readonly fn: string;

  /** `fn`: the function that options errors name (the plain function, createRenderer or createRenderStream). */
  constructor(options: unknown, fn = 'toJsonl') {
    this.fn = fn === 'createRenderer' ? 'createRenderer().chunk' : fn;
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
    if (chunk.type === 'link') return jsonlText(linkObject(chunk, line, column, this.linksOnly)) + '\n';
    if (this.linksOnly) return '';
    // The fields in the order of a link's row (its `type`, `line`, `column`, then LinkFields' order).
    return (
      jsonlText({
        type: 'text',
        line,
        column,
        start: chunk.start,
        end: chunk.end,
        byteStart: chunk.byteStart,
        byteEnd: chunk.byteEnd,
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

/**
 * Every field a row writes is of its type or absent: JSON.stringify would otherwise write `null` for a NaN offset,
 * `{}` for an object, or throw its own error on a BigInt — a junk field would pass as an answer. (`text` and `type`
 * and `diagnostics` are checked by checkChunk.) Called for every chunk: the fields are read directly, one property read each (a
 * loop over lists of names cost about 3 % of toJsonl).
 */
function checkFields(fn: string, chunk: Chunk): void {
  const { start, end, byteStart, byteEnd } = chunk;
  if (start !== undefined && !Number.isFinite(start)) throw badArgument(fn, 'chunk.start', FINITE, start);
  if (end !== undefined && !Number.isFinite(end)) throw badArgument(fn, 'chunk.end', FINITE, end);
  if (byteStart !== undefined && !Number.isFinite(byteStart)) throw badArgument(fn, 'chunk.byteStart', FINITE, byteStart);
  if (byteEnd !== undefined && !Number.isFinite(byteEnd)) throw badArgument(fn, 'chunk.byteEnd', FINITE, byteEnd);
  if (chunk.type !== 'link') return;
  const { uri, iri, kind, scheme, schemeInferred } = chunk as Partial<LinkChunk>;
  if (uri !== undefined && typeof uri !== 'string') throw badArgument(fn, 'chunk.uri', STRING, uri);
  if (iri !== undefined && typeof iri !== 'string') throw badArgument(fn, 'chunk.iri', STRING, iri);
  if (kind !== undefined && typeof kind !== 'string') throw badArgument(fn, 'chunk.kind', STRING, kind);
  if (scheme !== undefined && typeof scheme !== 'string') throw badArgument(fn, 'chunk.scheme', STRING, scheme);
  if (schemeInferred !== undefined && typeof schemeInferred !== 'boolean') {
    throw badArgument(fn, 'chunk.schemeInferred', 'a boolean or absent', schemeInferred);
  }
}

const FINITE = 'a finite number or absent';
const STRING = 'a string or absent';

function linkObject(link: LinkChunk, line: number, column: number, linksOnly: boolean): object {
  const lead = linksOnly ? { line, column } : { type: 'link', line, column };
  return linkRow(lead, link, link.start, link.end, link.byteStart, link.byteEnd);
}

/** A per-chunk JSON Lines renderer (used by createRenderStream). */
export function createJsonlRenderer(options?: JsonlOptions, fn = 'toJsonl'): ChunkRenderer {
  return new JsonlRenderer(options, fn);
}

/** Render chunks as JSON Lines: one object per chunk (`type` first), or with `links: true` one per link. */
export function toJsonl(chunks: readonly Chunk[], options?: JsonlOptions): string {
  return renderAll('toJsonl', chunks, new JsonlRenderer(options));
}
