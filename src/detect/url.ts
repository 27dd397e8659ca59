// P2, P4, P5: links with an explicit scheme, found from their `:`. The scheme is scanned back from the colon;
// `scheme://` is followed by [userinfo@] host [:port] and a Path/Query/Fragment; an opaque `scheme:` (tel:, urn:,
// geo:, magnet:, sip:, xmpp:, news:) by a path. The host is taken as written: IP literals, `localhost`, names
// whose TLD is not delegated — checked only by the label rules (UTS #58 §4.1 step 4) after UTS #46 mapping.

import { isIpv4Address, isIpv6Address, isIpvFuture } from '../iri/parse.js';
import {
  A_ALPHA,
  A_DIGIT,
  A_HOST,
  A_SCHEME,
  A_USERINFO,
  afterControlSequence,
  afterEscape,
  allowsGluedScheme,
  ASCII_FLAGS,
  codePointAt,
  codePointBefore,
  equalsLowerCased,
  HARD,
  hexValue,
  INCLUDE,
  isBidiControl,
  isDomainChar,
  isHostDot,
  isLabelChar,
  isStrayMiddleDot,
  isNoSpaceScriptLetter,
  PLAIN_HOST,
  termOf,
  escapeEndsAt,
  isControlSequenceEnd,
} from './chars.js';
import { asciiTldBeforeGluedText, isTld, MAX_DOMAIN_LENGTH, scanPort, tldBeforeScheme, validLabels } from './domains.js';
import { closerBefore, closes, delimitedBefore } from './quotes.js';
import { isLinkEmail } from '../unicode/index.js';
import { MAX_LOCAL_PART_LENGTH } from './email.js';
import { NEVER_SCHEMES, SCHEME_SYMBOL, SCHEME_SYMBOLS, type SchemeTrie } from './options.js';
import { PATH, podEscapeAt, terminate } from './terminate.js';
import { isKoreanParticle } from './glued.js';
import { fastPaths, type ScanState } from './state.js';
import { isAlnum, isAlpha } from '../iri/chars.js';

const SLASH = 0x2f;
const AT = 0x40;
const COLON = 0x3a;
const VERTICAL_LINE = 0x7c;
const BACKSLASH = 0x5c;
const LESS_THAN = 0x3c;
const QUESTION = 0x3f;
const HASH = 0x23;
const COMMA = 0x2c;
const LEFT_SQUARE = 0x5b;
const RIGHT_SQUARE = 0x5d;
const UNDERSCORE = 0x5f;
const DOT = 0x2e;
const PERCENT = 0x25;
const PLUS = 0x2b;
const HYPHEN = 0x2d;
const SEMICOLON = 0x3b;
const DOLLAR = 0x24;
const LEFT_PAREN = 0x28;
const RIGHT_PAREN = 0x29;
const LEFT_BRACE = 0x7b;

/** Longest run of scheme characters looked at before a `:`. */
const MAX_SCHEME_LENGTH = 32;
/** Longest userinfo looked for before an `@`. */
const MAX_USERINFO_LENGTH = 256;
/** Longest IP literal between `[` and `]`. */
const MAX_IP_LITERAL_LENGTH = 64;

/** Schemes that only have the `scheme://authority` form: without `//` they are not linked. */
const HIERARCHICAL_ONLY = new Set(['http', 'https', 'ftp', 'ftps', 'sftp', 'ssh', 'git', 'file', 'ws', 'wss', 'irc', 'ircs', 'nntp']);

/**
 * At the colon `c`:
 *
 *     詳細はhttps://例え.jp/パス。
 *          ^s   ^c            (P4: a scheme may follow Japanese text directly)
 *     seehttp://example.com   (P4: not after a Latin letter)
 *
 * Returns true with the candidate in `st`, or false with `st.next` set.
 */
export function atColon(st: ScanState, c: number): boolean {
  const text = st.text;
  st.next = c + 1;
  const s = schemeBefore(st, c, st.floor());
  if (s < 0) return false;
  // P4: the scheme must not be glued to a word of a script written with spaces — unless that word ends in a host's
  // TLD (`http://www.debian.orghttp://www.debian.org/doc/`: a new link, P8), or is the letter of an escape (`\n`).
  if (
    s > 0 &&
    !allowsGluedScheme(codePointBefore(text, s)) &&
    !escapeEndsAt(text, s) &&
    !isControlSequenceEnd(text, s - 1) &&
    !tldBeforeGluedScheme(st, s)
  ) {
    return false;
  }
  // The segment's cut (state.ts) split the scheme after a `+` or `-` (`…svn+` | `ssh://`, `…git+` | `https://`): it
  // is not known. (A letter or digit there is P4's; a dot is the sentence's: `…page.` | `https://`, as schemeStart
  // reads it.)
  if (s > 0 && s === st.floor() && (text.charCodeAt(s - 1) === PLUS || text.charCodeAt(s - 1) === HYPHEN)) return false;
  const scheme = st.scheme;
  // Emails are found from their domain (email.ts), `mailto:` included; here only the one whose `@` is written `%40`.
  if (scheme === 'mailto') return encodedAtMailto(st, s, c);
  st.beginCandidate();
  st.closer = closerBefore(text, s);
  st.delimited = delimitedBefore(text, s);
  st.kind = 'url';
  st.schemeInferred = false;
  st.start = s;
  // RFC 8089 Appendix E.2 and E.2.2, WHATWG URL §4.4 "file host state": a drive letter right after `file://`, with
  // `:` or the older `|`, starts the path; it names no host (`file://c|/autoexec.bat` linked `file://c`, a link to
  // the host `c`; found in review). The conversion writes it `file:///c:/…` (convert.ts fileDriveLetter).
  // A URL in a JSON string whose encoder escapes `/` (PHP's json_encode by default): `"https:\/\/example.com\/a"` is
  // `https://example.com/a` (RFC 8259 §7: `\/` is `/`; found in review: nothing was linked).
  st.jsonEscaped = st.slashes && text.charCodeAt(c + 1) === BACKSLASH;
  // …and one whose colon is written `\:` (schemeBefore): `https\://services.gradle.org/…` is `https://services.gradle.org/…`.
  st.colonEscaped = st.slashes && text.charCodeAt(c - 1) === BACKSLASH;
  if (st.jsonEscaped) return authorityForm(st, scheme, c + 5);
  if (st.slashes && scheme === 'file' && driveLetterAt(st, c + 3)) return localPath(st, c + 2);
  if (st.slashes) return authorityForm(st, scheme, c + 3);
  if (scheme === 'file') return localPath(st, c + 1);
  if (HIERARCHICAL_ONLY.has(scheme)) return false;
  if (text.charCodeAt(c + 1) === SLASH || !opaqueForm(st, c + 1)) return false;
  // RFC 3966 §3 for a bare tel: only; the author's `<tel:911>`, `href="tel:10086"` stands (as in Markdown mode).
  if (scheme === 'tel' && !st.delimited && !telephoneSubscriber(text, c + 1, st.stop)) {
    st.next = st.stop; // nothing inside it is a link of its own
    return false;
  }
  // RFC 8141 §2 for a bare urn:, as for tel:: `urn:uuid` and `urn:isbn` name a namespace in prose, no resource.
  if (scheme === 'urn' && !st.delimited && !assignedName(text, c + 1, st.stop)) {
    st.next = st.stop;
    return false;
  }
  return true;
}

/**
 * RFC 8141 §2: does text[a, e), after `urn:`, hold an NID, `:` and an NSS (at least one character)?
 *
 *     assigned-name = "urn" ":" NID ":" NSS
 *     NID           = (alphanum) 0*30(ldh) (alphanum)
 *     ldh           = alphanum / "-"
 *     NSS           = pchar *(pchar / "/")
 */
function assignedName(text: string, a: number, e: number): boolean {
  let i = a;
  while (i < e && i - a <= 32) {
    const c = text.charCodeAt(i);
    if (c === COLON) break;
    if (c >= 128 || (c !== HYPHEN && (ASCII_FLAGS[c]! & (A_ALPHA | A_DIGIT)) === 0)) return false;
    i++;
  }
  if (i === e || text.charCodeAt(i) !== COLON || i - a < 2 || i - a > 32) return false;
  if (text.charCodeAt(a) === HYPHEN || text.charCodeAt(i - 1) === HYPHEN) return false;
  return i + 1 < e && text.charCodeAt(i + 1) !== SLASH;
}

/**
 * RFC 3966 §3: is text[a, e) a telephone-subscriber? `Tel:27 83 6919246` and `TEL:0031-623-787-971` in a signature
 * are phone numbers after a label, not tel: URIs (the first would link `Tel:27`); `tel:+1-201-555-0123` and
 * `tel:7042;phone-context=example.com` are. (`tel:10086` is refused when bare: RFC 3966 has no tel URI without a
 * context; the caller lets an author-delimited one stand.)
 *
 *     telephone-subscriber = global-number / local-number
 *     global-number        = global-number-digits *par
 *     local-number         = local-number-digits *par context *par
 *     par                  = parameter / extension / isdn-subaddress
 *     isdn-subaddress      = ";isub=" 1*uric
 *     extension            = ";ext=" 1*phonedigit
 *     context              = ";phone-context=" descriptor
 *     descriptor           = domainname / global-number-digits
 *     global-number-digits = "+" *phonedigit DIGIT *phonedigit
 *     local-number-digits  = *phonedigit-hex (HEXDIG / "*" / "#") *phonedigit-hex
 *     parameter            = ";" pname ["=" pvalue ]
 *     pname                = 1*( alphanum / "-" )
 *     pvalue               = 1*paramchar
 *     paramchar            = param-unreserved / unreserved / pct-encoded
 *     param-unreserved     = "[" / "]" / "/" / ":" / "&" / "+" / "$"
 *     phonedigit           = DIGIT / [ visual-separator ]
 *     phonedigit-hex       = HEXDIG / "*" / "#" / [ visual-separator ]
 *     visual-separator     = "-" / "." / "(" / ")"
 *
 * (`#` cannot occur: the link's fragment starts there. Names compare case-insensitively, RFC 3966 §3.)
 */
function telephoneSubscriber(text: string, a: number, e: number): boolean {
  const global = text.charCodeAt(a) === PLUS;
  let i = global ? telDigitsEnd(text, a + 1, e, false) : telDigitsEnd(text, a, e, true);
  if (i < 0) return false;
  let context = false;
  while (i < e) {
    if (text.charCodeAt(i) !== SEMICOLON) return false;
    const ns = ++i;
    while (i < e && (isAlnum(text.charCodeAt(i)) || text.charCodeAt(i) === 0x2d)) i++;
    if (i === ns) return false; // pname = 1*( alphanum / "-" )
    const hasValue = i < e && text.charCodeAt(i) === 0x3d; // =
    const vs = hasValue ? i + 1 : i;
    if (equalsLowerCased(text, ns, i, 'phone-context')) {
      if (global || context || !hasValue) return false; // one context, for a local number only
      let ve = vs;
      while (ve < e && text.charCodeAt(ve) !== SEMICOLON) ve++;
      if (!telDescriptor(text, vs, ve)) return false;
      context = true;
      i = ve;
    } else if (equalsLowerCased(text, ns, i, 'isub')) {
      // 1*uric; uric holds `;`, which makes the grammar ambiguous: here a `;` starts the next par.
      i = vs;
      while (i < e && text.charCodeAt(i) !== SEMICOLON && isUric(text, i)) i++;
      if (i === vs || (i < e && text.charCodeAt(i) !== SEMICOLON)) return false;
    } else if (equalsLowerCased(text, ns, i, 'ext')) {
      if (!hasValue) return false;
      i = vs;
      while (i < e && isPhonedigit(text.charCodeAt(i))) i++;
      if (i === vs) return false;
    } else if (hasValue) {
      i = vs;
      while (i < e && isParamchar(text, i)) i += text.charCodeAt(i) === PERCENT ? 3 : 1;
      if (i === vs) return false; // pvalue = 1*paramchar
    }
  }
  return global || context;
}

/**
 * After `+` (global-number-digits: phonedigit, at least one DIGIT) or from the start of a local number
 * (local-number-digits: phonedigit-hex, at least one HEXDIG or `*`): where the digits end, or −1 without the one.
 */
function telDigitsEnd(text: string, i: number, e: number, hex: boolean): number {
  let seen = false;
  for (; i < e; i++) {
    const ch = text.charCodeAt(i);
    if (ch >= 0x30 && ch <= 0x39) seen = true;
    else if (hex && (ch === 0x2a || hexValue(ch) >= 0)) seen = true;
    else if (!isVisualSeparator(ch)) break;
  }
  return seen ? i : -1;
}

/**
 * RFC 3966 §3 descriptor = domainname / global-number-digits, text[a, e). In the IRI a label may hold non-ASCII
 * letters (RFC 3987 §3.1 maps them to an IDN's A-label): `tel:7042;phone-context=例え.jp`.
 */
function telDescriptor(text: string, a: number, e: number): boolean {
  if (a >= e) return false;
  if (text.charCodeAt(a) === PLUS) return telDigitsEnd(text, a + 1, e, false) === e;
  // domainname = *( domainlabel "." ) toplabel [ "." ]; a label is alphanum, with `-` inside; the last starts with
  // a letter.
  if (text.charCodeAt(e - 1) === DOT) e--;
  let labelStart = a;
  for (let i = a; i <= e; i++) {
    const ch = i < e ? text.charCodeAt(i) : DOT;
    if (ch === DOT) {
      if (i === labelStart || text.charCodeAt(i - 1) === 0x2d) return false;
      if (i === e) {
        const first = text.charCodeAt(labelStart);
        return first >= 128 || (ASCII_FLAGS[first]! & A_ALPHA) !== 0;
      }
      labelStart = i + 1;
    } else if (ch >= 128) {
      const cp = codePointAt(text, i);
      if (!isLabelChar(cp)) return false;
      if (cp > 0xffff) i++;
    } else if (!isAlnum(ch) && !(ch === 0x2d && i > labelStart)) {
      return false;
    }
  }
  return false;
}

/** RFC 3966 §3 visual-separator = "-" / "." / "(" / ")" */
function isVisualSeparator(ch: number): boolean {
  return ch === 0x2d || ch === DOT || ch === 0x28 || ch === 0x29;
}

/** RFC 3966 §3 phonedigit = DIGIT / visual-separator */
function isPhonedigit(ch: number): boolean {
  return (ch >= 0x30 && ch <= 0x39) || isVisualSeparator(ch);
}

/** RFC 3966 §3 paramchar = param-unreserved / unreserved / pct-encoded, at text[i]. */
function isParamchar(text: string, i: number): boolean {
  const ch = text.charCodeAt(i);
  if (ch === PERCENT) return hexValue(text.charCodeAt(i + 1)) >= 0 && hexValue(text.charCodeAt(i + 2)) >= 0;
  return ch < 128 && (TEL_CHARS[ch]! & PARAMCHAR) !== 0;
}

/** RFC 3966 §3 uric = reserved / unreserved / pct-encoded (RFC 2396), one character at text[i] (`%` counted alone). */
function isUric(text: string, i: number): boolean {
  const ch = text.charCodeAt(i);
  return ch < 128 && (TEL_CHARS[ch]! & URIC) !== 0;
}

const PARAMCHAR = 1;
const URIC = 2;
/** RFC 3966 §3 by ASCII code: PARAMCHAR (unreserved, param-unreserved), URIC (RFC 2396 reserved, unreserved, `%`). */
const TEL_CHARS = new Uint8Array(128);
{
  for (let ch = 0; ch < 128; ch++) if (isAlnum(ch)) TEL_CHARS[ch] = PARAMCHAR | URIC;
  const mark = (chars: string, flag: number): void => {
    for (let k = 0; k < chars.length; k++) TEL_CHARS[chars.charCodeAt(k)]! |= flag;
  };
  mark('-._~[]/:&+$', PARAMCHAR);
  mark(";/?:@&=+$,-_.!~*'()%", URIC);
}

/**
 * atColon's first steps, which read nothing before `floor` and nothing after c + 2: the scheme before the colon
 * `c` (RFC 3986 §3.1), whether `//` follows (st.slashes), and whether the character after the colon may start an
 * opaque path. Returns the scheme's start with st.scheme set, or −1 (no link at this colon).
 */
export function schemeBefore(st: ScanState, c: number, floor: number): number {
  const text = st.text;
  // A colon written `\:` before `//` (Java's .properties, vCard: `https\://services.gradle.org/…`): the scheme ends
  // before the `\` (found in review: every Gradle wrapper's distributionUrl was not linked).
  const escaped = c - 1 > floor && text.charCodeAt(c - 1) === BACKSLASH && slashesAt(st, c + 1);
  const e = escaped ? c - 1 : c;
  let r = e;
  while (r > floor) {
    const ch = text.charCodeAt(r - 1);
    if (ch >= 128 || (ASCII_FLAGS[ch]! & A_SCHEME) === 0) break;
    r--;
    if (e - r > MAX_SCHEME_LENGTH) return -1;
  }
  // An escape written out (`"a\nhttps://…"`, roff's `\fBhttps://…`, chars.ts afterEscape) is not the scheme's, nor
  // is a terminal's control sequence (`\x1b[4mhttps://…`, chars.ts afterControlSequence).
  r = afterControlSequence(text, r, e);
  r = afterEscape(text, r, e);
  // RFC 3986 §3.1: a scheme starts with a letter.
  while (r < e && (ASCII_FLAGS[text.charCodeAt(r)]! & A_ALPHA) === 0) r++;
  if (r === e) return -1;
  const slashes = escaped || slashesAt(st, c + 1) || jsonSlashesAt(st, c + 1);
  st.slashes = slashes;
  // Without `//` the only ways on are opaqueForm(c + 1), which wants an Include character there (or `?`), and
  // localPath (`file:/`): a colon followed by a space, the end or other ASCII punctuation (`From: …`, `Note:`) ends
  // here, before schemeStart looks the name up (performance; the answer is the same).
  if (!slashes) {
    if (st.outOfRoom(c + 1)) return -1;
    const after = text.charCodeAt(c + 1);
    if (after < 128 && after !== QUESTION && after !== SLASH && (termOf(after) !== INCLUDE || after === COLON || after === AT)) {
      return -1;
    }
  }
  return schemeStart(st, r, e, slashes);
}

/** Does `//` start at `i`? */
function slashesAt(st: ScanState, i: number): boolean {
  return !st.outOfRoom(i) && st.text.charCodeAt(i) === SLASH && !st.outOfRoom(i + 1) && st.text.charCodeAt(i + 1) === SLASH;
}

/** Does `\/\/` start at `i` (the `//` of a URL in a JSON string that escapes `/`)? */
function jsonSlashesAt(st: ScanState, i: number): boolean {
  for (let k = 0; k < 4; k++) {
    if (st.outOfRoom(i + k) || st.text.charCodeAt(i + k) !== ((k & 1) === 0 ? BACKSLASH : SLASH)) return false;
  }
  return true;
}

/**
 * P2/P4: which part of the run of scheme characters text[r, c) is the scheme; sets st.scheme (lower case) and
 * returns its start, or −1.
 */
function schemeStart(st: ScanState, r: number, c: number, slashes: boolean): number {
  const o = st.opts;
  // Without `//` only a listed scheme can follow (tel:, urn:, …): most colons in prose stop here.
  if (!slashes && c - r > o.maxSchemeLength) {
    let dot = c - 1;
    while (dot >= r && c - dot - 1 <= o.maxSchemeLength && st.text.charCodeAt(dot) !== 0x2e) dot--;
    if (dot < r || st.text.charCodeAt(dot) !== 0x2e) return -1;
  }
  // The listed and never-linked names are compared with text[r, c) lower-cased by number: no string is built
  // for the colons of prose and markup (`font-size:12px`), nor for a listed scheme (performance).
  const text = st.text;
  const trie = o.schemeTrie;
  let node = schemeNode(trie, text, r, c);
  if (trie.never[node] === 1) return -1;
  let listed = trie.name[node];
  if (listed != null) {
    st.scheme = listed;
    return r;
  }
  // `see the page.https://…`: a dot before a known scheme is punctuation, not part of the scheme.
  let dot = c - 1;
  while (dot >= r && text.charCodeAt(dot) !== 0x2e) dot--;
  if (dot >= r) {
    node = schemeNode(trie, text, dot + 1, c);
    if (trie.never[node] === 1) return -1;
    listed = trie.name[node];
    if (listed != null) {
      st.scheme = listed;
      return dot + 1;
    }
  }
  if (!slashes) return -1;
  const name = text.slice(r, c).toLowerCase();
  // P4: `seehttp://` — a known scheme glued to letters or digits is not a scheme of its own.
  for (const known of o.schemeList) {
    if (name.length > known.length && name.endsWith(known)) {
      const before = name.charCodeAt(name.length - known.length - 1);
      if ((ASCII_FLAGS[before]! & (A_ALPHA | A_DIGIT)) !== 0) return -1;
    }
  }
  for (const never of NEVER_SCHEMES) if (name.endsWith(never)) return -1;
  if (o.anyScheme) {
    st.scheme = name;
    return r;
  }
  return -1;
}

/** The node of the scheme trie that the scheme characters text[r, c) lead to (case folded), or 0 (the root: none). */
function schemeNode(trie: SchemeTrie, text: string, r: number, c: number): number {
  if (r === c) return 0;
  const next = trie.next;
  let node = 0;
  for (let i = r; i < c; i++) {
    const symbol = SCHEME_SYMBOL[text.charCodeAt(i)]!; // text[r, c) is ASCII scheme characters (atColon)
    if (symbol === undefined || symbol < 0) return 0;
    node = next[node * SCHEME_SYMBOLS + symbol]!;
    if (node === 0) return 0;
  }
  return node;
}

/**
 * RFC 3986 §3.2: `//` [userinfo "@"] host [":" port], then the Path/Query/Fragment (UTS #58 §3.5.1).
 * `a` is the index after `//`.
 */
function authorityForm(st: ScanState, scheme: string, a: number): boolean {
  const text = st.text;
  const end = st.end;
  // The common authority, `example.com` then `/`, a space or the end of a line: a run of ASCII host characters
  // ended by an ASCII character that is neither userinfo nor `@`. The userinfo scan below would stop at the same
  // place without an `@`, and the host scan would take the same run: both are skipped (performance).
  let run = a;
  const runMax = a + MAX_DOMAIN_LENGTH;
  let plain = 1;
  while (run < end && run <= runMax) {
    const ch = text.charCodeAt(run);
    if (ch >= 128 || ((ASCII_FLAGS[ch]! & A_HOST) === 0 && ch !== UNDERSCORE)) break;
    plain &= PLAIN_HOST[ch]!;
    run++;
  }
  if (fastPaths && run > a && run < end && run - a <= MAX_DOMAIN_LENGTH && text.charCodeAt(run - 1) !== HYPHEN) {
    const stop = text.charCodeAt(run);
    if (stop < 128 && stop !== AT && (ASCII_FLAGS[stop]! & A_USERINFO) === 0) {
      const hostEnd = beforeDotRun(text, a, run, end);
      if (hostGoesOn(st, a, hostEnd)) return skipUrl(st, hostEnd);
      if (!validLabels(text, a, hostEnd)) return false;
      // No `@` and no `:` follow the run (both are userinfo characters): the authority is the host.
      st.plainAuthority = plain === 1;
      return authorityEnd(st, a, hostEnd);
    }
  }
  // P5: userinfo, only when an `@` ends a run of userinfo characters.
  let hostStart = a;
  let j = a;
  while ((j < end || !st.outOfRoom(j)) && j - a <= MAX_USERINFO_LENGTH) {
    const ch = text.charCodeAt(j);
    if (ch === AT) {
      if (j > a) {
        // The reference, and UTS #58's conformance file, link nothing in `http://john.smith@example.com`
        // (userinfo is deprecated); we follow it for http(s) without a password, and otherwise link the URL
        // with the `userinfo` diagnostic (`ssh://git@host/…`, `https://user:pass@host/`). The unlinked URL
        // is still scanned to its end and reported as an unlinked span with the diagnostic (scanner.ts):
        // `https://bank.example@evil.example/` shows one host and goes to another (RFC 3986 §7.6), so a
        // reader is told why it is not a link, and nothing inside it is linked on its own.
        if (text.lastIndexOf(':', j) < a && (scheme === 'http' || scheme === 'https')) st.unlinked = true;
        st.userinfo = true;
        hostStart = j + 1;
      }
      break;
    }
    if (closes(ch, st.closer)) break;
    if (ch < 128) {
      if ((ASCII_FLAGS[ch]! & A_USERINFO) === 0) break;
      j++;
    } else {
      const cp = st.cpAt(j);
      if (termOf(cp) !== INCLUDE) break;
      j += cp > 0xffff ? 2 : 1;
    }
  }
  // The segment's cut (state.ts) ended the look for an `@` before a character that would have gone on to one: which
  // host the URL names is not known, so it is not linked (`https://bank.example:x` | `@evil.example/`). So below for a
  // host or a port the cut splits (`https://accounts.google.com.e` | `vil.example/`): a link cut there would go to
  // another host than the one written.
  if (hostStart === a && st.cutAt(j)) {
    const ch = text.charCodeAt(j);
    if (ch === AT || (ch < 128 ? (ASCII_FLAGS[ch]! & A_USERINFO) !== 0 : termOf(st.cpAt(j)) === INCLUDE)) return false;
  }

  // The host.
  let hostEnd = hostStart;
  if (!st.outOfRoom(hostStart) && text.charCodeAt(hostStart) === LEFT_SQUARE) {
    // RFC 3986 §3.2.2 IP-literal = "[" ( IPv6address / IPvFuture ) "]"
    let k = hostStart + 1;
    while (!st.outOfRoom(k) && k - hostStart <= MAX_IP_LITERAL_LENGTH) {
      const ch = text.charCodeAt(k);
      if (ch === RIGHT_SQUARE) break;
      // HEXDIG ":" "." and the unreserved / sub-delims of IPvFuture; nothing else (no barrier) belongs inside.
      if (ch >= 128 || (ASCII_FLAGS[ch]! & A_USERINFO) === 0) return false;
      k++;
    }
    if (st.outOfRoom(k) || text.charCodeAt(k) !== RIGHT_SQUARE) return false;
    if (!isIpv6Address(text, hostStart + 1, k) && !isIpvFuture(text, hostStart + 1, k)) return false;
    hostEnd = k + 1;
  } else {
    let k = hostStart;
    let labelStart = hostStart;
    let dots = 0;
    // Whether a character that is not ASCII has been read in the host; where the first one is a letter of a script
    // written without spaces right after ASCII (−1: none), which ends a host without a dot (below).
    let nonAscii = false;
    let glued = -1;
    while (k < end || !st.outOfRoom(k)) {
      const ch = text.charCodeAt(k);
      if (ch < 128) {
        // ASCII: what the general step below does for it, without the code point and Unicode lookups.
        if ((ASCII_FLAGS[ch]! & A_HOST) === 0 && ch !== UNDERSCORE) break;
        if (ch === DOT) {
          dots++;
          labelStart = k + 1;
        }
        k++;
        if (k - hostStart > MAX_DOMAIN_LENGTH) return false;
        continue;
      }
      const cp = st.cpAt(k);
      if (!isDomainChar(cp) && cp !== UNDERSCORE) break;
      if (cp === 0xb7 && isStrayMiddleDot(st, k)) {
        // A host that goes on past it is not known (hostGoesOn): nothing of it is linked.
        if (!st.outOfRoom(k + 1) && isLabelChar(st.cpAt(k + 1))) return skipUrl(st, k);
        break;
      }
      if ((cp === 0x3002 || cp === 0xff61) && (!ideographicDotSeparates(st, k + 1) || stopAfterAsciiTld(st, labelStart, k, dots))) break;
      if (cp === 0xff0e && stopAfterAsciiTld(st, labelStart, k, dots)) break; // `．`, a host dot otherwise (UTS #46)
      if (isHostDot(cp)) {
        dots++;
        labelStart = k + 1;
      } else if (dots > 0 && k > labelStart && cp >= 128 && asciiTldBeforeGluedText(st, labelStart, k + 1) === k) {
        break; // `https://example.comを参照`: the same rule as for schemeless domains (domains.ts)
      } else if (dots === 3 && k > labelStart && isNoSpaceScriptLetter(cp) && isIpv4Address(text, hostStart, k)) {
        // Deviation (UTS #58 §4.1), as for an ASCII TLD above: a dotted IPv4 address (RFC 3986 §3.2.2) glued to a
        // letter of a script written without spaces ends there — `访问http://127.0.0.1服务时` links
        // `http://127.0.0.1`; the reference reads `1服务时` as the last label of a domain (UTS #46 allows it).
        break;
      } else if (dots === 0 && !nonAscii && k > hostStart && isNoSpaceScriptLetter(cp)) {
        glued = k; // (a dot may still come: `http://e家.cn` is one host)
      }
      nonAscii = true;
      k += cp > 0xffff ? 2 : 1;
      if (k - hostStart > MAX_DOMAIN_LENGTH) return false;
    }
    if (st.cutAt(k)) {
      const cp = st.cpAt(k);
      if (cp < 128 ? (ASCII_FLAGS[cp]! & A_HOST) !== 0 || cp === UNDERSCORE : isDomainChar(cp)) return false;
    }
    // Deviation (UTS #58 §4.1), as for an IPv4 address: a host without a dot (`localhost`, an intranet name) written
    // in ASCII ends at a letter of a script written without spaces glued to it (Hangul among them here: Korean writes
    // its particles attached): `访问http://localhost即可` and `http://localhost에서` link `http://localhost` (found in
    // review: the reference reads one label, `xn--localhost-…`).
    if (glued >= 0 && dots === 0) k = glued;
    const trimmed = beforeDotRun(text, hostStart, k, st.end);
    if (trimmed < k) {
      k = trimmed;
      labelStart = hostStart;
      dots = 0;
      for (let i = hostStart; i < k; i++) {
        if (isHostDot(text.charCodeAt(i))) {
          dots++;
          labelStart = i + 1;
        }
      }
    }
    // Deviation (UTS #58 §4.1; RFC 3986 §3.2.2 allows pct-encoded in reg-name): a host written with percent-encoded
    // letters, digits, `-` or `.` (`http://%77%77%77%2E…`, `http://mbf.%61%66…%2e%63%6f%6d/x`: mail spam hiding its
    // host) is not linked: UTS #58's host characters exclude `%`, and the part before the first `%` (`http://mbf`) is
    // another host. The whole URL is skipped, so that nothing inside it (`%65gs.com`) is linked on its own.
    if (hostGoesOn(st, hostStart, k)) return skipUrl(st, k);
    const encodedEnd = encodedHostEnd(st, k);
    if (encodedEnd >= 0) {
      // The search resumes after the URL: its port, then its Path/Query/Fragment (every character read once).
      const p = scanPort(st, encodedEnd);
      st.next = terminate(st, p < 0 ? encodedEnd : p, 0);
      return false;
    }
    // P8: a listed scheme and `://` glued to the TLD start a new link (`http://www.debian.orghttp://www.debian.org/`:
    // `orghttp:` is no host and port; RFC 3986 §3.2.3 would read an empty port and a path `//www.debian.org/`).
    if (dots > 0) {
      const g = tldBeforeScheme(st, labelStart, k);
      if (g > 0) k = g;
    }
    // A doubled scheme (`http://http://example.com/`, `http://www.http://example.com/`, typed or pasted twice): the
    // host's last label is a listed scheme and `://` follows. No link here (not `http://http`): the search resumes at
    // that label, whose colon starts the URL meant. P8, as after a schemeless name (domains.ts): when the labels
    // before it end in a TLD, or are an IPv4 address, the dot before the scheme is the sentence's —
    // `http://f.org.http://y` links `http://f.org` and `http://y`, `http://1.2.3.4.http://y` `http://1.2.3.4`.
    if (k > labelStart && schemeNameBeforeSlashes(st, labelStart, k)) {
      const dot = labelStart - 1;
      const tldStart = dots > 1 ? labelStartBefore(text, hostStart, dot) : -1;
      if ((tldStart > hostStart && isTld(st, tldStart, dot)) || isIpv4Address(text, hostStart, dot)) {
        k = dot;
      } else {
        st.next = labelStart;
        return false;
      }
    }
    // Hyphens that end the host's last label after an ASCII TLD (`https://example.com-----`, a rule drawn under the
    // link): no label ends in `-` (RFC 5891 §4.2.3.1), so they are not the host's. The link ends at the TLD, as a
    // schemeless domain does (domains.ts asciiTldBeforeGluedText); the hyphens are no path either. Before, nothing
    // was linked.
    if (dots > 0 && k > labelStart && text.charCodeAt(k - 1) === HYPHEN) {
      const h = asciiTldBeforeGluedText(st, labelStart, k);
      if (h > 0 && validLabels(text, hostStart, h)) return settle(st, hostStart, h, h);
    }
    // A host that is a Korean particle alone is the particle of the scheme written as a word (`http://를 앞에 붙여야`,
    // "put http:// in front"): no link (found in review; it linked `http://xn--bx2b`).
    const bare = text.charCodeAt(k - 1) === DOT ? k - 1 : k; // (`http://를.`: a full stop after it)
    if (dots === (bare < k ? 1 : 0) && isKoreanParticle(text, hostStart, bare)) return false;
    hostEnd = k;
    if (hostEnd === hostStart) {
      if (scheme !== 'file') return false; // file:///path has an empty host
    } else if (!validLabels(text, hostStart, hostEnd)) {
      return false;
    }
  }
  return authorityEnd(st, hostStart, hostEnd);
}

/**
 * Does the host written after a scheme go on past k, where its scan stopped, so that a link up to k would go to another
 * host than the one written (RFC 3986 §3.2.2 reg-name holds sub-delims; found in review)? Three shapes: a `$` or `{`
 * right after a host dot, a template's or a shell's variable as a label (`https://www.$type.com/`,
 * `https://api.$region.example.com/`, `https://www.{domain}.com/`), and a `(` whose `)` comes before a space, a Hard
 * character or `/ ? #`, with the rest of a label, a dot and an ASCII letter after it (`http://smarta(S).blogspot.com/`,
 * `http://host(1)name.example.com/`). A variable right after the host stays out of the link, which ends there: in
 * `http://other.example.com$1.jpg` (Apache's RedirectMatch) it is the path. A regular expression's escaped dot
 * (`r"https://api\.example\.com/v(\d+)/"` linked `https://api`), and a port that is a variable or a placeholder
 * (`http://localhost:$PORT/health`, `:%d`, `:{port}`, `:${PORT}` linked `http://localhost`; found in review: the
 * authority is not known). And a host that is `www` and no more (isBareWww; the peers link `http://www`). Reads at
 * most 129 units on.
 */
function hostGoesOn(st: ScanState, hostStart: number, k: number): boolean {
  const text = st.text;
  if (isBareWww(st, hostStart, k)) return true;
  if (st.outOfRoom(k)) return false;
  const c = text.charCodeAt(k);
  if (c === DOLLAR || c === LEFT_BRACE) return text.charCodeAt(k - 1) === DOT;
  if (c === BACKSLASH) return !st.outOfRoom(k + 1) && text.charCodeAt(k + 1) === DOT;
  if (c === COLON) {
    if (st.outOfRoom(k + 1)) return false;
    // (`<` before a letter, a placeholder, not `</p>`; `%` not before two hex digits, a verb, not an escape.)
    const p = text.charCodeAt(k + 1);
    const q = st.outOfRoom(k + 2) ? -1 : text.charCodeAt(k + 2);
    if (p === LESS_THAN) return q >= 0 && (ASCII_FLAGS[q]! & A_ALPHA) !== 0;
    if (p === PERCENT) return !(hexValue(q) >= 0 && !st.outOfRoom(k + 3) && hexValue(text.charCodeAt(k + 3)) >= 0);
    return p === DOLLAR || p === LEFT_BRACE;
  }
  if (c !== LEFT_PAREN) return false;
  // The `)`, then the rest of a label and a dot with a letter after it (not a dot inside the brackets: an aside,
  // `https://example.com(i.e. our site)`, `http://Amazon.com(NASDAQ:AMZN.O)`).
  let i = k + 1;
  for (; ; i++) {
    if (i - k > 64 || st.outOfRoom(i)) return false;
    const ch = text.charCodeAt(i);
    if (ch === RIGHT_PAREN) break;
    if (ch === LEFT_PAREN || ch === SLASH || ch === QUESTION || ch === HASH || (ch < 128 && termOf(ch) === HARD)) return false;
  }
  for (i++; !st.outOfRoom(i) && i - k <= 128; i++) {
    const ch = text.charCodeAt(i);
    if (ch === DOT) return !st.outOfRoom(i + 1) && (ASCII_FLAGS[text.charCodeAt(i + 1)]! & A_ALPHA) !== 0;
    if (ch >= 128 || (ASCII_FLAGS[ch]! & A_HOST) === 0) return false;
  }
  return false;
}

/**
 * Is the host text[hostStart, k) `www.`, or `www` with neither a port nor a Path, Query or Fragment after it? `www` is
 * the first label of a name: a URL with it alone is a name left unfinished or written otherwise
 * (`http://www.%{HTTP_HOST}/`, `^http://www\.example\.com/`, `http://www.http://x.example/`, `http://www. for it`).
 * `http://www/x` is left linked, as an intranet host.
 */
function isBareWww(st: ScanState, hostStart: number, k: number): boolean {
  const n = k - hostStart;
  if (n !== 3 && n !== 4) return false;
  if (!equalsLowerCased(st.text, hostStart, hostStart + 3, 'www')) return false;
  if (n === 4) return st.text.charCodeAt(k - 1) === DOT;
  if (st.outOfRoom(k)) return true;
  const c = st.text.charCodeAt(k);
  if (c === COLON) return st.outOfRoom(k + 1) || (ASCII_FLAGS[st.text.charCodeAt(k + 1)]! & A_DIGIT) === 0; // a port?
  return c !== SLASH && c !== QUESTION && c !== HASH;
}

/**
 * No link at a URL whose host is not known (hostGoesOn), nor at a part of it: the search resumes after the rest of
 * the host as written (up to a space or another Hard character, `/ ? # :`, `"` `<` `>`, at most MAX_DOMAIN_LENGTH
 * units), its port and its path.
 */
function skipUrl(st: ScanState, k: number): false {
  const text = st.text;
  let i = k;
  while (!st.outOfRoom(i) && i - k < MAX_DOMAIN_LENGTH) {
    const ch = text.charCodeAt(i);
    if (ch === SLASH || ch === QUESTION || ch === HASH || ch === COLON || ch === 0x22 || ch === 0x3c || ch === 0x3e) break;
    if (ch < 128 && termOf(ch) === HARD) break;
    i++;
  }
  const p = scanPort(st, i);
  st.next = terminate(st, p < 0 ? i : p, 0);
  return false;
}

/** Where the label that ends at text[…, end) starts: after the host dot before it, at `a` at the least. */
function labelStartBefore(text: string, a: number, end: number): number {
  let i = end;
  while (i > a && !isHostDot(text.charCodeAt(i - 1))) i--;
  return i;
}

/**
 * The end of a host text[a, k) without a run of two or more dots that ends the link: sentence punctuation, Soft in
 * UTS #58 §3.5.1, as one trailing dot is (authorityEnd): `(see http://www.prelude-ids.org...)` links
 * `http://www.prelude-ids.org`. Before a path, query or fragment the dots stay in the host, whose empty labels then
 * fail (`git://git..../proj.git`, a host left out). `end` is st.end: the character there is not read.
 * Deviation (UTS #58 §4.1): the reference takes the dots into the host in both cases, and links nothing.
 */
function beforeDotRun(text: string, a: number, k: number, end: number): number {
  if (k - a < 2 || text.charCodeAt(k - 1) !== DOT || text.charCodeAt(k - 2) !== DOT) return k;
  const after = k < end ? text.charCodeAt(k) : -1;
  if (after === SLASH || after === QUESTION || after === HASH) return k;
  while (k > a && text.charCodeAt(k - 1) === DOT) k--;
  return k;
}

/** After the host text[hostStart, hostEnd): the port, then the Path/Query/Fragment; the candidate in `st`. */
function authorityEnd(st: ScanState, hostStart: number, hostEnd: number): boolean {
  const text = st.text;
  // A POD escape glued to the host is not part of it (`LE<lt>http://www.perl.comE<gt>`; terminate.ts podEscapeAt),
  // when a TLD is left (not `HTTP://WWW.EXAMPLE.DE<gt>`).
  if (hostEnd - 1 > hostStart && podEscapeAt(st, hostEnd - 1) && tldBefore(st, hostStart, hostEnd - 1)) hostEnd--;
  let portEnd = scanPort(st, hostEnd);
  if (portEnd < 0) return false;
  // RFC 3986 §3.2.3: the port may be empty (`port = *DIGIT`); a path after it is the URL's
  // (`ftp://netlib.att.com:/netlib/benchmark/whetstones.Z`; found in review: it linked the host alone).
  // (Not before `//`: `http://www.example.comfoo://…` is two links glued, P8.)
  if (
    portEnd === hostEnd &&
    !st.outOfRoom(hostEnd + 1) &&
    text.charCodeAt(hostEnd) === COLON &&
    text.charCodeAt(hostEnd + 1) === SLASH &&
    (st.outOfRoom(hostEnd + 2) || text.charCodeAt(hostEnd + 2) !== SLASH)
  ) {
    portEnd = hostEnd + 1;
  }

  let e = terminate(st, portEnd, 0);
  if (e === portEnd && portEnd === hostEnd && hostEnd > hostStart) {
    // A trailing dot is kept only when a Path, Query or Fragment follows (NOTES §4.1 step 7).
    const last = text.charCodeAt(hostEnd - 1);
    if (last === 0x2e || last === 0x3002 || last === 0xff0e || last === 0xff61) {
      e = hostEnd - 1;
      hostEnd--;
    }
  }
  if (e === hostStart) return false; // `file://` with nothing after it
  return settle(st, hostStart, hostEnd, e);
}

/** Is the last label of the host text[hostStart, e) a TLD (after a dot)? */
function tldBefore(st: ScanState, hostStart: number, e: number): boolean {
  let k = e;
  while (k > hostStart && st.text.charCodeAt(k - 1) !== DOT) k--;
  return k > hostStart && k < e && isTld(st, k, e);
}

/** The candidate: a link that ends at `e`, its host text[hostStart, hostEnd). */
function settle(st: ScanState, hostStart: number, hostEnd: number, e: number): true {
  st.stop = e;
  st.resume = e;
  st.hostStart = hostStart;
  st.hostEnd = hostEnd;
  return true;
}

/**
 * In a host after a scheme, `。` or `｡` is a label separator (UTS #46 maps it to `.`) only when another dot
 * follows the next label or that label is a TLD; otherwise it is the full stop of a CJK sentence:
 * `http://example.com。次へ` links `http://example.com`.
 */
function ideographicDotSeparates(st: ScanState, k: number): boolean {
  let m = k;
  while (!st.outOfRoom(m)) {
    const cp = st.cpAt(m);
    if (!isLabelChar(cp)) {
      if (isDomainChar(cp)) return true; // another dot: more labels follow
      break;
    }
    m += cp > 0xffff ? 2 : 1;
    if (m - k > 63) return false;
  }
  return m > k && isTld(st, k, m);
}

/**
 * Deviation (UTS #46 maps `。` `｡` `．` to `.`), as domains.ts atDot does without a scheme: the `。` `｡` or `．` at `k` after a host
 * whose last label text[labelStart, k) is an ASCII TLD, before a letter of a script written without spaces, ends a
 * sentence — `https://www.debian.org。你可以通过输入下列命令来阅读文档。` links `https://www.debian.org` (the next `。`
 * made ideographicDotSeparates read the sentence as a label). `http://例え。テスト。jp/x` is unchanged.
 */
function stopAfterAsciiTld(st: ScanState, labelStart: number, k: number, dots: number): boolean {
  if (dots === 0 || k === labelStart || st.outOfRoom(k + 1) || !isNoSpaceScriptLetter(st.cpAt(k + 1))) return false;
  const text = st.text;
  for (let i = labelStart; i < k; i++) if (text.charCodeAt(i) >= 128) return false;
  return isTld(st, labelStart, k);
}

/**
 * RFC 8089 §2: file-hier-part = ( "//" auth-path ) / local-path, and local-path = path-absolute (RFC 3986 §3.3: a `/`,
 * then a segment that is not empty): `file:/etc/hosts`, as Java's File.toURI(), SQLite's URI filenames
 * (`file:/home/fred/data.db?vfs=unix-dotfile`) and apt's sources (`file:/cdrom/debian/`) write it. From the `/` at
 * `first`, the path ends as any path does (UTS #58 §3.5.1).
 */
function localPath(st: ScanState, first: number): boolean {
  const text = st.text;
  if (st.outOfRoom(first + 1) || text.charCodeAt(first) !== SLASH) return false;
  const cp = st.cpAt(first + 1);
  if (termOf(cp) !== INCLUDE || cp === SLASH) return false;
  const e = terminate(st, first, PATH);
  if (e <= first + 1) return false;
  st.stop = e;
  st.resume = e;
  st.hostStart = -1;
  st.hostEnd = -1;
  return true;
}

/** A Windows drive letter at `i`: an ASCII letter, then `:` or `|`, then `/` (RFC 8089 Appendix E.2). */
function driveLetterAt(st: ScanState, i: number): boolean {
  if (st.outOfRoom(i + 2)) return false;
  const text = st.text;
  const sep = text.charCodeAt(i + 1);
  return isAlpha(text.charCodeAt(i)) && (sep === COLON || sep === VERTICAL_LINE) && text.charCodeAt(i + 2) === SLASH;
}

/** RFC 3986 §3 `scheme:` path-rootless and friends (tel:, urn:, geo:, magnet:?…): a path after the colon. */
function opaqueForm(st: ScanState, first: number): boolean {
  const text = st.text;
  if (st.outOfRoom(first)) return false;
  let cp = st.cpAt(first);
  if (cp === QUESTION) {
    // magnet:?xt=…
    if (st.outOfRoom(first + 1)) return false;
    cp = st.cpAt(first + 1);
  }
  if (termOf(cp) !== INCLUDE || cp === SLASH || cp === COLON || cp === AT) return false;
  const e = terminate(st, first, PATH);
  if (e <= first || (text.charCodeAt(first) === QUESTION && e <= first + 1)) return false;
  st.stop = e;
  st.resume = e;
  st.hostStart = -1;
  st.hostEnd = -1;
  return true;
}

/**
 * Where the host that goes on at `k` in percent-encoding ends (RFC 3986 §3.2.2 reg-name: host characters and `%XX`),
 * when a `%XX` of that run writes an ASCII letter, digit, `-` or `.` — a host character written percent-encoded; else
 * −1. Any `%XX` of the run counts: in `http://www.x.com%40w%77%77%2Eterra.es/` the `%77` says it, not the first one.
 * (`%20`, `%2F`, `%3F` after a host, and a run of such only, are not: the host ends at the `%`, as before.)
 */
function encodedHostEnd(st: ScanState, k: number): number {
  const text = st.text;
  if (st.outOfRoom(k) || text.charCodeAt(k) !== PERCENT) return -1;
  let encoded = false;
  let m = k;
  const max = k + 3 * MAX_DOMAIN_LENGTH;
  while (m < max && !st.outOfRoom(m)) {
    const ch = text.charCodeAt(m);
    if (ch < 128 && ((ASCII_FLAGS[ch]! & A_HOST) !== 0 || ch === UNDERSCORE)) {
      m++;
      continue;
    }
    if (ch !== PERCENT || st.outOfRoom(m + 2)) break;
    const hi = hexValue(text.charCodeAt(m + 1));
    const lo = hexValue(text.charCodeAt(m + 2));
    if (hi < 0 || lo < 0) break;
    const byte = hi * 16 + lo;
    if (byte < 128 && (ASCII_FLAGS[byte]! & A_HOST) !== 0) encoded = true;
    m += 3;
  }
  return encoded ? m : -1;
}

/** Is text[a, k) a listed scheme (any case), with `://` at k? */
function schemeNameBeforeSlashes(st: ScanState, a: number, k: number): boolean {
  const text = st.text;
  if (k - a > st.opts.maxSchemeLength || st.outOfRoom(k) || text.charCodeAt(k) !== COLON) return false;
  if (st.outOfRoom(k + 2) || text.charCodeAt(k + 1) !== SLASH || text.charCodeAt(k + 2) !== SLASH) return false;
  for (const name of st.opts.schemeList) if (equalsLowerCased(text, a, k, name)) return true;
  return false;
}

/**
 * P4 with P8: the scheme at `s` (listed, followed by `//`) is glued to an ASCII TLD of at most 6 letters after a dot
 * and a label character — the end of a host (`….orghttp://`). Reads at most 8 units before `s` (within CONTEXT_LENGTH).
 */
function tldBeforeGluedScheme(st: ScanState, s: number): boolean {
  if (!st.slashes || !st.opts.schemes.has(st.scheme)) return false;
  const text = st.text;
  let t = s;
  while (t > 0 && s - t < 7) {
    const ch = text.charCodeAt(t - 1);
    if (ch >= 128 || (ASCII_FLAGS[ch]! & A_ALPHA) === 0) break;
    t--;
  }
  if (s - t < 2 || s - t > 6 || t < 2 || text.charCodeAt(t - 1) !== DOT) return false;
  const label = text.charCodeAt(t - 2);
  return label < 128 && (ASCII_FLAGS[label]! & A_HOST) !== 0 && label !== DOT && label !== 0x2d && isTld(st, t, s);
}

/**
 * RFC 6068 §2: the addr-spec of a `mailto:` URI may be percent-encoded (RFC 3986 §2.1), also its `@`:
 * `<mailto:press%40debian.org>` (as Debian's pages write it) is an address, which the domain rule cannot find (its
 * back-scan stops at the `%`, and `40debian.org` is no name: domains.ts percentEncodedBefore).
 *
 *     see mailto:press%40debian.org.
 *         ^s     ^c+1 ^at  ^ds     ^ the link ends at the TLD (a trailing dot is the sentence's), or after `?hfields`
 *
 * The local part: unreserved characters, `!$'*+`, `%XX` (RFC 6068 §2 wants the others of RFC 5322 atext
 * percent-encoded in a URI) and non-ASCII Link_Email characters (an IRI, RFC 3987 §2.2), then `%40` (not one inside
 * `%22…%22`: RFC 6068 §6.1's `mailto:%22not%40me%22@example.org`); not empty, no
 * dot at either end, no `..` (UTS #58 §5.2 step 2). The domain: ASCII LDH labels (UTS #58 §4.1 steps 2 and 4) ending
 * in a TLD. toUri maps only a domain after a literal `@` through UTS #46 (to-uri.ts), so a non-ASCII one after `%40`
 * is not taken. The link stays as written: toIri keeps `%40` (RFC 3987 §3.2 step 2: `@` is reserved) and shows an
 * `xn--` domain after it in Unicode, as after `@`. More addresses may follow after `,` (RFC 6068 §2
 * `to = addr-spec *("," addr-spec)`), with `%40` or `@`. Returns false, st.next = c + 1, with `email: false`, for a
 * literal `@` (`mailto:a@example.org`) or anything else before `%40`, and when a literal `@` follows the domain
 * (`mailto:a%40b.com@c.com` is one address whose local part holds `%40`: the domain rule links it whole).
 */
function encodedAtMailto(st: ScanState, s: number, c: number): boolean {
  // `email: false` turns every email link off, `mailto:` ones included (as emailAt).
  if (!st.opts.email) return false;
  const text = st.text;
  let end = encodedAddress(st, c + 1, false);
  let ds = addressDomainStart;
  if (end < 0) {
    // RFC 6068 §2: a list written with a literal `@` (`mailto:a@x.org,b@y.org?subject=…`) is one link too; it was
    // two, and the hfields were lost (found in review). A single address is the domain rule's (email.ts).
    end = encodedAddress(st, c + 1, true);
    ds = addressDomainStart;
    if (end < 0 || st.outOfRoom(end + 1) || text.charCodeAt(end) !== COMMA) return false;
    const next = encodedAddress(st, end + 1, true);
    if (next < 0 || (!st.outOfRoom(next) && text.charCodeAt(next) === AT)) return false;
  }
  const hostEnd = end;
  // A literal `@` after the domain: `mailto:a%40b.com@c.com` is one address whose local part holds `%40`, the domain
  // rule's (email.ts); it is linked whole from there.
  if (!st.outOfRoom(end) && text.charCodeAt(end) === AT) return false;
  // RFC 6068 §2: to = addr-spec *("," addr-spec): `mailto:a%40b.com,c%40d.com` (or `,c@d.com`) is one link.
  while (!st.outOfRoom(end + 1) && text.charCodeAt(end) === COMMA) {
    const next = encodedAddress(st, end + 1, true);
    if (next < 0 || (!st.outOfRoom(next) && text.charCodeAt(next) === AT)) break;
    end = next;
  }
  const tldEnd = end;
  st.beginCandidate();
  st.closer = closerBefore(text, s);
  st.delimited = delimitedBefore(text, s);
  st.kind = 'email';
  st.scheme = 'mailto';
  st.schemeInferred = false;
  st.start = s;
  st.stop = tldEnd;
  st.resume = tldEnd;
  if (!st.outOfRoom(tldEnd) && text.charCodeAt(tldEnd) === QUESTION) {
    // RFC 6068 §2 hfields, as emailAt takes them after a literal `@` (a UTS #58 §3.5.1 query).
    const e = terminate(st, tldEnd, 0);
    if (e > tldEnd + 1) {
      st.stop = e;
      st.resume = e;
    }
  }
  st.hostStart = ds;
  st.hostEnd = hostEnd;
  return true;
}

/** encodedAddress's domain start, set when it returns an end (no allocation for a second return value). */
let addressDomainStart = -1;

/**
 * One addr-spec of a `mailto:` URI from `ls`, its `@` written `%40` (or, when `literalAt`, a literal `@`: a second
 * address of the list). Returns where its domain's TLD ends and sets addressDomainStart, or −1.
 */
function encodedAddress(st: ScanState, ls: number, literalAt: boolean): number {
  const text = st.text;
  let j = ls;
  let at = -1; // the end of the local part
  let ds = -1; // the start of the domain
  let quoted = false; // inside a quoted-string (RFC 5322 §3.4.1), written `%22…%22`: its `%40` is no separator
  while (!st.outOfRoom(j) && j - ls <= 3 * MAX_LOCAL_PART_LENGTH) {
    const ch = text.charCodeAt(j);
    if (ch === PERCENT) {
      if (st.outOfRoom(j + 2)) return -1;
      const hi = hexValue(text.charCodeAt(j + 1));
      const lo = hexValue(text.charCodeAt(j + 2));
      if (hi < 0 || lo < 0) return -1;
      if (hi === 2 && lo === 2) quoted = !quoted;
      if (hi === 4 && lo === 0 && !quoted) {
        at = j;
        ds = j + 3;
        break;
      }
      j += 3;
    } else if (ch === AT && literalAt && !quoted) {
      at = j;
      ds = j + 1;
      break;
    } else if (ch < 128) {
      if (LOCAL_PART[ch] !== 1) return -1;
      j++;
    } else {
      const cp = st.cpAt(j);
      if (!isLinkEmail(cp) || isBidiControl(cp)) return -1;
      j += cp > 0xffff ? 2 : 1;
    }
  }
  // UTS #58 §5.2 step 2, as emailAt: the local part is not empty, has no dot at either end and no `..`.
  if (at <= ls || text.charCodeAt(ls) === DOT || text.charCodeAt(at - 1) === DOT) return -1;
  for (let i = ls + 1; i < at; i++) if (text.charCodeAt(i) === DOT && text.charCodeAt(i - 1) === DOT) return -1;
  // The domain: ASCII host characters, its last label a TLD.
  let k = ds;
  let labelStart = ds;
  let lastLabel = ds; // the label before labelStart's
  while (!st.outOfRoom(k)) {
    const ch = text.charCodeAt(k);
    if (ch >= 128 || (ASCII_FLAGS[ch]! & A_HOST) === 0) break;
    k++;
    if (ch === DOT) {
      lastLabel = labelStart;
      labelStart = k;
    }
    if (k - ds > MAX_DOMAIN_LENGTH) return -1;
  }
  if (!st.outOfRoom(k) && text.charCodeAt(k) >= 128 && isLabelChar(st.cpAt(k))) {
    // UTS #58 §4.1 step 2: a TLD does not run on into a letter (`.comé`), except the deviation of domains.ts for a
    // script written without spaces: `mailto:a%40example.comを参照` ends at the ASCII TLD.
    if (labelStart === ds || asciiTldBeforeGluedText(st, labelStart, k + 1) !== k) return -1;
  }
  // A trailing dot ends the sentence (NOTES §4.1 step 7: no path follows an address).
  let tldEnd = k;
  if (labelStart === k && k > ds) {
    tldEnd = k - 1;
    labelStart = lastLabel;
  }
  if (labelStart === ds || labelStart >= tldEnd || !isTld(st, labelStart, tldEnd) || !validLabels(text, ds, tldEnd)) return -1;
  addressDomainStart = ds;
  return tldEnd;
}

/**
 * RFC 6068 §2: the ASCII characters a local part may hold unencoded in a mailto URI (unreserved, and the
 * some-delims that RFC 5322 atext has): 1, else 0.
 */
const LOCAL_PART = new Uint8Array(128);
{
  for (let ch = 0; ch < 128; ch++) if ((ASCII_FLAGS[ch]! & (A_ALPHA | A_DIGIT)) !== 0) LOCAL_PART[ch] = 1;
  const punctuation = "-._~!$'*+";
  for (let i = 0; i < punctuation.length; i++) LOCAL_PART[punctuation.charCodeAt(i)] = 1;
}
