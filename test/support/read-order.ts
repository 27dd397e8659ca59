// For the tests that check a stream lets its piped source read on before it works on a write (src/stream/later.ts):
// a source and a stream that log, in one list, when a read is asked for and when the stream pushes output.
import { Readable, type Transform } from 'node:stream';

/**
 * A byte source of `count` writes, line(k) each, that logs `read k` when asked for write k. Like a file, the bytes
 * arrive in a later turn of the event loop.
 */
export function loggingSource(events: string[], count: number, line: (k: number) => string): Readable {
  let reads = 0;
  return new Readable({
    highWaterMark: 16,
    read() {
      const k = reads++;
      events.push(`read ${k}`);
      setImmediate(() => this.push(k < count ? Buffer.from(line(k)) : null));
    },
  });
}

/** Makes `stream` log `push <what>` for each piece of output it pushes; returns it. */
export function loggingPushes<T extends Transform>(stream: T, events: string[], what: (chunk: unknown) => string): T {
  const push = stream.push.bind(stream);
  stream.push = (chunk: unknown): boolean => {
    if (chunk !== null) events.push(`push ${what(chunk)}`);
    return push(chunk);
  };
  return stream;
}
