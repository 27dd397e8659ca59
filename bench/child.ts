// One contender on one input, in its own process (so that its peak RSS is its own). Run by bench/run.ts:
//   node --import tsx bench/child.ts '{"contender":"irilink","file":"…","bytes":123,"warmupBytes":0,"warmupRuns":0}'
// Loads the contender, does the untimed warm-up runs, prints {"ready":true}; then does one timed run for each
// line `run` it reads on stdin, printing {"run":i,"ms":…,"links":…} as soon as the run ends (the parent enforces
// a per-run time limit, and interleaves the runs of all contenders: bench/README.md), and at `end` (or when stdin
// closes) prints {"done":true,"maxRssKiB":…} and exits. Timing uses performance.now().
import { pipeline } from 'node:stream/promises';
import { StringDecoder } from 'node:string_decoder';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { linePieces, passThroughFloor, readChunks } from './lib/pieces.js';
import { makePeer, peerNames, type PeerName } from './lib/peers.js';
import { loadIrilink } from './lib/irilink.js';

interface ChildArgs {
  contender: string;
  file: string;
  bytes: number;
  /** Bytes of each untimed warm-up run before the timed ones, the same for every contender. */
  warmupBytes: number;
  /** How many warm-up runs (0: none). */
  warmupRuns: number;
}

type RunOnce = (bytes: number) => Promise<number>;

/** The sink every streaming contender ends in: counts link chunks, drops everything else. */
async function countLinkChunks(source: AsyncIterable<unknown>): Promise<number> {
  let links = 0;
  for await (const chunk of source) {
    if ((chunk as { type?: string }).type === 'link') links++;
  }
  return links;
}

async function makeRun(args: ChildArgs): Promise<RunOnce> {
  const { contender, file } = args;
  if (contender === 'read+decode') {
    // Floor 1: read the bytes and decode UTF-8, nothing else.
    return async (bytes) => {
      const decoder = new StringDecoder('utf8');
      let chars = 0;
      for await (const buf of readChunks(file, bytes)) chars += decoder.write(buf).length;
      chars += decoder.end().length;
      if (chars < 0) throw new Error('unreachable');
      return 0;
    };
  }
  if (contender === 'passthrough') {
    // Floor 2: the pipeline irilink runs in (read stream → object-mode Transform → sink), with a
    // Transform that only decodes and passes the text on.
    return async (bytes) => {
      let links = 0;
      await pipeline(readChunks(file, bytes), passThroughFloor(), async (source: AsyncIterable<unknown>) => {
        links = await countLinkChunks(source);
      });
      return links;
    };
  }
  if (contender === 'irilink') {
    const { api, missing } = await loadIrilink();
    const createLinkStream = api.createLinkStream;
    if (createLinkStream === undefined) throw new Error(missing.join('; '));
    return async (bytes) => {
      let links = 0;
      await pipeline(readChunks(file, bytes), createLinkStream(), async (source: AsyncIterable<unknown>) => {
        links = await countLinkChunks(source);
      });
      return links;
    };
  }
  if ((peerNames as readonly string[]).includes(contender)) {
    const peer = makePeer(contender as PeerName);
    return async (bytes) => {
      let links = 0;
      for await (const piece of linePieces(file, bytes)) links += peer.find(piece).length;
      return links;
    };
  }
  throw new Error(`unknown contender ${contender}`);
}

function send(message: object): void {
  process.stdout.write(JSON.stringify(message) + '\n');
}

async function main(): Promise<void> {
  const args = JSON.parse(process.argv[2] ?? '{}') as ChildArgs;
  const run = await makeRun(args);
  // bench/run.ts picks the warm-up (warmupFor), the same for every contender.
  if (args.warmupBytes > 0) for (let i = 0; i < args.warmupRuns; i++) await run(args.warmupBytes);
  send({ ready: true });
  let i = 0;
  for await (const line of createInterface({ input: process.stdin })) {
    if (line !== 'run') break;
    const t0 = performance.now();
    const links = await run(args.bytes);
    send({ run: i++, ms: performance.now() - t0, links });
  }
  send({ done: true, maxRssKiB: process.resourceUsage().maxRSS });
  process.stdin.destroy();
}

main().catch((err: unknown) => {
  send({ error: err instanceof Error ? err.message : String(err) });
  process.exitCode = 1;
  process.stdin.destroy();
});
