// The Markdown mode (issue 6): links in Markdown source, incrementally, with flat memory.
//
// Text is cut into pieces of whole blocks (segment.ts) and each piece is read for links (extract.ts): its segments
// in the common subset by fast.ts, the rest parsed by micromark. Only the current piece is held: memory does not grow with the document, only with its longest
// piece (at most 1 MiB, after which a piece is cut at a line boundary, or inside a longer line at a place its text
// decides) and its link reference definitions.
// Cutting changes nothing: the links of the pieces are those of one parse of the whole text, except that the stream
// resolves a reference only against definitions seen before it (the whole-text functions read twice when needed).
//
//   push("para https://a.example/\n\n")  → []                            (the piece may still grow)
//   push("# next\n")                      → []
//   end()                                 → [text "para "] [link …] [text "\n\n# next\n"]

import { parse } from 'micromark';
import type { Extension, ParseContext, TokenizeContext } from 'micromark-util-types';
import { gfmStrikethrough } from 'micromark-extension-gfm-strikethrough';
import { gfmTable } from 'micromark-extension-gfm-table';
import { badArgument } from '../errors.js';
import { createScanner } from '../detect/index.js';
import { appendChunks, EmbeddingTracker, textChunk } from '../detect/index.js';
import type { TextChunk } from '../types.js';
import { readPiece } from './extract.js';
import { splitMarkdownOptions, type MarkdownLinkOptions } from './options.js';
import type { MarkdownLink, PieceContext } from './extract.js';
import { BlockTracker, lineEnd } from './segment.js';

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
 * A micromark parser (with `extensions`) that reads a list item after indented code as CommonMark does.
 *
 * CommonMark 0.31 §5.2: a list item must start with 1, and not with a blank line, only when it interrupts a
 * paragraph; indented code (§4.4) is no paragraph, and it ends at the first line indented under 4 columns. So
 * `    code␤␤2) item` is code, then a list starting at 2 (as the reference parser, commonmark.js, reads it).
 * micromark 4.0.3 deviates (https://github.com/micromark/micromark/pull/228, open): its document tokenizer takes a
 * line as interrupting whenever the flow has a construct open, and indented code stays open over the lines after it
 * while it looks for more code; so it reads `2) item`, `10. item` and an empty `-` there as paragraph text. It skips
 * that rule while the flow tokenizer's `_gfmTableDynamicInterruptHack` is true: here, exactly while indented code is
 * the open construct. (segment.ts cuts pieces and segments before such a line: each must read as the whole text
 * does. test/markdown-fastpath.test.ts fails if a micromark update drops the field.)
 */
export function createParser(extensions: Extension[]): ParseContext {
  const parser = parse({ extensions });
  const flow = parser.flow;
  parser.flow = (from) => Object.defineProperty(flow(from), '_gfmTableDynamicInterruptHack', { get: codeIndentedOpen });
  return parser;
}

/**
 * The flow tokenizer's interrupt exemption: indented code is its open construct. (One getter for every tokenizer:
 * a getter made per tokenizer gave each a shape of its own, and micromark's tokenizer code slowed by a few per cent.)
 */
function codeIndentedOpen(this: TokenizeContext): boolean {
  return this.currentConstruct?.name === 'codeIndented';
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
      parser = createParser(extensions);
      parser.defined = base.defined;
      parsers[k] = parser;
    }
    return parser;
  };
}

/** For tests only: a smaller cap than DEFAULT_MAX_PIECE_LENGTH for linkifiers created afterwards (undefined restores it). */
let maxPieceLengthOverride: number | undefined;
export function setMaxPieceLength(length: number | undefined): void {
  maxPieceLengthOverride = length;
}

const LF = 0x0a;
const CR = 0x0d;

function isSpaceOrTab(c: number): boolean {
  return c === 0x20 || c === 0x09;
}

/**
 * Incremental link detection over Markdown source that arrives in pieces: the same shape as src/stream's
 * Linkifier (push/end), so createLinkStream can use it for `markdown: true`.
 * A reference link resolves against the definitions seen so far (the whole-text functions see them all).
 *
 * Each written character is looked at once when it arrives: complete lines of the current piece are held as an
 * array (joined once, when the piece is read), and the line still being written as the parts it came in (joined
 * when it ends). So the work of a push is proportional to its text, whatever the size of the writes.
 */
export class MarkdownLinkifier {
  private readonly ctx: PieceContext;
  private readonly tracker = new BlockTracker();
  /** The complete lines (with their line endings) of the current piece, from stream offset `base` on. */
  private lines: string[] = [];
  /** Their total length. */
  private held = 0;
  /** The line being written after them (its text so far, without a line ending), in the parts it came in. */
  private cur: string[] = [];
  private curLength = 0;
  /** The last character written was a CR ending the current line: LF may follow (CR LF) or not (CR alone). */
  private pendingCR = false;
  private base = 0;
  /** A fence or HTML block opener replayed before the current piece after a forced cut. */
  private prefix = '';
  private ended = false;
  private pieces = 0;
  /** A piece after the first defined a new reference label (an earlier piece may have used it). */
  definedLate = false;
  private readonly maxPieceLength: number;
  /**
   * `bidi-embedded` (src/detect/embedding.ts): the pushes noted, the released chunks marked; Markdown rules (a line
   * end inside a paragraph is a space once rendered: only a blank line closes an override).
   */
  private readonly embedding = new EmbeddingTracker(true);

  constructor(options?: MarkdownLinkOptions) {
    const { gfm, link } = splitMarkdownOptions('MarkdownLinkifier', options);
    const parser = createParser(gfm ? [STRIKETHROUGH, TABLE] : []);
    const definitions = new Map<string, string>();
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
    this.maxPieceLength = Math.max(link?.maxLinkLength ?? 0, maxPieceLengthOverride ?? DEFAULT_MAX_PIECE_LENGTH);
  }

  /** UTF-16 code units held back (the current piece), for callers that watch memory. */
  get pending(): number {
    return this.held + this.curLength + (this.pendingCR ? 1 : 0);
  }

  /**
   * Link reference definitions known from the start (the whole-text functions' second reading, with the first
   * reading's `definitions`), given before any text.
   * @internal
   */
  preload(definitions: ReadonlyMap<string, string>): this {
    for (const [label, destination] of definitions) {
      this.ctx.definitions.set(label, destination);
      this.ctx.parser.defined.push(label);
    }
    return this;
  }

  /** The link reference definitions seen so far (normalised label → destination). */
  get definitions(): ReadonlyMap<string, string> {
    return this.ctx.definitions;
  }

  /** Adds text; returns the chunks that are now final (possibly none). */
  push(text: string): MarkdownChunk[] {
    if (typeof text !== 'string') throw badArgument('MarkdownLinkifier.push', 'text', 'a string', text);
    return this.add(text, false);
  }

  /**
   * push() of text known to hold no explicit bidi embedding, override or isolate control when `bidiFree` (the UTF-8
   * decoder tested its bytes; createLinkStream uses it). Internal.
   * @internal
   */
  pushFlat(text: string, bidiFree = false): MarkdownChunk[] {
    if (typeof text !== 'string') throw badArgument('MarkdownLinkifier.push', 'text', 'a string', text);
    return this.add(text, bidiFree);
  }

  private add(text: string, bidiFree: boolean): MarkdownChunk[] {
    if (this.ended) throw new TypeError('irilink: MarkdownLinkifier.push() called after end()');
    if (text.length === 0) return [];
    // A character reference to a control (`&#x202E;`) is one once rendered where the parse says it is decoded
    // (PieceResult.references, EmbeddingState.walkMarkdown): a piece holding `&#`, or ending in `&` (the `#` in the
    // next piece), may hold one however its bytes tested.
    this.embedding.note(text.length, !bidiFree || text.indexOf('&#') >= 0 || text.charCodeAt(text.length - 1) === 0x26);
    const out = this.addNoted(text);
    this.embedding.mark(out);
    return out;
  }

  private addNoted(text: string): MarkdownChunk[] {
    const out: MarkdownChunk[] = [];
    let i = 0;
    if (this.pendingCR) {
      // CommonMark §2.1: a line ending is LF, CR, or CR LF.
      this.pendingCR = false;
      if (text.charCodeAt(0) === LF) {
        this.endLine('\r\n', out);
        i = 1;
      } else {
        this.endLine('\r', out);
      }
    }
    while (i < text.length) {
      const e = lineEnd(text, i);
      if (e < 0) {
        this.addText(i === 0 ? text : text.slice(i), out);
        break;
      }
      if (e > i) this.addText(text.slice(i, e), out);
      if (text.charCodeAt(e) === CR) {
        if (e + 1 === text.length) {
          this.pendingCR = true;
          break;
        }
        const n = text.charCodeAt(e + 1) === LF ? 2 : 1;
        this.endLine(n === 2 ? '\r\n' : '\r', out);
        i = e + n;
      } else {
        this.endLine('\n', out);
        i = e + 1;
      }
    }
    return out;
  }

  /** Ends the input; returns the remaining chunks. */
  end(): MarkdownChunk[] {
    const out: MarkdownChunk[] = [];
    if (this.ended) return out;
    this.ended = true;
    if (this.pendingCR) {
      this.pendingCR = false;
      this.endLine('\r', out);
    }
    if (this.curLength > 0) this.lines.push(this.takeLine());
    if (this.held + this.curLength > 0 || this.lines.length > 0) {
      const rest = this.lines.join('');
      this.lines = [];
      this.held = 0;
      this.curLength = 0;
      if (rest.length > 0) this.emit(rest, out, false);
    }
    this.embedding.mark(out);
    return out;
  }

  /** The current line's text so far, as one string (its parts released). */
  private takeLine(): string {
    const line = this.cur.length === 1 ? this.cur[0]! : this.cur.join('');
    this.cur = [];
    this.curLength = 0;
    return line;
  }

  /** Adds text without a line ending to the current line. */
  private addText(text: string, out: MarkdownChunk[]): void {
    this.cur.push(text);
    this.curLength += text.length;
    while (this.curLength > this.maxPieceLength) this.cutInLine(out);
  }

  /**
   * Deviation (bounded memory): a line longer than maxPieceLength is cut inside. The cut is placed by the text
   * alone, never where a write ended (the chunks do not depend on how the text was split): after the last space or
   * tab followed by a non-blank in the second half of the first maxPieceLength units of the line, or else at
   * maxPieceLength (never inside a surrogate pair).
   */
  private cutInLine(out: MarkdownChunk[]): void {
    const line = this.takeLine();
    const max = this.maxPieceLength;
    let cut = max;
    for (let k = max; k > max >> 1; k--) {
      if (isSpaceOrTab(line.charCodeAt(k - 1)) && !isSpaceOrTab(line.charCodeAt(k))) {
        cut = k;
        break;
      }
    }
    if (cut === max) {
      const c = line.charCodeAt(cut - 1);
      if (c >= 0xd800 && c <= 0xdbff) cut--;
    }
    this.lines.push(line.slice(0, cut));
    const piece = this.lines.join('');
    this.lines = [];
    this.held = 0;
    this.emit(piece, out, false);
    const rest = line.slice(cut);
    this.cur = [rest];
    this.curLength = rest.length;
  }

  /** The current line ends with `ending`: a piece may end before it, and it joins the piece. */
  private endLine(ending: string, out: MarkdownChunk[]): void {
    const content = this.takeLine();
    const line = content + ending;
    const e = content.length;
    if (this.held >= MIN_PIECE_LENGTH && this.tracker.canCutBefore(line, 0, e)) {
      const piece = this.lines.join('');
      if (this.emit(piece, out, true)) {
        this.lines = [];
        this.held = 0;
      } else {
        this.lines = [piece];
      }
    }
    this.tracker.line(line, 0, e);
    this.lines.push(line);
    this.held += line.length;
    if (this.held >= this.maxPieceLength) {
      // Deviation (bounded memory): no block ended within maxPieceLength; cut at this line, and replay an open
      // fence's or HTML block's first line before the next piece so that it stays code or HTML.
      const piece = this.lines.join('');
      this.lines = [];
      this.held = 0;
      this.emit(piece, out, false);
    }
  }

  /**
   * Reads `text` (the stream from offset `base` on) as one piece and releases its chunks. With `check` (a cut the
   * tracker proposed), a piece that ends inside an open fence or HTML block is not released: the tracker takes the
   * parser's word, and false is returned. Otherwise (a forced cut, the end) an open block's first line is replayed
   * before the next piece.
   */
  private emit(text: string, out: MarkdownChunk[], check: boolean): boolean {
    const prefix = this.prefix;
    const piece = prefix.length === 0 ? text : prefix + text;
    const base = this.base - prefix.length;
    const defined = this.ctx.definitions.size;
    const result = readPiece(this.ctx, piece, prefix.length, base, check);
    if (check && result.open !== undefined) {
      this.tracker.reopen(result.open);
      return false;
    }
    const { links, unlinked } = result;
    this.embedding.decodedReferences(result.references);
    this.embedding.unshownLinks(result.unshown);
    if (this.pieces++ > 0 && this.ctx.definitions.size > defined) this.definedLate = true;
    const end = this.base + text.length;
    const pos = appendChunks(out, text, this.base, this.base, links, unlinked, toLinkChunk);
    if (end > pos) out.push(textChunk(text, this.base, pos, end));
    this.base = end;
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
    const second = new MarkdownLinkifier(options).preload(first.definitions);
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
