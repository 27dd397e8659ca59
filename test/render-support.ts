// Helpers for the renderer tests: build chunks by hand from marker strings, drive a render stream.
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Chunk, DiagnosticCode, LinkChunk } from '../src/types.js';
import { createRenderStream } from '../src/render/index.js';

export type LinkFields = Partial<Omit<LinkChunk, 'type' | 'start' | 'end' | 'text'>>;

/**
 * Chunks from a marked string: `see ⸠https://a.jp/x⸡ and ⸠b.jp⸡.` gives text, link, text, link, text with
 * offsets over the unmarked string. `links[i]` sets fields of the i-th link; by default uri = iri = text,
 * scheme = what precedes the first `:` (lower-cased), kind 'url', no diagnostics.
 */
export function chunksOf(marked: string, links: LinkFields[] = []): Chunk[] {
  const chunks: Chunk[] = [];
  let offset = 0;
  let linkIndex = 0;
  let i = 0;
  while (i < marked.length) {
    const open = marked.indexOf('⸠', i);
    const textEnd = open < 0 ? marked.length : open;
    if (textEnd > i) {
      const text = marked.slice(i, textEnd);
      chunks.push({ type: 'text', text, start: offset, end: offset + text.length });
      offset += text.length;
    }
    if (open < 0) break;
    const close = marked.indexOf('⸡', open);
    if (close < 0) throw new Error(`unclosed ⸠ in ${marked}`);
    chunks.push(link(marked.slice(open + 1, close), offset, links[linkIndex++] ?? {}));
    offset += close - open - 1;
    i = close + 1;
  }
  return chunks;
}

export function link(text: string, start: number, fields: LinkFields = {}): LinkChunk {
  const uri = fields.uri ?? text;
  const colon = uri.indexOf(':');
  return {
    type: 'link',
    start,
    end: start + text.length,
    text,
    kind: fields.kind ?? 'url',
    scheme: fields.scheme ?? (colon > 0 ? uri.slice(0, colon).toLowerCase() : ''),
    schemeInferred: fields.schemeInferred ?? false,
    uri,
    iri: fields.iri ?? text,
    diagnostics: fields.diagnostics ?? ([] as DiagnosticCode[]),
    ...(fields.byteStart !== undefined ? { byteStart: fields.byteStart, byteEnd: fields.byteEnd } : {}),
  };
}

/** Write the chunks one by one through createRenderStream(format, options) and collect its output as text. */
export async function renderThroughStream(format: string, options: object | undefined, chunks: readonly Chunk[]): Promise<string> {
  const parts: Buffer[] = [];
  await pipeline(
    Readable.from(chunks, { objectMode: true }),
    createRenderStream(format, options),
    new Writable({
      write(part: Buffer, _enc, callback) {
        parts.push(part);
        callback();
      },
    }),
  );
  return Buffer.concat(parts).toString('utf8');
}

/**
 * Split the text chunks at the given cut points (ascending offsets into the joined text), as a stream may
 * emit them; link chunks are never split. Used to show the renderers do not depend on how text arrives.
 */
export function splitText(chunks: readonly Chunk[], cuts: readonly number[]): Chunk[] {
  const out: Chunk[] = [];
  let base = 0;
  for (const chunk of chunks) {
    if (chunk.type === 'link') {
      out.push(chunk);
      base += chunk.text.length;
      continue;
    }
    let from = 0;
    for (const cut of cuts) {
      const at = cut - base;
      if (at > from && at < chunk.text.length) {
        out.push({ type: 'text', text: chunk.text.slice(from, at), start: chunk.start + from, end: chunk.start + at });
        from = at;
      }
    }
    out.push({ type: 'text', text: chunk.text.slice(from), start: chunk.start + from, end: chunk.end });
    base += chunk.text.length;
  }
  return out;
}
