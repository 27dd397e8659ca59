// Link detection: UTS #58 with irilink's documented extensions (DESIGN.md "Detection policy" P1–P8).

import { badArgument } from '../errors.js';
import type { Chunk, Link } from '../types.js';
import { checkOptionsArgument, type LinkOptions } from './options.js';
import { createScanner } from './scanner.js';
import { appendChunks, linkChunk, textChunk } from './chunks.js';
import { EmbeddingTracker, markEmbeddedLinks } from './embedding.js';
import { keepSoon, keptBy, SHAPE_SAMPLES } from '../keep.js';

export type { LinkOptions } from './options.js';
export { DEFAULT_MAX_LINK_LENGTH, DEFAULT_SCHEMES, NEVER_SCHEMES } from './options.js';
export type { ScanResult, ScanResume, Scanner, UnlinkedSpan } from './scanner.js';
export { appendChunks, linkChunk, textChunk } from './chunks.js';
export { createScanner } from './scanner.js';
export { EmbeddingTracker, markEmbeddedLinks } from './embedding.js';

/**
 * Finds the URLs, IRIs and email addresses in `text`, in order; [] when there are none.
 * @example findLinks('see https://例え.jp/パス。')[0].uri // 'https://xn--r8jz45g.jp/%E3%83%91%E3%82%B9'
 */
export function findLinks(text: string, options?: LinkOptions): Link[] {
  if (typeof text !== 'string') throw badArgument('findLinks', 'text', 'a string', text);
  checkOptionsArgument('findLinks', options);
  const links = createScanner(options).scan(text, 0, true, 0).links;
  markEmbeddedLinks(text, links);
  keepSoon(keptLinks);
  return links;
}

/**
 * Splits `text` into text and link chunks that cover it exactly, in order (no empty text chunk).
 * @example linkify('see example.com.').map((c) => c.type) // ['text', 'link', 'text']
 */
export function linkify(text: string, options?: LinkOptions): Chunk[] {
  if (typeof text !== 'string') throw badArgument('linkify', 'text', 'a string', text);
  checkOptionsArgument('linkify', options);
  const { links, unlinked } = createScanner(options).scan(text, 0, true, 0);
  const chunks: Chunk[] = [];
  const pos = appendChunks(chunks, text, 0, 0, links, unlinked, linkChunk);
  if (pos < text.length) chunks.push(textChunk(text, 0, pos, text.length));
  if (links.length > 0) {
    const tracker = new EmbeddingTracker();
    tracker.note(text.length, true);
    tracker.mark(chunks);
  }
  keepSoon(keptLinks);
  return chunks;
}

/** keep.ts: a scanner that has scanned the samples, and what findLinks() and linkify() make of them. */
function keptLinks(): unknown[] {
  const text = SHAPE_SAMPLES.join('');
  const scanner = createScanner();
  scanner.scan(text, 0, true, 0);
  return [scanner, findLinks(text), linkify(text)];
}

/** Internal (tests): the kept findLinks() links and linkify() chunks, or null before they are made. */
export function keptLinksAndChunks(): { links: Link[]; chunks: Chunk[] } | null {
  const kept = keptBy(keptLinks) as unknown[] | null;
  return kept === null ? null : { links: kept[1] as Link[], chunks: kept[2] as Chunk[] };
}
