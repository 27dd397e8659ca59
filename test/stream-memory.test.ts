// Bounded memory (DESIGN.md "Streaming contract": "Peak memory does not grow with input size").
// Streams 216 MiB of generated text through createLinkStream — 8 MiB of prose dense with links (about
// 16 000 links per MiB, so it is the slow part: every link is converted), 104 MiB of prose without any,
// and 104 MiB on one line with no space or line break at all — and measures the heap as it goes. The
// input is generated lazily, 64 KiB at a time; nothing holds more than one block of it.
// (Speed is the bench's business; the seconds in the report are only there to explain the runtime.)
import { expect } from 'chai';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createLinkStream } from '../src/stream/transform.js';
import type { Chunk } from '../src/types.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const MiB = 1024 * 1024;
const BLOCK = 64 * 1024;
const SIZES = { links: 8 * MiB, plain: 104 * MiB, 'one-line': 104 * MiB };

const LINKED_LINES = [
  '資料はこちらです：https://ja.wikipedia.org/wiki/フィンセント・ファン・ゴッホ。よろしくお願いします。\n',
  'See https://example.com/docs/a_(b)?q=1#frag, or mail support@example.org (weekdays).\n',
  '2026-11-21T12:04:55Z GET {"url":"https://api.example.net/v1/items?id=42","ok":true} 200 12ms\n',
  'логи тут: https://пример.рф/логи/2026-11-21.txt, а также www.straße.de/öffnungszeiten!\n',
  '> Ask jürgen.müller@beispiel.de or see <https://unicode.org/reports/tr58/>.\n',
];
const PLAIN_LINES = [
  'The quick brown fox jumps over the lazy dog, again and again, without any address at all.\n',
  '吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。\n',
  'Съешь же ещё этих мягких французских булок, да выпей чаю.\n',
  'Portez ce vieux whisky au juge blond qui fume; il est 12:30 déjà.\n',
];

/** One block of `kind`, built once; blocks end on a line boundary except for the one-line kind. */
function makeBlock(kind: 'links' | 'plain' | 'one-line'): Buffer {
  if (kind === 'one-line') {
    // No space, no line break, anywhere in 72 MiB: a run of link-ish text the scanner must cut.
    return Buffer.from('https://example.com/' + 'segment-0123456789/'.repeat(Math.ceil(BLOCK / 19))).subarray(0, BLOCK);
  }
  const lines = kind === 'links' ? LINKED_LINES : PLAIN_LINES;
  let text = '';
  for (let i = 0; Buffer.byteLength(text) < BLOCK - 256; i++) text += lines[i % lines.length];
  return Buffer.from(text);
}

function source(kind: 'links' | 'plain' | 'one-line', total: number, m: Measure): Readable {
  const block = makeBlock(kind);
  // The one-line kind continues the same run across blocks; after the first block, repeat the segment part.
  const rest = kind === 'one-line' ? Buffer.from('segment-0123456789/'.repeat(Math.ceil(BLOCK / 19))).subarray(0, BLOCK) : block;
  let produced = 0;
  return new Readable({
    highWaterMark: BLOCK,
    read() {
      if (produced >= total) {
        this.push(null);
        return;
      }
      const next = produced === 0 ? block : rest;
      produced += next.length;
      m.produced = produced;
      this.push(next);
    },
  });
}

interface Measure {
  produced: number;
  seconds: number;
  bytes: number;
  links: number;
  tooLong: number;
  baseline: number;
  peakRetained: number;
  peakUsed: number;
}

async function measure(kind: 'links' | 'plain' | 'one-line'): Promise<Measure> {
  gc();
  const baseline = process.memoryUsage().heapUsed;
  const m: Measure = { produced: 0, seconds: 0, bytes: 0, links: 0, tooLong: 0, baseline, peakRetained: baseline, peakUsed: baseline };
  let nextCheck = 8 * MiB;
  let count = 0;
  const sink = new Writable({
    objectMode: true,
    highWaterMark: 16,
    write(chunk: Chunk, _encoding, callback) {
      m.bytes = chunk.byteEnd ?? m.bytes;
      if (chunk.type === 'link') {
        m.links++;
        if (chunk.diagnostics.includes('link-too-long')) m.tooLong++;
      }
      if ((++count & 255) === 0) m.peakUsed = Math.max(m.peakUsed, process.memoryUsage().heapUsed);
      if (m.bytes >= nextCheck) {
        nextCheck += 8 * MiB;
        m.peakUsed = Math.max(m.peakUsed, process.memoryUsage().heapUsed);
        gc(); // what is still reachable now: the stream's own state
        m.peakRetained = Math.max(m.peakRetained, process.memoryUsage().heapUsed);
      }
      callback();
    },
  });
  const started = process.hrtime.bigint();
  await pipeline(source(kind, SIZES[kind], m), createLinkStream(), sink);
  m.seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return m;
}

const report: string[] = [];

describe('createLinkStream: memory stays flat over 216 MiB', function () {
  this.timeout(120_000);

  after(() => {
    // The figures, for the issue note (heap after a full GC every 8 MiB, and the highest heapUsed seen).
    for (const line of report) console.log(`      ${line}`);
  });

  for (const kind of ['links', 'plain', 'one-line'] as const) {
    it(`${kind}: the retained heap does not grow with the input`, async () => {
      const m = await measure(kind);
      const retained = (m.peakRetained - m.baseline) / MiB;
      const used = (m.peakUsed - m.baseline) / MiB;
      report.push(`${kind}: ${(m.bytes / MiB).toFixed(0)} MiB in ${m.seconds.toFixed(1)} s, ${m.links} links (${m.tooLong} link-too-long), ` +
        `retained growth ${retained.toFixed(2)} MiB, peak heapUsed growth ${used.toFixed(1)} MiB`);
      expect(m.bytes).to.equal(m.produced);
      expect(m.bytes).to.be.at.least(SIZES[kind]);
      if (kind === 'links') expect(m.links).to.be.above(100_000);
      if (kind === 'plain') expect(m.links).to.equal(0);
      if (kind === 'one-line') expect(m.tooLong).to.be.above(0);
      expect(retained, 'heap retained after GC, above the baseline (MiB)').to.be.below(8);
      expect(used, 'peak heapUsed above the baseline (MiB), garbage included').to.be.below(160);
    });
  }
});
