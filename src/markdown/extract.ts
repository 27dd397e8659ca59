// One piece of Markdown → its links, from the events of the micromark parser (CommonMark 0.31, plus GFM tables and
// strikethrough when asked).
//
// What becomes a link, and where its chunk lies (its `text` is always exactly the source slice):
//   [text](<dest> "title")   construct 'link'            the destination as written, without its <…>
//   ![alt](dest)             construct 'image'           the destination
//   [text][label]            construct 'link-reference'  `label` — the destination is written in its definition
//   [label][] / [label]      construct 'link-reference'  the label text (links nested in it are dropped)
//   ![alt][label] …          construct 'image-reference' as for links
//   [label]: dest "title"    construct 'definition'      the destination
//   <https://a.example/>     construct 'autolink'        what lies between < and >
//   plain text               construct 'bare'            the UTS #58 detection over the text as shown, as findLinks
// Bare links are looked for only in runs of plain text (the parser's `data`): never in code spans, code blocks,
// HTML blocks or inline HTML, never inside a link's or image's text, destination or title, a definition or an
// autolink. Emphasis and strikethrough delimiters and line endings end a run, so `**https://x/**` links
// `https://x/`; backslash escapes and character references do not: the run is read as shown, no link holds an
// escaped character, and a link may hold a reference (PieceReader.escape and .reference, escapes.ts), so
// `pay&#112;al.com/login` links what it shows, `paypal.com/login`; its `text` is the source it spans, its
// `destination` the text shown. What the detector finds shaped like a link but leaves unlinked in that plain
// text (ScanResult.unlinked: an http(s) URL with userinfo and no password, issue 7) is reported as in plain mode:
// PieceResult.unlinked, which the linkifier turns into a text chunk of its own with the span's diagnostics.
//
// Each piece is cut again into segments (segment.ts): those fast.ts reads are not parsed; the others are parsed by
// micromark in stretches (readPieceFast). test/markdown-fastpath.test.ts holds both ways to the same chunks.

import { decodeString } from 'micromark-util-decode-string';
import { normalizeIdentifier } from 'micromark-util-normalize-identifier';
import type { Event, ParseContext } from 'micromark-util-types';
import { postprocess, preprocess } from 'micromark';
import { codePointBefore, isHostDot } from '../detect/chars.js';
import { controlReference } from '../detect/embedding.js';
import type { Scanner, UnlinkedSpan } from '../detect/index.js';
import { NEVER_SCHEMES } from '../detect/index.js';
import { detached } from '../memo.js';
import type { Link } from '../types.js';
import { destinationLink } from './convert.js';
import {
  codeSpanContentStart,
  codeSpanText,
  delimitersBefore,
  endsRun,
  flagGluedByMarkup,
  flagGluedInUnparsed,
  flagHiddenSplit,
  glued,
  headOf,
  NOT_GLUED,
  onlyHiddenMarkup,
  shownRunLinks,
  tailOf,
} from './escapes.js';
import { fastSegment, openFenceLine } from './fast.js';
import { tooCostlyToParse, tooManyEdits, tooManyLazyLines } from './hostile.js';
import type { FastContext, FastItem } from './fast.js';
import { BlockTracker, lineEnd, lineEndingLength } from './segment.js';

/** How a Markdown link was written. */
export type MarkdownConstruct =
  | 'bare'
  | 'link'
  | 'image'
  | 'link-reference'
  | 'image-reference'
  | 'definition'
  | 'autolink';

/** A link found in Markdown: a Link, plus the construct it came from. */
export interface MarkdownLink extends Link {
  construct: MarkdownConstruct;
  /**
   * The destination as Markdown defines it: backslash escapes and entity references decoded, `mailto:` before an
   * email autolink's address; for a bare link, its text. `uri` is this through RFC 3987 §3.1 (and UTS #46 hosts).
   */
  destination: string;
}

/** What the pieces of one document share. */
export interface PieceContext {
  /** Reused for every piece: its `defined` list tells the parser which reference labels exist. */
  readonly parser: ParseContext;
  /** When set, the parser for a given piece (parsers sharing one `defined` list, with fewer extensions). */
  readonly parserFor?: (piece: string) => ParseContext;
  readonly scanner: Scanner;
  /** Normalised label → decoded destination; the first definition of a label wins (CommonMark §4.7). */
  readonly definitions: Map<string, string>;
  readonly documentCharset: string | undefined;
  /** Labels whose (first) definition has been read: a later definition of the label is no link. */
  readonly definitionsLinked: Set<string>;
  /** GFM or plain CommonMark, when the fast path (fast.ts) may be used; unset: micromark reads every piece. */
  readonly gfm?: boolean;
}

/** Units of the last text shown kept for hidden-split: two code points and a run of invisible characters before them. */
const SHOWN_TAIL = 16;

/**
 * The last SHOWN_TAIL units of `before` + `text`. (Not (before + text).slice(…): that would copy all of a long text,
 * once per run.)
 */
function lastUnits(before: string, text: string): string {
  return text.length >= SHOWN_TAIL ? text.slice(-SHOWN_TAIL) : (before + text).slice(-SHOWN_TAIL);
}

/** Left context given to the scanner before a run of text (P1, P4, P6 and P3 look back a few units). */
const RUN_CONTEXT = 64;

/** Tokens whose content is never scanned for bare links. */
const OPAQUE = new Set([
  'codeText', 'codeFenced', 'codeIndented', 'htmlFlow', 'htmlText', 'autolink', 'link', 'image', 'definition',
]);

/**
 * Tokens whose character references are decoded but never shown as text (CommonMark §6.3 a destination or a title,
 * §6.4 an image's description, which is its `alt`, §4.7 a definition, the label of a full reference `[x][label]`,
 * §4.5 a fence's info string): a reference to a bidi control there opens or closes nothing once rendered.
 */
const UNSHOWN = ['resourceDestination', 'resourceTitle', 'image', 'definition', 'reference', 'codeFencedFence'];

/** The parts of a character reference's token (CommonMark §2.5). */
const REFERENCE_PARTS = new Set([
  'characterReferenceMarker', 'characterReferenceMarkerNumeric', 'characterReferenceMarkerHexadecimal', 'characterReferenceValue',
]);

/** A token type's roles, looked up once per event: 1 in OPAQUE, 2 in UNSHOWN. */
const ROLES = new Map<string, number>();
for (const type of OPAQUE) ROLES.set(type, 1);
for (const type of UNSHOWN) ROLES.set(type, (ROLES.get(type) ?? 0) | 2);

/**
 * The links of `piece` (a whole number of blocks, see segment.ts), in order and not overlapping, with offsets
 * `base + index in piece`. Text before `skip` (a replayed opener line) yields none. Always through micromark: the
 * reference the fast path is held to.
 */
export function piecesLinks(ctx: PieceContext, piece: string, skip: number, base: number): MarkdownLink[] {
  return readPieceParsed(ctx, piece, skip, base, false).links;
}

export interface PieceResult {
  links: MarkdownLink[];
  /**
   * Spans of plain text shaped like a link that the detector deliberately leaves unlinked (ScanResult.unlinked: an
   * http(s) URL with userinfo but no password), in order, disjoint from the links.
   */
  unlinked: UnlinkedSpan[];
  /**
   * The first line of a top-level fenced code block (§4.5) or HTML block (§4.6) still open at the end of the piece:
   * in the whole text it would run on into what follows.
   */
  open: string | undefined;
  /**
   * Stream offsets (`base + index in piece`, ascending) of the `&` of the numeric character references to an
   * explicit bidi formatting character (controlReference) that a renderer decodes into shown text: not in a code
   * span, code block, autolink or HTML, not escaped (no characterReference token there), not in UNSHOWN.
   */
  references: number[];
  /**
   * Stream offsets (ascending) where a link whose text is not shown starts: the label of a full reference
   * `[text][label]` (CommonMark §6.3; its chunk is the label, which a renderer drops). The `bidi-embedded` tracker
   * does not read them as text.
   */
  unshown: number[];
}

let fastPath = true;

/** For the equivalence tests: false reads every piece through micromark alone. */
export function setFastPath(on: boolean): void {
  fastPath = on;
}

/**
 * Parses `piece`. With `check`, a piece that ends inside an open fence or HTML block is refused: no links, `open`
 * set, and nothing of it kept (its definitions are forgotten) — the caller cut in the wrong place.
 */
export function readPiece(ctx: PieceContext, piece: string, skip: number, base: number, check: boolean): PieceResult {
  // A reference to a bidi control is shown or not as the parse says (PieceResult.references): micromark reads such
  // a piece (they are rare; fast.ts does not tell them apart). So does a U+FEFF that starts the document, which
  // micromark drops (parseText); anywhere else it is a character of the text to both readers.
  const startsWithBom = base === 0 && skip === 0 && piece.charCodeAt(0) === 0xfeff;
  if (fastPath && ctx.gfm !== undefined && !startsWithBom && !holdsControlReference(piece)) {
    const result = readPieceFast(ctx, piece, skip, base, check);
    if (result !== undefined) return result;
  }
  return readPieceParsed(ctx, piece, skip, base, check);
}

/** Whether `piece` holds a numeric character reference to an explicit bidi formatting character. */
function holdsControlReference(piece: string): boolean {
  for (let k = piece.indexOf('&#'); k >= 0; k = piece.indexOf('&#', k + 2)) {
    if (controlReference(piece, k) !== 0) return true;
  }
  return false;
}

/**
 * Work done, for the tests: the UTF-16 units parsed by micromark and those read as plain text (hostile.ts), and the
 * splits of long stretches (LIST_SPLIT).
 */
export const readStats = { parsed: 0, plain: 0, splits: 0 };

/**
 * One micromark parse of `text` (the parser chosen for it, its per-document state reset). micromark drops a U+FEFF
 * that starts what it parses (and counts offsets from after it); `atStart` says whether `text` starts the document,
 * the one place where that is right. Elsewhere the U+FEFF stays a character of the text: dropped, it made
 * `⏎⏎\uFEFF~~~` a fence where a piece started with it, so that the links after it were lost, and the piece was cut
 * again and again (`⏎⏎\uFEFF~~~` repeated, 36 KB 16 s; found by scripts/fuzz-cost.ts).
 */
function parseText(ctx: PieceContext, text: string, atStart = false): Event[] {
  readStats.parsed += text.length;
  // The parser is reused for its `defined` labels; its map of lazy lines is by line number, per document: reset it
  // (left over from the piece before, it made a line of this piece lazy — found by the piece-cutting property).
  const parser = ctx.parserFor ? ctx.parserFor(text) : ctx.parser;
  parser.lazy = {};
  const pre = preprocess();
  // The preprocessor looks for a U+FEFF in the first text it is given only: give it an empty one first.
  if (!atStart) pre('', undefined, false);
  return postprocess(parser.document().write(pre(text, undefined, true)));
}

function readPieceParsed(ctx: PieceContext, piece: string, skip: number, base: number, check: boolean): PieceResult {
  if (tooCostlyToParse(piece, 0, piece.length, ctx.gfm === true) || tooManyEdits(piece) || tooManyLazyLines(piece)) {
    // hostile.ts: the whole piece as plain text (readPieceFast reads such a stretch alone when it can).
    readStats.plain += piece.length;
    const reader = new PieceReader(ctx, piece, skip, base);
    reader.unparsed(skip, piece.length);
    reader.flush();
    return { links: reader.links, unlinked: reader.unlinked, open: undefined, references: [], unshown: [] };
  }
  const definedBefore = ctx.parser.defined.length;
  // micromark drops a U+FEFF that starts the document, and counts offsets from after it.
  const atStart = base === 0 && skip === 0;
  const events = parseText(ctx, piece, atStart);
  const shift = atStart && piece.charCodeAt(0) === 0xfeff ? 1 : 0;
  const open = openAtEnd(piece, events, shift);
  if (check && open !== undefined) {
    ctx.parser.defined.length = definedBefore;
    return { links: [], unlinked: [], open, references: [], unshown: [] };
  }
  collectDefinitions(ctx, piece, events, shift);
  const reader = new PieceReader(ctx, piece, skip, base);
  reader.read(events, shift);
  reader.flush();
  return { links: reader.links, unlinked: reader.unlinked, open, references: reader.references, unshown: reader.hiddenLinks };
}

/**
 * The fast path (fast.ts): the piece is cut where segment.ts allows; segments the fast reader handles are read
 * without micromark, the others are parsed by micromark in stretches of consecutive segments. Undefined (read the
 * whole piece through micromark instead) when the stretches would not read as one parse does: a stretch other than
 * the last left a fence or HTML block open (the cut guessed wrong), or an inline `<a>` that could stay open, or the
 * piece defines a label while more than one stretch was parsed (a use before its definition in an earlier stretch).
 * A piece that starts with a replayed opener line (`skip`, after a forced cut) is read the same way: the reader
 * drops what lies before `skip`.
 */
function readPieceFast(ctx: PieceContext, piece: string, skip: number, base: number, check: boolean): PieceResult | undefined {
  const own = piece.includes(']:') ? labelsDefinable(piece) : EMPTY_LABELS;
  let known: Set<string> | undefined;
  const defined = ctx.parser.defined;
  const fast: FastContext = {
    gfm: ctx.gfm === true,
    noReferences: defined.length === 0 && own !== null && own.size === 0,
    mayBeDefined: (label) => own === null || own.has(label) || (known ??= new Set(defined)).has(label),
  };
  const tracker = new BlockTracker();
  const parts: Part[] = [];
  let anyFast = false;
  let anyPlain = false;
  /** Where consecutive segments for micromark were joined into one stretch. */
  const splitAt: number[] = [];
  let segStart = 0;
  /** The fence the last segment, read by the fast reader, left open at the end of the piece. */
  let fastOpen: string | undefined;
  const segment = (e: number): void => {
    // hostile.ts: a segment micromark (or the fast reader's emphasis) would take super-linear time over is read as
    // plain text, on its own.
    const plain = tooCostlyToParse(piece, segStart, e, ctx.gfm === true);
    const items = plain ? undefined : fastSegment(piece, segStart, e, fast);
    fastOpen = items !== undefined ? openFenceLine() : undefined;
    const last = parts[parts.length - 1];
    if (plain) {
      readStats.plain += e - segStart;
      anyPlain = true;
      parts.push({ s: segStart, e, plain });
    } else if (items !== undefined) {
      anyFast = true;
      parts.push({ s: segStart, e, items });
    } else if (last !== undefined && last.items === undefined && last.plain !== true) {
      splitAt.push(segStart); // (a place a piece may be cut: LIST_SPLIT may part the stretch here again)
      last.e = e;
    } else {
      parts.push({ s: segStart, e });
    }
    segStart = e;
  };
  // Where a long stretch for micromark may be split (LIST_SPLIT): top-level list items (segment.ts itemStartsAt).
  const itemLines: number[] = [];
  for (let ls = 0; ls < piece.length; ) {
    const le = lineEnd(piece, ls);
    const e = le < 0 ? piece.length : le;
    if (ls > segStart && tracker.canCutBefore(piece, ls, e)) segment(ls);
    else if (tracker.itemStartsAt(piece, ls, e)) itemLines.push(ls);
    tracker.line(piece, ls, e);
    ls = le < 0 ? piece.length : e + lineEndingLength(piece, e);
  }
  segment(piece.length);
  const split = splitLongStretches(parts, splitAt.length === 0 ? itemLines : [...itemLines, ...splitAt].sort((a, b) => a - b));
  for (const part of parts) {
    // hostile.ts: a part whose parse would edit its events too often (containers closed, setext headings), or read
    // too many lazy lines in one paragraph, is read as plain text.
    if (part.items === undefined && part.plain !== true && (tooManyEdits(piece, part.s, part.e) || tooManyLazyLines(piece, part.s, part.e))) {
      readStats.plain += part.e - part.s;
      part.plain = anyPlain = true;
    }
  }
  if (!anyFast && !anyPlain && !split) return undefined;

  const reader = new PieceReader(ctx, piece, skip, base);
  const readPart = (part: Part, events: Event[] | undefined): void => {
    reader.flush();
    if (events !== undefined) reader.read(events, part.s);
    else if (part.plain === true) reader.unparsed(part.s, part.e);
    else {
      for (const item of part.items!) {
        if (item.escape === true) reader.escape(item.s);
        else if (item.reference === true) reader.reference(item.s, item.e);
        else if (item.code === true) reader.codeSpan(item.s, item.e);
        else if (item.destination === undefined) reader.run(item.s, item.e);
        else {
          reader.flush();
          reader.add(constructLink(ctx, piece, item.s, item.e, base, item.destination, item.email === true, item.construct ?? 'link'));
        }
      }
    }
  };
  const result = (open: string | undefined): PieceResult => {
    reader.flush();
    return { links: reader.links, unlinked: reader.unlinked, open, references: reader.references, unshown: reader.hiddenLinks };
  };
  const refused = (open: string): PieceResult => ({ links: [], unlinked: [], open, references: [], unshown: [] });

  if (own !== null && own.size === 0) {
    // §4.7: no stretch defines a label, so the order of the parses does not matter: each stretch is parsed and read
    // in turn, and only its events are held (memory: they take 1–3 MB per KiB of a long list).
    let open = fastOpen;
    if (check && open !== undefined) return refused(open);
    for (let k = 0; k < parts.length; k++) {
      const part = parts[k]!;
      if (part.items !== undefined || part.plain === true) {
        readPart(part, undefined);
        continue;
      }
      const text = piece.slice(part.s, part.e);
      const events = parseText(ctx, text);
      const o = openAtEnd(text, events, 0);
      if (k < parts.length - 1) {
        if (o !== undefined || anchorOpenAtEnd(text, events)) return undefined;
      } else {
        open = o;
        if (check && open !== undefined) return refused(open);
      }
      readPart(part, events);
    }
    return result(open);
  }

  const definedBefore = ctx.parser.defined.length;
  let open = fastOpen;
  let parsed = 0;
  // §4.7: a label may be used before its definition, and READMEs define theirs at the end: the stretches are parsed
  // last first, so that each knows the labels the stretches after it define, as one parse of the piece would.
  for (let k = parts.length - 1; k >= 0; k--) {
    const part = parts[k]!;
    if (part.items !== undefined || part.plain === true) continue;
    const text = piece.slice(part.s, part.e);
    const before = ctx.parser.defined.length;
    part.events = parseText(ctx, text);
    if (ctx.parser.defined.length > before) part.defines = ctx.parser.defined.slice(before);
    parsed++;
    const o = openAtEnd(text, part.events, 0);
    if (k < parts.length - 1 && (o !== undefined || anchorOpenAtEnd(text, part.events))) {
      ctx.parser.defined.length = definedBefore;
      return undefined;
    }
    if (k === parts.length - 1) open = o;
  }
  if (parsed > 1 && ctx.parser.defined.length > definedBefore && mayUseLater(piece, parts)) {
    // A stretch defined a label that a stretch after it (parsed before it) may use: parse them again, with every
    // label of the piece known.
    const defined = ctx.parser.defined.length;
    for (const part of parts) {
      if (part.events !== undefined) part.events = parseText(ctx, piece.slice(part.s, part.e));
    }
    ctx.parser.defined.length = defined;
  }
  if (check && open !== undefined) {
    ctx.parser.defined.length = definedBefore;
    return refused(open);
  }
  for (const part of parts) {
    if (part.events !== undefined) collectDefinitions(ctx, piece.slice(part.s, part.e), part.events, 0);
  }
  for (const part of parts) readPart(part, part.events);
  return result(open);
}

const EMPTY_LABELS: ReadonlySet<string> = new Set();

/**
 * Performance: the length past which a stretch for micromark is split, before a top-level list item or where its
 * segments were joined. micromark's document tokenizer moves the events of the whole parse each time a nested
 * container closes (micromark-util-edit-map), so one long list whose items hold nested lists costs time quadratic in
 * its length: `- a⏎  - b⏎` repeated, 16 KB 0.74 s, 64 KB 14.6 s in one parse; in parts of 4 KiB, about what a flat
 * list costs (50–60 ms per 4 KiB). Parts of 1 KiB halve what is left on such lists (`+ *⏎` repeated, 1 MB: 4 KiB
 * parts 20.8 s, 1 KiB 8.2 s; `- - x⏎` 16.1 s, 9.0 s) and cost the same on the READMEs and mail corpora (CPU ms/MB
 * within noise, 315 and 1,106 splits instead of 44 and 90). Parsed apart, the parts hold the same links: an item in
 * column 0 ends every block before it but the list (segment.ts itemStartsAt), a join is a place where a piece may be
 * cut, and where the parser finds a block open at a split, the piece is parsed whole (readPieceFast's check of the
 * stretches).
 */
export const LIST_SPLIT = 1024;
let listSplit = LIST_SPLIT;

/** For tests only: another length than LIST_SPLIT (1: before every top-level item); undefined restores it. */
export function setListSplit(length: number | undefined): void {
  listSplit = length ?? LIST_SPLIT;
}

/** Splits the parsed stretches of `parts` longer than LIST_SPLIT at `places` (ascending); whether any was split. */
function splitLongStretches(parts: Part[], places: readonly number[]): boolean {
  if (places.length === 0) return false;
  let split = false;
  let k = 0;
  for (let p = 0; p < parts.length; p++) {
    const part = parts[p]!;
    if (part.items !== undefined || part.plain === true || part.e - part.s <= listSplit) continue;
    while (k < places.length && places[k]! < part.s + listSplit) k++;
    if (k === places.length) break;
    const at = places[k]!;
    if (at >= part.e) continue;
    parts.splice(p + 1, 0, { s: at, e: part.e });
    part.e = at;
    split = true;
    readStats.splits++;
  }
  return split;
}

/**
 * §4.7: the labels `piece` may define: a definition is `[label]:` with no bracket in the label, so it is the text
 * between the `[` before a `]:` and it, normalised. Null (any label) when such a text holds a backslash or a line
 * ending (escapes, container markers: its normalised form cannot be told here).
 */
function labelsDefinable(piece: string): Set<string> | null {
  const labels = new Set<string>();
  // One pass (a search back from each `]:` made `]:` repeated quadratic): the last unescaped `[` not yet followed by
  // a `]`, and the last backslash or line ending (`[x\\[y]:` holds one: any label).
  let open = -1;
  let opaque = -1;
  for (let k = 0; k < piece.length; k++) {
    const c = piece.charCodeAt(k);
    if (c === 0x5b && piece.charCodeAt(k - 1) !== 0x5c) open = k;
    else if (c === 0x5c || c === 0x0a || c === 0x0d) opaque = k;
    else if (c === 0x5d) {
      if (open >= 0 && piece.charCodeAt(k + 1) === 0x3a) {
        if (opaque > open) return null;
        labels.add(normalizeIdentifier(piece.slice(open + 1, k)));
      }
      // A label holds no unescaped `]`: this `[` starts none that ends later. (`\]` keeps it: the label then holds a
      // backslash, and any label may be defined.)
      if (piece.charCodeAt(k - 1) !== 0x5c) open = -1;
      if (piece.charCodeAt(k + 1) === 0x3a) k++;
    }
  }
  return labels;
}

/** A segment read by the fast path (items), or a stretch parsed by micromark (events, and the labels it defined). */
interface Part {
  s: number;
  e: number;
  items?: FastItem[];
  events?: Event[];
  defines?: string[];
  /** Read as plain text (hostile.ts): neither fast nor parsed. */
  plain?: boolean;
}

/**
 * Whether a parsed stretch may use a label that a stretch before it defines (labels normalised as micromark does:
 * whitespace runs to one space, case-folded with toLowerCase().toUpperCase()). A use holds the label's text between
 * brackets, so the folded stretch holds the label; a label with whitespace or beyond ASCII is assumed used.
 */
function mayUseLater(piece: string, parts: readonly Part[]): boolean {
  const labels: string[] = [];
  for (const part of parts) {
    if (part.events === undefined) continue;
    if (labels.length > 0) {
      const folded = piece.slice(part.s, part.e).toLowerCase().toUpperCase();
      for (const label of labels) if (folded.includes(label)) return true;
    }
    for (const label of part.defines ?? []) {
      for (let k = 0; k < label.length; k++) {
        const c = label.charCodeAt(k);
        if (c <= 0x20 || c >= 0x7f) return true;
      }
      labels.push(label);
    }
  }
  return false;
}

/** Reads a piece's micromark events (and the fast path's runs) into links. */
class PieceReader {
  readonly links: MarkdownLink[] = [];
  readonly unlinked: UnlinkedSpan[] = [];
  /** PieceResult.references. */
  readonly references: number[] = [];
  /** PieceResult.unshown. */
  readonly hiddenLinks: number[] = [];
  /** Open UNSHOWN tokens. */
  private unshown = 0;
  /** Where the last link or unlinked span ends (index in the piece): nothing may start before it. */
  private lastEnd: number;
  private runStart = -1;
  private runEnd = -1;
  /**
   * Where the current run is shown other than as written, in order: its backslash escapes (CommonMark §2.4) and
   * character references (§2.5).
   */
  private readonly edits: Edit[] = [];
  /** Whether the current run was read without a parse (unparsed()). */
  private runUnparsed = false;
  /**
   * The last text shown (hidden-split across markup, escapes.ts): where it ended in the piece (−1: none yet), and
   * its last units as shown, over the text glued before it.
   */
  private shownEnd = -1;
  private shownTail = '';
  /**
   * The link that ended where its run ended, waiting for the text shown after it (afterTail), and the text shown
   * glued after it so far.
   */
  private tailLink: MarkdownLink | undefined;
  /** (From the invisible characters after the link in its run, if any.) */
  private tailAfter = '';
  private opaque = 0;
  private anchors = 0;
  /** How many links and images were open where a link's label text began (0: none open): labelShown(). */
  private labelDepth = 0;
  /** Open links and images: their type, and where their label text lies. */
  private readonly stack: string[] = [];
  private labelTextStart = -1;
  private labelTextEnd = -1;
  private definitionLabel = '';

  constructor(
    private readonly ctx: PieceContext,
    private readonly piece: string,
    private readonly skip: number,
    private readonly base: number,
  ) {
    this.lastEnd = skip;
  }

  /** Adds the link unless it starts before the end of the last one added; says whether it did. */
  add(link: MarkdownLink | undefined): boolean {
    if (link === undefined || link.start - this.base < this.lastEnd) return false;
    this.links.push(link);
    this.lastEnd = link.end - this.base;
    return true;
  }

  private addUnlinked(span: UnlinkedSpan): void {
    if (span.start - this.base < this.lastEnd) return;
    this.unlinked.push(span);
    this.lastEnd = span.end - this.base;
  }

  /** A run of plain text piece[s, e): joins the current run when it continues it. Text before `skip` is no run. */
  run(s: number, e: number): void {
    if (s < this.skip) {
      if (e <= this.skip) return;
      s = this.skip;
    }
    if (s === this.runEnd && this.runStart >= 0) {
      this.runEnd = e;
    } else {
      this.flush();
      this.runStart = s;
      this.runEnd = e;
    }
  }

  /**
   * Text piece[s, e) read as plain text without a parse (hostile.ts): a run of its own, in which markup beside a link
   * may hide a split (escapes.ts flagGluedInUnparsed).
   */
  unparsed(s: number, e: number): void {
    this.flush();
    this.run(s, e);
    this.runUnparsed = this.runStart >= 0;
  }

  /**
   * A backslash escape piece[s, s + 2) outside any construct (CommonMark §2.4): its character is shown as text, so
   * the run goes on through it (or starts at it), and the run is scanned as shown, without the backslash. The
   * detector then decides on the text a reader sees, as in plain mode: `pam\_unix.so`, `\_dmarc.example.com`
   * and `\$HOST.example.com` show `pam_unix.so`, `_dmarc.example.com` and `$HOST.example.com`, names it does not
   * link, where the text after the escape alone would link `unix.so`, `dmarc.example.com`, `HOST.example.com`; and
   * `example.com\_x` shows `example.com_x`, no host.
   */
  escape(s: number): void {
    this.edit(s, s + 2, this.piece[s + 1]!, true);
  }

  /**
   * A character reference piece[s, e) outside any construct (CommonMark §2.5): shown as its decoded text, so the run
   * goes on through it, and a link may hold it (escapes.ts): `pay&#112;al.com/login` shows `paypal.com/login`, and
   * that is the link (scanned from `al.com` alone it would go to another host than the one shown);
   * `https://a.example/?a=1&amp;b=2` links the whole query. A reference to an explicit bidi formatting character ends
   * the run instead: the embedding tracker reads it where the parse decodes it (PieceResult.references).
   */
  reference(s: number, e: number): void {
    if (controlReference(this.piece, s) !== 0) {
      this.flush();
      return;
    }
    this.edit(s, e, decodeString(this.piece.slice(s, e)), false);
  }

  private edit(s: number, e: number, shown: string, escape: boolean): void {
    if (s < this.skip) return;
    if (s !== this.runEnd || this.runStart < 0) {
      this.flush();
      this.runStart = s;
    }
    this.runEnd = e;
    this.edits.push({ s, e, shown, escape });
  }

  flush(): void {
    if (this.runStart < 0) return;
    const { piece, base, edits } = this;
    const { runStart, runEnd } = this;
    const from = Math.max(this.skip, runStart - RUN_CONTEXT);
    // The scan's offsets are the shown text's (base + from + index in it); ShownText maps them back to the piece.
    const shown = edits.length === 0 ? undefined : new ShownText(piece, runStart, runEnd, edits, base + runStart);
    // The scanner reads a few units before the run (P1, P4, P6 and P3 look back). It reads the emphasis and
    // strikethrough delimiters right before the run as spaces: they are markup, which a reader does not see (a run
    // starts right after them only when they are no text). An email's local part may hold them, so the scanner,
    // finding one right before the run, took the address for one that starts earlier and linked nothing:
    // `**security@example.com**` links `security@example.com`, as in plain text and in both plugins.
    const d = delimitersBefore(piece, from, runStart);
    const text =
      shown === undefined && d === runStart
        ? piece.slice(from, runEnd)
        : piece.slice(from, d) + ' '.repeat(runStart - d) + (shown?.text ?? piece.slice(runStart, runEnd));
    const scanned = this.ctx.scanner.scan(text, runStart - from, true, base + from);
    const { links, unlinked } = shown === undefined ? scanned : shownRunLinks(scanned, shown.escaped, shown.references);
    if (this.runUnparsed) {
      flagGluedInUnparsed(links, piece, base, runStart, runEnd);
      this.runUnparsed = false;
    }
    // hidden-split across the delimiters, tags or backtick strings between this run and the last shown text
    // (escapes.ts): `pay*p*al.com/login`. The last run's link that ended it is flagged now, when what follows the
    // markup is known.
    const markupBefore = d < runStart || piece.charCodeAt(runStart - 1) === 0x3e || piece.charCodeAt(runStart - 1) === 0x60;
    // (Right after a link whose text was shown last: its `](…)` is the markup, read at the link's exit.)
    const joined = this.shownEnd === runStart || (markupBefore && onlyHiddenMarkup(piece, this.shownEnd, runStart));
    const runText = text.slice(runStart - from);
    this.afterTail(runText, joined);
    if (joined) flagGluedByMarkup(links, text, base + from, base + runStart, base + from + text.length, tailOf(this.shownTail), NOT_GLUED);
    this.shownEnd = runEnd;
    this.shownTail = lastUnits(joined ? this.shownTail : '', runText);
    let u = 0;
    const addUnlinked = (span: UnlinkedSpan): void => {
      this.addUnlinked(shown === undefined ? span : { ...span, start: shown.starts.toInput(span.start), end: shown.ends.toInput(span.end) });
    };
    let lastAdded: MarkdownLink | undefined;
    let lastAddedEnd = 0; // (in the scan's coordinates)
    for (const link of links) {
      while (u < unlinked.length && unlinked[u]!.start < link.start) addUnlinked(unlinked[u++]!);
      let added: MarkdownLink;
      if (shown === undefined) {
        added = { ...link, construct: 'bare', destination: link.text };
      } else {
        // A link's text is the source it spans; its destination is the text shown (references decoded).
        const start = shown.starts.toInput(link.start);
        const end = shown.ends.toInput(link.end);
        added = { ...link, start, end, text: piece.slice(start - base, end - base), construct: 'bare', destination: link.text };
      }
      if (this.add(added)) {
        lastAdded = added;
        lastAddedEnd = link.end;
      }
    }
    while (u < unlinked.length) addUnlinked(unlinked[u++]!);
    // The run's last link, when only invisible characters follow it in the run as shown (looked through:
    // `pay.com\u00AD**x**`, and as a reference, `pay.com&shy;**x**`).
    if (lastAdded !== undefined) {
      const after = text.slice(lastAddedEnd - base - from);
      if (endsRun(after, 0, after.length)) {
        this.tailLink = lastAdded;
        this.tailAfter = after;
      }
    }
    this.runStart = -1;
    edits.length = 0;
  }

  /**
   * Shown text after the last: glued to it through hidden markup (`joined`) or not. The link waiting after the last
   * run (tailLink) is flagged when the text is glued to it, and waits on while all it has after it is a host dot or
   * invisible characters: `https://login.example<b>.</b>paypal.com` shows `https://login.example.paypal.com`.
   */
  private afterTail(text: string, joined: boolean): void {
    const tail = this.tailLink;
    if (tail === undefined) return;
    if (joined) {
      this.tailAfter += text.slice(0, SHOWN_TAIL); // (headOf reads no further)
      const head = headOf(this.tailAfter);
      // Nothing visible yet (invisible characters alone), or a host dot alone: what follows decides.
      if ((head.near < 0 || (isHostDot(head.near) && head.far < 0)) && this.tailAfter.length <= SHOWN_TAIL) return;
      if (glued(head, codePointBefore(tail.destination, tail.destination.length), false)) flagHiddenSplit(tail);
    }
    this.tailLink = undefined;
  }

  /**
   * Text piece[s, e) shown as `text` that is no run (an inline HTML `<a>`'s, a link already; a code span's content),
   * so the last run's link glued to it through tags or delimiters is flagged, and so is the next run's glued to it
   * (hidden-split).
   */
  private shownLinkText(s: number, e: number, text = this.piece.slice(s, e)): void {
    if (s < this.skip) return;
    this.flush();
    // (Text shown right after the last: more of an anchor's text, `&period;pay`.)
    const joined = s === this.shownEnd || onlyHiddenMarkup(this.piece, this.shownEnd, s);
    this.afterTail(text, joined);
    this.shownTail = lastUnits(joined ? this.shownTail : '', text);
    this.shownEnd = e;
  }

  /**
   * The content piece[s, e) of a code span (CommonMark §6.1), shown but never linked: text glued to it through its
   * backtick strings is glued to what it shows (hidden-split: `` pay`p`al.com/login `` shows `paypal.com/login`).
   */
  codeSpan(s: number, e: number): void {
    this.shownLinkText(s, e, codeSpanText(this.piece, s, e));
  }

  /**
   * Whether what is read now is the text of a link's label (CommonMark §6.3), not inside another construct that is
   * not read (an image's description holding a link, a code span): shown text, as an `<a>`'s is, so that a bare link
   * glued to it is flagged (hidden-split: `pay[p](https://x.example/)al.com/login` shows `paypal.com/login`).
   */
  private labelShown(): boolean {
    return this.labelDepth > 0 && this.labelDepth === this.stack.length && this.opaque === 1;
  }

  /** The events of micromark's parse of piece[shift, …) (offsets in the events count from `shift`). */
  read(events: Event[], shift: number): void {
    const { ctx, piece, base, stack } = this;
    for (let i = 0; i < events.length; i++) {
      const [kind, token] = events[i]!;
      const type = token.type;
      const s = token.start.offset + shift;
      const e = token.end.offset + shift;
      if (kind === 'exit') {
        const role = ROLES.get(type);
        if (role !== undefined) {
          if (role & 1) this.opaque--;
          if (role & 2) this.unshown--;
        }
        // Deviation (HTML): an `<a>` left open ends with its paragraph or heading here, not at the next `</a>`.
        if (type === 'paragraph' || type === 'atxHeading' || type === 'setextHeading') this.anchors = 0;
        if (type === 'labelText') {
          this.labelTextStart = s;
          this.labelTextEnd = e;
          if (stack.length === this.labelDepth) this.labelDepth = 0;
        } else if (type === 'label' && stack.length > 0) {
          // CommonMark §6.3: what follows the label decides the kind of link.
          const next = events[i + 1];
          const nextType = next !== undefined && next[0] === 'enter' ? next[1].type : '';
          if (nextType !== 'resource') {
            const construct = stack[stack.length - 1] === 'image' ? 'image-reference' : 'link-reference';
            const full = nextType === 'reference' ? referenceString(events, i + 2) : undefined;
            const a = full ? full.start.offset + shift : this.labelTextStart;
            const b = full ? full.end.offset + shift : this.labelTextEnd;
            const destination = ctx.definitions.get(normalizeIdentifier(piece.slice(a, b)));
            if (destination !== undefined && a < b) {
              // A collapsed or shortcut reference spans its label: links nested in it give way to it.
              if (!full) {
                const { links, unlinked } = this;
                while (links.length > 0 && links[links.length - 1]!.start - base >= a) links.pop();
                while (unlinked.length > 0 && unlinked[unlinked.length - 1]!.start - base >= a) unlinked.pop();
                this.lastEnd = Math.max(
                  links.length > 0 ? links[links.length - 1]!.end - base : this.skip,
                  unlinked.length > 0 ? unlinked[unlinked.length - 1]!.end - base : this.skip,
                );
              }
              const n = this.links.length;
              this.add(constructLink(ctx, piece, a, b, base, destination, false, construct));
              // §6.3: a full reference shows its text, not its label.
              if (full && this.links.length > n) this.hiddenLinks.push(base + a);
            }
          }
        } else if (type === 'link' || type === 'image') {
          stack.pop();
          // The rest of a link whose text was shown last (`](…)`, `][label]`) is markup a reader does not see.
          if (type === 'link' && this.shownEnd > s) this.shownEnd = e;
        } else if (type === 'definition') {
          ctx.definitionsLinked.add(detached(this.definitionLabel));
        }
        continue;
      }
      if (type === 'data') {
        if (this.opaque > 0) {
          if (this.labelShown()) this.shownLinkText(s, e);
          continue;
        }
        if (this.anchors > 0) {
          this.shownLinkText(s, e);
          continue;
        }
        this.run(s, e);
        continue;
      }
      // §2.4: an escape's marker and value are its own parts; the escape itself continues the run.
      if (type === 'characterEscape' || type === 'escapeMarker' || type === 'characterEscapeValue') {
        if (type === 'characterEscape' && (this.opaque === 0 || this.labelShown())) {
          if (this.anchors === 0 && this.opaque === 0) this.escape(s);
          else this.shownLinkText(s, e, piece.slice(s + 1, e));
        }
        continue;
      }
      // §2.5: a reference's marker and value are its own parts; the reference itself continues the run, unless it
      // is one to a bidi control (reference()).
      if (REFERENCE_PARTS.has(type)) continue;
      if (type === 'characterReference' && ((this.opaque === 0 && this.anchors > 0) || this.labelShown()) && controlReference(piece, s) === 0) {
        this.shownLinkText(s, e, decodeString(piece.slice(s, e)));
        continue;
      }
      if (type === 'characterReference' && this.opaque === 0 && this.anchors === 0) {
        this.reference(s, e);
        if (s >= this.skip && controlReference(piece, s) !== 0) this.references.push(base + s);
        continue;
      }
      this.flush();
      switch (type) {
        case 'link':
        case 'image':
          stack.push(type);
          break;
        case 'labelText':
          if (stack[stack.length - 1] === 'link') this.labelDepth = stack.length;
          break;
        case 'codeText':
          if (this.opaque === 0 || this.labelShown()) {
            const from = codeSpanContentStart(piece, s, e);
            this.codeSpan(from, e - (from - s));
          }
          break;
        case 'label':
          this.labelTextStart = -1;
          this.labelTextEnd = -1;
          break;
        case 'resourceDestinationString':
          this.add(constructLink(ctx, piece, s, e, base, decodeString(piece.slice(s, e)), false, stack[stack.length - 1] === 'image' ? 'image' : 'link'));
          break;
        case 'definitionLabelString':
          this.definitionLabel = normalizeIdentifier(piece.slice(s, e));
          break;
        case 'definitionDestinationString':
          // §4.7: "If there are several matching definitions, the first one takes precedence": later ones are no links.
          if (!ctx.definitionsLinked.has(this.definitionLabel)) {
            this.add(constructLink(ctx, piece, s, e, base, decodeString(piece.slice(s, e)), false, 'definition'));
          }
          break;
        // §6.5: autolinks take their content as written: no escapes, no entity references.
        case 'autolinkProtocol':
          this.add(constructLink(ctx, piece, s, e, base, piece.slice(s, e), false, 'autolink'));
          break;
        case 'autolinkEmail':
          this.add(constructLink(ctx, piece, s, e, base, piece.slice(s, e), true, 'autolink'));
          break;
      }
      const role = ROLES.get(type);
      if (role !== undefined) {
        if (role & 1) this.opaque++;
        if (role & 2) this.unshown++;
      }
      // CommonMark §2.5: decoded, and shown unless in UNSHOWN.
      if (type === 'characterReference' && this.unshown === 0 && s >= this.skip && controlReference(piece, s) !== 0) {
        this.references.push(base + s);
      }
      // An HTML anchor written inline is a link too: no bare link in its text (`<a href="…">https://x/</a>`).
      if (type === 'htmlText') {
        const anchor = htmlAnchor(piece, s, e);
        if (anchor > 0) this.anchors++;
        else if (anchor < 0 && this.anchors > 0) this.anchors--;
      }
    }
  }
}

/** An escape (its character) or a character reference (its decoded text) in a run of text: piece[s, e) shows `shown`. */
interface Edit {
  s: number;
  e: number;
  shown: string;
  escape: boolean;
}

/**
 * A run piece[start, end) as shown, with its edits (ascending, in [start, end)) applied, and the way back: offsets
 * of the scan of `text` (`at`, the offset of text[0], plus the index in it) to offsets in the same coordinates of
 * the piece. Two cursors, for starts and for ends, each asked in ascending order.
 *
 *   piece "x pay&#112;al.com"   text "x paypal.com"   the reference: piece [5, 11), text [5, 6)
 *   text offset 2 → 2, 6 → 11, 12 → 17
 */
class ShownText {
  readonly text: string;
  /** The escaped characters' offsets in the scan's coordinates (escapes.ts). */
  readonly escaped: number[] = [];
  /** Pairs [from, to) of the references' decoded text in the scan's coordinates (escapes.ts). */
  readonly references: number[] = [];
  readonly starts: ShownCursor;
  readonly ends: ShownCursor;

  constructor(piece: string, start: number, end: number, edits: readonly Edit[], at: number) {
    const parts: string[] = [];
    // shownAt[k]: where edit k's shown text starts (scan coordinates); delta[k]: units the piece is longer than the
    // text from there on, once edit k is read.
    const shownAt: number[] = [];
    const delta: number[] = [];
    let p = start;
    let length = 0;
    let d = 0;
    for (const edit of edits) {
      parts.push(piece.slice(p, edit.s), edit.shown);
      length += edit.s - p;
      shownAt.push(at + length);
      if (edit.escape) this.escaped.push(at + length);
      else this.references.push(at + length, at + length + edit.shown.length);
      length += edit.shown.length;
      d += edit.e - edit.s - edit.shown.length;
      delta.push(d);
      p = edit.e;
    }
    parts.push(piece.slice(p, end));
    this.text = parts.join('');
    this.starts = new ShownCursor(shownAt, edits, delta, at - start, false);
    this.ends = new ShownCursor(shownAt, edits, delta, at - start, true);
  }
}

class ShownCursor {
  private k = 0;

  constructor(
    private readonly shownAt: readonly number[],
    private readonly edits: readonly Edit[],
    private readonly delta: readonly number[],
    /** base: the input offset of piece[0]. */
    private readonly base: number,
    /** Whether this cursor maps ends: an offset inside an edit's shown text maps to the edit's end, else its start. */
    private readonly end: boolean,
  ) {}

  /**
   * The input offset (base + index in the piece) of scan offset `x`. shownRunLinks drops a link that starts or ends
   * inside an edit's shown text; an unlinked span that does is widened to the whole edit.
   */
  toInput(x: number): number {
    const { shownAt, edits } = this;
    while (this.k < shownAt.length && shownAt[this.k]! + edits[this.k]!.shown.length <= x) this.k++;
    const k = this.k;
    if (k < shownAt.length && shownAt[k]! < x) return this.base + (this.end ? edits[k]!.e : edits[k]!.s);
    return x + (k === 0 ? 0 : this.delta[k - 1]!);
  }
}

/** Whether an inline `<a …>` is still open at the end of `text` (PieceReader's `anchors` would be above 0). */
function anchorOpenAtEnd(text: string, events: Event[]): boolean {
  let anchors = 0;
  for (const [kind, token] of events) {
    const type = token.type;
    if (kind === 'exit') {
      if (type === 'paragraph' || type === 'atxHeading' || type === 'setextHeading') anchors = 0;
    } else if (type === 'htmlText') {
      const anchor = htmlAnchor(text, token.start.offset, token.end.offset);
      if (anchor > 0) anchors++;
      else if (anchor < 0 && anchors > 0) anchors--;
    }
  }
  return anchors > 0;
}

/** 1 for an `<a …>` start tag at piece[s, e), -1 for `</a>`, else 0 (HTML tag names are ASCII case-insensitive). */
function htmlAnchor(piece: string, s: number, e: number): number {
  const close = piece.charCodeAt(s + 1) === 0x2f;
  const i = close ? s + 2 : s + 1;
  if (i + 1 >= e || (piece.charCodeAt(i) | 0x20) !== 0x61) return 0;
  const c = piece.charCodeAt(i + 1);
  if (c !== 0x3e && c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d && c !== 0x2f) return 0;
  return close ? -1 : 1;
}

/** The opener line of a fence or HTML block outside any container that reaches the end of the piece, if any. */
function openAtEnd(piece: string, events: Event[], shift: number): string | undefined {
  let containers = 0;
  for (let i = 0; i < events.length; i++) {
    const [kind, token] = events[i]!;
    const type = token.type;
    if (type === 'blockQuote' || type === 'listOrdered' || type === 'listUnordered') {
      containers += kind === 'enter' ? 1 : -1;
    } else if (kind === 'exit' && containers === 0 && (type === 'codeFenced' || type === 'htmlFlow')) {
      // An unclosed block runs to the end of the input, trailing blank lines included; a closed one ends earlier.
      // CommonMark §4.6 kinds 6 and 7 end only at a blank line, and their token ends before the line ending of
      // their last line: one that ends on the piece's last line runs on into the next piece.
      const e = token.end.offset + shift;
      if (e < piece.length && !(type === 'htmlFlow' && endsLastLine(piece, e) && !htmlKind1to5(piece, token.start.offset + shift))) continue;
      let a = token.start.offset + shift;
      while (a > 0 && piece.charCodeAt(a - 1) !== 0x0a && piece.charCodeAt(a - 1) !== 0x0d) a--;
      let b = a;
      while (b < piece.length && piece.charCodeAt(b) !== 0x0a && piece.charCodeAt(b) !== 0x0d) b++;
      return piece.slice(a, b);
    }
  }
  return undefined;
}

/** Whether piece[e, end) is one line ending (the text before e ends on the piece's last line). */
function endsLastLine(piece: string, e: number): boolean {
  const c = piece.charCodeAt(e);
  if (c === 0x0a) return e + 1 === piece.length;
  if (c !== 0x0d) return false;
  return e + 1 === piece.length || (e + 2 === piece.length && piece.charCodeAt(e + 1) === 0x0a);
}

/**
 * CommonMark §4.6 start conditions 1–5 for the HTML block starting at index i (its `<`, or the indentation before
 * it): `<!--`, `<?`, `<!` and a letter, `<![CDATA[`, or `<script`, `<pre`, `<style`, `<textarea` then a space,
 * tab, `>` or the line end.
 */
function htmlKind1to5(piece: string, i: number): boolean {
  // micromark's htmlFlow token starts with the line's indentation (up to 3 spaces), before the `<`.
  while (piece.charCodeAt(i) === 0x20) i++;
  const c = piece.charCodeAt(i + 1);
  if (c === 0x21 || c === 0x3f) return true;
  for (const tag of ['script', 'pre', 'style', 'textarea']) {
    const e = i + 1 + tag.length;
    if (piece.slice(i + 1, e).toLowerCase() !== tag) continue;
    const d = piece.charCodeAt(e);
    return Number.isNaN(d) || d === 0x20 || d === 0x09 || d === 0x3e || d === 0x0a || d === 0x0d;
  }
  return false;
}

/** The link of a construct; none for an empty destination or a scheme never linked (P2). */
function constructLink(
  ctx: PieceContext,
  piece: string,
  s: number,
  e: number,
  base: number,
  destination: string,
  email: boolean,
  construct: MarkdownConstruct,
): MarkdownLink | undefined {
  if (destination.length === 0) return undefined;
  const link = destinationLink(piece, s, e, base, destination, email, ctx.documentCharset);
  // Deviation (CommonMark §6.3): javascript:, vbscript: and data: destinations are links in Markdown; irilink
  // never reports them (DESIGN.md P2), whoever wrote them.
  if (NEVER_SCHEMES.includes(link.scheme)) return undefined;
  return { ...link, construct, destination: email ? 'mailto:' + destination : destination };
}

/**
 * CommonMark §4.7: the piece's link reference definitions, into ctx.definitions (the first of a label wins), before
 * its links are read — a use may come before its definition. `[a]: <>` defines an empty destination.
 */
function collectDefinitions(ctx: PieceContext, piece: string, events: Event[], shift: number): void {
  let label = '';
  let destination = '';
  for (let i = 0; i < events.length; i++) {
    const [kind, token] = events[i]!;
    const type = token.type;
    if (kind === 'enter') {
      if (type === 'definitionLabelString') {
        label = normalizeIdentifier(piece.slice(token.start.offset + shift, token.end.offset + shift));
        destination = '';
      } else if (type === 'definitionDestinationString') {
        destination = decodeString(piece.slice(token.start.offset + shift, token.end.offset + shift));
      }
    } else if (type === 'definition' && !ctx.definitions.has(label)) {
      // Kept for the whole document: detached, so that the piece they were sliced from is not kept with them.
      ctx.definitions.set(detached(label), detached(destination));
    }
  }
}

/** The referenceString token of the reference whose events start at `i`, if it has one (a full reference). */
function referenceString(events: Event[], i: number): Event[1] | undefined {
  for (; i < events.length; i++) {
    const token = events[i]![1];
    if (token.type === 'referenceString') return token;
    if (token.type === 'reference') return undefined;
  }
  return undefined;
}
