// Header fields of a message (RFC 5322 §2.2) quoted, forwarded or pasted as text: some hold, between `<` and `>`,
// an identifier written as an address or a name, which names a message or a mailing list, not a mailbox or a host
// (email.ts, domains.ts). This reads back from such a `<` to the name of its field.

import { equalsLowerCased } from './chars.js';
import { isAlnum, isAlpha, isDigit } from '../iri/chars.js';

/**
 * How far before the `<` fieldBefore reads. Over the mail corpus 13 of the 10,861 message identifiers in their fields
 * lie further from the field's name.
 */
export const FIELD_LOOK = 512;

/**
 * How far before an address's `@` its `<` is looked for (email.ts inMessageIdField): a local part is at most 64 units
 * (email.ts MAX_LOCAL_PART_LENGTH), and the back-scan may have stopped inside an identifier's left part
 * (`<CAHk-=wgf@mail.gmail.com>`, whose `=` a key rule reads).
 */
export const ID_LEFT_LOOK = 66;

/**
 * The left context these reads need before a scan's `from` (scanner.ts CONTEXT_LENGTH): an address may start at
 * `from`, its `<` up to ID_LEFT_LOOK before its `@`, and the field's name up to FIELD_LOOK before that; one unit more
 * keeps fieldBefore's limit off the start of a text the stream cut, so that it reads as the whole text does.
 */
export const FIELD_CONTEXT = FIELD_LOOK + ID_LEFT_LOOK + 2;

/** The most `<…>` items before this one that fieldBefore reads back over (in the mail corpus 28 lie further). */
const ITEMS_BEFORE = 16;

const SPACE = 0x20;
const TAB = 0x09;
const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const COMMA = 0x2c;
const COLON = 0x3a;
const LESS_THAN = 0x3c;
const GREATER_THAN = 0x3e;
const HYPHEN = 0x2d;
const SLASH = 0x2f;
const LEFT_PAREN = 0x28;
const AT = 0x40;
const QUOTATION_MARK = 0x22;

/**
 * Is the `<` at text[lt] in the body of a header field named one of `names` (lower-case ASCII, compared in any
 * case)? Read back from the `<`: whitespace (a line break only where the line after it is folded, starting with a
 * space or a tab), then, with `items`, other `<…@…>` items and commas (a References field's list), and, with
 * `phrase`, a display phrase (any text but `<`, `>` and a `:` not followed by `//`, and quoted strings: List-Id's
 * `Discussion list <…>`, `see http://x.org/ <…>`, `"Foo: bar" <…>`), up to the `:` after the field's name (letters,
 * digits and `-`; whitespace may come between). The name starts a line, after a quote's `>` marks and whitespace if
 * any (`> Message-ID:`), or, a name with a `-` (no word of prose), follows whitespace or `(` (`(Message-ID: <…>)` in
 * a changelog). A heading in prose is no field: `My references: <john@example.com>`. Not further back than
 * FIELD_LOOK units nor past ITEMS_BEFORE items.
 */
export function fieldBefore(text: string, lt: number, names: readonly string[], items: boolean, phrase: boolean): boolean {
  const limit = lt > FIELD_LOOK ? lt - FIELD_LOOK : 0;
  let j = lt; // at a `<`
  for (let seen = 0; ; ) {
    while (j > limit) {
      const c = text.charCodeAt(j - 1);
      if (c === LINE_FEED) {
        if (!(text.charCodeAt(j) === SPACE || text.charCodeAt(j) === TAB)) return false;
      } else if (c === COLON && phrase && text.charCodeAt(j) === SLASH && text.charCodeAt(j + 1) === SLASH) {
        // (a URL in the phrase, `List-Id: see http://sitescooper.org/ <…>`: its `:` is not the field's)
      } else if (c === QUOTATION_MARK && phrase) {
        // A quoted string of the phrase (RFC 5322 §3.2.4), whose `:` and `<` are its own: back to its opening mark.
        let k = j - 1;
        while (k > limit && text.charCodeAt(k - 1) !== QUOTATION_MARK) k--;
        if (k <= limit) return false;
        j = k;
      } else if (c === LESS_THAN || c === GREATER_THAN || c === COLON) {
        break;
      } else if (!(c === SPACE || c === TAB || c === CARRIAGE_RETURN || (items && c === COMMA) || phrase)) {
        return false;
      }
      j--;
    }
    if (j <= limit) return false;
    const c = text.charCodeAt(j - 1);
    if (c === GREATER_THAN) {
      // Another item: back to its `<` (no whitespace or angle bracket inside, an `@`: no HTML tag, `<b>References:</b>`).
      if (!items || ++seen > ITEMS_BEFORE) return false;
      let k = j - 1;
      let at = false;
      while (k > limit && !isItemEdge(text.charCodeAt(k - 1))) {
        if (text.charCodeAt(k - 1) === AT) at = true;
        k--;
      }
      if (k <= limit || text.charCodeAt(k - 1) !== LESS_THAN || !at) return false;
      j = k - 1;
      continue;
    }
    if (c !== COLON) return false;
    let e = j - 1;
    while (e > limit && (text.charCodeAt(e - 1) === SPACE || text.charCodeAt(e - 1) === TAB)) e--;
    let k = e;
    while (k > limit && isFieldNameChar(text.charCodeAt(k - 1))) k--;
    // (A name that runs on before the limit is not known.)
    if (k === e || (k === limit && k > 0) || !isOneOf(text, k, e, names)) return false;
    return startsLine(text, k, limit) || (hyphenIn(text, k, e) && isSpaceOrParen(text.charCodeAt(k - 1)));
  }
}

/**
 * Is text[k, e), letters, digits and `-` (isFieldNameChar), one of `names` (lower-case) in any case? No string is
 * built (performance: this runs for every address between `<` and `>` after a colon, `To: <a@example.com>`).
 */
function isOneOf(text: string, k: number, e: number, names: readonly string[]): boolean {
  for (const name of names) {
    if (name.length !== e - k) continue;
    let i = 0;
    while (i < name.length && (text.charCodeAt(k + i) | 0x20) === name.charCodeAt(i)) i++;
    if (i === name.length) return true;
  }
  return false;
}

/** Does text[k, e) hold a `-`? */
function hyphenIn(text: string, k: number, e: number): boolean {
  for (let i = k; i < e; i++) if (text.charCodeAt(i) === HYPHEN) return true;
  return false;
}

/** Whitespace or `(`, before which a field's name with a `-` may stand in prose (fieldBefore). */
function isSpaceOrParen(c: number): boolean {
  return c === SPACE || c === TAB || c === LINE_FEED || c === CARRIAGE_RETURN || c === LEFT_PAREN;
}

/** Does a line start at `k`, but for a quote's `>` marks and whitespace before it (read back no further than `limit`)? */
function startsLine(text: string, k: number, limit: number): boolean {
  while (k > limit) {
    const c = text.charCodeAt(k - 1);
    if (c === LINE_FEED || c === CARRIAGE_RETURN) return true;
    if (c !== SPACE && c !== TAB && c !== GREATER_THAN) return false;
    k--;
  }
  return k === 0;
}

/** Whitespace or an angle bracket: no item (an identifier) holds one (email.ts looks for an identifier's `<` so). */
export function isItemEdge(c: number): boolean {
  return c === SPACE || c === TAB || c === LINE_FEED || c === CARRIAGE_RETURN || c === LESS_THAN || c === GREATER_THAN;
}

/** A letter, digit or `-`: the characters of the field names looked for. */
function isFieldNameChar(c: number): boolean {
  return isAlnum(c) || c === HYPHEN;
}

/**
 * Does the `<` at text[lt] follow a quoted date, whitespace between (a fold too): a quoted string of at most 64 units
 * holding a time (`18:42`)? An old In-Reply-To field writes its identifier so, after the date of the message it
 * answers (RFC 5322 §4.5.4, `*(phrase / msg-id)`): `Your message of "Thu, 22 Aug 2002 18:42:33 BST."
 * <Pine.LNX.4.44.0208221841070@dunlop.example.ie>`. A quoted display name is no date: `"James Tauber" <…>` is a
 * mailbox (found when the rule first took any quoted string).
 */
export function afterQuotedDate(text: string, lt: number): boolean {
  const e = blankBefore(text, lt, lt > 8 ? lt - 8 : 0);
  if (e <= 0 || text.charCodeAt(e - 1) !== QUOTATION_MARK) return false;
  let time = false;
  for (let k = e - 2; k >= 0 && e - k <= 64; k--) {
    const c = text.charCodeAt(k);
    if (c === QUOTATION_MARK) return time;
    if (c === COLON && isDigit(text.charCodeAt(k - 1)) && isDigit(text.charCodeAt(k + 1))) time = true;
  }
  return false;
}


/**
 * Is the `<` at text[lt] announced as a message identifier's by the word before it: `id` (RFC 5321 §4.4, a Received
 * field's `with ESMTP id <…>`), or `In message` or `In article` (a reply's attribution line, `In message <…>, Ann
 * writes:`)? Whitespace may come between, a fold too (as fieldBefore reads it); the word starts a line or follows
 * whitespace or `(`.
 */
export function identifierWordBefore(text: string, lt: number): boolean {
  const limit = lt > 32 ? lt - 32 : 0;
  const e = blankBefore(text, lt, limit);
  const k = wordStart(text, e, limit);
  if (k < 0) return false;
  if (equalsLowerCased(text, k, e, 'id')) return true;
  if (!equalsLowerCased(text, k, e, 'message') && !equalsLowerCased(text, k, e, 'article')) return false;
  const e2 = blankBefore(text, k, limit);
  const k2 = wordStart(text, e2, limit);
  return k2 >= 0 && equalsLowerCased(text, k2, e2, 'in');
}

/** Where the whitespace (a fold included) that ends at `j` starts; −1 when none ends there or a line break is no fold. */
function blankBefore(text: string, j: number, limit: number): number {
  const end = j;
  while (j > limit) {
    const c = text.charCodeAt(j - 1);
    if (c === LINE_FEED && !(text.charCodeAt(j) === SPACE || text.charCodeAt(j) === TAB)) return -1;
    if (c !== SPACE && c !== TAB && c !== LINE_FEED && c !== CARRIAGE_RETURN) break;
    j--;
  }
  return j < end ? j : -1;
}

/**
 * The start of the word of ASCII letters that ends at `e`, when it starts a line or follows whitespace or `(`; −1
 * otherwise (or when `e` is −1). No string is built: this runs for every address between `<` and `>` (performance).
 */
function wordStart(text: string, e: number, limit: number): number {
  if (e < 0) return -1;
  let k = e;
  while (k > limit && isAlpha(text.charCodeAt(k - 1))) k--;
  if (k === e || (k === limit && k > 0)) return -1;
  const c = k > 0 ? text.charCodeAt(k - 1) : LINE_FEED;
  return c === SPACE || c === TAB || c === LINE_FEED || c === CARRIAGE_RETURN || c === LEFT_PAREN ? k : -1;
}
