// The chunks a link stream gives for writes made one after another (strings or Buffers), then end().
import { createLinkStream } from '../../src/stream/transform.js';
import type { Chunk } from '../../src/types.js';

export async function streamed(writes: readonly (string | Buffer)[], options: Parameters<typeof createLinkStream>[0] = {}): Promise<Chunk[]> {
  const stream = createLinkStream(options);
  const out: Chunk[] = [];
  stream.on('data', (c: Chunk) => out.push(c));
  const done = new Promise<void>((resolve, reject) => {
    stream.on('end', resolve);
    stream.on('error', reject);
  });
  for (const w of writes) stream.write(w);
  stream.end();
  await done;
  return out;
}
