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
