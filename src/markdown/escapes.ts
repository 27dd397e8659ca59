// Bare links in Markdown text that holds backslash escapes (CommonMark §2.4), one rule for the Markdown mode
// (extract.ts), the markdown-it plugin and the remark plugin: a run of text is scanned as it is shown (each escape's
// backslash left out), and a link that would hold an escaped character is no link.
//
//   "see pam\_unix.so and https://a.example/b\_c and https://a.example/d"
//   shown: "see pam_unix.so and https://a.example/b_c and https://a.example/d"   (escaped `_` at 7 and 40)
//   links:                                                ⸠https://a.example/d⸡
//
// Scanning the text between escapes alone would link `unix.so` (no file name then) and `https://a.example/b`
// (another URL); the text as shown links neither, as plain mode would not.
// https://spec.commonmark.org/0.31.2/#backslash-escapes

import type { ScanResult, UnlinkedSpan } from '../detect/index.js';
import { unsafeCodes } from '../render/common.js';
import type { Link } from '../types.js';

/**
 * A scan of a run of text as shown, less the links that hold an escaped character. `escaped`: the offsets of the
 * escaped characters, in the scan's coordinates, ascending. Nothing the detector found inside such a link is a
 * link either: an escape keeps what the author wrote from being read as markup, and also from being linked (GFM
 * does not autolink `http\://…` or `www\.example\.com`; toMarkdownSource writes a link it refuses that way). One a
 * renderer would refuse stays marked, as an unlinked span with those reasons, so that toMarkdownSource still writes
 * it inert (`https\://раураl\.com/x\.y`). The result's spans keep the scan's coordinates, links and unlinked spans
 * each in order.
 */
export function withoutEscapedLinks(scanned: Pick<ScanResult, 'links' | 'unlinked'>, escaped: readonly number[]): { links: Link[]; unlinked: UnlinkedSpan[] } {
  if (escaped.length === 0) return scanned;
  const links: Link[] = [];
  const refused: UnlinkedSpan[] = [];
  let k = 0;
  for (const link of scanned.links) {
    while (k < escaped.length && escaped[k]! < link.start) k++;
    if (k === escaped.length || escaped[k]! >= link.end) {
      links.push(link);
      continue;
    }
    const unsafe = unsafeCodes(link.diagnostics);
    if (unsafe.length > 0) refused.push({ start: link.start, end: link.end, diagnostics: [...unsafe] });
  }
  if (refused.length === 0) return { links, unlinked: scanned.unlinked };
  return { links, unlinked: [...scanned.unlinked, ...refused].sort((a, b) => a.start - b.start) };
}
