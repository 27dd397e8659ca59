// Why irilink's streams work on a write in a later turn of the event loop, not inside _transform.
//
// A piped source (a file's ReadStream) calls _transform from inside its own push(), and asks for its next read
// only after push() returns: working inside _transform made the read wait for the scan, and the scan wait for the
// read (40 MB of multilingual text from a file into createLinkStream: the main thread idle 26 % of the time).
// Worked on in a setImmediate callback, the next read runs in libuv's thread pool while this write is scanned
// (idle 12 %). 40 MB from a file into for-await, median of 8 alternated runs, wall ms/MB: multilingual
// 6.12 → 5.36, en-mixed 6.01 → 5.15.
//
// Node's Writable calls _transform again only after the callback, so writes are still worked on one at a time and
// in order, and _flush still comes after the last one.
import type { Transform, TransformCallback } from 'node:stream';

/** A stream's work on one write (what _transform would do), called with the stream as `this`. */
export type Work<S extends Transform, D> = (this: S, data: D, encoding: BufferEncoding, callback: TransformCallback) => void;

/** Runs `work` on this write in a setImmediate callback (for a stream's _transform). */
export function workLater<S extends Transform, D>(stream: S, work: Work<S, D>, data: D, encoding: BufferEncoding, callback: TransformCallback): void {
  setImmediate(run, stream, work, data, encoding, callback);
}

function run<S extends Transform, D>(stream: S, work: Work<S, D>, data: D, encoding: BufferEncoding, callback: TransformCallback): void {
  if (stream.destroyed) {
    // The write's text is dropped: it fails as Node fails the writes still buffered when a stream is destroyed.
    callback(Object.assign(new Error('Cannot call write after a stream was destroyed'), { code: 'ERR_STREAM_DESTROYED' }));
    return;
  }
  work.call(stream, data, encoding, callback);
}
