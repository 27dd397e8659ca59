// Helpers shared by the Markdown stream tests.
import { MarkdownLinkifier } from '../../src/markdown/linkifier.js';
import type { MarkdownChunk } from '../../src/markdown/index.js';

/** The chunks of `text` written to a MarkdownLinkifier in writes of `size` units. */
export function streamed(text: string, size: number): MarkdownChunk[] {
  const linkifier = new MarkdownLinkifier();
  const out: MarkdownChunk[] = [];
  for (let i = 0; i < text.length; i += size) out.push(...linkifier.push(text.slice(i, i + size)));
  out.push(...linkifier.end());
  return out;
}
