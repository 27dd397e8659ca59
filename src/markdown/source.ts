// Linkified Markdown source: the Markdown mode's chunks written back as Markdown. Text and the links the author
// wrote (links, images, references, definitions, autolinks) are copied as they are; each bare link becomes a
// Markdown link, so the output is the input with its bare links made explicit — nothing else changes.
//
//   see https://例え.jp/パス。   →   see [https://例え.jp/パス](<https://xn--r8jz45g.jp/%E3%83%91%E3%82%B9>)。
//   see https://a.example/x     →   see <https://a.example/x>
//
// (The renderers of src/render escape text as plain text; Markdown source must pass through unescaped.)
//
// A link is made only where it shows what it is: a bare link whose text has a `%XX` that decodes to a control or
// a bidi formatting character is never written as an autolink `<…>`, whose text markdown-it shows percent-decoded
// (percentRevealsUnsafe: `<https://a.example/%E2%80%AEexe.txt>` would show a real U+202E). A bare link that may not
// be clickable (refusalsOf), and an unlinked span marked unsafe (`https://bank.example@evil.example/`), are written as
// they were with every `:` `.` `@` backslash-escaped (CommonMark §2.4), as toMarkdown writes them: they show the same,
// and no autolinking renderer (GFM's autolink literals, markdown-it's linkify) finds a link in them.

import { checkChunk, checkedRenderer, percentRevealsUnsafe, readOptions, refusalsOf, resolveSchemes, unsafeCodes } from '../render/common.js';
import type { ChunkRenderer } from '../render/common.js';
import type { Chunk, LinkChunk } from '../types.js';
import { badArgument } from '../errors.js';

const OPTION_NAMES: readonly string[] = ['schemes'];

export interface MarkdownSourceOptions {
  /** Schemes a bare link may be made a link with (default: the renderers' DEFAULT_LINK_SCHEMES). */
  schemes?: readonly string[];
}

// CommonMark §6.2 / §2.4: characters that could start a construct inside link text get a backslash.
const ESCAPE = new Uint8Array(128);
for (const ch of '\\`*_[]<>&~|!') ESCAPE[ch.charCodeAt(0)] = 1;

function escapeLinkText(text: string): string {
  let out = '';
  let last = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 128 && ESCAPE[c] === 1) {
      out += text.slice(last, i) + '\\';
      last = i;
    }
  }
  return last === 0 ? text : out + text.slice(last);
}

// CommonMark §6.5: `<scheme:…>` is an autolink when the scheme has 2–32 characters and the rest no space, control,
// `<` or `>` (backslash escapes are not read inside it). refusalsOf() has already checked the uri is printable ASCII.
function isAutolinkUri(uri: string): boolean {
  const colon = uri.indexOf(':');
  return colon >= 2 && colon <= 32 && !uri.includes('>') && !uri.includes('<');
}

// A URI that is also the link's text shows the same either way.
function isAutolinkText(link: LinkChunk): boolean {
  return !link.schemeInferred && link.text === link.uri && isAutolinkUri(link.uri);
}

// CommonMark §6.3: a destination in <…> may hold anything but a line ending and unescaped < or >; `\` escapes them
// (and itself). The detector's uri has none of the three (toUri percent-encodes them), a hand-made chunk's may.
// §6.3 / §2.5: entity references are decoded in a destination, so a `&` that could start one (followed by a letter or
// `#`) is escaped too: a uri holding `&amp;` or `&#62;` must not lose it to decoding.
function escapeAngleDestination(uri: string): string {
  let out = '';
  let last = 0;
  for (let i = 0; i < uri.length; i++) {
    const c = uri.charCodeAt(i);
    const n = c === 0x26 && i + 1 < uri.length ? uri.charCodeAt(i + 1) : 0;
    if (c === 0x5c || c === 0x3c || c === 0x3e || n === 0x23 || ((n | 0x20) >= 0x61 && (n | 0x20) <= 0x7a)) {
      out += uri.slice(last, i) + '\\';
      last = i;
    }
  }
  return last === 0 ? uri : out + uri.slice(last);
}

// What an autolinker looks for: a scheme's `:`, the dots of a domain, an email's `@`.
const INERT = new Uint8Array(128);
for (const ch of ':.@') INERT[ch.charCodeAt(0)] = 1;

/**
 * `text` with every `:` `.` `@` backslash-escaped, except one the source has escaped already (after an odd run of
 * backslashes; `before` counts those that end the output so far).
 */
function inert(text: string, before: number): string {
  let out = '';
  let last = 0;
  let run = before;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 128 && INERT[c] === 1 && run % 2 === 0) {
      out += text.slice(last, i) + '\\';
      last = i;
    }
    run = c === 0x5c ? run + 1 : 0;
  }
  return last === 0 ? text : out + text.slice(last);
}

/** The number of `\\` that end `text`, added to `before` when the whole text is backslashes. */
function trailingBackslashes(text: string, before: number): number {
  let i = text.length;
  while (i > 0 && text.charCodeAt(i - 1) === 0x5c) i--;
  return i === 0 ? before + text.length : text.length - i;
}

class MarkdownSourceRenderer implements ChunkRenderer {
  private readonly schemes: ReadonlySet<string>;
  /** How many backslashes end the output so far. */
  private backslashes = 0;
  /** The last UTF-16 unit of the output so far (0: none). */
  private last = 0;

  constructor(fn: string, options: MarkdownSourceOptions | undefined) {
    if (options === null) throw badArgument(fn, 'options', 'an object or undefined', options);
    this.schemes = resolveSchemes(readOptions(fn, options, OPTION_NAMES).schemes);
  }

  chunk(chunk: Chunk): string {
    const out = this.render(chunk);
    if (out.length > 0) {
      this.backslashes = trailingBackslashes(out, this.backslashes);
      this.last = out.charCodeAt(out.length - 1);
    }
    return out;
  }

  private render(chunk: Chunk): string {
    if (chunk.type === 'text') return unsafeCodes(chunk.diagnostics).length > 0 ? inert(chunk.text, this.backslashes) : chunk.text;
    const construct = (chunk as { construct?: string }).construct;
    if (construct !== undefined && construct !== 'bare') return chunk.text;
    if (refusalsOf(chunk, this.schemes).length > 0) return inert(chunk.text, this.backslashes);
    // CommonMark §2.4: a backslash before `h` (`C:\https://…`) is a literal backslash, but before the `<` or `[`
    // written here it would escape it. After an odd run one more backslash keeps it literal (`\\` shows `\`).
    const keep = this.backslashes % 2 === 1 ? '\\' : '';
    const decodesUnsafe = percentRevealsUnsafe(chunk.text);
    if (isAutolinkText(chunk) && !decodesUnsafe) return `${keep}<${chunk.text}>`;
    // §6.4, §6.3: after `!` a `[…](…)` is an image, and after `]` (`[foo]www.example.com`) it would make the author's
    // shortcut reference `[foo]` a full reference `[foo][…]`; the autolink form of the uri changes neither.
    if (this.last === 0x21 || this.last === 0x5d) {
      // No autolink can hold it as it is: left as written.
      if (decodesUnsafe || percentRevealsUnsafe(chunk.uri) || !isAutolinkUri(chunk.uri)) return chunk.text;
      return `${keep}<${chunk.uri}>`;
    }
    // §6.3: a destination in <…> may hold ( ) freely.
    return `${keep}[${escapeLinkText(chunk.text)}](<${escapeAngleDestination(chunk.uri)}>)`;
  }

  end(): string {
    return '';
  }
}

/** A renderer (ChunkRenderer, as src/render's) writing the Markdown mode's chunks back as Markdown source. */
export function createMarkdownSourceRenderer(options?: MarkdownSourceOptions): ChunkRenderer {
  return checkedRenderer('createMarkdownSourceRenderer', new MarkdownSourceRenderer('createMarkdownSourceRenderer', options));
}

/**
 * The chunks of linkifyMarkdown written back as Markdown, bare links made Markdown links.
 * @example toMarkdownSource(linkifyMarkdown('**https://例え.jp/**')) // '**[https://例え.jp/](<https://xn--r8jz45g.jp/>)**'
 */
export function toMarkdownSource(chunks: Iterable<Chunk>, options?: MarkdownSourceOptions): string {
  // A string is iterable too (its characters), but it is not chunks: toMarkdownSource('x') was "undefined".
  if (chunks === null || typeof chunks !== 'object' || typeof (chunks as Partial<Iterable<Chunk>>)[Symbol.iterator] !== 'function') {
    throw badArgument('toMarkdownSource', 'chunks', 'an array (or iterable) of chunks', chunks);
  }
  const renderer = new MarkdownSourceRenderer('toMarkdownSource', options);
  let out = '';
  for (const chunk of chunks) out += renderer.chunk(checkChunk('toMarkdownSource', chunk));
  return out + renderer.end();
}
