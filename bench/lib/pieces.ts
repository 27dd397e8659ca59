// How every contender is fed, so that all see the same bytes in the same order:
//   - the file (or its first `bytes` bytes) is read as a stream of 64 KiB Buffers;
//   - streaming contenders (irilink, the floors) take those Buffers as they come;
//   - the peers cannot stream (a link may straddle two Buffers), so the decoded text is cut at the last
//     line break of each Buffer and handed over in line-aligned pieces of about 64 KiB. A line longer than
//     that (the hostile 10 MB line) is handed over whole: that is what a caller of a non-streaming
//     linkifier has to do.
import { createReadStream } from 'node:fs';
import { Transform } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

export const CHUNK_BYTES = 64 * 1024;

export function readChunks(file: string, bytes: number): NodeJS.ReadableStream & AsyncIterable<Buffer> {
  return createReadStream(file, { highWaterMark: CHUNK_BYTES, start: 0, end: bytes - 1 });
}

/** Line-aligned decoded pieces of ~64 KiB (see above), or of about `pieceBytes` read at a time from the whole file. */
export async function* linePieces(file: string, bytes: number, pieceBytes?: number): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  let carry = '';
  const source = pieceBytes === undefined ? readChunks(file, bytes) : createReadStream(file, { highWaterMark: pieceBytes });
  for await (const buf of source as AsyncIterable<Buffer>) {
    const text = carry + decoder.write(buf);
    const cut = text.lastIndexOf('\n');
    if (cut < 0) {
      carry = text;
      continue;
    }
    carry = text.slice(cut + 1);
    yield text.slice(0, cut + 1);
  }
  const rest = carry + decoder.end();
  if (rest.length > 0) yield rest;
}

/**
 * The pass-through floor's Transform: the pipeline irilink runs in (read stream → object-mode Transform → sink), with
 * a Transform that only decodes and passes the text on, one object per Buffer.
 */
export function passThroughFloor(): Transform {
  const decoder = new StringDecoder('utf8');
  return new Transform({
    readableObjectMode: true,
    transform(buf: Buffer, _enc, cb) {
      cb(null, { type: 'text', text: decoder.write(buf) });
    },
    flush(cb) {
      const rest = decoder.end();
      cb(null, rest.length > 0 ? { type: 'text', text: rest } : undefined);
    },
  });
}

/**
 * text[lo, hi) with `marks` (offset, mark) inserted and line breaks and tabs shown as ⏎ ␍ ␉: one line for a report.
 */
export function markedLine(text: string, lo: number, hi: number, marks: [number, string][]): string {
  marks.sort((x, y) => x[0] - y[0]);
  let s = '';
  let last = lo;
  for (const [at, m] of marks) {
    s += text.slice(last, at) + m;
    last = at;
  }
  return (s + text.slice(last, hi)).replace(/\r/g, '␍').replace(/\n/g, '⏎').replace(/\t/g, '␉');
}
