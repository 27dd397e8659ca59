// Links and unlinked spans (scanner.ts) as chunks: the one place that turns a scan result into the text and link
// chunks of DESIGN.md's `Chunk`, for linkify(), the stream's Linkifier and the Markdown mode.
import type { Link, LinkChunk, TextChunk } from '../types.js';
import type { UnlinkedSpan } from './scanner.js';

/**
 * Appends to `out` the chunks of stream offsets [pos, …) up to the end of the last link or unlinked span, and
 * returns that end (or `pos` when there are none). `text[i]` is the character at stream offset `base + i`;
 * `links` and `unlinked` are in order, disjoint, and start at or after `pos`. Text between them becomes plain
 * text chunks; an unlinked span becomes a text chunk of its own that carries its diagnostics; each link becomes
 * `toChunk(link)` (linkChunk for plain Links; the Markdown mode keeps its links' extra fields).
 */
export function appendChunks<L extends Link, C>(
  out: (TextChunk | C)[],
  text: string,
  base: number,
  pos: number,
  links: readonly L[],
  unlinked: readonly UnlinkedSpan[],
  toChunk: (link: L) => C,
): number {
  let u = 0;
  for (const link of links) {
    while (u < unlinked.length && unlinked[u]!.start < link.start) pos = appendUnlinked(out, text, base, pos, unlinked[u++]!);
    if (link.start > pos) out.push(textChunk(text, base, pos, link.start));
    out.push(toChunk(link));
    pos = link.end;
  }
  while (u < unlinked.length) pos = appendUnlinked(out, text, base, pos, unlinked[u++]!);
  return pos;
}

function appendUnlinked(out: unknown[], text: string, base: number, pos: number, span: UnlinkedSpan): number {
  if (span.start > pos) out.push(textChunk(text, base, pos, span.start));
  const chunk = textChunk(text, base, span.start, span.end);
  chunk.diagnostics = span.diagnostics.slice();
  out.push(chunk);
  return span.end;
}

/** The text chunk of stream offsets [start, end). */
export function textChunk(text: string, base: number, start: number, end: number): TextChunk {
  return { type: 'text', text: text.slice(start - base, end - base), start, end };
}

/**
 * The link as a chunk. Spelled out rather than `{ type: 'link', ...link }`: object spread copies property by
 * property through a generic path, and this runs once per link (bench: en-mixed has a link every ~500 bytes).
 * A Link fresh from the scanner has exactly these fields (src/types.ts); byteStart/byteEnd come later.
 */
export function linkChunk(link: Link): LinkChunk {
  return {
    type: 'link',
    start: link.start,
    end: link.end,
    text: link.text,
    kind: link.kind,
    scheme: link.scheme,
    schemeInferred: link.schemeInferred,
    uri: link.uri,
    iri: link.iri,
    diagnostics: link.diagnostics,
  };
}
