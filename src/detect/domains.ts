// UTS #58 §3.2 / NOTES §4.1–4.2: schemeless links anchored on a dot followed by a known top-level domain, the
// domain scanned back from that dot, its labels checked; and the same label rules for hosts after `scheme://`.

import {
  A_ALPHA,
  A_DIGIT,
  A_HOST,
  asciiAfterNoSpaceText,
  ASCII_FLAGS,
  codePointAt,
  codePointBefore,
  equalsLowerCased,
  lowerCased,
  hexValue,
  isBarrier,
  isBidiControl,
  isDomainChar,
  isHostDot,
  isLabelChar,
  isStrayMiddleDot,
  isLetterOrDigit,
  isNoSpaceScriptLetter,
  PLAIN_HOST,
  isEscapeLetterAt,
  afterControlSequence,
  isSymbolLike,
} from './chars.js';
import { emailAt, MAX_LOCAL_PART_LENGTH } from './email.js';
import { fieldBefore } from './fields.js';
import { isLetter, isLinkEmail, isMark, isNumber } from '../unicode/index.js';
import { afterSentencePunctuation, closerBefore, closesAtEnd, delimitedBefore, markRunBefore } from './quotes.js';
import { FILE_BASENAMES, FILE_EXTENSION_TLDS, MEMBER_NAME_TLDS, SYSLOG_FACILITIES, TRIE_SYMBOL, TRIE_SYMBOLS } from './tlds.js';
import { podEscapeAt, terminate } from './terminate.js';
import { fastPaths, type ScanState } from './state.js';

/** Longest domain name scanned back from a TLD (RFC 1035 §2.3.4: 253 octets in text form). */
export const MAX_DOMAIN_LENGTH = 253;

const COLON = 0x3a;
const SLASH = 0x2f;
const AT = 0x40;
const DOT = 0x2e;
const HYPHEN = 0x2d;
const STAR = 0x2a;
const UNDERSCORE = 0x5f;
const LEFT_PAREN = 0x28;
const RIGHT_PAREN = 0x29;
const HASH = 0x23;
const QUESTION = 0x3f;
const PERCENT = 0x25;
const DOLLAR = 0x24;
const LEFT_BRACE = 0x7b;
const EQUALS = 0x3d;
const BACKSLASH = 0x5c;
const LESS_THAN = 0x3c;
/** The field whose `<…>` holds a mailing list's identifier (RFC 2919 §2), lower-cased. */
const LIST_ID: readonly string[] = ['list-id'];
const LEFT_BRACKET = 0x5b;
const GREATER_THAN = 0x3e;
const MIDDLE_DOT = 0xb7;
const isL = (c: number): boolean => c === 0x6c || c === 0x4c;

/**
 * NOTES §4.1 steps 1–8, at the dot `d` (`.` or `。`):
 *
 *     see www.example.com/a, then
 *            ^d  (rejected: `example` is not a TLD)
 *                ^d  (`com` is: scan back to `www`, check the labels, then the path)
 *
 * Returns true with the candidate in `st` (a URL, or an email when `@` precedes the domain), or false with
 * `st.next` set to where the search resumes.
 */
export function atDot(st: ScanState, d: number): boolean {
  const o = st.opts;
  const text = st.text;
  st.next = d + 1;
  if (!o.schemeless && !o.email) return false;

  // Step 1: the label after the dot must be a TLD.
  const end = st.end;
  let j = d + 1;
  let tooLong = false;
  // Whether the domain, read here and by the back-scan below, is PLAIN_HOST (ScanState.plainAuthority; the TLD
  // found may end before j: what is noted here is then about more than the domain, which only makes it stricter).
  // Its dots too: the trigger may be `。` and a trailing dot any host dot, which the conversion maps to `.` (UTS #46).
  let plain = text.charCodeAt(d) === DOT ? 1 : 0;
  while (j < end || !st.outOfRoom(j)) {
    const c = text.charCodeAt(j);
    if (c < 128) {
      if (c === DOT || (ASCII_FLAGS[c]! & A_HOST) === 0) break;
      plain &= PLAIN_HOST[c]!;
      j++;
    } else {
      const cp = st.cpAt(j);
      if (!isLabelChar(cp) || (cp === MIDDLE_DOT && isStrayMiddleDot(st, j))) break;
      plain = 0;
      j += cp > 0xffff ? 2 : 1;
    }
    if (j - d - 1 > o.tldMaxLength) {
      tooLong = true; // no TLD is this long: only the deviation below may still find one at its start
      break;
    }
  }
  st.next = j;
  if (j === d + 1) return false;
  // A label that ran into the segment's cut may go on past it: taken as a TLD, `john@example.com` cut after
  // `example.co` would be another address. (Only in a run of maxLinkLength units without a separator: state.ts.)
  if (j === st.cut) return false;
  // A POD escape glued to the TLD is not part of it: `E<lt>gsar@activestate.comE<gt>` (found in review: 161 addresses
  // of en-mixed were not linked, `comE` being no TLD; terminate.ts podEscapeAt).
  if (!tooLong && j - 2 > d && podEscapeAt(st, j - 1) && isTld(st, d + 1, j - 1)) j--;
  if (tooLong || !isTld(st, d + 1, j)) {
    // Deviation (UTS #58 §4.1 step 2): an ASCII TLD glued to text of a script written without spaces, or to an emoji
    // or symbol, ends there — `example.comを参照` links `example.com`, and so does `example.com😀`; the reference
    // rejects the whole candidate (`.comx`). (However long the run of that text: its sentence may go on for many
    // characters without a space.)
    const glued = tooLong ? -1 : tldBeforeScheme(st, d + 1, j);
    // P8: `www.debian.orghttp://…` — a listed scheme and `://` glued to the TLD start a new link (url.ts).
    j = glued > 0 ? glued : asciiTldBeforeGluedText(st, d + 1, j);
    if (j < 0) return false;
  }
  const tldEnd = j;
  // Deviation (UTS #58 §4.1 step 2): a TLD followed by `_` and a letter or digit is no TLD: the word runs on, as
  // in `.comx` (`n.to_string()`, `locale.LC_ALL`, `a.is_empty()`; `_` is no host character, STD3). A name in
  // Markdown emphasis, `_example.com_`, stays a link, and so does an address after an explicit `mailto:`.
  const wordGoesOn = !st.outOfRoom(j) && text.charCodeAt(j) === UNDERSCORE && identifierGoesOn(st, j);

  // Step 2: a TLD must not run on into another label (`.comx`); one trailing dot is allowed, then a port.
  let linkEnd = tldEnd;
  if (!st.outOfRoom(j) && isHostDot(text.charCodeAt(j))) {
    if (!st.outOfRoom(j + 1) && isLabelChar(st.cpAt(j + 1))) {
      // Deviation (UTS #58 §4.1 step 2, as afterSentenceStop): a CJK full stop between a TLD and a letter of a
      // script written without spaces ends a sentence — `example.com。谢谢` links `example.com`, `例子.中国。然后`
      // `例子.中国` (found in review: a TLD not in ASCII lost the name). P8: so does a dot
      // (`.` or another host dot) before a listed scheme and `://`, as Soft punctuation before one ends a path
      // (terminate.ts): `f.org.http://y` and `f.org。http://y` link `f.org` and `http://y` (the reference takes
      // `f.org.http` for a name and rejects it).
      if (listedSchemeAt(st, j + 1)) {
        // (linkEnd stays at the TLD: the dot is the sentence's)
      } else if (text.charCodeAt(j) === DOT || !isNoSpaceScriptLetter(st.cpAt(j + 1))) {
        return false;
      } else if (!isAscii(text, d + 1, tldEnd) && labelIsTld(st, j + 1)) {
        // (A TLD not in ASCII: the `。` is a host dot when a TLD follows it, `例子.公司。香港`, a second level of
        // `.香港`: the name is found whole at that dot; found in review.)
        return false;
      }
    } else {
      linkEnd = j + 1;
      if (text.charCodeAt(j) !== DOT) plain = 0;
    }
  }
  const portEnd = scanPort(st, linkEnd);
  if (portEnd < 0) return false;
  const hasPort = portEnd > linkEnd;
  // `com.example.app://open`: a dotted scheme (RFC 3986 §3.1), not a domain; url.ts takes it from its colon.
  if (
    !hasPort &&
    linkEnd === tldEnd &&
    !st.outOfRoom(tldEnd) &&
    text.charCodeAt(tldEnd) === COLON &&
    !st.outOfRoom(tldEnd + 1) &&
    text.charCodeAt(tldEnd + 1) === SLASH &&
    !st.outOfRoom(tldEnd + 2) &&
    text.charCodeAt(tldEnd + 2) === SLASH
  ) {
    return false;
  }
  linkEnd = portEnd;

  // Step 3: back from the dot over host characters, not past the previous link or the segment start.
  const floor = st.floor();
  let ds = d;
  let ascii = true;
  // Step 4's label rules for the ASCII labels passed on the way (validLabels, without a second pass): a dot at
  // ds − 1 ends the label [ds, labelEnd).
  let labelEnd = d;
  let badLabel = false;
  while (ds > floor) {
    const c = text.charCodeAt(ds - 1);
    if (c < 128) {
      if ((ASCII_FLAGS[c]! & A_HOST) === 0) break;
      plain &= PLAIN_HOST[c]!;
      if (c === DOT) {
        if (ds === labelEnd || text.charCodeAt(ds) === HYPHEN || text.charCodeAt(labelEnd - 1) === HYPHEN) badLabel = true;
        labelEnd = ds - 1;
      }
      ds--;
    } else {
      const cp = codePointBefore(text, ds);
      if (!isDomainChar(cp)) break;
      // A middle dot but between two `l` (isStrayMiddleDot) right before the name: it goes on past the dot, or the
      // dot was glued to it; the name is not known, and not linked (found in review: `x·example.com` linked whole,
      // its iri then `https://x` and `·example.com`).
      if (cp === MIDDLE_DOT && !(ds >= 2 && isL(text.charCodeAt(ds - 2)) && isL(text.charCodeAt(ds)))) return false;
      // RFC 5892 Appendix A.1–A.2 (CONTEXTJ): a ZWNJ or ZWJ stands in a label only after a virama (or, ZWNJ, in
      // Arabic joining context); after an ASCII character, a symbol or a space, at a label's start, no host holds it,
      // and the name starts past it, as past any other invisible character (`x\u200Dexample.org`: a `hidden-split`
      // `example.org`). Letters and marks of other scripts are let through (UTS #46 then checks the context).
      if ((cp === 0x200c || cp === 0x200d) && !(ds > 1 && isNonAsciiLetterOrMark(codePointBefore(text, ds - 1)))) break;
      ds -= cp > 0xffff ? 2 : 1;
      ascii = false;
    }
    // Deviation (UTS #58 §4.1): the reference scans back without limit; a name longer than DNS allows is no domain.
    if (d - ds > MAX_DOMAIN_LENGTH) return false;
  }
  // After a `\` the name is a backslash path's segment (`C:\inetpub\sites\test.example.com\`, pathSegmentBefore below)
  // or follows an escape written out (`"a\nexample.com"`, chars.ts isEscapeLetterAt): which, the text does not say,
  // and either way the name is not the run read (found in review: dropping the letter linked `est.example.com`).
  if (ds < d && isEscapeLetterAt(text, ds)) return false;
  // A terminal's control sequence before the name is not part of it (`\x1b[38;5;208mwww.example.org`).
  ds = afterControlSequence(text, ds, d);
  if (ds === d) return false; // `See .fr` — nothing before the TLD's dot
  // (After an `@` the name is an address's domain, whose `。` is a host dot: `john@例え。jp`; found in review.)
  if (!ascii && !(ds > 0 && text.charCodeAt(ds - 1) === AT)) {
    ds = afterSentenceStop(text, ds, d, tldEnd);
    if (ds > d) return false;
  }
  // Deviation (UTS #58 §4.1 step 3): text of a script written without spaces glued before the ASCII labels of a
  // domain is not part of it — `詳しくはexample.jp` links `example.jp`, `产生quota.user和quota.group文件`
  // `quota.group`; the reference scans back over it. (An all-ASCII domain has no such text: skipped, performance.)
  if (!ascii) ds = asciiAfterNoSpaceText(text, ds, d, true);
  // …and a symbol or emoji that starts the name glued to the rest of its first label is not the name's, whatever
  // script follows it (`👉例え.jp`, `©www.bücher.de`, the keycap `1️⃣example.com`; found in review); a label of
  // symbols alone stays (`☃.net`).
  if (!ascii) ds = afterLeadingSymbols(text, ds, d);
  // Stopped by the floor where the name goes on before it, or where it is the host of an address or a URL that began
  // before it: its start is not known (a segment cut in a long run, state.ts: `…www.ex` | `ample.com` is not
  // `ample.com`, nor `…john@` | `example.com` the name alone). Not at a change between ASCII and other text, where
  // a link may end and the next begin (`http://1.2.3.4网关.cn`: two links).
  if (ds === floor && ds > 0 && continuesName(text, ds)) return false;

  // Step 4: the labels.
  if (ascii && fastPaths) {
    // validLabels(text, ds, domainEnd), from what the back-scan saw: the labels before the dot at labelEnd, the
    // first label [ds, labelEnd), and the TLD [d + 1, tldEnd) (a trailing dot ends in an empty label: allowed).
    if (badLabel || ds === labelEnd || text.charCodeAt(ds) === HYPHEN || text.charCodeAt(labelEnd - 1) === HYPHEN) return false;
    if (text.charCodeAt(d + 1) === HYPHEN || text.charCodeAt(tldEnd - 1) === HYPHEN) return false;
  } else {
    const domainEnd = hasPort ? portStart(text, linkEnd) : linkEnd;
    if (!validLabels(text, ds, domainEnd)) return false;
  }

  // Step 5: an email address when `@` precedes the domain.
  if (ds > floor && text.charCodeAt(ds - 1) === AT) return emailAt(st, ds, tldEnd, linkEnd, wordGoesOn, ascii && plain === 1);
  if (!o.schemeless || wordGoesOn) return false;

  // Deviation (UTS #58 §4.1): a domain right after `://` belongs to that scheme. When the scheme was not linked
  // (`javascript://…`, `seehttp://…`, `ftp://` with a schemes option without ftp) the domain is not linked
  // alone with another scheme either; the reference links `example.com/x` in `ftp://example.com/x`. (The `://`
  // is read as left context, also before the floor: a segment of a long run may start inside it, state.ts.)
  if (
    ds >= 3 &&
    text.charCodeAt(ds - 1) === SLASH &&
    text.charCodeAt(ds - 2) === SLASH &&
    text.charCodeAt(ds - 3) === COLON
  ) {
    st.next = linkEnd;
    return false;
  }

  // UTS #58 §5: a name followed by `@` and a label is the local part of an email (`tim.one@comcast.net`, whose
  // `one` is a TLD), found at the domain's dot; it is not a link of its own.
  if (!hasPort && linkEnd === tldEnd && localPartGoesOn(st, tldEnd)) return false;

  st.beginCandidate();
  // The authority is the domain, with a trailing dot when a path follows (`example.com./x`), and no port.
  st.plainAuthority = ascii && plain === 1 && !hasPort;
  st.closer = closerBefore(text, ds);
  st.delimited = delimitedBefore(text, ds);
  st.start = ds; // terminate reads the link's start (quotes.ts angleBefore)
  // Step 7: Path, Query, Fragment.
  let e = terminate(st, linkEnd, 0);
  // BIND writes a query's name, type and class as `name/TYPE/CLASS` (`query 'example.com/NS/IN' denied`, `zone
  // transfer 'example.eu/AXFR/IN'`): that is no path, and the link is the name (found in review: 13 links of logs).
  if (e > linkEnd && !hasPort && linkEnd === tldEnd && isBindQueryPath(text, linkEnd, e)) e = linkEnd;
  if (e === linkEnd && !hasPort && linkEnd > tldEnd) {
    // A trailing dot is kept only when a Path, Query or Fragment follows.
    // Deviation (UTS #58 §4.1 step 7): the reference keeps it at the very end of the text; we drop it there too.
    e = tldEnd;
  }

  // Deviations (UTS #58 §4.1 step 3): a domain right after a `_` (underscoreBefore) or a single `/` or `\`
  // (pathSegmentBefore) is part of a longer name or path, not a host; so is an expression of code (codeExpression:
  // `$HOST.example.com`, `${event.data.name}`, `this.state.data`), one that starts with a version number
  // (versionNumberAt), and an IPv4 address masked with `x` under the TLD `xxx` (maskedAddressAt). What terminate()
  // took after it belongs to that name too: the search resumes at its end, so nothing inside it is linked on its own
  // (`foo_bar.example.com?next=example.org`) and no later trigger in it reads it again (linear time).
  if (
    underscoreBefore(st, ds, floor, e) ||
    hyphenatedBefore(text, ds, floor) ||
    pathSegmentBefore(text, ds, floor) ||
    codeExpression(text, ds, floor, d, tldEnd) ||
    percentEncodedBefore(text, ds) ||
    formatVerbAt(text, ds) ||
    versionNumberAt(text, ds, d, tldEnd) ||
    maskedAddressAt(text, ds, d, tldEnd)
  ) {
    st.next = e;
    return false;
  }

  // Deviation (UTS #58 §4.1), irilink's: a name between `<` and `>` in a List-Id field is a mailing list's identifier
  // (RFC 2919 §2, `list-label.list-id-namespace`), not a host: `List-Id: Discussion of EXMH <exmh-workers.example.org>`
  // (found in review: some 3,050 links of the mail corpus, `https://fork.xent.com` among them).
  if (e === tldEnd && ds > 0 && text.charCodeAt(ds - 1) === LESS_THAN && !st.outOfRoom(e) && text.charCodeAt(e) === GREATER_THAN && fieldBefore(text, ds - 1, LIST_ID, false, true)) {
    st.next = e;
    return false;
  }

  // P7: a bare two-label name ending in a file extension is a file name, also with nothing but a fragment or a query
  // after it (`errors.md#class-error`: a relative link to a document, not a host); one followed directly by `(`, or a
  // longer name so followed, is code. After a fragment or query the search resumes at its end, for the same reasons
  // as above (`run.sh?host=example.com`, `'x.md?'` × N).
  if (e <= linkEnd ? isFileNameOrCall(st, ds, d, tldEnd) : linkEnd === tldEnd && isFileNameBeforeFragment(st, ds, d, tldEnd)) {
    st.next = e <= linkEnd ? linkEnd : e;
    return false;
  }

  st.start = ds;
  st.stop = e;
  st.resume = e;
  st.kind = 'url';
  st.scheme = o.defaultScheme;
  st.schemeInferred = true;
  st.hostStart = ds;
  st.hostEnd = tldEnd;
  return true;
}

/**
 * Does an email's local part go on at `k`, the end of a schemeless domain's TLD: Link_Email characters up to an `@`
 * and a label? Then the domain is part of that local part, not a link (UTS #58 §5.2 scans the local part back from
 * the `@` over them): `tim.one@comcast.net`, `fallingrock.net%david@fallingrock.net` (the percent hack of mail
 * routing), `evilgerald.com!-list@evilgerald.com`, `SRS0=…=bag.python.org=None@bounce2.pobox.com` (RFC 5322 §3.4.1
 * atext). Not across `/` `?` `#`, which start the domain's path, query or fragment (`medium.com/@user` is a link).
 * Deviation (UTS #58 §5.2), beyond an `@` right after the TLD: the reference links the name, and then an address
 * whose local part starts after it (`%david@fallingrock.net`). Over the corpora 16 such addresses.
 */
function localPartGoesOn(st: ScanState, k: number): boolean {
  for (let i = k; i - k <= MAX_LOCAL_PART_LENGTH && !st.outOfRoom(i); ) {
    const cp = st.cpAt(i);
    if (cp === AT) return !st.outOfRoom(i + 1) && (isLabelChar(st.cpAt(i + 1)) || addressLiteralAt(st, i + 1));
    if (cp === SLASH || cp === QUESTION || cp === HASH || !isLinkEmail(cp) || isBidiControl(cp)) return false;
    i += cp > 0xffff ? 2 : 1;
  }
  return false;
}

/**
 * Does an address literal start at `i` (RFC 5321 §4.1.3: `[` and an IPv4 address or `IPv6:`)? A domain so written
 * follows a local part: `id <20020921012620.ZEUU464.rwcrmhc52.attbi.com@[24.61.113.164]>` (found in review: the
 * name in that local part was linked).
 */
function addressLiteralAt(st: ScanState, i: number): boolean {
  if (st.text.charCodeAt(i) !== LEFT_BRACKET || st.outOfRoom(i + 1)) return false;
  const c = st.text.charCodeAt(i + 1);
  return (c >= 0x30 && c <= 0x39) || ((c === 0x49 || c === 0x69) && !st.outOfRoom(i + 5) && equalsLowerCased(st.text, i + 1, i + 6, 'ipv6:'));
}

/** Is text[a, b) a TLD of the option's list (lower-cased; full-width ASCII folded, as UTS #46 maps it)? */
export function isTld(st: ScanState, a: number, b: number): boolean {
  if (b - a > st.opts.tldMaxLength) return false;
  const text = st.text;
  // ASCII labels (nearly every candidate: `com`, `0`, `txt`, `e`) are walked through a trie of the list, case
  // folded by number: no slice, no lower-casing, no hashing of a built string (performance; the same answer).
  const trie = st.tldTrie;
  if (trie !== null) {
    let node = 0;
    let i = a;
    for (; i < b; i++) {
      const c = text.charCodeAt(i);
      if (c >= 128) break; // non-ASCII (a U-label, full-width letters): the general path below
      const symbol = TRIE_SYMBOL[c]!;
      // -1: no listed TLD holds this character (tldTrieOf checked); 0: no listed TLD starts this way. Either
      // way an ASCII label is not listed, but `verm` may still go on as `vermögensberatung`: look for non-ASCII.
      node = symbol < 0 ? 0 : trie.next[node * TRIE_SYMBOLS + symbol]!;
      if (node === 0) {
        while (++i < b) if (text.charCodeAt(i) >= 128) break;
        if (i === b) return false;
        break;
      }
    }
    if (i === b) return trie.terminal[node] === 1;
  }
  let fold = false;
  let fullWidth = false;
  for (let i = a; i < b; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xff01 && c <= 0xff5e) fullWidth = true;
    else if ((c >= 0x41 && c <= 0x5a) || c >= 0x80) fold = true;
  }
  let key = text.slice(a, b);
  if (fullWidth) key = key.replace(/[\uff01-\uff5e]/g, (ch) => String.fromCharCode(ch.charCodeAt(0) - 0xfee0));
  return st.opts.tlds.has(fold || fullWidth ? key.toLowerCase() : key);
}

/**
 * If text[a, b) is an ASCII TLD followed by a letter of a script written without spaces (Han, kana, Thai, …), or by a
 * character a label may hold that is no letter, mark or digit (an emoji, `™`, `★`, `・`: `john@example.com😀`;
 * found in review), or by hyphens that end the label, the end of the ASCII TLD; otherwise −1. (A letter of a script
 * written with spaces runs on: `.comé` is no TLD, nor is `.com-or`.)
 */
export function asciiTldBeforeGluedText(st: ScanState, a: number, b: number): number {
  const text = st.text;
  let p = a;
  while (p < b && text.charCodeAt(p) < 128) p++;
  if (p === a) return -1;
  if (p === b) {
    // A rule of hyphens glued to the TLD (`walter@example.com-----`, 8 links of the corpora): no label ends in `-`
    // (RFC 5891 §4.2.3.1), so they are not the label's; the TLD ends before them (found in review).
    let h = b;
    while (h > a && text.charCodeAt(h - 1) === HYPHEN) h--;
    return h < b && h > a && isTld(st, a, h) ? h : -1;
  }
  const cp = codePointAt(text, p);
  if (!isNoSpaceScriptLetter(cp) && (isLetter(cp) || isMark(cp) || isNumber(cp))) return -1;
  return isTld(st, a, p) ? p : -1;
}

/**
 * Where a schemeless domain [ds, …) with its TLD at [d + 1, tldEnd) starts once sentence ends are taken out:
 * after the last ideographic or full-width full stop (`。` `｡` `．`) that follows a letter of a script written
 * without spaces, or an ASCII word glued to such a letter, when the TLD is ASCII. d + 1 when that stop is the
 * TLD's own dot: no domain at all.
 *
 *     にも影響を与えます。man      使用します。Windows      克。PS        (no link)
 *     我用的是Mac。It          从A到Z。at                              (no link: the word is glued to the sentence)
 *     です。example.com       → example.com
 *     普遍适用测试。我爱你       例え。テスト      ｅｘａｍｐｌｅ．ｃｏｍ     (unchanged: the TLD is not ASCII)
 *     访问 google。com                                               (unchanged: the word stands alone)
 *
 * Deviation (UTS #58 §4.1 step 3; UTS #46 maps `。` `｡` `．` to `.`): the reference scans back across these
 * stops as label separators, so a Japanese or Chinese sentence glued to the next English word (`Windows`, `man`,
 * `PS` are TLDs) became a domain. In that text the stop ends a sentence; an IDN written with `。` under an ASCII
 * TLD is rare, and one written with `.` (`例え.jp`) or after a scheme (`http://例え。jp`) is still linked.
 */
function afterSentenceStop(text: string, ds: number, d: number, tldEnd: number): number {
  if (!isAscii(text, d + 1, tldEnd)) return ds;
  for (let q = d; q > ds; q--) {
    const c = text.charCodeAt(q);
    if ((c === 0x3002 || c === 0xff0e || c === 0xff61) && endsSentence(text, ds, q)) return q + 1;
  }
  return ds;
}

/** Is text[a, b) ASCII? */
function isAscii(text: string, a: number, b: number): boolean {
  for (let i = a; i < b; i++) if (text.charCodeAt(i) >= 128) return false;
  return true;
}

/** Does text[ds, q) end in a letter of a script written without spaces, or in an ASCII word glued to one? */
function endsSentence(text: string, ds: number, q: number): boolean {
  let r = q;
  while (r > ds) {
    const c = text.charCodeAt(r - 1);
    if (c >= 128 || c === DOT) break;
    r--;
  }
  return r > ds && isNoSpaceScriptLetter(codePointBefore(text, r));
}

/**
 * `:port` at `i`: returns the index after the digits, `i` when there is no port (no `:`, or `:` without a digit),
 * or −1 when the digits are not a port (more than 5, or above 65535) or the segment's cut may split them, which
 * rejects the candidate (NOTES §4.1 step 2).
 */
export function scanPort(st: ScanState, i: number): number {
  const text = st.text;
  if (st.outOfRoom(i) || text.charCodeAt(i) !== COLON) return i;
  let q = i + 1;
  let value = 0;
  while (!st.outOfRoom(q)) {
    const c = text.charCodeAt(q);
    if (c < 0x30 || c > 0x39) break;
    value = value * 10 + (c - 0x30);
    q++;
    if (q - i - 1 > 5) return -1;
  }
  // A port the segment's cut splits (state.ts), or cuts off right after its colon, is not known: no link (url.ts
  // authorityForm says why).
  if (st.cutAt(q) && text.charCodeAt(q) >= 0x30 && text.charCodeAt(q) <= 0x39) return -1;
  if (q === i + 1) return i;
  return value > 0xffff ? -1 : q;
}

function portStart(text: string, portEnd: number): number {
  let i = portEnd;
  while (text.charCodeAt(i - 1) !== COLON) i--;
  return i - 1;
}

/**
 * NOTES §4.1 step 4 ("just a very simple check" in the reference): split on the host dots; no empty label
 * except a final one (a trailing dot), no label starting or ending with `-`.
 */
export function validLabels(text: string, a: number, b: number): boolean {
  if (a >= b) return false;
  let labelStart = a;
  for (let i = a; i <= b; i++) {
    if (i < b && !isHostDot(text.charCodeAt(i))) continue;
    if (i === labelStart) {
      if (i < b) return false; // empty label before a dot
    } else if (text.charCodeAt(labelStart) === 0x2d || text.charCodeAt(i - 1) === 0x2d) {
      return false;
    }
    labelStart = i + 1;
  }
  return true;
}

/** P7: the TLDs under which a bare two-label name is a file name or a member of an object in code (tlds.ts). */
const P7_TLDS: ReadonlySet<string> = new Set([...FILE_EXTENSION_TLDS, ...MEMBER_NAME_TLDS]);

/**
 * P7: two labels, the first not `www`, and either the TLD a common file extension (`README.md`, `setup.py`) or a
 * member name in code (`user.name`, `os.open`), or a `(` right after the TLD: a call or a man page section
 * (`iter.next()`, `Date.now()`, `systemd.network(5)`), unless the TLD is one of RFC 1591's seven generic ones,
 * whose names are hosts there (`Amazon.com(NASDAQ)`, `baidu.com(百度)`; `by web.de(Exim 4.70)` in a `Received:`
 * header has a ccTLD and is not linked). The `(` rule holds for longer names too, but for one that starts with
 * `www.`: `Object.prototype.toString.call(obj)`, `this.hooks.accelerate.call(x)`, `self.periph.read()`,
 * `datetime.datetime.now()`.
 * (irilink's extension of DESIGN.md P7: over the corpora 4,056 bare two-label names were followed by `(`; every
 * `.com(` `.net(` `.org(` `.edu(` `.gov(` was a host, nearly every other one code. Of 185 longer names, the 35 under a
 * generic TLD were hosts and stay, and of the other 150 two were hosts, both in `Received:` headers:
 * `mail.brasilink.com.br([217.59.109.245])`, which a generic label under the TLD keeps, and
 * `relay01.isec.aib.ie(10.8.2.3)`.)
 */
function isFileNameOrCall(st: ScanState, ds: number, d: number, tldEnd: number): boolean {
  const text = st.text;
  // (atDot read text[tldEnd] already: no INCOMPLETE from here.)
  const call = !st.outOfRoom(tldEnd) && text.charCodeAt(tldEnd) === LEFT_PAREN;
  const bare = isBareName(text, ds, d);
  // The TLD lower-cased once, for the lists below (performance: one string, then set lookups).
  const tld = lowerCased(text, d + 1, tldEnd);
  if (!bare && isReverseDomainName(text, ds, d, tld)) return true;
  if (!bare && d - ds > 4 && equalsLowerCased(text, ds, ds + 4, 'www.')) return false;
  if (bare) {
    if (P7_TLDS.has(tld)) return true;
    if (isFileOrSelector(text, ds, d, tld) || isAppBundle(text, ds, d, tldEnd)) return true;
  } else if (hasHostDot(text, ds, d) && (isLongerFileName(text, ds, d, tld) || MEMBER_CHAIN_TLDS.has(tld))) {
    return true; // (not `www.foo`, a two-label name)
  }
  if (RFC1591_GENERIC_TLDS.has(tld)) return false;
  // The case of the TLD, for a longer name too (`System.Web.Security`, `ChannelMessage.Read.Group`, `P.S.Free`,
  // `android.permission.CAMERA`: some 130 links of the corpora, none a host; found in review).
  if (isCodeCase(text, d, tldEnd) || isConstantCase(text, ds, d, tldEnd)) return true;
  if (bare && isShoutedOrHex(text, ds, d, tldEnd, tld)) return true;
  if (bare || !call) return call;
  // A longer name: also a generic label right under the TLD (`mail.brasilink.com.br(…)`) makes a host.
  let sld = d;
  while (sld > ds && !isHostDot(text.charCodeAt(sld - 1))) sld--;
  return !isGenericTld(text, sld, d);
}

/**
 * P7's member names (and `map`, `pid`, `target`, which are file extensions as a bare name's TLD) that end a longer
 * name as well: there it is a chain of members in code or a configuration key (`error.response.data`,
 * `Array.prototype.map`, `tools.exec.host`, `lxc.net.0.link`, `memory.oom.group`). Not `name`, under which people have
 * their own third-level hosts (`monica.smith.name`), nor `store`, under which a shop may have a second label. A name of
 * three labels or more (not `www.…`, no path) that ends in one is P7's (irilink's extension): over the corpora 203 links
 * of 66 names, none a host (two are newsgroups: `comp.sys.next`; found in review).
 */
const MEMBER_CHAIN_TLDS: ReadonlySet<string> = new Set([...MEMBER_NAME_TLDS, 'map', 'pid', 'target'].filter((t) => t !== 'name' && t !== 'store' && t !== 'id'));

/** File types of which `.in` templates are made (isLongerFileName): `config.h.in`, `Makefile.pre.in`. */
const TEMPLATE_SOURCES: ReadonlySet<string> = new Set(['h', 'mak', 'spec', 'pre', 'py', 'sh', 'pc', 'cfg', 'conf', 'xml', 'json', 'service', 'desktop', 'cmake', 'txt']);

/** File types that come before another extension in a file's name: `x.js.map`, `x.doc.zip`, `x.abi3.so`. */
const INNER_EXTENSIONS: ReadonlySet<string> = new Set(['js', 'css', 'min', 'doc', 'dsym', 'abi3', 'config', 'font', 'coffee', 'tar']);

/**
 * P7 (irilink's extension), of a name of three labels or more (not `www.…`, no path) whose TLD is a common file
 * extension: is it a file name, by the label right under the TLD? A version number (`libc-2.2.5.so`,
 * `Mail-SpamAssassin-2.40.zip`), a locale (`README.zh-CN.md`, `development.en-US.md`) or another file type
 * (`babel.min.js.map`, `Resume.doc.zip`, `mymodule.abi3.so`). Over the corpora 309 links of 49 such names, none
 * a host; the hosts under these TLDs have a name there (`web.tb.tf`, `sigob2.rla2000.org.py`). Found in review.
 * Also a template under `in` (autoconf's and make's `.in`): a name whose label under it is a file type that such
 * templates are made of (`config.h.in`, `config.mak.in`, `git.spec.in`, `Makefile.pre.in`; 56 links of the corpora,
 * none a host: the hosts under `in` have `co`, `net`, `ac`, `org`, `nic` or a name there).
 */
function isLongerFileName(text: string, ds: number, d: number, tld: string): boolean {
  if (tld === 'in') {
    let sld = d;
    while (sld > ds && !isHostDot(text.charCodeAt(sld - 1))) sld--;
    return sld < d && TEMPLATE_SOURCES.has(lowerCased(text, sld, d));
  }
  if (!FILE_EXTENSION_TLDS.has(tld)) return false;
  let sld = d;
  while (sld > ds && !isHostDot(text.charCodeAt(sld - 1))) sld--;
  if (sld === d) return false;
  let digits = true;
  for (let i = sld; i < d; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x30 || c > 0x39) digits = false;
  }
  if (digits) return true;
  return INNER_EXTENSIONS.has(lowerCased(text, sld, d)) || isLocaleTag(text, sld, d);
}

/** A BCP 47 language and region or script, as files carry them: `zh-CN`, `en_US`, `pt-BR`, `zh-Hans`. */
function isLocaleTag(text: string, a: number, b: number): boolean {
  const lower = (c: number): boolean => c >= 0x61 && c <= 0x7a;
  const upper = (c: number): boolean => c >= 0x41 && c <= 0x5a;
  let i = a;
  while (i < b && lower(text.charCodeAt(i))) i++;
  if (i - a < 2 || i - a > 3 || i === b) return false;
  const sep = text.charCodeAt(i);
  if (sep !== 0x2d && sep !== 0x5f) return false;
  const rest = b - i - 1;
  if (rest === 2) return upper(text.charCodeAt(i + 1)) && upper(text.charCodeAt(i + 2));
  if (rest !== 4 || !upper(text.charCodeAt(i + 1))) return false;
  for (let k = i + 2; k < b; k++) if (!lower(text.charCodeAt(k))) return false;
  return true;
}

/**
 * P7 (irilink's extension): is the bare two-label name text[ds, tldEnd) a macOS application bundle, a capitalised name
 * and `.app` (`Messages.app`, `Postgres.app`, `LibreOffice.app`)? Over the corpora 85 links of 13 such names, none a
 * host; the hosts under `.app` there are written in small letters (`bluebubbles.app`), and stay. Found in review.
 */
function isAppBundle(text: string, ds: number, d: number, tldEnd: number): boolean {
  const first = text.charCodeAt(ds);
  return tldEnd - d === 4 && first >= 0x41 && first <= 0x5a && text.startsWith('app', d + 1);
}

/**
 * P7: is the bare two-label name text[ds, d) `.` tld (its TLD lower-cased) a build file's (`Makefile.in`), a syslog
 * selector (`kern.info`) or `et.al`?
 */
function isFileOrSelector(text: string, ds: number, d: number, tld: string): boolean {
  const first = lowerCased(text, ds, d);
  if (FILE_BASENAMES.has(first)) return true;
  // Latin's `et al.` written without its space (`Smith et.al. 2019`: 10 links of the corpora, all citations).
  if (first === 'et' && tld === 'al') return true;
  return tld === 'info' && SYSLOG_FACILITIES.has(first);
}

/**
 * P7 (irilink's extension), of a name of three labels or more without a path: is it a reverse domain name, an
 * identifier in code (Java and Android packages, D-Bus interfaces, Apple's type identifiers: `com.example.app`,
 * `com.sun.star.beans.Property`, `org.freedesktop.DBus.Properties`)? Its first label is one of RFC 1591's generic
 * seven, and its TLD is neither one of them nor two letters (a host so named keeps a TLD of that kind:
 * `edu.tencent.com`, `org.gnu.de`, `net.lut.ac.uk` in the corpora). Over the corpora 107 links of 15 names, all
 * identifiers. UTS #58's reference links them: a deviation.
 */
function isReverseDomainName(text: string, ds: number, d: number, tld: string): boolean {
  // (A number after a colon is a line number here, as in a log's `com.example.demo.App:23`, not a port.)
  if (tld.length <= 2 || RFC1591_GENERIC_TLDS.has(tld)) return false;
  let first = ds;
  while (first < d && !isHostDot(text.charCodeAt(first))) first++;
  return first < d && isGenericTld(text, ds, first);
}

/** Is the label that starts at `k` (up to the next character that is not a label's) a TLD? */
function labelIsTld(st: ScanState, k: number): boolean {
  let m = k;
  while (!st.outOfRoom(m)) {
    const cp = st.cpAt(m);
    if (!isLabelChar(cp)) break;
    m += cp > 0xffff ? 2 : 1;
    if (m - k > 63) return false;
  }
  return m > k && isTld(st, k, m);
}

/** Does text[a, b) hold a host dot? */
function hasHostDot(text: string, a: number, b: number): boolean {
  for (let i = a; i < b; i++) if (isHostDot(text.charCodeAt(i))) return true;
  return false;
}

/** Is text[a, e) `/TYPE/CLASS`: a DNS record type (capitals and digits) and class (`IN`, `CH`, `HS`, `ANY`)? */
function isBindQueryPath(text: string, a: number, e: number): boolean {
  if (e - a > 16 || text.charCodeAt(a) !== SLASH) return false;
  let i = a + 1;
  while (i < e && ((text.charCodeAt(i) >= 0x41 && text.charCodeAt(i) <= 0x5a) || (text.charCodeAt(i) >= 0x30 && text.charCodeAt(i) <= 0x39))) i++;
  if (i === a + 1 || i >= e || text.charCodeAt(i) !== SLASH) return false;
  const cls = text.slice(i + 1, e);
  return cls === 'IN' || cls === 'CH' || cls === 'HS' || cls === 'ANY';
}

/** Is text[ds, d) a single label other than `www` (P7's two-label names)? */
function isBareName(text: string, ds: number, d: number): boolean {
  for (let i = ds; i < d; i++) if (isHostDot(text.charCodeAt(i))) return false;
  return !(d - ds === 3 && equalsLowerCased(text, ds, d, 'www'));
}

/**
 * P7: a two-label name whose TLD is a file extension (or a member name), followed directly by `#` or `?` (which
 * terminate() read: the link goes on past tldEnd): `errors.md#class-error`, `CHANGELOG.md#v2`, `run.sh?x`,
 * `options.name?.length`. Over the corpora 1,061 such names with a file extension, all relative links to documents
 * (Node.js and other API docs), none a host.
 */
function isFileNameBeforeFragment(st: ScanState, ds: number, d: number, tldEnd: number): boolean {
  const text = st.text;
  const c = text.charCodeAt(tldEnd);
  if ((c !== HASH && c !== QUESTION) || !isBareName(text, ds, d)) return false;
  return P7_TLDS.has(lowerCased(text, d + 1, tldEnd));
}

/**
 * P7, of a bare name whose TLD is text[d + 1, tldEnd) (two labels, or more but for `www.…`): is the TLD in mixed
 * case, holding both a capital and a small letter (`Radio.Group`, `vProp.Name`, `R.Hughes`, `reply.You`,
 * `REPLServer.onLine`, `HM.cK`, `System.Web.Security`, `P.S.Free`: a member, an initial, a sentence glued to the next,
 * a fragment of base64)? UTS #58's reference matches only an all-lower or all-upper TLD (NOTES §4.1 step 2), so it
 * never links these; irilink matches TLDs in any case (`example.Com`, tlds.ts), and here, for bare names, follows the
 * reference. RFC 1591's generic seven stay links (`Example.Com`; the caller checks those), and so does a TLD in
 * capitals (`Socket.IO`, `Last.FM`, `Twitch.TV`; but see isConstantCase). Over the corpora about 20 of the names this
 * rule leaves unlinked were hosts (`Libera.Chat`, `Pravda.Ru`).
 */
function isCodeCase(text: string, d: number, tldEnd: number): boolean {
  let upper = false;
  let lower = false;
  for (let i = d + 1; i < tldEnd; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x41 && c <= 0x5a) upper = true;
    else if (c >= 0x61 && c <= 0x7a) lower = true;
  }
  return upper && lower;
}

/**
 * P7, of a two-label name text[ds, tldEnd) whose TLD is not one of the generic seven (the caller checks those): is it
 * all in capitals, a number, two hex bytes or a register, or with a TLD of more than two letters delegated since 2012? Then it is a sentence glued to the next
 * in a shouted mail (`PURPOSE.BEST REGARDS`, `TAKE.YOU`, `CURRENCIES.BUY`, `DR.WALTER`, `1.TO PROVIDE`), a hex byte pair
 * (`C3.AF`) or a register's field (`CR0.PG`, `DR7.GD`): 48 names of the corpora, not one a host (found in review).
 * Two capitals after a name of letters stay links (`Z.AI`, `WEB.DE`: hosts; `PSTATE.ZA`, `READ.ME`: not, but no rule
 * of spelling tells them apart), and so do hosts with more labels (`NS2.NIC.FR`, `MIRAFLORES.GOB.PE` in `Received:`
 * headers) or a generic TLD (`AMAZON.COM`). (UTS #58's reference links them all: a deviation, as isConstantCase.)
 */
function isShoutedOrHex(text: string, ds: number, d: number, tldEnd: number, tld: string): boolean {
  let digit = false;
  for (let i = ds; i < tldEnd; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x30 && c <= 0x39) digit = true;
    else if ((c < 0x41 || c > 0x5a) && i !== d) return false;
  }
  // With a digit: a number (`1.TO`), two hex bytes (`C3.AF`) or a register (`CR0.PG`); not a brand (`3M.DE`, found in
  // review).
  if (digit) {
    const first = text.slice(ds, d);
    return /^[0-9]+$/.test(first) || /^[A-Z]{1,3}[0-9]$/.test(first) || (/^[0-9A-F]{2}$/.test(first) && /^[0-9A-F]{2}$/.test(text.slice(d + 1, tldEnd)));
  }
  if (tldEnd - d - 1 <= 2) return false;
  return !EARLY_GTLDS.has(tld);
}

/** The generic TLDs delegated before 2012 besides RFC 1591's seven: hosts written in capitals (`EXAMPLE.INFO`). */
const EARLY_GTLDS: ReadonlySet<string> = new Set(['info', 'biz', 'name', 'pro', 'aero', 'coop', 'museum', 'mobi', 'asia', 'jobs', 'travel', 'tel', 'cat', 'post', 'xxx']);

/**
 * P7, of a bare name text[ds, tldEnd) whose TLD is not one of the generic seven (the caller checks those):
 * is the TLD a word in capitals after a name that is not (a small letter in it)? In code that is a constant or an enum
 * member (`Color.RED`, `logging.INFO`, `Shape.CIRCLE`, `Request.POST`), and `PL` a Perl build file (`Makefile.PL`,
 * `Build.PL`). A two-letter TLD in capitals stays a link (`Socket.IO`, `Last.FM`, `amazon.DE`) except after a name
 * of one small letter, where it is a product's name (`i.MX`, NXP's processors: 105 links of the corpora); so does a
 * TLD that is not a word (`abc.XN--11B4C3D`, UTS #58's conformance file). UTS #58's reference links all of them (an
 * all-upper TLD matches, NOTES §4.1 step 2): a deviation. Over the corpora it leaves 315 links of 27 names unlinked,
 * every one code or a file name, besides `i.MX`.
 */
function isConstantCase(text: string, ds: number, d: number, tldEnd: number): boolean {
  const length = tldEnd - d - 1;
  if (length < 2) return false;
  for (let i = d + 1; i < tldEnd; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x41 || c > 0x5a) return false;
  }
  // Two letters: `PL`, or after a name of one small letter, a product's name (`i.MX`, NXP's processors).
  if (length === 2) {
    const perl = text.charCodeAt(d + 1) === 0x50 && text.charCodeAt(d + 2) === 0x4c;
    const c = text.charCodeAt(ds);
    if (!perl) return d - ds === 1 && c >= 0x61 && c <= 0x7a;
  }
  for (let i = ds; i < d; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x61 && c <= 0x7a) return true;
  }
  return false;
}

/**
 * Is the schemeless name text[ds, tldEnd), whose TLD follows the dot at `d`, an expression of code rather than a host?
 * - Right after a `$`, the expansion of a shell or template variable (`$HOST.example.com`,
 *   `https://$HOST.example.com/x`, `$1.new`), or right after the opener of a template or JSX expression, `${`, `{{`
 *   or `={` (`${event.data.name}`, `{{row.name}}`, `style={styles.menu}`).
 * - Led by the receiver of a method or field, `this.` or `self.` (JavaScript, Python, Rust: `this.state.data`,
 *   `self.name`), unless its TLD is one of RFC 1591's generic seven, as for P7's calls (`self.com` is a host).
 * (irilink's extension of DESIGN.md P7. Over the corpora, before these two rules, 239 linked names were led by `this.`
 * or `self.` and 165 came right after `${` or `{{`, none under a generic TLD and every one read was code; `={` took
 * JSX attributes only.) Reads text[max(floor, ds − 2), ds + 5) at most.
 */
function codeExpression(text: string, ds: number, floor: number, d: number, tldEnd: number): boolean {
  if (ds > floor) {
    const before = text.charCodeAt(ds - 1);
    if (before === DOLLAR) return true;
    if (before === LEFT_BRACE && ds - 2 >= floor) {
      const opener = text.charCodeAt(ds - 2);
      if (opener === DOLLAR || opener === LEFT_BRACE || opener === EQUALS) return true;
    }
  }
  return d - ds >= 4 && (text.startsWith('this.', ds) || text.startsWith('self.', ds)) && !isGenericTld(text, d + 1, tldEnd);
}

const RFC1591_GENERIC_TLDS: ReadonlySet<string> = new Set(['com', 'net', 'org', 'edu', 'gov', 'mil', 'int']);

/** Is text[a, b) one of RFC 1591's generic TLDs (any case)? */
function isGenericTld(text: string, a: number, b: number): boolean {
  return b - a === 3 && RFC1591_GENERIC_TLDS.has(lowerCased(text, a, b));
}

/**
 * Is the `_` right before a schemeless domain text[ds, e) part of a longer name: an identifier or a file name that
 * runs on to the left (a letter or digit, at most one more `_`: `pam_unix.so`, `mod_cache.so`, `start_erl.data`,
 * `имя_сервера.пример.рф`), or an underscored DNS name (RFC 8552: `_dmarc.example.com`, `_sips._tcp.example.com`,
 * `_acme-challenge.example.com`)? `_` is no host character, so the domain's back-scan stops at it and would link the
 * part after it (`unix.so`, `dmarc.example.com`): another name than the one written. Markdown emphasis stays a link:
 * a `_` run without a letter or digit before it, closed right after the link (`_example.com_`, `__example.com__`) or
 * after sentence punctuation by a `_` no letter or digit follows (`_example.com!_`; not `_spf.example.com,_dmarc`),
 * or nested in `*` emphasis closed at the link's end (`*_example.com/a_*`). Deviation (UTS #58 §4.1 step 3), as the
 * `_` after a TLD above: the reference links the part after the `_`. Over the corpora such a `_` closed right after
 * the link was emphasis (5 times), and one not closed there an underscored name (173). An email's `_` belongs to its
 * local part and never comes here. Reads text[floor, e + 4] at most.
 */
function underscoreBefore(st: ScanState, ds: number, floor: number, e: number): boolean {
  const text = st.text;
  let i = ds - 1;
  if (i < floor || text.charCodeAt(i) !== UNDERSCORE) return false;
  if (i > floor && text.charCodeAt(i - 1) === UNDERSCORE) i--;
  if (i > floor && isLetterOrDigit(codePointBefore(text, i))) return true;
  if (text.charCodeAt(e - 1) === UNDERSCORE || (!st.outOfRoom(e) && text.charCodeAt(e) === UNDERSCORE)) return false;
  // Nested in `*` emphasis, closed in reverse order at the link's end (`*_example.com/a_*`, quotes.ts withoutEmphasis).
  const outer = markRunBefore(text, i, STAR, floor);
  if (outer > 0 && closesAtEnd(st, ds, ds - i + outer, e)) return false;
  const r = afterSentencePunctuation(st, e);
  if (r === e || st.outOfRoom(r) || text.charCodeAt(r) !== UNDERSCORE) return true;
  return !st.outOfRoom(r + 1) && isLetterOrDigit(st.cpAt(r + 1));
}

/**
 * Is the schemeless domain starting at `ds` the rest of a word hyphenated with U+2010 HYPHEN or U+2011 NON-BREAKING
 * HYPHEN, a letter or digit right before it (`my‐site.com`, as a word processor writes `my-site.com`)? Such a hyphen
 * is no host character (unicode isHostChar), so the back-scan stops at it and would link `site.com`,
 * another host than the one written. Unlike a dash between words (`visit—example.com`), it joins the word.
 * Deviation (UTS #58 §4.1 step 3): the reference takes the hyphen into the host (UTS #46 NV8). Reads text[floor, ds).
 */
function hyphenatedBefore(text: string, ds: number, floor: number): boolean {
  if (ds - 2 < floor) return false;
  const h = text.charCodeAt(ds - 1);
  if (h !== 0x2010 && h !== 0x2011) return false;
  return isLetterOrDigit(codePointBefore(text, ds - 1));
}

/**
 * Does a single `/`, or any `\`, come right before a schemeless domain starting at `ds` — a segment of a file path
 * (`/etc/letsencrypt/live/example.com/privkey.pem`, `docs/pipe.md`, `/var/www/example.com/index.html`,
 * `C:\DOS\COMMAND.COM`, `util\mkfiles.pl`), or the server of a Windows UNC path (`\\fileserver.corp.example.com\share`,
 * a file share, not a web site; found in review: it linked `https://fileserver.corp.example.com`), not a host to
 * link? `//` (a network-path reference, RFC 3986 §4.2) is no segment boundary of this kind, and `://` is decided in
 * atDot. Reads only text[floor, ds): a separator at the floor is taken as single.
 * Deviation (UTS #58 §4.1 step 3): `/` and `\` are no host characters, so the reference's back-scan stops there and
 * links the rest of the path as a domain. Over the corpora about 1,950 such links after `/`, nearly all file paths,
 * and 19 after `\`; lost: host names after an address in some mail `Received:` headers
 * (`network[192.0.2.7/host.example.net]`) and typed-wrong schemes (`https:/example.com`).
 */
function pathSegmentBefore(text: string, ds: number, floor: number): boolean {
  const c = ds > floor ? text.charCodeAt(ds - 1) : -1;
  if (c === BACKSLASH) return true;
  if (c !== SLASH) return false;
  return ds - 2 < floor || text.charCodeAt(ds - 2) !== c;
}

/**
 * Does the schemeless domain starting at `ds` begin with the two hex digits of a `%XX` that encodes an ASCII octet
 * (`mailto:press%40debian.org`, `?u=https%3A%2F%2Fexample.com`, `%25%36d%65gs.com` in an obfuscated URL), or a UTF-8
 * continuation octet right after another `%XX` (`https://%CF%80.example.com/`, a non-ASCII host percent-encoded)?
 * Then its first label is the tail of a percent-encoded octet, not a name: `40debian.org` and `80.example.com` are
 * other hosts than the one written.
 * Deviation (UTS #58 §4.1 step 3): `%` is no host character, so the reference's back-scan stops after it and links
 * the rest. Reads text[ds − 4, ds + 2) (left context as P4 reads it; the domain holds ds + 1).
 */
function percentEncodedBefore(text: string, ds: number): boolean {
  if (ds === 0 || text.charCodeAt(ds - 1) !== PERCENT) return false;
  const hi = hexValue(text.charCodeAt(ds));
  const lo = hexValue(text.charCodeAt(ds + 1));
  if (hi < 0 || lo < 0) return false;
  // An ASCII octet (`%00`–`%7F`). Other letters only look like hex digits: `joe%barrera.org` (the percent hack of
  // mail routing) and `%cambridge.redhat.com` (an AFS cell) stay links, their `%` after a letter or at the start.
  if (hi < 8) return true;
  return hi < 0xc && ds >= 4 && text.charCodeAt(ds - 4) === PERCENT && hexValue(text.charCodeAt(ds - 3)) >= 0 &&
    hexValue(text.charCodeAt(ds - 2)) >= 0;
}

/** The start of the name text[ds, d) past the symbols that start it (isSymbolLike), if a letter or digit follows them. */
function afterLeadingSymbols(text: string, ds: number, d: number): number {
  let i = ds;
  while (i < d) {
    const cp = text.codePointAt(i)!;
    if (!isSymbolLike(cp)) break;
    i += cp > 0xffff ? 2 : 1;
  }
  if (i === ds || i >= d) return ds;
  const cp = text.codePointAt(i)!;
  return cp < 128 ? ((ASCII_FLAGS[cp]! & (A_ALPHA | A_DIGIT)) !== 0 ? i : ds) : isLetter(cp) || isNumber(cp) ? i : ds;
}

/**
 * Does the schemeless domain starting at `ds` begin with the verb of a format string, a one-letter label right after
 * `%` or after `%(key)` (`fmt.Sprintf("https://%s.execute-api.…")`, `"https://%d.example.com"`,
 * `"https://%(host)s.example.com/x" % d`)? Then the host is the placeholder's value, not the name after it (found in
 * review: it linked `s.execute-api.…`, `d.example.com`). A longer label after `%` stays (`%cambridge.redhat.com`,
 * an AFS cell). Reads at most 34 units before `ds`.
 */
function formatVerbAt(text: string, ds: number): boolean {
  if (ds === 0 || text.charCodeAt(ds + 1) !== DOT || (ASCII_FLAGS[text.charCodeAt(ds)]! & A_ALPHA) === 0) return false;
  const before = text.charCodeAt(ds - 1);
  if (before === PERCENT) return true;
  if (before !== RIGHT_PAREN) return false;
  for (let i = ds - 2; i > 0 && ds - i <= 34; i--) {
    const c = text.charCodeAt(i);
    if (c === LEFT_PAREN) return text.charCodeAt(i - 1) === PERCENT && i < ds - 2;
    if (c >= 128 || (ASCII_FLAGS[c]! & (A_ALPHA | A_DIGIT)) === 0 && c !== 0x5f) return false;
  }
  return false;
}

/**
 * Does the schemeless domain whose TLD's dot is at `d` begin, at `ds`, with a version number `x.y.z-` — two labels
 * of digits and a label of digits followed by `-`, the rest of the name ASCII up to that dot — a version with a
 * suffix glued to a name (`2.0.9-sf.net` in `X-Mailman-Version: 2.0.9-sf.net`, Mailman 2.0.9 as SourceForge built
 * it; SemVer's `1.0.0-rc.1`, Debian's `2.4.21-27.el`)? A host name does not begin that way: reverse-DNS names have
 * one label of digits before such a label (`188.209-65-87.adsl-dyn.isp.belgacom.be`, a classless reverse zone's
 * `1.0-25.2.0.192.in-addr.arpa`), a dotted IPv4 address glued to a name has three (`10.0.0.1-router.example.com`,
 * `1.2.3.4-deploy.sslip.io`), and a SemVer pre-release is ASCII (`1.2.3-4.рф` is a host): they stay links.
 * Deviation (UTS #58 §4.1 step 4): the reference's label check takes the digits and `-` as a name. Over the corpora
 * only `2.0.9-sf.net` (984 times, mail headers) was linked this way. Reads text[ds, tldEnd).
 */
function versionNumberAt(text: string, ds: number, d: number, tldEnd: number): boolean {
  let i = ds;
  let digitLabels = 0;
  for (;;) {
    const start = i;
    while (i < d && text.charCodeAt(i) >= 0x30 && text.charCodeAt(i) <= 0x39) i++;
    if (i === start || i === d) return false;
    const c = text.charCodeAt(i);
    if (c === HYPHEN) break;
    if (c !== DOT) return false;
    digitLabels++;
    i++;
  }
  if (digitLabels !== 2) return false;
  // The rest of the name and its TLD are ASCII (SemVer §9: pre-release identifiers are [0-9A-Za-z-]).
  for (let k = i; k < tldEnd; k++) if (text.charCodeAt(k) >= 128) return false;
  return true;
}

/**
 * Deviation (UTS #58 §4.1 step 3), irilink's: an IPv4 address with its numbers masked, written as a name whose TLD is
 * `xxx` and whose every label is digits and `x` (`192.168.2.XXX`, `xxx.xxx.xxx.xxx`, `6X.XXX.XXX.XXX`): a redacted
 * address, not a host under the TLD `xxx` (37 links of en-mixed, found in review; irilink links no bare IPv4 address).
 */
function maskedAddressAt(text: string, ds: number, d: number, tldEnd: number): boolean {
  if (tldEnd - d !== 4 || d === ds) return false;
  for (let i = ds; i < tldEnd; i++) {
    const c = text.charCodeAt(i) | 0x20;
    if (c !== 0x78 && !(c >= 0x30 && c <= 0x39) && !(c === 0x2e && i > ds)) return false;
  }
  return equalsLowerCased(text, d + 1, tldEnd, 'xxx');
}

/**
 * After the `_` at `u`: at most one more, then an ASCII letter or digit — an identifier (`to_string`, `__init__`),
 * not the end of a name. A longer run is a rule line glued to the name (`a@example.com_______Send posts`).
 */
function identifierGoesOn(st: ScanState, u: number): boolean {
  const text = st.text;
  let i = u + 1;
  if (!st.outOfRoom(i) && text.charCodeAt(i) === UNDERSCORE) i++;
  if (st.outOfRoom(i)) return false;
  const c = text.charCodeAt(i);
  return c < 128 && (ASCII_FLAGS[c]! & (A_ALPHA | A_DIGIT)) !== 0;
}

/**
 * P8: the last label text[labelStart, k) of a host is a TLD with a listed scheme glued to it, and `://` follows
 * (`orghttp` before `://`). Returns where the scheme starts (the host's end), or −1.
 *
 *     http://www.debian.orghttp://www.debian.org/doc/
 *                    ^     ^ returned, k at the colon
 */
export function tldBeforeScheme(st: ScanState, labelStart: number, k: number): number {
  const text = st.text;
  if (st.outOfRoom(k) || text.charCodeAt(k) !== COLON) return -1;
  if (st.outOfRoom(k + 2) || text.charCodeAt(k + 1) !== SLASH || text.charCodeAt(k + 2) !== SLASH) return -1;
  for (const name of st.opts.schemeList) {
    const g = k - name.length;
    if (g - labelStart < 2 || !equalsLowerCased(text, g, k, name)) continue;
    if (isTld(st, labelStart, g)) return g;
  }
  return -1;
}

/**
 * Does a listed scheme (schemeList) and `://` start at `i`, or `mailto:` and a character (an address is found from its
 * domain, email.ts, and starts a link as a scheme does: `f.org.mailto:a@b.example`)? Reads within the segment.
 */
function listedSchemeAt(st: ScanState, i: number): boolean {
  const text = st.text;
  if (!st.outOfRoom(i + 7) && equalsLowerCased(text, i, i + 7, 'mailto:') && text.charCodeAt(i + 7) !== SLASH) return true;
  for (const name of st.opts.schemeList) {
    const k = i + name.length;
    if (st.outOfRoom(k + 2) || text.charCodeAt(k) !== COLON || text.charCodeAt(k + 1) !== SLASH || text.charCodeAt(k + 2) !== SLASH) continue;
    if (equalsLowerCased(text, i, k, name)) return true;
  }
  return false;
}

/** A letter or mark outside ASCII: what a ZWNJ or ZWJ in a host may follow (step 3's back-scan). */
function isNonAsciiLetterOrMark(cp: number): boolean {
  return cp >= 128 && (isLetter(cp) || isMark(cp));
}

/**
 * The character before `i` is a host character, or the `@`, `:` or `/` before a host, and it is ASCII as the character
 * at `i` is, or not ASCII as it is not: a name read back to `i` goes on.
 */
function continuesName(text: string, i: number): boolean {
  const c = text.charCodeAt(i - 1);
  if ((c < 128) !== (text.charCodeAt(i) < 128)) return false;
  if (c === AT || c === COLON || c === SLASH) return true;
  if (c < 128) return (ASCII_FLAGS[c]! & A_HOST) !== 0;
  const cp = codePointBefore(text, i);
  if (cp === 0x200c || cp === 0x200d) return i > 1 && isNonAsciiLetterOrMark(codePointBefore(text, i - 1)); // as step 3
  return isDomainChar(cp) && !isBarrier(cp);
}
