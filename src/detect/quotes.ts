// P6 — quotes: a link that starts right after an opening quotation mark ends before the matching closing mark; and
// emphasis marks written around a link the same way.

import { codePointBefore, isLetterOrDigit, SOFT, termOf } from './chars.js';
import type { ScanState } from './state.js';

/**
 * P6: the quotation marks that, right before a link, make the matching closing mark end it. Three opening marks have
 * two closing marks, by language (closes): `„` `“` (German, Czech) or `„` `”` (Polish, Hungarian, Romanian, Dutch),
 * `‚` `‘` or `‚` `’`, `〝` `〟` or `〝` `〞`; the map gives the first.
 */
const QUOTE_PAIRS = new Map<number, number>([
  [0x22, 0x22], // " "
  [0x27, 0x27], // ' '
  [0x201c, 0x201d], // “ ”
  [0x2018, 0x2019], // ‘ ’
  [0x201e, 0x201c], // „ “ (or ”)
  [0x201a, 0x2018], // ‚ ‘ (or ’)
  [0x201d, 0x201d], // ” ” (Finnish, Swedish)
  [0x301d, 0x301f], // 〝 〟 (or 〞)
  [0x00ab, 0x00bb], // « »
  [0x00bb, 0x00ab], // » « (Danish, Swedish)
  [0x2039, 0x203a], // ‹ ›
  [0x300c, 0x300d], // 「 」
  [0x300e, 0x300f], // 『 』
  [0xff02, 0xff02], // ＂ ＂
  [0xff07, 0xff07], // ＇ ＇
  // Full-width angle brackets, which Japanese text writes around a URL as RFC 3986 Appendix C's `<…>` (Link_Term
  // Include, unlike `<` `>`: the link took `＞を参照`; found in review)
  [0xff1c, 0xff1e], // ＜ ＞
]);

/**
 * P6: does `cp` close the quotation that `closer` (closerBefore) stands for? The mark itself, or the other closing
 * mark of an opening mark that has two (QUOTE_PAIRS).
 */
export function closes(cp: number, closer: number): boolean {
  return cp === closer || (cp === 0x201d && closer === 0x201c) || (cp === 0x2019 && closer === 0x2018) || (cp === 0x301e && closer === 0x301f);
}

/**
 * P6: is the closing mark `cp`, between the code points `prev` and `next` (−1: none), an apostrophe inside a word
 * rather than the closing mark? `'`, `’` and `＇` with a letter, digit or `_` on both sides are:
 * `‘https://en.wikipedia.org/wiki/Ender’s_Game’`, `'…/wiki/Rock_'n'_roll'` (the link ended at `Ender`; found in review).
 */
export function isApostrophe(cp: number, prev: number, next: number): boolean {
  if (cp !== 0x27 && cp !== 0x2019 && cp !== 0xff07) return false;
  return (prev === 0x5f || (prev >= 0 && isLetterOrDigit(prev))) && (next === 0x5f || (next >= 0 && isLetterOrDigit(next)));
}

/** P6: the closing quotation mark for a link starting at `s`, or −1 (reads one character of left context). */
export function closerBefore(text: string, s: number): number {
  if (s === 0) return -1;
  const c = text.charCodeAt(s - 1);
  if (c < 128) return c === 0x22 || c === 0x27 ? c : -1; // the ASCII quotes close themselves (no map lookup)
  return QUOTE_PAIRS.get(c) ?? -1;
}

/**
 * Did the author delimit the link starting at `s`: a P6 quotation mark, `<` or `<URL:` (RFC 3986 Appendix C), or a
 * Markdown destination's `](` right before it (`href="tel:10086"`, `<tel:911>`, `[x](https://example.com/a，b)`)?
 * Such a link is the author's, as in Markdown mode: the rules that guess where a bare link ends in prose (a CJK
 * comma after ASCII, terminate.ts; a tel: number without RFC 3966 form, url.ts) do not apply. (A quotation mark
 * delimits the link only if its closing mark ends it: terminate() clears st.delimited otherwise.) Reads at most five
 * characters before `s`.
 */
export function delimitedBefore(text: string, s: number): boolean {
  if (s === 0) return false;
  if (angleBefore(text, s) || closerBefore(text, s) >= 0) return true; // <, <URL: or a quotation mark
  return text.charCodeAt(s - 1) === 0x28 && s >= 2 && text.charCodeAt(s - 2) === 0x5d; // ](
}

/**
 * Did the author delimit the link starting at `s` with `<` or `<URL:` (RFC 3986 Appendix C)? Inside such a link a
 * `<` is no URI character (terminate.ts leaves one without its `>` out, as in a bare link). Reads at most five
 * characters before `s`.
 */
export function angleBefore(text: string, s: number): boolean {
  if (s === 0) return false;
  const c = text.charCodeAt(s - 1);
  if (c === 0x3c) return true;
  return (
    c === 0x3a &&
    s >= 5 &&
    text.charCodeAt(s - 5) === 0x3c &&
    (text.charCodeAt(s - 4) | 0x20) === 0x75 &&
    (text.charCodeAt(s - 3) | 0x20) === 0x72 &&
    (text.charCodeAt(s - 2) | 0x20) === 0x6c
  );
}

const STAR = 0x2a;
const UNDERSCORE = 0x5f;
const TILDE = 0x7e;

/**
 * An emphasis mark: `*` or `_` (CommonMark §6.2), or `~`, GitHub Flavored Markdown's strikethrough (GFM §6.5: text
 * wrapped in one or two tildes; `~~https://example.com/old~~`). Nested emphasis uses another mark: `**_…_**`,
 * `~~**…**~~`.
 */
export function isEmphasisMark(c: number): boolean {
  return c === STAR || c === UNDERSCORE || c === TILDE;
}

/** The length of the run of `mark` that ends at `i` (text[floor, i), read back at most four units), or 0 past three. */
export function markRunBefore(text: string, i: number, mark: number, floor: number): number {
  let k = 0;
  while (k < 4 && i - k > floor && text.charCodeAt(i - k - 1) === mark) k++;
  return k < 4 ? k : 0;
}

/**
 * Do the emphasis marks text[open, open + m) close at `q`: the same marks in reverse order (`**` after `**`, `_*`
 * after `*_`, `*__` after `__*`)? The one check of a closing sequence for links (withoutEmphasis), addresses
 * (email.ts) and names after `_` (domains.ts), each with its own place for it: at the link's end, or after it.
 */
export function closesEmphasis(st: ScanState, open: number, m: number, q: number): boolean {
  const text = st.text;
  for (let j = 0; j < m; j++) if (st.outOfRoom(q + j) || text.charCodeAt(q + j) !== text.charCodeAt(open + m - 1 - j)) return false;
  return true;
}

/**
 * Deviation (UTS #58 §3.5.1, where `*`, `_` and `~` are Include): emphasis written around a link — a run of one to
 * three of an emphasis mark (isEmphasisMark) right before the link's start `s` (chat and Markdown-like text: `*bold*`,
 * `_italic_`, `**strong**`, `~~struck~~`; not a longer run, a rule line), and exactly the same run ending the link
 * text[s, e) — is markup, as a P6 quotation mark is: `*https://example.com/a*`,
 * `**https://example.com/getting-started**` and `_example.com/a_` link the URL without the marks. So is emphasis
 * nested in emphasis of another mark, a run of it right before and right after those (`**_https://example.com/a_**`,
 * `_*https://example.com/a*_`, `~~**https://example.com/a**~~`). What the closing marks alone kept in the link goes
 * with them: Soft characters right before them (UTS #58 §3.5.1: Soft followed by Include goes on, at the end it does
 * not), so `*https://example.com/a.*` and `_example.com/a?_` end as `https://example.com/a.` without the marks would.
 * Returns the link's end without the closing marks, or `e` (a run inside the link, as in `https://example.com/a*b*`,
 * or none before it, stays). Reads at most seven characters before `s`.
 */
export function withoutEmphasis(st: ScanState, s: number, e: number): number {
  const text = st.text;
  const c = s > 0 ? text.charCodeAt(s - 1) : -1;
  if (!isEmphasisMark(c)) return e;
  const inner = markRunBefore(text, s, c, 0);
  if (inner === 0) return e;
  const o = s - inner > 0 ? text.charCodeAt(s - inner - 1) : -1;
  const outer = o !== c && isEmphasisMark(o) ? markRunBefore(text, s - inner, o, 0) : 0;
  // The nested marks close at the link's end, or else the run right before it does.
  const m = outer > 0 && closesAtEnd(st, s, inner + outer, e) ? inner + outer : closesAtEnd(st, s, inner, e) ? inner : 0;
  if (m === 0) return e;
  let end = e - m;
  while (end > s) {
    const cp = codePointBefore(text, end);
    if (termOf(cp) !== SOFT) break;
    end -= cp > 0xffff ? 2 : 1;
  }
  return end;
}

/** Do the `m` marks right before `s` close exactly at the end of the link text[s, e), something left inside them? */
export function closesAtEnd(st: ScanState, s: number, m: number, e: number): boolean {
  // Not when nothing is left, or a longer run of the innermost mark ends the link.
  if (e - m <= s || st.text.charCodeAt(e - m - 1) === st.text.charCodeAt(s - 1)) return false;
  return closesEmphasis(st, s - m, m, e - m);
}

/**
 * Where a closing emphasis run may stand after a link that ends at `i`: after at most three ASCII Soft characters
 * (UTS #58 §3.5.1: sentence punctuation, `*a@example.com.*`, `_example.com!_`), or `i`.
 */
export function afterSentencePunctuation(st: ScanState, i: number): number {
  const text = st.text;
  let r = i;
  while (r < i + 3 && !st.outOfRoom(r) && text.charCodeAt(r) < 128 && termOf(text.charCodeAt(r)) === SOFT) r++;
  return r;
}
