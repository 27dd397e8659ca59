// Linkified Markdown source: the Markdown mode's chunks written back as Markdown. Text and the links the author
// wrote (links, images, references, definitions, autolinks) are copied as they are; each bare link becomes a
// Markdown link, so the output is the input with its bare links made explicit — nothing else changes.
//
//   see https://例え.jp/パス。   →   see [https://例え.jp/パス](<https://xn--r8jz45g.jp/%E3%83%91%E3%82%B9>)。
//   see https://a.example/x     →   see <https://a.example/x>
//
// (The renderers of src/render escape text as plain text; Markdown source must pass through unescaped.)
//
// A link is made only where it shows what it is: a bare link whose text has a `%XX` that decodes to a control or
// a bidi formatting character is never written as an autolink `<…>`, whose text markdown-it shows percent-decoded
// (percentRevealsUnsafe: `<https://a.example/%E2%80%AEexe.txt>` would show a real U+202E). A bare link that may not
// be clickable (refusalsOf), and an unlinked span marked unsafe (`https://bank.example@evil.example/`), are written as
// they were with every `:` `.` `@` backslash-escaped (CommonMark §2.4), as toMarkdown writes them: they show the same,
// and no autolinking renderer (GFM's autolink literals, markdown-it's linkify) finds a link in them.
//
// A link is made only where it leaves the emphasis around it as it was. Written as `[…](<…>)` or `<…>`, a link
// starts and ends with punctuation where its text started and ended with a letter, and whether a run of `*`, `_` or
// `~` beside it may open or close emphasis depends on that character (CommonMark §6.2, delimiter runs; GFM
// strikethrough reads `~` alike). Made explicit, these links would change the parse (so they are left as written):
//
//   https://H*"x*     [https://H](<https://h>)*"x*   the `*` after `H` could only close; after `)` it opens
//   *a https://H*b    *a [https://H](<https://h>)*b   the `*` closed the emphasis after `H`; after `)` it cannot
//
// Escaping the run is no cure (the second `*` must still close; and micromark, which the Markdown mode parses with,
// lets even an unmatched run change how later runs resolve), so the rule is: a bare link beside a delimiter run that
// would then open or close differently is left as written (its text, which a linkifier still finds), and so is one
// whose own text holds a run that could open or close (made explicit, the text would no longer hold it). One change is
// common and can be told safe: a run after the link followed by punctuation (`**https://x**,`) could only close, and
// after `)` or `>` could open too. When the nearest run of its delimiter before it on its line surely opens, cannot
// close and has its length, and nothing between them could hide either (a code span, HTML, link text or a title, a
// table cell), the closer takes that opener whole (§6.2 "process emphasis"), in the output too, and the link is made:
//
//   **https://x**,  →  **<https://x>**,
//
// The runs are read from the source once, unit by unit, only as far as a held link asks (SourceRuns): linear time.
// The run after a link is in the next chunk, so a link that ends with a character other than punctuation is held
// until the next chunk (or end()) shows what follows it; the run is held as a count, so however long it is and
// however it is split, memory stays bounded and the output is the same.

import { checkChunk, checkedRenderer, percentRevealsUnsafe, readOptions, refusalsOf, resolveSchemes, unsafeCodes } from '../render/common.js';
import type { ChunkRenderer } from '../render/common.js';
import type { Chunk, LinkChunk } from '../types.js';
import { badArgument } from '../errors.js';
import { generalCategory } from '../unicode/index.js';

const OPTION_NAMES: readonly string[] = ['schemes'];

export interface MarkdownSourceOptions {
  /** Schemes a bare link may be made a link with (default: the renderers' DEFAULT_LINK_SCHEMES). */
  schemes?: readonly string[];
}

// CommonMark §6.2 / §2.4: characters that could start a construct inside link text get a backslash. Not `|`: a GFM
// table row is split at its unescaped `|` before links are read, so the link text keeps the source's cell separators
// (a bare link holds a `|` only on a line that is no table row: escaped, it would make `x|y⏎|---|` a table).
const ESCAPE = new Uint8Array(128);
for (const ch of '\\`*_[]<>&~!') ESCAPE[ch.charCodeAt(0)] = 1;

// §2.5: a character reference in a bare link's text was decoded where the source showed it (extract.ts), and is
// decoded the same in link text: it is left as written (`pay&#112;al.com` shows `paypal.com` both ways). So is
// anything shaped like one: a name HTML does not define (`&bogus;`) is shown as written either way. (Its shape only:
// the decoder that tells a defined name, in fast.ts referenceEnd, would load micromark with the command line.)
const REFERENCE_SHAPE = /&(?:#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|[0-9A-Za-z]{1,31});/y;

function escapeLinkText(text: string): string {
  let out = '';
  let last = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x26) {
      REFERENCE_SHAPE.lastIndex = i;
      if (REFERENCE_SHAPE.test(text)) continue;
    }
    if (c < 128 && ESCAPE[c] === 1) {
      out += text.slice(last, i) + '\\';
      last = i;
    }
  }
  return out === '' ? text : out + text.slice(last);
}

// CommonMark §6.5: `<scheme:…>` is an autolink when the scheme has 2–32 characters and the rest no space, control,
// `<` or `>` (backslash escapes are not read inside it). refusalsOf() has already checked the uri is printable ASCII.
function isAutolinkUri(uri: string): boolean {
  const colon = uri.indexOf(':');
  return colon >= 2 && colon <= 32 && !uri.includes('>') && !uri.includes('<');
}

// A URI that is also the link's text shows the same either way.
function isAutolinkText(link: LinkChunk): boolean {
  return !link.schemeInferred && link.text === link.uri && isAutolinkUri(link.uri);
}

// CommonMark §6.3: a destination in <…> may hold anything but a line ending and unescaped < or >; `\` escapes them
// (and itself). The detector's uri has none of the three (toUri percent-encodes them), a hand-made chunk's may.
// §6.3 / §2.5: entity references are decoded in a destination, so a `&` that could start one (followed by a letter or
// `#`) is escaped too: a uri holding `&amp;` or `&#62;` must not lose it to decoding.
function escapeAngleDestination(uri: string): string {
  let out = '';
  let last = 0;
  for (let i = 0; i < uri.length; i++) {
    const c = uri.charCodeAt(i);
    const n = c === 0x26 && i + 1 < uri.length ? uri.charCodeAt(i + 1) : 0;
    if (c === 0x5c || c === 0x3c || c === 0x3e || n === 0x23 || ((n | 0x20) >= 0x61 && (n | 0x20) <= 0x7a)) {
      out += uri.slice(last, i) + '\\';
      last = i;
    }
  }
  return out === '' ? uri : out + uri.slice(last);
}

// What an autolinker looks for: a scheme's `:`, the dots of a domain, an email's `@`.
const INERT = new Uint8Array(128);
for (const ch of ':.@') INERT[ch.charCodeAt(0)] = 1;

/**
 * `text` with every `:` `.` `@` backslash-escaped, except one the source has escaped already (after an odd run of
 * backslashes; `before` counts those that end the output so far).
 */
function inert(text: string, before: number): string {
  let out = '';
  let last = 0;
  let run = before;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 128 && INERT[c] === 1 && run % 2 === 0) {
      out += text.slice(last, i) + '\\';
      last = i;
    }
    run = c === 0x5c ? run + 1 : 0;
  }
  return out === '' ? text : out + text.slice(last);
}

/** The number of `\\` that end `text`, added to `before` when the whole text is backslashes. */
function trailingBackslashes(text: string, before: number): number {
  let i = text.length;
  while (i > 0 && text.charCodeAt(i - 1) === 0x5c) i--;
  return i === 0 ? before + text.length : text.length - i;
}

// CommonMark §2.1 and §6.2: the classes of the characters beside a delimiter run. The start and the end of the text
// count as whitespace; Unicode whitespace is Zs, tab, LF, FF and CR; Unicode punctuation is P or S (CommonMark 0.31;
// before it, and in some parsers still, P and the ASCII punctuation only).
const WHITESPACE = 0;
const PUNCTUATION = 1;
const OTHER = 2;
const ASCII_CLASS = new Uint8Array(128).fill(OTHER);
for (const c of [0x20, 0x09, 0x0a, 0x0c, 0x0d]) ASCII_CLASS[c] = WHITESPACE;
for (const ch of '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~') ASCII_CLASS[ch.charCodeAt(0)] = PUNCTUATION;
/** The text's edge (no character), as a code point argument. */
const EDGE = -1;

function flankClass(cp: number, symbols: boolean): number {
  if (cp === EDGE) return WHITESPACE;
  if (cp < 128) return ASCII_CLASS[cp]!;
  const category = generalCategory(cp);
  if (category === 'Zs') return WHITESPACE;
  return category.charCodeAt(0) === 0x50 /* P */ || (symbols && category.charCodeAt(0) === 0x53) /* S */ ? PUNCTUATION : OTHER;
}

const STAR = 0x2a;
const UNDERSCORE = 0x5f;
const TILDE = 0x7e;

function isDelimiter(c: number): boolean {
  return c === STAR || c === UNDERSCORE || c === TILDE;
}

// The readings of §6.2 that parsers follow, all asked: CommonMark 0.31; before 0.31 (punctuation without S), as some
// parsers still read it; micromark's, which also lets a run of `*` or `_` open before, and close after, another
// attention marker (`*`, `_`, GFM's `~`).
const READINGS = [0, 1, 2] as const;

/**
 * CommonMark §6.2: whether a run of `d` between the code points `before` and `after` (EDGE at the text's edge) can
 * open (1) and close (2) emphasis, in `reading`.
 */
function runAbilities(d: number, before: number, after: number, reading: number): number {
  const symbols = reading !== 1;
  const b = flankClass(before, symbols);
  const a = flankClass(after, symbols);
  let left = a !== WHITESPACE && (a !== PUNCTUATION || b !== OTHER);
  let right = b !== WHITESPACE && (b !== PUNCTUATION || a !== OTHER);
  if (reading === 2 && d !== TILDE) {
    left ||= isDelimiter(after);
    right ||= isDelimiter(before);
  }
  // Rules 1–4 (and GFM strikethrough): `*` and `~` open when left-flanking, close when right-flanking.
  if (d !== UNDERSCORE) return (left ? 1 : 0) | (right ? 2 : 0);
  // Rules 2 and 4 for `_`: not inside a word (a run flanking both ways opens only after punctuation, closes only
  // before it).
  return (left && (!right || b !== OTHER) ? 1 : 0) | (right && (!left || a !== OTHER) ? 2 : 0);
}

/**
 * Whether a run of `d` opens and closes alike between the source's neighbours and the output's (code points, EDGE
 * at the text's edge), in every reading.
 */
function flanksAlike(d: number, sourceBefore: number, sourceAfter: number, outputBefore: number, outputAfter: number): boolean {
  for (const reading of READINGS) {
    if (runAbilities(d, sourceBefore, sourceAfter, reading) !== runAbilities(d, outputBefore, outputAfter, reading)) return false;
  }
  return true;
}

/**
 * A run of `d` after a character `last` and before `after` that can only close there and can open and close after
 * `)`, in every reading.
 */
function onlyGainsOpening(d: number, last: number, after: number): boolean {
  for (const reading of READINGS) {
    if (runAbilities(d, last, after, reading) !== 2 || runAbilities(d, CLOSE, after, reading) !== 3) return false;
  }
  return true;
}

/** What an explicit link starts and ends with, as delimiter runs see it (`[`, `<`, `\\`; `)`, `>`: punctuation). */
const OPEN = 0x5b;
const CLOSE = 0x29;

/** The code point that ends `s` (a surrogate pair read whole), or EDGE. */
function lastCodePoint(s: string): number {
  if (s.length === 0) return EDGE;
  const c = s.charCodeAt(s.length - 1);
  if (c >= 0xdc00 && c <= 0xdfff && s.length > 1) {
    const h = s.charCodeAt(s.length - 2);
    if (h >= 0xd800 && h <= 0xdbff) return (h - 0xd800) * 0x400 + (c - 0xdc00) + 0x10000;
  }
  return c;
}

/**
 * What ends a text written so far (the source, or the output), as delimiter runs see it: its last code point, the
 * delimiter of the run that ends it (0: none; a backslash-escaped delimiter is not part of a run, §2.4) and the code
 * point before that run.
 */
class Tail {
  last = EDGE;
  run = 0;
  beforeRun = EDGE;
  backslashes = 0;

  add(s: string): void {
    const n = s.length;
    if (n === 0) return;
    const d = s.charCodeAt(n - 1);
    if (isDelimiter(d)) {
      let k = n - 1;
      while (k > 0 && s.charCodeAt(k - 1) === d) k--;
      // k: where the run starts in s; at 0 it may go on from the run that ended the text before.
      if (k === 0 && this.run === d) {
        // The same run, longer.
      } else {
        const backslashesBefore = k === 0 ? this.backslashes : trailingBackslashes(s.slice(0, k), this.backslashes);
        if (backslashesBefore % 2 === 1) k++; // its first delimiter is escaped: a literal
        if (k === n) {
          this.run = 0;
        } else {
          this.run = d;
          this.beforeRun = k === 0 ? this.last : lastCodePoint(s.slice(0, k));
        }
      }
    } else {
      this.run = 0;
    }
    this.backslashes = trailingBackslashes(s, this.backslashes);
    this.last = lastCodePoint(s);
  }
}

/**
 * Characters that start or end another inline construct (§6.1 code spans; §6.3 links: `)` ends a link whose title, in
 * the source's text, may hold a run; §6.5 autolinks, §6.6 HTML) or a GFM table cell.
 */
const HIDES = new Uint8Array(128);
for (const ch of '`[]<>)|') HIDES[ch.charCodeAt(0)] = 1;

function isSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdfff;
}

/** A run of `d` between the code units `before` and `after` that can open and not close, in every reading. */
function surelyOnlyOpens(d: number, before: number, after: number): boolean {
  // Beside a surrogate (a code point the readings may class otherwise) or another delimiter (where micromark resolves
  // runs of two kinds together) it is not sure.
  if (isSurrogate(before) || isSurrogate(after) || isDelimiter(before) || isDelimiter(after)) return false;
  for (const reading of READINGS) if (runAbilities(d, before, after, reading) !== 1) return false;
  return true;
}

function delimiterIndex(d: number): number {
  return d === STAR ? 0 : d === UNDERSCORE ? 1 : 2;
}

/** The most units of a line's text that wait unread (memory stays bounded on a long line). */
const PENDING = 65536;

/** Work done, for the test that shows it linear: the UTF-16 units the scan below has read. */
export const sourceScanStats = { units: 0 };

/**
 * The source's delimiter runs on the current line, each unit read at most once (O(1) a unit, no allocation a unit):
 * for each of `*`, `_`, `~`, the last run of it on the line, whether it surely opens (and cannot close) and whether a
 * character that could put it out of play (HIDES) came after it. The text is read only when a held link asks (or
 * when more than PENDING units wait): the common path costs two lastIndexOf a chunk.
 *
 * CommonMark §6.2 "process emphasis": a closer looks back for the nearest opener of its kind. When the nearest run of
 * `d` before a closer of `d` is an opener that cannot close (so no earlier closer took it) of the closer's length
 * (so the rule of 3 never refuses them), nothing between them hides either, and both are on one line (one block),
 * the closer takes it whole and is used up — whether or not it could also open.
 */
class SourceRuns {
  /** The last run of each delimiter on the line: its length when it surely only opens, 0 when it does not, -1: none. */
  private readonly length = [-1, -1, -1];
  /** Whether a HIDES character came after it. */
  private readonly hidden = [false, false, false];
  /** The run being read (0: none), its length, the unit before it and whether that was an escaping backslash. */
  private run = 0;
  private runLength = 0;
  private runBefore = EDGE;
  private runEscaped = false;
  private previous = EDGE;
  private backslashes = 0;
  /** The line's text not read yet, and its length. */
  private readonly pending: string[] = [];
  private pendingUnits = 0;

  add(s: string): void {
    const lf = Math.max(s.lastIndexOf('\n'), s.lastIndexOf('\r'));
    if (lf >= 0) {
      // A line break: what came before it no longer counts.
      this.pending.length = 0;
      this.pendingUnits = 0;
      this.run = 0;
      this.backslashes = 0;
      this.previous = s.charCodeAt(lf);
      this.newLine();
      if (lf + 1 < s.length) this.pend(s.slice(lf + 1));
    } else if (s.length > 0) {
      this.pend(s);
    }
  }

  private pend(s: string): void {
    this.pending.push(s);
    this.pendingUnits += s.length;
    if (this.pendingUnits > PENDING) this.read();
  }

  /** Reads the pending text. */
  private read(): void {
    for (const s of this.pending) this.scan(s);
    this.pending.length = 0;
    this.pendingUnits = 0;
  }

  private scan(s: string): void {
    sourceScanStats.units += s.length;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (this.run !== 0) {
        if (c === this.run) {
          this.runLength++;
          continue;
        }
        this.endRun(c);
      }
      if (isDelimiter(c)) {
        this.run = c;
        this.runLength = 1;
        this.runBefore = this.previous;
        this.runEscaped = this.backslashes % 2 === 1;
      } else if (c === 0x0a || c === 0x0d) {
        this.newLine();
      } else if (c < 128 && HIDES[c] === 1) {
        this.hidden[0] = this.hidden[1] = this.hidden[2] = true;
      }
      this.backslashes = c === 0x5c ? this.backslashes + 1 : 0;
      this.previous = c;
    }
  }

  /** A construct the scan does not read (a link or autolink the author wrote): as a line break, a fresh start. */
  barrier(s: string): void {
    this.read();
    if (this.run !== 0) this.endRun(s.length > 0 ? s.charCodeAt(0) : EDGE);
    this.newLine();
    this.backslashes = 0;
    this.previous = s.length > 0 ? s.charCodeAt(s.length - 1) : this.previous;
  }

  private newLine(): void {
    this.length[0] = this.length[1] = this.length[2] = -1;
    this.hidden[0] = this.hidden[1] = this.hidden[2] = false;
  }

  private endRun(after: number): void {
    const k = delimiterIndex(this.run);
    this.length[k] = !this.runEscaped && surelyOnlyOpens(this.run, this.runBefore, after) ? this.runLength : 0;
    this.hidden[k] = false;
    this.run = 0;
  }

  /**
   * Whether a closer of `d`, `length` long, right after a bare link `text` (not yet added) surely takes, whole, an
   * opener of `d` of its length on the line.
   */
  closesOpener(d: number, length: number, text: string): boolean {
    this.read();
    sourceScanStats.units += text.length;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === d || c === 0x0a || c === 0x0d || (c < 128 && HIDES[c] === 1)) return false;
    }
    const next = text.length > 0 ? text.charCodeAt(0) : EDGE;
    if (this.run === d) return !this.runEscaped && this.runLength === length && surelyOnlyOpens(d, this.runBefore, next);
    const k = delimiterIndex(d);
    return this.length[k] === length && !this.hidden[k];
  }
}

/**
 * Whether every run of `*`, `_` or `~` in a bare link's text can neither open nor close (`x_y`), in every reading: in
 * the source such a run may take part in emphasis (`**"!www.example.com/x****)` closes the `**`), and made explicit
 * the link's text no longer holds it. A run at the text's edge has a neighbour outside: not sure. Reads the text once.
 */
function inertRuns(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const d = text.charCodeAt(i);
    if (!isDelimiter(d)) continue;
    let j = i + 1;
    while (j < text.length && text.charCodeAt(j) === d) j++;
    if (i === 0 || j === text.length) return false;
    const before = text.charCodeAt(i - 1);
    const after = text.charCodeAt(j);
    if (isSurrogate(before) || isSurrogate(after)) return false;
    for (const reading of READINGS) if (runAbilities(d, before, after, reading) !== 0) return false;
    i = j - 1;
  }
  return true;
}

/** A link whose explicit form waits for what follows it: the delimiter run after it and the character after that. */
interface HeldLink {
  explicit: string;
  text: string;
  /** The link's last code point. */
  last: number;
  /** The delimiter of the run after it (0: not seen yet). */
  run: number;
  /** The length of that run so far (held as a count: memory stays O(1) however long the run, and however split). */
  units: number;
}

class MarkdownSourceRenderer implements ChunkRenderer {
  private readonly schemes: ReadonlySet<string>;
  /** How many backslashes end the output so far. */
  private backslashes = 0;
  /** The last UTF-16 unit of the output so far (0: none). */
  private last = 0;
  /** The ends of the source and of the output so far, for the delimiter runs beside a link. */
  private readonly sourceTail = new Tail();
  private readonly outputTail = new Tail();
  private readonly sourceRuns = new SourceRuns();
  private held: HeldLink | null = null;

  constructor(fn: string, options: MarkdownSourceOptions | undefined) {
    if (options === null) throw badArgument(fn, 'options', 'an object or undefined', options);
    this.schemes = resolveSchemes(readOptions(fn, options, OPTION_NAMES).schemes);
  }

  chunk(chunk: Chunk): string {
    let out = '';
    const held = this.held;
    if (held !== null) {
      if (chunk.type === 'text') {
        const text = chunk.text;
        if (held.run === 0 && text.length > 0) {
          if (!isDelimiter(text.charCodeAt(0))) return this.release(true) + this.chunk(chunk);
          held.run = text.charCodeAt(0);
        }
        let i = 0;
        while (i < text.length && text.charCodeAt(i) === held.run) i++;
        held.units += i;
        // The run goes on (or the chunk is empty): what follows it is still unknown.
        if (i === text.length) return '';
        const after = text.codePointAt(i)!;
        if (flanksAlike(held.run, held.last, after, CLOSE, after)) out = this.release(true);
        // A run after the link that closes only there, and opens too after `)`. (Not before another delimiter: where
        // runs of two kinds touch, micromark resolves them together, and even an unmatched one counts.)
        else if (!isDelimiter(after) && onlyGainsOpening(held.run, held.last, after)) out = this.releaseClosing();
        else out = this.release(false);
        const rest: Chunk = i === 0 ? chunk : { ...chunk, text: text.slice(i), start: chunk.start + i };
        return out + this.written(this.render(rest)!, rest.text);
      }
      // A link after the run: in the output it starts with its own first character or, made explicit, with `[` or
      // `<` (decided after this one), so the run must flank alike before either.
      // A link whose text starts with a delimiter (`*.ann@example.org`, an email's local part) holds a run right
      // after the held one, whose neighbour changes: the held link is left as written.
      const first = chunk.text.codePointAt(0) ?? EDGE;
      const alike = held.run === 0 || (flanksAlike(held.run, held.last, first, CLOSE, first) && flanksAlike(held.run, held.last, first, CLOSE, OPEN));
      out = this.release(alike && !isDelimiter(first));
    }
    const rendered = this.render(chunk);
    if (rendered === null) return out;
    // A link the author wrote (or an autolink): the scan of the source's runs does not read inside it.
    const construct = (chunk as { construct?: string }).construct;
    if (chunk.type !== 'text' && construct !== undefined && construct !== 'bare') this.sourceRuns.barrier(chunk.text);
    return out + this.written(rendered, chunk.text, chunk.type !== 'text' && construct !== undefined && construct !== 'bare');
  }

  /** Bookkeeping for `out`, the output of a chunk whose source text is `source`; returns `out`. */
  private written(out: string, source: string, unread = false): string {
    if (out.length > 0) {
      this.backslashes = trailingBackslashes(out, this.backslashes);
      this.last = out.charCodeAt(out.length - 1);
    }
    this.outputTail.add(out);
    this.sourceTail.add(source);
    if (!unread) this.sourceRuns.add(source);
    return out;
  }

  /**
   * Writes the held link (its explicit form when `alike`: the run after it, if any, flanks alike; else its text as
   * written) and the run held after it.
   */
  private release(alike: boolean): string {
    const held = this.held!;
    this.held = null;
    // The run's first character ending the link's text too: in the source the run was longer by it.
    const explicit = alike && held.last !== held.run;
    const out = this.written(explicit ? held.explicit : held.text, held.text);
    if (held.units === 0) return out;
    const run = String.fromCharCode(held.run).repeat(held.units);
    return out + this.written(run, run);
  }

  /**
   * The held link when the run after it could only close and after `)` or `>` could open too: made explicit when the
   * run surely takes, whole, an opener of its length on its line (it takes the same one after `)`), else left as
   * written.
   */
  private releaseClosing(): string {
    const held = this.held!;
    // A delimiter of the link's own text would be one more run (or part of this one) in the source.
    if (held.last === held.run) return this.release(false);
    return this.release(this.sourceRuns.closesOpener(held.run, held.units, held.text));
  }

  /**
   * A bare link written `explicit` (starting with `[`, `<` or `\\`): its explicit form when every delimiter run
   * beside it flanks as it did, else its text as written; null when it is held until the next chunk.
   */
  private made(link: LinkChunk, explicit: string): string | null {
    const first = link.text.codePointAt(0) ?? EDGE;
    // The run before it: the source and the output end with the same run (text is copied), unless a link's text
    // ended in a delimiter.
    const d = this.outputTail.run;
    if (d !== 0 || this.sourceTail.run !== 0) {
      if (d !== this.sourceTail.run || first === d) return link.text;
      if (!flanksAlike(d, this.sourceTail.beforeRun, first, this.outputTail.beforeRun, OPEN)) return link.text;
    }
    if (!inertRuns(link.text)) return link.text;
    // The run after it, if its last character is not punctuation as `)` and `>` are (in both readings).
    const last = lastCodePoint(link.text);
    if (flankClass(last, false) === PUNCTUATION && flankClass(last, true) === PUNCTUATION && !isDelimiter(last)) return explicit;
    this.held = { explicit, text: link.text, last, run: 0, units: 0 };
    return null;
  }

  /** The output of a chunk; null when it is a link held until the next chunk. */
  private render(chunk: Chunk): string | null {
    if (chunk.type === 'text') return unsafeCodes(chunk.diagnostics).length > 0 ? inert(chunk.text, this.backslashes) : chunk.text;
    const construct = (chunk as { construct?: string }).construct;
    if (construct !== undefined && construct !== 'bare') return chunk.text;
    if (refusalsOf(chunk, this.schemes).length > 0) return inert(chunk.text, this.backslashes);
    // CommonMark §2.4: a backslash before `h` (`C:\https://…`) is a literal backslash, but before the `<` or `[`
    // written here it would escape it. After an odd run one more backslash keeps it literal (`\\` shows `\`).
    const keep = this.backslashes % 2 === 1 ? '\\' : '';
    const decodesUnsafe = percentRevealsUnsafe(chunk.text);
    if (isAutolinkText(chunk) && !decodesUnsafe) return this.made(chunk, `${keep}<${chunk.text}>`);
    // §6.4, §6.3: after `!` a `[…](…)` is an image, and after `]` (`[foo]www.example.com`) it would make the author's
    // shortcut reference `[foo]` a full reference `[foo][…]`; the autolink form of the uri changes neither.
    if (this.last === 0x21 || this.last === 0x5d) {
      // No autolink can hold it as it is: left as written.
      if (decodesUnsafe || percentRevealsUnsafe(chunk.uri) || !isAutolinkUri(chunk.uri)) return chunk.text;
      return this.made(chunk, `${keep}<${chunk.uri}>`);
    }
    // §6.3: a destination in <…> may hold ( ) freely.
    return this.made(chunk, `${keep}[${escapeLinkText(chunk.text)}](<${escapeAngleDestination(chunk.uri)}>)`);
  }

  end(): string {
    // The end of the text counts as whitespace (§6.2).
    const held = this.held;
    if (held === null) return '';
    return this.release(held.run === 0 || flanksAlike(held.run, held.last, EDGE, CLOSE, EDGE));
  }
}

/** A renderer (ChunkRenderer, as src/render's) writing the Markdown mode's chunks back as Markdown source. */
export function createMarkdownSourceRenderer(options?: MarkdownSourceOptions): ChunkRenderer {
  return checkedRenderer('createMarkdownSourceRenderer', new MarkdownSourceRenderer('createMarkdownSourceRenderer', options));
}

/**
 * The chunks of linkifyMarkdown written back as Markdown, bare links made Markdown links.
 * @example toMarkdownSource(linkifyMarkdown('**https://例え.jp/**')) // '**[https://例え.jp/](<https://xn--r8jz45g.jp/>)**'
 */
export function toMarkdownSource(chunks: Iterable<Chunk>, options?: MarkdownSourceOptions): string {
  // A string is iterable too (its characters), but it is not chunks: toMarkdownSource('x') was "undefined".
  if (chunks === null || typeof chunks !== 'object' || typeof (chunks as Partial<Iterable<Chunk>>)[Symbol.iterator] !== 'function') {
    throw badArgument('toMarkdownSource', 'chunks', 'an array (or iterable) of chunks', chunks);
  }
  const renderer = new MarkdownSourceRenderer('toMarkdownSource', options);
  let out = '';
  for (const chunk of chunks) out += renderer.chunk(checkChunk('toMarkdownSource', chunk));
  return out + renderer.end();
}
