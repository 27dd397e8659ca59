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
//   plain text               construct 'bare'            the UTS #58 detection over the text, as findLinks
// Bare links are looked for only in runs of plain text (the parser's `data`): never in code spans, code blocks,
// HTML blocks or inline HTML, never inside a link's or image's text, destination or title, a definition or an
// autolink. Emphasis and strikethrough delimiters, backslash escapes, entity references and line endings end a run,
// so `**https://x/**` links `https://x/`.

import { decodeString } from 'micromark-util-decode-string';
import { normalizeIdentifier } from 'micromark-util-normalize-identifier';
import type { Event, ParseContext } from 'micromark-util-types';
import { postprocess, preprocess } from 'micromark';
import type { Scanner } from '../detect/index.js';
import { NEVER_SCHEMES } from '../detect/index.js';
import type { Link } from '../types.js';
import { destinationLink } from './convert.js';

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
}

/** Left context given to the scanner before a run of text (P1, P4, P6 and P3 look back a few units). */
const RUN_CONTEXT = 64;

/** Tokens whose content is never scanned for bare links. */
const OPAQUE = new Set([
  'codeText', 'codeFenced', 'codeIndented', 'htmlFlow', 'htmlText', 'autolink', 'link', 'image', 'definition',
]);

/**
 * The links of `piece` (a whole number of blocks, see segment.ts), in order and not overlapping, with offsets
 * `base + index in piece`. Text before `skip` (a replayed opener line) yields none.
 */
export function piecesLinks(ctx: PieceContext, piece: string, skip: number, base: number): MarkdownLink[] {
  return readPiece(ctx, piece, skip, base, false).links;
}

export interface PieceResult {
  links: MarkdownLink[];
  /**
   * The first line of a top-level fenced code block (§4.5) or HTML block (§4.6) still open at the end of the piece:
   * in the whole text it would run on into what follows.
   */
  open: string | undefined;
}

/**
 * Parses `piece`. With `check`, a piece that ends inside an open fence or HTML block is refused: no links, `open`
 * set, and nothing of it kept (its definitions are forgotten) — the caller cut in the wrong place.
 */
export function readPiece(ctx: PieceContext, piece: string, skip: number, base: number, check: boolean): PieceResult {
  // The parser is reused for its `defined` labels; its map of lazy lines is by line number, per document: reset it
  // (left over from the piece before, it made a line of this piece lazy — found by the piece-cutting property).
  const parser = ctx.parserFor ? ctx.parserFor(piece) : ctx.parser;
  parser.lazy = {};
  const definedBefore = parser.defined.length;
  const events: Event[] = postprocess(parser.document().write(preprocess()(piece, undefined, true)));
  // micromark drops a leading U+FEFF and counts offsets from after it.
  const shift = piece.charCodeAt(0) === 0xfeff ? 1 : 0;
  const open = openAtEnd(piece, events, shift);
  if (check && open !== undefined) {
    parser.defined.length = definedBefore;
    return { links: [], open };
  }
  const links: MarkdownLink[] = [];
  let lastEnd = skip;
  const add = (link: MarkdownLink | undefined): void => {
    if (link === undefined || link.start - base < lastEnd) return;
    links.push(link);
    lastEnd = link.end - base;
  };

  collectDefinitions(ctx, piece, events, shift);
  let opaque = 0;
  let anchors = 0;
  let runStart = -1;
  let runEnd = -1;
  const flush = (): void => {
    if (runStart < 0) return;
    const from = Math.max(skip, runStart - RUN_CONTEXT);
    const found = ctx.scanner.scan(piece.slice(from, runEnd), runStart - from, true, base + from).links;
    for (const link of found) add({ ...link, construct: 'bare', destination: link.text });
    runStart = -1;
  };

  /** Open links and images: their type, and where their label text lies. */
  const stack: string[] = [];
  let labelTextStart = -1;
  let labelTextEnd = -1;
  let definitionLabel = '';

  for (let i = 0; i < events.length; i++) {
    const [kind, token] = events[i]!;
    const type = token.type;
    const s = token.start.offset + shift;
    const e = token.end.offset + shift;
    if (kind === 'exit') {
      if (OPAQUE.has(type)) opaque--;
      // Deviation (HTML): an `<a>` left open ends with its paragraph or heading here, not at the next `</a>`.
      if (type === 'paragraph' || type === 'atxHeading' || type === 'setextHeading') anchors = 0;
      if (type === 'labelText') {
        labelTextStart = s;
        labelTextEnd = e;
      } else if (type === 'label' && stack.length > 0) {
        // CommonMark §6.3: what follows the label decides the kind of link.
        const next = events[i + 1];
        const nextType = next !== undefined && next[0] === 'enter' ? next[1].type : '';
        if (nextType !== 'resource') {
          const construct = stack[stack.length - 1] === 'image' ? 'image-reference' : 'link-reference';
          const full = nextType === 'reference' ? referenceString(events, i + 2) : undefined;
          const a = full ? full.start.offset + shift : labelTextStart;
          const b = full ? full.end.offset + shift : labelTextEnd;
          const destination = ctx.definitions.get(normalizeIdentifier(piece.slice(a, b)));
          if (destination !== undefined && a < b) {
            // A collapsed or shortcut reference spans its label: links nested in it give way to it.
            if (!full) {
              while (links.length > 0 && links[links.length - 1]!.start - base >= a) links.pop();
              lastEnd = links.length > 0 ? links[links.length - 1]!.end - base : skip;
            }
            add(constructLink(ctx, piece, a, b, base, destination, false, construct));
          }
        }
      } else if (type === 'link' || type === 'image') {
        stack.pop();
      } else if (type === 'definition') {
        ctx.definitionsLinked.add(definitionLabel);
      }
      continue;
    }
    if (type === 'data') {
      if (opaque > 0 || anchors > 0) continue;
      if (s === runEnd && runStart >= 0) {
        runEnd = e;
      } else {
        flush();
        runStart = s;
        runEnd = e;
      }
      continue;
    }
    flush();
    switch (type) {
      case 'link':
      case 'image':
        stack.push(type);
        break;
      case 'label':
        labelTextStart = -1;
        labelTextEnd = -1;
        break;
      case 'resourceDestinationString':
        add(constructLink(ctx, piece, s, e, base, decodeString(piece.slice(s, e)), false, stack[stack.length - 1] === 'image' ? 'image' : 'link'));
        break;
      case 'definitionLabelString':
        definitionLabel = normalizeIdentifier(piece.slice(s, e));
        break;
      case 'definitionDestinationString':
        // §4.7: "If there are several matching definitions, the first one takes precedence": later ones are no links.
        if (!ctx.definitionsLinked.has(definitionLabel)) {
          add(constructLink(ctx, piece, s, e, base, decodeString(piece.slice(s, e)), false, 'definition'));
        }
        break;
      // §6.5: autolinks take their content as written: no escapes, no entity references.
      case 'autolinkProtocol':
        add(constructLink(ctx, piece, s, e, base, piece.slice(s, e), false, 'autolink'));
        break;
      case 'autolinkEmail':
        add(constructLink(ctx, piece, s, e, base, piece.slice(s, e), true, 'autolink'));
        break;
    }
    if (OPAQUE.has(type)) opaque++;
    // An HTML anchor written inline is a link too: no bare link in its text (`<a href="…">https://x/</a>`).
    if (type === 'htmlText') {
      const anchor = htmlAnchor(piece, s, e);
      if (anchor > 0) anchors++;
      else if (anchor < 0 && anchors > 0) anchors--;
    }
  }
  flush();
  return { links, open };
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
      if (token.end.offset + shift < piece.length) continue;
      let a = token.start.offset + shift;
      while (a > 0 && piece.charCodeAt(a - 1) !== 0x0a && piece.charCodeAt(a - 1) !== 0x0d) a--;
      let b = a;
      while (b < piece.length && piece.charCodeAt(b) !== 0x0a && piece.charCodeAt(b) !== 0x0d) b++;
      return piece.slice(a, b);
    }
  }
  return undefined;
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
      ctx.definitions.set(label, destination);
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
