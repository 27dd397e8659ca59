// P6 — quotes: a link that starts right after an opening quotation mark ends before the matching closing mark.

/** P6: the quotation marks that, right before a link, make the matching closing mark end it. */
const QUOTE_PAIRS = new Map<number, number>([
  [0x22, 0x22], // " "
  [0x27, 0x27], // ' '
  [0x201c, 0x201d], // “ ”
  [0x2018, 0x2019], // ‘ ’
  [0x201e, 0x201c], // „ “
  [0x00ab, 0x00bb], // « »
  [0x00bb, 0x00ab], // » « (Danish, Swedish)
  [0x2039, 0x203a], // ‹ ›
  [0x300c, 0x300d], // 「 」
  [0x300e, 0x300f], // 『 』
  [0xff02, 0xff02], // ＂ ＂
  [0xff07, 0xff07], // ＇ ＇
]);

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
 * comma after ASCII, terminate.ts; a tel: number without RFC 3966 form, url.ts) do not apply. Reads at most five
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
