// Log rules: what the detector reads for one log line, and which of its links are log syntax rather than links.
//
// The detector runs unchanged on a *view* of the line; link offsets found in the view are mapped back to the
// line, and each link's `text` is the line's own slice. The view:
//
// - JSON (RFC 8259), from the first `{"` of the line on (a JSON line, or a JSON payload after a timestamp and
//   a level): string values are unescaped (`\/` → `/`, `\u4F8B` → 例,
//   `\n` → a line break …), so `"https:\/\/example.com\/a"` (PHP, some Java encoders) and
//   `"https://\u4f8b\u3048.jp"` (Python's json.dumps) are links; the `uri` is that of the unescaped value.
// - `"` and `|` become U+0000, a Hard character: in a log they delimit fields (JSON strings, Apache/nginx
//   quoted fields, `key="…"`, pipe-separated records) and a URI never holds them raw (RFC 3986 §2: `"` and `|`
//   are not URI characters; servers log them as %22 / \x22). So a link inside a quoted value ends at the
//   closing quote even when it does not start right after the opening one (P6 covers only that case).
// - a `\` right before a `"` becomes U+0000 as well: it escapes the quote, outside JSON too (Apache's
//   mod_log_config writes a `"` in a field as `\"`, logfmt and RFC 5424 §6.3.3 PARAM-VALUE escape `"` as `\"`),
//   and `\` is no URI character either (RFC 3986 §2), so `err="Get \"https://example.com/m\": …"` links
//   `https://example.com/m`, not `https://example.com/m\`.
// - `key=` at the start of a token (line start or after whitespace or U+0000, or after a `{`, `[` or `(` there)
//   loses its `=` to a space, so the key is not taken into the value: `user=alice@example.com` and
//   `{email=alice@example.com, id=1}` give the email `alice@example.com`, not an email whose local part is
//   `user=alice` (`=` is an RFC 5322 atext character).
//
// And two filters on what the detector finds:
// - a schemeless link right after `/` or `\` is a path segment, not a host: the request line
//   `"GET /cgi-bin/tools.pl HTTP/1.1"`, `/var/www/example.com/index.html`.
// - `<auth.info>`: a BSD syslog facility.severity (RFC 5424 §6.2.1 names) in angle brackets is not a domain.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const PIPE = 0x7c;
const EQUALS = 0x3d;
const NUL = '\u0000';

export interface LineView {
  /** What the detector reads. */
  text: string;
  /** map[i] = index in the line of view index i, map[text.length] = line.length; null when the view has the line's offsets. */
  map: Int32Array | null;
  /** `text` before the field mask (the JSON view only): what isLogSyntax reads. */
  unmasked: string;
}

/** The detector's view of one log line (see the file comment). */
export function logView(line: string): LineView {
  // JSON from the first `{"` on: a JSON line, or a JSON payload after a timestamp and a level.
  const json = line.indexOf('{"');
  const view = json >= 0 ? jsonView(line, json) : { text: line, map: null };
  return { text: maskFields(view.text), map: view.map, unmasked: view.text };
}

/** Offset in the line of offset `i` in the view. */
export function toLine(view: LineView, i: number): number {
  return view.map === null ? i : view.map[i]!;
}

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const l = c | 0x20;
  if (l >= 0x61 && l <= 0x66) return l - 0x61 + 10;
  return -1;
}

// RFC 8259 §7: inside strings, `\` escapes one of `" \ / b f n r t` or `uXXXX`. Outside strings nothing changes.
// Quotes (the delimiters and `\"`) become U+0000.
function jsonView(line: string, from: number): { text: string; map: Int32Array | null } {
  const n = line.length;
  const run = jsonRun(line, from, n, n, false);
  if (run.map === null) return { text: line.slice(0, from) + run.text, map: null };
  const result = new Int32Array(from + run.map.length + 1);
  for (let k = 0; k < from; k++) result[k] = k; // before the JSON: the line's own offsets
  for (let k = 0; k < run.map.length; k++) result[from + k] = run.map[k]!;
  result[from + run.map.length] = n;
  return { text: line.slice(0, from) + run.text, map: result };
}

/** The JSON view of src[from, limit), as jsonRun gives it. */
export interface JsonRun {
  text: string;
  /** map[i]: index in src of text unit i; null when text has src's offsets (no escape shortened it). */
  map: number[] | null;
  /** Inside a string at `end`. */
  inString: boolean;
  /** Where the run stopped: limit, or past it when an escape that starts before limit ends after it. */
  end: number;
}

/**
 * The JSON view (see the file comment) of src[from, limit), inside a string or not at `from`; `n` is where the
 * line's text ends (an escape reads up to 6 units on, never past n). The log stream calls it on a long line piece
 * by piece (src/logs/long.ts), with limit at least 6 units before the text it has so far ends.
 */
export function jsonRun(src: string, from: number, limit: number, n: number, inString: boolean): JsonRun {
  let out = '';
  let last = from;
  let map: number[] | null = null; // built from the first escape on
  // Appends src[last, to) to out (and its indices to map).
  const flush = (to: number): void => {
    if (to > last) {
      out += src.slice(last, to);
      if (map !== null) for (let k = last; k < to; k++) map.push(k);
    }
  };
  const replace = (at: number, length: number, s: string): void => {
    flush(at);
    if (map === null && length !== s.length) {
      map = new Array<number>(out.length);
      for (let k = 0; k < out.length; k++) map[k] = from + k; // same-length so far: identity
    }
    out += s;
    if (map !== null) for (let k = 0; k < s.length; k++) map.push(at);
    last = at + length;
  };
  let k = from;
  for (; k < limit; k++) {
    const c = src.charCodeAt(k);
    if (c === QUOTE) {
      replace(k, 1, NUL);
      inString = !inString;
      continue;
    }
    if (!inString || c !== BACKSLASH || k + 1 >= n) continue;
    const e = src.charCodeAt(k + 1);
    let s: string | undefined;
    let length = 2;
    switch (e) {
      case 0x2f: s = '/'; break; // \/
      case 0x5c: s = '\\'; break; // \\
      case 0x22: s = NUL; break; // \" — a quote inside the value is a delimiter as well
      case 0x6e: s = '\n'; break;
      case 0x72: s = '\r'; break;
      case 0x74: s = '\t'; break;
      case 0x62: s = '\b'; break;
      case 0x66: s = '\f'; break;
      case 0x75: {
        // \uXXXX (a surrogate pair is two escapes, each giving one code unit)
        if (k + 5 < n) {
          let v = 0;
          for (let h = 2; h < 6; h++) {
            const d = hexValue(src.charCodeAt(k + h));
            if (d < 0) {
              v = -1;
              break;
            }
            v = v * 16 + d;
          }
          if (v >= 0) {
            s = String.fromCharCode(v);
            length = 6;
          }
        }
        break;
      }
      default:
        break;
    }
    if (s === undefined) continue; // not an escape: left as written
    replace(k, length, s);
    k += length - 1;
  }
  flush(k);
  return { text: out, map, inString, end: k };
}

function isKeyStart(c: number): boolean {
  const l = c | 0x20;
  return (l >= 0x61 && l <= 0x7a) || c === 0x5f;
}
function isKeyChar(c: number): boolean {
  return isKeyStart(c) || (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x2d;
}
function isTokenBoundary(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0 || c === 0x0a || c === 0x0d;
}

// `"`, `|` and a `\` before a `"` → U+0000; the `=` of a `key=` at a token start → space. Same length. One pass
// that only stops at `"`, `|`, `\` and `=`; at `\` a look at the next unit, at `=` a back-scan over at most 64 key
// characters.
function maskFields(text: string): string {
  if (text.indexOf('"') < 0 && text.indexOf('|') < 0 && text.indexOf('=') < 0) return text;
  let out = '';
  let last = 0;
  const n = text.length;
  for (let k = 0; k < n; k++) {
    const c = text.charCodeAt(k);
    if (c === QUOTE || c === PIPE || isEscapedQuote(text, k, c)) {
      out += text.slice(last, k) + NUL;
      last = k + 1;
    } else if (c === EQUALS && isKeyEquals(text, k)) {
      out += text.slice(last, k) + ' ';
      last = k + 1;
    }
  }
  return last === 0 ? text : out + text.slice(last);
}

// RFC 5424 §6.3.3 (PARAM-VALUE: `"` written `\"`), and Apache's and logfmt's quoted fields: the `\` of `\"`
// belongs to the quote (see the file comment). `c` is text[k]. The quote may be one the JSON view has made U+0000
// already (RFC 8259 §7): a logfmt line inside a JSON string (Docker's json-file log of a logrus line) writes
// `\"` as `\\\"`, which the view reads as `\` and a quote.
export function isEscapedQuote(text: string, k: number, c: number): boolean {
  if (c !== BACKSLASH) return false;
  const next = text.charCodeAt(k + 1);
  return next === QUOTE || next === 0;
}

// key = [A-Za-z_][A-Za-z0-9_.-]{0,63} at a token start (line start, whitespace, U+0000 or a masked quote, or an
// opening bracket there), the `=` at `eq` followed by a value (not `=`, not a boundary, not the end).
export function isKeyEquals(text: string, eq: number): boolean {
  return keyStart(text, eq) >= 0;
}

/** Where the key of the `key=` whose `=` is at `eq` starts (see isKeyEquals), or -1 when text[eq] is no such `=`. */
function keyStart(text: string, eq: number): number {
  if (eq + 1 >= text.length || text.charCodeAt(eq) !== EQUALS) return -1;
  const next = text.charCodeAt(eq + 1);
  if (next === EQUALS || isTokenBoundary(next)) return -1;
  let k = eq;
  const limit = Math.max(0, eq - 64);
  while (k > limit && isKeyChar(text.charCodeAt(k - 1))) k--;
  if (k === eq || !isKeyStart(text.charCodeAt(k))) return -1;
  if (isTokenStart(text, k)) return k;
  // A bracket that opens a token: Java's Map.toString `{email=bob@example.com, id=1}`, `[user=…]`, `(user=…)`. Only
  // at a token start, so never inside a URL (RFC 3986 §2: a URI holds no whitespace), where `Products(ID=1)` is a
  // path (OData) and `=` stays.
  const opener = text.charCodeAt(k - 1);
  return (opener === 0x7b || opener === 0x5b || opener === 0x28) && isTokenStart(text, k - 1) ? k : -1;
}

/** Whether text[k] starts a token: the line's start, or after whitespace, U+0000 or a quote. */
function isTokenStart(text: string, k: number): boolean {
  return k === 0 || isTokenBoundary(text.charCodeAt(k - 1)) || text.charCodeAt(k - 1) === QUOTE;
}

// What a line without links looks like, seen from its bytes (the record stream's fast path, records.ts).
// The detector finds a link only at a trigger: a `.`, a `:` or a `。` (src/detect/scanner.ts, its trigger search:
// a text without one is scanned to its end with no step run). The log view adds characters only by unescaping
// JSON, which takes a `\`. So UTF-8 bytes that are all ASCII (the line's text is its bytes, one unit each) with
// no `.`, `:` or `\` hold no link with or without the log rules, whatever the detector's options.
const NOT_LINKLESS = new Uint8Array(256);
for (let b = 0x80; b < 256; b++) NOT_LINKLESS[b] = 1;
NOT_LINKLESS[0x2e] = 1; // .
NOT_LINKLESS[0x3a] = 1; // :
NOT_LINKLESS[BACKSLASH] = 1;

/** True when the UTF-8 line bytes[from, to) surely holds no link (see above); false says nothing. */
export function isLinklessAscii(bytes: Uint8Array, from: number, to: number): boolean {
  for (let k = from; k < to; k++) if (NOT_LINKLESS[bytes[k]!] === 1) return false;
  return true;
}

// RFC 5424 §6.2.1 Table 1 and 2 keywords as BSD syslog prints them (`<auth.info>`, `<local0.warn>`).
const FACILITIES = new Set([
  'kern', 'user', 'mail', 'daemon', 'auth', 'syslog', 'lpr', 'news', 'uucp', 'cron', 'authpriv', 'ftp', 'ntp',
  'security', 'console', 'local0', 'local1', 'local2', 'local3', 'local4', 'local5', 'local6', 'local7',
]);
const SEVERITIES = new Set(['emerg', 'panic', 'alert', 'crit', 'err', 'error', 'warn', 'warning', 'notice', 'info', 'debug']);

/**
 * A schemeless link at [start, end) of the view before its field mask (LineView.unmasked) that the log rules say
 * is not a link. Reads the view from start - 2 to end + 1.
 */
export function isLogSyntax(view: string, start: number, end: number): boolean {
  const before = start > 0 ? view.charCodeAt(start - 1) : -1;
  // A path segment: `/cgi-bin/tools.pl`, `/var/www/example.com/x`, `C:\sites\example.com`.
  if (before === 0x2f || before === BACKSLASH) return true;
  // A dotted key: `mail.to=bob@example.com`, `app.kubernetes.io=api` (`.to`, `.io` are TLDs). The mask has made its `=`
  // a space; the key is the whole link.
  if (keyStart(view, end) === start) return true;
  // `<facility.severity>`
  if (before === 0x3c && view.charCodeAt(end) === 0x3e) {
    const s = view.slice(start, end).toLowerCase();
    const dot = s.indexOf('.');
    if (dot > 0 && FACILITIES.has(s.slice(0, dot)) && SEVERITIES.has(s.slice(dot + 1))) return true;
  }
  return false;
}
