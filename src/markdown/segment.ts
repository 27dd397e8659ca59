// Cutting Markdown into independently parseable pieces (CommonMark 0.31 §5 "Container blocks", §4 "Leaf blocks"),
// so that the parser's memory stays flat however long the document is.
//
// A piece may end before a line L when the line before L is blank, L starts with a non-blank character in column 0,
// and no fenced code block (§4.5) or HTML block of kinds 1–5 (§4.6, the only leaf blocks that run on across blank
// lines) is open. Then every open block ends there: a blank line closes paragraphs (§4.8), HTML blocks 6–7 and
// block quotes (§5.1, no laziness across a blank line), and an unindented line after a blank line closes every
// list item (§5.2) and cannot continue indented code (§4.4). So the events of the pieces, parsed one by one, are
// those of the whole document — except for link reference definitions, which the caller carries across pieces.
//
//   para one https://a.example/
//   ␤                              ← blank line
//   > quote                        ← column 0, nothing open: a piece may start here
//
// The tracker below follows fences and HTML blocks 1–5 line by line. It reads only lines that can open one at the
// top level: not after a `>` (a block quote ends at the next blank line, and its fence with it), and, inside a
// list, not the indented lines (an item's fence ends with the item, at the next unindented line after a blank).
// Deviation (CommonMark §5.2): a top-level fence indented 1–3 columns right after a list is taken as list content.
// The tracker only proposes cuts: the parser vets each one (extract.ts readPiece) — a piece that ends inside a
// top-level fence or HTML block is not released, and the tracker takes the parser's word (reopen). So a wrong guess
// costs one parse, never a wrong answer (test/markdown.test.ts: pieces equal one parse of the whole text).

import { isAlpha } from '../iri/chars.js';

const SPACE = 0x20;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;

/** Where the tracker is. */
const NORMAL = 0;
const FENCE = 1;
const HTML = 2;

/** CommonMark §4.6 end conditions of HTML blocks 1–5, by kind. */
const HTML_END = ['', '', '-->', '?>', '>', ']]>'] as const;
const HTML1_TAGS = ['script', 'pre', 'style', 'textarea'] as const;

export class BlockTracker {
  private mode = NORMAL;
  private fenceChar = 0;
  private fenceLength = 0;
  /** HTML block kind 1–5 while mode is HTML (kind 1: the closing tag in htmlCloser). */
  private htmlKind = 0;
  private htmlCloser = '';
  private prevBlank = false;
  private inList = false;
  /**
   * No paragraph outside a top-level list item is open before the next line: the piece starts there, or the line
   * before it was blank or started a top-level item (itemStartsAt).
   */
  private noParagraph = true;

  /**
   * Whether a piece may end right before the line text[start, end) (end excludes the line ending), given the
   * lines seen so far. Call before line().
   */
  canCutBefore(text: string, start: number, end: number): boolean {
    if (this.mode !== NORMAL || !this.prevBlank || start >= end) return false;
    const c = text.charCodeAt(start);
    return c !== SPACE && c !== TAB;
  }

  /**
   * Whether a top-level list item starts at the line text[start, end), given the lines seen so far (call before
   * line()): a list marker in column 0 followed by a space and text (so not a thematic break; startsItem below),
   * while no fence or HTML block of kinds 1–5 is open at the top level. CommonMark §5.2: such an item ends a paragraph,
   * and an unindented line ends every list item, block quote and indented code block before it; so the blocks
   * before it end there, but for the list it continues (whose tightness and start number hold no link) and an HTML
   * block of kinds 6–7, which ends only at a blank line (the parser's word decides that one: extract.ts).
   */
  itemStartsAt(text: string, start: number, end: number): boolean {
    return this.mode === NORMAL && startsItem(text, start, end, !this.noParagraph);
  }

  /**
   * The parser found a fence or HTML block open where the tracker did not (its guess about a list was wrong):
   * take its first line as the current state.
   */
  reopen(opener: string): void {
    this.mode = NORMAL;
    this.inList = false;
    this.line(opener, 0, opener.length);
  }

  /** Feeds the line text[start, end) (without its line ending). */
  line(text: string, start: number, end: number): void {
    // A line of nothing but list markers is an empty item where no paragraph is open, and opens none; after a
    // paragraph it continues it (§5.2: an empty item interrupts no paragraph).
    this.noParagraph = this.itemStartsAt(text, start, end) || (this.noParagraph && this.mode === NORMAL && onlyMarkers(text, start, end));
    // Indentation in columns (tabs to the next multiple of 4, CommonMark §2.2).
    let i = start;
    let col = 0;
    for (; i < end; i++) {
      const c = text.charCodeAt(i);
      if (c === SPACE) col++;
      else if (c === TAB) col += 4 - (col % 4);
      else break;
    }
    const blank = i === end;
    if (this.mode === FENCE) {
      // §4.5: the closing fence — at most 3 columns of indentation, at least as many fence characters, then blanks.
      if (col < 4 && runLength(text, i, end, this.fenceChar) >= this.fenceLength) {
        let j = i + runLength(text, i, end, this.fenceChar);
        while (j < end && (text.charCodeAt(j) === SPACE || text.charCodeAt(j) === TAB)) j++;
        if (j === end) this.mode = NORMAL;
      }
      this.prevBlank = false;
      return;
    }
    if (this.mode === HTML) {
      if (this.htmlEnds(text, start, end)) this.mode = NORMAL;
      this.prevBlank = false;
      return;
    }
    if (blank) {
      this.prevBlank = this.noParagraph = true;
      return;
    }
    const c = text.charCodeAt(i);
    if (col === 0 && this.prevBlank && !isListMarker(text, i, end)) this.inList = false;
    if (col < 4 && isListMarker(text, i, end)) this.inList = true;
    this.prevBlank = false;
    // Deviation (CommonMark §5.2): indented lines inside a list are taken as item content (see the head comment).
    if (col >= 4 || (col > 0 && this.inList)) return;
    if (c === 0x60 || c === 0x7e) {
      // §4.5: a code fence is at least three backticks or tildes; a backtick fence's info string has no backtick.
      const n = runLength(text, i, end, c);
      if (n >= 3 && (c === 0x7e || text.indexOf('`', i + n) < 0 || text.indexOf('`', i + n) >= end)) {
        this.mode = FENCE;
        this.fenceChar = c;
        this.fenceLength = n;
      }
      return;
    }
    if (c === 0x3c) this.htmlStart(text, i, end);
  }

  // CommonMark §4.6 start conditions 1–5.
  private htmlStart(text: string, i: number, end: number): void {
    let kind = 0;
    let after = i;
    if (text.startsWith('<!--', i)) {
      kind = 2;
      after = i + 2; // `<!-->` and `<!--->` are whole comments (§6.6): the end condition's `-->` may overlap the start
    } else if (text.startsWith('<?', i)) {
      kind = 3;
      after = i + 2;
    } else if (text.startsWith('<![CDATA[', i)) {
      kind = 5;
      after = i + 9;
    } else if (text.charCodeAt(i + 1) === 0x21 && isAlpha(text.charCodeAt(i + 2))) {
      kind = 4;
      after = i + 2;
    } else {
      for (const tag of HTML1_TAGS) {
        const e = i + 1 + tag.length;
        if (e > end || text.slice(i + 1, e).toLowerCase() !== tag) continue;
        const d = e < end ? text.charCodeAt(e) : SPACE;
        if (d === SPACE || d === TAB || d === 0x3e) {
          kind = 1;
          after = e;
          this.htmlCloser = '</' + tag + '>';
        }
        break;
      }
    }
    if (kind === 0) return;
    this.htmlKind = kind;
    // "If the first line meets both the start condition and the end condition, the block will contain just that line."
    if (this.htmlEnds(text, after, end)) return;
    this.mode = HTML;
  }

  /** Whether the line text[start, end) holds the end condition (read within the line: a search to the end of the
   * text, for every line of an HTML block never closed, was quadratic). */
  private htmlEnds(text: string, start: number, end: number): boolean {
    const line = text.slice(start, end);
    return this.htmlKind === 1 ? line.toLowerCase().includes(this.htmlCloser) : line.includes(HTML_END[this.htmlKind]!);
  }
}

/**
 * Whether the line text[start, end) starts a top-level list item whatever the line before it ends: a list marker
 * (`-` `+` `*`, or 1–9 digits and `.` or `)`) in column 0, then text within 4 spaces (no tab: indented code decides
 * nothing here) after each marker, and not a thematic break. Nested markers (`- - x`) may come first. With
 * `interrupting`, the line must also start an item right after a paragraph: micromark lets no empty nested item
 * (`- *`) or one not numbered 1 (`2. x`, `- 2. x`) interrupt a paragraph (it reads `a⏎+ *` as an item holding the
 * text `*`), so such a line may continue the paragraph before it. Without a paragraph before it (at the start, after
 * a blank line, or after a line that starts an item, whose text is the item's), such a line starts the same item as
 * at the start of a parse (`+ *⏎+ *`: each an item holding an empty one).
 */
function startsItem(text: string, start: number, end: number, interrupting: boolean): boolean {
  if (start + 2 >= end || !isListMarker(text, start, end)) return false;
  const c = text.charCodeAt(start);
  let j = start;
  for (;;) {
    const marker = j;
    const m = markerEnd(text, j);
    if (interrupting && isDigitAt(text, j) && (m !== j + 2 || text.charCodeAt(j) !== 0x31)) return false;
    // An empty nested item (the marker ends the line, or 1 to 4 spaces do) may end the line only without a paragraph
    // before it.
    const mayBeEmpty = !interrupting && marker > start;
    if (m >= end) return mayBeEmpty && notThematicBreak(text, start, end, c);
    if (text.charCodeAt(m) !== SPACE) return false;
    j = m + 1;
    while (j < end && j < m + 4 && text.charCodeAt(j) === SPACE) j++;
    if (j >= end) return mayBeEmpty && notThematicBreak(text, start, end, c);
    if (text.charCodeAt(j) === SPACE || text.charCodeAt(j) === TAB) return false;
    if (!isListMarker(text, j, end)) break;
  }
  return notThematicBreak(text, j, end, c);
}

/** Whether the line text[start, end) is list markers (from column 0), spaces and tabs only: `2) `, `- 1.`, `*`. */
function onlyMarkers(text: string, start: number, end: number): boolean {
  let i = start;
  while (i < end) {
    if (!isListMarker(text, i, end)) return false;
    i = markerEnd(text, i);
    while (i < end && (text.charCodeAt(i) === SPACE || text.charCodeAt(i) === TAB)) i++;
  }
  return i > start;
}

/** The index after the list marker at i (isListMarker): a bullet, or the digits and the `.` or `)`. */
function markerEnd(text: string, i: number): number {
  if (!isDigitAt(text, i)) return i + 1;
  let j = i + 1;
  while (isDigitAt(text, j)) j++;
  return j + 1;
}

/** §4.1: text[i, end) holds a character other than the bullet `c`, a space or a tab (so no thematic break). */
function notThematicBreak(text: string, i: number, end: number, c: number): boolean {
  for (let k = i; k < end; k++) {
    const d = text.charCodeAt(k);
    if (d !== c && d !== SPACE && d !== TAB) return true;
  }
  return false;
}

/** Whether text[i] is an ASCII digit (an ordered list marker there, for itemStartsAt). */
function isDigitAt(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  return c >= 0x30 && c <= 0x39;
}

function runLength(text: string, i: number, end: number, c: number): number {
  let j = i;
  while (j < end && text.charCodeAt(j) === c) j++;
  return j - i;
}

// CommonMark §5.2: a bullet (- + *) or 1–9 digits then `.` or `)`, followed by a blank or the end of the line.
function isListMarker(text: string, i: number, end: number): boolean {
  const c = text.charCodeAt(i);
  let j = i;
  if (c === 0x2d || c === 0x2b || c === 0x2a) {
    j = i + 1;
  } else {
    while (j < end && j - i < 10 && text.charCodeAt(j) >= 0x30 && text.charCodeAt(j) <= 0x39) j++;
    if (j === i || j - i > 9) return false;
    const d = text.charCodeAt(j);
    if (d !== 0x2e && d !== 0x29) return false;
    j++;
  }
  if (j >= end) return true;
  const d = text.charCodeAt(j);
  return d === SPACE || d === TAB;
}

/** Index of the end of the line starting at `i` (the first CR or LF at or after i, or -1 when there is none yet). */
export function lineEnd(text: string, i: number): number {
  for (let j = i; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (c === LF || c === CR) return j;
  }
  return -1;
}

/** Length of the line ending at `i` (CR LF counts 2; a CR that ends `text` counts 1). */
export function lineEndingLength(text: string, i: number): number {
  if (text.charCodeAt(i) === LF) return 1;
  return i + 1 < text.length && text.charCodeAt(i + 1) === LF ? 2 : 1;
}
