// Links that start inside an explicit bidi embedding, override or isolate left open earlier on their line
// (diagnostic `bidi-embedded`). P1 ends a link before a bidi control (`bidi-control`), but a control opened
// before the link still reorders it on display: `\u202E x https://evil.example/moc.elgoog//:sptth` reads as
// `https://google.com/...` (RFC 3987 §4.1: bidi formatting characters must not be used to make an IRI display
// differently from its logical order; UAX #9 §2.1–2.4 says how far an opener reaches).
//
// The common text holds no such control at all, and what decides a link is only the text between its line's start
// and the link, a few per cent of the text (en-mixed 2.5 %, multilingual 3.4 %: lines are short, links sparse). So:
// - bytes: the UTF-8 decoder tests each write for the controls' bytes (bytesHoldEmbedding, a native byte search);
//   a piece known to hold none, with nothing open, is not looked at;
// - text: each released chunk is read backwards from its end to its last paragraph separator (EmbeddingTracker
//   settle()); only when a control lies after it is that part read forwards through the UAX #9 rules. A test of
//   every string for the controls (a regular expression, or TextEncoder + byte search) cost 0.7–1.8 CPU ms/MB.
// createLinkStream, 40 MB, main's build and this one alternated in one process, CPU ms/MB, median of the rounds
// and median of the paired differences (load 2–5 on 2 cores): Buffer writes en-mixed 5.65 → 5.67 (+0.05),
// multilingual 5.90 → 6.09 (+0.00), noise (the byte test alone is 0.06–0.07); string writes in 32 Ki pieces
// en-mixed 4.42 → 4.51 (+0.04), multilingual 3.05 → 3.24 (+0.16).

import { Buffer } from 'node:buffer';
import type { Chunk, DiagnosticCode, Link } from '../types.js';

/** UAX #9 BD2: max_depth. */
const MAX_DEPTH = 125;

// U+202A–202E LRE RLE PDF LRO RLO, U+2066–2069 LRI RLI FSI PDI.
const PDF = 0x202c;
const RLO = 0x202e;
const LRI = 0x2066;
const PDI = 0x2069;

const AMP = 0x26;
const HASH = 0x23;
const BAR = 0x7c;

/**
 * Markdown source: the explicit formatting character a numeric character reference at text[at] (an `&`) stands for
 * (U+202A–202E, U+2066–2069), or 0. CommonMark §2.5: `&#` 1–7 decimal digits `;` or `&#x` / `&#X` 1–6 hex digits
 * `;`; where a Markdown renderer decodes it, it writes the character itself, so `&#x202E;` is an override as U+202E
 * is. HTML5 names none of U+202A–202E, U+2066–2069 (only the marks `&lrm;` `&rlm;`, which open nothing).
 */
export function controlReference(text: string, at: number): number {
  const n = text.length;
  if (at + 3 >= n || text.charCodeAt(at + 1) !== HASH) return 0;
  let i = at + 2;
  let value = 0;
  let digits = 0;
  if ((text.charCodeAt(i) | 0x20) === 0x78) {
    for (i++; i < n && digits <= 6; i++, digits++) {
      const c = text.charCodeAt(i);
      const d = c >= 0x30 && c <= 0x39 ? c - 0x30 : (c | 0x20) >= 0x61 && (c | 0x20) <= 0x66 ? (c | 0x20) - 0x57 : -1;
      if (d < 0) break;
      value = value * 16 + d;
    }
    if (digits === 0 || digits > 6) return 0;
  } else {
    for (; i < n && digits <= 7; i++, digits++) {
      const c = text.charCodeAt(i);
      if (c < 0x30 || c > 0x39) break;
      value = value * 10 + (c - 0x30);
    }
    if (digits === 0 || digits > 7) return 0;
  }
  if (i >= n || text.charCodeAt(i) !== 0x3b) return 0;
  return (value >= 0x202a && value <= RLO) || (value >= LRI && value <= PDI) ? value : 0;
}

/**
 * Markdown source: whether the character reference whose `&` is at an index of the text being walked is decoded
 * into the rendered text (CommonMark §2.5, §6: not in a code span or code block, an autolink, HTML, a link
 * destination or title, a definition, the label of a full reference or an image's description; not escaped `\&`).
 * The Markdown linkifier knows it from its parse (src/markdown/extract.ts).
 */
export type DecodedReferences = (index: number) => boolean;

/** U+202A LRE, 202B RLE, 202D LRO, 202E RLO, 2066 LRI, 2067 RLI, 2068 FSI. */
function isOpener(c: number): boolean {
  return (c >= 0x202a && c <= RLO && c !== PDF) || (c >= LRI && c < PDI);
}

/** The diagnostic of a link that starts while an embedding, override or isolate is open. */
const EMBEDDED: DiagnosticCode = 'bidi-embedded';

/**
 * The directional status stack of UAX #9 §3.3.2 rules X1–X8, reduced to what says whether anything is open:
 * each entry only records whether it is an isolate (its level and override status do not matter here).
 * Simplification (UAX #9 X2–X5c): an entry counts as one level, so an opener overflows at 125 entries, where
 * UAX #9 may overflow earlier (an embedding can raise the level by 2). Only text nesting more than 62 levels can
 * differ: an opener UAX #9 counts as overflow is an entry here, and the closer UAX #9 counts against the overflow
 * removes it here, so both say "open" until every opener has its closer. Everything else follows X1–X8: an unmatched PDF or PDI changes nothing, a PDF does not close an
 * isolate, a PDI closes the embeddings opened after its isolate, and a paragraph separator (X8, BD8 / P1:
 * Bidi_Class B — LF, CR, U+001C–001E, U+0085, U+2029) closes everything.
 */
export class EmbeddingState {
  /** Entries above the paragraph's own: 1 for an isolate, 0 for an embedding or override. */
  private readonly isolate = new Uint8Array(MAX_DEPTH);
  private depth = 0;
  private overflowIsolates = 0;
  private overflowEmbeddings = 0;
  private validIsolates = 0;

  /** True when an embedding, override or isolate is open (overflow counts only once the stack is full). */
  get open(): boolean {
    return this.depth > 0;
  }

  /** Applies text[from, to). */
  walk(text: string, from: number, to: number): void {
    for (let i = from; i < to; i++) {
      const c = text.charCodeAt(i);
      if (c < 0x202a) {
        // UAX #9 BD8 / X8: Bidi_Class B ends the paragraph.
        if (isSeparator(c)) this.reset();
        continue;
      }
      if (c <= PDI) this.control(c);
    }
  }

  /**
   * walk() for Markdown source, which a Markdown renderer turns into HTML where a line end inside a paragraph is a
   * space: only a blank line (CommonMark §4.9: spaces and tabs only) ends the paragraph. Simplification (errs
   * toward "open"): other block starts (a heading, a list item on the next line), a hard line break (`<br>`, which
   * HTML also takes as a paragraph separator), a lone CR and the other Bidi_Class B characters close nothing here.
   * `lineBlank`: the line before `from` holds only blanks so far; returns the same at `to`.
   *
   * A control written as a numeric character reference (controlReference) counts where `decoded` says the
   * renderer decodes it into text, exactly as the character itself (UAX #9 X2–X7: a PDF closes only an embedding
   * or override, a PDI an isolate and what it holds), and for nothing where it does not. Without `decoded` (text
   * whose parse is not known: a renderer's own output, a block's source as written): every reference to an opener
   * counts and no reference to a closer does. Deviation (CommonMark §6.1, §6.3, §2.4): that errs toward "open".
   * `everyLine`: every line end and every `|` ends the paragraph (the other reading of a line end or a GFM table
   * cell's edge, see EmbeddingTracker).
   */
  walkMarkdown(text: string, from: number, to: number, lineBlank: boolean, decoded?: DecodedReferences, everyLine = false): boolean {
    for (let i = from; i < to; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x0a) {
        if (lineBlank || everyLine) this.reset();
        lineBlank = true;
      } else if (!isBlank(c)) {
        lineBlank = false;
        if (c >= 0x202a && c <= PDI) this.control(c);
        else if (c === BAR && everyLine) this.reset();
        else if (c === AMP) {
          // Without the parser's word (`decoded`), a `&` after an odd run of `\` is escaped (CommonMark §2.4): no
          // reference, as toMarkdown writes a text's `&#x202E;` (found in review: it was read as an open override).
          const ref = decoded === undefined ? (backslashesBefore(text, i, from) % 2 === 0 ? controlReference(text, i) : 0) : decoded(i) ? controlReference(text, i) : 0;
          if (ref !== 0 && (decoded !== undefined || isOpener(ref))) this.control(ref);
        }
      }
    }
    return lineBlank;
  }

  /**
   * walk() for text inside one HTML block whose line ends are spaces (HTML text with `white-space: normal`): no
   * character closes everything. Simplification (errs toward "open"): a `<br>` and the Bidi_Class B characters,
   * which CSS may take as paragraph separators, close nothing here.
   */
  walkInline(text: string, from: number, to: number): void {
    for (let i = from; i < to; i++) {
      const c = text.charCodeAt(i);
      if (c >= 0x202a && c <= PDI) this.control(c);
    }
  }

  /** A character U+202A–2069: the rules for the explicit formatting characters among them. */
  private control(c: number): void {
    if (c <= RLO) {
      if (c === PDF) this.pdf();
      else this.openEntry(0);
    } else if (c >= LRI) {
      if (c === PDI) this.pdi();
      else this.openEntry(1);
    }
  }

  /** UAX #9 X8. */
  reset(): void {
    this.depth = 0;
    this.overflowIsolates = 0;
    this.overflowEmbeddings = 0;
    this.validIsolates = 0;
  }

  // UAX #9 X2–X5 (embeddings, overrides: kind 0) and X5a–X5c (isolates: kind 1).
  private openEntry(kind: number): void {
    if (this.depth < MAX_DEPTH && this.overflowIsolates === 0 && this.overflowEmbeddings === 0) {
      this.isolate[this.depth++] = kind;
      if (kind === 1) this.validIsolates++;
    } else if (kind === 1) {
      this.overflowIsolates++;
    } else if (this.overflowIsolates === 0) {
      this.overflowEmbeddings++;
    }
  }

  // UAX #9 X6a.
  private pdi(): void {
    if (this.overflowIsolates > 0) {
      this.overflowIsolates--;
    } else if (this.validIsolates > 0) {
      this.overflowEmbeddings = 0;
      while (this.isolate[--this.depth] === 0);
      this.validIsolates--;
    }
  }

  // UAX #9 X7.
  private pdf(): void {
    if (this.overflowIsolates > 0) return;
    if (this.overflowEmbeddings > 0) this.overflowEmbeddings--;
    else if (this.depth > 0 && this.isolate[this.depth - 1] === 0) this.depth--;
  }
}

/**
 * Whether UTF-8 `bytes` hold an explicit embedding, override or isolate control: E2 80 AA–AE (U+202A–202E) or
 * E2 81 A6–A9 (U+2066–2069). Native byte search for E2 (memchr), then two bytes looked at per E2: about 0.05 CPU
 * ms/MB on en-mixed, whose curly quotes are E2 80 98–9D. A sequence cut at the end of `bytes` is not seen: callers pass
 * whole sequences.
 */
export function bytesHoldEmbedding(data: Uint8Array): boolean {
  // Buffer#indexOf is a memchr; a plain Uint8Array's indexOf is a loop about four times slower.
  const bytes = Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const n = bytes.length;
  let i = bytes.indexOf(0xe2);
  while (i >= 0 && i + 2 < n) {
    const b1 = bytes[i + 1]!;
    const b2 = bytes[i + 2]!;
    if (b1 === 0x80 ? b2 >= 0xaa && b2 <= 0xae : b1 === 0x81 && b2 >= 0xa6 && b2 <= 0xa9) return true;
    i = bytes.indexOf(0xe2, i + 1);
  }
  return false;
}

function flag(diagnostics: readonly DiagnosticCode[]): DiagnosticCode[] {
  // A new array: the link's own array may be shared with the scanner's result.
  return diagnostics.includes(EMBEDDED) ? (diagnostics as DiagnosticCode[]) : [...diagnostics, EMBEDDED];
}

/** Whether a link with these diagnostics may hold a bidi control or a paragraph separator (see mark()). */
function mayChange(diagnostics: readonly DiagnosticCode[]): boolean {
  return diagnostics.length > 0 && (diagnostics.includes('bidi-control') || diagnostics.includes('wrapped'));
}

/** A paragraph separator (UAX #9 BD8, Bidi_Class B), for c < U+202A. */
function isSeparator(c: number): boolean {
  return c === 0x0a || c === 0x0d || (c >= 0x1c && c <= 0x1e) || c === 0x85 || c === 0x2029;
}

/**
 * Applies text[from, to) to `state`, reading backwards from `to` to the last paragraph separator: the state after
 * it depends only on what follows it, which is read forwards only when it holds a control. Without a separator
 * and without a control nothing changes. Reads to − (last separator) units when there is no control.
 */
function settle(state: EmbeddingState, text: string, from: number, to: number): void {
  let control = false;
  let i = to;
  while (i > from) {
    const c = text.charCodeAt(--i);
    // Two comparisons for the printable ASCII most text is made of.
    if (c < 0x1f) {
      if (c !== 0x0a && c !== 0x0d && c < 0x1c) continue;
    } else if (c < 0x85) {
      continue;
    } else if (c !== 0x85 && c !== 0x2029) {
      if (c >= 0x202a && c <= PDI && (c <= RLO || c >= LRI)) control = true;
      continue;
    }
    // UAX #9 BD8: a paragraph separator (isSeparator); the state after it depends only on text[i + 1, to).
    state.reset();
    if (control) state.walk(text, i + 1, to);
    return;
  }
  if (control) state.walk(text, from, to);
}

/** Markdown: a character a blank line may hold (space, tab, the CR of a CR LF). */
function isBlank(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0d;
}

/**
 * settle() for Markdown source (EmbeddingState.walkMarkdown): reads backwards from `to` to the last blank line,
 * after which the state depends only on what follows. `lineBlank`: the line before `from` holds only blanks so
 * far; returns the same at `to`. `decoded`: as for walkMarkdown.
 */
function settleMarkdown(
  state: EmbeddingState,
  text: string,
  from: number,
  to: number,
  lineBlank: boolean,
  decoded?: DecodedReferences,
): boolean {
  let control = false;
  let lf = -1; // the nearest LF met so far (reading backwards)
  let controlAfterLf = false;
  let blank = true; // the text between the current position and `lf` (or `to`) holds only blanks
  let trailing = true; // the same for the text after the last LF of [from, to)
  let i = to;
  while (i > from) {
    const c = text.charCodeAt(--i);
    if (c === 0x0a) {
      if (lf < 0) {
        trailing = blank;
      } else if (blank) {
        // The line (i, lf) is blank and ends at lf: the paragraph ends there.
        state.reset();
        if (controlAfterLf) state.walkMarkdown(text, lf + 1, to, true, decoded);
        return trailing;
      }
      lf = i;
      controlAfterLf = control;
      blank = true;
      continue;
    }
    if (isBlank(c)) continue;
    blank = false;
    if (c >= 0x202a && c <= PDI ? c <= RLO || c >= LRI : c === AMP && text.charCodeAt(i + 1) === HASH) control = true;
  }
  // [from, lf) ends the line that began before `from`.
  if (lf >= 0 && blank && lineBlank) {
    state.reset();
    if (controlAfterLf) state.walkMarkdown(text, lf + 1, to, true, decoded);
    return trailing;
  }
  if (control) return state.walkMarkdown(text, from, to, lineBlank, decoded);
  return lf >= 0 ? trailing : lineBlank && blank;
}

/**
 * settle() for Markdown source where every line end and `|` ends the paragraph (walkMarkdown with `everyLine`):
 * only the text after the last of them in [from, to) matters when there is one.
 */
function settleLines(state: EmbeddingState, text: string, from: number, to: number, decoded?: DecodedReferences): void {
  let control = false;
  for (let i = to; i > from; ) {
    const c = text.charCodeAt(--i);
    if (c === 0x0a || c === BAR) {
      state.reset();
      if (control) state.walkMarkdown(text, i + 1, to, true, decoded, true);
      return;
    }
    if (c >= 0x202a && c <= PDI ? c <= RLO || c >= LRI : c === AMP && text.charCodeAt(i + 1) === HASH) control = true;
  }
  if (control) state.walkMarkdown(text, from, to, true, decoded, true);
}

/**
 * For a stream of text pieces and the chunks released from them, in order: gives every link chunk that starts
 * while an opener is open the `bidi-embedded` diagnostic. note() each piece as it arrives (stream offsets are the
 * running sum of the pieces' lengths), mark() the chunks as they are released. The state crosses pieces and
 * chunks, so the answer does not depend on how the text was split.
 */
export class EmbeddingTracker {
  private readonly state = new EmbeddingState();
  /**
   * Markdown: the state when every line end and every `|` ends the paragraph. A line end is a space inside a
   * paragraph but ends a heading, a list item, a table row, and a `|` a GFM table cell, where a renderer's
   * paragraph ends and what it opened is closed (HTML: each is its own block): an isolate opened in `# &#x2067; a`
   * is not open on the next line, so a PDI there does not close an override opened after it. The source alone does not say which a line end is: a link is flagged when it is
   * inside something open in either reading (errs toward "open"; each reading alone misses one of them).
   */
  private readonly lines = new EmbeddingState();
  /** Markdown source: only a blank line ends a paragraph (EmbeddingState.walkMarkdown). */
  private readonly markdown: boolean;
  /** Markdown: the current line holds only blanks so far (kept exact while something is open). */
  private lineBlank = true;
  /** Stream offset at the end of the pieces noted so far. */
  private written = 0;
  /**
   * Stream offsets [dirtyFrom, dirtyTo): the pieces there may hold a control (pieces between them may not).
   * Outside it, with nothing open, a chunk is not looked at.
   */
  private dirtyFrom = 0;
  private dirtyTo = 0;
  /** Stream offset up to which the released chunks have been looked at. */
  private marked = 0;
  /**
   * Markdown: stream offsets of the `&` of character references to a control that the renderer decodes into text
   * (decodedReferences()), ascending; those before `refs.head` lie before the chunk being read.
   */
  private readonly refs = new AscendingOffsets();
  /** Markdown: stream offsets where a link chunk not shown as text starts (unshownLinks()), ascending. */
  private readonly hidden = new AscendingOffsets();
  /** Markdown: the stream offset of the chunk being read. */
  private chunkStart = 0;
  // The walks ask in ascending order: what lies before an offset asked for is never asked for again.
  private readonly decoded: DecodedReferences = (index) => this.refs.has(this.chunkStart + index);

  constructor(markdown = false) {
    this.markdown = markdown;
  }

  /**
   * Markdown: the stream offsets (ascending, after those given before) of the `&` of character references to a
   * control (controlReference) that the renderer decodes into text; give them before the chunks holding them are
   * marked. Any other reference counts for nothing (EmbeddingState.walkMarkdown).
   */
  decodedReferences(offsets: readonly number[]): void {
    this.refs.add(offsets);
  }

  /**
   * Markdown: the stream offsets (ascending, after those given before) where a link chunk starts whose text a
   * renderer does not show (the label of a full reference `[text][label]`, CommonMark §6.3): it is not read as
   * text. Give them before the chunks are marked.
   */
  unshownLinks(offsets: readonly number[]): void {
    this.hidden.add(offsets);
  }

  /** A piece of `length` units arrives; `mayHold`: it may hold a control (false: known to hold none). */
  note(length: number, mayHold: boolean): void {
    const start = this.written;
    this.written += length;
    if (!mayHold || length === 0) return;
    if (this.dirtyTo <= this.marked) this.dirtyFrom = start;
    this.dirtyTo = this.written;
  }

  /** The next released chunks, in order (their offsets continue where the last ones ended). */
  mark(chunks: readonly Chunk[]): void {
    const state = this.state;
    const n = chunks.length;
    if (n === 0) return;
    // The chunks are contiguous: with nothing open and no piece that may hold a control among them, none is read.
    const last = chunks[n - 1]!.end;
    const lines = this.lines;
    if (!state.open && !lines.open && (last <= this.dirtyFrom || chunks[0]!.start >= this.dirtyTo)) {
      this.marked = last;
      this.refs.dropBefore(this.marked);
      return;
    }
    for (const chunk of chunks) {
      const end = chunk.end;
      this.marked = end;
      if (!state.open && !lines.open && (end <= this.dirtyFrom || chunk.start >= this.dirtyTo)) continue;
      if (chunk.type === 'link') {
        if (state.open || lines.open) chunk.diagnostics = flag(chunk.diagnostics);
        // P1: a link ends before a bidi control, so its text holds one only with `bidi-control` (a Markdown
        // destination holding one); only a `wrapped` one (P3) holds a line end. Any other leaves the state as it is
        // — except in Markdown, where a shortcut or collapsed reference's chunk is its label (`[\u202E]`,
        // `[&#x202E;][]`): a label shown as text is read as any (a full reference's label is not shown: skipped).
        if (!this.markdown ? !mayChange(chunk.diagnostics) : this.hidden.has(chunk.start)) continue;
      }
      // While nothing is open, lineBlank may be stale after chunks passed over: a blank line it would find at the
      // start of the next chunk read closes only what was open before that chunk, which is nothing.
      if (this.markdown) {
        this.chunkStart = chunk.start;
        const head = this.refs.head;
        this.lineBlank = settleMarkdown(state, chunk.text, 0, chunk.text.length, this.lineBlank, this.decoded);
        // The second walk asks about the same references again, in ascending order from the chunk's start.
        const after = this.refs.head;
        this.refs.head = head;
        settleLines(lines, chunk.text, 0, chunk.text.length, this.decoded);
        if (this.refs.head < after) this.refs.head = after;
      } else {
        settle(state, chunk.text, 0, chunk.text.length);
      }
    }
    // Forgets the decoded references before `marked` (a walk that found a blank line after them never asked).
    this.refs.dropBefore(this.marked);
  }
}

/**
 * Stream offsets given in ascending order and asked about in ascending order: those before `head` have been passed
 * and are never asked about again (a caller may set `head` back to ask about a stretch twice).
 */
class AscendingOffsets {
  private list: number[] = [];
  head = 0;

  /** Appends `offsets` (ascending, after those given before); the passed ones are dropped once they are half. */
  add(offsets: readonly number[]): void {
    if (offsets.length === 0) return;
    if (this.head > 0 && this.head * 2 >= this.list.length) {
      this.list = this.list.slice(this.head);
      this.head = 0;
    }
    for (const offset of offsets) this.list.push(offset);
  }

  /** Whether `at` is one of the offsets; passes those before it. */
  has(at: number): boolean {
    const list = this.list;
    while (this.head < list.length && list[this.head]! < at) this.head++;
    return this.head < list.length && list[this.head] === at;
  }

  /** Passes the offsets before `at`, and forgets them all when none is left. */
  dropBefore(at: number): void {
    const list = this.list;
    while (this.head < list.length && list[this.head]! < at) this.head++;
    if (this.head === list.length && this.head > 0) {
      this.list = [];
      this.head = 0;
    }
  }
}

/**
 * Gives every link of `links` (in order, found in `text`, offsets from its start) that starts while an opener is open
 * the `bidi-embedded` diagnostic, reading `text` from its start. `markdown`: `text` is Markdown that a renderer
 * shows as HTML, where only a blank line ends a paragraph (EmbeddingState.walkMarkdown).
 */
export function markEmbeddedLinks(text: string, links: Link[], markdown = false): void {
  const state = new EmbeddingState();
  let lineBlank = true;
  let pos = 0;
  for (const link of links) {
    const start = link.start;
    if (markdown) lineBlank = settleMarkdown(state, text, pos, start, lineBlank);
    else settle(state, text, pos, start);
    if (state.open && !link.diagnostics.includes(EMBEDDED)) link.diagnostics = flag(link.diagnostics);
    pos = start;
  }
}

/** How many `\` come right before `i`, back to `from`. */
function backslashesBefore(text: string, i: number, from: number): number {
  let k = i;
  while (k > from && text.charCodeAt(k - 1) === 0x5c) k--;
  return i - k;
}

/**
 * For renderers: whether an opener is open where the next text starts, reading text after text in order (the
 * rendered output's own text, whatever the chunks' diagnostics say). `rules`: false, plain text (a paragraph
 * separator ends everything); true, the output is Markdown, shown as HTML, where only a blank line ends a
 * paragraph; `'inline'`, the output is HTML element content, one block whose line ends are spaces
 * (EmbeddingState.walkInline).
 */
export class EmbeddingReader {
  private readonly state = new EmbeddingState();
  private readonly rules: boolean | 'inline';
  private lineBlank = true;

  constructor(rules: boolean | 'inline') {
    this.rules = rules;
  }

  get open(): boolean {
    return this.state.open;
  }

  read(text: string): void {
    if (this.rules === true) this.lineBlank = settleMarkdown(this.state, text, 0, text.length, this.lineBlank);
    else if (this.rules === 'inline') this.state.walkInline(text, 0, text.length);
    else settle(this.state, text, 0, text.length);
  }
}
