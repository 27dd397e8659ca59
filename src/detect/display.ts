// The readable `iri` of a detected link, written so that the detector finds it whole again.

import { pctEncodeCodePoint } from '../iri/percent.js';
import { linkBracketOpener } from '../unicode/index.js';
import { A_ALPHA, A_SCHEME, ASCII_FLAGS, CLOSE, HARD, isNoSpaceScriptLetter, OPEN, SOFT, termOf } from './chars.js';
import { isCjkOpenBracket, softCutsLink } from './terminate.js';
import { afterFileExtension, isGluedParticle } from './glued.js';

const SLASH = 0x2f;
const QUESTION = 0x3f;
const HASH = 0x23;
const EQUALS = 0x3d;
const AMP = 0x26;
const DOT = 0x2e;

/**
 * Deepest bracket nesting followed: an opener deeper than this is not pushed, so its Close, then unmatched, is
 * percent-encoded (the iri is still found whole; terminate.ts's stack has no such limit but maxLinkLength).
 */
const MAX_DEPTH = 64;
const stack = new Int32Array(MAX_DEPTH);

/**
 * RFC 3987 §3.2 (and 3987bis §4, "results may vary"): a URI-to-IRI conversion may leave a character
 * percent-encoded. toIri decodes every character an IRI may hold; this keeps encoded, in a detected link's `iri`,
 * the non-ASCII characters at which the detector (terminate.ts, UTS #58 §3.5.1 and its deviations) would end a bare
 * link, so that findLinks(link.iri) finds that iri whole (`…/Python%EF%BC%8C%E5%85%A5%E9%97%A8` shows as
 * `…/Python%EF%BC%8C入门`, not `…/Python，入门`, which links `…/Python`):
 *
 * - a Link_Term=Hard character (toIri already keeps spaces, invisible and bidi formatting characters encoded);
 * - a Soft one right after an ASCII character, in a path when it is CJK sentence punctuation (`，` `、` `。` `：` …),
 *   anywhere when a letter of a script written without spaces follows (terminate.ts's deviation);
 * - a CJK or full-width opening bracket (`（` `【` `「` …) right after an ASCII character in a path (terminate.ts's
 *   aside; also where the detector keeps the pair because ASCII follows its Close: encoded, it is found whole too);
 * - Soft and Open characters that end the iri (a link does not end in them), and a `.` ending it after the host;
 * - a closing bracket without its opening one (UTS #58 §3.5.1 bracket matching, cleared by `/`, `=` and `&`);
 * - right after an ASCII character of the path after a host, a word the detector leaves to the sentence (glued.ts):
 *   the character after a file name's extension (`…/a.html%E3%82%92참조`), a Korean particle ending the iri
 *   (`…/hurd%EB%A5%BC`);
 * - P8: a Soft character after the host right before `scheme://`, or before text of a script written without spaces
 *   and then `scheme://` (`…/x%2Ehttps://…`, `…/日%E3%80%81https://…`: toIri decodes `%2E`, the same URI).
 *
 * Other ASCII is left alone: toIri decodes only unreserved ASCII, and re-encoding a reserved character would change
 * the URI (RFC 3986 §2.2). This lives here, not in toIri: where a link ends is the detector's rule (and its
 * deviations), not RFC 3987's, and toIri's output is pinned by the conversion vectors. A raw character of the text that an author-delimited link holds (`href="…/a，b"`) is shown
 * encoded too: the iri is the link's identifier, not its text (that is `link.text`). Only the iri is changed: the
 * uri encodes every non-ASCII character anyway. Returns `iri` itself when nothing changes (all-ASCII iris: at once).
 */
export function displayIri(iri: string): string {
  const n = iri.length;
  let i = 0;
  while (i < n && iri.charCodeAt(i) < 128) i++;
  // (P8 needs a `scheme://` after the scheme's own.)
  const schemeEnd = iri.indexOf(':');
  const p8 = schemeEnd > 0 && iri.indexOf('://', schemeEnd + 1) > 0;
  if (i === n && iri.charCodeAt(n - 1) !== DOT && !p8) return iri;
  // Where the trailing run of Soft and Open characters starts.
  let tail = n;
  while (tail > 0) {
    const c = iri.charCodeAt(tail - 1);
    const cp = c >= 0xdc00 && c <= 0xdfff && tail >= 2 ? iri.codePointAt(tail - 2)! : c;
    const t = termOf(cp);
    if (t !== SOFT && t !== OPEN) break;
    tail -= cp > 0xffff ? 2 : 1;
  }
  // Where the authority after `scheme://` ends (just after the scheme's `:` when there is none), and where the path
  // after it starts (n: none).
  let authorityEnd = schemeEnd + 1;
  let hostPath = n;
  if (schemeEnd > 0 && iri.startsWith('//', authorityEnd)) {
    authorityEnd += 2;
    while (authorityEnd < n) {
      const c = iri.charCodeAt(authorityEnd);
      if (c === SLASH || c === QUESTION || c === HASH) break;
      authorityEnd++;
    }
    if (iri.charCodeAt(authorityEnd) === SLASH) hostPath = authorityEnd;
  }
  // A `.` that ends the iri after the host (toIri decodes `%2E`, RFC 3986 §2.3: the same URI) is kept `%2E`. In
  // the host it is the root's dot: there the detector leaves a trailing dot out anyway.
  const dotEnd = iri.charCodeAt(n - 1) === DOT && tail < n && schemeEnd > 0 && n - 1 >= authorityEnd;
  if (i === n && !dotEnd && !p8) return iri;
  let out = '';
  let last = 0;
  let query = false;
  let fragment = false;
  // A text directive's `:~:` (softCutsLink: a fragment before it is plain text's).
  const directiveAt = iri.indexOf(':~:');
  let depth = 0;
  let prevAscii = true;
  // The last code unit written (of its escape, when encoded): what the detector reads before the next character.
  let lastUnit = SLASH;
  // Where a Korean particle that ends the iri starts (glued.ts), once found.
  let particle = n;
  // P8: where the run schemeFollows last read stopped, and whether a scheme starts there; from any later position
  // before it, it would read the same run to the same answer (so each character is read at most once: found in
  // review, it was quadratic).
  let runStop = -1;
  let runScheme = false;
  const schemeAt = (k: number): boolean => {
    if (k > runStop) {
      const r = schemeFollows(iri, k);
      runScheme = r < 0;
      runStop = runScheme ? -r - 1 : r;
    }
    return runScheme;
  };
  for (i = 0; i < n; ) {
    const c = iri.charCodeAt(i);
    if (c < 128) {
      if (p8 && c === DOT && i >= authorityEnd && schemeAt(i + 1)) {
        out += iri.slice(last, i) + '%2E';
        last = i + 1;
        lastUnit = 0x45; // E
        prevAscii = true;
        i++;
        continue;
      }
      if (c === QUESTION && !query && !fragment) query = true;
      else if (c === HASH && !fragment) fragment = true;
      if (!fragment && (query ? c === EQUALS || c === AMP : c === SLASH)) depth = 0;
      else if (c === 0x28 || c === 0x5b || c === 0x7b || c === 0x3c) {
        if (depth < MAX_DEPTH) stack[depth++] = c;
      } else if ((c === 0x29 || c === 0x5d || c === 0x7d || c === 0x3e) && depth > 0) depth--;
      prevAscii = true;
      lastUnit = c;
      i++;
      continue;
    }
    const cp = iri.codePointAt(i)!;
    const len = cp > 0xffff ? 2 : 1;
    const t = termOf(cp);
    let encode = false;
    if (t === HARD || i >= tail) {
      encode = true;
    } else if (prevAscii && lastUnit < 128 && termOf(lastUnit) === SOFT && !query && !fragment && i > hostPath && afterFileExtension(iri, i - 1, hostPath)) {
      // After ASCII Soft punctuation right after a file name's extension, detection ends the link before any
      // character that is not ASCII (`a.html,次`, `a.html,«x»`; terminate.ts): it is encoded, whatever its Link_Term.
      encode = true;
    } else if (t === SOFT) {
      // (softCutsLink: the detector's deviations are for a path, not for a host taken as written,
      // `https://a_b。例え。jp/x`.)
      if (i >= authorityEnd) {
        const inPath = !query && !fragment;
        encode =
          softCutsLink(cp, i + len < n ? iri.codePointAt(i + len)! : -1, prevAscii, inPath, inPath && i > hostPath, fragment && (directiveAt < 0 || i < directiveAt)) ||
          (p8 && schemeAt(i + len)) ||
          (prevAscii && inPath && i > hostPath && afterFileExtension(iri, i, hostPath));
      }
    } else if (t === OPEN) {
      // A CJK or full-width opening bracket right after an ASCII character in a path (terminate.ts's aside); its
      // Close, then unmatched, is encoded below.
      if (prevAscii && !query && !fragment && isCjkOpenBracket(cp)) encode = true;
      else if (depth < MAX_DEPTH) stack[depth++] = cp;
    } else if (t === CLOSE) {
      if (depth > 0 && linkBracketOpener(cp) === stack[depth - 1]) depth--;
      else encode = true;
    } else if (i >= particle) {
      encode = true;
    } else if (prevAscii && !query && !fragment && i > hostPath) {
      // A word of the sentence glued to an ASCII path (terminate.ts, glued.ts): any character after a file name's
      // extension, a Korean particle that ends the iri (all of it: its next syllable would follow ASCII then). A
      // character before `i` that is not ASCII was encoded: it breaks an extension here as its escape does there.
      if (isGluedParticle(iri, i, n, lastUnit)) particle = i;
      encode = i >= particle || afterFileExtension(iri, i, hostPath);
    }
    if (encode) {
      const escape = pctEncodeCodePoint(cp);
      out += iri.slice(last, i) + escape;
      last = i + len;
      lastUnit = escape.charCodeAt(escape.length - 1);
    } else {
      lastUnit = iri.charCodeAt(i + len - 1);
    }
    prevAscii = encode;
    i += len;
  }
  if (dotEnd) {
    out += iri.slice(last, n - 1) + '%2E';
    last = n;
  }
  return last === 0 ? iri : out + iri.slice(last);
}

/**
 * P8 as terminate.ts reads it after a Soft character: does `scheme://` (a letter, up to 31 more scheme characters, `://`)
 * start at iri[k], or after text of a script written without spaces (its letters and Soft characters) from there?
 * Returns where the run read from k stopped, j (the same answer from any position in [k, j]): −j − 1 when the scheme
 * starts there, j when none does.
 */
function schemeFollows(iri: string, k: number): number {
  const n = iri.length;
  let j = k;
  while (j < n && iri.charCodeAt(j) >= 128) {
    const cp = iri.codePointAt(j)!;
    if (!isNoSpaceScriptLetter(cp) && termOf(cp) !== SOFT) return j;
    j += cp > 0xffff ? 2 : 1;
  }
  if (j >= n || (ASCII_FLAGS[iri.charCodeAt(j)]! & A_ALPHA) === 0) return j;
  let e = j + 1;
  while (e < n && iri.charCodeAt(e) < 128 && (ASCII_FLAGS[iri.charCodeAt(e)]! & A_SCHEME) !== 0) {
    if (e - j >= 32) return j;
    e++;
  }
  return iri.startsWith('://', e) ? -j - 1 : j;
}
