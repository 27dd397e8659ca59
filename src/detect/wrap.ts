// P3 — RFC 3986 Appendix C: a link delimited by `<…>` or `<URL:…>` may be wrapped across lines; the whitespace
// is not part of the URI. The only step that reads across barrier characters, so its reach is bounded.

import { A_DIGIT, A_HOST, A_USERINFO, A_WRAP_SPACE, ASCII_FLAGS, isBarrier, isHostDot } from './chars.js';
import { angleBefore } from './quotes.js';
import { INCOMPLETE, type ScanState } from './state.js';
import { HELD_LOOKAHEAD, schemeSlashSlashAt } from './terminate.js';

const LESS = 0x3c;
const GREATER = 0x3e;
const SLASH = 0x2f;
const QUESTION = 0x3f;
const HASH = 0x23;
const AT = 0x40;
const COLON = 0x3a;
const LEFT_BRACKET = 0x5b;
const RIGHT_BRACKET = 0x5d;
const VERTICAL_LINE = 0x7c;

/** Longest span of a wrapped link (from its start to the `>`), whatever maxLinkLength allows beyond it. */
export const MAX_WRAPPED_LENGTH = 2048;

/**
 * The end of a candidate text[s, e) that starts right after `<` or `<URL:`: a URL is extended to the `>` that
 * closes the delimiter, across spaces, tabs and line breaks (never across another barrier character or a run of
 * maxLinkLength without whitespace):
 *
 *     <URL:http://www.example.com/a/very/long
 *          ^s                            ^e   (the line break ended the UTS #58 scan)
 *         /path>
 *              ^ returned
 *
 * A `<…>` pair on the way is the link's, read as terminate reads a held `<` (a placeholder:
 * `<URL:https://example.com/⏎<org>/c>`): its `>` comes within HELD_LOOKAHEAD, before whitespace, another `<` and a
 * `/` (a path separator, or `</`, an HTML end tag). So a link reads a bounded way past each `<`:
 * `<http://x/a<http://x/a<…` stays linear.
 *
 * Returns the new end (trailing whitespace before `>` excluded) and sets st.wrapped when whitespace is inside, or
 * returns `e`. When the delimiter does not close, a pair terminate kept in the candidate is left out: its `>` was
 * the delimiter's (`<http://x/a<b>` links `http://x/a`; withoutPair).
 */
export function extendWrapped(st: ScanState, s: number, e: number): number {
  const text = st.text;
  if (!angleBefore(text, s)) return e;
  if (
    // Appendix C delimits URIs (a `mailto:` link is one): a bare email address in `<…>` wraps only where a line break
    // splits its domain (wrappedDomainAfter).
    (st.kind === 'email' && st.schemeInferred && !wrappedDomainAfter(st, e)) ||
    // Deviation (RFC 3986 Appendix C, DESIGN.md P3): a link without a scheme wraps only once a path has begun
    // (`<www.example.gov/NCES/`↵`pubs/96323.html>`). Appendix C delimits URIs, which have a scheme; a bare name in
    // `<…>` followed by more words is markup or a repr, not a wrapped link: `<Button.Group style={…}>`,
    // `<Color.RED: 1>`, `<name at example.org>` (over the corpora 190 of the 191 schemeless wraps were such).
    (st.kind === 'url' && st.schemeInferred && !holdsSlash(text, st.hostEnd, e)) ||
    // P8: the link ended before a glued `scheme://` (`<http://www.example.comhttp://www.example.com/a>`, url.ts):
    // the rest is the next link, not a continuation.
    (e < st.end && schemeSlashSlashAt(st, e) > 0) ||
    // A `|` ended the path (terminate.ts): Slack's `<https://x.example/pull/1|PR #1>`, whose rest is the label.
    (e < st.n && text.charCodeAt(e) === VERTICAL_LINE)
  ) {
    // No wrap; a pair terminate kept stays only if the delimiter closes right after it.
    if (st.pairSafe < 0) return e;
    if (e >= st.n) {
      if (!st.final) throw INCOMPLETE;
      return withoutPair(st, e);
    }
    return text.charCodeAt(e) === GREATER ? e : withoutPair(st, e);
  }
  const max = Math.min(st.opts.maxLinkLength, MAX_WRAPPED_LENGTH);
  let localCut = st.cut;
  let open = -1; // the `<` of a pair on the way, or −1
  // RFC 3986 §3.2: while the link is in its authority (no `/ ? #` yet), what it takes on is authority characters
  // (userinfo's, `@`, `[ ]`; any non-ASCII, as RFC 3987's iauthority) or whitespace (`<http://www.debian.⏎org/>`),
  // and the authority ends with a port of digits after its last `:` if any (§3.2.3; a `:` before an `@` was
  // userinfo's). Else the rest would become host or port, which it is not: `<http://example.com"onclick=x>` links
  // `http://example.com`, `<ws://host:port>` links `ws://host` (as `ws://host:port` does outside `<…>`).
  let authority = st.hostEnd > st.hostStart && !holdsPathStart(text, st.hostEnd, e);
  let badPort = false; // a non-digit after the last `:` since the last `@`
  let port = authority && e > st.hostEnd && text.charCodeAt(st.hostEnd) === COLON;
  let j = e;
  for (;;) {
    if (j >= st.n) {
      if (!st.final) throw INCOMPLETE;
      return withoutPair(st, e);
    }
    if (j - s >= max) return withoutPair(st, e);
    const c = text.charCodeAt(j);
    const space = c < 128 && (ASCII_FLAGS[c]! & A_WRAP_SPACE) !== 0;
    if (open >= 0 && (j - open > HELD_LOOKAHEAD || space || c === LESS || c === SLASH)) return withoutPair(st, e);
    if (c === GREATER) {
      if (badPort) return withoutPair(st, e);
      if (open < 0) break;
      open = -1;
      j++;
      continue;
    }
    if (space) {
      // A link of an address wraps at line breaks only: in `<mailto:a@example.com?subject=Penguin Shell>` the spaces
      // are the subject's (HTML writes an href so), and Appendix C would make it `PenguinShell`.
      // So does one still in its authority, unless a host dot comes right before (`<http://www.debian. org/ports/>`):
      // a space after a name starts a label, Haddock's `<http://example.com Example site>` (found in review: it linked
      // `http://example.comexamplesite`).
      const prev = text.charCodeAt(j - 1);
      if (
        (st.kind === 'email' || (authority && !isHostDot(prev))) &&
        (ASCII_FLAGS[prev]! & A_WRAP_SPACE) === 0 &&
        !lineBreakAt(st, j, s + max)
      ) {
        return withoutPair(st, e);
      }
      j++;
      localCut = j + st.opts.maxLinkLength; // whitespace is a barrier: the run after it starts afresh
      continue;
    }
    if (j >= localCut) return withoutPair(st, e);
    if (authority && c < 128) {
      if (c === SLASH || c === QUESTION || c === HASH) {
        if (badPort) return withoutPair(st, e);
        authority = false;
      } else if (c === AT) {
        port = badPort = false;
      } else if ((ASCII_FLAGS[c]! & A_USERINFO) === 0 && c !== LEFT_BRACKET && c !== RIGHT_BRACKET) {
        return withoutPair(st, e);
      } else if (c === COLON) {
        port = true;
        badPort = false;
      } else if (port && (ASCII_FLAGS[c]! & A_DIGIT) === 0) {
        badPort = true;
      }
    }
    if (c === LESS) {
      open = j++;
      continue;
    }
    const cp = st.cpAt(j);
    if (isBarrier(cp)) return withoutPair(st, e);
    j += cp > 0xffff ? 2 : 1;
  }
  let g = j;
  while (g > e && (ASCII_FLAGS[text.charCodeAt(g - 1)]! & A_WRAP_SPACE) !== 0) g--;
  if (g <= e) return e;
  // What terminate() noted for the conversion (ScanState.pathNotSimple) covers the link up to e only: the rest, up
  // to the `>`, it did not walk (`<http://example.com/a)é>`), so the conversion must walk it from e.
  if (st.pathNotSimple < 0) st.pathNotSimple = e;
  // Nor did it look for a word glued to the path there (glued.ts, `<https://a.example/x)a를>`): displayIri does.
  st.pathGlued = true;
  for (let k = e; k < g; k++) {
    const c = text.charCodeAt(k);
    if (c < 128 && (ASCII_FLAGS[c]! & A_WRAP_SPACE) !== 0) {
      st.wrapped = true;
      break;
    }
  }
  return g;
}

/** Most whitespace wrappedDomainAfter reads between a bare address and the rest of its domain. */
const MAX_WRAP_INDENT = 64;

/**
 * Deviation (RFC 3986 Appendix C delimits URIs; DESIGN.md P3): a bare address in `<…>` (RFC 5322 angle-addr) that a
 * line break splits inside its domain — whitespace holding a line break right after the address text[…, e), then
 * ASCII letters, digits or `-` up to the `>`, the last label then a TLD — is one address: `<user@DeepEddy.Co⏎m>` is
 * `user@DeepEddy.Com` (hard-wrapped mail; linked as it stood, it named another domain). Other text after a bare
 * address is not its own: `<a@example.com and b@example.org>`, `<a@example.co m>`, `<a@example.com⏎foo>`,
 * `<a@example.com⏎foo.org>`. Reads the domain's last label back and at most 2 × MAX_WRAP_INDENT units on.
 */
function wrappedDomainAfter(st: ScanState, e: number): boolean {
  const text = st.text;
  let lineBreak = false;
  let j = e;
  for (; ; j++) {
    if (j >= st.n) return incomplete(st);
    const c = text.charCodeAt(j);
    if (c === 0x0a || c === 0x0d) lineBreak = true;
    else if (c !== 0x20 && c !== 0x09) break;
    if (j - e >= MAX_WRAP_INDENT) return false;
  }
  if (!lineBreak) return false;
  // The rest of the last label: ASCII letters, digits and `-`, no dot (after a dot the break would end a whole
  // domain: `<a@example.com⏎foo.org>` is no `example.comfoo.org`).
  const from = j;
  for (; ; j++) {
    if (j >= st.n) return incomplete(st);
    const c = text.charCodeAt(j);
    if (c === GREATER) break;
    if (c >= 128 || c === 0x2e || (ASCII_FLAGS[c]! & A_HOST) === 0 || j - from >= MAX_WRAP_INDENT) return false;
  }
  // The domain's last label, joined, is a TLD (`Co` + `m`). Its start: after the domain's last host dot (`.`, or
  // `。` `．` `｡` as UTS #46 maps them).
  let label = e;
  while (label > st.hostStart && !isHostDot(text.charCodeAt(label - 1))) label--;
  const tld = text.slice(label, e) + text.slice(from, j);
  return j > from && st.opts.tlds.has(tld.toLowerCase());
}

/** Does the whitespace run at text[j] hold a CR or LF (read up to `limit`)? */
function lineBreakAt(st: ScanState, j: number, limit: number): boolean {
  const text = st.text;
  for (; j < limit; j++) {
    if (j >= st.n) return incomplete(st);
    const c = text.charCodeAt(j);
    if (c === 0x0a || c === 0x0d) return true;
    if (c !== 0x20 && c !== 0x09) return false;
  }
  return false;
}

/** At the end of the text read: false when it is the input's end, else more is needed. */
function incomplete(st: ScanState): false {
  if (!st.final) throw INCOMPLETE;
  return false;
}

/**
 * The end of a `<…>`-delimited candidate text[…, e) whose delimiter does not close: without the first `<…>` pair
 * terminate kept (st.pairSafe), or `e`. Such a link then ends before the pair, not at what ended terminate's walk,
 * so a bidi control there no longer flags it (P1, as when terminate leaves out a held bracket).
 */
function withoutPair(st: ScanState, e: number): number {
  if (st.pairSafe < 0) return e;
  st.bidiStop = false;
  return st.pairSafe;
}

/** Does text[a, b) hold a `/`, `?` or `#` (RFC 3986 §3.2: what ends an authority)? */
function holdsPathStart(text: string, a: number, b: number): boolean {
  for (let i = a; i < b; i++) {
    const c = text.charCodeAt(i);
    if (c === SLASH || c === QUESTION || c === HASH) return true;
  }
  return false;
}

/** Does text[a, b) hold a `/`? */
function holdsSlash(text: string, a: number, b: number): boolean {
  for (let i = a; i < b; i++) if (text.charCodeAt(i) === 0x2f) return true;
  return false;
}

/** The link text without the whitespace of P3 wrapping. */
export function removeWrapSpace(s: string): string {
  let out = '';
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 128 && (ASCII_FLAGS[c]! & A_WRAP_SPACE) !== 0) {
      out += s.slice(from, i);
      from = i + 1;
    }
  }
  return out + s.slice(from);
}
