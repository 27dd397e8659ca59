// Deviation (bounded time on hostile input): text that micromark would take super-linear time to parse is read as
// plain text instead (its bare links found as in plain mode; nothing in it counts as code, a link's text or HTML).
//
// micromark's time grows faster than the text on four families of shapes, measured with linkifyMarkdown on this
// project's 2-core machine (each row one line or one paragraph; the whole text went to micromark):
//   containers opened on one line (CommonMark §5.1, §5.2):
//     `- - … x`       4 KB 0.5 s, 16 KB 12.3 s           `1. 1. … x`   16 KB 0.26 s, 64 KB 9.8 s
//     `> > … x`      64 KB 5.1 s, 256 KB 85 s            `> - > - … x` 16 KB 0.29 s, 64 KB 12.4 s
//   emphasis and strikethrough delimiter runs in one paragraph (§6.2, GFM §6.5):
//     `**_` × n      64 KB 2.0 s, 256 KB 34 s            `a*` × n      64 KB 1.0 s, 256 KB 15 s
//     `~~a` × n      64 KB 5.0 s, 256 KB 90 s            `a*⏎` × n     16 KB 0.09 s, 64 KB 0.54 s
//   list items inside a block quote (micromark moves the events of the whole parse at each nested container's close;
//   outside quotes extract.ts splits long lists instead):
//     `> - a⏎>   - b⏎` × n   16 KB 0.6 s, 64 KB 10 s
//   inline HTML that is never closed in its paragraph (§6.6: each opener is tried up to the paragraph's end):
//     `a <!-- ` × n  16 KB 0.3 s, 64 KB 5.1 s             `a <!--⏎` × n 64 KB 20 s
//     `a <? ` × n    64 KB 7.2 s    `a <!X ` × n 64 KB 6.0 s    `a <![CDATA[ ` × n 64 KB 3.5 s
// (Linear, for comparison: 64 KB of unclosed `[a](`, `<http://a `, `<a b="x `, backquote runs, entity references,
// escapes or table rows, 0.02–0.2 s.) A stretch of text (extract.ts: the blocks between two places a piece may be cut)
// is read as plain text when one of its lines opens more than MAX_CONTAINERS containers, it holds more than
// MAX_QUOTED_ITEMS lines starting a list item in a block quote, or one of its paragraphs holds more than
// MAX_DELIMITER_RUNS delimiter runs or more than MAX_UNCLOSED_HTML inline HTML openers of one kind after the last
// closer of that kind, or more than MAX_INLINE_MARKS characters that may start an inline construct. Those shapes then
// take 40–140 ms per MB; just under the limits micromark costs seconds per MB (paragraphs of 2,048 `~~a` runs 6.2 s,
// lines of 32 `> ` 3.8 s). The counts are coarse: they tell code and tables from paragraphs only where they are sure
// (SureCode, TableRows), so such a block after an unsure line with more than 2,048 `*` runs reads as plain text
// too; the 19 MB corpus of READMEs comes
// nowhere near (at most 5 containers on a line, 79 runs in a paragraph, 112 quoted list items in all). markdown-it caps
// nesting in the same spirit (`maxNesting`).

import { fenceEnd } from './fast.js';
import { isAlnum, isAlpha } from '../iri/chars.js';

/** Containers (block quotes and list items) one line may open before its stretch is read as plain text. */
export const MAX_CONTAINERS = 32;
/** Emphasis and strikethrough delimiter runs one paragraph may hold before its stretch is read as plain text. */
export const MAX_DELIMITER_RUNS = 2048;
/** Inline HTML comments, processing instructions, declarations and CDATA sections left open in one paragraph. */
export const MAX_UNCLOSED_HTML = 64;
/** Lines that start a list item inside a block quote, in one stretch. */
export const MAX_QUOTED_ITEMS = 512;
/** Container lines that close containers, and setext headings, in one parse (tooManyEdits). */
export const MAX_EDITS = 512;
/**
 * Characters that may start an inline construct (`\` `` ` `` `*` `_` `[` `]` `!` `&` `<` `~`) in one paragraph, plus the
 * lines that hold one. micromark merges the runs of plain text between such constructs with a splice of the paragraph's events
 * each (initialize/text.js resolveAllText), time quadratic in their number: `[x]: |<div>&amp;c@d.example<` repeated,
 * 32 KB 0.24 s, 128 KB 1.8 s. Each line adds events to splice (a paragraph of lines holding one mark each,
 * `<a ドメイン?>例え.テスト⏎%41` repeated, 256 KB 3.1 s, was under a limit of 16,384 marks alone; found by
 * scripts/fuzz-cost.ts), so a line that holds a mark counts one more (lines without one do not: a long code block
 * without a blank line would count as one paragraph).
 */
export const MAX_INLINE_MARKS = 8192;
/**
 * Lazy continuation lines (CommonMark §5.1, §5.2: a paragraph line without the `>` or the indentation of the block
 * quote or list item the paragraph is in) one paragraph may hold. For each lazy line micromark looks back through the
 * events of the paragraph so far (initialize/document.js writeToChild), time quadratic in their number: `- a⏎` then
 * `word x.y⏎` repeated and a final `=` (the fast reader leaves a setext heading to micromark), 32 KB 0.47 s,
 * 128 KB 4.7 s; `> a⏎` then `word x.y⏎` repeated, 64 KB 1.2 s, 256 KB 13.4 s. Real text comes close: a mail of the
 * mail corpus has a list item line then about 600 lines with no blank line (the fast reader reads that one).
 */
export const MAX_LAZY_LINES = 1024;

const SPACE = 0x20;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const GT = 0x3e;
const LT = 0x3c;
const BACKTICK = 0x60;
const TILDE = 0x7e;

/**
 * Whether text[s, e) is over one of the limits (one pass; see above). `gfm`: GFM tables are read (their rows are
 * counted one by one: TableRows). `seen` (tests): receives the start of each line counted as a table row, and of each
 * non-blank line skipped as code (SureCode).
 */
export function tooCostlyToParse(text: string, s = 0, e = text.length, gfm = false, seen?: { table: number[]; code: number[] }): boolean {
  let runs = 0;
  let marks = 0;
  let quotedItems = 0;
  const unclosed = new UnclosedHtml();
  const tables = gfm ? new TableRows() : null;
  const code = new SureCode();
  for (let ls = s; ls < e; ) {
    const end = code.skip(text, ls, e, ls === s);
    if (end > ls) {
      if (seen !== undefined) recordLines(text, ls, end, seen.code);
      ls = end;
      runs = marks = 0;
      unclosed.reset();
      tables?.reset();
      continue;
    }
    // One pass over the line (performance: this runs on every segment of every piece) finds its end and counts its
    // delimiter runs and inline marks (LINE_CHAR); UnclosedHtml reads only lines with `<` or `>`, the only
    // characters it counts.
    let le = ls;
    let lineRuns = 0;
    let lineMarks = 0;
    let angle = false;
    for (; le < e; le++) {
      const c = text.charCodeAt(le);
      const f = c < 0x80 ? LINE_CHAR[c]! : 0;
      if (f === 0) continue;
      if (f === EOL) break;
      if ((f & RUN) !== 0) {
        let j = le + 1;
        while (j < e && text.charCodeAt(j) === c) j++;
        if (!(c === 0x5f && le > ls && j < e && isAlnum(text.charCodeAt(le - 1)) && isAlnum(text.charCodeAt(j)))) lineRuns++;
        lineMarks += j - le;
        le = j - 1;
        continue;
      }
      if ((f & MARK) !== 0) lineMarks++;
      if ((f & ANGLE) !== 0) angle = true;
    }
    const line = readLinePrefix(text, ls, le);
    if (line.containers > MAX_CONTAINERS) return true;
    if (line.quotedItem && ++quotedItems > MAX_QUOTED_ITEMS) return true;
    const row = tables !== null && tables.line(text, ls, le, code.sure, line.blank);
    if (seen !== undefined && tables?.inTable === true) seen.table.push(ls);
    // A paragraph ends at a blank line (also inside block quotes), at a thematic break and where a list item
    // interrupts it (§5.2: a bullet, `1.` or `1)`, with text after it; `2. x` or an empty item continues it), and
    // each table row is read on its own.
    if (line.blank || line.interrupts || line.thematicBreak || row) {
      runs = marks = 0;
      unclosed.reset();
    }
    if (!line.thematicBreak) {
      runs += lineRuns;
      if (lineMarks > 0) marks += lineMarks + 1;
      if (runs > MAX_DELIMITER_RUNS || marks > MAX_INLINE_MARKS || (angle && unclosed.read(text, ls, le) > MAX_UNCLOSED_HTML)) return true;
    }
    ls = le + (text.charCodeAt(le) === CR && text.charCodeAt(le + 1) === LF ? 2 : 1);
  }
  return false;
}

/**
 * Code blocks are not counted: neither micromark nor the fast reader parses their content inline, and a README's JSON
 * example of a few thousand lines with `[` and `]`, counted as a paragraph, made its stretch plain text, so that the
 * URLs in the code were linked. A block is skipped where it is sure to be code at the top level. A range starts where
 * the block structure starts afresh (a piece, or a segment, which extract.ts cuts only after a blank line, before a
 * line in column 0, with nothing open), and the lines before that could leave something open are watched:
 * - after a line starting with `<` (within 3 columns) an HTML block may be open (`<div>⏎```⏎⏎` then a paragraph is
 *   HTML, then text parsed inline): nothing more is skipped (`sure` turns false);
 * - a fence-like line indented 1–3 columns, other than the range's first, may be a list item's (`- a⏎  ```⏎b⏎```⏎`:
 *   `b` ends the item and its fence, and is parsed inline): the same;
 * - after a line that may open a block quote or a list item (`>`, `-`, `+`, `*` or a digit first), an indented line
 *   may be its content: no indented code is skipped any more.
 * Then §4.5: a fence in column 0, or on the range's first line, is skipped to its closing line. A line in column 0
 * that opens a fence ends every container (it continues no paragraph lazily) and indented code. §4.4: a line indented
 * 4 columns or more after a blank line opens indented code (it interrupts no paragraph), which runs over such lines
 * and blank ones. (test/markdown-hostile.test.ts compares the lines skipped with micromark's code blocks.)
 */
class SureCode {
  /** No line so far may have left an HTML block or a fence open that the count does not know of. */
  sure = true;
  /** A line so far may have opened a block quote or a list item. */
  private containers = false;
  private blankBefore = true;

  /** At the line starting at ls: where the code block it opens ends (the start of the line after it), or ls. */
  skip(text: string, ls: number, e: number, first: boolean): number {
    const blank = isBlankLine(text, ls, e);
    const blankBefore = this.blankBefore;
    this.blankBefore = blank;
    if (blank || !this.sure) return ls;
    if (indentedCode(text, ls, e)) {
      if (this.containers || !blankBefore) return ls;
      // §4.4: indented code, up to the first line with text indented less than 4 columns.
      let end = ls;
      for (let k = ls; k < e; ) {
        const blankLine = isBlankLine(text, k, e);
        if (!blankLine && !indentedCode(text, k, e)) break;
        k = nextLine(text, k, e);
        end = k;
        this.blankBefore = blankLine;
      }
      return end;
    }
    // Indented less than 4 columns: by spaces only (a tab reaches 4).
    let i = ls;
    while (text.charCodeAt(i) === SPACE) i++;
    const c = text.charCodeAt(i);
    if (c === LT) this.sure = false;
    else if (c === 0x3e || c === 0x2d || c === 0x2b || c === 0x2a || (c >= 0x30 && c <= 0x39)) this.containers = true;
    else if (c === BACKTICK || c === TILDE) {
      const end = fenceFrom(text, i, e);
      if (end > 0 && (i === ls || first)) {
        this.blankBefore = false;
        return end;
      }
      if (end > 0) this.sure = false;
    }
    return ls;
  }
}

/** §2.2, §4.4: whether the line at ls is indented 4 columns or more (a tab to the next multiple of 4). */
function indentedCode(text: string, ls: number, e: number): boolean {
  let col = 0;
  for (let i = ls; i < e && col < 4; i++) {
    const c = text.charCodeAt(i);
    if (c === SPACE) col++;
    else if (c === TAB) col += 4 - (col % 4);
    else break;
  }
  return col >= 4;
}

/** Whether only spaces and tabs are left of the line from i, before e (a table cell's text too: it has no line end). */
function isBlankLine(text: string, i: number, e: number): boolean {
  for (; i < e; i++) {
    const c = text.charCodeAt(i);
    if (c === LF || c === CR) return true;
    if (c !== SPACE && c !== TAB) return false;
  }
  return true;
}

/** The start of the line after the one at ls (e at the end). */
function nextLine(text: string, ls: number, e: number): number {
  let le = ls;
  while (le < e && text.charCodeAt(le) !== LF && text.charCodeAt(le) !== CR) le++;
  return le >= e ? e : le + (text.charCodeAt(le) === CR && text.charCodeAt(le + 1) === LF ? 2 : 1);
}

/** Tests: the starts of the non-blank lines in [a, b). */
function recordLines(text: string, a: number, b: number, out: number[]): void {
  for (let k = a; k < b; k = nextLine(text, k, b)) if (!isBlankLine(text, k, b)) out.push(k);
}

const PIPE = 0x7c;
const BACKSLASH = 0x5c;

/**
 * GFM §4.10 tables, for tooCostlyToParse: micromark and the fast reader parse the cells of each row on their own (a
 * row of n delimiter runs costs what a paragraph of them does; rows add up linearly), so the counts restart at each
 * row. Counted as one paragraph, a table of 2,000 rows holding a link each was read as plain text. A table is taken
 * only where it is sure to be one, a subset of what micromark takes (test/markdown-hostile.test.ts compares them):
 * - a header row: a line in column 0 holding a `|` and starting with one, with an ASCII letter or with a non-ASCII
 *   character (no other block starts so), first in the range or after a blank line, while SureCode is sure (no line
 *   starting with `<` before it in the range: an HTML block may hold such lines);
 * - then a delimiter row with as many cells (each `:?-+:?` between spaces or tabs) and a `|`, not starting as a list
 *   item does (`- | -`);
 * - then the rows: lines in column 0 not starting as another block may (startsRow; they need no `|`). Any other line
 *   ends the table (micromark may read it as a row still, or as a new block: the counts restart there, and go on as
 *   for a paragraph).
 * Cells are split at each `|` not escaped by a backslash, also inside code spans (GFM: `` `a | b` `` is two cells).
 */
class TableRows {
  /** The cells of the line before, when it may be a header row; else 0. */
  private headerCells = 0;
  /** The line just fed is a delimiter row or a row after it. */
  inTable = false;
  private blankBefore = true;

  /** Feeds the line text[ls, le); true when the counts restart at it (a row after the header, or after the table). */
  line(text: string, ls: number, le: number, sure: boolean, blank: boolean): boolean {
    const c = ls < le ? text.charCodeAt(ls) : LF;
    let restart = false;
    if (this.inTable) {
      restart = true;
      if (!startsRow(c)) this.inTable = false;
      this.headerCells = 0;
    } else if (this.headerCells > 0 && isDelimiterRowStart(text, ls, le) && rowCells(text, ls, le, true) === this.headerCells) {
      restart = this.inTable = true;
      this.headerCells = 0;
    } else {
      this.headerCells = sure && this.blankBefore && startsHeader(c) && (c === PIPE || hasPipe(text, ls, le)) ? rowCells(text, ls, le, false) : 0;
    }
    this.blankBefore = blank;
    return restart;
  }

  /** After a code block SureCode skipped: no table is open, and the next line follows no blank line. */
  reset(): void {
    this.headerCells = 0;
    this.inTable = false;
    this.blankBefore = false;
  }
}

/**
 * A character a table's header row may start with in column 0, where no other block can start: `|`, an ASCII letter
 * or a non-ASCII character (CommonMark's block starts are ASCII punctuation, digits, spaces and tabs; `[` may start a
 * link reference definition there).
 */
function startsHeader(c: number): boolean {
  return c === PIPE || c >= 0x80 || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a);
}

/**
 * A character a table's row may start with in column 0: any but those that start another block or a line ending:
 * `>` `-` `+` `*` `#` `` ` `` `~` `<` `=` `_`, digits, spaces and tabs. (A definition cannot start inside a table.)
 */
function startsRow(c: number): boolean {
  if (c >= 0x80) return true;
  return c > SPACE && ROW_START[c] === 1;
}

const ROW_START = new Uint8Array(128);
for (let c = 0x21; c < 0x7f; c++) ROW_START[c] = 1;
for (const c of '>-+*#`~<=_0123456789') ROW_START[c.charCodeAt(0)] = 0;

/**
 * A delimiter row's start in column 0, and a `|` in it: `|`, `:`, or `-` not followed by a space or a tab (`- | -`
 * is a list item).
 */
function isDelimiterRowStart(text: string, ls: number, le: number): boolean {
  const c = text.charCodeAt(ls);
  if (c === PIPE) return true;
  if (c !== 0x3a && c !== 0x2d) return false;
  const d = text.charCodeAt(ls + 1);
  return !(c === 0x2d && (d === SPACE || d === TAB)) && hasPipe(text, ls, le);
}

/** Whether text[ls, le) holds a `|` not escaped by a backslash. */
function hasPipe(text: string, ls: number, le: number): boolean {
  for (let k = ls; k < le; k++) {
    const c = text.charCodeAt(k);
    if (c === BACKSLASH) k++;
    else if (c === PIPE) return true;
  }
  return false;
}

/**
 * The cells of the row text[ls, le): the stretches between unescaped `|` (after a leading one), less an empty (blank)
 * one after the last `|`. With `delimiter`, −1 unless each cell is a delimiter cell (`:?-+:?`, spaces and tabs
 * around it).
 */
function rowCells(text: string, ls: number, le: number, delimiter: boolean): number {
  let cells = 0;
  let cellStart = text.charCodeAt(ls) === PIPE ? ls + 1 : ls;
  for (let k = cellStart; k <= le; k++) {
    const c = k < le ? text.charCodeAt(k) : PIPE;
    if (c === BACKSLASH) {
      k++;
      continue;
    }
    if (c !== PIPE) continue;
    const blank = isBlankLine(text, cellStart, k);
    if (k === le && blank) break; // nothing after the last `|`
    if (delimiter && !isDelimiterCell(text, cellStart, k)) return -1;
    cells++;
    cellStart = k + 1;
  }
  return cells;
}

/** GFM §4.10: a delimiter row's cell text[a, b): `:?-+:?`, with spaces and tabs around it. */
function isDelimiterCell(text: string, a: number, b: number): boolean {
  while (a < b && (text.charCodeAt(a) === SPACE || text.charCodeAt(a) === TAB)) a++;
  while (b > a && (text.charCodeAt(b - 1) === SPACE || text.charCodeAt(b - 1) === TAB)) b--;
  if (a < b && text.charCodeAt(a) === 0x3a) a++;
  if (b > a && text.charCodeAt(b - 1) === 0x3a) b--;
  if (a >= b) return false;
  for (let k = a; k < b; k++) if (text.charCodeAt(k) !== 0x2d) return false;
  return true;
}

/**
 * tooManyEdits and tooManyLazyLines skip a fence (§4.5) on the range's first line only (SureCode's first rule): its
 * content holds no container or lazy line. Where it ends, or `s`.
 */
function leadingFenceEnd(text: string, s: number, e: number): number {
  let i = s;
  while (i < e && i - s < 3 && text.charCodeAt(i) === SPACE) i++;
  const c = text.charCodeAt(i);
  const end = c === BACKTICK || c === TILDE ? fenceFrom(text, i, e) : 0;
  return end > 0 ? end : s;
}

/**
 * §4.5: for a line whose fence characters start at text[i] (after at most 3 spaces), the start of the line after its
 * closing fence (`e` when it is not closed before `e`), or 0 when the line opens no fence.
 */
function fenceFrom(text: string, i: number, e: number): number {
  let le = i;
  while (le < e && text.charCodeAt(le) !== LF && text.charCodeAt(le) !== CR) le++;
  const next = le + (text.charCodeAt(le) === CR && text.charCodeAt(le + 1) === LF ? 2 : 1);
  if (next > e) return 0;
  const end = fenceEnd(text, i, le, next, e);
  return end < 0 ? e : end;
}

interface LinePrefix {
  /** Containers the line's start may open (an upper bound). */
  containers: number;
  /** Nothing but spaces, tabs and `>` (an empty list item is no blank line: it may continue a paragraph). */
  blank: boolean;
  /** The prefix starts a list item that may interrupt a paragraph. */
  interrupts: boolean;
  /** The line is a thematic break (after block quote markers). */
  thematicBreak: boolean;
  /** The prefix holds a block quote marker and a list item marker. */
  quotedItem: boolean;
  /** Its block quote markers and list item markers. */
  quotes: number;
  items: number;
  /** The column of the first character after the prefix, counted from the position after the last `>` (§2.2: a tab
   * to the next multiple of 4 from the line start). */
  column: number;
}

/**
 * CommonMark §5.1, §5.2: the block quote markers (`>`) and list item markers (`-` `+` `*` and `1.` `1)` before a
 * space or a tab) at the start of text[s, e), counted whatever the indentation between them: at least as many as the
 * parser opens. A thematic break (§4.1: `- - -`, `* * *`) is no list, so on such a line only the `>` count.
 */
function readLinePrefix(text: string, s: number, e: number): LinePrefix {
  let quotes = 0;
  let items = 0;
  let interrupting = true; // every list item marker so far may interrupt a paragraph
  let i = s;
  let col = 0;
  let afterQuotes = 0; // the column after the last `>`
  for (;;) {
    for (; i < e; i++) {
      const c = text.charCodeAt(i);
      if (c === SPACE) col++;
      else if (c === TAB) col += 4 - (col % 4);
      else break;
    }
    if (i >= e) break;
    const c = text.charCodeAt(i);
    if (c === GT) {
      quotes++;
      i++;
      afterQuotes = ++col;
      continue;
    }
    let j = i;
    if (c === 0x2d || c === 0x2b || c === 0x2a) j = i + 1;
    else {
      while (j < e && j - i < 9 && text.charCodeAt(j) >= 0x30 && text.charCodeAt(j) <= 0x39) j++;
      if (j === i || j >= e || (text.charCodeAt(j) !== 0x2e && text.charCodeAt(j) !== 0x29)) break;
      if (j - i !== 1 || c !== 0x31) interrupting = false;
      j++;
    }
    if (j >= e || (text.charCodeAt(j) !== SPACE && text.charCodeAt(j) !== TAB)) break;
    items++;
    col += j - i;
    i = j;
  }
  const thematicBreak = isThematicBreak(text, s, e);
  const listItem = items > 0 && !thematicBreak;
  return {
    containers: quotes + (thematicBreak ? 0 : items),
    blank: i >= e && items === 0,
    interrupts: listItem && interrupting && i < e,
    thematicBreak,
    quotedItem: listItem && quotes > 0,
    quotes,
    items,
    column: col - afterQuotes,
  };
}

/** §4.1: three or more of one of `-` `*` `_`, with spaces and tabs (and here block quote markers) only. */
function isThematicBreak(text: string, s: number, e: number): boolean {
  let mark = 0;
  let count = 0;
  for (let i = s; i < e; i++) {
    const c = text.charCodeAt(i);
    if (c === SPACE || c === TAB || (c === GT && count === 0)) continue;
    if (c !== 0x2d && c !== 0x2a && c !== 0x5f) return false;
    if (mark !== 0 && c !== mark) return false;
    mark = c;
    count++;
  }
  return count >= 3;
}

/**
 * What tooCostlyToParse counts in a line, per ASCII character:
 * - RUN: §6.2 and GFM §6.5, the runs of `*`, `~` and `_`, but not a `_` run between two ASCII letters or digits
 *   (`snake_case`: it can neither open nor close emphasis). More than the parser's delimiter runs (code spans and
 *   escapes are not told apart), never fewer.
 * - MARK: the characters that may start an inline construct (MAX_INLINE_MARKS counts them, and the lines).
 * - ANGLE: `<` and `>`, what UnclosedHtml reads.
 */
const MARK = 1;
const RUN = 2;
const ANGLE = 4;
const EOL = 8;
const LINE_CHAR = new Uint8Array(0x80);
for (const ch of '\\`[]!&') LINE_CHAR[ch.charCodeAt(0)] = MARK;
for (const ch of '*_~') LINE_CHAR[ch.charCodeAt(0)] = MARK | RUN;
LINE_CHAR[0x3c] = MARK | ANGLE;
LINE_CHAR[GT] = ANGLE;
LINE_CHAR[LF] = LINE_CHAR[CR] = EOL;

/**
 * Whether a parse of text[s, e) would edit the events of the whole parse more than MAX_EDITS times. micromark moves
 * them (micromark-util-edit-map) each time a container closes before the flow goes on, and each time it resolves a
 * setext heading, so a parse with many of either costs time quadratic in its length: block quotes indented 1–3
 * spaces between blank lines (`  > ~~⏎⏎` repeated, 32 KB 3.1 s, 128 KB 51 s), lists indented 1–3 spaces, one item
 * holding a long nested list (64 KB 4.5–5.1 s), setext headings with no blank line between them (`⏎=` repeated,
 * 16 KB 1.6 s, 32 KB 5 s; found by scripts/fuzz-cost.ts). extract.ts splits long stretches where it safely can and
 * asks this of each part it still parses: a part beyond the limit is read as plain text. Counted, as an upper bound:
 * the lines starting with a container marker after a blank line, or further left than the container line before
 * them; and the lines of `=` or of `-` alone (after block quote markers) that follow a line with text.
 */
export function tooManyEdits(text: string, s = 0, e = text.length): boolean {
  let edits = 0;
  let blankBefore = false;
  let textBefore = false; // the line before is in the part and not blank
  let indent = -1; // of the last line starting with a container marker
  for (let ls = leadingFenceEnd(text, s, e); ls < e; ) {
    let le = ls;
    while (le < e && text.charCodeAt(le) !== LF && text.charCodeAt(le) !== CR) le++;
    let i = ls;
    while (i < le && (text.charCodeAt(i) === SPACE || text.charCodeAt(i) === TAB)) i++;
    if (i === le) {
      blankBefore = true;
      textBefore = false;
    } else {
      const line = readLinePrefix(text, ls, le);
      if (line.containers > 0) {
        if (blankBefore || i - ls < indent) edits++;
        indent = i - ls;
      }
      if (textBefore && isUnderline(text, i, le)) edits++;
      if (edits > MAX_EDITS) return true;
      blankBefore = false;
      textBefore = true;
    }
    ls = le + (text.charCodeAt(le) === CR && text.charCodeAt(le + 1) === LF ? 2 : 1);
  }
  return false;
}

/** §4.3: after block quote markers and spaces, text[i, e) is a run of `=` or of `-` then spaces and tabs only. */
function isUnderline(text: string, i: number, e: number): boolean {
  while (i < e && (text.charCodeAt(i) === GT || text.charCodeAt(i) === SPACE || text.charCodeAt(i) === TAB)) i++;
  const c = text.charCodeAt(i);
  if (i >= e || (c !== 0x3d && c !== 0x2d)) return false;
  while (i < e && text.charCodeAt(i) === c) i++;
  while (i < e && (text.charCodeAt(i) === SPACE || text.charCodeAt(i) === TAB)) i++;
  return i === e;
}

/**
 * Whether a parse of text[s, e) would read more than MAX_LAZY_LINES lazy continuation lines in one paragraph
 * (micromark's cost; the fast reader reads them in linear time, so this is asked only of the parts micromark
 * parses, as tooManyEdits is). Counted, as an upper bound: in a paragraph whose first line is in a block quote or
 * indented (taken as a list item's content at that column), the lines with fewer `>` or less indentation.
 */
export function tooManyLazyLines(text: string, s = 0, e = text.length): boolean {
  // The paragraph's containers, from its first line: its block quote markers and the column its content starts at
  // after them; −1, −1 before a paragraph starts.
  let paraQuotes = -1;
  let paraColumn = -1;
  let lazy = 0;
  for (let ls = leadingFenceEnd(text, s, e); ls < e; ) {
    let le = ls;
    while (le < e && text.charCodeAt(le) !== LF && text.charCodeAt(le) !== CR) le++;
    const line = readLinePrefix(text, ls, le);
    if (line.blank || line.interrupts || line.thematicBreak) {
      // The paragraph ends (as in tooCostlyToParse); an interrupting item's line starts the next one.
      paraQuotes = paraColumn = -1;
    }
    if (!line.blank && !line.thematicBreak) {
      if (paraQuotes < 0 || line.quotes > paraQuotes) {
        // A paragraph starts (a `>` more starts a block quote, which ends the paragraph before it).
        paraQuotes = line.quotes;
        paraColumn = line.column;
        lazy = 0;
      } else if ((line.quotes < paraQuotes || (line.items === 0 && line.column < paraColumn)) && ++lazy > MAX_LAZY_LINES) {
        return true;
      }
    }
    ls = le + (text.charCodeAt(le) === CR && text.charCodeAt(le + 1) === LF ? 2 : 1);
  }
  return false;
}

/**
 * §6.6: the inline HTML constructs whose opener micromark follows up to a closer of its own, and that stay text when
 * the paragraph has none: comments `<!--` … `-->`, processing instructions `<?` … `?>`, CDATA sections `<![CDATA[` …
 * `]]>`, declarations `<!` + letter … `>`. Counts, per kind, the openers after the last closer: each costs a read of
 * the rest of the paragraph.
 */
class UnclosedHtml {
  private comments = 0;
  private instructions = 0;
  private cdata = 0;
  private declarations = 0;

  reset(): void {
    this.comments = this.instructions = this.cdata = this.declarations = 0;
  }

  /** Reads the line text[s, e); returns the most openers left open of one kind. */
  read(text: string, s: number, e: number): number {
    for (let i = s; i < e; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x3e) {
        // `>`: closes a declaration, and a comment, an instruction or a CDATA section after `--`, `?` or `]]`.
        this.declarations = 0;
        const b = text.charCodeAt(i - 1);
        if (i - 2 >= s && b === 0x2d && text.charCodeAt(i - 2) === 0x2d) this.comments = 0;
        else if (i - 1 >= s && b === 0x3f) this.instructions = 0;
        else if (i - 2 >= s && b === 0x5d && text.charCodeAt(i - 2) === 0x5d) this.cdata = 0;
      } else if (c === 0x3c) {
        const d = text.charCodeAt(i + 1);
        if (d === 0x3f) this.instructions++;
        else if (d === 0x21) {
          if (text.startsWith('--', i + 2)) this.comments++;
          else if (text.startsWith('[CDATA[', i + 2)) this.cdata++;
          else if (isAlpha(text.charCodeAt(i + 2))) this.declarations++;
        }
      }
    }
    return Math.max(this.comments, this.instructions, this.cdata, this.declarations);
  }
}
