// The state one scan() call shares between its steps (finder, domains, email, url, terminate, wrap).
//
// Segments. The text is read in segments: a segment starts at the stream start, after a barrier character
// (Link_Term=Hard or a P1 bidi control), at the end of a link, or in a long run without either: at the first
// separator (scanner.ts isSeparator) in the second half of the segment, else at the cut; it is cut
// `maxLinkLength` code units after its start (never inside a surrogate pair). No link, no back-scan and no
// look-ahead crosses a segment boundary — except the RFC 3986 Appendix C look-ahead of P3 — so every decision
// depends only on the current segment and a few characters of left context, which is what makes scan()
// chunking-invariant.
//
// Why a separator: a segment boundary inside a run bounds how much of the run is held, but a link across it would
// lose its start (`…,www.exa` | `mple.com` linked `mple.com`, `…;john.smith@` | … `smith@…`) or be cut short of
// maxLinkLength. No back-scan of a link's start (host, local part, scheme) crosses a separator, and a link that
// starts after one has the whole next segment: in a long JSON line or minified code the links come out as in
// short text.

import type { LinkKind } from '../types.js';
import type { ResolvedOptions } from './options.js';
import { tldTrieOf, type TldTrie } from './tlds.js';

/**
 * The fast paths of the scan (scanner.ts dotSurelyNoTld and colonSurelyNoScheme, domains.ts atDot's folded label
 * check, url.ts authorityForm's plain host run) stand in for steps that give the same answers; with `false` the
 * steps run instead — the straightforward path the equivalence tests compare with. Returns the previous value.
 */
export function setScanFastPaths(on: boolean): boolean {
  const was = fastPaths;
  fastPaths = on;
  return was;
}
export let fastPaths = true;

/** Thrown (one shared object, never escaping scan()) when a decision needs text beyond the end of a non-final chunk. */
export const INCOMPLETE = { incomplete: true } as const;

export class ScanState {
  readonly opts: ResolvedOptions;
  text = '';
  n = 0;
  final = true;
  /** Start of the current segment. */
  segStart = 0;
  /** Where the current segment is cut when no barrier comes first. */
  cut = 0;
  /** From here on (segStart + maxLinkLength / 2) a separator starts the next segment (scanner.ts advance). */
  separatorFrom = 0;
  /** min(n, cut): no step reads at or beyond it (except P3). */
  end = 0;
  /** End of the previous link (or of a rejected email domain, UTS #58 reference): back-scans stop here. */
  lowerLimit = 0;
  /** Bracket stack of the termination step (reused; depth bounded by maxLinkLength). */
  readonly stack: number[] = [];

  // ---- the candidate a step reports (valid when the step returned true)
  start = 0;
  stop = 0;
  /** Where the finder resumes after the link (after an email's port or trailing dot; ≥ stop). */
  resume = 0;
  kind: LinkKind = 'url';
  scheme = '';
  schemeInferred = false;
  hostStart = 0;
  hostEnd = 0;
  userinfo = false;
  /**
   * The candidate is a whole link by its shape but is deliberately not linked (reported as an unlinked span):
   * http(s) userinfo without a password (url.ts).
   */
  unlinked = false;
  bidiStop = false;
  tooLong = false;
  wrapped = false;
  /**
   * The step saw the candidate's whole authority — its host with no userinfo and no port, or an email's address —
   * and it holds only characters its conversion writes as they are (chars.ts PLAIN_HOST, PLAIN_LOCAL): convert.ts
   * quickLink then skips its walk of that part (performance: it is the same answer, and a walk costs a few ns a
   * code unit). False when the step did not look, which is always safe.
   */
  plainAuthority = false;
  /**
   * Where the last terminate() of the candidate started (−1: none since beginCandidate), and the first character it
   * took on that is not URI_SIMPLE (chars.ts), or a position at or before it (−1: none). What it walked from there
   * to the link's end holds only characters the conversion writes as they are: convert.ts quickLink does not read
   * them again (performance).
   */
  pathStart = -1;
  pathNotSimple = -1;
  /**
   * The link may hold a word a bare link ends before (glued.ts): a delimited link kept one, or a link ends in Hangul
   * (terminate.ts gluedEnd), or wrap.ts took it on past what terminate() walked. Its iri must be written by displayIri,
   * which encodes such a word (convert.ts quickLink).
   */
  pathGlued = false;
  /** url.ts schemeBefore: `//` follows the colon (or `\/\/`, see jsonEscaped). */
  slashes = false;
  /**
   * url.ts atColon: the candidate's `//` is written `\/\/`, as JSON encoders escape `/` (PHP's json_encode by
   * default): terminate() reads `\/` as `/` and `\uXXXX` as one character, and the conversion reads the link's text
   * as a JSON string's (convert.ts fullLink).
   */
  jsonEscaped = false;
  /**
   * url.ts schemeBefore: the scheme's colon is written `\:`, as Java's .properties files and vCards escape it
   * (`distributionUrl=https\://services.gradle.org/…`): the conversion drops that `\`.
   */
  colonEscaped = false;
  /**
   * terminate(): the link holds its closing quotation mark escaped with `\` (`'…/wiki/Ender\'s_Game'`): the
   * conversion drops the `\` before it (convert.ts fullLink).
   */
  quoteEscaped = false;
  /** P6: the closing quotation mark that ends the current candidate, or −1. */
  closer = -1;
  /**
   * The author delimited the candidate: a quotation mark (closer ≥ 0), `<`, `<URL:` or a Markdown `](` right before
   * it (quotes.ts delimitedBefore). Such a link stands as written: the CJK-punctuation and bare-tel: rules are off.
   * terminate() clears it when the quotation mark's closing mark does not end the link.
   */
  delimited = false;
  /** terminate(): the closing quotation mark (closer) ended the link it walked. */
  quoteEnded = false;
  /**
   * Where the link that terminate() last walked would end without the first `<…>` pair it kept (terminate.ts, the
   * `<` deviation), or −1: an Appendix C link whose delimiting `>` that pair took ends there (wrap.ts).
   */
  pairSafe = -1;
  /** Where the finder resumes when a step found no link. */
  next = 0;

  /** The ASCII trie of opts.tlds (isTld's fast path), or null when the list needs the general path. */
  readonly tldTrie: TldTrie | null;

  constructor(opts: ResolvedOptions) {
    this.opts = opts;
    this.tldTrie = tldTrieOf(opts.tlds);
  }

  reset(text: string, from: number, final: boolean): void {
    this.text = text;
    this.n = text.length;
    this.final = final;
    this.lowerLimit = from;
    this.newSegment(from);
  }

  /** Starts a segment at `s` (a barrier was passed, a link ended, or the previous segment was cut). */
  newSegment(s: number): void {
    this.segStart = s;
    let cut = s + this.opts.maxLinkLength;
    if (cut <= this.n) {
      const c = this.text.charCodeAt(cut - 1);
      if (c >= 0xd800 && c <= 0xdbff) cut--; // never cut a surrogate pair
    }
    this.cut = cut;
    this.end = cut < this.n ? cut : this.n;
    this.separatorFrom = s + (this.opts.maxLinkLength >> 1);
  }

  /** Lowest index a back-scan may reach. */
  floor(): number {
    return this.lowerLimit > this.segStart ? this.lowerLimit : this.segStart;
  }

  /**
   * True when `i` is at the end of the room of the current segment: the cut, or the end of a final text.
   * At the end of a non-final chunk the answer is unknown: throws INCOMPLETE.
   */
  outOfRoom(i: number): boolean {
    if (i < this.end) return false;
    if (this.end === this.cut || this.final) return true;
    throw INCOMPLETE;
  }

  /**
   * True when the segment's cut is at `i` and the text goes on after it (a run of maxLinkLength units without a
   * barrier or a separator): what the character at `i` would have added to a part is not known from the segment.
   * A non-final text that ends right at the cut does not say whether it goes on: throws INCOMPLETE.
   */
  cutAt(i: number): boolean {
    if (i !== this.cut) return false;
    if (i < this.n) return true;
    if (this.final) return false;
    throw INCOMPLETE;
  }

  /** The code point at `i` (< end); throws INCOMPLETE for a high surrogate whose partner has not arrived. */
  cpAt(i: number): number {
    const c = this.text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      if (i + 1 < this.n) {
        const d = this.text.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) return ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
      } else if (!this.final) {
        throw INCOMPLETE;
      }
    }
    return c;
  }

  /** Clears the per-candidate fields. */
  beginCandidate(): void {
    this.userinfo = false;
    this.unlinked = false;
    this.bidiStop = false;
    this.tooLong = false;
    this.wrapped = false;
    this.jsonEscaped = false;
    this.colonEscaped = false;
    this.quoteEscaped = false;
    this.closer = -1;
    this.delimited = false;
    this.pairSafe = -1;
    this.plainAuthority = false;
    this.pathStart = -1;
  }
}
