// The Markdown mode (issue 6): links in Markdown source, incrementally, with flat memory.
//
// Text is cut into pieces of whole blocks (segment.ts) and each piece is read for links (extract.ts): its segments
// in the common subset by fast.ts, the rest parsed by micromark. Only the current piece is held: memory does not grow with the document, only with its longest
// piece (at most 1 MiB, after which a piece is cut at a line boundary) and its link reference definitions.
// Cutting changes nothing: the links of the pieces are those of one parse of the whole text, except that the stream
// resolves a reference only against definitions seen before it (the whole-text functions read twice when needed).
//
//   push("para https://a.example/\n\n")  → []                            (the piece may still grow)
//   push("# next\n")                      → []
//   end()                                 → [text "para "] [link …] [text "\n\n# next\n"]

import { parse } from 'micromark';
import type { Extension, ParseContext } from 'micromark-util-types';
import { gfmStrikethrough } from 'micromark-extension-gfm-strikethrough';
import { gfmTable } from 'micromark-extension-gfm-table';
import { badArgument } from '../errors.js';
import { createScanner } from '../detect/index.js';
import { appendChunks, textChunk } from '../detect/index.js';
import type { TextChunk } from '../types.js';
import { readPiece } from './extract.js';
import { splitMarkdownOptions, type MarkdownLinkOptions } from './options.js';
import type { MarkdownLink, PieceContext } from './extract.js';
import { BlockTracker, lineEnd, lineEndingLength } from './segment.js';

export type { MarkdownLinkOptions };

/** A Markdown link chunk: a LinkChunk with the construct it came from. */
export type MarkdownLinkChunk = MarkdownLink & { type: 'link' };
export type MarkdownChunk = TextChunk | MarkdownLinkChunk;

/** A piece is cut at the first safe place after this many UTF-16 units (fewer, larger parses are faster). */
const MIN_PIECE_LENGTH = 16 * 1024;
/** Past this length a piece is cut at a line boundary even where no block ends (bounded memory). */
export const DEFAULT_MAX_PIECE_LENGTH = 1 << 20;

const STRIKETHROUGH: Extension = gfmStrikethrough();
const TABLE: Extension = gfmTable();

/**
 * GFM tables: a table needs a delimiter row (`| --- | :-: |`), a line of only `|`, `-`, `:`, spaces and tabs
 * (after container markers) with a `|` and a `-`. Whether the piece has such a line (each line with a `|` is looked at once).
 */
function mayHoldTable(piece: string): boolean {
  for (let bar = piece.indexOf('|'); bar >= 0; ) {
    let a = bar;
    while (a > 0 && piece.charCodeAt(a - 1) !== 0x0a && piece.charCodeAt(a - 1) !== 0x0d) a--;
    let dash = false;
    let i = a;
    for (; i < piece.length; i++) {
      const c = piece.charCodeAt(i);
      if (c === 0x0a || c === 0x0d) break;
      if (c === 0x2d) dash = true;
      // Also what may stand before it in a container: `>`, `*`, `+`, `1.`, `1)`.
      else if (!(c === 0x7c || c === 0x3a || c === 0x20 || c === 0x09 || c === 0x3e || c === 0x2a || c === 0x2b || c === 0x2e || c === 0x29 || (c >= 0x30 && c <= 0x39))) break;
    }
    if (dash && (i === piece.length || piece.charCodeAt(i) === 0x0a || piece.charCodeAt(i) === 0x0d)) return true;
    // Next line with a `|`.
    while (i < piece.length && piece.charCodeAt(i) !== 0x0a && piece.charCodeAt(i) !== 0x0d) i++;
    bar = piece.indexOf('|', i);
  }
  return false;
}

/**
 * GFM parsers chosen per piece: a table needs a `|`, strikethrough a `~`, and a piece without them is parsed without
 * the extension (micromark is faster without them). All share one `defined` list of reference labels.
 */
function gfmParsers(base: ParseContext): (piece: string) => ParseContext {
  const parsers: (ParseContext | undefined)[] = [undefined, undefined, undefined, base];
  return (piece) => {
    const k = (mayHoldTable(piece) ? 2 : 0) + (piece.includes('~') ? 1 : 0);
    let parser = parsers[k];
    if (parser === undefined) {
      const extensions = k === 2 ? [TABLE] : k === 1 ? [STRIKETHROUGH] : [];
      parser = parse({ extensions });
      parser.defined = base.defined;
      parsers[k] = parser;
    }
    return parser;
  };
}

/**
 * Incremental link detection over Markdown source that arrives in pieces: the same shape as src/stream's
 * Linkifier (push/end), so createLinkStream can use it for `markdown: true`.
 * A reference link resolves against the definitions seen so far (the whole-text functions see them all).
 */
export class MarkdownLinkifier {
  private readonly ctx: PieceContext;
  private readonly tracker = new BlockTracker();
  /** Text from stream offset `base` on: the current piece, and the start of the next line not yet read. */
  private buf = '';
  private base = 0;
  private lineStart = 0;
  /** A fence or HTML block opener replayed before the current piece after a forced cut. */
  private prefix = '';
  private ended = false;
  private pieces = 0;
  /** A piece after the first defined a new reference label (an earlier piece may have used it). */
  definedLate = false;
  private readonly maxPieceLength: number;

  /** `preload` (used by the whole-text functions): link reference definitions known from the start. */
  constructor(options?: MarkdownLinkOptions, preload?: ReadonlyMap<string, string>) {
    const { gfm, link } = splitMarkdownOptions('MarkdownLinkifier', options);
    const parser = parse(gfm ? { extensions: [STRIKETHROUGH, TABLE] } : {});
    const definitions = new Map<string, string>();
    if (preload !== undefined) {
      for (const [label, destination] of preload) {
        definitions.set(label, destination);
        parser.defined.push(label);
      }
    }
    const scanner = createScanner(link);
    this.ctx = {
      parser,
      parserFor: gfm ? gfmParsers(parser) : undefined,
      scanner,
      definitions,
      documentCharset: link?.documentCharset,
      definitionsLinked: new Set(),
      gfm,
    };
    this.maxPieceLength = Math.max(link?.maxLinkLength ?? 0, DEFAULT_MAX_PIECE_LENGTH);
  }

  /** UTF-16 code units held back (the current piece), for callers that watch memory. */
  get pending(): number {
    return this.buf.length;
  }

  /** The link reference definitions seen so far (normalised label → destination). */
  get definitions(): ReadonlyMap<string, string> {
    return this.ctx.definitions;
  }

  /** Adds text; returns the chunks that are now final (possibly none). */
  push(text: string): MarkdownChunk[] {
    if (typeof text !== 'string') throw badArgument('MarkdownLinkifier.push', 'text', 'a string', text);
    if (this.ended) throw new TypeError('irilink: MarkdownLinkifier.push() called after end()');
    if (text.length === 0) return [];
    this.buf = this.buf.length === 0 ? text : this.buf + text;
    const out: MarkdownChunk[] = [];
    this.advance(false, out);
    return out;
  }

  /** Ends the input; returns the remaining chunks. */
  end(): MarkdownChunk[] {
    if (this.ended) return [];
    this.ended = true;
    const out: MarkdownChunk[] = [];
    this.advance(true, out);
    if (this.buf.length > 0) this.emit(this.buf.length, out, false);
    return out;
  }

  private advance(final: boolean, out: MarkdownChunk[]): void {
    for (;;) {
      const e = lineEnd(this.buf, this.lineStart);
      if (e < 0) break;
      const n = lineEndingLength(this.buf, e, final);
      if (n === 0) break;
      if (this.lineStart >= MIN_PIECE_LENGTH && this.lineStart > 0 && this.tracker.canCutBefore(this.buf, this.lineStart, e)) {
        if (this.emit(this.lineStart, out, true)) continue; // the line now starts the buffer
      }
      const s = this.lineStart;
      this.tracker.line(this.buf, s, e);
      this.lineStart = e + n;
      if (this.lineStart >= this.maxPieceLength) {
        // Deviation (bounded memory): no block ended within maxPieceLength; cut at this line, and replay an open
        // fence's or HTML block's first line before the next piece so that it stays code or HTML.
        this.emit(this.lineStart, out, false);
      }
    }
    if (!final && this.buf.length - this.lineStart >= this.maxPieceLength) {
      // Deviation (bounded memory): one line longer than maxPieceLength is cut inside (never inside a surrogate pair).
      let cut = this.buf.length;
      const c = this.buf.charCodeAt(cut - 1);
      if (c >= 0xd800 && c <= 0xdbff) cut--;
      this.emit(cut, out, false);
    }
  }

  /**
   * Parses buf[0, cut) as one piece and releases its chunks. With `check` (a cut the tracker proposed), a piece that
   * ends inside an open fence or HTML block is not released: the tracker takes the parser's word, and false is
   * returned. Otherwise (a forced cut, the end) an open block's first line is replayed before the next piece.
   */
  private emit(cut: number, out: MarkdownChunk[], check: boolean): boolean {
    const prefix = this.prefix;
    const piece = prefix.length === 0 ? this.buf.slice(0, cut) : prefix + this.buf.slice(0, cut);
    const base = this.base - prefix.length;
    const defined = this.ctx.definitions.size;
    const result = readPiece(this.ctx, piece, prefix.length, base, check);
    if (check && result.open !== undefined) {
      this.tracker.reopen(result.open);
      return false;
    }
    const { links, unlinked } = result;
    if (this.pieces++ > 0 && this.ctx.definitions.size > defined) this.definedLate = true;
    const pos = appendChunks(out, this.buf, this.base, this.base, links, unlinked, toLinkChunk);
    if (this.base + cut > pos) out.push(textChunk(this.buf, this.base, pos, this.base + cut));
    this.buf = this.buf.slice(cut);
    this.base += cut;
    this.lineStart = Math.max(0, this.lineStart - cut);
    // Deviation (bounded memory): a block cut by force goes on in the next piece as the same kind of block.
    this.prefix = result.open === undefined ? '' : result.open + '\n';
    return true;
  }
}

/** A Markdown link as a chunk: its own fields (construct, destination) kept. */
function toLinkChunk(link: MarkdownLink): MarkdownLinkChunk {
  return { type: 'link', ...link };
}

function whole(fn: string, source: string, options: MarkdownLinkOptions | undefined): MarkdownChunk[] {
  if (typeof source !== 'string') throw badArgument(fn, 'source', 'a string', source);
  splitMarkdownOptions(fn, options); // an options error names `fn`, not the MarkdownLinkifier used below
  const first = new MarkdownLinkifier(options);
  const chunks = [...first.push(source), ...first.end()];
  // CommonMark §4.7: a definition may come after its use. When a later piece defined a label an earlier piece
  // may have used, read the text again with every definition known from the start.
  if (first.definedLate) {
    const second = new MarkdownLinkifier(options, first.definitions);
    return [...second.push(source), ...second.end()];
  }
  return chunks;
}

/**
 * Splits Markdown `source` into text and link chunks that cover it exactly, in order. Links are the destinations
 * of links, images, definitions and autolinks (construct says which) and the bare links of its text (construct
 * 'bare'); nothing in code or HTML is linked, nothing is linked twice.
 * @example linkifyMarkdown('**https://例え.jp/**').map((c) => c.text) // ['**', 'https://例え.jp/', '**']
 */
export function linkifyMarkdown(source: string, options?: MarkdownLinkOptions): MarkdownChunk[] {
  return whole('linkifyMarkdown', source, options);
}

/**
 * The links of Markdown `source`, in order; [] when there are none.
 * @example findMarkdownLinks('[docs](https://例え.jp/パス)')[0].uri // 'https://xn--r8jz45g.jp/%E3%83%91%E3%82%B9'
 */
export function findMarkdownLinks(source: string, options?: MarkdownLinkOptions): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  for (const chunk of whole('findMarkdownLinks', source, options)) {
    if (chunk.type === 'link') {
      const { type: _type, ...link } = chunk;
      links.push(link);
    }
  }
  return links;
}
