// Bare links in Markdown text that holds backslash escapes (CommonMark §2.4) or character references (§2.5), one
// rule for the Markdown mode (extract.ts), the markdown-it plugin and the remark plugin: a run of text is scanned as
// it is shown (each escape's backslash left out, each reference decoded), a link that would hold an escaped
// character is no link, and neither is one that would start or end inside the decoded text of a reference.
//
//   "see pam\_unix.so and https://a.example/b\_c and https://a.example/d"
//   shown: "see pam_unix.so and https://a.example/b_c and https://a.example/d"   (escaped `_` at 7 and 40)
//   links:                                                ⸠https://a.example/d⸡
//
//   "pay&#112;al.com/login and https://a.example/?a=1&amp;b=2"
//   shown: "paypal.com/login and https://a.example/?a=1&b=2"
//   links:  ⸠paypal.com/login⸡     ⸠https://a.example/?a=1&b=2⸡
//
// Scanning the text between escapes alone would link `unix.so` (no file name then) and `https://a.example/b`
// (another URL); the text as shown links neither, as plain mode would not. Scanning the text between references
// alone would link `al.com/login`, a host the reader does not see (the reader sees `paypal.com/login`), and cut the
// query after `a=1`. A reference is text once rendered, so the link goes through it; an escape is the author's way
// to keep a character from being read as markup, and GFM does not autolink through one (`http\://…`).
// https://spec.commonmark.org/0.31.2/#backslash-escapes
// https://spec.commonmark.org/0.31.2/#entity-and-numeric-character-references

import type { ScanResult, UnlinkedSpan } from '../detect/index.js';
import { unsafeCodes } from '../render/common.js';
import type { Link } from '../types.js';

/**
 * A scan of a run of text as shown, less the links that hold an escaped character or cut a reference's decoded
 * text. `escaped`: the offsets of the escaped characters, in the scan's coordinates, ascending. `references`: pairs
 * [from, to) of the decoded text of each character reference, in the scan's coordinates, ascending (empty: none).
 * Nothing the detector found inside such a link is a link either: an escape keeps what the author wrote from being
 * read as markup, and also from being linked (GFM does not autolink `http\://…` or `www\.example\.com`;
 * toMarkdownSource writes a link it refuses that way). One a renderer would refuse stays marked, as an unlinked span
 * with those reasons, so that toMarkdownSource still writes it inert (`https\://раураl\.com/x\.y`). The result's
 * spans keep the scan's coordinates, links and unlinked spans each in order.
 */
export function shownRunLinks(
  scanned: Pick<ScanResult, 'links' | 'unlinked'>,
  escaped: readonly number[],
  references: readonly number[] = NONE,
): { links: Link[]; unlinked: UnlinkedSpan[] } {
  if (escaped.length === 0 && references.length === 0) return scanned;
  const links: Link[] = [];
  const refused: UnlinkedSpan[] = [];
  let k = 0;
  let r = 0;
  for (const link of scanned.links) {
    while (k < escaped.length && escaped[k]! < link.start) k++;
    while (r < references.length && references[r + 1]! <= link.start) r += 2;
    if ((k === escaped.length || escaped[k]! >= link.end) && !cutsReference(references, r, link.start, link.end)) {
      links.push(link);
      continue;
    }
    const unsafe = unsafeCodes(link.diagnostics);
    if (unsafe.length > 0) refused.push({ start: link.start, end: link.end, diagnostics: [...unsafe] });
  }
  if (refused.length === 0) return { links, unlinked: scanned.unlinked };
  return { links, unlinked: [...scanned.unlinked, ...refused].sort((a, b) => a.start - b.start) };
}

const NONE: readonly number[] = [];

/** Whether [start, end) starts or ends strictly inside a reference's text, looking from pair `r` (the first ending after start). */
function cutsReference(references: readonly number[], r: number, start: number, end: number): boolean {
  for (; r < references.length && references[r]! < end; r += 2) {
    const from = references[r]!;
    const to = references[r + 1]!;
    if ((from < start && start < to) || (from < end && end < to)) return true;
  }
  return false;
}
