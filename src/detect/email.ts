// UTS #58 §5.1–5.2 / NOTES §4.3: an email address — the domain found by the TLD scan, preceded by `@`, and a
// local-part found by scanning back from the `@` over Link_Email characters.

import { isLinkEmail } from '../unicode/index.js';
import {
  afterControlSequence,
  afterEscape,
  allowsGluedScheme,
  asciiAfterNoSpaceText,
  codePointBefore,
  equalsLowerCased,
  isBarrier,
  isBidiControl,
  isEscapeLetterAt,
  PLAIN_LOCAL,
} from './chars.js';
import { afterSentencePunctuation, closerBefore, closesEmphasis, delimitedBefore, isEmphasisMark } from './quotes.js';
import { isTld } from './domains.js';
import { afterQuotedDate, fieldBefore, ID_LEFT_LOOK, identifierWordBefore, isItemEdge } from './fields.js';
import type { ScanState } from './state.js';
import { isAlnum, isAlpha } from '../iri/chars.js';
import { terminate } from './terminate.js';

/** RFC 5321 §4.5.3.1.1: a local-part holds at most 64 octets; we bound the back-scan by 64 code units. */
export const MAX_LOCAL_PART_LENGTH = 64;

const DOT = 0x2e;
const SLASH = 0x2f;
const COLON = 0x3a;
const QUESTION = 0x3f;
const APOSTROPHE = 0x27;
const EQUALS = 0x3d;
const LEFT_BRACE = 0x7b;
const RIGHT_BRACE = 0x7d;
const VERTICAL_LINE = 0x7c;
const TILDE = 0x7e;
const HYPHEN = 0x2d;
const PLUS = 0x2b;
const UNDERSCORE = 0x5f;
const AT = 0x40;
const LESS_THAN = 0x3c;
const GREATER_THAN = 0x3e;

/**
 * The domain text[ds, tldEnd) is preceded by `@` (at ds − 1); `linkEnd` is after its trailing dot and port.
 *
 *     see mailto:x.abcd@example.com.
 *         ^start ^ls   ^@          ^stop (the trailing dot, a port or a path are never part of an email)
 *
 * `wordGoesOn`: an identifier runs on from the TLD (`a@b.to_string`, atDot); only an address after `mailto:` ends
 * there. `plainDomain`: the domain is PLAIN_HOST (ScanState.plainAuthority). Returns true with the email in `st`, or
 * false (the domain is then skipped too, as in the reference).
 */
export function emailAt(st: ScanState, ds: number, tldEnd: number, linkEnd: number, wordGoesOn: boolean, plainDomain: boolean): boolean {
  const text = st.text;
  const at = ds - 1;
  st.next = linkEnd;
  if (!st.opts.email) {
    st.lowerLimit = linkEnd;
    return false;
  }
  // NOTES §4.3 step 1: back over Link_Email.
  const floor = st.floor();
  let ls = at;
  // Whether the run read is PLAIN_LOCAL (the local part found may be shorter: only stricter), and whether it holds a
  // `~` or a `=`, which the IRC and key rules below look for (performance: most addresses hold neither).
  let plainLocal = 1;
  let tildeOrEquals = false;
  while (ls > floor) {
    const c = text.charCodeAt(ls - 1);
    const cp = c < 0xdc00 || c > 0xdfff ? c : codePointBefore(text, ls);
    // Deviation (UTS #58 §5.2): `|`, atext of RFC 5322, ends the local part: in text it is a table cell's edge or a
    // separator (`|Ann|ann@example.com|`, `a@x.example|b@y.example`; found in review), in an address next to never.
    if (!isLinkEmail(cp) || cp === VERTICAL_LINE || (cp >= 128 && isBidiControl(cp))) break;
    // An apostrophe after a key's `=` opens the address (`author_email='tarek@example.org'`; `=` and `'` are atext):
    // the key is not read into it, nor counted against its 64 units (found in review).
    if (cp === APOSTROPHE && ls - 2 >= floor && text.charCodeAt(ls - 2) === EQUALS) break;
    plainLocal &= cp < 128 ? PLAIN_LOCAL[cp]! : 0;
    if (cp === TILDE || cp === EQUALS) tildeOrEquals = true;
    ls -= cp > 0xffff ? 2 : 1;
    // Deviation (UTS #58 §5.2): the reference has no limit; a longer run is not a local-part — unless it is text of a
    // script written without spaces glued before an ASCII one, which is not part of it (below): its length does not
    // count (found in review: a clause of Han or Thai before the address lost it).
    if (at - ls > MAX_LOCAL_PART_LENGTH) {
      const ascii = asciiAfterNoSpaceText(text, ls, at, false);
      if (ascii === ls) return reject(st, linkEnd);
      ls = ascii;
      break;
    }
  }
  // Stopped by the floor where the local part goes on before it: its start is not known (a segment cut in a long
  // run, state.ts: `…john.smi` | `th@example.com` is not `th@example.com`). Not at a change between ASCII and other
  // text, where a link may end and the next begin (as for a domain: domains.ts continuesName). Also at the end of
  // the previous link, where NOTES §4.3 step 1 would start the local part (`a@x.org/b@y.org`): a scan that begins
  // there cannot tell it from a cut (ScanResume is a hint), and the answer must not depend on where scans begin.
  if (ls === floor && ls > 0 && ls < at && (text.charCodeAt(ls - 1) < 128) === (text.charCodeAt(ls) < 128)) {
    const cp = codePointBefore(text, ls);
    if (isLinkEmail(cp) && !isBarrier(cp)) return reject(st, linkEnd);
  }
  // Deviation (UTS #58 §5.2): a local part right after an `@` that starts a word is a fediverse handle,
  // `@alice@mastodon.social`: an account on that server, not a mailbox (found in review: it linked
  // `mailto:alice@mastodon.social`). After another address's `@` (`a@a@b.com`) the tail stays an address.
  if (ls > floor && ls < at && text.charCodeAt(ls - 1) === AT && (ls - 1 === 0 || !isLinkEmail(codePointBefore(text, ls - 1)))) {
    return reject(st, linkEnd);
  }
  // An escape written out (`"a\njohn@example.com"`, roff's `\fIbug@gnu.org`, chars.ts afterEscape) is not the address's,
  // nor is a terminal's control sequence (`\x1b[34mops@example.com`, chars.ts afterControlSequence).
  ls = afterEscape(text, ls, at);
  ls = afterControlSequence(text, ls, at);
  // Deviation (UTS #58 §5.2): an apostrophe or brace that opens the local-part is read as the quotation or
  // bracket around the address (`'john@example.com'`, `{a@example.com}`), not as atext. (A backquote is a barrier
  // no scan crosses: src/detect/chars.ts.)
  // Braces in a local part are a group around the address or a template's, not atext (found in review): after an
  // unclosed `{` the address starts (`\thanks{bob@example.edu}`, `\email{…}` of LaTeX linked `hanks{bob@…`), and one
  // that ends with a `}` it did not open is the end of a group (`{alice,bob}@cs.example.edu` linked `bob}@…`): no
  // address.
  // A pair that closes inside it is a template's placeholder: `${user}@example.com`, `#{user}@…`, `{a}b@…`.
  const brace = lastIndexIn(text, LEFT_BRACE, ls, at);
  if (brace >= 0 && lastIndexIn(text, RIGHT_BRACE, brace, at) < 0) ls = brace + 1;
  else if (brace >= 0 || text.charCodeAt(at - 1) === RIGHT_BRACE) return reject(st, linkEnd);
  // A local part that closes the pair it opened before the `@` is no address but a template or a quoted user name
  // (`{user}@example.com`, MySQL's `'root'@'localhost'`): nothing is linked (found in review: `a}@example.com`).
  while (ls < at) {
    const c = text.charCodeAt(ls);
    if (c !== APOSTROPHE && c !== LEFT_BRACE) break;
    if (text.charCodeAt(at - 1) === (c === LEFT_BRACE ? RIGHT_BRACE : APOSTROPHE) && at - 1 > ls) return reject(st, linkEnd);
    ls++;
  }
  // …and so are emphasis marks that open it and close right after the TLD (`*a@example.com*`, `_a@example.com_`,
  // `~~a@example.com~~`), as around a link (quotes.ts withoutEmphasis).
  ls += emphasisAround(st, ls, at, tldEnd);
  // Deviation (UTS #58 §5.2): an IRC user's mask is no mailbox: its ident starts with `~` when the server
  // could not check it, `:nick!~user@host.example.com PRIVMSG …`, `* dave (~dave@pool-1.example.net) has joined`
  // (found in review: linked `mailto:nick!~user@…`). `~` and `!` are atext, but no address in the corpora starts its
  // local part or a `!`-separated part of it with `~`.
  // (Strikethrough marks around an address are gone by now, `~~a@example.com~~`, and a `~~` is no ident's.) After an
  // explicit `mailto:` the address is the author's.
  if (
    tildeOrEquals &&
    ls < at &&
    ((text.charCodeAt(ls) === TILDE && text.charCodeAt(ls + 1) !== TILDE) || bangTildeIn(text, ls, at)) &&
    !mailtoBefore(text, ls, floor)
  ) {
    return reject(st, linkEnd);
  }
  // Deviation (UTS #58 §5.2): a key with its `=` before an address is the key's, and so are an option's dashes
  // (`--author=you@example.com`, `EMAIL=admin@example.com`, `mail.from=…`, iCalendar's `CN=bob@…`, BBCode's
  // `[email=…]`; found in review: `mailto:--author%3Dyou@…`). Only one `=`, after a key, and not before a domain: VERP
  // (`list-bounces+user=example.com@…`) and SRS (`SRS0=HHH=TT=example.com=user@…`) addresses stay whole, and so does
  // an address after `mailto:`. (`--logs` reads a key at a token's start, any value.)
  // Without a key, a local part that starts with `-` or `+` is no address: a diff's line (`-old@example.com`), an
  // ident in a Received: header (`IDENT:+Bh…@host`) or the tail of one a line break split (`123⏎-done@bugs.debian.org`,
  // whose mailbox `done@` is another): nothing is linked (found in review: `mailto:-old@…`).
  const lead = text.charCodeAt(ls);
  if ((tildeOrEquals || lead === HYPHEN || lead === PLUS) && !mailtoBefore(text, ls, floor)) {
    let k = ls;
    while (k < at && (text.charCodeAt(k) === HYPHEN || text.charCodeAt(k) === PLUS)) k++;
    const value = afterKey(st, k, at);
    if (value > k) ls = value;
    // (a value that starts with `-` or `+` is no address either: `key=-x@example.com`)
    if (text.charCodeAt(ls) === HYPHEN || text.charCodeAt(ls) === PLUS || (value === k && k > ls)) return reject(st, linkEnd);
  }
  // Deviation (UTS #58 §5.2): text of a script written without spaces glued before an ASCII local-part is not
  // part of it — `将补丁发送到stable@vger.kernel.org` links `stable@vger.kernel.org`, as the domain rule does for
  // `詳しくはexample.jp`; an all-CJK local-part (`用户@例子.广告`, RFC 6531) stays whole.
  // After an explicit `mailto:` the local part is the author's, whole (`mailto:東京taro@example.jp`; found in review).
  if (!mailtoBefore(text, ls, floor)) ls = asciiAfterNoSpaceText(text, ls, at, false);
  // Step 2: not empty, no dot at either end, no `..`.
  if (ls === at || text.charCodeAt(ls) === DOT || text.charCodeAt(at - 1) === DOT) return reject(st, linkEnd);
  for (let i = ls + 1; i < at; i++) {
    if (text.charCodeAt(i) === DOT && text.charCodeAt(i - 1) === DOT) return reject(st, linkEnd);
  }
  // Step 4: `scheme://user@host` is userinfo, not an email (the explicit-scheme step has had its say).
  if (ls > floor && text.charCodeAt(ls) === SLASH && text.charCodeAt(ls + 1) === SLASH && text.charCodeAt(ls - 1) === COLON) {
    return reject(st, linkEnd);
  }
  // Deviation (UTS #58 §5.2), irilink's: a message identifier is no mailbox (below).
  if (linkEnd === tldEnd && inMessageIdField(st, at, tldEnd)) return reject(st, linkEnd);
  // …nor is the user an ident server reported for a connection (RFC 1413), which Sendmail writes in a Received field
  // as `(IDENT:user@host [192.0.2.1])`: a login name or a hashed token, `IDENT:zbCsu2qvvPxAMgKG5/1BoVz7fvAHq4ae@…`
  // (found in review: 171 links of the mail corpus, most of them tokens).
  if (ls >= 6 && equalsLowerCased(text, ls - 6, ls, 'ident:') && (ls === 6 || !isAlnum(text.charCodeAt(ls - 7)))) return reject(st, linkEnd);
  // Step 5: a `mailto:` right before the local-part belongs to the link.
  // Deviation (UTS #58 §5.2): matched case-insensitively (RFC 3986 §3.1: schemes are case-insensitive).
  const mailto = mailtoBefore(text, ls, floor);
  // A TLD that an identifier runs on from (`a@b.to_string`, see atDot) ends a bare address only after `mailto:`.
  if (wordGoesOn && !mailto) return reject(st, linkEnd);
  // Deviation (UTS #58 §5.2), irilink's: a bare address followed by `:` and a path — a letter, `/` or `~` — is an
  // scp-style remote (`git@github.com:Perl/perl5.git`, CVS's `:pserver:anoncvs@cvs.example.org:/cvsroot`,
  // `scp f user@host.example:f`), not a mailbox: nothing is linked (32 links of en-mixed, found in review). A number
  // after the `:` keeps the address, as UTS #58's `john.doe@example.com:1234/forum` does.
  if (!mailto && linkEnd === tldEnd && remotePathAfter(st, tldEnd)) return reject(st, linkEnd);
  st.beginCandidate();
  st.plainAuthority = plainDomain && plainLocal === 1;
  const start = mailto ? ls - 7 : ls;
  st.schemeInferred = !mailto;
  st.start = start;
  st.stop = tldEnd; // step 6
  st.resume = linkEnd;
  if (!st.schemeInferred && linkEnd === tldEnd && !st.outOfRoom(tldEnd) && text.charCodeAt(tldEnd) === QUESTION) {
    // Deviation (UTS #58 §5.2 step 6): after an explicit `mailto:`, RFC 6068 hfields (`?subject=…`) belong to the
    // link; they end as a UTS #58 §3.5.1 query does. A bare address still ends at its TLD.
    st.closer = closerBefore(text, start);
    st.delimited = delimitedBefore(text, start);
    const e = terminate(st, tldEnd, 0);
    if (e > tldEnd + 1) {
      st.stop = e;
      st.resume = e;
    }
  }
  st.kind = 'email';
  st.scheme = 'mailto';
  st.hostStart = ds;
  st.hostEnd = tldEnd;
  return true;
}

/**
 * Where the address starts in the local part text[ls, at): after `key=` when the local part holds one `=`, the key
 * before it is `[A-Za-z_][A-Za-z0-9_.-]*` and what follows it is no domain (no label that is a TLD after a dot). At
 * `at` when nothing follows it: DKIM's and Authentication-Results' `i=@example.com`, `header.i=@example.com` (RFC
 * 6376 §3.5, RFC 8601 §2.7) hold no local part, and no mailbox is linked (found in review: `mailto:i%3D@…`).
 */
function afterKey(st: ScanState, ls: number, at: number): number {
  const text = st.text;
  let eq = -1;
  for (let i = ls; i < at; i++) {
    if (text.charCodeAt(i) !== EQUALS) continue;
    if (eq >= 0) return ls;
    eq = i;
  }
  if (eq <= ls || (!isAlpha(text.charCodeAt(ls)) && text.charCodeAt(ls) !== UNDERSCORE)) return ls;
  for (let i = ls + 1; i < eq; i++) {
    const c = text.charCodeAt(i);
    if (!isAlnum(c) && c !== UNDERSCORE && c !== DOT && c !== HYPHEN) return ls;
  }
  let dot = at - 1;
  while (dot > eq && text.charCodeAt(dot) !== DOT) dot--;
  return dot > eq && isTld(st, dot + 1, at) ? ls : eq + 1;
}

/**
 * The header fields whose body lists message identifiers, lower-cased: Message-ID, In-Reply-To and References
 * (RFC 5322 §3.6.4), Resent-Message-ID (§3.6.6), Content-ID (RFC 2045 §7), Usenet's Supersedes (RFC 5536 §3.2.12)
 * and a disposition notification's Original-Message-ID (RFC 8098 §3.2.5).
 */
const MESSAGE_ID_FIELDS: readonly string[] = [
  'message-id', 'in-reply-to', 'references', 'resent-message-id', 'content-id', 'supersedes', 'original-message-id',
];

/** The field whose old form writes an identifier after a phrase and a quoted date (fields.ts afterQuotedDate). */
const IN_REPLY_TO: readonly string[] = ['in-reply-to'];

/**
 * Deviation (UTS #58 §5.2), irilink's: is the address whose `@` is at `at`, between `<` and `>`, a message identifier
 * (RFC 5322 §3.6.4 msg-id, `<id-left@id-right>`) in the body of one of MESSAGE_ID_FIELDS (fields.ts fieldBefore, with
 * the items before it)? Its syntax is an address's, but it names a message, not a mailbox: `Message-ID:
 * <3D64E94E.8060301@ee.ed.ac.uk>`, and every identifier of a References field folded over lines. Mail quoted,
 * forwarded or pasted as text holds many (found in review: some 8,800 linked `mailto:` in the mail corpus). So is one
 * a word announces (fields.ts identifierWordBefore): a Received field's `id <…>` (RFC 5321 §4.4) and a reply's
 * `In message <…>, Ann writes:` (found in review: some 210 links of the mail corpus). And so is one after a quoted date
 * in an old In-Reply-To field's phrase (`Your message of "…" <…>`; a mailbox there follows a name and stays).
 */
function inMessageIdField(st: ScanState, at: number, tldEnd: number): boolean {
  const text = st.text;
  if (st.outOfRoom(tldEnd) || text.charCodeAt(tldEnd) !== GREATER_THAN) return false;
  // The `<`: the local part read may have stopped after it (a key's `=`, a `|`: `<CAHk-=wgf@mail.gmail.com>`).
  let lt = at - 1;
  while (lt >= 0 && at - lt <= ID_LEFT_LOOK && !isItemEdge(text.charCodeAt(lt))) lt--;
  if (lt < 0 || at - lt > ID_LEFT_LOOK || text.charCodeAt(lt) !== LESS_THAN) return false;
  return (
    fieldBefore(text, lt, MESSAGE_ID_FIELDS, true, false) ||
    identifierWordBefore(text, lt) ||
    (afterQuotedDate(text, lt) && fieldBefore(text, lt, IN_REPLY_TO, true, true))
  );
}

/** Does text[from, to) hold `!~` (an IRC mask's `nick!~user`)? */
function bangTildeIn(text: string, from: number, to: number): boolean {
  for (let i = from + 1; i < to; i++) if (text.charCodeAt(i) === TILDE && text.charCodeAt(i - 1) === 0x21) return true;
  return false;
}

/** The last index of the code unit `c` in text[from, to), or −1. */
function lastIndexIn(text: string, c: number, from: number, to: number): number {
  for (let i = to - 1; i >= from; i--) if (text.charCodeAt(i) === c) return i;
  return -1;
}

/**
 * NOTES §4.3 step 5: is `mailto:` (any case, RFC 3986 §3.1) right before the local part starting at `ls`, not before
 * `floor`, and not glued to a word (P4, as for any scheme)?
 */
function mailtoBefore(text: string, ls: number, floor: number): boolean {
  return (
    ls - 7 >= floor &&
    equalsLowerCased(text, ls - 7, ls, 'mailto:') &&
    (ls === 7 || allowsGluedScheme(codePointBefore(text, ls - 7)) || isEscapeLetterAt(text, ls - 8))
  );
}

/**
 * The emphasis marks that open the local part text[ls, at) and close after the TLD — right after it or after sentence
 * punctuation (`*a@example.com.*`; UTS #58 §3.5.1 Soft, at most three): a run of one to three `*`, `_` or `~`
 * (quotes.ts isEmphasisMark), repeated exactly there, or such a run with a run of another mark inside it, closed in
 * reverse order (`**_a@example.com_**`, `~~a@example.com~~`, quotes.ts closesEmphasis). Their length, or 0.
 */
function emphasisAround(st: ScanState, ls: number, at: number, tldEnd: number): number {
  const text = st.text;
  const c = text.charCodeAt(ls);
  if (!isEmphasisMark(c)) return 0;
  const k = markRunEnd(text, ls, at, c) - ls;
  if (k > 3 || ls + k === at) return 0;
  const r = afterSentencePunctuation(st, tldEnd);
  // The nested marks first, else the run alone.
  const o = text.charCodeAt(ls + k);
  const j = o !== c && isEmphasisMark(o) ? markRunEnd(text, ls + k, at, o) - (ls + k) : 0;
  if (j > 0 && j <= 3 && ls + k + j < at && closesExactly(st, ls, k + j, r)) return k + j;
  return closesExactly(st, ls, k, r) ? k : 0;
}

/** The end of the run of `mark` that starts at `i` (at most `limit`). */
function markRunEnd(text: string, i: number, limit: number, mark: number): number {
  while (i < limit && text.charCodeAt(i) === mark) i++;
  return i;
}

/** Do the marks text[ls, ls + m) close at `r`, and no more of the outermost mark follow? */
function closesExactly(st: ScanState, ls: number, m: number, r: number): boolean {
  return closesEmphasis(st, ls, m, r) && (st.outOfRoom(r + m) || st.text.charCodeAt(r + m) !== st.text.charCodeAt(ls));
}

/** `:` at `i`, then an ASCII letter, `/` or `~`: the path of an scp-style remote `user@host:path`. */
function remotePathAfter(st: ScanState, i: number): boolean {
  const text = st.text;
  if (st.outOfRoom(i) || text.charCodeAt(i) !== COLON || st.outOfRoom(i + 1)) return false;
  const c = text.charCodeAt(i + 1);
  return c === SLASH || c === TILDE || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a);
}

/** An invalid local-part: the domain is not linked either, and no later back-scan enters it (NOTES §4.3 step 2). */
function reject(st: ScanState, linkEnd: number): false {
  st.lowerLimit = linkEnd;
  return false;
}
