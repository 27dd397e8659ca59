// UTS #58 §4.1 minimal escaping: write a URL so that every letter of every script stays readable and detection
// (UTS #58 §3.5.1) still finds exactly that URL when it stands in running text.
// https://www.unicode.org/reports/tr58/ — restated in uts58/NOTES.md §5.
//
// The scheme and host are written unchanged. Path, query and fragment are each rebuilt from their logical pieces
// and then walked with a bracket stack; a character is percent-encoded only when writing it literally would end
// detection early (Hard, an unmatched Close, a Soft or Open character at the very end, and where irilink's detection
// deviates from the reference's: softEndsLink, writePart) or change the URL's structure (a terminator of the part, a
// separator inside a piece, a `%` that would read as an escape).
//
// Both entry points build the same intermediate form, one token list per part:
//   token ≥ 0   a logical character (its code point), written by the walk as minimal escaping decides;
//   token < 0   an escape that must stay an escape: the byte −token − 1, written `%XX` (upper-case hex).
import { badArgument } from '../errors.js';
import { hexValue, pctByte, pctEncodeCodePoint } from '../iri/percent.js';
import { isBidiControl, isNoSpaceScriptLetter, isRoffEscape, termOf } from '../detect/chars.js';
import { isCjkOpenBracket, softCutsLink } from '../detect/terminate.js';
import { afterFileExtension, isGluedParticle } from '../detect/glued.js';
import { CLOSE, HARD, INCLUDE, OPEN, SOFT, isLinkEmail, linkBracketOpener } from '../unicode/index.js';
import { isAlpha, isSchemeChar } from '../iri/chars.js';

/** The logical structure of a URL, as in the comments of LinkFormattingTest.txt (NOTES.md §6). */
export interface UrlParts {
  /** The scheme without `:` or `//`, e.g. `https`. */
  scheme: string;
  /** The host (authority) as it is to be written, e.g. `example.com` or `例え.jp`. */
  host: string;
  /** Path segments, unescaped (𝑷). `[]` or absent: no path; `['']`: the path `/`. */
  path?: readonly string[];
  /** Query key/value pairs, unescaped (𝑸, 𝑽); a missing value writes the key without `=`. */
  query?: readonly (readonly [string, string?])[];
  /** Fragment pieces, unescaped: the fragment (𝑭) and then each text-fragment directive (𝑫), joined by `:~:`. */
  fragment?: readonly string[];
}

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*$/;
/** What ends an authority (RFC 3986 §3.2), or cannot stand in one written in text. */
const AUTHORITY_BREAK = /[/?#\\\s\p{Cc}]/u;

/** The fields of UrlParts, in URL order. */
const URL_PARTS = ['scheme', 'host', 'path', 'query', 'fragment'] as const;

const enum Part {
  Path,
  Query,
  Fragment,
  /** The path of a URL without authority (`mailto:…`, `urn:…`): no leading `/`. */
  RootlessPath,
}

// ASCII characters whose escape is never decoded in a given part, because the literal character would change how
// the URL splits: the part's own terminators and separators, `%`, and (WHATWG URL, special schemes) `\`, which
// parsers read as `/` in a path. Bits: 1 path, 2 query, 4 fragment, 8 rootless path.
const KEEP_ENCODED = new Uint8Array(128);
function keep(chars: string, bits: number): void {
  for (let i = 0; i < chars.length; i++) KEEP_ENCODED[chars.charCodeAt(i)]! |= bits;
}
keep('%', 15);
keep('/?#\\', 1);
// `+` reads as a space in application/x-www-form-urlencoded queries.
keep('&=#+', 2);
// `#` cannot appear in an RFC 3986 fragment; `:` could form the `:~:` fragment-directive delimiter.
keep('#:', 4);
// mailto: (RFC 6068) `@` splits an address and `,` separates addresses.
keep('?#@,\\', 8);

const partBit = (part: Part): number => (part === Part.RootlessPath ? 8 : 1 << part);

// ------------------------------------------------------------------------------------------- tokenizing

/**
 * Reads `s[start, end)` (one part's body, as written in a URL) into tokens: a `%XX…` sequence that is valid UTF-8
 * becomes its character unless that character is kept encoded in this part; any other escape is kept as it is;
 * every other character is itself (a lone surrogate becomes U+FFFD).
 */
function tokenizeWritten(s: string, start: number, end: number, part: Part, out: number[]): void {
  const bit = partBit(part);
  let i = start;
  while (i < end) {
    const c = s.charCodeAt(i);
    if (c === 0x25 && i + 2 < end && hexValue(s.charCodeAt(i + 1)) >= 0 && hexValue(s.charCodeAt(i + 2)) >= 0) {
      const b0 = hexValue(s.charCodeAt(i + 1)) * 16 + hexValue(s.charCodeAt(i + 2));
      const decoded = decodeUtf8Escapes(s, i, end, b0);
      if (decoded >= 0) {
        const cp = decoded & 0x1fffff;
        const len = decoded >>> 21; // escapes consumed
        if (cp < 0x80 && (KEEP_ENCODED[cp]! & bit) !== 0) out.push(-1 - cp);
        else out.push(cp);
        i += 3 * len;
      } else {
        out.push(-1 - b0);
        i += 3;
      }
      continue;
    }
    if (c >= 0xd800 && c <= 0xdfff) {
      const d = i + 1 < end ? s.charCodeAt(i + 1) : 0;
      if (c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff) {
        out.push(0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00));
        i += 2;
      } else {
        out.push(0xfffd); // a lone surrogate has no UTF-8 form (RFC 3987 §3.1)
        i += 1;
      }
      continue;
    }
    out.push(c);
    i++;
  }
}

/**
 * RFC 3629: decodes the UTF-8 sequence of escapes starting at `s[i]` (`%XX` with first byte `b0`).
 * Returns the code point | (number of escapes << 21), or −1 when the bytes are not a well-formed sequence.
 */
function decodeUtf8Escapes(s: string, i: number, end: number, b0: number): number {
  let n: number;
  let cp: number;
  let min: number;
  if (b0 < 0x80) return b0 | (1 << 21);
  if (b0 >= 0xc2 && b0 <= 0xdf) { n = 2; cp = b0 & 0x1f; min = 0x80; }
  else if (b0 >= 0xe0 && b0 <= 0xef) { n = 3; cp = b0 & 0x0f; min = 0x800; }
  else if (b0 >= 0xf0 && b0 <= 0xf4) { n = 4; cp = b0 & 0x07; min = 0x10000; }
  else return -1;
  for (let k = 1; k < n; k++) {
    const j = i + 3 * k;
    if (j + 2 >= end || s.charCodeAt(j) !== 0x25) return -1;
    const h = hexValue(s.charCodeAt(j + 1));
    const l = hexValue(s.charCodeAt(j + 2));
    if (h < 0 || l < 0) return -1;
    const b = h * 16 + l;
    if ((b & 0xc0) !== 0x80) return -1;
    cp = (cp << 6) | (b & 0x3f);
  }
  if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return -1;
  return cp | (n << 21);
}

/** Appends a logical piece: its characters, except `sep` characters, which become kept escapes. */
function tokenizePiece(piece: string, separators: string, out: number[]): void {
  for (let i = 0; i < piece.length; i++) {
    let c = piece.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdfff) {
      const d = i + 1 < piece.length ? piece.charCodeAt(i + 1) : 0;
      if (c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff) {
        out.push(0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00));
        i++;
      } else {
        out.push(0xfffd);
      }
      continue;
    }
    // UTS #58 §4.1 step 1: a separator inside a piece is escaped (`/` in a segment, `&` `=` in a key or value).
    if (c < 0x80 && separators.indexOf(piece[i]!) >= 0) c = -1 - c;
    out.push(c);
  }
}

const pushAscii = (out: number[], chars: string): void => {
  for (let i = 0; i < chars.length; i++) out.push(chars.charCodeAt(i));
};

// ------------------------------------------------------------------------------------------- the walk

/** The letters after a `\` that detection reads as a line break or a tab written out in a string: `n` `r` `t`. */
const ESCAPED_BREAK: readonly number[] = [0x6e, 0x72, 0x74];

/**
 * Is the `\` at tokens[k] one where detection ends a link: ESCAPED_BREAK, or roff's font or colour escape (`\fR`,
 * `\f(CW`, `\m[`; src/detect/chars.ts isRoffEscapeAt)?
 */
function escapedBreak(tokens: readonly number[], k: number): boolean {
  const next = tokens[k + 1] ?? -1;
  return ESCAPED_BREAK.includes(next) || isRoffEscape(next, tokens[k + 2] ?? -1);
}

function isTerminator(part: Part, cp: number): boolean {
  // UTS #58 §3.1 part table: `?` and `#` end a path, `#` ends a query; a fragment has no terminator.
  if (part === Part.Path || part === Part.RootlessPath) return cp === 0x3f || cp === 0x23;
  return part === Part.Query && cp === 0x23;
}

function isLogicalHexDigit(tokens: readonly number[], k: number): boolean {
  return k < tokens.length && tokens[k]! >= 0 && tokens[k]! < 0x80 && hexValue(tokens[k]!) >= 0;
}

/** Whether the literal tokens from `k` spell `scheme://` (a letter, up to 31 more scheme characters, then `://`). */
function schemeSlashSlashAt(tokens: readonly number[], k: number): boolean {
  const first = tokens[k] ?? -1;
  if (!((first | 0x20) >= 0x61 && (first | 0x20) <= 0x7a)) return false;
  let j = k + 1;
  while (j < tokens.length && j - k < 32 && tokens[j]! >= 0 && tokens[j]! < 0x80 && isSchemeChar(tokens[j]!)) j++;
  return tokens[j] === 0x3a && tokens[j + 1] === 0x2f && tokens[j + 2] === 0x2f;
}

/**
 * Deviations (UTS #58 §4.1), where irilink's detection ends a link before a Soft character that the reference's
 * termination would keep (src/detect/terminate.ts; src/detect/display.ts keeps the same characters encoded in a
 * link's iri; terminate.ts softCutsLink): right after an ASCII character, CJK or full-width sentence punctuation in a
 * path (`a，b`), or any non-ASCII Soft character before a letter of a script written without spaces (`?q=x，入`); a
 * CJK full stop in the path after a host, after any character (`東京。次`); and (P8) any Soft
 * character right before `scheme://` (`/x.https://…`), or before such text and then `scheme://`. Such a character is
 * escaped, so that the result is detected whole.
 */
function softEndsLink(tokens: readonly number[], k: number, part: Part, prevAscii: boolean, run: SchemeRun, directiveAt: number): boolean {
  const t = tokens[k]!;
  const path = part === Part.Path || part === Part.RootlessPath;
  if (t >= 0x80 && softCutsLink(t, tokens[k + 1] ?? -1, prevAscii, path, part === Part.Path, part === Part.Fragment && k < directiveAt)) return true;
  // P8 also over text of a script written without spaces between the two (`,入https://…`). A run read before from an
  // earlier token gives the same answer from any token in it (so each token is read once: it was quadratic).
  if (k + 1 > run.stop) {
    let j = k + 1;
    while (j < tokens.length && tokens[j]! >= 0x80 && (isNoSpaceScriptLetter(tokens[j]!) || termOf(tokens[j]!) === SOFT)) j++;
    run.stop = j;
    run.scheme = schemeSlashSlashAt(tokens, j);
  }
  return run.scheme;
}

/** The index of the first `:~:` in `tokens` (literal), or tokens.length. */
function directiveIn(tokens: readonly number[]): number {
  for (let k = 0; k + 2 < tokens.length; k++) if (tokens[k] === 0x3a && tokens[k + 1] === 0x7e && tokens[k + 2] === 0x3a) return k;
  return tokens.length;
}

/** softEndsLink's last run read: where it stopped, and whether `scheme://` starts there. */
interface SchemeRun {
  stop: number;
  scheme: boolean;
}

/**
 * A path's tokens as glued.ts reads them, one UTF-16 unit per token after the path's `/`: `%` for an escape (what
 * detection reads there), U+FFFD for an astral character (neither ASCII nor Hangul, as the character is not).
 */
function pathText(tokens: readonly number[]): string {
  let out = '/';
  for (const t of tokens) out += t < 0 ? '%' : t > 0xffff ? '\uFFFD' : String.fromCharCode(t);
  return out;
}

/**
 * The mailto: path's tokens (RFC 6068 §2: addresses separated by `,`) that detection would not read as part of an
 * address, to be escaped (1), and whether the path ends in a domain. UTS #58 §4.1 escapes the local part for
 * detection too, whose back-scan from the `@` (§5.2) stops at a character that is not Link_Email and, in irilink, at
 * `|`, a bidi control and a brace (a group's), and strips a `'` that opens the local part (src/detect/email.ts):
 * decoded there, such a character made another mailbox of the address (`mailto:a%22b@example.com` was written
 * `mailto:a"b@example.com`, detected as `b@example.com`; found in review). So does a `.` where detection refuses one
 * (first, last, after a `.`). The domain is kept as written, as a host is: a final `.` there is not escaped
 * (`example.com%2E` is no domain), and detection leaves it out.
 */
function mailtoEscapes(tokens: readonly number[]): { forced: Uint8Array; endsInDomain: boolean } {
  const forced = new Uint8Array(tokens.length);
  let endsInDomain = false;
  for (let from = 0; from < tokens.length; ) {
    let to = from;
    while (to < tokens.length && tokens[to] !== 0x2c) to++;
    let at = -1;
    for (let k = from; k < to; k++) if (tokens[k] === 0x40) at = k;
    if (at > from) {
      for (let k = from; k < at; k++) {
        const t = tokens[k]!;
        if (t < 0) continue;
        if (!isLinkEmail(t) || t === 0x7c || t === 0x7b || t === 0x7d || isBidiControl(t) || (k === from && t === 0x27)) forced[k] = 1;
        // A dot-atom's dots (RFC 5322 §3.2.3): detection refuses a local part with a dot at either end or two in a row.
        if (t === 0x2e && (k === from || k === at - 1 || tokens[k - 1] === 0x2e)) forced[k] = 1;
      }
    }
    endsInDomain = to === tokens.length && at >= from;
    from = to + 1;
  }
  return { forced, endsInDomain };
}

/**
 * UTS #58 §4.1 step 2: writes one part's tokens with minimal escaping. `last` is true for the last part of the URL,
 * whose final Soft or Open character is escaped.
 */
function writePart(tokens: readonly number[], part: Part, last: boolean, forced?: Uint8Array): string {
  let out = '';
  // The last code unit written (the part's `/` before the first; an escape's last digit): what detection reads before
  // the next. (Kept here: reading it back from `out`, a string built by appending, flattened it each time.)
  let lastUnit = 0x2f;
  const emit = (s: string): void => {
    if (s.length === 0) return;
    out += s;
    lastUnit = s.charCodeAt(s.length - 1);
  };
  const path = part === Part.Path || part === Part.RootlessPath;
  // Whether the character written last is ASCII (an escape is): the part's initiator before the first.
  let prevAscii = true;
  const stack: number[] = [];
  let pendingSoft = ''; // Soft characters not yet known to be followed by something safe
  let pendingLast = -1; // the last of them, kept apart so it can be escaped at the very end
  let particle = tokens.length; // where a Korean particle that ends the URL starts, once found (glued.ts)
  let text: string | undefined; // the tokens as glued.ts reads them, made when first needed
  const run: SchemeRun = { stop: -1, scheme: false };
  // Where a fragment's text directive starts (`:~:`; softCutsLink: the fragment before it is plain text's).
  const directiveAt = part === Part.Fragment ? directiveIn(tokens) : tokens.length;
  const flush = (): void => {
    if (pendingLast >= 0) emit(pendingSoft + String.fromCodePoint(pendingLast));
    pendingSoft = '';
    pendingLast = -1;
  };
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k]!;
    if (t < 0) {
      flush();
      const b = -1 - t;
      emit(pctByte(b));
      prevAscii = true;
      continue;
    }
    if (forced !== undefined && forced[k] === 1) {
      flush();
      emit(pctEncodeCodePoint(t));
      prevAscii = true;
      continue;
    }
    // Deviation (UTS #58 §4.1): the stack is cleared at the part's separators, as detection does (§3.5.1, NOTES.md
    // §3.2 step 2b); the reference escaper keeps one stack per part, so `/a(b/c)d` would be written with a literal
    // `)` that detection then stops at.
    if (
      ((part === Part.Path || part === Part.RootlessPath) && t === 0x2f) ||
      (part === Part.Query && (t === 0x26 || t === 0x3d)) ||
      (part === Part.Fragment && t === 0x3a && tokens[k + 1] === 0x7e && tokens[k + 2] === 0x3a)
    ) {
      stack.length = 0;
    }
    // Link_Term as irilink's detection reads it (src/detect/chars.ts termOf), so that what is written here is
    // detected whole. Deviation (UTS #58 §4.1): bidi formatting characters (DESIGN P1) and the backquote are
    // Include in Link_Term but end a link there, so they are escaped; so is every `<`: detection ends a link before
    // one that its `>` does not follow soon enough (src/detect/terminate.ts, HELD_LOOKAHEAD) or that opens `</`,
    // and a `<` is no URI character anyway (RFC 3986 Appendix C). Its `>` is then an unmatched closer, escaped too.
    let lt: number = termOf(t);
    if (isTerminator(part, t) || t === 0x3c) lt = HARD;
    // …and a `[` before a `/`, where detection ends a link as at BBCode's end tag `[/url]`.
    if (t === 0x5b && tokens[k + 1] === 0x2f) lt = HARD;
    // Detection ends a link at ASCII Soft punctuation right after a file name's extension when a character that is
    // not ASCII follows it (`a.html,次`, `a.html,«x»`): such a character is escaped, whatever its Link_Term.
    const prev = k > 0 ? tokens[k - 1]! : -1;
    if (t >= 0x80 && part === Part.Path && prev >= 0 && prev < 0x80 && termOf(prev) === SOFT && afterFileExtension((text ??= pathText(tokens)), k, 0)) {
      lt = HARD;
    }
    let escaped = false;
    switch (lt) {
      case SOFT:
        // …and a Soft character that is not ASCII right after a file name's extension (src/detect/terminate.ts), and a
        // `\` that writes out a line break or a tab (`\n` `\r` `\t`), where detection ends a link too (deviations from
        // UTS #58 §4.1).
        if (
          softEndsLink(tokens, k, part, prevAscii, run, directiveAt) ||
          (t >= 0x80 && part === Part.Path && prevAscii && afterFileExtension((text ??= pathText(tokens)), k + 1, 0)) ||
          (t === 0x5c && escapedBreak(tokens, k)) ||
          (t === 0x22 && tokens[k - 1] === 0x2c) // `,"` starts a CSV field
        ) {
          flush();
          emit(pctEncodeCodePoint(t));
          escaped = true;
          break;
        }
        if (pendingLast >= 0) pendingSoft += String.fromCodePoint(pendingLast);
        pendingLast = t;
        break;
      case INCLUDE:
        flush();
        // UTS #58 §4.1 step 1: a literal `%` before two hex digits would read as an escape.
        escaped = t === 0x25 && isLogicalHexDigit(tokens, k + 1) && isLogicalHexDigit(tokens, k + 2);
        // Deviation (UTS #58 §4.1): detection ends a link at a `|` in a path (src/detect/terminate.ts).
        if (t === 0x7c && path) escaped = true;
        // Deviation (UTS #58 §4.1): a word of the sentence glued to an ASCII path after a host, where detection ends a
        // link (src/detect/glued.ts), is escaped: the character after a file name's extension, a Korean particle that
        // ends the URL (all of it).
        if (k >= particle) escaped = true;
        else if (t >= 0x80 && part === Part.Path && prevAscii) {
          text ??= pathText(tokens); // token k is text[k + 1]
          // What detection reads before it: the last unit written.
          const before = lastUnit;
          if (last && isGluedParticle(text, k + 1, tokens.length + 1, before)) particle = k;
          escaped = k >= particle || afterFileExtension(text, k + 1, 0);
        }
        emit(escaped ? (t === 0x25 ? '%25' : pctEncodeCodePoint(t)) : String.fromCodePoint(t));
        break;
      case OPEN:
        flush();
        // Deviations (UTS #58 §4.1): detection leaves out an Open character that ends a link (the reference keeps
        // it), and a CJK or full-width opening bracket right after an ASCII character of a path opens an aside of
        // the sentence (src/detect/terminate.ts), as a `[` does there and in a fragment before any text directive
        // (AsciiDoc's `url[label]`): all are escaped (the aside's Close, then unmatched, is too).
        if (
          (last && k === tokens.length - 1) ||
          (path && prevAscii && isCjkOpenBracket(t)) ||
          (t === 0x5b && prevAscii && (path || (part === Part.Fragment && k < directiveAt)))
        ) {
          emit(pctEncodeCodePoint(t));
          escaped = true;
          break;
        }
        stack.push(t);
        emit(String.fromCodePoint(t));
        break;
      case CLOSE:
        flush();
        if (stack.length > 0 && linkBracketOpener(t) === stack[stack.length - 1]) {
          stack.pop();
          emit(String.fromCodePoint(t));
        } else {
          // Deviation (UTS #58 §4.1): a mismatched closer leaves the stack as it is (the reference pops it);
          // detection never sees the escaped closer, so popping would let a later closer be written literally
          // where detection stops: `[(]]` → `[(%5D%5D`, not `[(%5D]`.
          emit(pctEncodeCodePoint(t));
          escaped = true;
        }
        break;
      default: // HARD, and the part's terminators
        flush();
        emit(pctEncodeCodePoint(t));
        escaped = true;
    }
    prevAscii = escaped || t < 0x80;
  }
  if (pendingLast >= 0) {
    // UTS #58 §4.1: the very last character of the URL is escaped if it is Soft; Soft characters before it are then
    // followed by `%` (Include) and stay literal.
    emit(pendingSoft + (last ? pctEncodeCodePoint(pendingLast) : String.fromCodePoint(pendingLast)));
  }
  return out;
}

/**
 * The index of the part whose final Soft or Open character is escaped: the last one, or the one before an empty query
 * that ends the URL. Detection leaves a final `?` out (Soft), and it cannot be escaped (`%3F` is no query), so the
 * link found is the URL without it (documented), and what comes before it must end the link well.
 */
function endingPart(parts: readonly (readonly [Part, readonly number[], ...unknown[]])[]): number {
  const n = parts.length;
  if (n >= 2 && parts[n - 1]![0] === Part.Query && parts[n - 1]![1].length === 0) return n - 2;
  return n - 1;
}

// ------------------------------------------------------------------------------------------- entry points

/** Array.prototype.every, holes included (every() skips the holes of a sparse array). */
function everyItem(list: readonly unknown[], test: (x: unknown) => boolean): boolean {
  for (let i = 0; i < list.length; i++) if (!test(list[i])) return false;
  return true;
}

// parts.path and parts.fragment: arrays of strings, or absent.
function checkPieces(name: 'path' | 'fragment', value: unknown): void {
  if (value !== undefined && !(Array.isArray(value) && everyItem(value, (p) => typeof p === 'string'))) {
    throw badArgument('formatUrlParts', `parts.${name}`, 'an array of strings, or undefined', value);
  }
}

/**
 * UTS #58 §4.1 minimal escaping of a URL from its logical parts (NOTES.md §5): the form used by the conformance
 * test, built from the structure comment of each LinkFormattingTest.txt case.
 */
export function formatUrlParts(parts: UrlParts): string {
  if (parts === null || typeof parts !== 'object') throw badArgument('formatUrlParts', 'parts', 'an object', parts);
  // A field it does not know would be left out of the URL without a word (`port: 8080`, `fragments`).
  for (const name of Object.keys(parts)) {
    if (!(URL_PARTS as readonly string[]).includes(name)) {
      const expected = `absent: the parts are ${URL_PARTS.join(', ')} (a port goes in host, "example.com:8080")`;
      throw badArgument('formatUrlParts', `parts.${name}`, expected, (parts as unknown as Record<string, unknown>)[name]);
    }
  }
  // RFC 3986 §3.1 and §3.2: what would move the boundaries of the parts (`host: 'a.com/evil?x'`) is refused, not written.
  if (typeof parts.scheme !== 'string' || !SCHEME.test(parts.scheme)) {
    throw badArgument('formatUrlParts', 'parts.scheme', 'a scheme name (RFC 3986: a letter, then letters, digits, "+", "-" or ".")', parts.scheme);
  }
  if (typeof parts.host !== 'string' || AUTHORITY_BREAK.test(parts.host)) {
    throw badArgument('formatUrlParts', 'parts.host', 'a string without "/", "?", "#", "\\", spaces or controls (the authority)', parts.host);
  }
  checkPieces('path', parts.path);
  checkPieces('fragment', parts.fragment);
  const query = parts.query as unknown;
  if (query !== undefined) {
    const pair = (q: unknown): boolean =>
      Array.isArray(q) && (q.length === 1 || q.length === 2) && typeof q[0] === 'string' && (q[1] === undefined || typeof q[1] === 'string');
    if (!Array.isArray(query) || !everyItem(query, pair)) {
      throw badArgument('formatUrlParts', 'parts.query', 'an array of [key, value?] pairs of strings, or undefined', query);
    }
  }
  const built: [Part, number[]][] = [];
  if (parts.path && parts.path.length > 0) {
    const tokens: number[] = [];
    parts.path.forEach((segment, i) => {
      if (i > 0) tokens.push(0x2f);
      tokenizePiece(segment, '/', tokens);
    });
    built.push([Part.Path, tokens]);
  }
  if (parts.query && parts.query.length > 0) {
    const tokens: number[] = [];
    parts.query.forEach(([key, value], i) => {
      if (i > 0) tokens.push(0x26);
      tokenizePiece(key, '&=', tokens);
      if (value !== undefined) {
        tokens.push(0x3d);
        tokenizePiece(value, '&=', tokens);
      }
    });
    built.push([Part.Query, tokens]);
  }
  if (parts.fragment && parts.fragment.length > 0) {
    const tokens: number[] = [];
    parts.fragment.forEach((piece, i) => {
      if (i > 0) pushAscii(tokens, ':~:');
      tokenizePiece(piece, '', tokens);
    });
    built.push([Part.Fragment, tokens]);
  }
  let out = `${parts.scheme}://${parts.host}`;
  const ending = endingPart(built);
  built.forEach(([part, tokens], i) => {
    out += (part === Part.Path ? '/' : part === Part.Query ? '?' : '#') + writePart(tokens, part, i === ending);
  });
  return out;
}

/**
 * UTS #58 §4.1 minimal escaping of a URL string (NOTES.md §5). Accepts a fully percent-encoded URI, a readable
 * IRI, or anything between, and returns the minimally escaped form: scheme and host unchanged; in the path, query
 * and fragment, escapes of valid UTF-8 are decoded unless the character would change the URL's structure (`%2F`
 * `%3F` `%23` `%5C` in a path, `%26` `%3D` `%23` `%2B` in a query, `%23` `%3A` in a fragment, `%25` anywhere),
 * and then only Hard characters, the part's terminators, unmatched closing brackets, a final Soft or Open character,
 * a `%` that would read as an escape and the characters irilink's detection ends a link at besides (writePart) are
 * percent-encoded. Idempotent: `formatUrl(formatUrl(x)) === formatUrl(x)`.
 */
export function formatUrl(url: string): string {
  if (typeof url !== 'string') throw badArgument('formatUrl', 'url', 'a string', url);
  const n = url.length;
  // RFC 3986 §3.1 scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ), then ":".
  let i = 0;
  let afterScheme = 0;
  if (i < n && isAlpha(url.charCodeAt(0))) {
    i = 1;
    while (i < n && isSchemeChar(url.charCodeAt(i))) i++;
    if (i < n && url.charCodeAt(i) === 0x3a) afterScheme = i + 1;
  }
  // RFC 3986 §3.2: "//" authority, up to the first "/", "?" or "#". Without a scheme (`example.com/a`), the text
  // up to there is the host.
  let pathStart: number;
  let rootless = false;
  if (url.startsWith('//', afterScheme) || afterScheme === 0) {
    pathStart = url.startsWith('//', afterScheme) ? afterScheme + 2 : 0;
    while (pathStart < n) {
      const c = url.charCodeAt(pathStart);
      if (c === 0x2f || c === 0x3f || c === 0x23) break;
      pathStart++;
    }
  } else {
    pathStart = afterScheme;
    rootless = true;
  }
  let queryStart = n; // index of "?" (or n)
  let fragmentStart = n; // index of "#" (or n)
  for (let k = pathStart; k < n; k++) {
    const c = url.charCodeAt(k);
    if (c === 0x23) {
      fragmentStart = k;
      break;
    }
    if (c === 0x3f && queryStart === n) queryStart = k;
  }
  if (queryStart > fragmentStart) queryStart = fragmentStart;

  let out = url.slice(0, pathStart);
  const parts: [Part, number[], string][] = [];
  const pathEnd = Math.min(queryStart, fragmentStart);
  if (pathEnd > pathStart) {
    const tokens: number[] = [];
    if (rootless) {
      tokenizeWritten(url, pathStart, pathEnd, Part.RootlessPath, tokens);
      parts.push([Part.RootlessPath, tokens, '']);
    } else {
      tokenizeWritten(url, pathStart + 1, pathEnd, Part.Path, tokens);
      // RFC 8089 Appendix E.2.2: a drive letter's `|` is the old form of `:`, which it is written as (detection's uri
      // writes it so; escaped, `%7C` would name a directory `c|`).
      // (Only with an empty authority, `file:///c|/`, as detection's uri: `file://server/c|/` keeps it.)
      if (afterScheme === 5 && pathStart === 7 && url.slice(0, 5).toLowerCase() === 'file:' && isAlpha(tokens[0] ?? -1) && url.charCodeAt(pathStart + 2) === 0x7c && tokens[2] === 0x2f) {
        tokens[1] = 0x3a;
      }
      parts.push([Part.Path, tokens, '/']);
    }
  }
  if (queryStart < n && queryStart < fragmentStart) {
    const tokens: number[] = [];
    tokenizeWritten(url, queryStart + 1, fragmentStart, Part.Query, tokens);
    parts.push([Part.Query, tokens, '?']);
  }
  if (fragmentStart < n) {
    const tokens: number[] = [];
    tokenizeWritten(url, fragmentStart + 1, n, Part.Fragment, tokens);
    parts.push([Part.Fragment, tokens, '#']);
  }
  const ending = endingPart(parts);
  const mailto = rootless && afterScheme === 7 && url.slice(0, 7).toLowerCase() === 'mailto:';
  parts.forEach(([part, tokens, initiator], k) => {
    if (mailto && part === Part.RootlessPath) {
      const { forced, endsInDomain } = mailtoEscapes(tokens);
      out += initiator + writePart(tokens, part, k === ending && !endsInDomain, forced);
    } else {
      out += initiator + writePart(tokens, part, k === ending);
    }
  });
  return out;
}

