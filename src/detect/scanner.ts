// The finder: a cheap trigger search over the text (`.`, `。` and `:`), then each step scans outward from the
// trigger (domains.ts, email.ts, url.ts, terminate.ts, wrap.ts). Left to right, deterministic, linear: every
// back-scan and look-ahead is bounded by the current segment (state.ts), so a character is looked at a bounded
// number of times whatever the input.

import { badArgument } from '../errors.js';
import type { Link } from '../types.js';
import { A_HARD, A_TRIGGER, ASCII_FLAGS, isBarrier } from './chars.js';
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

const DOT = 0x2e;
const IDEOGRAPHIC_FULL_STOP = 0x3002;

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
    let i = from;
    try {
      while (i < n) {
        if (i >= st.cut) st.newSegment(st.cut);
        const c = text.charCodeAt(i);
        let found: boolean;
        if (c < 128) {
          const f = ASCII_FLAGS[c]!;
          if (f === 0 || (f & (A_HARD | A_TRIGGER)) === 0) {
            i++;
            continue;
          }
          if ((f & A_HARD) !== 0) {
            st.newSegment(++i);
            continue;
          }
          found = c === DOT ? atDot(st, i) : atColon(st, i);
        } else if (c === IDEOGRAPHIC_FULL_STOP) {
          found = atDot(st, i);
        } else {
          const cp = st.cpAt(i);
          i += cp > 0xffff ? 2 : 1;
          if (isBarrier(cp)) st.newSegment(i);
          continue;
        }
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
      }
    } catch (err) {
      if (err !== INCOMPLETE) throw err;
      return { links, settled: st.segStart };
    }
    return { links, settled: final ? n : st.segStart };
  }
}

/** A scanner for `options` (validated once; TypeError for a bad option). */
export function createScanner(options?: LinkOptions): Scanner {
  return new LinkScanner(options);
}
