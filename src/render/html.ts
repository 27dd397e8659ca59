// HTML renderer: text escaped, links as <a href>, unsafe links as a marked <span>.
// The output is element content (between tags, not inside an attribute, <script>, <style> or <textarea>).
import { CR, startsLineBreak } from '../breaks.js';
import type { Chunk, LinkChunk } from '../types.js';
import { EmbeddingReader } from '../detect/embedding.js';
import {
  COMMON_OPTION_NAMES,
  displayText,
  readBoolean,
  readChoice,
  readDisplay,
  readOptions,
  readString,
  refusalsOf,
  renderAll,
  rtlIn,
  unsafeCodes,
  resolveSchemes,
  type ChunkRenderer,
  type CommonRenderOptions,
} from './common.js';

export interface HtmlOptions extends CommonRenderOptions {
  /** `rel` of every `<a>`; default `'nofollow noopener noreferrer'` (text from other people); `''` leaves it off. */
  rel?: string;
  /** `target` of every `<a>` (e.g. `'_blank'`); default none. */
  target?: string;
  /** `class` of every `<a>`; default none. */
  class?: string;
  /** `class` of the `<span>` that stands for a link that is not clickable; default `'irilink-unsafe'`. */
  unsafeClass?: string;
  /**
   * `dir="ltr"` on the link element (which also isolates it, HTML §dir): `'rtl'` (default) when the shown text
   * holds right-to-left characters, or when right-to-left text or a bidi control came before it in the chunks;
   * `'always'`, or `'never'`.
   */
  isolate?: 'rtl' | 'always' | 'never';
  /** Put `<br>` before every line break (`\r\n`, `\n` or a lone `\r`, each once); default false. */
  breaks?: boolean;
}

export const DEFAULT_REL = 'nofollow noopener noreferrer';

const HTML_OPTION_NAMES: readonly string[] = [
  ...COMMON_OPTION_NAMES, 'rel', 'target', 'class', 'unsafeClass', 'isolate', 'breaks',
];

// HTML Standard §13.1.2.3 (attribute values) and §13.1.3 (text): & < > " ' become character references, so
// the same escaping is safe for element content and for a double- or single-quoted attribute value.
const REFERENCE: (string | undefined)[] = new Array(128).fill(undefined);
REFERENCE[0x26] = '&amp;';
REFERENCE[0x3c] = '&lt;';
REFERENCE[0x3e] = '&gt;';
REFERENCE[0x22] = '&quot;';
REFERENCE[0x27] = '&#39;';

function escapeHtml(s: string): string {
  let out = '';
  let last = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 128) continue;
    const ref = REFERENCE[c];
    if (ref === undefined) continue;
    out += s.slice(last, i) + ref;
    last = i + 1;
  }
  return last === 0 ? s : out + s.slice(last);
}

class HtmlRenderer implements ChunkRenderer {
  private readonly display;
  private readonly schemes;
  private readonly linksOnly: boolean;
  private readonly breaks: boolean;
  private readonly isolate: 'rtl' | 'always' | 'never';
  private readonly attrs: string; //        ` class="…" rel="…" target="…"`, escaped once
  private readonly unsafeAttr: string; //   ` class="…"`
  /** The last code unit written was `\r` (so a `\n` right after it is the same line break). */
  private afterCr = false;
  /**
   * Right-to-left text or a bidi control was in a text chunk so far. An embedding or override (U+202A–202E) or an
   * isolate (U+2066–2068) left open runs on into the next element, so a link after `\u202E x ` that is not
   * isolated is shown reversed: `https://evil.example/moc.elgoog//:sptth` reads `https://google.com/elpmaxe.live…`
   * (the detector flags only a bidi control touching a link, DESIGN.md P1). From then on every link is isolated.
   */
  private bidiSeen = false;
  /**
   * isolate: 'never': embeddings, overrides and isolates left open in the output so far. The output is element
   * content, one block for all the browser knows, whose line ends are spaces (with `breaks`, `<br>` is taken to
   * close nothing either): a link written while one is open is shown reversed, so it is written as an unsafe span
   * (`bidi-embedded`), as the detector's own `bidi-embedded` links are (UAX #9 X1–X8; RFC 3987 §4.1).
   */
  private readonly bidi: EmbeddingReader | undefined;

  /** `fn`: the function that options errors name (the plain function, createRenderer or createRenderStream). */
  constructor(options: unknown, fn = 'toHtml') {
    const o = readOptions(fn, options, HTML_OPTION_NAMES);
    this.display = readDisplay(o.display);
    this.schemes = resolveSchemes(o.schemes);
    this.linksOnly = readBoolean('links', o.links, false);
    this.breaks = readBoolean('breaks', o.breaks, false);
    this.isolate = readChoice('isolate', o.isolate, ['rtl', 'always', 'never'] as const, 'rtl');
    this.bidi = this.isolate === 'never' ? new EmbeddingReader('inline') : undefined;
    const cls = readString('class', o.class, '');
    const rel = readString('rel', o.rel, DEFAULT_REL);
    const target = readString('target', o.target, '');
    const unsafeClass = readString('unsafeClass', o.unsafeClass, 'irilink-unsafe');
    this.attrs =
      (cls ? ` class="${escapeHtml(cls)}"` : '') +
      (rel ? ` rel="${escapeHtml(rel)}"` : '') +
      (target ? ` target="${escapeHtml(target)}"` : '');
    this.unsafeAttr = unsafeClass ? ` class="${escapeHtml(unsafeClass)}"` : '';
  }

  chunk(chunk: Chunk): string {
    if (chunk.type === 'link') return this.link(chunk) + (this.linksOnly ? '\n' : '');
    if (this.linksOnly) return '';
    if (!this.bidiSeen && this.isolate === 'rtl') this.bidiSeen = rtlIn(chunk.text, true);
    if (this.bidi !== undefined) this.bidi.read(chunk.text);
    // A span shaped like a link that detection refused for a reason a reader should see (scanner.ts
    // `unlinked`: `https://bank.example@evil.example/`) is marked like a link that may not be clickable.
    const codes = unsafeCodes(chunk.diagnostics);
    if (codes.length > 0) return `<span${this.unsafeAttr} title="${escapeHtml(codes.join(' '))}">${this.text(chunk.text)}</span>`;
    return this.text(chunk.text);
  }

  end(): string {
    return '';
  }

  private text(s: string): string {
    if (!this.breaks) return escapeHtml(s);
    // `<br>` goes before each line break; `\r\n` is one break even when a chunk ends between the two.
    let out = '';
    let last = 0;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (startsLineBreak(c, this.afterCr)) {
        out += escapeHtml(s.slice(last, i)) + '<br>';
        last = i;
      }
      this.afterCr = c === CR;
    }
    return last === 0 && out === '' ? escapeHtml(s) : out + escapeHtml(s.slice(last));
  }

  private link(link: LinkChunk): string {
    const shown = displayText(link, this.display);
    const body = this.text(shown);
    // RFC 3987 §4.1: an IRI is shown in logical order with a left-to-right base direction; `dir` on an inline
    // element also isolates it from the surrounding text (HTML "The dir attribute", bidi-isolate by default).
    const dir = this.isolate === 'always' || (this.isolate === 'rtl' && (this.bidiSeen || rtlIn(shown, true))) ? ' dir="ltr"' : '';
    let refused = refusalsOf(link, this.schemes);
    if (this.bidi !== undefined) {
      if (this.bidi.open && !refused.includes('bidi-embedded')) refused = [...refused, 'bidi-embedded'];
      this.bidi.read(shown); // no dir: what a link's text leaves open runs on
    }
    if (refused.length > 0) return `<span${this.unsafeAttr} title="${escapeHtml(refused.join(' '))}"${dir}>${body}</span>`;
    // refusalsOf() left only printable ASCII with an allowed scheme; escaping makes the attribute unbreakable.
    return `<a href="${escapeHtml(link.uri)}"${this.attrs}${dir}>${body}</a>`;
  }
}

/** A per-chunk HTML renderer (used by createRenderStream). */
export function createHtmlRenderer(options?: HtmlOptions, fn = 'toHtml'): ChunkRenderer {
  return new HtmlRenderer(options, fn);
}

/**
 * Render chunks as HTML element content: text with & < > " ' escaped, each clickable link as
 * `<a href="{uri}" rel="nofollow noopener noreferrer">{text}</a>`, each link that may not be clickable
 * (UNSAFE_DIAGNOSTICS, a scheme outside `schemes`, a uri that is not printable ASCII) as
 * `<span class="irilink-unsafe" title="{codes}">{text}</span>`.
 */
export function toHtml(chunks: readonly Chunk[], options?: HtmlOptions): string {
  return renderAll('toHtml', chunks, new HtmlRenderer(options));
}
