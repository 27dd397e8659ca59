// UTS #58 §3.5.1: where a link ends — the Path, Query and Fragment after the host, walked with Link_Term and one
// bracket stack per part (NOTES §3, the reference's parsePathQueryFragment), plus P1, P6 and P8.

import { linkBracketOpener } from '../unicode/index.js';
import {
  A_ALPHA,
  A_DIGIT,
  A_SCHEME,
  ASCII_FLAGS,
  ASCII_TERM,
  CLOSE,
  codePointBefore,
  equalsLowerCased,
  HARD,
  hexValue,
  INCLUDE,
  isBarrier,
  isBidiControl,
  isEscapeLetterAt,
  isNoSpaceScriptLetter,
  isRoffEscapeAt,
  OPEN,
  SOFT,
  termOf,
  URI_SIMPLE,
} from './chars.js';
import { angleBefore, closes, isApostrophe } from './quotes.js';
import { afterFileExtension, isGluedParticle, isHangulSyllable, MAX_PARTICLE } from './glued.js';
import { INCOMPLETE, type ScanState } from './state.js';
import { isAlnum } from '../iri/chars.js';

// Parts (NOTES §3.1).
const NONE = 0;
export const PATH = 1;
const QUERY = 2;
const FRAGMENT = 3;

const SLASH = 0x2f;
const QUESTION = 0x3f;
const HASH = 0x23;
const EQUALS = 0x3d;
const AMP = 0x26;
const COLON = 0x3a;
const TILDE = 0x7e;
const LESS = 0x3c;
const QUOTE = 0x22;
const COMMA = 0x2c;
const VERTICAL_LINE = 0x7c;
const BACKSLASH = 0x5c;
const LEFT_BRACKET = 0x5b;

/**
 * 1 for the ASCII characters the loop of terminate() only walks over: Link_Term Include and none of the part
 * initiators and separators (`/ ? # = & :`). (The P6 closer is checked apart.)
 */
const PLAIN = new Uint8Array(128);

/**
 * How far past a held bracket (the deviations at Open in terminate) the link is read for its Close, in code units:
 * a `<placeholder>`, a CJK aside or a `[…]` pair the link keeps is short; past this the bracket is left out. The bound keeps the
 * scan linear on text such as `x.co?a<x.co?a<…`, where every link holds a bracket whose Close never comes: each
 * link reads at most this far past its own bracket, so a character is read by a bounded number of links.
 */
export const HELD_LOOKAHEAD = 64;
/** How many Soft code units after the segment's cut endsAtCut reads for the character that would end the link. */
const SOFT_AFTER_CUT = 16;
for (let c = 0; c < 128; c++) PLAIN[c] = ASCII_TERM[c] === INCLUDE && '/?#=&:\\|'.indexOf(String.fromCharCode(c)) < 0 ? 1 : 0;

/**
 * At the cut `i`: the link would end there anyway and is exactly maxLinkLength long, not longer. So it is when the
 * text ends there, or when after Soft characters (none or a few: `…/page.` at the end of a sentence) comes a Hard
 * character (not a P1 bidi control, which the walk reports), the P6 closer, a Close that does not match the Open on
 * top of the stack (`depth` deep: `(see …/page.)`) or the end of the text: terminate would drop those Soft
 * characters. So it is too where terminate's deviations end the link (`part` and `initialPart` as terminate has them,
 * `start` its start): at a Soft character softCutsLink takes in that part (`…/東京。次`, `…/Python，入门`, `?q=a，入门`)
 * and at a character after a file name's extension in a path (glued.ts), and where P8 does (Soft characters right
 * before the cut or after it, then `scheme://`; `queryAt`: the `?` that started the query, no punctuation). A longer
 * run of Soft characters, or anything else, would be read on: the cut shortened the link. Notes st.quoteEnded when the
 * P6 closer ends it. Throws INCOMPLETE at the end of a non-final chunk.
 */
function endsAtCut(st: ScanState, i: number, depth: number, part: number, initialPart: number, start: number, queryAt: number): boolean {
  const text = st.text;
  const deviations = !st.delimited && part !== NONE;
  // Whether Soft characters come right before j (P8; not the `?` that started the query, at `queryAt`, which is no
  // punctuation).
  let soft = i > start && i - 1 !== queryAt && termOf(codePointBefore(text, i)) === SOFT;
  for (let j = i; ; ) {
    if (j >= st.n) {
      if (st.final) return true;
      throw INCOMPLETE;
    }
    const cp = st.cpAt(j);
    if (closes(cp, st.closer) && !isApostrophe(cp, codePointBefore(text, j), nextPastCut(st, j + (cp > 0xffff ? 2 : 1))) && !escapedQuoteAt(text, j, start)) {
      st.quoteEnded = true; // (the quotation mark delimits the link: found in review)
      return true;
    }
    // P8, as terminate reads it: Soft characters, then `scheme://`, or text written without spaces and then one.
    if (soft && cp < 128 && (ASCII_FLAGS[cp]! & A_ALPHA) !== 0 && schemeSlashSlashPastCut(st, j)) return true;
    if (soft && cp >= 128 && isNoSpaceScriptLetter(cp) && noSpaceTextThenSchemePastCut(st, j, j)) return true;
    if (isBarrier(cp)) return !isBidiControl(cp);
    const lt = termOf(cp);
    if (lt === CLOSE) return depth === 0 || linkBracketOpener(cp) !== st.stack[depth - 1];
    const len = cp > 0xffff ? 2 : 1;
    if (deviations && cp >= 128 && text.charCodeAt(j - 1) < 128 && lt === INCLUDE) {
      return part === PATH && initialPart !== PATH && afterFileExtension(text, j, start);
    }
    if (lt !== SOFT || j - i >= SOFT_AFTER_CUT) return false;
    soft = true;
    // (A `?` in a path starts the query, as in terminate: the deviations after it are the query's; found in review.)
    if (cp === QUESTION && part === PATH) {
      part = QUERY;
      soft = false;
    } else if (deviations && cp >= 128) {
      if (j + len >= st.n && !st.final) throw INCOMPLETE;
      const next = j + len < st.n ? st.cpAt(j + len) : -1;
      const plainFragment = part === FRAGMENT && !holdsDirective(text, start, j);
      if (softCutsLink(cp, next, text.charCodeAt(j - 1) < 128, part === PATH, part === PATH && initialPart !== PATH, plainFragment)) return true;
    }
    j += len;
  }
}

/** The code point at `j` past the segment's cut (endsAtCut), or −1 at the end of the text; INCOMPLETE at a chunk's end. */
function nextPastCut(st: ScanState, j: number): number {
  if (j < st.n) return st.cpAt(j);
  if (st.final) return -1;
  throw INCOMPLETE;
}

/**
 * schemeSlashSlashAt past the segment's cut (endsAtCut): does `scheme://` start at `i`? Reads up to the end of the
 * text; throws INCOMPLETE at the end of a non-final chunk.
 */
function schemeSlashSlashPastCut(st: ScanState, i: number): boolean {
  const text = st.text;
  const at = (j: number): number => {
    if (j < st.n) return text.charCodeAt(j);
    if (st.final) return -1;
    throw INCOMPLETE;
  };
  let j = i;
  for (let c = at(j); c >= 0 && c < 128 && (ASCII_FLAGS[c]! & A_SCHEME) !== 0; c = at(j)) {
    if (j - i >= 32) return false;
    j++;
  }
  return at(j) === COLON && at(j + 1) === SLASH && at(j + 2) === SLASH;
}

/**
 * The end of the link whose Path/Query/Fragment would start at `start`.
 *
 *     example.com/α(β)γ?δ=(ε)#ζ!  on
 *                ^start         ^ returned: the Soft `!` is dropped, the Hard space ends it
 *
 * `initialPart` NONE: the link has a Path, Query or Fragment only if `start` holds `/`, `?` or `#` (otherwise it
 * ends at `start`). PATH: the text after an opaque `scheme:` (`tel:+1-201-555-0123`) is read as a path.
 * Sets st.bidiStop when a P1 bidi control ended it and st.tooLong when it ran into the segment's cut, and
 * st.pathStart and st.pathNotSimple (what it walked, for the conversion).
 */
export function terminate(st: ScanState, start: number, initialPart: number): number {
  const e = walkDelimited(st, start, initialPart);
  // (Not after an opaque `scheme:`, whose path is all `:`-separated: `urn:isbn:0451450523`.)
  return initialPart === PATH ? e : withoutShortcode(st, start, e);
}

/**
 * Deviation (UTS #58 §3.5.1): a chat's emoji shortcode glued to the link's end, `:name:`, is the message's
 * (`https://example.com/image.png:smile:`, `…/pull/1:white_check_mark:`, Slack, Discord, GitHub; found in review: the
 * link took `:smile`). The link ends before it when its last `:` is the Soft character UTS #58 left out, followed by
 * the end, a space or punctuation, and the name (1–32 of `a-z 0-9 _ + -`) comes after a `:` of the path, query or
 * fragment. Reads two units past the end.
 */
function withoutShortcode(st: ScanState, start: number, e: number): number {
  const text = st.text;
  if (st.tooLong || e <= start || st.outOfRoom(e) || text.charCodeAt(e) !== COLON) return e;
  // (Not in a mailto:'s hfields, which are text: `?subject=hi:there:`.)
  if ((text.charCodeAt(st.start) | 0x20) === 0x6d && equalsLowerCased(text, st.start, st.start + 7, 'mailto:')) return e;
  if (!st.outOfRoom(e + 1)) {
    const after = text.charCodeAt(e + 1);
    if (after < 128 && (ASCII_FLAGS[after]! & (A_ALPHA | A_DIGIT)) !== 0) return e;
  }
  let k = e;
  while (k > start && e - k <= 32) {
    const c = text.charCodeAt(k - 1);
    if (!((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x5f || c === 0x2b || c === 0x2d)) break;
    k--;
  }
  return k < e && e - k <= 32 && k - 1 > start && text.charCodeAt(k - 1) === COLON ? k - 1 : e;
}

/** terminate()'s walk, and P6's second walk as bare when the closing mark did not end the first. */
function walkDelimited(st: ScanState, start: number, initialPart: number): number {
  if (st.closer < 0 || !st.delimited) return walk(st, start, initialPart);
  // P6: a quotation mark delimits the link only if its closing mark ends it. Without one there (`"https://a.example/
  // x.htmlを参照`, the quotation never closed or closes after more of the sentence), the link is a bare one, and
  // the rules that guess where a bare link ends in prose apply: walked again, as bare.
  const { tooLong, bidiStop } = st;
  st.quoteEnded = false;
  const e = walk(st, start, initialPart);
  if (st.quoteEnded) return e;
  st.delimited = false;
  st.tooLong = tooLong;
  st.bidiStop = bidiStop;
  return walk(st, start, initialPart);
}

/** Does text[a, b) hold a letter or digit (ASCII, or any character that is not ASCII)? */
function holdsWord(text: string, a: number, b: number): boolean {
  for (let i = a; i < b; i++) {
    const c = text.charCodeAt(i);
    if (c >= 128 || (ASCII_FLAGS[c]! & (A_ALPHA | A_DIGIT)) !== 0) return true;
  }
  return false;
}

/** terminate()'s walk, with st.delimited as it stands; notes st.quoteEnded when the P6 closer ends the link. */
function walk(st: ScanState, start: number, initialPart: number): number {
  const text = st.text;
  const stack = st.stack;
  const closer = st.closer;
  let depth = 0;
  let part = initialPart;
  let lastSafe = start;
  let i = start;
  // Where the `?` that started the query is (−1: none yet).
  let queryAt = -1;
  const end = st.end;
  // P8: noSpaceTextBeforeScheme found no scheme from a Soft character up to here; a later Soft character before
  // this point would read the same run again to the same answer (so each letter is read at most once per link).
  let noSchemeBefore = -1;
  // A held bracket (the deviations at Open, below: a `<`, or a CJK bracket opening an aside), which stays in the link
  // only with its Close: where the link ends without it (−1: none held), the stack depth just above it (0 once a
  // separator cleared the stack: its Close can no longer match), and whether ASCII must follow its Close (an aside).
  let heldSafe = -1;
  let heldDepth = -1;
  let heldLimit = 0;
  // Where the held `<` is (a placeholder holds a word: `<org>`, not `<->`).
  let heldAt = -1;
  let aside = false;
  // The held aside is a CJK one, after whose Close text that is not ASCII is the sentence's (not an AsciiDoc `[`).
  let heldIsCjk = false;
  // The last aside whose Close came: where the link ends without it (and without the asides glued before it), where
  // its Close ends, and whether it is a CJK one. The pair is the link's only if the link ends past that Close.
  let asideSafe = -1;
  let asideEnd = -1;
  let asideIsCjk = false;
  // The link went on past a `[…]` pair: it writes placeholders (`…/[prefix]/[your_path]`), and a later pair is one too
  // (not one glued to the pair's `]`: `…/a[b][c]` is two labels).
  let bracketsKept = false;
  // A P1 bidi control ended the walk (st.bidiStop, set at the end unless the link ends before a held bracket).
  let bidi = false;
  // Where the `"` is that the next one closes (a quoted value, below; −1: none open).
  let quoteAt = -1;
  // A text directive's `:~:` came in the fragment (its text may hold a CJK full stop: softCutsLink).
  let directive = false;
  st.pairSafe = -1;
  st.pathStart = start;
  st.pathNotSimple = -1;
  st.pathGlued = false;
  for (;;) {
    if (part !== NONE) {
      // The common run: ASCII Include characters that no rule below looks at (performance; the same steps).
      const from = i;
      const runEnd = heldSafe >= 0 && heldLimit < end ? heldLimit : end;
      let simple = 1;
      while (i < runEnd) {
        const c = text.charCodeAt(i);
        if (c >= 128 || PLAIN[c] === 0 || c === closer) break;
        simple &= URI_SIMPLE[c]!;
        i++;
      }
      if (i > from) lastSafe = i;
      if (simple === 0) notSimpleAt(st, from); // the run's start: at or before the character
    }
    // A held bracket whose Close did not come within HELD_LOOKAHEAD is left out (so is one cut off by the segment's
    // cut: the link ends before it, short of maxLinkLength, and is not too long).
    if (heldSafe >= 0 && i >= heldLimit) break;
    if (i >= end && st.outOfRoom(i)) {
      // A held bracket, or an aside the link has not gone past yet, is left out rather than cut (found in review).
      if (heldSafe >= 0 || (asideEnd >= 0 && lastSafe <= asideEnd)) break;
      if (i >= st.cut && !endsAtCut(st, i, depth, part, initialPart, start, queryAt)) {
        // Cut: the link is as long as a link may be; it keeps what it has (a particle glued at the cut too, which its
        // iri then encodes: glued.ts).
        st.tooLong = true;
        if (isHangulSyllable(text.charCodeAt(i - 1))) st.pathGlued = true;
        return i;
      }
      if (part === NONE) return i;
      break; // the end of the text acts like a Hard character
    }
    const c0 = text.charCodeAt(i);
    const cp = c0 >= 0xd800 && c0 <= 0xdbff ? st.cpAt(i) : c0;
    const len = cp > 0xffff ? 2 : 1;
    if (part === NONE) {
      // §3.2 step 1: no Path, Query or Fragment.
      if (cp !== SLASH && cp !== QUESTION && cp !== HASH) {
        // A URL in a JSON string that escapes `/` (st.jsonEscaped): `\/` starts the path.
        if (cp === BACKSLASH && st.jsonEscaped && !st.outOfRoom(i + 1) && text.charCodeAt(i + 1) === SLASH) {
          part = PATH;
          i += 2;
          lastSafe = i;
          continue;
        }
        if (isBidiControl(cp)) st.bidiStop = true;
        if (closes(cp, closer)) st.quoteEnded = true;
        return i;
      }
      part = cp === SLASH ? PATH : cp === QUESTION ? QUERY : FRAGMENT;
      if (cp === QUESTION) queryAt = i;
      if (cp === HASH) notSimpleAt(st, i);
      // Deviation (UTS #58 §3.5.1): the reference counts a part initiator as safe, so `example.com?` at the end
      // of a question keeps its `?`; we let `?` keep its Soft value (a trailing `?` is dropped). `/` and `#` are
      // Include anyway.
      if (cp !== QUESTION) lastSafe = i + 1;
      i++;
      continue;
    }
    // P6: the closing quotation mark that matches the one before the link ends it (an apostrophe in a word does not).
    // (The character after it is read past the segment's cut, as endsAtCut reads it: found in review.)
    // Deviation (UTS #58 §3.5.1): nor does one a string literal escapes, `'…/wiki/Ender\'s_Game'`,
    // `"…?query=workflow%3A\"test\""` (found in review: the link ended at `Ender`): it is the string's, and the link's
    // (convert.ts drops the `\`: st.quoteEscaped).
    if (closes(cp, closer) && !isApostrophe(cp, codePointBefore(text, i), nextPastCut(st, i + len))) {
      if (!escapedQuoteAt(text, i, start)) {
        st.quoteEnded = true;
        break;
      }
      st.quoteEscaped = true;
    }
    // Right after an aside's Close, text that is not ASCII (`（最后头没有斜线）的说明`) is the sentence's: the aside is left
    // out (the end returns to asideSafe), unless another aside is glued to it (`（b）（c）d`, the Open below).
    if (i === asideEnd && asideIsCjk && cp >= 128 && !(cp >= 0x3000 && isCjkOpenBracket(cp) && termOf(cp) === OPEN)) break;
    // Part terminators start the next part (the stack is not cleared, as in the reference).
    if (cp === QUESTION && part === PATH) {
      part = QUERY;
      queryAt = i;
      i++;
      continue; // Deviation (UTS #58 §3.5.1): as above, `?` stays Soft.
    }
    if (cp === HASH && part !== FRAGMENT) {
      notSimpleAt(st, i);
      part = FRAGMENT;
      lastSafe = i + 1;
      i++;
      continue;
    }
    // A URL in a JSON string that escapes `/` (st.jsonEscaped, url.ts atColon) holds JSON's escapes (RFC 8259 §7):
    // `\/` is a `/` (in a path a separator, as below), `\\` a backslash and `\uXXXX` a character, which the conversion
    // decodes. Any other escape ends the link, as what it stands for would (`\n`, `\"`), and so does a `\uXXXX` of a
    // character that is not Include (a space, a bracket, punctuation).
    if (cp === BACKSLASH && st.jsonEscaped) {
      const n = jsonEscapeLength(st, i);
      if (n === 0) break;
      if (part === PATH && text.charCodeAt(i + 1) === SLASH) {
        if (heldSafe >= 0) break;
        depth = 0;
      }
      i += n;
      lastSafe = i;
      continue;
    }
    // Separators inside a part clear the bracket stack. A held bracket can then no longer be closed: the link ends
    // before it, decided here (no need to read on).
    if (part === PATH) {
      if (cp === SLASH) {
        if (heldSafe >= 0) break;
        depth = 0;
      }
    } else if (part === QUERY) {
      if (cp === EQUALS || cp === AMP) {
        if (heldSafe >= 0) break;
        depth = 0;
      }
    } else if (
      cp === COLON &&
      !st.outOfRoom(i + 1) &&
      text.charCodeAt(i + 1) === TILDE &&
      !st.outOfRoom(i + 2) &&
      text.charCodeAt(i + 2) === COLON
    ) {
      if (heldSafe >= 0) break;
      depth = 0; // the text-fragment directive `:~:`
      directive = true;
    }
    // Deviation (UTS #58 §3.5.1): an escape of a line break or a tab written out in a string literal or a JSON log
    // (`\n`, `\r`, `\t` after an odd run of backslashes) ends the link, as what it stands for would: `printf("see
    // http://example.com/x\n")` (found in review: the link took `\n`, its uri `…/x%5Cn`; chars.ts isEscapeLetterAt
    // lets a link start after one).
    if (cp === BACKSLASH && !st.outOfRoom(i + 1) && isEscapedBreakAt(st, i, start)) break;
    // Deviation (UTS #58 §3.5.1): so does an HTML character reference to a character that ends or delimits a link
    // (`&quot;` `&lt;` `&gt;` `&apos;` `&nbsp;` and their numeric forms), in escaped HTML or XML written as text
    // (`&lt;a href=&quot;https://example.com/a&quot;&gt;`, an RSS description; found in review: the link took
    // `&quot;&gt;link&lt;/a&gt`). `&amp;` stays: it is the query's `&`, written as HTML writes it.
    if (cp === AMP && delimiterReferenceAt(st, i)) break;
    // Deviation (UTS #58 §3.5.1): a `|` in a path ends the link. It is no URI character (RFC 3986 §2; browsers
    // percent-encode it), and in text it separates: Slack's `<https://x.example/pull/1|PR 1>`, MediaWiki's
    // `{{cite web|url=https://x.example/a.pdf|title=…}}`, `curl -s https://x.example/install.sh|bash` (found in
    // review: the link took `|title=Report`, `|bash`). In a query it stays (`?family=Roboto|Open+Sans`, Google
    // Fonts), and so does a drive letter's (`file:///c|/autoexec.bat`, RFC 8089 Appendix E.2.2).
    // Inside `<…>` it is Slack's label separator in a query too (`<https://x.example/a?x=1|label>`), when what follows
    // it up to the `>` holds no `=`: `<http://x.example/s.asp?flags=id=1953|library=3>` is one query.
    if (cp === VERTICAL_LINE && (part === PATH ? !(i === start + 2 && st.scheme === 'file') : angleBefore(text, st.start) && labelAfter(st, i))) break;
    const lt = termOf(cp);
    if (lt === INCLUDE) {
      // Deviation (UTS #58 §3.5.1): a word of the sentence glued to an ASCII path after a host ends the link
      // (glued.ts): here any character after a file name's extension; a Korean particle at the end (gluedEnd). A link
      // the author delimited keeps it, and its iri writes it encoded (st.pathGlued: the conversion runs displayIri).
      if (cp >= 128 && text.charCodeAt(i - 1) < 128 && part === PATH && initialPart !== PATH && i > start && afterFileExtension(text, i, start)) {
        if (!st.delimited) break;
        st.pathGlued = true;
      }
      lastSafe = i + len;
    } else if (lt === SOFT) {
      // Deviation (UTS #58 §3.5.1), as domains.ts does after a host (`example.com。谢谢`): right after an ASCII
      // character of the link, CJK or full-width sentence punctuation (isCjkPunctuation) in a path, or any
      // non-ASCII Soft character before a letter of a script written without spaces (`”这`, and `，入门` in a
      // query), belongs to the sentence and ends the link: `访问 http://localhost:8080/Test.html，即可看到` links
      // `http://localhost:8080/Test.html`, and `http://ngrep.sourceforge.net/，libpcap下载地址` its URL; the
      // reference goes on (Soft followed by Include). After a non-ASCII character the link goes on as UTS #58 says
      // (`https://example.cn/路径，谢谢`; RFC 3987 §7.3), and so does a Soft character between ASCII letters
      // (`https://ca.wikipedia.org/wiki/Col·legi`), a query's or fragment's text (`mailto:a@b.com?subject=Hi，there`:
      // RFC 6068 hfields are text) and a link the author delimited (`href="…"`, `<…>`, `](…)`: st.delimited).
      // convert.ts displayIri keeps such a character percent-encoded in the iri, so the iri is found whole again.
      // Deviation (UTS #58 §3.5.1): a CJK full stop (`。` `｡`) in the path after a host ends the link whatever
      // follows, after a non-ASCII character too (softCutsLink; not in an opaque path, `xmpp:a@例え。jp`).
      if (
        cp >= 128 &&
        i > start &&
        !st.delimited &&
        softCutsLink(cp, st.outOfRoom(i + len) ? -1 : st.cpAt(i + len), text.charCodeAt(i - 1) < 128, part === PATH, part === PATH && initialPart !== PATH, part === FRAGMENT && !directive)
      ) {
        break;
      }
      // …and so does Soft punctuation right after a file name's extension, as any character does there (glued.ts),
      // when it or the character after it is not ASCII: `…/page.html،ثم`, `…/page.html,次` link `…/page.html` (found
      // in review: the Soft character let the word on). ASCII after ASCII stays (`/a.html,b.html`).
      // A link the author delimited keeps it, and its iri writes it encoded, as above.
      if (
        part === PATH &&
        initialPart !== PATH &&
        i > start &&
        text.charCodeAt(i - 1) < 128 &&
        (cp >= 128 || (!st.outOfRoom(i + len) && text.charCodeAt(i + len) >= 128)) &&
        afterFileExtension(text, i, start)
      ) {
        if (!st.delimited) break;
        st.pathGlued = true;
      }
      // P8: a run of Soft characters followed directly by `scheme://` ends the link before that run; so does one
      // followed by text of a script written without spaces (its letters and Soft punctuation) and then
      // `scheme://` (P4 lets a scheme start there): `https://ja.wikipedia.org/wiki/ゴッホ。東京、大阪https://例え.jp/a`
      // is two links, `。東京、大阪` text.
      // Deviation (UTS #58 §3.5.1): the reference reads both as one link (Soft followed by Include goes on).
      if (!st.outOfRoom(i + len)) {
        const next = text.charCodeAt(i + len);
        if (next < 128) {
          // (Read on past the segment's cut: a scheme the cut splits still ends the link here; found in review.)
          if ((ASCII_FLAGS[next]! & A_ALPHA) !== 0 && schemeSlashSlashPastCut(st, i + len)) break;
        } else if (i + len >= noSchemeBefore) {
          noSchemeBefore = noSpaceTextBeforeScheme(st, i + len);
          if (noSchemeBefore < 0) break;
        }
      }
      // Deviation (UTS #58 §3.5.1): a `"` that closes one opened inside the link is the link's, as a Close that
      // matches an Open is: `…/actions?query=workflow%3A"test"` (GitHub's badge links; the reference leaves the final
      // `"` out, and the uri ended in an unbalanced `%22test`: found in review). Not `'`, which is also an apostrophe,
      // and not an empty pair, as the end of a Python docstring is (`…?p=286213"""`).
      // Deviation (UTS #58 §3.5.1): a `"` right after a `,` opens the next field of a CSV row and ends the link there
      // (`1,john@example.com,https://example.com/john,"Prefers email"` linked `…/john,"Prefers`; found in review).
      // (Not inside brackets: `?where={"status":"open","owner":"me"}`, `?ids=["a","b"]`; found in review.)
      if (cp === QUOTE && text.charCodeAt(i - 1) === COMMA && depth === 0) break;
      if (cp === QUOTE) {
        if (quoteAt >= 0 && i > quoteAt + 1) {
          lastSafe = i + len;
          quoteAt = -1;
        } else {
          quoteAt = i;
        }
      }
    } else if (lt === HARD) {
      bidi = isBidiControl(cp);
      break;
    } else if (lt === OPEN) {
      // Deviation (UTS #58 §3.5.1): `<` is Open there, but `</` begins an HTML end tag, which no link written in
      // text continues into: `<a href="…">http://example.com/p</a>` links `http://example.com/p`. (RFC 3986
      // Appendix C: `<` and `>` delimit a URI in text. `<placeholder>` in a path stays: `https://h.example/<org>`.)
      // So does BBCode's `[/` (`[url]https://example.com/view.php?id=5[/url]`, `[img]…[/img]`; found in review: the
      // link took `[/url]`, after a non-ASCII character `[/url`).
      if ((cp === LESS || cp === LEFT_BRACKET) && !st.outOfRoom(i + 1) && text.charCodeAt(i + 1) === SLASH) break;
      // Deviation (UTS #58 §3.5.1): a POD escape glued to the link (podEscapeAt) ends it before its `E`:
      // `http://www.perl.org/E<gt>` links `http://www.perl.org/` (found in review: it kept `E<gt>` as a placeholder).
      if (cp === LESS && i - 1 > start && !isUpperAt(text, i - 2) && podEscapeAt(st, i - 1)) {
        if (lastSafe > i - 1) lastSafe = i - 1;
        break;
      }
      // (The link went on past the last `[…]` pair, to here: it kept it, and later pairs are placeholders too; found in
      // review: the fast run above may pass the pair's `]`, `…/v[major]_[minor]`.)
      if (cp === LEFT_BRACKET && asideEnd >= 0 && !asideIsCjk && lastSafe > asideEnd) bracketsKept = true;
      if (heldSafe < 0) {
        if (cp === LESS && (!st.delimited || angleBefore(text, st.start))) {
          // Deviation (UTS #58 §3.5.1): a `<` stays in the link only with its `>` (a placeholder, `https://h.example/<org>`,
          // `…/2021/<省>.html`); without it the link ends before it: `https://github.com/<Your GitHub handle>` links
          // `https://github.com/`, `http://example.com/bizop2/<<<-----` its URL (RFC 3986 Appendix C: `<` is no URI
          // character, it delimits one in text). The reference takes `<Your`, `<<<-----` (Open, then Include). A
          // link the author delimited with quotation marks or as a Markdown destination stands as written
          // (`href="https://example.com/a<b"`, `](https://example.com/a<b)`); in one delimited by `<…>` a `<` is no
          // more a URI character than in text (`<http://x/a<b`: `http://x/a`), and its pair stays only if the
          // delimiting `>` still follows (`<http://x/a<b>`: `http://x/a`; wrap.ts, with st.pairSafe).
          heldSafe = lastSafe;
          heldDepth = depth + 1;
          heldLimit = i + 1 + HELD_LOOKAHEAD;
          heldAt = i;
          aside = false;
        } else if (
          // Deviation (UTS #58 §3.5.1), as for the CJK sentence punctuation above: a CJK or full-width opening bracket
          // (isCjkOpenBracket) right after an ASCII character of a path opens an aside of the sentence, glued to the
          // link, unless the link goes on with ASCII right after its matching Close (§3.5.1 bracket matching decides
          // which Close that is; the link ends past it, ASCII right after it): `请看 http://www.perl.com/CPAN（最后头没有斜线）的说明`
          // links `http://www.perl.com/CPAN`, and so do `…/CPAN（注）` at the end of a line and `…/a（b）.`, while
          // `https://example.jp/a【b】c`, `…/a（b）.html` and `…/a（b）(c)d` stay whole. The reference pushes the bracket,
          // matches its Close and goes on (`）的说明` is Close, then Include). Left out, the aside is left out whole, its
          // Close too, and so is a second aside glued to its Close (`…/a（b）（c）`). After a non-ASCII character the
          // bracket is the link's own (`https://ja.wikipedia.org/wiki/東京（都）`; RFC 3987 §7.3), and so it is in a
          // query or fragment, in a link the author delimited, and while a bracket is held.
          cp >= 0x3000 &&
          part === PATH &&
          i > start &&
          !st.delimited &&
          (text.charCodeAt(i - 1) < 128 || i === asideEnd) &&
          isCjkOpenBracket(cp)
        ) {
          heldSafe = i === asideEnd ? asideSafe : lastSafe;
          heldDepth = depth + 1;
          heldLimit = i + 1 + HELD_LOOKAHEAD;
          aside = true;
          heldIsCjk = true;
        } else if (
          // Deviation (UTS #58 §3.5.1): a `[` right after an ASCII character of a path, or of a fragment that is no text
          // directive, opens an aside too: the pair is the link's only if the link goes on past its `]`, and a `[`
          // whose `]` does not come is left out. RFC 3986 §3.3 allows no `[` there; in text it is AsciiDoc's label,
          // `https://lore.kernel.org/git[archive]`, `https://github.com/git/git[GitHub mirror]`, `…/gitweb/[]`, or a
          // footnote mark, `…/CVE-certificate.jpg[46]` (found in en-mixed: 45 links took the label). A pair the link
          // goes on after stays (`imaps://imap.gmail.com/[Gmail]/Sent`, `https://h.example/[VERSION]/init`), and so does
          // every later pair (placeholders: `http://localhost:3000/[prefix]/[your_path]`), a `[` in a query
          // (`?foo[1]=a`), after a non-ASCII character and in a link the author delimited. The reference pushes it and
          // goes on (`[GitHub` is Open, then Include).
          cp === LEFT_BRACKET &&
          (!bracketsKept || i === asideEnd) &&
          (part === PATH || (part === FRAGMENT && !directive)) &&
          i > start &&
          !st.delimited &&
          text.charCodeAt(i - 1) < 128
        ) {
          heldSafe = i === asideEnd ? asideSafe : lastSafe;
          heldDepth = depth + 1;
          heldLimit = i + 1 + HELD_LOOKAHEAD;
          aside = true;
          heldIsCjk = false;
        }
      }
      stack[depth++] = cp;
      // Deviation (UTS #58 §3.5.1): the reference counts an Open as safe, so a link could end in a bracket that
      // nothing follows (`https://github.com/x/y[` before an AsciiDoc label); here it becomes safe only with what
      // comes after it (`a(b)`, `a()`, `<org>`), and a dangling one is left out like Soft punctuation.
    } else if (lt === CLOSE) {
      if (depth === 0 || linkBracketOpener(cp) !== stack[--depth]) break;
      if (depth + 1 === heldDepth) {
        if (aside) {
          // The aside's Close: the pair is the link's if ASCII of the link follows it: the character right after it is
          // ASCII (above) and the link ends past it (at the end).
          asideSafe = heldSafe;
          asideEnd = i + len;
          asideIsCjk = heldIsCjk;
        } else {
          // A placeholder names something: `<->`, `<<>>` are an arrow and markup glued to the link (found in review:
          // `…dyndns.org/<->GPG` kept them), and the link ends before the `<`.
          if (!holdsWord(text, heldAt + 1, i)) break;
          if (st.pairSafe < 0) st.pairSafe = heldSafe;
        }
        heldSafe = heldDepth = -1;
      }
      lastSafe = i + len;
    }
    if (cp >= 128 || URI_SIMPLE[cp] === 0) notSimpleAt(st, i);
    i += len;
  }
  // The link ends at a held bracket, or where it last could; an aside it does not reach past is left out (so a `<`
  // right after an aside's Close, `…/a（b）<c`, leaves the aside out too).
  const stop = heldSafe >= 0 ? heldSafe : lastSafe;
  const beforeAside = asideEnd >= 0 && stop <= asideEnd;
  const linkEnd = beforeAside ? asideSafe : stop;
  if (initialPart !== PATH) {
    const glued = gluedEnd(st, start, linkEnd);
    if (glued < linkEnd) return glued;
  }
  if (beforeAside) return asideSafe;
  if (heldSafe >= 0) return heldSafe;
  if (bidi) st.bidiStop = true;
  return lastSafe;
}

/**
 * Deviation (UTS #58 §3.5.1, glued.ts): where a link whose path after a host (from `start`, its `/`, `?` or `#`) ends
 * at `stop` in Hangul ends without a Korean particle glued to an ASCII character before it: before the particle and the
 * Soft and Open characters before that (what terminate leaves out at a link's end), or at `stop`. A link the author
 * delimited keeps it. Notes st.pathGlued when the link may still end in one, or does where wrap.ts ends a `<…>` link
 * before a pair terminate kept (st.pairSafe): the conversion then runs displayIri, which encodes it (the link cut
 * before a particle may end in another: `…/를,에서`). Reads the link's last characters, and only when they are such
 * a particle the link back to `start`: once per link.
 */
function gluedEnd(st: ScanState, start: number, stop: number): number {
  const text = st.text;
  const pairEndsInHangul = st.pairSafe > start && isHangulSyllable(text.charCodeAt(st.pairSafe - 1));
  if (!isHangulSyllable(text.charCodeAt(stop - 1)) && !pairEndsInHangul) return stop;
  let end = stop;
  if (!st.delimited) {
    let p = stop;
    while (p > start && stop - p <= MAX_PARTICLE && isHangulSyllable(text.charCodeAt(p - 1))) p--;
    const before = text.charCodeAt(p - 1);
    if (p > start && before < 128 && isGluedParticle(text, p, stop, before) && inPath(text, start, p)) {
      end = p;
      for (;;) {
        const cp = codePointBefore(text, end);
        const t = termOf(cp);
        if (end <= start + 1 || (t !== SOFT && t !== OPEN)) break;
        end -= cp > 0xffff ? 2 : 1;
      }
    }
  }
  if (isHangulSyllable(text.charCodeAt(end - 1)) || pairEndsInHangul) st.pathGlued = true;
  return end;
}

/** Is text[start, p) path only: no `?` or `#` starts a query or fragment in it? */
function inPath(text: string, start: number, p: number): boolean {
  for (let k = start; k < p; k++) {
    const c = text.charCodeAt(k);
    if (c === QUESTION || c === HASH) return false;
  }
  return true;
}

/**
 * Does the `\` at `i` write out a line break or a tab (`\n` `\r` `\t`, chars.ts isEscapeLetterAt), or start roff's
 * font or colour escape (`\fR`, `\f(CW`, `\m[]`, after a URL in a man page's source: chars.ts isRoffEscapeAt)? Not in a file:
 * link, nor in a path that uses `\` as its separator before it (`file:///C:\temp\report.txt`,
 * `https://example.com/a\b\tools`), where it is one (found in review). An escaped quotation mark (`\'` `\"`) stands
 * for the mark, which the link may hold (`'…/wiki/Ender\'s_Game'`).
 */
function isEscapedBreakAt(st: ScanState, i: number, start: number): boolean {
  const text = st.text;
  const c = text.charCodeAt(i + 1);
  // `\n` `\r` `\t`, and roff's font and colour escapes (`…/manpage.html\fR`, `\m[]`)
  const ends = c === 0x6e || c === 0x72 || c === 0x74 || ((c === 0x66 || c === 0x6d) && !st.outOfRoom(i + 2) && isRoffEscapeAt(text, i + 1));
  if (!ends || !isEscapeLetterAt(text, i + 1, true) || st.scheme === 'file') return false;
  for (let k = i - 1; k >= start; k--) if (st.text.charCodeAt(k) === BACKSLASH) return false;
  return true;
}

/**
 * The length of the JSON escape at the `\` at `i` that a link in a JSON string holds: 2 for `\/` and `\\`, 6 for a
 * `\uXXXX` of a Link_Term Include character; else 0.
 */
function jsonEscapeLength(st: ScanState, i: number): number {
  if (st.outOfRoom(i + 1)) return 0;
  const c = st.text.charCodeAt(i + 1);
  if (c === SLASH || c === BACKSLASH) return 2;
  if (c !== 0x75) return 0; // `u`
  let cp = 0;
  for (let k = i + 2; k < i + 6; k++) {
    if (st.outOfRoom(k)) return 0;
    const h = hexValue(st.text.charCodeAt(k));
    if (h < 0) return 0;
    cp = cp * 16 + h;
  }
  // (Only an Include character: the walk reads the escape, not the character, so a bracket, a quotation mark or
  // punctuation that would end the link or pair with another must end it here; found in review: `\u005b1\u005d`.)
  return cp >= 0x20 && termOf(cp) === INCLUDE ? 6 : 0;
}

/** Is the `"` or `'` at `i` escaped in a string literal: after an odd run of backslashes inside the link (from `start`)? */
function escapedQuoteAt(text: string, i: number, start: number): boolean {
  const c = text.charCodeAt(i);
  if (c !== QUOTE && c !== 0x27) return false;
  let k = i;
  while (k > start && i - k < 8 && text.charCodeAt(k - 1) === BACKSLASH) k--;
  return (i - k) % 2 === 1;
}

/**
 * Perl POD's escape `E<…>` at `i` (perlpod, "Formatting Codes"): `E<gt>`, `E<lt>`, `E<sol>`, `E<verbar>`, `E<quot>`,
 * `E<amp>`, `E<apos>`, `E<nbsp>`, or a number (`E<0x201E>`, `E<187>`). Glued to a name or a URL in POD it is a
 * character of the text, not part of the link: `E<lt>gsar@activestate.comE<gt>`, `C<LE<lt>http://www.perl.comE<gt>>`.
 * (Only these: `…/TYPE<id>` is a placeholder, `EXAMPLE.DE<br>` HTML; found in review.)
 */
export function podEscapeAt(st: ScanState, i: number): boolean {
  const text = st.text;
  if (text.charCodeAt(i) !== 0x45 || st.outOfRoom(i + 1) || text.charCodeAt(i + 1) !== LESS) return false;
  let k = i + 2;
  while (!st.outOfRoom(k) && k - i - 2 < 10 && isAlnum(text.charCodeAt(k))) k++;
  if (k === i + 2 || k - i - 2 >= 10 || st.outOfRoom(k) || text.charCodeAt(k) !== 0x3e) return false;
  const name = text.slice(i + 2, k);
  return POD_ESCAPES.includes(name) || /^(?:0x[0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)$/.test(name);
}

/** Is text[i] an ASCII capital? (Before a POD escape's `E` it would be a word's: `…/NODE<gt>`.) */
function isUpperAt(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  return c >= 0x41 && c <= 0x5a;
}

const POD_ESCAPES: readonly string[] = ['lt', 'gt', 'sol', 'verbar', 'quot', 'amp', 'apos', 'nbsp'];

/** Is text(i, the next `>`) a label, not more of a query: no `=` within 256 units, a `>` closing it? */
function labelAfter(st: ScanState, i: number): boolean {
  for (let k = i + 1; k - i <= 256 && !st.outOfRoom(k); k++) {
    const c = st.text.charCodeAt(k);
    if (c === 0x3e) return true;
    if (c === EQUALS || c === 0x0a || c === 0x0d) return false;
  }
  return false;
}

/** The named HTML character references of a delimiter (quotation marks, angle brackets, a no-break space). */
const DELIMITER_NAMES: ReadonlyMap<string, number> = new Map([
  ['quot', 0x22], ['apos', 0x27], ['lt', 0x3c], ['gt', 0x3e], ['nbsp', 0xa0],
  ['ldquo', 0x201c], ['rdquo', 0x201d], ['lsquo', 0x2018], ['rsquo', 0x2019], ['laquo', 0xab], ['raquo', 0xbb],
]);

/**
 * Does an HTML character reference to a character that ends or delimits a link start at the `&` at `i`: a name of
 * DELIMITER_NAMES (ASCII case-insensitive), or a numeric one (`&#39;`, `&#039;`, `&#x22;`, `&#8221;`) whose character
 * is not Link_Term Include, or is `<` `>`? Reads at most 12 units on.
 */
function delimiterReferenceAt(st: ScanState, i: number): boolean {
  const text = st.text;
  let j = i + 1;
  let cp = -1;
  if (!st.outOfRoom(j) && text.charCodeAt(j) === 0x23) {
    // `&#` DIGIT+ `;` or `&#x` HEXDIG+ `;`
    j++;
    const hex = !st.outOfRoom(j) && (text.charCodeAt(j) | 0x20) === 0x78;
    if (hex) j++;
    let value = 0;
    const from = j;
    for (; !st.outOfRoom(j) && j - from < 8; j++) {
      const c = text.charCodeAt(j);
      const d = hex ? hexValue(c) : c >= 0x30 && c <= 0x39 ? c - 0x30 : -1;
      if (d < 0) break;
      value = value * (hex ? 16 : 10) + d;
    }
    if (j === from || st.outOfRoom(j) || text.charCodeAt(j) !== 0x3b || value > 0x10ffff) return false;
    cp = value;
  } else {
    // (The names' first letters: a query's `&key=` mostly starts otherwise, one test; performance.)
    const first = st.outOfRoom(j) ? -1 : text.charCodeAt(j) | 0x20;
    if (first !== 0x71 && first !== 0x61 && first !== 0x6c && first !== 0x67 && first !== 0x6e && first !== 0x72) return false;
    let name = '';
    for (; !st.outOfRoom(j) && j - i <= 6; j++) {
      const c = text.charCodeAt(j);
      if (c === 0x3b) break;
      if ((ASCII_FLAGS[c]! & A_ALPHA) === 0 || c >= 128) return false;
      name += String.fromCharCode(c | 0x20);
    }
    if (st.outOfRoom(j) || text.charCodeAt(j) !== 0x3b) return false;
    cp = DELIMITER_NAMES.get(name) ?? -1;
    if (cp < 0) return false;
  }
  return cp === 0x3c || cp === 0x3e || cp === 0xa0 || termOf(cp) !== INCLUDE;
}

/** Notes `i` as st.pathNotSimple unless an earlier position is noted. */
function notSimpleAt(st: ScanState, i: number): void {
  if (st.pathNotSimple < 0) st.pathNotSimple = i;
}

/**
 * Whether a non-ASCII Soft character `cp`, followed by `next` (−1: none), ends a link where UTS #58 §3.5.1 would let
 * it go on (terminate's deviations, above):
 *   - right after an ASCII character (`afterAscii`), CJK or full-width sentence punctuation in a path (`inPath`), or
 *     any such character before a letter of a script written without spaces;
 *   - in the path after a host (`inHostPath`: not a query, whose values are text, `?q=東京。大阪`; not a fragment,
 *     which may be text, `#:~:text=東京。大阪`; not an opaque path, where it may be a domain's dot,
 *     `xmpp:a@例え。jp`), a CJK full stop, `。` or `｡`, after any character: it ends a sentence, and text of a
 *     script written without spaces goes on right after it, so the reference's link runs on to the next space,
 *     often a paragraph later (`https://ja.wikipedia.org/wiki/東京。次の文`, `https://db.debian.org/にあります。
 *     ここに情報を…`: 23 links of the multilingual corpus ran on so, none is a path that holds one; linkify-it and
 *     Autolinker end there too). A path that does hold one is written with it percent-encoded, as the iri and
 *     formatUrl write it;
 *   - in a fragment that is no text directive (`inPlainFragment`: before any `:~:`), a CJK full stop before a letter
 *     of a script written without spaces: the sentence goes on after it (`…/faq#contactを参照してください。チームに…`
 *     ran on to the next space; found in review).
 * display.ts and format-url.ts keep such a character encoded by the same rule, so that what they write is found whole.
 */
export function softCutsLink(cp: number, next: number, afterAscii: boolean, inPath: boolean, inHostPath: boolean, inPlainFragment: boolean): boolean {
  if (afterAscii && ((inPath && isCjkPunctuation(cp)) || (next >= 0 && isNoSpaceScriptLetter(next)))) return true;
  if (cp !== 0x3002 && cp !== 0xff61) return false;
  return inHostPath || (inPlainFragment && next >= 0 && isNoSpaceScriptLetter(next));
}

/** Does text[from, to) hold a text directive's `:~:`? */
function holdsDirective(text: string, from: number, to: number): boolean {
  const at = text.indexOf(':~:', from);
  return at >= 0 && at < to;
}

/**
 * The CJK and full-width sentence punctuation that ends a link right after an ASCII character (terminate, above):
 * of CJK Symbols and Punctuation (U+3000–U+303F) and the full-width and half-width forms (U+FF00–U+FF65) only these
 * are Link_Term=Soft, the one class that reaches this test: `、` `。` `，` `．` `：` `；` `！` `｡` `､`. The Soft `？`
 * (U+FF1F) is left out: `https://git.kernel.org/？p=linux/…` is a URL whose `?` a translation widened (it still
 * ends before a letter of a script without spaces). The rest of those blocks is Include, Open, Close or Hard.
 */
function isCjkPunctuation(cp: number): boolean {
  switch (cp) {
    case 0x3001: // 、
    case 0x3002: // 。
    case 0xff0c: // ，
    case 0xff0e: // ．
    case 0xff1a: // ：
    case 0xff1b: // ；
    case 0xff01: // ！
    case 0xff61: // ｡
    case 0xff64: // ､
      return true;
    default:
      return false;
  }
}

/**
 * A Link_Term=Open character (the caller has checked that) of CJK Symbols and Punctuation (U+3000–U+303F) or the
 * full-width forms (U+FF00–U+FF65): `〈` `《` `「` `『` `【` `〔` `〖` `〘` `〚` `（` `［` `｛` `｟` `｢`, the opening
 * brackets of CJK text, each the Link_Bracket of a Close of the same block. Right after an ASCII character of a path
 * it opens an aside that the link leaves out unless ASCII of the link follows its Close (terminate, above).
 */
export function isCjkOpenBracket(cp: number): boolean {
  return (cp >= 0x3000 && cp <= 0x303f) || (cp >= 0xff00 && cp <= 0xff65);
}

/**
 * P8 with P4: does text of a script written without spaces (Han, kana, Thai, … letters, and non-ASCII Soft
 * punctuation such as `、` `，` between them) start at `i`, with `scheme://` right after it? Returns −1 if so;
 * otherwise where that text ends (the answer from any later point of it is the same: no scheme). Reads within the
 * segment only.
 *
 *     ゴッホ。東京、大阪https://例え.jp/a
 *            ^i        ^ scheme
 */
function noSpaceTextBeforeScheme(st: ScanState, i: number): number {
  const text = st.text;
  let j = i;
  while (!st.outOfRoom(j)) {
    const c = text.charCodeAt(j);
    if (c < 128) return j > i && (ASCII_FLAGS[c]! & A_ALPHA) !== 0 && schemeSlashSlashPastCut(st, j) ? -1 : j;
    const cp = st.cpAt(j);
    if (!isNoSpaceScriptLetter(cp) && termOf(cp) !== SOFT) return j;
    j += cp > 0xffff ? 2 : 1;
  }
  // At the segment's cut the text goes on: a scheme a little past it still ends the link here (found in review).
  return j === st.cut && noSpaceTextThenSchemePastCut(st, i, j) ? -1 : j;
}

/** How far past the segment's cut noSpaceTextThenSchemePastCut reads, in UTF-16 units. */
const NO_SPACE_PAST_CUT = 32;

/**
 * noSpaceTextBeforeScheme past the segment's cut: does the text written without spaces that started at `i` go on from
 * `from` (at or past the cut) to `scheme://` within NO_SPACE_PAST_CUT units? Throws INCOMPLETE at the end of a
 * non-final chunk (or before a high surrogate there).
 */
function noSpaceTextThenSchemePastCut(st: ScanState, i: number, from: number): boolean {
  const text = st.text;
  for (let j = from; j - from <= NO_SPACE_PAST_CUT; ) {
    if (j >= st.n || (j + 1 === st.n && !st.final && (text.charCodeAt(j) & 0xfc00) === 0xd800)) {
      if (st.final) return false;
      throw INCOMPLETE;
    }
    const c = text.charCodeAt(j);
    if (c < 128) return j > i && (ASCII_FLAGS[c]! & A_ALPHA) !== 0 && schemeSlashSlashPastCut(st, j);
    const cp = st.cpAt(j);
    if (!isNoSpaceScriptLetter(cp) && termOf(cp) !== SOFT) return false;
    j += cp > 0xffff ? 2 : 1;
  }
  return false;
}

/**
 * If `scheme://` starts at `i` (a letter, then up to 31 scheme characters, then `://`), the index of its `:`;
 * otherwise −1. Reads within the segment only.
 */
export function schemeSlashSlashAt(st: ScanState, i: number): number {
  const text = st.text;
  let j = i;
  for (;;) {
    if (st.outOfRoom(j)) return -1;
    const c = text.charCodeAt(j);
    if (c < 128 && (ASCII_FLAGS[c]! & A_SCHEME) !== 0) {
      if (j - i >= 32) return -1;
      j++;
      continue;
    }
    break;
  }
  if (j === i || text.charCodeAt(j) !== COLON) return -1;
  if (st.outOfRoom(j + 1) || text.charCodeAt(j + 1) !== SLASH) return -1;
  if (st.outOfRoom(j + 2) || text.charCodeAt(j + 2) !== SLASH) return -1;
  return j;
}
