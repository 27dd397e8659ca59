// The finder: a cheap trigger search over the text (`.`, `。` and `:`), then each step scans outward from the
// trigger (domains.ts, email.ts, url.ts, terminate.ts, wrap.ts). Left to right, deterministic, linear: every
// back-scan and look-ahead is bounded by the current segment (state.ts), so a character is looked at a bounded
// number of times whatever the input.

import { badArgument } from '../errors.js';
import type { DiagnosticCode, Link } from '../types.js';
import { A_ALPHA, A_HARD, A_HOST, A_SCHEME, ASCII_FLAGS, ASCII_TERM, codePointBefore, INCLUDE, isBarrier, isHiddenJoiner, isHostDot, readAsOneName } from './chars.js';
import { makeLink } from './convert.js';
import { atDot } from './domains.js';
import { FIELD_CONTEXT } from './fields.js';
import { checkOptionsArgument, resolveOptions, type LinkOptions } from './options.js';
import { fastPaths, INCOMPLETE, ScanState } from './state.js';
import { TRIE_SYMBOL, TRIE_SYMBOLS, type TldTrie } from './tlds.js';
import { atColon, schemeBefore } from './url.js';
import { PRIMER_SAMPLES } from './primer.js';
import { closes, withoutEmphasis } from './quotes.js';
import { extendWrapped } from './wrap.js';

export { setScanFastPaths } from './state.js';

export interface ScanResult {
  links: Link[];
  /**
   * Spans shaped like a whole link that are deliberately not linked, in order, disjoint from the links and from
   * each other, with the reason (today: `userinfo`, an http(s) URL with `user@` before the host, which UTS #58's
   * conformance file leaves unlinked). Streams and linkify() report each as a text chunk with these diagnostics,
   * so that a renderer can say why it is not a link. Same `settled` rules as `links`.
   */
  unlinked: UnlinkedSpan[];
  settled: number;
  /**
   * Non-final scans only: where a rescan of the same text (plus more) from `settled` may pick up the trigger
   * search. Pass it back as scan()'s `resume` (shifted like `settled` when text before it is dropped): the
   * result is the same, without going through the triggers before `resume.at` again (a performance hint), and
   * after a link cut at maxLinkLength the next scan knows the rest of its run is no new text (`cutRun`).
   */
  resume?: ScanResume;
}

export interface UnlinkedSpan {
  start: number;
  end: number;
  diagnostics: DiagnosticCode[];
}

/**
 * The trigger search stopped at `at` (settled <= at): every trigger in [settled, at) was decided "no link"
 * from text it had complete, and `lowerLimit` is the back-scan limit those decisions left (a rejected email
 * domain raises it, email.ts). Nothing else carries over from one trigger to the next.
 */
export interface ScanResume {
  at: number;
  lowerLimit: number;
  /**
   * Present when the scan stopped in the rest of the run of a link it cut at maxLinkLength (`link-too-long`, at
   * === settled): that link's P6 closing quotation mark (a code point), or −1. No link starts before the run's next
   * barrier or that mark. Left context cannot show this: without it, the next scan reads the rest of the run as
   * new text and may link a part of the cut link (`&u=www.example.com/x`).
   */
  cutRun?: number;
}

export interface Scanner {
  /** Max number of UTF-16 units before `from` that scan() may read as left context. */
  readonly contextLength: number;
  /**
   * Detect links in text[from:], using text[0:from) only as left context (at least min(from, contextLength) units
   * of it are supplied by the caller). Returns every link that starts at or after `from` and before `settled`,
   * with start/end = index in text + base. `settled` (from <= settled <= text.length): the result for
   * [from, settled) is final — no link found later will start before settled, every link starting before it is
   * returned and ends at or before it. When final is true the text is complete and settled === text.length.
   * Chunking invariance: for any continuation U, with k = max(0, settled - contextLength) and R the returned
   * `resume` shifted by −k (at and lowerLimit), scan(text.slice(k) + U, settled - k, f, base + k, R) returns exactly
   * the links that scan(text + U, from, f, base) returns at or after settled. Without R it does too, except after
   * a link cut at maxLinkLength (R.cutRun present): then the rest of that link's run may be read as new text.
   * Bounded memory: when not final, text.length - settled < maxLinkLength + MAX_WRAPPED_LENGTH (2048), whatever
   * the input.
   * Linear rescans: `resume`, when given, must be the `resume` of the previous non-final scan of the same text
   * (plus more), whose `settled` is this `from`, shifted by the same amount. With it, a stream that pushes
   * small pieces into a long run without a barrier does not go through the run's triggers again on every push.
   */
  scan(text: string, from: number, final: boolean, base: number, resume?: ScanResume): ScanResult;
}

/**
 * Units of left context a scan reads before `from`: the character before a link (P1, P4, P6) and the `<URL:`
 * before a wrapped link (P3) need 8; what is glued before a link's start reaches further: a terminal's control
 * sequence (chars.ts afterControlSequence, isControlSequenceEnd: 32 parameter bytes, `[` and ESC, from the unit
 * before the start: 35) and an escape written out (escapeEndsAt: a `\` up to 26 back, then the run of backslashes
 * before it, up to 8). The header field of a message identifier or a list's sets the number (fields.ts
 * FIELD_CONTEXT: its name may stand a few lines before the `<`). A link's start may be `from`.
 */
export const CONTEXT_LENGTH = FIELD_CONTEXT;

const COLON = 0x3a;
const DOT = 0x2e;
const HYPHEN = 0x2d;
const SLASH = 0x2f;
const BACKSLASH = 0x5c;
const QUESTION = 0x3f;
const AT = 0x40;

class LinkScanner implements Scanner {
  readonly contextLength = CONTEXT_LENGTH;
  private readonly st: ScanState;
  /** The end (base + length) of the text counted for the primer so far; 0 after a final scan (a new text follows). */
  private counted = 0;

  constructor(options: LinkOptions | undefined) {
    this.st = new ScanState(resolveOptions(options));
  }

  scan(text: string, from: number, final: boolean, base: number, resume?: ScanResume): ScanResult {
    if (typeof text !== 'string') throw badArgument('scan', 'text', 'a string', text);
    if (!Number.isInteger(from) || from < 0 || from > text.length) {
      throw badArgument('scan', 'from', `an integer from 0 to text.length (${text.length})`, from);
    }
    if (typeof final !== 'boolean') throw badArgument('scan', 'final', 'a boolean', final);
    // (Offsets past 2^53 lose precision: a link's start and end came out equal.)
    if (!Number.isSafeInteger(base) || base < 0 || base + text.length > Number.MAX_SAFE_INTEGER) {
      throw badArgument('scan', 'base', 'a non-negative integer, base + text.length at most 2^53 − 1', base);
    }
    if (
      resume !== undefined &&
      !(
        resume !== null &&
        Number.isInteger(resume.at) &&
        resume.at >= from &&
        resume.at <= text.length &&
        Number.isInteger(resume.lowerLimit) &&
        (resume.cutRun === undefined || (Number.isInteger(resume.cutRun) && resume.cutRun >= -1 && resume.cutRun <= 0x10ffff))
      )
    ) {
      throw badArgument('scan', 'resume', 'the resume of the previous scan ({ at, lowerLimit, cutRun? }, from <= at <= text.length)', resume);
    }

    if (!primer.done) {
      // Each code unit once, though a stream scans its unfinished tail again with every write.
      const end = base + text.length;
      if (end > this.counted) countScanned(end - this.counted);
      this.counted = final ? 0 : Math.max(end, this.counted);
    }
    const st = this.st;
    st.reset(text, from, final);
    const links: Link[] = [];
    const unlinked: UnlinkedSpan[] = [];
    const n = text.length;
    // The segment state (st.segStart, st.cut) is exact at `known`; advance() brings it to a trigger.
    let known = from;
    let i = from;
    if (resume !== undefined && resume.cutRun !== undefined) {
      // The previous scan stopped in the rest of a cut link's run (at === from): it goes on here.
      i = cutRunEnd(text, from, resume.cutRun);
      if (i < 0) return inCutRun([], [], text, from, final, resume.cutRun);
      st.lowerLimit = i;
      st.newSegment(i);
      known = i;
    } else if (resume !== undefined) {
      // [from, resume.at) holds no barrier (the segment starts at `from`) and no trigger still to decide.
      known = resume.at;
      i = resume.at;
      if (resume.lowerLimit > st.lowerLimit) st.lowerLimit = resume.lowerLimit;
    }
    // The trigger being decided, and the back-scan limit before it: where a rescan may resume (ScanResume).
    let trigger = i;
    let triggerLimit = st.lowerLimit;
    // advance(): where a separator was last looked for (the positions up to it hold none the segment may start at),
    // and the position after the last trigger the steps decided (no segment starts before it).
    let searched = -1;
    let decided = i;
    const advance = (t: number): void => {
      // The last barrier in [known, t), found scanning back from t (words are short: this is cheap).
      let j = t;
      while (j > known) {
        const c = text.charCodeAt(j - 1);
        if (c < 128) {
          if ((ASCII_FLAGS[c]! & A_HARD) !== 0) break;
          j--;
          continue;
        }
        const cp = codePointBefore(text, j);
        if (isBarrier(cp)) break;
        j -= cp > 0xffff ? 2 : 1;
      }
      if (j > known) st.newSegment(j);
      // A long run without a barrier: the next segment starts at the first separator in the second half of this one,
      // else at the cut (state.ts says why). Not before `decided`: a trigger the steps decided in this segment (or
      // skipped past, st.next) must not be decided again in the next one; the fast paths' answers hold in any segment.
      while (t >= st.separatorFrom) {
        const to = t < st.cut ? t : st.cut;
        let p = st.separatorFrom > decided ? st.separatorFrom : decided;
        if (p <= searched) p = searched + 1;
        while (p <= to && !isSeparator(text.charCodeAt(p - 1))) p++;
        if (p <= to) {
          st.newSegment(p);
          continue;
        }
        searched = to;
        if (t < st.cut) break;
        st.newSegment(st.cut);
      }
      known = t;
    };
    // Trigger search: the next `.`, `:` and `。`, one String.prototype.indexOf per trigger of that kind. It skips
    // link-free text fast, and on text dense with dots it still costs less than reading the characters one by one
    // (measured on Node 20: a charCodeAt loop over the next 16 or 32 units before indexOf, or one /[.:。]/g for all
    // three, made the scan slower).
    let nextDot = indexOrEnd(text, '.', i);
    let nextColon = indexOrEnd(text, ':', i);
    let nextIdeo = indexOrEnd(text, '\u3002', i);
    let advancedTo = n;
    try {
      for (;;) {
        if (nextDot < i) nextDot = indexOrEnd(text, '.', i);
        if (nextColon < i) nextColon = indexOrEnd(text, ':', i);
        if (nextIdeo < i) nextIdeo = indexOrEnd(text, '\u3002', i);
        let t = nextDot;
        let colon = false;
        if (nextColon < t) {
          t = nextColon;
          colon = true;
        }
        if (nextIdeo < t) {
          t = nextIdeo;
          colon = false;
        }
        if (t >= n) break;
        if (!fastPaths || t === nextIdeo) {
          if (t + 2 < n && surelyNoLink(text, t)) {
            i = t + 1;
            continue;
          }
        } else if (colon) {
          // The colons of prose (`Note: see`) and of times and ratios (`12:30`, `1.5:1`).
          if ((t + 2 < n && surelyNoLink(text, t)) || colonSurelyNoScheme(text, t)) {
            i = t + 1;
            continue;
          }
          // Markup and other words before a colon (`stroke:none`, `xml:lang`): atColon's first steps find no
          // listed scheme. They read text[floor, t + 3) only; before advance(t), st.floor() may be lower than after
          // it, but only by a barrier or a separator (which no scheme crosses) as t < st.cut: the same answer.
          if (t + 2 < st.end && !(text.charCodeAt(t + 1) === SLASH && text.charCodeAt(t + 2) === SLASH) && schemeBefore(st, t, st.floor()) < 0) {
            i = t + 1;
            continue;
          }
        } else {
          // The dots of prose (`end. Next`, `e.g. this`, `3.5 GHz`, `v1.2`): see dotSurelyNoTld, which takes every
          // dot surelyNoLink takes when the room allows. Decided before advance() and its back-scan.
          const next = dotSurelyNoTld(text, t, st.end, st.tldTrie, st.opts.tldMaxLength);
          if (next > 0) {
            i = next;
            // `127.0.0.1`, `mail.example`: the label often ends at the next dot (no search needed for it).
            if (text.charCodeAt(next) === DOT) nextDot = next;
            continue;
          }
        }
        trigger = t;
        triggerLimit = st.lowerLimit;
        advance(t);
        const found = colon ? atColon(st, t) : atDot(st, t);
        if (!found) {
          i = st.next;
          decided = i;
          continue;
        }
        let e = withoutEmphasis(st, st.start, st.stop);
        if (!st.tooLong) {
          const w = extendWrapped(st, st.start, e);
          if (w !== e) {
            e = w;
            st.resume = w;
          }
        }
        if (st.unlinked) {
          const diagnostics: DiagnosticCode[] = st.tooLong ? ['userinfo', 'link-too-long'] : ['userinfo'];
          unlinked.push({ start: st.start + base, end: e + base, diagnostics });
        } else {
          const hidden = hiddenSplit(st, st.start, e); // before makeLink: it may need more text (INCOMPLETE)
          const link = makeLink(st, st.start, e, base);
          if (hidden) link.diagnostics.push('hidden-split');
          links.push(link);
        }
        i = st.resume;
        if (st.tooLong) {
          // The rest of the cut link's run is that link's, not new text: no link starts in it (cutRunEnd).
          i = cutRunEnd(text, i, st.closer);
          if (i < 0) return inCutRun(links, unlinked, text, from, final, st.closer);
        }
        decided = i;
        st.lowerLimit = i;
        st.newSegment(i);
        known = i;
      }
      if (!final) {
        // A high surrogate at the very end may still get its partner: it is not a barrier yet.
        const last = text.charCodeAt(n - 1);
        advancedTo = n > known && last >= 0xd800 && last <= 0xdbff ? n - 1 : n;
        advance(advancedTo);
      }
    } catch (err) {
      if (err !== INCOMPLETE) throw err;
      // The trigger being decided needs more text: a rescan starts with it (advance(trigger) put segStart <= it).
      return { links, unlinked, settled: st.segStart, resume: { at: trigger, lowerLimit: triggerLimit } };
    }
    if (final) return { links, unlinked, settled: n };
    // Every trigger before `i` is decided and none lies in [i, n); advance() found no barrier in
    // [segStart, advancedTo): the next scan may start both its trigger search and its barrier search there.
    return { links, unlinked, settled: st.segStart, resume: { at: advancedTo, lowerLimit: st.lowerLimit } };
  }
}

/** How far hiddenSplit looks through a run of invisible characters beyond each end of a link. */
const HIDDEN_RUN = 8;

/**
 * `hidden-split` (irilink's extension of DESIGN.md P1): is the link text[s, e) glued, through a run of invisible
 * characters (isHiddenJoiner: those UTS #46 maps to nothing, and ZWNJ/ZWJ), to a letter, digit or `-` a reader takes
 * for the same name (readAsOneName), or to a host dot and one? UTS #58 §4.1 ends a host at such a character, so the
 * name a reader sees is cut into links, and the one clicked may go to another host than the name shown:
 * `https://pay\u00ADpal.com/login` gives `https://pay` and `pal.com/login`, both flagged (a browser given the whole
 * URL maps it to `paypal.com`); `https://login.example\u00AD.paypal.com/` gives `https://login.example`, flagged. A
 * link written with its scheme is not flagged for what is glued before it (the scheme keeps its host apart).
 * Looks at most HIDDEN_RUN units beyond each end: before `s` within the left context a scan may read; after `e`,
 * INCOMPLETE while they have not come. A longer run of invisible characters is not looked through.
 */
function hiddenSplit(st: ScanState, s: number, e: number): boolean {
  const text = st.text;
  if (!st.outOfRoom(e) && text.charCodeAt(e) >= 0x80) {
    const limit = e + HIDDEN_RUN;
    let j = e;
    let wordSpace = true;
    while (j < limit && !st.outOfRoom(j)) {
      const h = st.cpAt(j);
      if (!isHiddenJoiner(h)) break;
      if (h !== 0x200b) wordSpace = false;
      j += h > 0xffff ? 2 : 1;
    }
    if (j > e && j < limit && !st.outOfRoom(j)) {
      let far = st.cpAt(j);
      if (isHostDot(far) && !st.outOfRoom(j + 1)) far = st.cpAt(j + 1);
      if (readAsOneName(codePointBefore(text, e), far, wordSpace)) return true;
    }
  }
  // Before a link written with its scheme, a name glued to it changes the scheme a reader sees (`x\u00ADhttps://…`
  // shows `xhttps://…`), not the host: the host shown is the host linked.
  if (st.schemeInferred && s > 0 && text.charCodeAt(s - 1) >= 0x80) {
    // codePointBefore(text, i) reads text[i − 2] at most: i > floor keeps it at s − HIDDEN_RUN or after.
    const floor = Math.max(0, s - HIDDEN_RUN + 1);
    let i = s;
    let wordSpace = true;
    while (i > floor) {
      const h = codePointBefore(text, i);
      if (!isHiddenJoiner(h)) break;
      if (h !== 0x200b) wordSpace = false;
      i -= h > 0xffff ? 2 : 1;
    }
    if (i < s && i > floor) {
      let far = codePointBefore(text, i);
      const k = i - (far > 0xffff ? 2 : 1);
      if (isHostDot(far) && k > floor) far = codePointBefore(text, k);
      if (readAsOneName(far, text.codePointAt(s)!, wordSpace)) return true;
    }
  }
  return false;
}

/**
 * Where the rest of the run of a link cut at maxLinkLength (`link-too-long`) ends: the first barrier (a Hard
 * character or a P1 bidi control) at or after `from`, or the link's P6 closing quotation mark `closer` (a code point,
 * −1: none); −1 when the text ends first (or with a high surrogate). Either would have ended the link whatever came
 * before it (UTS #58 §3.5, P6); up to there the text is the cut link's and no link starts in it (a query's
 * `&u=www.example.com/x` past the cut is not a link of its own).
 *
 *     https://example.com/…(maxLinkLength)…|…&u=www.example.com/x "https://example.org"
 *                                          ^cut                   ^returned
 */
function cutRunEnd(text: string, from: number, closer: number): number {
  const n = text.length;
  for (let j = from; j < n; ) {
    const c = text.charCodeAt(j);
    if (c < 128) {
      if ((ASCII_FLAGS[c]! & A_HARD) !== 0 || c === closer) return j;
      j++;
      continue;
    }
    if (closes(c, closer)) return j;
    if (j + 1 === n && c >= 0xd800 && c <= 0xdbff) return -1; // its character is not known yet
    const cp = text.codePointAt(j)!;
    if (isBarrier(cp)) return j;
    j += cp > 0xffff ? 2 : 1;
  }
  return -1;
}

/**
 * The result of a scan whose text ended in the rest of a cut link's run (cutRunEnd): all of it is settled, but for
 * a high surrogate at the end of a non-final text, whose character is not known yet (it could be a barrier).
 */
function inCutRun(links: Link[], unlinked: UnlinkedSpan[], text: string, from: number, final: boolean, closer: number): ScanResult {
  const n = text.length;
  if (final) return { links, unlinked, settled: n };
  const last = text.charCodeAt(n - 1);
  const at = n > from && last >= 0xd800 && last <= 0xdbff ? n - 1 : n;
  return { links, unlinked, settled: at, resume: { at, lowerLimit: at, cutRun: closer } };
}

/**
 * A separator ends every back-scan of a link's start: it is no host character, no character of an email's local
 * part (RFC 5322 atext, `.`) and no scheme character (RFC 3986 §3.1). A segment may start right after one
 * (state.ts): `{"a":"…","b":"www.example.com"}`, `f(x,y);g("https://example.com/")`.
 */
function isSeparator(c: number): boolean {
  return c === 0x2c || c === 0x3b || c === 0x22 || c === 0x28 || c === 0x29 || c === 0x3c || c === 0x3e || c === 0x5b || c === 0x5d;
}

/**
 * The common triggers of prose that no step would take, decided from the characters next to the trigger alone
 * (a handful of charCodeAt's; no segment state needed, since every answer here is "no link" whatever the segment):
 *
 *     end of a sentence. Next    Note: see    3.5 GHz   (the last goes on: `5` could start a TLD)
 *                      ^              ^
 *
 * - `.` / `。` followed by an ASCII character that cannot start a label (space, punctuation, another dot):
 *   atDot's step 1 finds an empty TLD label and returns false.
 * - `:` not preceded by an ASCII scheme character: atColon's back-scan finds no scheme and returns false.
 * - `:` followed by `/` and not `//` (but for `file:/`, url.ts localPath), or by ASCII other than `?` that
 *   opaqueForm refuses (non-Include, `:`, `@`): atColon returns false before schemeStart.
 * Requires t + 2 < text.length, so that nothing here is cut short by the end of a non-final chunk. (Performance:
 * the steps would give the same answer after advance() and a function call; en-mixed has ~25 000 triggers per MB.)
 */
export function surelyNoLink(text: string, t: number): boolean {
  const after = text.charCodeAt(t + 1);
  if (text.charCodeAt(t) !== COLON) {
    // UTS #58 §3.2 / NOTES §4.1 step 1: the label after the dot.
    return after < 128 && (after === DOT || (ASCII_FLAGS[after]! & A_HOST) === 0);
  }
  // RFC 3986 §3.1: a scheme ends right before the colon.
  if (t === 0) return true;
  const before = text.charCodeAt(t - 1);
  if (before >= 128 || (ASCII_FLAGS[before]! & A_SCHEME) === 0) {
    // `https\://` (a colon escaped in Java's .properties; url.ts schemeBefore)
    return before !== BACKSLASH || text.charCodeAt(t + 1) !== SLASH || text.charCodeAt(t + 2) !== SLASH;
  }
  if (after >= 128 || after === QUESTION) return false;
  if (after === SLASH) return text.charCodeAt(t + 2) !== SLASH && !fileBefore(text, t);
  if (after === BACKSLASH) return text.charCodeAt(t + 2) !== SLASH; // `:\/\/` in a JSON string (url.ts atColon)
  return ASCII_TERM[after] !== INCLUDE || after === COLON || after === AT;
}

/** Is `file` (any case) right before the colon at `t`? (`file:/etc/hosts`, url.ts localPath.) */
function fileBefore(text: string, t: number): boolean {
  return (
    t >= 4 &&
    (text.charCodeAt(t - 4) | 0x20) === 0x66 &&
    (text.charCodeAt(t - 3) | 0x20) === 0x69 &&
    (text.charCodeAt(t - 2) | 0x20) === 0x6c &&
    (text.charCodeAt(t - 1) | 0x20) === 0x65
  );
}

/**
 * UTS #58 §4.1 step 1 (NOTES §4.1), at a `.`: when the label after it is ASCII, ends at an ASCII character before
 * `limit`, and is not a TLD of the trie (or is empty, or longer than any TLD), atDot rejects the dot at its step 1
 * whatever the segment: its label scan reads no further than the label's end, and the cut of the segment the
 * trigger is in lies at or after `limit` = st.end before advance() (min(n, the current cut); cuts only move on).
 * Returns where the search resumes (the label's end, as atDot's st.next: no trigger inside), or −1 when atDot has
 * to decide (a TLD, a non-ASCII character, the end of the room, no trie, `://` after the label).
 *
 *     e.g. this    3.5 GHz    v1.2.3    (not: example.com, 例え.テスト, x.コム)
 *       ^            ^          ^ ^
 */
export function dotSurelyNoTld(text: string, d: number, limit: number, trie: TldTrie | null, tldMaxLength: number): number {
  if (trie === null) return -1;
  const max = d + 1 + tldMaxLength;
  const next = trie.next;
  let node = 0;
  let j = d + 1;
  for (;;) {
    if (j >= limit) return -1;
    const c = text.charCodeAt(j);
    if (c >= 128) return -1;
    if (c === DOT || (ASCII_FLAGS[c]! & A_HOST) === 0) {
      // `.orghttp://`: atDot looks for a listed scheme glued to a TLD (P8, domains.ts tldBeforeScheme).
      if (c === COLON && (j + 2 >= limit || (text.charCodeAt(j + 1) === SLASH && text.charCodeAt(j + 2) === SLASH))) return -1;
      break;
    }
    // The trie walk of isTld (domains.ts), folded into the label scan; node 0 after the root: no TLD.
    if (node >= 0) {
      // A `-` after a TLD: hyphens that end the label are not its (domains.ts asciiTldBeforeGluedText).
      if (c === HYPHEN && trie.terminal[node] === 1 && j > d + 1) return -1;
      // An `E<` after a TLD: a POD escape, which atDot leaves out (terminate.ts podEscapeAt).
      if (c === 0x45 && trie.terminal[node] === 1 && j > d + 1 && text.charCodeAt(j + 1) === 0x3c) return -1;
      const symbol = TRIE_SYMBOL[c]!;
      node = symbol < 0 ? -1 : next[node * TRIE_SYMBOLS + symbol]! || -1;
    }
    j++;
    if (j > max) return j; // longer than any TLD: atDot's step 1 stops here
  }
  // An empty label (`..`, `. `) or no TLD: atDot's step 1 returns false with st.next = j.
  return j === d + 1 || node < 0 || trie.terminal[node] !== 1 ? j : -1;
}

/**
 * At a `:`: when the run of ASCII scheme characters before it (up to 33) holds no letter — `12:30`, `1.5:1` —
 * atColon finds no scheme (RFC 3986 §3.1: a scheme starts with a letter), whatever its back-scan limit.
 */
export function colonSurelyNoScheme(text: string, c: number): boolean {
  const stop = c > 33 ? c - 33 : 0;
  const from = c > 0 && text.charCodeAt(c - 1) === BACKSLASH ? c - 2 : c - 1; // `https\://`
  for (let k = from; k >= stop; k--) {
    const ch = text.charCodeAt(k);
    if (ch >= 128) return true;
    const f = ASCII_FLAGS[ch]!;
    if ((f & A_SCHEME) === 0) return true;
    if ((f & A_ALPHA) !== 0) return false;
  }
  return true;
}

function indexOrEnd(text: string, ch: string, from: number): number {
  const i = text.indexOf(ch, from);
  return i < 0 ? text.length : i;
}

/**
 * Performance (primer.ts): code units scanned in this process until the primer's samples were linked. After
 * PRIME_AFTER of them the samples are linked once, by a scanner of their own, before the scan that crossed it.
 */
const primer = { scanned: 0, done: false, runs: 0 };
export const PRIME_AFTER = 1 << 22;

function countScanned(units: number): void {
  primer.scanned += units;
  if (primer.scanned >= PRIME_AFTER) prime();
}

/** Internal (tests): links the primer's samples now unless they have been, so that no later scan does. */
export function primeNow(): void {
  if (!primer.done) prime();
}

function prime(): void {
  primer.done = true;
  primer.runs++;
  try {
    new LinkScanner(undefined).scan(PRIMER_SAMPLES.join('\n'), 0, true, 0);
  } catch {
    // Only speed is at stake: the caller's scan goes on (test/primer.test.ts fails if the samples stop linking).
  }
}

/** Internal (tests): the units counted so far, whether the primer's samples have been linked, and how often. */
export function primerState(): { scanned: number; done: boolean; runs: number } {
  return { ...primer };
}

/** A scanner for `options` (validated once; TypeError for a bad option). */
export function createScanner(options?: LinkOptions): Scanner {
  checkOptionsArgument('createScanner', options);
  return new LinkScanner(options);
}
