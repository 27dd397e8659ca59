// The Markdown mode's fast path: one segment of a piece (top-level blocks between two places where a piece may be
// cut, segment.ts) read without micromark, when it is written in the common subset of CommonMark 0.31 and GFM that
// READMEs and mail are mostly written in — paragraphs, ATX and setext headings, bullet and ordered lists, fenced and
// indented code, thematic breaks, HTML blocks of kinds 2 and 6, GFM tables (rows starting with `|`), block quotes
// holding paragraphs, headings and thematic breaks; inline: code spans, emphasis, GFM strikethrough, backslash
// escapes, entity references, inline links and images, autolinks, open and closing tags. Anything outside it, or
// whose reading depends on what this reader does not model (a reference label that is or may be defined, other blocks
// in block quotes, indented code and tabs in list items, `<a>`, comments inline, a construct over a line ending
// inside a link), makes it give up (`undefined`) and the segment goes to micromark as before. So it gives exactly
// what the micromark events would give extract.ts — the same runs of plain text (`data`), backslash escapes between
// them, code spans' contents and link destinations — or nothing. test/markdown-fastpath.test.ts holds the two paths
// equal over the CommonMark spec examples, generated Markdown and real READMEs.
//
//   "- see https://a.example/ and [docs](https://b.example/)"
//       → run [2, 27) "see https://a.example/ and ", link destination [35, 55) "https://b.example/"
//
// The rules below are those of the spec as micromark implements them (section numbers of CommonMark 0.31):
// what is data and what is not decides where a run of text for bare links starts and ends.

import { decodeString } from 'micromark-util-decode-string';
import { normalizeIdentifier } from 'micromark-util-normalize-identifier';
import { codePointBefore, isHiddenJoiner, isNameChar } from '../detect/chars.js';
import { isAlnum, isAlpha, isSchemeChar } from '../iri/chars.js';

/**
 * A run of plain text [s, e) to scan for bare links, a backslash escape [s, s + 2) between such text (`escape`), or
 * (`destination` set) a link's destination string.
 */
export interface FastItem {
  s: number;
  e: number;
  /** A §2.4 backslash escape outside any construct: its character is shown as text (extract.ts PieceReader.escape). */
  escape?: boolean;
  /** A §2.5 character reference outside any construct: shown decoded (extract.ts PieceReader.reference). */
  reference?: boolean;
  /** The content of a §6.1 code span outside any construct: shown, never linked (extract.ts PieceReader.codeSpan). */
  code?: boolean;
  /** For a destination: its value (escapes and entity references decoded; an autolink's as written). */
  destination?: string;
  /** For a destination: what wrote it (a link by default). */
  construct?: 'image' | 'autolink';
  /** An email autolink (its URI gets `mailto:`). */
  email?: boolean;
}

export interface FastContext {
  gfm: boolean;
  /**
   * Whether a reference label (normalised as micromark normalises it) is or may be defined: known to the parser
   * before the piece, or possibly defined in the piece itself (which the parser would know while reading it).
   */
  mayBeDefined(label: string): boolean;
  /** No label is or may be defined: no reference can form. */
  noReferences: boolean;
}

const SPACE = 0x20;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const TILDE = 0x7e;

/** readInline's mask: data, not data, and the backslash and the character of an escape (§2.4). */
const DATA = 0;
const NOT_DATA = 1;
const ESCAPE = 2;
const ESCAPED = 3;
/** A §2.5 character reference: its `&`, then the rest. */
const REFERENCE = 4;
const REFERENCE_REST = 5;
/** The content of a §6.1 code span (its backtick strings are NOT_DATA). */
const CODE = 6;

/** The readers' give-up value (failure is a value here, not an exception). */
const BAIL = -1;

// CommonMark §2.1: ASCII punctuation.
const ASCII_PUNCT = new Uint8Array(128);
for (let c = 0x21; c < 0x7f; c++) {
  if (!((c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a))) ASCII_PUNCT[c] = 1;
}

// Characters that may start or be part of an inline construct this reader looks at (§6); all others are data.
const INLINE_SPECIAL = new Uint8Array(128);
for (const ch of '\\`*_[]!&<~\n\r \t') INLINE_SPECIAL[ch.charCodeAt(0)] = 1;
INLINE_SPECIAL[0] = 1;

// §6.2 flanking: the parser (micromark) classifies a UTF-16 code unit as whitespace (1), punctuation (2) or other (0)
// with /\s/ and /\p{P}|\p{S}/u; the same classification here, as a 128-entry table for ASCII and the parser's own
// test beyond (only ever run on the character next to a `*` or `_` run, never over the text).
const ASCII_CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  ASCII_CLASS[c] = /\s/.test(ch) ? 1 : /\p{P}|\p{S}/u.test(ch) ? 2 : 0;
}
const UNICODE_WHITESPACE = /\s/;
const UNICODE_PUNCTUATION = /\p{P}|\p{S}/u;

function classify(c: number): number {
  if (c < 0) return 1; // the start or end of the text
  if (c < 128) return ASCII_CLASS[c]!;
  const ch = String.fromCharCode(c);
  return UNICODE_WHITESPACE.test(ch) ? 1 : UNICODE_PUNCTUATION.test(ch) ? 2 : 0;
}

function isLineEnding(c: number): boolean {
  return c === LF || c === CR;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function isHex(c: number): boolean {
  return isDigit(c) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x66);
}

/** A `*` or `_` run (§6.2) or a strikethrough sequence, its extent shrinking as its delimiters are used. */
interface Delimiter {
  s: number;
  e: number;
  c: number;
  open: boolean;
  close: boolean;
  /** Inside a link or image: its own, paired with nothing outside. */
  dead: boolean;
}

/** An opening `[` or `![` (§6.3): `active` (links not inside links), `balanced` (tried, gave `]` back as text). */
interface Bracket {
  at: number;
  textStart: number;
  image: boolean;
  inactive: boolean;
  balanced: boolean;
  delimiters: number;
}

/**
 * Reads the inline content p[a, b) of a paragraph or heading: line endings, the whitespace that starts and ends a
 * line, and the constructs are not data. Adds the runs and destinations to `out`; false to give up.
 */
function readInline(p: string, a: number, b: number, ctx: FastContext, out: FastItem[]): boolean {
  if (a >= b) return true;
  // A backslash escape is ESCAPE then ESCAPED, until a construct around it marks it NOT_DATA. (One mask per
  // paragraph or heading, not per character.)
  const mask = new Uint8Array(b - a);
  const delimiters: Delimiter[] = [];
  const brackets: Bracket[] = [];
  const destinations: FastItem[] = [];
  const noReferences = ctx.noReferences;
  let ticks: BacktickStrings | undefined;
  const mark = (s: number, e: number): void => {
    mask.fill(NOT_DATA, s - a, e - a);
  };
  let i = a;
  while (i < b) {
    const c = p.charCodeAt(i);
    if (c >= 128 || INLINE_SPECIAL[c] === 0) {
      i++;
      continue;
    }
    switch (c) {
      case SPACE:
      case TAB: {
        // Whitespace before a line ending or the end: a line suffix or hard break (§6.7), not data.
        let j = i + 1;
        while (j < b && (p.charCodeAt(j) === SPACE || p.charCodeAt(j) === TAB)) j++;
        if (j === b || isLineEnding(p.charCodeAt(j))) mark(i, j);
        i = j;
        break;
      }
      case LF:
      case CR: {
        // A line ending, and the next line's leading whitespace (container indentation, line prefix).
        let j = i + (c === CR && p.charCodeAt(i + 1) === LF ? 2 : 1);
        while (j < b && (p.charCodeAt(j) === SPACE || p.charCodeAt(j) === TAB)) j++;
        mark(i, j);
        i = j;
        break;
      }
      case 0:
        return false;
      case 0x5c: {
        // §2.4 backslash escapes; §6.7 a backslash before a line ending is a hard break.
        const d = i + 1 < b ? p.charCodeAt(i + 1) : -1;
        if (d >= 0 && d < 128 && ASCII_PUNCT[d] === 1) {
          mask[i - a] = ESCAPE;
          mask[i + 1 - a] = ESCAPED;
          i += 2;
        } else {
          if (d === LF || d === CR) mark(i, i + 1);
          i++;
        }
        break;
      }
      case 0x26: {
        // §2.5 entity and numeric character references.
        const e = referenceEnd(p, i, b);
        if (e > 0) {
          mask[i - a] = REFERENCE;
          mask.fill(REFERENCE_REST, i + 1 - a, e - a);
          i = e;
        } else {
          i++;
        }
        break;
      }
      case 0x60: {
        // §6.1 code spans: a backtick string closed by one of the same length.
        let j = i;
        while (j < b && p.charCodeAt(j) === 0x60) j++;
        const n = j - i;
        const close = (ticks ??= new BacktickStrings(p, a, b)).closing(j, n);
        if (close >= 0) {
          mark(i, j);
          mask.fill(CODE, j - a, close - a);
          mark(close, close + n);
          i = close + n;
        } else {
          i = j;
        }
        break;
      }
      case 0x2a:
      case 0x5f: {
        // §6.2 delimiter runs, with micromark's flanking rules; with GFM strikethrough, a `~` next to the run lets
        // it open (after it) or close (before it), as micromark's attentionMarkers do.
        let j = i;
        while (j < b && p.charCodeAt(j) === c) j++;
        const prev = i === a ? -1 : p.charCodeAt(i - 1);
        const next = j === b ? -1 : p.charCodeAt(j);
        const before = classify(prev);
        const after = classify(next);
        const open = after === 0 || (after === 2 && before !== 0) || (ctx.gfm && next === TILDE);
        const close = before === 0 || (before === 2 && after !== 0) || (ctx.gfm && prev === TILDE);
        delimiters.push({
          s: i,
          e: j,
          c,
          open: c === 0x2a ? open : open && (before !== 0 || !close),
          close: c === 0x2a ? close : close && (after !== 0 || !open),
          dead: false,
        });
        i = j;
        break;
      }
      case 0x21:
        if (i + 1 < b && p.charCodeAt(i + 1) === 0x5b) {
          brackets.push({ at: i, textStart: i + 2, image: true, inactive: false, balanced: false, delimiters: delimiters.length });
          i += 2;
        } else {
          i++;
        }
        break;
      case 0x5b:
        brackets.push({ at: i, textStart: i + 1, image: false, inactive: false, balanced: false, delimiters: delimiters.length });
        i++;
        break;
      case 0x5d: {
        // §6.3 / §6.4: look back for an opener; an inline link or image, or text.
        while (brackets.length > 0 && brackets[brackets.length - 1]!.balanced) brackets.pop();
        const opener = brackets[brackets.length - 1];
        if (opener === undefined) {
          i++;
          break;
        }
        if (opener.inactive) {
          opener.balanced = true;
          i++;
          break;
        }
        const next = i + 1 < b ? p.charCodeAt(i + 1) : -1;
        const resource = next === 0x28 ? readResource(p, i + 1, b, destinations, opener.image) : 0;
        if (resource === BAIL) return false;
        if (resource > 0) {
          // A link whose text may be glued to a name beside it (hidden-split: extract.ts reads a link's text as shown
          // text): left to micromark, whose events say what is markup around it.
          if (!opener.image && (nameBeside(p, opener.at, a, -1) || nameBeside(p, resource, b, 1))) return false;
          // A link or image p[opener.at, resource): nothing inside is data; its delimiters are its own.
          mark(opener.at, resource);
          for (let k = opener.delimiters; k < delimiters.length; k++) delimiters[k]!.dead = true;
          brackets.pop();
          if (!opener.image) for (const other of brackets) if (!other.image) other.inactive = true;
          i = resource;
          break;
        }
        // Not an inline link: a reference if the label is defined (not modelled here), else text.
        if (!noReferences) {
          if (next === 0x5b) return false;
          if (ctx.mayBeDefined(normalizeIdentifier(p.slice(opener.textStart, i)))) return false;
        }
        opener.balanced = true;
        i++;
        break;
      }
      case 0x3c: {
        // §6.5 autolinks, then §6.6 raw HTML (open and closing tags; comments, declarations and the like are not
        // modelled here, nor `<a>` / `</a>`, which extract.ts treats as a link around its text).
        const auto = autolinkEnd(p, i, b);
        if (auto > 0) {
          const item: FastItem = { s: i + 1, e: auto - 1, destination: p.slice(i + 1, auto - 1), construct: 'autolink' };
          if (autolinkEmail) item.email = true;
          destinations.push(item);
          mark(i, auto);
          i = auto;
          break;
        }
        const tag = htmlTagEnd(p, i, b);
        if (tag === BAIL) return false;
        if (tag > 0) {
          const close = p.charCodeAt(i + 1) === 0x2f;
          const n = close ? i + 2 : i + 1;
          const d = p.charCodeAt(n + 1);
          if ((p.charCodeAt(n) | 0x20) === 0x61 && !isAlnum(d) && d !== 0x2d) return false;
          mark(i, tag);
          i = tag;
          break;
        }
        i++;
        break;
      }
      case TILDE: {
        // GFM strikethrough (micromark-extension-gfm-strikethrough, one or two tildes): a run of 1 or 2 is a
        // sequence with the flanking of `*`; a longer run is text (the tokenizer gives up at a third tilde, and a
        // tilde after an unescaped one starts nothing). Without GFM a tilde is text.
        let j = i;
        while (j < b && p.charCodeAt(j) === TILDE) j++;
        if (ctx.gfm && j - i <= 2) {
          const before = classify(i === a ? -1 : p.charCodeAt(i - 1));
          const after = classify(j === b ? -1 : p.charCodeAt(j));
          delimiters.push({
            s: i,
            e: j,
            c,
            open: after === 0 || (after === 2 && before !== 0),
            close: before === 0 || (before === 2 && after !== 0),
            dead: false,
          });
        }
        i = j;
        break;
      }
      default:
        return false;
    }
  }
  // micromark resolves emphasis and strikethrough one after the other, in the order their first sequence came.
  if (delimiters.length > 0) {
    const tildeFirst = delimiters[0]!.c === TILDE;
    const alive = new Alive(delimiters);
    resolveDelimiters(delimiters, alive, 0, delimiters.length + 1, tildeFirst, mark);
    resolveDelimiters(delimiters, alive, 0, delimiters.length + 1, !tildeFirst, mark);
  }
  // Runs: maximal stretches of data, and the escapes, references and code spans' contents still outside any construct.
  let d = 0;
  for (let k = 0; k < mask.length; ) {
    const m0 = mask[k];
    if (m0 !== DATA && m0 !== ESCAPE && m0 !== REFERENCE && m0 !== CODE) {
      k++;
      continue;
    }
    while (d < destinations.length && destinations[d]!.s < a + k) out.push(destinations[d++]!);
    if (m0 === ESCAPE) {
      out.push({ s: a + k, e: a + k + 2, escape: true });
      k += 2;
      continue;
    }
    // A reference (its `&`, then the rest), a code span's content or a run of data, to where it ends.
    const rest = m0 === REFERENCE ? REFERENCE_REST : m0;
    let m = k + 1;
    while (m < mask.length && mask[m] === rest) m++;
    out.push(m0 === REFERENCE ? { s: a + k, e: a + m, reference: true } : m0 === CODE ? { s: a + k, e: a + m, code: true } : { s: a + k, e: a + m });
    k = m;
  }
  while (d < destinations.length) out.push(destinations[d++]!);
  return true;
}

/**
 * Whether text a bare link may be glued to could stand beside a link that starts at p[i] (`step` −1: before it,
 * within p[limit, i)) or ends before p[i] (`step` 1: after it, within p[i, limit)), with only `*`, `_`, `~` or
 * invisible characters between:
 * a letter, digit or `-` (isNameChar), or a `.` and one, or the edge of markup that may hide more (a tag's `<` `>`, a
 * code span's backtick, a backslash escape).
 */
function nameBeside(p: string, i: number, limit: number, step: 1 | -1): boolean {
  let k = step === 1 ? i : i - 1;
  const inside = (j: number): boolean => (step === 1 ? j < limit : j >= limit);
  const at = (j: number): number => (step === 1 ? p.codePointAt(j)! : codePointBefore(p, j + 1));
  // (Invisible characters are looked through too, as hidden-split does: escapes.ts JOINERS.)
  for (let c: number; inside(k) && ((c = at(k)) === 0x2a || c === 0x5f || c === TILDE || isHiddenJoiner(c)); ) k += c > 0xffff ? 2 * step : step;
  if (!inside(k)) return false;
  let cp = at(k);
  if (cp === 0x2e) {
    k += step;
    if (!inside(k)) return false;
    cp = at(k);
  }
  return isNameChar(cp) || cp === 0x3c || cp === 0x3e || cp === 0x60 || cp === 0x5c;
}

/**
 * The delimiters that may still pair, as a doubly linked list: delimiters[i] is slot i + 1, slots 0 and n + 1 end
 * it. Those inside a link are left out; a pair's content is taken out once resolved (performance: nested pairs are
 * then not walked again by each pair around them, which made `*a ` × 1,000 then `b*` × 1,000 cost 2.5 s per MB).
 */
class Alive {
  readonly next: Int32Array;
  readonly prev: Int32Array;

  constructor(delimiters: readonly Delimiter[]) {
    const n = delimiters.length;
    this.next = new Int32Array(n + 2);
    this.prev = new Int32Array(n + 2);
    let last = 0;
    for (let i = 1; i <= n; i++) {
      if (delimiters[i - 1]!.dead) continue;
      this.next[last] = i;
      this.prev[i] = last;
      last = i;
    }
    this.next[last] = n + 1;
    this.prev[n + 1] = last;
  }
}

/**
 * §6.2 "process emphasis", as micromark runs it, over the delimiters between slots `lo` and `hi` of `alive` — the
 * `*` and `_` runs, or (`tilde`) GFM strikethrough's sequences: each closer, left to right, looks back for the
 * nearest opener of the same character (emphasis: skipping pairs the rule of 3 forbids, using two characters of
 * each when both have two, else one, and a closer with characters left looks again; strikethrough: of the same
 * length, all of it). Used characters are not data. The content of a pair is resolved on its own, as micromark
 * resolves the events between (its insideSpan resolvers: emphasis, then strikethrough); then nothing in it pairs
 * with anything outside.
 */
function resolveDelimiters(delimiters: Delimiter[], alive: Alive, lo: number, hi: number, tilde: boolean, mark: (s: number, e: number) => void): void {
  const { next, prev } = alive;
  for (let k = next[lo]!; k < hi; ) {
    const closer = delimiters[k - 1]!;
    if (!closer.close || (closer.c === TILDE) !== tilde || closer.s === closer.e) {
      k = next[k]!;
      continue;
    }
    let matched = false;
    for (let o = prev[k]!; o > lo; o = prev[o]!) {
      const opener = delimiters[o - 1]!;
      if (!opener.open || opener.c !== closer.c || opener.s === opener.e) continue;
      const ol = opener.e - opener.s;
      const cl = closer.e - closer.s;
      let use: number;
      if (tilde) {
        if (ol !== cl) continue;
        use = ol;
      } else {
        if ((opener.close || closer.open) && cl % 3 !== 0 && (ol + cl) % 3 === 0) continue;
        use = ol > 1 && cl > 1 ? 2 : 1;
      }
      mark(opener.e - use, opener.e);
      mark(closer.s, closer.s + use);
      opener.e -= use;
      closer.s += use;
      resolveDelimiters(delimiters, alive, o, k, false, mark);
      resolveDelimiters(delimiters, alive, o, k, true, mark);
      next[o] = k;
      prev[k] = o;
      matched = true;
      break;
    }
    if (!matched || closer.s === closer.e) k = next[k]!;
  }
}

// §6.5 an email autolink's local part: the parser's `atext` (the ASCII printable characters but for
// SPACE ! " ( ) , : ; < > @ [ \ ]).
const ATEXT = new Uint8Array(128);
for (let c = 0x21; c < 0x7f; c++) if (!'!"(),:;<>@[\\]'.includes(String.fromCharCode(c))) ATEXT[c] = 1;

/** Set by autolinkEnd: the autolink found is an email address. */
let autolinkEmail = false;

/** §6.5: the end (after `>`) of an autolink starting with the `<` at i, or 0 (micromark's reading). */
function autolinkEnd(p: string, i: number, b: number): number {
  let j = i + 1;
  autolinkEmail = false;
  if (j >= b) return 0;
  let c = p.charCodeAt(j);
  if (c < 128 && ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a)) {
    // A scheme: a letter, then 1–31 letters, digits, `+`, `-`, `.`, then `:`.
    let k = j + 1;
    while (k < b && k - j < 32 && isSchemeChar(p.charCodeAt(k))) k++;
    if (k < b && k - j >= 2 && p.charCodeAt(k) === 0x3a) {
      for (k++; k < b; k++) {
        const d = p.charCodeAt(k);
        if (d === 0x3e) return k + 1;
        if (d <= 0x20 || d === 0x3c || d === 0x7f) return 0;
      }
      return 0;
    }
  }
  // An email address: atext+ `@` labels of letters, digits and `-` (at most 63, not ending with `-`), dot-separated.
  if (c === 0x40) return 0;
  while (j < b && (c = p.charCodeAt(j)) < 128 && ATEXT[c] === 1) j++;
  if (j >= b || p.charCodeAt(j) !== 0x40) return 0;
  j++;
  for (;;) {
    if (j >= b || !isAlnum(p.charCodeAt(j))) return 0;
    const label = j;
    while (j < b && (isAlnum(p.charCodeAt(j)) || p.charCodeAt(j) === 0x2d)) j++;
    if (j - label > 63 || p.charCodeAt(j - 1) === 0x2d || j >= b) return 0;
    c = p.charCodeAt(j);
    if (c === 0x3e) {
      autolinkEmail = true;
      return j + 1;
    }
    if (c !== 0x2e) return 0;
    j++;
  }
}

/**
 * §6.6 an open tag or closing tag starting with the `<` at i, on one line: its end (after `>`); 0 when there is
 * none; BAIL for what this reader does not model (comments, declarations, instructions, CDATA, a tag over lines).
 * States and character sets as micromark's html-text.
 */
function htmlTagEnd(p: string, i: number, b: number): number {
  let j = i + 1;
  if (j >= b) return 0;
  let c = p.charCodeAt(j);
  if (c === 0x21 || c === 0x3f) return BAIL;
  const close = c === 0x2f;
  if (close) {
    j++;
    c = j < b ? p.charCodeAt(j) : -1;
  }
  if (!isAlpha(c)) return 0;
  j++;
  while (j < b && (isAlnum(p.charCodeAt(j)) || p.charCodeAt(j) === 0x2d)) j++;
  if (close) {
    while (j < b && isSpaceOrTab(p.charCodeAt(j))) j++;
    if (j < b && isLineEnding(p.charCodeAt(j))) return BAIL;
    return j < b && p.charCodeAt(j) === 0x3e ? j + 1 : 0;
  }
  // After the name: `/`, `>` or whitespace.
  c = j < b ? p.charCodeAt(j) : -1;
  if (isLineEnding(c)) return BAIL;
  if (!(c === 0x2f || c === 0x3e || isSpaceOrTab(c))) return 0;
  // Between attributes.
  for (;;) {
    c = j < b ? p.charCodeAt(j) : -1;
    if (isLineEnding(c)) return BAIL;
    if (c === 0x2f) return j + 1 < b && p.charCodeAt(j + 1) === 0x3e ? j + 2 : 0;
    if (isSpaceOrTab(c)) {
      j++;
      continue;
    }
    if (c === 0x3e) return j + 1;
    if (!(c === 0x3a || c === 0x5f || isAlpha(c))) return 0;
    // Attribute name.
    j++;
    while (j < b && isAttributeNameChar(p.charCodeAt(j))) j++;
    while (j < b && isSpaceOrTab(p.charCodeAt(j))) j++;
    c = j < b ? p.charCodeAt(j) : -1;
    if (isLineEnding(c)) return BAIL;
    if (c !== 0x3d) continue;
    // `=` and a value.
    j++;
    while (j < b && isSpaceOrTab(p.charCodeAt(j))) j++;
    c = j < b ? p.charCodeAt(j) : -1;
    if (isLineEnding(c)) return BAIL;
    if (c < 0 || c === 0x3c || c === 0x3d || c === 0x3e || c === 0x60) return 0;
    if (c === 0x22 || c === 0x27) {
      const q = c;
      j++;
      while (j < b && p.charCodeAt(j) !== q) {
        if (isLineEnding(p.charCodeAt(j))) return BAIL;
        j++;
      }
      if (j >= b) return 0;
      j++;
    } else {
      j++;
      for (;;) {
        c = j < b ? p.charCodeAt(j) : -1;
        if (c < 0 || c === 0x22 || c === 0x27 || c === 0x3c || c === 0x3d || c === 0x60) return 0;
        if (c === 0x2f || c === 0x3e || isSpaceOrTab(c) || isLineEnding(c)) break;
        j++;
      }
    }
    // After a value: `/`, `>` or whitespace.
    c = j < b ? p.charCodeAt(j) : -1;
    if (isLineEnding(c)) return BAIL;
    if (!(c === 0x2f || c === 0x3e || isSpaceOrTab(c))) return 0;
  }
}

function isSpaceOrTab(c: number): boolean {
  return c === SPACE || c === TAB;
}

function isAttributeNameChar(c: number): boolean {
  return isAlnum(c) || c === 0x2d || c === 0x2e || c === 0x3a || c === 0x5f;
}

// §4.6 kind 6: the block-level tag names (micromark's list, CommonMark 0.31).
const BLOCK_NAMES = new Set([
  'address', 'article', 'aside', 'base', 'basefont', 'blockquote', 'body', 'caption', 'center', 'col', 'colgroup', 'dd',
  'details', 'dialog', 'dir', 'div', 'dl', 'dt', 'fieldset', 'figcaption', 'figure', 'footer', 'form', 'frame',
  'frameset', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'head', 'header', 'hr', 'html', 'iframe', 'legend', 'li', 'link',
  'main', 'menu', 'menuitem', 'nav', 'noframes', 'ol', 'optgroup', 'option', 'p', 'param', 'search', 'section',
  'summary', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'title', 'tr', 'track', 'ul',
]);

/**
 * §4.6 for a line starting with the `<` at i (no paragraph open, at most 3 columns indented; the next line at
 * `next`): the start of the line after the HTML block it opens, when it is a comment (kind 2, ending on the line with
 * `-->`) or a block-level tag (kind 6, ending before a blank line); -1 otherwise.
 */
function htmlBlockEnd(p: string, i: number, next: number, end: number): number {
  if (p.startsWith('<!--', i)) {
    const close = p.indexOf('-->', i + 2); // `<!-->` ends where it starts (segment.ts htmlStart)
    if (close < 0 || close + 3 > end) return -1;
    return lineAt(p, close, end)[1];
  }
  let j = i + 1;
  if (p.charCodeAt(j) === 0x2f) j++;
  const name = j;
  if (!isAlpha(p.charCodeAt(j))) return -1;
  while (j < end && (isAlnum(p.charCodeAt(j)) || p.charCodeAt(j) === 0x2d)) j++;
  const c = j < end ? p.charCodeAt(j) : -1;
  const [le] = lineAt(p, i, end);
  if (!(j === le || c === 0x3e || isSpaceOrTab(c) || (c === 0x2f && p.charCodeAt(j + 1) === 0x3e))) return -1;
  if (!BLOCK_NAMES.has(p.slice(name, j).toLowerCase())) return -1;
  // To the first blank line (not part of the block).
  for (let ls = next; ls < end; ) {
    const [e, after] = lineAt(p, ls, end);
    let k = ls;
    while (k < e && isSpaceOrTab(p.charCodeAt(k))) k++;
    if (k === e) return ls;
    ls = after;
  }
  // A block that reaches the end of the piece may run on into the next one (a forced cut, linkifier.ts): micromark
  // reads it, and extract.ts reports it open so that its first line is replayed.
  return end === p.length ? -1 : end;
}

const RAW_NAMES = new Set(['pre', 'script', 'style', 'textarea']);

/**
 * §4.6: whether the line p[i, e), starting with `<`, may start an HTML block: kinds 1–5 (`<!`, `<?`, a raw tag
 * name), 6 (a block-level tag name), or 7 (a complete open or closing tag with nothing but whitespace after it).
 */
function mayStartHtmlBlock(p: string, i: number, e: number): boolean {
  const c = p.charCodeAt(i + 1);
  if (c === 0x21 || c === 0x3f) return true;
  let j = c === 0x2f ? i + 2 : i + 1;
  const name = j;
  if (!isAlpha(p.charCodeAt(j))) return false;
  while (j < e && (isAlnum(p.charCodeAt(j)) || p.charCodeAt(j) === 0x2d)) j++;
  const lower = p.slice(name, j).toLowerCase();
  if (BLOCK_NAMES.has(lower) || RAW_NAMES.has(lower)) return true;
  // Kind 7 reads a tag a little differently from raw HTML (§6.6) in micromark (`<a b=c=d>` is a tag to it): when
  // the inline reading finds no tag, assume one. When it finds one, kind 7 reads the same one, then needs the end.
  const tag = htmlTagEnd(p, i, e);
  if (tag <= 0) return true;
  for (let k = tag; k < e; k++) if (!isSpaceOrTab(p.charCodeAt(k))) return false;
  return true;
}

/** §2.5: the end of a character reference starting with `&` at i, or 0. */
export function referenceEnd(p: string, i: number, b: number): number {
  let j = i + 1;
  if (j < b && p.charCodeAt(j) === 0x23) {
    j++;
    const hex = j < b && (p.charCodeAt(j) | 0x20) === 0x78;
    if (hex) j++;
    const s = j;
    const max = hex ? 6 : 7;
    while (j < b && j - s < max && (hex ? isHex(p.charCodeAt(j)) : isDigit(p.charCodeAt(j)))) j++;
    return j > s && j < b && p.charCodeAt(j) === 0x3b ? j + 1 : 0;
  }
  const s = j;
  while (j < b && j - s < 31 && isAlnum(p.charCodeAt(j))) j++;
  if (j === s || j >= b || p.charCodeAt(j) !== 0x3b) return 0;
  // A named reference must be one HTML defines: the parser's own decoder says.
  const ref = p.slice(i, j + 1);
  return decodeString(ref) !== ref ? j + 1 : 0;
}

/**
 * §6.1: the backtick strings of p[a, b), by length, read in one pass when the first code span asks (a search from
 * each opener to the end of the text, when no string of its length follows, made `` \`` `` repeated quadratic).
 */
class BacktickStrings {
  private readonly byLength = new Map<number, number[]>();

  constructor(p: string, a: number, b: number) {
    for (let i = p.indexOf('`', a); i >= 0 && i < b; ) {
      let j = i;
      while (j < b && p.charCodeAt(j) === 0x60) j++;
      const starts = this.byLength.get(j - i);
      if (starts === undefined) this.byLength.set(j - i, [i]);
      else starts.push(i);
      i = p.indexOf('`', j);
    }
  }

  /**
   * Where a string of exactly n backticks starts at or after `from`, or -1. `from` is right after the opener, not
   * on a backtick, so the strings after it are those read from the start.
   */
  closing(from: number, n: number): number {
    const starts = this.byLength.get(n);
    if (starts === undefined) return -1;
    let lo = 0;
    let hi = starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (starts[mid]! < from) lo = mid + 1;
      else hi = mid;
    }
    return lo < starts.length ? starts[lo]! : -1;
  }
}

/**
 * §6.3 an inline link's `( destination "title" )` starting at the `(` at i: its end (after `)`), 0 when there is
 * none, BAIL when it runs over a line ending or uses `<…>` (not modelled). The destination goes to `destinations`.
 */
function readResource(p: string, i: number, b: number, destinations: FastItem[], image: boolean): number {
  let j = i + 1;
  const ws = (): boolean => {
    while (j < b) {
      const c = p.charCodeAt(j);
      if (c === SPACE || c === TAB) j++;
      else if (isLineEnding(c)) return false;
      else break;
    }
    return true;
  };
  if (!ws()) return BAIL;
  if (j >= b) return 0;
  let c = p.charCodeAt(j);
  let destS = j;
  let destE = j;
  if (c === 0x3c) return BAIL;
  if (c !== 0x29) {
    // Raw destination: no space or control character, parentheses balanced (at most 32 deep).
    let depth = 0;
    for (;;) {
      if (j >= b) return 0;
      c = p.charCodeAt(j);
      if (depth === 0 && (c === 0x29 || c === SPACE || c === TAB || isLineEnding(c))) break;
      if (c === 0x28) {
        if (depth >= 32) return 0;
        depth++;
      } else if (c === 0x29) {
        depth--;
      } else if (c <= 0x20 || c === 0x7f) {
        return 0;
      } else if (c === 0x5c) {
        const d = j + 1 < b ? p.charCodeAt(j + 1) : -1;
        if (d === 0x28 || d === 0x29 || d === 0x5c) j++;
      }
      j++;
    }
    destE = j;
    if (c !== 0x29) {
      if (!ws()) return BAIL;
      if (j >= b) return 0;
      c = p.charCodeAt(j);
      if (c === 0x22 || c === 0x27 || c === 0x28) {
        // Title.
        const close = c === 0x28 ? 0x29 : c;
        j++;
        for (;;) {
          if (j >= b) return 0;
          const t = p.charCodeAt(j);
          if (isLineEnding(t)) return BAIL;
          if (t === close) break;
          if (t === 0x5c) {
            const d = j + 1 < b ? p.charCodeAt(j + 1) : -1;
            if (d === close || d === 0x5c) j++;
          }
          j++;
        }
        j++;
        if (!ws()) return BAIL;
        if (j >= b) return 0;
        c = p.charCodeAt(j);
      }
      if (c !== 0x29) return 0;
    }
  }
  if (destE > destS) {
    const item: FastItem = { s: destS, e: destE, destination: decodeString(p.slice(destS, destE)) };
    if (image) item.construct = 'image';
    destinations.push(item);
  }
  return j + 1;
}

/** §5.2 list marker at i: the end of the marker, or 0. `one`: the marker is an ordered `1.` / `1)`. */
function listMarkerEnd(p: string, i: number, e: number): { end: number; ordered: boolean; one: boolean } | undefined {
  const c = p.charCodeAt(i);
  if (c === 0x2d || c === 0x2b || c === 0x2a) return { end: i + 1, ordered: false, one: false };
  let j = i;
  while (j < e && j - i < 10 && isDigit(p.charCodeAt(j))) j++;
  if (j === i || j - i > 9) return undefined;
  const d = p.charCodeAt(j);
  if (j >= e || (d !== 0x2e && d !== 0x29)) return undefined;
  return { end: j + 1, ordered: true, one: j - i === 1 && c === 0x31 };
}

/** The end of the line starting at ls (before its line ending), and the start of the next. */
function lineAt(p: string, ls: number, end: number): [number, number] {
  let e = ls;
  while (e < end && !isLineEnding(p.charCodeAt(e))) e++;
  return [e, e < end ? e + (p.charCodeAt(e) === CR && p.charCodeAt(e + 1) === LF ? 2 : 1) : e];
}

/**
 * GFM table (micromark-extension-gfm-table's reading) whose header row p[ls, le) starts with `|` in column 0: the
 * start of the line after it (its rows end at a blank line), 0 when these lines are no table, -1 to give up. Each
 * cell's content (between unescaped `|`, without the spaces and tabs around it) is inline content of its own.
 */
function readTable(p: string, ls: number, le: number, next: number, end: number, ctx: FastContext, out: FastItem[]): number {
  if (next >= end) return 0;
  const [de, dnext] = lineAt(p, next, end);
  // The header row: cells counted as the parser counts them (a trailing `|` opens none).
  let cells = 0;
  let tokens = 0;
  let seen = false;
  for (let i = ls; i < le; ) {
    const c = p.charCodeAt(i);
    if (c === SPACE || c === TAB) {
      i++;
      continue;
    }
    tokens++;
    if (seen) {
      seen = false;
      cells++;
    }
    if (c === 0x7c) {
      seen = true;
      i++;
      continue;
    }
    while (i < le) {
      const d = p.charCodeAt(i);
      if (d === 0x7c || d === SPACE || d === TAB) break;
      i += d === 0x5c && (p.charCodeAt(i + 1) === 0x5c || p.charCodeAt(i + 1) === 0x7c) && i + 1 < le ? 2 : 1;
    }
  }
  if (tokens < 2) return 0;
  // The delimiter row: `|` in column 0, then cells `:?-+:?` between `|`, as many as the header's.
  if (p.charCodeAt(next) !== 0x7c) return 0;
  let delimiters = 0;
  for (let i = next + 1; i < de; ) {
    while (i < de && (p.charCodeAt(i) === SPACE || p.charCodeAt(i) === TAB)) i++;
    if (i === de) break;
    if (p.charCodeAt(i) === 0x3a) i++;
    const dashes = i;
    while (i < de && p.charCodeAt(i) === 0x2d) i++;
    if (i === dashes) return 0;
    if (i < de && p.charCodeAt(i) === 0x3a) i++;
    while (i < de && (p.charCodeAt(i) === SPACE || p.charCodeAt(i) === TAB)) i++;
    delimiters++;
    if (i === de) break;
    if (p.charCodeAt(i) !== 0x7c) return 0;
    i++;
  }
  if (delimiters !== cells) return 0;
  if (!readRow(p, ls, le, ctx, out)) return -1;
  // Body rows: lines starting with `|` (any other non-blank line is not modelled here).
  for (let rs = dnext; rs < end; ) {
    const [re, rnext] = lineAt(p, rs, end);
    let k = rs;
    while (k < re && (p.charCodeAt(k) === SPACE || p.charCodeAt(k) === TAB)) k++;
    if (k === re) return rs;
    if (p.charCodeAt(rs) !== 0x7c) return -1;
    if (!readRow(p, rs, re, ctx, out)) return -1;
    rs = rnext;
  }
  return end;
}

/** The cells of a table row p[s, e) as inline content (the parser's `\\` and `\|` pairs do not divide). */
function readRow(p: string, s: number, e: number, ctx: FastContext, out: FastItem[]): boolean {
  let cell = s;
  let i = s;
  // A `|` before any content is the row's leading pipe.
  while (i < e && (p.charCodeAt(i) === SPACE || p.charCodeAt(i) === TAB)) i++;
  if (i < e && p.charCodeAt(i) === 0x7c) cell = ++i;
  for (;;) {
    if (i >= e || p.charCodeAt(i) === 0x7c) {
      let a = cell;
      let b = i;
      while (a < b && (p.charCodeAt(a) === SPACE || p.charCodeAt(a) === TAB)) a++;
      while (b > a && (p.charCodeAt(b - 1) === SPACE || p.charCodeAt(b - 1) === TAB)) b--;
      if (!readInline(p, a, b, ctx, out)) return false;
      if (i >= e) return true;
      cell = ++i;
      continue;
    }
    i += p.charCodeAt(i) === 0x5c && i + 1 < e && (p.charCodeAt(i + 1) === 0x5c || p.charCodeAt(i + 1) === 0x7c) ? 2 : 1;
  }
}

/** §4.3: a setext heading underline, a run of `=` or of `-` and nothing after it but spaces and tabs. */
function isSetextUnderline(p: string, i: number, e: number): boolean {
  const c = p.charCodeAt(i);
  if (c !== 0x3d && c !== 0x2d) return false;
  let j = i;
  while (j < e && p.charCodeAt(j) === c) j++;
  while (j < e && (p.charCodeAt(j) === SPACE || p.charCodeAt(j) === TAB)) j++;
  return j === e;
}

/** §4.1: three or more `-`, `*` or `_` (the same), spaces and tabs between. */
function isThematicBreak(p: string, i: number, e: number): boolean {
  const c = p.charCodeAt(i);
  if (c !== 0x2d && c !== 0x2a && c !== 0x5f) return false;
  let n = 0;
  for (let j = i; j < e; j++) {
    const d = p.charCodeAt(j);
    if (d === c) n++;
    else if (d !== SPACE && d !== TAB) return false;
  }
  return n >= 3;
}

/**
 * §4.5: for a line p[i, le) (at most 3 columns indented, the next line at `next`) that opens a fenced code block,
 * the start of the line after its closing fence; 0 when the line opens none; -1 when the fence is not closed before
 * `end`.
 */
export function fenceEnd(p: string, i: number, le: number, next: number, end: number): number {
  const c = p.charCodeAt(i);
  let j = i;
  while (j < le && p.charCodeAt(j) === c) j++;
  const n = j - i;
  if (n < 3) return 0;
  // A backtick fence's info string has no backtick.
  if (c === 0x60 && p.indexOf('`', j) >= 0 && p.indexOf('`', j) < le) return 0;
  for (let ls = next; ls < end; ) {
    let e = ls;
    while (e < end && !isLineEnding(p.charCodeAt(e))) e++;
    const after = e < end ? e + (p.charCodeAt(e) === CR && p.charCodeAt(e + 1) === LF ? 2 : 1) : e;
    let k = ls;
    while (k < e && p.charCodeAt(k) === SPACE) k++;
    // A tab after fewer than 4 spaces reaches column 4: the line is content, no closing fence (§2.2).
    if (k - ls < 4 && !(k < e && p.charCodeAt(k) === TAB)) {
      let m = k;
      while (m < e && p.charCodeAt(m) === c) m++;
      if (m - k >= n) {
        while (m < e && (p.charCodeAt(m) === SPACE || p.charCodeAt(m) === TAB)) m++;
        if (m === e) return after;
      }
    }
    ls = after;
  }
  return -1;
}

/** §4.1: a thematic break, or a line of only `-` or `=` (a setext underline, §4.3). */
function isBreakOrUnderline(p: string, i: number, e: number): boolean {
  const c = p.charCodeAt(i);
  if (c !== 0x2d && c !== 0x2a && c !== 0x5f && c !== 0x3d) return false;
  let n = 0;
  for (let j = i; j < e; j++) {
    const d = p.charCodeAt(j);
    if (d === c) n++;
    else if (d !== SPACE && d !== TAB) return false;
  }
  return n >= 3 || c === 0x2d || c === 0x3d;
}

/**
 * GFM tables need a delimiter row: a line whose content (after container markers) is only `|`, `-`, `:`, spaces and
 * tabs, with a `-` and a `|` or `:` (the parser's `seen`). Whether p[i, e) could be one.
 */
function mayBeDelimiterRow(p: string, i: number, e: number): boolean {
  let dash = false;
  let seen = false;
  for (let j = i; j < e; j++) {
    const c = p.charCodeAt(j);
    if (c === 0x2d) dash = true;
    else if (c === 0x7c || c === 0x3a) seen = true;
    else if (c !== SPACE && c !== TAB) return false;
  }
  return dash && seen;
}

let openLine: string | undefined;

/**
 * After fastSegment read the last segment of a piece: the opener line of the fence it left open at the end of the
 * piece (what extract.ts's openAtEnd finds in micromark's events), or undefined.
 */
export function openFenceLine(): string | undefined {
  return openLine;
}

/**
 * The runs and destinations of p[start, end), a segment (whole top-level blocks, segment.ts) that starts where no
 * block is open, in order; undefined when it is not in the subset this reader handles.
 */
export function fastSegment(p: string, start: number, end: number, ctx: FastContext): FastItem[] | undefined {
  openLine = undefined;
  const out: FastItem[] = [];
  /**
   * Content columns of the open list items, outermost first (a tab after a marker counts to the next multiple of 4;
   * a line under an item indented with a tab is given up on).
   */
  const items: number[] = [];
  let paraStart = -1;
  let paraEnd = -1;
  /** The number of block quotes (§5.1) around the open paragraph: 0 outside any. */
  let paraDepth = 0;
  /** Whether a line after the paragraph's first starts with block quote markers (quoteMarkersEnd). */
  let paraMarked = false;
  const closePara = (): boolean => {
    if (paraStart < 0) return true;
    // §4.7 link reference definitions (not modelled here) start a paragraph: `[label]:`.
    if (p.charCodeAt(paraStart) === 0x5b) {
      // Within the paragraph only (an indexOf to the end of the text, for each paragraph that starts with `[`, made
      // a long task list or list of `[name](url)` items quadratic).
      for (let k = paraStart + 1; k < paraEnd; k++) {
        if (p.charCodeAt(k) === 0x5d && p.charCodeAt(k + 1) === 0x3a) return false;
      }
    }
    const ok = paraMarked ? readQuotedInline(p, paraStart, paraEnd, ctx, out) : readInline(p, paraStart, paraEnd, ctx, out);
    paraStart = -1;
    paraDepth = 0;
    paraMarked = false;
    return ok;
  };
  for (let ls = start; ls < end; ) {
    let le = ls;
    while (le < end && !isLineEnding(p.charCodeAt(le))) le++;
    const next = le < end ? le + (p.charCodeAt(le) === CR && p.charCodeAt(le + 1) === LF ? 2 : 1) : le;
    let i = ls;
    while (i < le && p.charCodeAt(i) === SPACE) i++;
    if (i < le && p.charCodeAt(i) === TAB) {
      // §2.2: a tab in the indentation puts what follows at column 4 or more. Outside list items (whose content
      // column a tab may split: not modelled) such a line continues an open paragraph (§4.4: indented code cannot
      // interrupt one; lazily too, §5.1), or is blank, or starts indented code.
      let j = i;
      while (j < le && (p.charCodeAt(j) === SPACE || p.charCodeAt(j) === TAB)) j++;
      if (j < le) {
        if (items.length > 0) return undefined;
        if (paraStart < 0) {
          ls = indentedCodeEnd(p, next, end);
          continue;
        }
        if (ctx.gfm && mayBeDelimiterRow(p, j, le)) return undefined;
        paraEnd = le;
        ls = next;
        continue;
      }
      i = j;
    }
    if (i === le) {
      // §4.9 a blank line ends a paragraph (list items go on when the next line is indented enough).
      if (!closePara()) return undefined;
      ls = next;
      continue;
    }
    // A table's delimiter row follows its header row, a line that would otherwise continue a paragraph.
    if (ctx.gfm && paraStart >= 0 && mayBeDelimiterRow(p, i, le)) return undefined;
    const col = i - ls;
    let matched = 0;
    while (matched < items.length && col >= items[matched]!) matched++;
    const indent = col - (matched > 0 ? items[matched - 1]! : 0);
    const paraOpen = paraStart >= 0;
    // The paragraph's own container goes on: a new block here would interrupt the paragraph.
    const interrupting = paraOpen && matched === items.length;
    if (matched < items.length) {
      // §5.2 laziness: a line that would continue the paragraph continues it, whatever the containers. Whether it
      // would starts a block is read after the containers it matches (§5.2: `# c` indented 3 under an item's
      // content is a heading; indented 4, §4.4, it cannot interrupt the paragraph).
      if (paraStart >= 0 && (indent >= 4 || !startsBlock(p, i, le))) {
        paraEnd = le;
        ls = next;
        continue;
      }
      // An underline (`=`, `--`) cannot underline a paragraph in a container it does not match; micromark reads it
      // as lazy text: not modelled.
      if (paraStart >= 0 && isSetextUnderline(p, i, le) && !isThematicBreak(p, i, le)) return undefined;
      if (!closePara()) return undefined;
      items.length = matched;
    }
    if (indent >= 4) {
      // §4.4 an indented code block cannot interrupt a paragraph; otherwise one starts here (in a list item: not
      // modelled). Nothing in it is data.
      if (paraStart < 0) {
        if (items.length > 0) return undefined;
        ls = indentedCodeEnd(p, next, end);
        continue;
      }
      paraEnd = le;
      ls = next;
      continue;
    }
    let c = p.charCodeAt(i);
    if (c === 0x3e && items.length === 0) {
      // §5.1 block quotes, at the top level, holding paragraphs, headings and thematic breaks (mail's quoted
      // replies: `> text`, `> > text`).
      const k = quoteMarkersEnd(p, i, le);
      if (k < 0) return undefined;
      const depth = quoteDepth;
      let s = k;
      while (s < le && p.charCodeAt(s) === SPACE) s++;
      if (s < le && p.charCodeAt(s) === TAB) return undefined;
      const heading = s - k < 4 ? atxContent(p, s, le) : undefined;
      if (s === le) {
        // A quote line with no content is blank inside the quote: it ends the paragraph.
        if (!closePara()) return undefined;
      } else if (s - k < 4 && (isThematicBreak(p, s, le) || (paraStart >= 0 && depth === paraDepth && isSetextUnderline(p, s, le)))) {
        // §4.1 a thematic break, or §4.3 the underline that makes the paragraph of this quote a setext heading: the
        // paragraph ends (as a thematic break ends a quote nested deeper), the line has no content.
        if (!closePara()) return undefined;
      } else if (heading !== undefined) {
        // §4.2 an ATX heading in the quote.
        if (!closePara() || !readInline(p, heading[0], heading[1], ctx, out)) return undefined;
      } else if (paraStart >= 0 && depth <= paraDepth) {
        // The quotes of the paragraph, or fewer (§5.1 laziness: the paragraph goes on), and no block starts here:
        // continuation text. (A block would close quotes or start one in the paragraph's quote: not modelled.)
        if (s - k < 4 && startsBlock(p, s, le)) return undefined;
        if (ctx.gfm && mayBeDelimiterRow(p, s, le)) return undefined;
        paraEnd = le;
        paraMarked = true;
      } else {
        // A new quote (it interrupts a paragraph, §5.1) or a paragraph in the quotes: a paragraph starts, unless
        // the content starts another block (indented code, §4.4, among them).
        if (!closePara()) return undefined;
        if (s - k >= 4 || startsParagraphlessBlock(p, s, le)) return undefined;
        paraStart = s;
        paraEnd = le;
        paraDepth = depth;
      }
      ls = next;
      continue;
    }
    if ((c === 0x60 || c === 0x7e) && items.length === 0) {
      // §4.5 a top-level fenced code block: nothing in it is data; it runs to its closing fence (an unclosed one
      // reaches the end of the piece: left to micromark, which reports it open).
      const close = fenceEnd(p, i, le, next, end);
      if (close === 0) {
        // Not a fence: a paragraph line (below).
      } else if (close < 0) {
        // §4.5: an unclosed fence runs to the end of the text. At the end of the piece that is the piece's open
        // block (openFenceLine); a segment before it cannot end inside one (the cut guessed wrong): given up on.
        if (end !== p.length || !closePara()) return undefined;
        openLine = p.slice(ls, le);
        return out;
      } else {
        if (!closePara()) return undefined;
        ls = close;
        continue;
      }
    }
    if (ctx.gfm && c === 0x7c && col === 0 && items.length === 0 && paraStart < 0) {
      // GFM tables: a header row and a delimiter row with as many cells, then rows up to a blank line.
      const after = readTable(p, ls, le, next, end, ctx, out);
      if (after < 0) return undefined;
      if (after > 0) {
        ls = after;
        continue;
      }
    }
    if (c === 0x3c && items.length === 0 && paraStart < 0) {
      // §4.6 HTML blocks of kind 2 (a comment, to the line with `-->`) and 6 (a block-level tag, to a blank line):
      // nothing in them is data. Other kinds are left to micromark; a line that starts none is a paragraph's.
      const after = htmlBlockEnd(p, i, next, end);
      if (after >= 0) {
        ls = after;
        continue;
      }
      if (mayStartHtmlBlock(p, i, le)) return undefined;
    }
    if (paraStart < 0 && isThematicBreak(p, i, le)) {
      // §4.1 a thematic break: no content.
      ls = next;
      continue;
    }
    // Up to one list marker per line is modelled (§5.2); its content must start plainly.
    const marker = listMarkerEnd(p, i, le);
    if (marker !== undefined && !isBreakOrUnderline(p, i, le)) {
      const m = marker.end;
      // The spaces after the marker, in columns (§2.2: a tab reaches the next multiple of 4; nothing before the
      // marker is a tab). More than 4 make the rest indented code in the item (not modelled).
      let k = m;
      let col = m - ls;
      for (; k < le; k++) {
        const d = p.charCodeAt(k);
        if (d === SPACE) col++;
        else if (d === TAB) col += 4 - (col % 4);
        else break;
      }
      const spaces = col - (m - ls);
      const isMarker = spaces >= 1 || m === le;
      if (isMarker) {
        if (k === le || spaces > 4) return undefined;
        // §5.2: only a non-empty item, and `1.` of ordered ones, interrupts a paragraph (else: continuation text).
        if (interrupting && marker.ordered && !marker.one) return undefined;
        if (!closePara()) return undefined;
        items.push(col);
        i = k;
        c = p.charCodeAt(i);
        if (startsParagraphlessBlock(p, i, le)) return undefined;
        paraStart = i;
        paraEnd = le;
        ls = next;
        continue;
      }
    }
    const heading = atxContent(p, i, le);
    if (heading !== undefined) {
      if (!closePara() || !readInline(p, heading[0], heading[1], ctx, out)) return undefined;
      ls = next;
      continue;
    }
    if (paraStart >= 0) {
      // §5.1: under a quoted paragraph an underline is no setext heading's (`===` goes on lazily): not modelled.
      if (paraDepth > 0 && isSetextUnderline(p, i, le)) return undefined;
      if (isThematicBreak(p, i, le) || isSetextUnderline(p, i, le)) {
        // §4.3 / §4.1: the paragraph becomes a setext heading (the same inline content), or a thematic break
        // interrupts it; the line itself has no content.
        if (!closePara()) return undefined;
        ls = next;
        continue;
      }
      if (startsBlock(p, i, le)) return undefined;
      paraEnd = le;
    } else {
      if (startsParagraphlessBlock(p, i, le)) return undefined;
      paraStart = i;
      paraEnd = le;
    }
    ls = next;
  }
  if (!closePara()) return undefined;
  return out;
}

/**
 * §4.2: the content p[s, e) of the ATX heading on the line p[i, le) (1–6 `#`, then a space, a tab or the end of
 * the line; without its closing sequence and the spaces around it), or undefined when the line is none.
 */
function atxContent(p: string, i: number, le: number): [number, number] | undefined {
  let j = i;
  while (j < le && p.charCodeAt(j) === 0x23) j++;
  if (j === i || j - i > 6 || (j < le && p.charCodeAt(j) !== SPACE && p.charCodeAt(j) !== TAB)) return undefined;
  let s = j;
  while (s < le && (p.charCodeAt(s) === SPACE || p.charCodeAt(s) === TAB)) s++;
  let e = le;
  while (e > s && (p.charCodeAt(e - 1) === SPACE || p.charCodeAt(e - 1) === TAB)) e--;
  // The closing sequence: `#`s preceded by a space or tab (or filling the content).
  let h = e;
  while (h > s && p.charCodeAt(h - 1) === 0x23) h--;
  if (h < e && (h === s || p.charCodeAt(h - 1) === SPACE || p.charCodeAt(h - 1) === TAB)) {
    e = h;
    while (e > s && (p.charCodeAt(e - 1) === SPACE || p.charCodeAt(e - 1) === TAB)) e--;
  }
  return [s, e];
}

/**
 * §4.4: where the indented code block whose first line ends before `ls` ends: the start of its first line from
 * `ls` that holds more than whitespace and starts less than 4 columns in (a tab reaches column 4), or `end`.
 */
function indentedCodeEnd(p: string, ls: number, end: number): number {
  while (ls < end) {
    const [e, next] = lineAt(p, ls, end);
    let k = ls;
    while (k < e && p.charCodeAt(k) === SPACE) k++;
    if (k < e && k - ls < 4 && p.charCodeAt(k) !== TAB) return ls;
    ls = next;
  }
  return end;
}

/**
 * startsBlock for a line where no paragraph is open: a line of `=`, or of two `-`, is then paragraph text (a
 * setext underline only under a paragraph, §4.3; no thematic break, §4.1, nor list item, §5.2): `-- ` before a
 * mail signature.
 */
function startsParagraphlessBlock(p: string, i: number, e: number): boolean {
  if (!startsBlock(p, i, e)) return false;
  if (!isSetextUnderline(p, i, e)) return true;
  return p.charCodeAt(i) !== 0x3d && (p.charCodeAt(i + 1) !== 0x2d || isThematicBreak(p, i, e));
}

/** The depth quoteMarkersEnd found (a second return value). */
let quoteDepth = 0;

/**
 * §5.1 block quote markers from p[i] (a `>` indented less than 4): each `>` and the one space after it that the
 * marker takes. Returns where the content starts, with their number in quoteDepth; −1 when a tab follows a marker
 * (part of it would be the marker's: not modelled). A `>` after more than one space is left to the content (which
 * then starts a block: not modelled).
 */
function quoteMarkersEnd(p: string, i: number, e: number): number {
  let depth = 0;
  while (i < e && p.charCodeAt(i) === 0x3e) {
    depth++;
    i++;
    if (i < e && p.charCodeAt(i) === TAB) return BAIL;
    if (i < e && p.charCodeAt(i) === SPACE) i++;
  }
  quoteDepth = depth;
  return i;
}

/**
 * readInline for a paragraph whose lines after the first may start with block quote markers: the markers are not
 * the paragraph's content (§5.1), so they are read as the spaces they stand in for. micromark's text tokenizer sees
 * each line after its line ending and container prefix; readInline marks a line's leading whitespace as not data,
 * and no construct reads different text for spaces there than for nothing (destinations and autolinks hold no line
 * ending; a tag's or title's line ending may be followed by whitespace; flanking sees whitespace either way).
 * Which lines hold markers is decided as fastSegment decides: indented less than 4, a `>` first.
 */
function readQuotedInline(p: string, a: number, b: number, ctx: FastContext, out: FastItem[]): boolean {
  let q = '';
  let from = a;
  for (let ls = lineAt(p, a, b)[1]; ls < b; ls = lineAt(p, ls, b)[1]) {
    let i = ls;
    while (i < b && p.charCodeAt(i) === SPACE) i++;
    if (i - ls >= 4 || p.charCodeAt(i) !== 0x3e) continue;
    const k = quoteMarkersEnd(p, i, b);
    if (k < 0) return false;
    q += p.slice(from, i) + ' '.repeat(k - i);
    from = k;
  }
  q += p.slice(from, b);
  const found: FastItem[] = [];
  if (!readInline(q, 0, q.length, ctx, found)) return false;
  for (const item of found) {
    item.s += a;
    item.e += a;
    out.push(item);
  }
  return true;
}

/**
 * Whether the line p[i, e) (indentation under 4) may start a block this reader does not model, or one that
 * interrupts a paragraph: a fence (§4.5), HTML (§4.6), a block quote (§5.1), an ATX heading (§4.2), a thematic break
 * or setext underline (§4.1, §4.3), a list item (§5.2).
 */
function startsBlock(p: string, i: number, e: number): boolean {
  const c = p.charCodeAt(i);
  switch (c) {
    case 0x60:
    case 0x7e: {
      let j = i;
      while (j < e && p.charCodeAt(j) === c) j++;
      return j - i >= 3;
    }
    case 0x3c:
      return mayStartHtmlBlock(p, i, e);
    case 0x3e:
      return true;
    case 0x23: {
      let j = i;
      while (j < e && p.charCodeAt(j) === 0x23) j++;
      return j - i <= 6 && (j === e || p.charCodeAt(j) === SPACE || p.charCodeAt(j) === TAB);
    }
    case 0x2d:
    case 0x2a:
    case 0x2b:
      if (isBreakOrUnderline(p, i, e)) return true;
      return i + 1 === e || p.charCodeAt(i + 1) === SPACE || p.charCodeAt(i + 1) === TAB;
    case 0x5f:
    case 0x3d:
      return isBreakOrUnderline(p, i, e);
    default:
      if (isDigit(c)) {
        const m = listMarkerEnd(p, i, e);
        return m !== undefined && (m.end === e || p.charCodeAt(m.end) === SPACE || p.charCodeAt(m.end) === TAB);
      }
      return false;
  }
}
