// The finder: a cheap trigger search over the text (`.`, `。` and `:`), then each step scans outward from the
// trigger (domains.ts, email.ts, url.ts, terminate.ts, wrap.ts). Left to right, deterministic, linear: every
// back-scan and look-ahead is bounded by the current segment (state.ts), so a character is looked at a bounded
// number of times whatever the input.

import { badArgument } from '../errors.js';
import type { Link } from '../types.js';
import { A_HARD, ASCII_FLAGS, codePointBefore, isBarrier } from './chars.js';
import { makeLink } from './convert.js';
import { atDot } from './domains.js';
import { resolveOptions, type LinkOptions } from './options.js';
import { INCOMPLETE, ScanState } from './state.js';
import { atColon } from './url.js';
import { extendWrapped } from './wrap.js';

export interface ScanResult {
  links: Link[];
  settled: number;
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
   * Chunking invariance: for any continuation U, with k = max(0, settled - contextLength),
   * scan(text.slice(k) + U, settled - k, f, base + k) returns exactly the links that scan(text + U, from, f, base)
   * returns at or after settled.
   * Bounded memory: when not final, text.length - settled < maxLinkLength + MAX_WRAPPED_LENGTH (2048), whatever
   * the input.
   */
  scan(text: string, from: number, final: boolean, base: number): ScanResult;
}

/**
 * Units of left context a scan reads before `from`: the character before a link (P1, P4, P6) and the `<URL:`
 * before a wrapped link (P3).
 */
export const CONTEXT_LENGTH = 8;

const COLON = 0x3a;

class LinkScanner implements Scanner {
  readonly contextLength = CONTEXT_LENGTH;
  private readonly st: ScanState;

  constructor(options: LinkOptions | undefined) {
    this.st = new ScanState(resolveOptions(options));
  }

  scan(text: string, from: number, final: boolean, base: number): ScanResult {
    if (typeof text !== 'string') throw badArgument('scan', 'text', 'a string', text);
    if (!Number.isInteger(from) || from < 0 || from > text.length) {
      throw badArgument('scan', 'from', `an integer from 0 to text.length (${text.length})`, from);
    }
    if (typeof final !== 'boolean') throw badArgument('scan', 'final', 'a boolean', final);
    if (!Number.isInteger(base) || base < 0) throw badArgument('scan', 'base', 'a non-negative integer', base);

    const st = this.st;
    st.reset(text, from, final);
    const links: Link[] = [];
    const n = text.length;
    // The segment state (st.segStart, st.cut) is exact at `known`; advance() brings it to a trigger.
    let known = from;
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
      while (t >= st.cut) st.newSegment(st.cut);
      known = t;
    };
    // Trigger search: the next `.`, `:` and `。` (String.prototype.indexOf skips link-free text fast).
    let nextDot = indexOrEnd(text, '.', from);
    let nextColon = indexOrEnd(text, ':', from);
    let nextIdeo = indexOrEnd(text, '\u3002', from);
    let i = from;
    try {
      for (;;) {
        if (nextDot < i) nextDot = indexOrEnd(text, '.', i);
        if (nextColon < i) nextColon = indexOrEnd(text, ':', i);
        if (nextIdeo < i) nextIdeo = indexOrEnd(text, '\u3002', i);
        const t = nextDot < nextColon ? (nextDot < nextIdeo ? nextDot : nextIdeo) : nextColon < nextIdeo ? nextColon : nextIdeo;
        if (t >= n) break;
        advance(t);
        const found = text.charCodeAt(t) === COLON ? atColon(st, t) : atDot(st, t);
        if (!found) {
          i = st.next;
          continue;
        }
        let e = st.stop;
        if (st.kind === 'url' && !st.tooLong) {
          const w = extendWrapped(st, st.start, e);
          if (w !== e) {
            e = w;
            st.resume = w;
          }
        }
        links.push(makeLink(st, st.start, e, base));
        i = st.resume;
        st.lowerLimit = i;
        st.newSegment(i);
        known = i;
      }
      if (!final) {
        // A high surrogate at the very end may still get its partner: it is not a barrier yet.
        const last = text.charCodeAt(n - 1);
        advance(n > known && last >= 0xd800 && last <= 0xdbff ? n - 1 : n);
      }
    } catch (err) {
      if (err !== INCOMPLETE) throw err;
      return { links, settled: st.segStart };
    }
    return { links, settled: final ? n : st.segStart };
  }
}

function indexOrEnd(text: string, ch: string, from: number): number {
  const i = text.indexOf(ch, from);
  return i < 0 ? text.length : i;
}

/** A scanner for `options` (validated once; TypeError for a bad option). */
export function createScanner(options?: LinkOptions): Scanner {
  return new LinkScanner(options);
}
