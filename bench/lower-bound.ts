// What the stream would cost if detection and conversion were free: a developer's measurement behind the
// "≥ 70 % of the pass-through floor" target (DESIGN.md), not part of `npm run bench`.
//
//   npx tsx bench/lower-bound.ts [--corpus NAME] [--mb N] [--rounds N] [--pipelines passthrough,skeleton,irilink]
//
// Three pipelines, the bench's shape (fs read stream of 64 KiB Buffers → Transform → for-await sink counting link
// chunks), run alternately in one process, wall ms/MB, median of the rounds:
// - `passthrough`: the bench's floor (StringDecoder, one object per Buffer);
// - `skeleton`: irilink's own stream (createLinkStream: its decoder, byte offsets, chunk release and iterator) with
//   the linkifier replaced by one that already knows the answer. Per write it still runs the trigger search (the
//   indexOf loop over `.`, `:` and `。`, nothing decided at a trigger), then cuts the text into the same chunks
//   irilink emits, with the link fields (`uri`, `iri`, …) taken from a first, untimed pass;
// - `irilink`: createLinkStream() as it is.
// The skeleton is irilink's stream with a detector that costs nothing: close to the best this stream design allows
// while it keeps the stream contract (every chunk an object with its text, offsets and byte offsets) and looks at
// the triggers. Not exactly the same work: it emits the same links and text but about 1 % fewer text chunks (irilink
// releases the undecided end of a write as one more), and it stops at the triggers inside links, which irilink jumps
// over (about 12 % of them on en-mixed; visiting them measured within noise). So its share of the floor is an
// estimate of the most irilink's design can reach, not a bound on every possible detector.
import { closeSync, createReadStream, openSync, readSync, statSync } from 'node:fs';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { performance } from 'node:perf_hooks';
import type { Chunk, LinkChunk } from '../src/types.js';
import { loadIrilink } from './lib/irilink.js';
import { realCorpus, generatedCorpora } from './lib/corpora.js';
import { passThroughFloor } from './lib/pieces.js';
import { detached } from '../src/memo.js';

const args = process.argv.slice(2);
const opt = (name: string, fallback: string): string => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1]! : fallback;
};
const corpusName = opt('corpus', 'en-mixed');
const file = realCorpus(corpusName)?.file ?? generatedCorpora().find((c) => c.name === corpusName)?.file;
if (file === undefined) throw new Error(`no corpus ${corpusName}: run \`npm run corpora\``);
// The prefix ends at the first line end at or after the size asked for (or at the end of the file).
const size = statSync(file).size;
let bytes = Math.min(size, Math.round(Number(opt('mb', '40')) * 1e6));
if (bytes < size) {
  const window = Buffer.alloc(1 << 16);
  const fd = openSync(file, 'r');
  try {
    for (;;) {
      const got = readSync(fd, window, 0, window.length, bytes - 1);
      const nl = window.subarray(0, got).indexOf(0x0a);
      if (nl >= 0 || got === 0) {
        bytes = nl >= 0 ? bytes + nl : size;
        break;
      }
      bytes += got;
    }
  } finally {
    closeSync(fd);
  }
}
const rounds = Number(opt('rounds', '7'));

const { api, missing } = await loadIrilink();
if (api.createLinkStream === undefined) throw new Error(missing.join('; '));
const createLinkStream = api.createLinkStream;

const source = (): AsyncIterable<Buffer> => createReadStream(file, { highWaterMark: 65536, start: 0, end: bytes - 1 });

async function sink(stream: AsyncIterable<unknown>): Promise<number> {
  let links = 0;
  for await (const chunk of stream) if ((chunk as { type?: string }).type === 'link') links++;
  return links;
}

// The answer, from one untimed pass of the real stream. Its strings are copied: a chunk's strings are slices of
// the write they came from (README, "Streaming"), and keeping the slices would keep the whole input alive, which
// made every later round of irilink and the skeleton pay for a heap of 60 MiB and more (irilink 9.5 → 6.6 wall
// ms/MB on 30 MB of en-mixed when the first pass kept nothing).
const known: LinkChunk[] = [];
await pipeline(source(), createLinkStream(), async (s: AsyncIterable<Chunk>) => {
  for await (const c of s) {
    if (c.type === 'link') known.push({ ...c, text: detached(c.text), uri: detached(c.uri), iri: detached(c.iri) });
  }
});

/** A linkifier that runs the trigger search and then emits the known chunks (push/pushFlat/end, as irilink's). */
class KnownAnswer {
  private tail = '';
  private base = 0; // stream offset of tail[0]
  private next = 0; // index in `known` of the next link to emit
  triggers = 0;

  pushFlat(text: string): Chunk[] {
    this.triggers += countTriggers(text);
    this.tail = this.tail.length === 0 ? text : [this.tail, text].join('');
    return this.emit(false);
  }

  push(text: string): Chunk[] {
    return this.pushFlat(text);
  }

  end(): Chunk[] {
    return this.emit(true);
  }

  private emit(final: boolean): Chunk[] {
    const out: Chunk[] = [];
    const tail = this.tail;
    const base = this.base;
    const limit = base + tail.length;
    let pos = base;
    while (this.next < known.length && known[this.next]!.end <= limit) {
      const k = known[this.next++]!;
      if (k.start > pos) out.push({ type: 'text', text: tail.slice(pos - base, k.start - base), start: pos, end: k.start });
      out.push({
        type: 'link',
        start: k.start,
        end: k.end,
        text: tail.slice(k.start - base, k.end - base),
        kind: k.kind,
        scheme: k.scheme,
        schemeInferred: k.schemeInferred,
        uri: k.uri,
        iri: k.iri,
        diagnostics: k.diagnostics.slice(),
      });
      pos = k.end;
    }
    // Text up to the next link (or all of it): released now, as irilink releases what it has settled.
    const stop = final || this.next >= known.length ? limit : Math.min(limit, known[this.next]!.start);
    if (stop > pos) {
      out.push({ type: 'text', text: tail.slice(pos - base, stop - base), start: pos, end: stop });
      pos = stop;
    }
    this.tail = tail.slice(pos - base);
    this.base = pos;
    return out;
  }
}

/** irilink's trigger search (src/detect/scanner.ts), deciding nothing: the next `.`, `:` and `。` by indexOf. */
function countTriggers(text: string): number {
  const n = text.length;
  const at = (ch: string, from: number): number => {
    const i = text.indexOf(ch, from);
    return i < 0 ? n : i;
  };
  let count = 0;
  let i = 0;
  let dot = at('.', 0);
  let colon = at(':', 0);
  let ideo = at('\u3002', 0);
  for (;;) {
    if (dot < i) dot = at('.', i);
    if (colon < i) colon = at(':', i);
    if (ideo < i) ideo = at('\u3002', i);
    const t = Math.min(dot, colon, ideo);
    if (t >= n) return count;
    count++;
    i = t + 1;
  }
}

function skeletonStream(): Transform {
  const stream = createLinkStream();
  // The stream's linkifier is private to src/stream/transform.ts; replacing it is this measurement's only trick.
  (stream as unknown as { linkifier: KnownAnswer }).linkifier = new KnownAnswer();
  return stream;
}

const allPipelines: Record<string, () => Transform> = { passthrough: passThroughFloor, skeleton: skeletonStream, irilink: () => createLinkStream() };
const pipelines: Record<string, () => Transform> = {};
const times: Record<string, number[]> = {};
for (const name of opt('pipelines', 'passthrough,skeleton,irilink').split(',')) {
  if (allPipelines[name] === undefined) throw new Error(`unknown pipeline ${name}: passthrough, skeleton or irilink`);
  pipelines[name] = allPipelines[name]!;
  times[name] = [];
}
if (times.passthrough === undefined) throw new Error('--pipelines must include passthrough (the floor)');
const counts: Record<string, number> = {};
for (let r = 0; r < rounds + 1; r++) {
  const order = r % 2 === 0 ? Object.keys(pipelines) : Object.keys(pipelines).reverse();
  for (const name of order) {
    let links = 0;
    const t0 = performance.now();
    await pipeline(source(), pipelines[name]!(), async (s: AsyncIterable<unknown>) => {
      links = await sink(s);
    });
    const ms = performance.now() - t0;
    if (r > 0) times[name]!.push(ms / (bytes / 1e6)); // round 0 warms up
    counts[name] = links;
  }
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const floor = median(times.passthrough!);
console.log(`${corpusName}, ${(bytes / 1e6).toFixed(1)} MB from a file, wall ms/MB, median of ${rounds} alternated rounds:`);
for (const name of Object.keys(pipelines)) {
  const m = median(times[name]!);
  console.log(`  ${name.padEnd(12)} ${m.toFixed(2).padStart(6)} ms/MB  ${((floor / m) * 100).toFixed(0).padStart(3)} % of the floor  (${counts[name]} links)`);
}
if (counts.skeleton !== undefined && counts.irilink !== undefined && counts.skeleton !== counts.irilink) throw new Error(`the skeleton emitted ${counts.skeleton} links, irilink ${counts.irilink}`);
