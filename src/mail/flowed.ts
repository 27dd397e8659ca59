// Text of a mail part as a reader sees it: RFC 3676 format=flowed decoding, and the quote prefixes that the
// detector must look through.

import { badArgument } from '../errors.js';

const GT = 0x3e;
const SPACE = 0x20;
const TAB = 0x09;
const LF = 0x0a;

/**
 * RFC 3676 §4 "Interpreting Format=Flowed": joins each flowed line (one that ends in a space, §4.2) with the
 * next line of the same quote depth (§4.5), removes space-stuffing (§4.4) and, with DelSp=yes, the space before
 * each soft break (§4.2). The signature separator `-- ` is never flowed (§4.3). Quoted lines come out as
 * `>`×depth followed by one space. Takes and returns LF line ends.
 *
 *     https://例え.jp/very/long/pa␠⏎      (delsp=yes)       https://例え.jp/very/long/path⏎
 *     th⏎                              ─────────────▶
 *
 * A flowed line followed by a line of another depth is "improperly flowed" (§4.5): it ends its paragraph.
 */
export function decodeFlowed(text: string, delSp = false): string {
  if (typeof text !== 'string') throw badArgument('decodeFlowed', 'text', 'a string', text);
  if (typeof delSp !== 'boolean') throw badArgument('decodeFlowed', 'delSp', 'a boolean (true: the DelSp parameter is yes) or undefined', delSp);
  return unflow(text, delSp, null);
}

/**
 * decodeFlowed, also moving `marks` (offsets into `text`, in increasing order, of characters that are neither `>`,
 * a space nor a line break: the U+FFFD that replaced invalid bytes) to the offsets of the same characters in the
 * result, in place. Such a character is always inside a line's content, which is copied as it is.
 */
export function unflow(text: string, delSp: boolean, marks: number[] | Uint32Array | null): string {
  const out: string[] = [];
  let paragraph: string | null = null;
  let paragraphDepth = 0;
  let outLength = 0; // length of the lines emitted so far, with the LF after each
  let m = 0; // the next mark to move
  const emit = (content: string, depth: number): void => {
    const line = depth > 0 ? '>'.repeat(depth) + ' ' + content : content;
    out.push(line);
    outLength += line.length + 1;
  };
  const n = text.length;
  const endsWithLf = n > 0 && text.charCodeAt(n - 1) === LF;
  const limit = endsWithLf ? n - 1 : n;
  let lineStart = 0;
  while (lineStart <= limit) {
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd < 0 || lineEnd > limit) lineEnd = limit;
    // §4.5: the quote depth is the number of leading `>`.
    let i = lineStart;
    while (i < lineEnd && text.charCodeAt(i) === GT) i++;
    const depth = i - lineStart;
    // §4.4: one leading space is stuffing (after the quote marks, when there are some).
    if (i < lineEnd && text.charCodeAt(i) === SPACE) i++;
    let content = text.slice(i, lineEnd);
    // §4.3: `-- ` is the signature separator, a fixed line.
    const flowed = content !== '-- ' && content.length > 0 && content.charCodeAt(content.length - 1) === SPACE;
    // §4.2: with DelSp=yes the space before a soft break was added by the sender and goes.
    if (flowed && delSp) content = content.slice(0, -1);
    if (paragraph !== null && depth !== paragraphDepth) {
      emit(paragraph, paragraphDepth); // improperly flowed (§4.5)
      paragraph = null;
    }
    if (marks !== null) {
      // The content starts at `i` in `text`; in the result, after the emitted lines, the quote prefix and the
      // paragraph so far.
      const at = outLength + (depth > 0 ? depth + 1 : 0) + (paragraph === null ? 0 : paragraph.length);
      for (; m < marks.length && marks[m]! < i + content.length; m++) marks[m] = at + (marks[m]! - i);
    }
    paragraph = paragraph === null ? content : paragraph + content;
    paragraphDepth = depth;
    if (!flowed) {
      emit(paragraph, depth);
      paragraph = null;
    }
    lineStart = lineEnd + 1;
  }
  if (paragraph !== null) emit(paragraph, paragraphDepth);
  return out.join('\n') + (endsWithLf ? '\n' : '');
}

/**
 * The text the detector reads for a part with quoted lines: every `>` of a line's leading run of `>`, spaces
 * and tabs becomes a space. Same length, so offsets found in it are offsets into `text`.
 *
 * Why (RFC 3986 Appendix C, DESIGN.md P3): a `<…>`-delimited link wrapped across quoted lines,
 *
 *     > see <https://example.com/a/very/long
 *     > /path>
 *
 * continues across whitespace only; the `>` that starts the second line would otherwise be taken for the
 * closing `>`. Masked, the continuation is whitespace and the link is one, `…/long/path`.
 */
export function maskQuotePrefixes(text: string): string {
  // Fast path: no `>` at all.
  if (text.indexOf('>') < 0) return text;
  let out = '';
  let last = 0;
  const n = text.length;
  let lineStart = 0;
  while (lineStart < n) {
    let i = lineStart;
    let quoted = false;
    for (; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c === GT) quoted = true;
      else if (c !== SPACE && c !== TAB) break;
    }
    if (quoted) {
      for (let j = lineStart; j < i; j++) {
        if (text.charCodeAt(j) === GT) {
          out += text.slice(last, j) + ' ';
          last = j + 1;
        }
      }
    }
    const nl = text.indexOf('\n', i);
    if (nl < 0) break;
    lineStart = nl + 1;
  }
  return last === 0 ? text : out + text.slice(last);
}
