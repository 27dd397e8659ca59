// Bare links in Markdown text that holds backslash escapes (CommonMark §2.4) or character references (§2.5), one
// rule for the Markdown mode (extract.ts), the markdown-it plugin and the remark plugin: a run of text is scanned as
// it is shown (each escape's backslash left out, each reference decoded), a link that would hold an escaped
// character is no link, and neither is one that would start or end inside the decoded text of a reference.
//
//   "see pam\_unix.so and https://a.example/b\_c and https://a.example/d"
//   shown: "see pam_unix.so and https://a.example/b_c and https://a.example/d"   (escaped `_` at 7 and 40)
//   links:                                                ⸠https://a.example/d⸡
//
//   "pay&#112;al.com/login and https://a.example/?a=1&amp;b=2"
//   shown: "paypal.com/login and https://a.example/?a=1&b=2"
//   links:  ⸠paypal.com/login⸡     ⸠https://a.example/?a=1&b=2⸡
//
// Scanning the text between escapes alone would link `unix.so` (no file name then) and `https://a.example/b`
// (another URL); the text as shown links neither, as plain mode would not. Scanning the text between references
// alone would link `al.com/login`, a host the reader does not see (the reader sees `paypal.com/login`), and cut the
// query after `a=1`. A reference is text once rendered, so the link goes through it; an escape is the author's way
// to keep a character from being read as markup, and GFM does not autolink through one (`http\://…`).
// https://spec.commonmark.org/0.31.2/#backslash-escapes
// https://spec.commonmark.org/0.31.2/#entity-and-numeric-character-references

import { decodeString } from 'micromark-util-decode-string';
import { codePointBefore, isHiddenJoiner, isHostDot, readAsOneName } from '../detect/chars.js';
import type { ScanResult, UnlinkedSpan } from '../detect/index.js';
import { unsafeCodes } from '../render/common.js';
import type { Link } from '../types.js';
import { isAlpha } from '../iri/chars.js';

/**
 * A scan of a run of text as shown, less the links that hold an escaped character or cut a reference's decoded
 * text. `escaped`: the offsets of the escaped characters, in the scan's coordinates, ascending. `references`: pairs
 * [from, to) of the decoded text of each character reference, in the scan's coordinates, ascending (empty: none).
 * Nothing the detector found inside such a link is a link either: an escape keeps what the author wrote from being
 * read as markup, and also from being linked (GFM does not autolink `http\://…` or `www\.example\.com`;
 * toMarkdownSource writes a link it refuses that way). One a renderer would refuse stays marked, as an unlinked span
 * with those reasons, so that toMarkdownSource still writes it inert (`https\://раураl\.com/x\.y`). The result's
 * spans keep the scan's coordinates, links and unlinked spans each in order.
 */
export function shownRunLinks(
  scanned: Pick<ScanResult, 'links' | 'unlinked'>,
  escaped: readonly number[],
  references: readonly number[] = NONE,
): { links: Link[]; unlinked: UnlinkedSpan[] } {
  if (escaped.length === 0 && references.length === 0) return scanned;
  const links: Link[] = [];
  const refused: UnlinkedSpan[] = [];
  let k = 0;
  let r = 0;
  for (const link of scanned.links) {
    while (k < escaped.length && escaped[k]! < link.start) k++;
    while (r < references.length && references[r + 1]! <= link.start) r += 2;
    if ((k === escaped.length || escaped[k]! >= link.end) && !cutsReference(references, r, link.start, link.end)) {
      links.push(link);
      continue;
    }
    const unsafe = unsafeCodes(link.diagnostics);
    if (unsafe.length > 0) refused.push({ start: link.start, end: link.end, diagnostics: [...unsafe] });
  }
  if (refused.length === 0) return { links, unlinked: scanned.unlinked };
  return { links, unlinked: [...scanned.unlinked, ...refused].sort((a, b) => a.start - b.start) };
}

const NONE: readonly number[] = [];

/** Whether [start, end) starts or ends strictly inside a reference's text, looking from pair `r` (the first ending after start). */
function cutsReference(references: readonly number[], r: number, start: number, end: number): boolean {
  for (; r < references.length && references[r]! < end; r += 2) {
    const from = references[r]!;
    const to = references[r + 1]!;
    if ((from < start && start < to) || (from < end && end < to)) return true;
  }
  return false;
}

// hidden-split across markup (SECURITY.md). Emphasis and strikethrough end a run of text, and a reader does not see
// their delimiters: `pay*p*al.com/login` shows `paypal.com/login` (one letter in italics), where the run after the
// emphasis alone links `al.com/login`. As for an invisible character inside a name (scanner.ts hiddenSplit), a link
// glued through such markup to a letter, digit or `-` of the same script, or to a host dot and one, is flagged
// `hidden-split`, so no renderer makes it clickable. Glued means: nothing but delimiters (or inline HTML tags,
// `pay<b>p</b>al.com`, a code span's backtick strings, a link's `[` and `](…)`) between the link's run of text and the
// text shown beside it, as the parse has it (a `*` that is text is no delimiter, and shows). A code span's content
// and a link's text are shown text that is not linked again (`` pay`p`al.com `` shows `paypal.com`, one letter in
// another font; `pay[p](https://x.example/)al.com` too). The Markdown mode reads it
// from the runs it reads, the remark plugin from the text and code nodes of a block and their places in the source,
// the markdown-it plugin from the tokens around the run.

/**
 * What a reader sees glued to one side of a run through markup: the nearest code point and the one beyond it (−1:
 * none), and the invisible characters looked through to reach it (JOINERS).
 */
export interface Glued {
  near: number;
  far: number;
  joiners: Joiners;
}

/** Invisible characters looked through: none, only U+200B (a word space in Thai, Khmer, Japanese…), or others. */
type Joiners = 0 | 1 | 2;

export const NOT_GLUED: Glued = { near: -1, far: -1, joiners: 0 };

function isDelimiter(c: number): boolean {
  return c === 0x2a || c === 0x5f || c === 0x7e;
}

/**
 * Where the emphasis or strikethrough delimiters right before source[runStart] start (at `floor` at most; runStart
 * when there are none).
 */
export function delimitersBefore(source: string, floor: number, runStart: number): number {
  let d = runStart;
  while (d > floor && isDelimiter(source.charCodeAt(d - 1))) d--;
  return d;
}

/**
 * Whether source[from, to), the markup between two stretches of shown text, is all emphasis and strikethrough
 * delimiters, inline raw HTML (`<b>`, `</span>`, `<!-- -->`, `<?x?>`: a renderer shows none), code spans'
 * backtick strings and the `[` that opens a link's text, and not empty. Called only on what the parse left out of the text, where a `<…>` is inline
 * HTML or an autolink, which is shown (`<https://…>`: no tag), a backtick is a code span's and a `[` a link's (one
 * that is text is in the text; an image's `![` is no link's: its description is not shown as text).
 */
export function onlyHiddenMarkup(source: string, from: number, to: number): boolean {
  if (from >= to) return false;
  for (let i = from; i < to; ) {
    const c = source.charCodeAt(i);
    if (isDelimiter(c) || c === BACKTICK || c === 0x5b) {
      i++;
      continue;
    }
    const end = c === 0x3c ? hiddenHtmlEnd(source, i, to) : -1;
    if (end < 0 || end > to) return false;
    i = end;
  }
  return true;
}

const BACKTICK = 0x60;

/**
 * What the content source[s, e) of a code span shows (CommonMark §6.1): line endings as spaces, and one space
 * stripped from each end when both ends are spaces and not all of it is. Container prefixes on continuation lines
 * stay (a code span over lines in a block quote keeps its `>`): hidden-split reads only the first and last two code
 * points, which are a space there either way or nothing of a name.
 */
export function codeSpanText(source: string, s: number, e: number): string {
  let text = source.slice(s, e);
  if (text.includes('\n') || text.includes('\r')) text = text.replace(/\r\n?|\n/g, ' ');
  if (text.length > 1 && text.charCodeAt(0) === 0x20 && text.charCodeAt(text.length - 1) === 0x20 && /[^ ]/.test(text)) text = text.slice(1, -1);
  return text;
}

/** Where the content of the code span source[s, e) starts: after its opening backtick string. */
export function codeSpanContentStart(source: string, s: number, e: number): number {
  let i = s;
  while (i < e && source.charCodeAt(i) === BACKTICK) i++;
  return i;
}

/** Whether `html` (markdown-it's html_inline token) is one piece of raw HTML shown as nothing (hiddenHtmlEnd). */
export function isHiddenHtml(html: string): boolean {
  return hiddenHtmlEnd(html, 0, html.length) === html.length;
}

/** An HTML open or closing tag (CommonMark §6.6, without attribute values that hold `<`, `>` or a line ending). */
const TAG = /<\/?[A-Za-z][A-Za-z0-9-]*(?:[ \t][^<>\n\r]*)?\/?>/y;

/**
 * Where the inline HTML that a renderer shows as nothing and that starts at source[i] (a `<`) ends, at `limit` at the
 * most; −1 when there is none. CommonMark §6.6's raw HTML, all of it: a tag (TAG), a comment (`<!-->`, `<!--->`, or
 * `<!--` up to the first `-->`), a processing instruction (`<?` up to the first `?>`), a declaration (`<!X…>`) and a
 * CDATA section (`<![CDATA[` up to the first `]]>`). The HTML parsing algorithm reads the last three in a
 * document's body as comments (its "bogus comment" state; CDATA is a section only in SVG and MathML), so none of them
 * shows: `pay<!-- -->pal.com` and `pay<?x?>pal.com` show `paypal.com`.
 */
function hiddenHtmlEnd(source: string, i: number, limit: number): number {
  if (source.charCodeAt(i) !== 0x3c) return -1;
  if (source.charCodeAt(i + 1) === 0x21) {
    if (source.startsWith('<!--', i)) {
      if (source.startsWith('>', i + 4)) return i + 5;
      if (source.startsWith('->', i + 4)) return i + 6;
      return endAfter(source, i + 4, limit, '-->');
    }
    if (source.startsWith('<![CDATA[', i)) return endAfter(source, i + 9, limit, ']]>');
    return isAlpha(source.charCodeAt(i + 2)) ? endAfter(source, i + 3, limit, '>') : -1;
  }
  if (source.charCodeAt(i + 1) === 0x3f) return endAfter(source, i + 2, limit, '?>');
  TAG.lastIndex = i;
  return TAG.test(source) ? TAG.lastIndex : -1;
}

/** The end of the first `close` in source[from, limit), or −1. */
function endAfter(source: string, from: number, limit: number, close: string): number {
  const at = limit - from < close.length ? -1 : source.slice(from, limit).indexOf(close);
  return at < 0 ? -1 : from + at + close.length;
}

/**
 * Units of invisible characters (isHiddenJoiner: those UTS #46 maps to nothing, ZWNJ, ZWJ) looked through between the
 * markup and the text or link beside it, as the scanner looks through them inside a run (scanner.ts hiddenSplit):
 * `**pay**\u00ADpal.com` shows `paypal.com` too.
 */
const JOINERS = 8;

/** Where the run of invisible characters that ends text[…, i) starts (at most JOINERS units back). */
function joinersBefore(text: string, i: number): number {
  let k = i;
  while (k > 0 && i - k < JOINERS) {
    const cp = codePointBefore(text, k);
    if (!isHiddenJoiner(cp)) break;
    k -= cp > 0xffff ? 2 : 1;
  }
  return k;
}

/** Where the run of invisible characters that starts text[i, …) ends (at most JOINERS units on). */
function joinersAfter(text: string, i: number, end = text.length): number {
  let k = i;
  while (k < end && k - i < JOINERS) {
    const cp = text.codePointAt(k)!;
    if (!isHiddenJoiner(cp)) break;
    k += cp > 0xffff ? 2 : 1;
  }
  return k;
}

/** The kind of the invisible characters text[from, to) (JOINERS). */
function joinersIn(text: string, from: number, to: number): Joiners {
  if (from >= to) return 0;
  for (let i = from; i < to; i++) if (text.charCodeAt(i) !== 0x200b) return 2;
  return 1;
}

/** The last two code points of `text` as glued before what follows it (invisible characters looked through). */
export function tailOf(text: string): Glued {
  const end = joinersBefore(text, text.length);
  if (end === 0) return NOT_GLUED;
  const near = codePointBefore(text, end);
  const k = joinersBefore(text, end - (near > 0xffff ? 2 : 1));
  return { near, far: k > 0 ? codePointBefore(text, k) : -1, joiners: joinersIn(text, end, text.length) };
}

/** The first two code points of `text` as glued after what comes before it (invisible characters looked through). */
export function headOf(text: string): Glued {
  const start = joinersAfter(text, 0);
  if (start >= text.length) return NOT_GLUED;
  const near = text.codePointAt(start)!;
  const k = joinersAfter(text, start + (near > 0xffff ? 2 : 1));
  return { near, far: k < text.length ? text.codePointAt(k)! : -1, joiners: joinersIn(text, 0, start) };
}

/**
 * Flags `hidden-split` on a link of a run that starts where the run starts (`runStart`) and has `before` glued to
 * it, or ends where the run ends (`runEnd`) and has `after` glued to it; `text` is the run's text in the links'
 * coordinates from `at`. Invisible characters between the run's edge and the link are looked through. The links'
 * diagnostics arrays are replaced, not changed.
 */
export function flagGluedByMarkup(links: readonly Link[], text: string, at: number, runStart: number, runEnd: number, before: Glued, after: Glued): void {
  if (links.length === 0) return;
  const first = links[0]!;
  // (Before a link written with its scheme, the name glued changes the scheme shown, not the host: scanner.ts.)
  if (before.near >= 0 && first.schemeInferred) {
    const s = runStart - at;
    const j = joinersAfter(text, s);
    if (first.start - at === j && glued(before, text.codePointAt(j)!, true, joinersIn(text, s, j))) flagHiddenSplit(first);
  }
  const last = links[links.length - 1]!;
  if (after.near >= 0) {
    const e = last.end - at;
    if (endsRun(text, e, runEnd - at) && glued(after, codePointBefore(text, e), false, joinersIn(text, e, runEnd - at))) flagHiddenSplit(last);
  }
}

/** Whether a link ending at text[…, i) ends its run (text[…, end)), but for invisible characters. */
export function endsRun(text: string, i: number, end: number): boolean {
  return i <= end && joinersAfter(text, i, end) === end;
}

/**
 * Whether `side` glues to a link whose edge code point is `edge` (`before`: side comes before the link), through
 * `joiners` on the link's side too (JOINERS). Only U+200B between them: a word space in a script written without
 * spaces, no glue there (as in scanner.ts hiddenSplit).
 */
export function glued(side: Glued, edge: number, before: boolean, joiners: Joiners = 0): boolean {
  const cp = isHostDot(side.near) ? side.far : side.near;
  const kind = side.joiners === 2 || joiners === 2 ? 2 : side.joiners === 1 || joiners === 1 ? 1 : 0;
  return cp >= 0 && (before ? readAsOneName(cp, edge, kind === 1) : readAsOneName(edge, cp, kind === 1));
}

/** Adds `hidden-split` to a link's diagnostics (a new array). */
export function flagHiddenSplit(link: Link): void {
  if (!link.diagnostics.includes('hidden-split')) link.diagnostics = [...link.diagnostics, 'hidden-split'];
}

/**
 * hidden-split in text the Markdown mode reads as plain text without parsing it (hostile.ts: a paragraph holding
 * more inline marks than micromark parses in linear time). Whether a `*` or a `<b>` there is markup is not known, so
 * any run of what may be hidden markup beside a link counts as hidden: delimiters, backtick strings, `[` `]`, inline
 * raw HTML (tags, comments and the like), a link destination `](…)` (its label is shown), and invisible characters, written plainly or
 * as character references (`&shy;`). A link glued through such a run to a name (readAsOneName, a host dot looked
 * through) is flagged: `**pay**pal.com/login`,
 * `https://pay<b>pal.com</b>/login`, `[pay](https://x.example/)pal.com`; the text beside the markup is read as shown
 * (references decoded), and a link glued to a reference to a character shown is flagged too: `pay&#112;al.com/login`
 * shows `paypal.com/login` (the parsed paths link it whole). It errs toward flagging: such a paragraph
 * is made to be costly, and a flag only withholds a link. `links` are in piece coordinates from `base`, in order,
 * and lie in piece[s, e); their diagnostics arrays are replaced, not changed. Each walk stops at the link before or
 * after, so the whole takes time in proportion to the text.
 */
export function flagGluedInUnparsed(links: readonly Link[], piece: string, base: number, s: number, e: number): void {
  for (let k = 0; k < links.length; k++) {
    const link = links[k]!;
    const start = link.start - base;
    const end = link.end - base;
    const prev = k > 0 ? links[k - 1]! : undefined;
    const floor = prev === undefined ? s : prev.end - base;
    const m = markupBefore(piece, floor, start, s, prev === undefined ? -1 : prev.start - base);
    // (Or a reference to a character shown, which the scan read as its `;`: `pay&#112;al.com`. A link written with its
    // scheme keeps its host apart from what is glued before it: scanner.ts hiddenSplit.)
    if (link.schemeInferred && (m < start || (start > s && piece.charCodeAt(start - 1) === SEMICOLON))) {
      // (A host dot alone between markup is read with what is before it: `example<b>.</b>paypal.com`.)
      let shown = shownBefore(piece, s, m);
      const dot = codePointBefore(piece, m);
      if (m > floor && isHostDot(dot)) {
        const d = m - (dot > 0xffff ? 2 : 1);
        const before = markupBefore(piece, floor, d, s, -1);
        if (before < d) shown = shownBefore(piece, s, before) + piece.slice(d, m);
      }
      if (glued(tailOf(shown), piece.codePointAt(start)!, true, joinersAmong(piece, m, start))) {
        flagHiddenSplit(link);
        continue;
      }
    }
    const ceiling = k + 1 < links.length ? links[k + 1]!.start - base : e;
    const n = markupAfter(piece, end, ceiling);
    if (n > end || (end < e && piece.charCodeAt(end) === AMPERSAND)) {
      let shown = shownAfter(piece, n, e);
      const dot = n < ceiling ? piece.codePointAt(n)! : -1;
      if (isHostDot(dot)) {
        const d = n + (dot > 0xffff ? 2 : 1);
        const after = markupAfter(piece, d, ceiling);
        if (after > d) shown = piece.slice(n, d) + shownAfter(piece, after, e);
      }
      if (glued(headOf(shown), codePointBefore(piece, end), false, joinersAmong(piece, end, n))) flagHiddenSplit(link);
    }
  }
}

/** Units read beyond a markup run for what is glued to it (headOf and tailOf read two code points and joiners). */
const SIDE = 16;
const SEMICOLON = 0x3b;
const AMPERSAND = 0x26;

/**
 * The last units text[from, to) shows (SIDE of them at least, if there are): character references and backslash
 * escapes decoded (CommonMark §2.4, §2.5), so that a reference to a character shown glues as the character:
 * `pay&#112;al.com` shows `paypal.com`, where the scan read `al.com` after a `;`.
 */
function shownBefore(text: string, from: number, to: number): string {
  return decodeString(text.slice(Math.max(from, to - SIDE - LONGEST_REFERENCE), to));
}

/** The first units text[from, to) shows (SIDE of them at least, if there are), as in shownBefore. */
function shownAfter(text: string, from: number, to: number): string {
  return decodeString(text.slice(from, Math.min(to, from + SIDE + LONGEST_REFERENCE)));
}

/**
 * Where the run of possible markup (flagGluedInUnparsed) that ends text[…, i) starts, at `floor` at the least;
 * `prevStart`: where the link that ends at `floor` starts (−1: none), which may be the destination of a `](…)`, and
 * then the walk goes on before that `](`, at `runStart` at the least (each run of markup is walked by at most three
 * links: the one after it, the one before it, and the one after a destination after it).
 */
function markupBefore(text: string, floor: number, i: number, runStart: number, prevStart: number): number {
  let k = i;
  while (k > floor) {
    const c = text.charCodeAt(k - 1);
    if (isDelimiter(c) || c === BACKTICK || c === 0x5b || c === 0x5d) {
      k--;
    } else if (c === 0x3e) {
      // A tag, or a comment, a processing instruction or a CDATA section (whose text may hold a `<`, even its own
      // opener: it starts at the first opener after the last closer before its own; found in review).
      const lt = sectionBefore(text, floor, k);
      if (lt < 0 || hiddenHtmlEnd(text, lt, k) !== k) break;
      k = lt;
    } else if (c === SEMICOLON) {
      // A character reference to an invisible character (`&shy;`, `&#x200B;`): the walk goes on before its `&`.
      const amp = lastIndexWithin(text, '&', Math.max(floor, k - LONGEST_REFERENCE), k);
      if (amp < 0 || hiddenReference(text, amp) !== k) break;
      k = amp;
    } else if (c === 0x29) {
      // `](…)` with a destination (the link before, maybe in `<…>` and with a title after it, or text without
      // spaces): the label's text before it is shown.
      const open = prevStart >= 0 ? destinationBefore(text, runStart, prevStart, floor, k - 1) : -1;
      if (open >= 0) {
        k = open;
        floor = runStart;
        prevStart = -1; // (once: the walk from here may meet another `)` at the run's start)
        continue;
      }
      const bare = lastIndexWithin(text, '](', floor, k);
      if (bare < 0 || /[\s()]/.test(text.slice(bare + 2, k - 1))) break;
      k = bare;
    } else {
      const j = joinersBefore(text, k);
      if (j === k || j < floor) break;
      k = j;
    }
  }
  return k;
}

/**
 * Where the `](` starts when the link text[prevStart, prevEnd) is the destination of a `](…)` whose `)` is at
 * `close`: right after `](` or `](<`, and followed by nothing but its `>`, a title and spaces (CommonMark §6.3); −1
 * when it is not. Reads at most REACH units.
 */
function destinationBefore(text: string, runStart: number, prevStart: number, prevEnd: number, close: number): number {
  if (close - prevEnd > REACH) return -1;
  const angle = text.charCodeAt(prevStart - 1) === 0x3c ? 1 : 0;
  const open = prevStart - 2 - angle;
  if (open < runStart || !text.startsWith('](', open)) return -1;
  const rest = text.slice(prevEnd, close);
  return (angle ? /^>(?:[ \t]+(?:"[^"]*"|'[^']*'|\([^()]*\)))?[ \t]*$/ : /^(?:[ \t]+(?:"[^"]*"|'[^']*'|\([^()]*\)))?[ \t]*$/).test(rest) ? open : -1;
}

/**
 * The last `needle` in text[from, to), looked for at most REACH units back (a tag or a destination longer than that
 * is not looked through), or −1: a search that fails costs no more than the text it may look at.
 */
function lastIndexWithin(text: string, needle: string, from: number, to: number): number {
  const w = Math.max(from, to - REACH);
  const r = text.slice(w, to).lastIndexOf(needle);
  return r < 0 ? -1 : w + r;
}

const REACH = 2048;

/** The raw HTML that holds text up to a closer of its own (CommonMark §6.6): its opener and closer. */
const SECTIONS: readonly (readonly [string, string])[] = [
  ['<!--', '-->'],
  ['<?', '?>'],
  ['<![CDATA[', ']]>'],
];

/**
 * Where the raw HTML that ends at text[…, k) (a `>`) may start, not before `floor`: a comment, a processing instruction
 * or a CDATA section closed there starts at the first opener after the last closer before its own (within REACH units
 * back); anything else (a tag, a declaration; `<!-->` and `<!--->`, comments too) at the last `<`. −1 when there is
 * none.
 */
function sectionBefore(text: string, floor: number, k: number): number {
  for (const [open, close] of SECTIONS) {
    if (!text.startsWith(close, k - close.length)) continue;
    const w = Math.max(floor, k - REACH);
    const window = text.slice(w, k);
    const before = window.length - close.length;
    const lastClose = before >= close.length ? window.lastIndexOf(close, before - close.length) : -1;
    const at = window.indexOf(open, lastClose < 0 ? 0 : lastClose + close.length);
    if (at >= 0 && at + open.length <= before) return w + at;
  }
  // (A declaration whose text holds a `<`, `<!X a<b>`, is read from that `<`: taken from its `<!`, the text between
  // would count as hidden, and an escaped `\<!X` there would hide the text glued to a real tag after it.)
  return lastIndexWithin(text, '<', floor, k);
}

/**
 * The kind of the invisible characters among the markup text[from, to) (JOINERS), those written as character
 * references too.
 */
function joinersAmong(text: string, from: number, to: number): Joiners {
  let kind: Joiners = 0;
  for (let i = from; i < to; ) {
    let cp = text.codePointAt(i)!;
    let next = i + (cp > 0xffff ? 2 : 1);
    if (cp === AMPERSAND) {
      const end = hiddenReference(text, i);
      if (end > 0 && end <= to) {
        cp = decodeString(text.slice(i, end)).codePointAt(0)!;
        next = end;
      }
    }
    if (isHiddenJoiner(cp)) {
      if (cp !== 0x200b) return 2;
      kind = 1;
    }
    i = next;
  }
  return kind;
}

/** A character reference (CommonMark §2.5): `&` and a name of up to 31 more letters and digits, or a number, then `;`. */
const REFERENCE = /&(?:#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});/y;
const LONGEST_REFERENCE = 34;

/**
 * Where the character reference at text[amp] ends, when it stands for an invisible character a reader does not see
 * (isHiddenJoiner: `&shy;`, `&zwj;`, `&#x200B;`, `&NoBreak;`); −1 otherwise. In a paragraph read as plain text it may be
 * such a character when shown (the parsed paths decode it, extract.ts).
 */
function hiddenReference(text: string, amp: number): number {
  REFERENCE.lastIndex = amp;
  if (!REFERENCE.test(text)) return -1;
  const end = REFERENCE.lastIndex;
  const shown = decodeString(text.slice(amp, end));
  const cp = shown.codePointAt(0)!;
  return shown.length === (cp > 0xffff ? 2 : 1) && isHiddenJoiner(cp) ? end : -1;
}

/** Where the run of possible markup (flagGluedInUnparsed) that starts text[i, …) ends, at `ceiling` at the most. */
function markupAfter(text: string, i: number, ceiling: number): number {
  let k = i;
  while (k < ceiling) {
    const c = text.charCodeAt(k);
    if (isDelimiter(c) || c === BACKTICK || c === 0x5b || c === 0x5d) {
      k++;
    } else if (c === 0x3c) {
      const end = hiddenHtmlEnd(text, k, ceiling);
      if (end < 0 || end > ceiling) break;
      k = end;
    } else if (c === AMPERSAND) {
      const end = hiddenReference(text, k);
      if (end < 0 || end > ceiling) break;
      k = end;
    } else {
      const j = joinersAfter(text, k, ceiling);
      if (j === k) break;
      k = j;
    }
  }
  return k;
}
