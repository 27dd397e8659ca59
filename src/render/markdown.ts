// Markdown renderer (CommonMark 0.31): links as autolinks or inline links, text escaped so that no Markdown
// construct starts in it.
//
// The escaping set, and why (CommonMark §2.4: any ASCII punctuation may be backslash-escaped):
// - everywhere: \ ` * _ [ ] < & ~ |  — escapes, code spans, emphasis, links and images (`![` needs `[`),
//   autolinks and raw HTML, entity references, strikethrough (GFM, on in markdown-it), table cells (GFM);
// - first character of a line: # > - + = :  — ATX headings, block quotes, bullet lists and thematic breaks,
//   setext underlines, GFM table delimiter rows (`:-` under a line makes a table in markdown-it, even under a
//   line whose only `|` is escaped) (`*` `_` `` ` `` `~` `<` `[` `|` are already escaped everywhere);
// - digits at the start of a line followed by . or )  — the . or ) is escaped (ordered lists);
// - a space or tab at the start of a line is written as &#32; / &#9;, so the line neither loses its
//   indentation nor becomes an indented code block, and no block construct can start after it;
// - a `!` right before a link written as [text](uri) (it would make an image), decided when the next chunk
//   comes, so a trailing `!` is held back across chunks.
// - the `:` of a `://` in text (a URL irilink did not link: `éhttps://…`, a scheme left out by `schemes`): markdown-it's
//   linkify rule reads the source from the scheme on, and its match would take in the `\` of an escape after the
//   URL (`https://a.example/\<img …>` links `https://a.example/\` and leaves `<img …>` raw HTML); decided when the
//   next chunk comes when a text ends in `:` or `:/`.
// Line breaks (\n, \r\n, \r) are kept as they are; Markdown then shows them as soft breaks or paragraph breaks.
// A link that may not be clickable (refusalsOf) and a text chunk marked with an unsafe diagnostic (an unlinked span,
// `https://bank.example@evil.example/`) are written as text with every `:` `.` `@` escaped as well: GFM's autolink
// literals and markdown-it's linkify would otherwise make them links again (`https\://bank\.example\@evil\.example/`
// shows as written, and no linkifier sees a scheme, a `www.`, a domain or an email in it).
import type { Chunk, LinkChunk } from '../types.js';
import { EmbeddingReader } from '../detect/embedding.js';
import {
  COMMON_OPTION_NAMES,
  displayText,
  unsafeCodes,
  readBoolean,
  readDisplay,
  readOptions,
  refusalsOf,
  renderAll,
  resolveSchemes,
  type ChunkRenderer,
  type CommonRenderOptions,
} from './common.js';
import { isAlnum } from '../iri/chars.js';

export type MarkdownOptions = CommonRenderOptions;

/** An IDNA A-label prefix (RFC 5890 §2.3.2.1), in any case. */
const ACE_LABEL = /xn--/i;

// Where the next character of text stands in its line.
const LINE_START = 0; //  first character of a line
const LINE_DIGITS = 1; // only digits so far on this line (a `.` or `)` now would make an ordered list item)
const MID_LINE = 2;

// ASCII flag table: characters escaped wherever they appear.
const ESCAPE_ALWAYS = new Uint8Array(128);
for (const ch of '\\`*_[]<&~|') ESCAPE_ALWAYS[ch.charCodeAt(0)] = 1;
// ... and those escaped as the first character of a line.
const ESCAPE_AT_LINE_START = new Uint8Array(128);
for (const ch of '#>-+=:') ESCAPE_AT_LINE_START[ch.charCodeAt(0)] = 1;
// ... and those escaped as well in the text of a link that may not be clickable: what linkifiers look for.
const ESCAPE_INERT = new Uint8Array(128);
for (const ch of '\\`*_[]<&~|:.@') ESCAPE_INERT[ch.charCodeAt(0)] = 1;

// CommonMark §6.5: an autolink is `<` scheme `:` then no ASCII control, space, `<` or `>`, then `>`;
// the scheme is 2–32 characters. Entity references and backslash escapes are not read inside it.
function isAutolinkUri(uri: string): boolean {
  let colon = -1;
  for (let i = 0; i < uri.length; i++) {
    const c = uri.charCodeAt(i);
    if (c <= 0x20 || c === 0x3c || c === 0x3e || c === 0x7f) return false;
    if (c === 0x3a && colon < 0) colon = i;
  }
  return colon >= 2 && colon <= 32;
}

// CommonMark §6.5: email autolink, the HTML spec's valid-email-address grammar:
// [a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+ @ label ( . label )*, label = [a-zA-Z0-9] ([a-zA-Z0-9-]{0,61} [a-zA-Z0-9])?
const EMAIL_LOCAL = new Uint8Array(128);
for (const ch of ".!#$%&'*+/=?^_`{|}~-") EMAIL_LOCAL[ch.charCodeAt(0)] = 1;
// Deviation (CommonMark §6.5): the local part must also start with a letter or digit. `<!a@b.org>` and `<?a@b.org>`
// are email autolinks too, but at the start of a line they start an HTML block first (§4.6 kinds 4 and 3: a
// declaration, a processing instruction), whose lines are raw HTML: `!a@b.org <img src=x onerror=…>` became
// `<!a@b.org> \<img src=x onerror=…>`, and a browser reads `<!a@b.org>` as a comment and then the <img>.
function isAutolinkEmail(s: string): boolean {
  const at = s.indexOf('@');
  if (at <= 0 || !isAlnum(s.charCodeAt(0))) return false;
  for (let i = 0; i < at; i++) {
    const c = s.charCodeAt(i);
    if (!(c < 128 && (isAlnum(c) || EMAIL_LOCAL[c] === 1))) return false;
  }
  let labelStart = at + 1;
  for (let i = at + 1; i <= s.length; i++) {
    const c = i < s.length ? s.charCodeAt(i) : 0x2e;
    if (c === 0x2e) {
      const len = i - labelStart;
      if (len < 1 || len > 63) return false;
      if (!isAlnum(s.charCodeAt(labelStart)) || !isAlnum(s.charCodeAt(i - 1))) return false;
      labelStart = i + 1;
    } else if (!(isAlnum(c) || c === 0x2d)) {
      return false;
    }
  }
  return true;
}

// CommonMark §6.3 link destination, the form without <…>: no space or control (refusalsOf() guarantees that),
// parentheses only balanced or escaped — so ( ) are escaped, and \ < > too; `&` is escaped where it could
// start an entity reference (`&` followed by a letter or `#`), which destinations would decode.
function escapeDestination(uri: string): string {
  let out = '';
  let last = 0;
  for (let i = 0; i < uri.length; i++) {
    const c = uri.charCodeAt(i);
    let escape = c === 0x5c || c === 0x28 || c === 0x29 || c === 0x3c || c === 0x3e;
    if (c === 0x26) {
      const n = i + 1 < uri.length ? uri.charCodeAt(i + 1) : 0;
      escape = n === 0x23 || ((n | 0x20) >= 0x61 && (n | 0x20) <= 0x7a);
    }
    if (escape) {
      out += uri.slice(last, i) + '\\';
      last = i;
    }
  }
  return out === '' ? uri : out + uri.slice(last); // an escape always adds `\\` to out, at index 0 too
}

class MarkdownRenderer implements ChunkRenderer {
  private readonly display;
  private readonly schemes;
  private readonly linksOnly: boolean;
  private line = LINE_START;
  /** The text so far ended with a `!` not yet written: escaped if an inline link follows. */
  private bang = false;
  /** The text so far ended with `:` or `:/`, not yet written: its `:` is escaped if text with the rest of `://` follows. */
  private colon = '';
  /**
   * Bidi embeddings, overrides and isolates left open in the output: a Markdown renderer joins the lines of a
   * paragraph, so one opened on an earlier line (which the detector, reading plain text, closed at the line end)
   * still reverses a link; such a link is written as text, as a `bidi-embedded` one is (UAX #9 X1–X8).
   */
  private readonly bidi = new EmbeddingReader(true);

  /** `fn`: the function that options errors name (the plain function, createRenderer or createRenderStream). */
  constructor(options: unknown, fn = 'toMarkdown') {
    const o = readOptions(fn, options, COMMON_OPTION_NAMES);
    this.display = readDisplay(o.display);
    this.schemes = resolveSchemes(o.schemes);
    this.linksOnly = readBoolean('links', o.links, false);
  }

  chunk(chunk: Chunk): string {
    // The tracker reads what is WRITTEN, after escaping: a space-only input line is written `&#32;`, which a
    // Markdown renderer does not take as blank, so it does not end the paragraph (CommonMark §4.9).
    if (chunk.type === 'link') {
      const out = this.link(chunk, this.bidi.open);
      if (!this.linksOnly) {
        this.bidi.read(out);
        return out;
      }
      this.line = LINE_START;
      this.bidi.read(out + '\n');
      return out + '\n';
    }
    if (this.linksOnly) return '';
    const inert = unsafeCodes(chunk.diagnostics).length > 0;
    let text = chunk.text;
    if (this.colon !== '') {
      text = this.colon + text;
      this.colon = '';
    }
    if (!inert && (text.endsWith(':') || text.endsWith(':/'))) {
      this.colon = text.slice(text.lastIndexOf(':'));
      text = text.slice(0, text.length - this.colon.length);
    }
    const out = this.text(text, inert ? ESCAPE_INERT : ESCAPE_ALWAYS, true);
    this.bidi.read(out);
    return out;
  }

  end(): string {
    const out = this.heldColon() + (this.bang ? '!' : '');
    this.bang = false;
    return out;
  }

  /**
   * The `:` or `:/` held back by chunk(), written now that no `//` can follow it (a link or the end comes). ASCII:
   * nothing for the bidi tracker (chunk() reads it with the link's output).
   */
  private heldColon(): string {
    if (this.colon === '') return '';
    const held = this.colon;
    this.colon = '';
    return this.text(held, ESCAPE_ALWAYS, true);
  }

  // Escape text per the set at the top of this file; `this.line` carries the line position across chunks. `urls`:
  // the `:` of a `://` too (text outside link text, where markdown-it's linkify rule reads).
  private text(s: string, always: Uint8Array = ESCAPE_ALWAYS, urls = false): string {
    if (s.length === 0) return '';
    let out = this.bang ? '!' : '';
    this.bang = false;
    let last = 0;
    let line = this.line;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c === 0x0a || c === 0x0d) {
        line = LINE_START;
        continue;
      }
      let replacement: string | undefined;
      if (line === LINE_START) {
        if (c === 0x20) replacement = '&#32;';
        else if (c === 0x09) replacement = '&#9;';
        else if (c < 128 && ESCAPE_AT_LINE_START[c] === 1) replacement = '\\' + s[i];
        line = c >= 0x30 && c <= 0x39 ? LINE_DIGITS : MID_LINE;
      } else if (line === LINE_DIGITS) {
        if (c >= 0x30 && c <= 0x39) continue;
        if (c === 0x2e || c === 0x29) replacement = '\\' + s[i];
        line = MID_LINE;
      }
      if (replacement === undefined && c < 128 && always[c] === 1) replacement = '\\' + s[i];
      if (urls && replacement === undefined && c === 0x3a && s.charCodeAt(i + 1) === 0x2f && s.charCodeAt(i + 2) === 0x2f) replacement = '\\:';
      if (replacement !== undefined) {
        out += s.slice(last, i) + replacement;
        last = i + 1;
      }
    }
    this.line = line;
    // CommonMark §6.4: `![` opens an image; hold a final unescaped `!` until the next chunk is known.
    if (last < s.length && s.charCodeAt(s.length - 1) === 0x21) {
      this.bang = true;
      return out + s.slice(last, s.length - 1);
    }
    return last === 0 && out === '' ? s : out + s.slice(last);
  }

  private link(link: LinkChunk, embedded: boolean): string {
    const held = this.heldColon();
    return held + this.linkAlone(link, embedded);
  }

  private linkAlone(link: LinkChunk, embedded: boolean): string {
    const shown = displayText(link, this.display);
    if (embedded || refusalsOf(link, this.schemes).length > 0) {
      const out = this.text(shown, ESCAPE_INERT);
      if (!this.linksOnly) return out;
      // One link per line: the `!` held back is the link's own, and no line may end in an escape waiting for it.
      const bang = this.bang ? '!' : '';
      this.bang = false;
      return out + bang;
    }
    const bang = this.bang;
    this.bang = false;
    this.line = MID_LINE;
    const uri = link.uri;
    // Not as an autolink when the text holds a `%`: markdown-it shows an autolink's text percent-decoded
    // (`<https://a.example/%41>` reads `https://a.example/A`, `<%0a@b.example>` starts with a line break); the
    // inline form shows it as written in every renderer. Nor when it holds an `xn--` label: markdown-it shows an
    // autolink's host in Unicode (`<https://xn--9dbne9b.com>` reads `https://שלום.com`; found in review), which the
    // renderer's display option did not choose.
    const verbatim = shown.indexOf('%') < 0 && !ACE_LABEL.test(shown);
    if (verbatim && shown === uri && isAutolinkUri(uri)) return (bang ? '!' : '') + `<${uri}>`;
    if (verbatim && link.kind === 'email' && uri.startsWith('mailto:') && shown === uri.slice(7) && isAutolinkEmail(shown)) {
      return (bang ? '!' : '') + `<${shown}>`;
    }
    return (bang ? '\\!' : '') + `[${this.linkText(shown)}](${escapeDestination(uri)})`;
  }

  // Inline link text (CommonMark §6.3): escaped like mid-line text; each line break (P3 wrapping) becomes one
  // space, since a break inside the brackets could end the paragraph and with it the link.
  private linkText(shown: string): string {
    let flat = '';
    let last = 0;
    for (let i = 0; i < shown.length; i++) {
      const c = shown.charCodeAt(i);
      if (c !== 0x0a && c !== 0x0d) continue;
      flat += shown.slice(last, i) + ' ';
      if (c === 0x0d && shown.charCodeAt(i + 1) === 0x0a) i++;
      last = i + 1;
    }
    if (last > 0) shown = flat + shown.slice(last);
    this.line = MID_LINE;
    let out = this.text(shown);
    if (this.bang) out += '!'; // `!]` opens nothing
    this.bang = false;
    this.line = MID_LINE;
    return out;
  }
}

/** A per-chunk Markdown renderer (used by createRenderStream). */
export function createMarkdownRenderer(options?: MarkdownOptions, fn = 'toMarkdown'): ChunkRenderer {
  return new MarkdownRenderer(options, fn);
}

/**
 * Render chunks as CommonMark: a link whose shown text equals its uri as an autolink `<uri>` (or `<user@host>`
 * for a mailto: email), any other as `[text](uri)`; links that may not be clickable as escaped text.
 */
export function toMarkdown(chunks: readonly Chunk[], options?: MarkdownOptions): string {
  return renderAll('toMarkdown', chunks, new MarkdownRenderer(options));
}
