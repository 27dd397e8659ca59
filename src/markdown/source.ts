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
// would then open or close differently is left as written (its text, which a linkifier still finds). One change is
// common and can be told safe: a run after the link followed by punctuation (`**https://x**,`) could only close, and
// after `)` or `>` could open too; when it surely closed the one opener of its length on its line (nothing between
// them that could take part), it closes the same opener in the output, and the link is made:
//
//   **https://x**,  →  **<https://x>**,
//
// The run after a link is in the next chunk, so a link that ends with a character other than punctuation is held
// until the next chunk (or end()) shows what follows it.

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

// CommonMark §6.2 / §2.4: characters that could start a construct inside link text get a backslash.
const ESCAPE = new Uint8Array(128);
for (const ch of '\\`*_[]<>&~|!') ESCAPE[ch.charCodeAt(0)] = 1;

function escapeLinkText(text: string): string {
  let out = '';
  let last = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
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

/** Characters that start another inline construct or an escape (§2.4, §6.1, §6.3, §6.5, §6.6, §2.5). */
function mayHideRun(c: number): boolean {
  return c === 0x60 || c === 0x5b || c === 0x5d || c === 0x3c || c === 0x5c || c === 0x26;
}

/** Whether a run of `d` between `before` and `after` (code points) can open emphasis, in every reading. */
function surelyOpens(d: number, before: number, after: number): boolean {
  return READINGS.every((reading) => (runAbilities(d, before, after, reading) & 1) === 1);
}

/** The code point that ends s[0, i) (a surrogate pair read whole), or EDGE. */
function codePointBefore(s: string, i: number): number {
  return i === 0 ? EDGE : lastCodePoint(i === s.length ? s : s.slice(i - 2 < 0 ? 0 : i - 2, i));
}

/**
 * The current line of the source so far (since its last line break), read only when releaseClosing asks: the scan
 * for delimiter runs costs nothing on the common path (two lastIndexOf a chunk).
 */
class SourceLine {
  private line = '';

  add(s: string): void {
    const lf = Math.max(s.lastIndexOf('\n'), s.lastIndexOf('\r'));
    this.line = lf < 0 ? this.line + s : s.slice(lf + 1);
  }

  /**
   * The line has one run of `d`, `length` long, that can open, and no character that could put it out of play
   * (mayHideRun); `next` is the code point after the line so far (it ends a run the line ends with).
   */
  oneOpener(d: number, length: number, next: number): boolean {
    const line = this.line;
    let runs = 0;
    let opens = false;
    let runLength = 0;
    for (let i = 0; i < line.length; i++) {
      const c = line.charCodeAt(i);
      if (mayHideRun(c)) return false;
      if (!isDelimiter(c)) continue;
      let j = i + 1;
      while (j < line.length && line.charCodeAt(j) === c) j++;
      if (c === d) {
        runs++;
        runLength = j - i;
        opens = surelyOpens(d, codePointBefore(line, i), j < line.length ? line.codePointAt(j)! : next);
      }
      i = j - 1;
    }
    return runs === 1 && runLength === length && opens;
  }
}

/** A link whose explicit form waits for what follows it: the delimiter run after it and the character after that. */
interface HeldLink {
  explicit: string;
  text: string;
  /** The link's last code point. */
  last: number;
  /** The delimiter of the run after it (0: not seen yet). */
  run: number;
  /** Text chunks after it that hold nothing but that run (the character after the run is further on). */
  texts: Chunk[];
  /** Their length. */
  units: number;
}

/** The longest delimiter run held after a link (in UTF-16 units) before it is written without knowing what follows. */
const HELD_RUN = 4096;
/** One character of each class, for a neighbour not known (the same in the source and the output). */
const ANY_NEIGHBOUR = [0x20, 0x21, 0x61];

class MarkdownSourceRenderer implements ChunkRenderer {
  private readonly schemes: ReadonlySet<string>;
  /** How many backslashes end the output so far. */
  private backslashes = 0;
  /** The last UTF-16 unit of the output so far (0: none). */
  private last = 0;
  /** The ends of the source and of the output so far, for the delimiter runs beside a link. */
  private readonly sourceTail = new Tail();
  private readonly outputTail = new Tail();
  private readonly sourceLine = new SourceLine();
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
        held.texts.push(chunk);
        if (i < text.length) {
          const after = text.codePointAt(i)!;
          if (flanksAlike(held.run, held.last, after, CLOSE, after)) return this.release(true);
          // A run after the link that closes only there, and opens too after `)`. (Not before another delimiter: where
          // runs of two kinds touch, micromark resolves them together, and even an unmatched one counts.)
          if (!isDelimiter(after) && onlyGainsOpening(held.run, held.last, after)) return this.releaseClosing(i);
          return this.release(false);
        }
        // The run goes on (or the chunk is empty): what follows it is still unknown. Memory stays bounded: past
        // HELD_RUN units the link is written as if any character could follow.
        held.units += text.length;
        if (held.units <= HELD_RUN) return '';
        return this.release(ANY_NEIGHBOUR.every((a) => flanksAlike(held.run, held.last, a, CLOSE, a)));
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
    return rendered === null ? out : out + this.written(rendered, chunk.text);
  }

  /** Bookkeeping for `out`, the output of a chunk whose source text is `source`; returns `out`. */
  private written(out: string, source: string): string {
    if (out.length > 0) {
      this.backslashes = trailingBackslashes(out, this.backslashes);
      this.last = out.charCodeAt(out.length - 1);
    }
    this.outputTail.add(out);
    this.sourceTail.add(source);
    this.sourceLine.add(source);
    return out;
  }

  /**
   * Writes the held link (its explicit form when `alike`: the run after it, if any, flanks alike; else its text as
   * written) and the text chunks held after it.
   */
  private release(alike: boolean): string {
    const held = this.held!;
    this.held = null;
    // The run's first character ending the link's text too: in the source the run was longer by it.
    const explicit = alike && held.last !== held.run;
    let out = this.written(explicit ? held.explicit : held.text, held.text);
    for (const text of held.texts) out += this.written(this.render(text)!, text.text);
    return out;
  }

  /**
   * The held link when the run after it (the held text chunks, the last one's first `inLast` units) could only close
   * and after `)` or `>` could open too: made explicit when the run surely closed the one opener of its length on
   * its line (it closes the same one after `)`), else left as written.
   */
  private releaseClosing(inLast: number): string {
    const held = this.held!;
    const d = held.run;
    let length = inLast;
    for (let k = 0; k < held.texts.length - 1; k++) length += held.texts[k]!.text.length;
    // A delimiter of the link's own text would be one more run (or part of this one) in the source.
    if (held.last === d || held.text.includes(String.fromCharCode(d))) return this.release(false);
    return this.release(this.sourceLine.oneOpener(d, length, held.text.codePointAt(0)!));
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
    // The run after it, if its last character is not punctuation as `)` and `>` are (in both readings).
    const last = lastCodePoint(link.text);
    if (flankClass(last, false) === PUNCTUATION && flankClass(last, true) === PUNCTUATION && !isDelimiter(last)) return explicit;
    this.held = { explicit, text: link.text, last, run: 0, texts: [], units: 0 };
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
