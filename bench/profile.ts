// A developer's measuring tool for one layer at a time, in CPU time (process.cpuUsage), so that numbers stay
// usable on a busy machine where wall-clock MB/s is noise. Not the bench: `npm run bench` is the measure of
// record (wall time, peers and floors side by side, in child processes).
//
//   npx tsx bench/profile.ts [--file PATH | --corpus NAME] [--mb N] [--runs N] [--layer stream|scan|decode] [--markdown]
//
// Layers: `stream` = createLinkStream over 64 KiB Buffers, chunks consumed with for-await (what the bench times);
// `scan` = the Scanner over the decoded text in 64 Ki-unit pieces (detection and conversion, no stream);
// `decode` = the pass-through floor's work (StringDecoder). Prints CPU ms/MB per run and the median.
// `--markdown`: the stream layer in Markdown mode (`createLinkStream({ markdown: true })`).
// Add `node --cpu-prof` through NODE_OPTIONS to get a profile.
import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { loadIrilink } from './lib/irilink.js';
import { generatedCorpora, realCorpus } from './lib/corpora.js';

const args = process.argv.slice(2);
const opt = (name: string, fallback: string): string => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1]! : fallback;
};
function corpusFile(name: string): string {
  const found = realCorpus(name)?.file ?? generatedCorpora().find((c) => c.name === name)?.file;
  if (found === undefined) throw new Error(`no corpus ${name}: run \`npm run corpora\` (real corpora) or pick --file`);
  return found;
}
const file = args.includes('--file') ? opt('file', '') : corpusFile(opt('corpus', 'en-mixed'));
const mb = Number(opt('mb', '40'));
const runs = Number(opt('runs', '5'));
const layer = opt('layer', 'stream');
const markdown = args.includes('--markdown');

const all = readFileSync(file);
let cut = Math.min(all.length, Math.round(mb * 1e6));
while (cut < all.length && all[cut - 1] !== 0x0a) cut++;
const bytes = all.subarray(0, cut);
const buffers: Buffer[] = [];
for (let i = 0; i < bytes.length; i += 65536) buffers.push(bytes.subarray(i, Math.min(bytes.length, i + 65536)));

const { api, missing } = await loadIrilink();
/** The scan layer's input, decoded once outside the timed runs (the decode is the `decode` layer's cost). */
const text = layer === 'scan' ? bytes.toString('utf8') : '';

async function once(): Promise<number> {
  if (layer === 'decode') {
    const d = new StringDecoder('utf8');
    let n = 0;
    for (const b of buffers) n += d.write(b).length;
    return n;
  }
  if (layer === 'scan') {
    if (api.createScanner === undefined) throw new Error(missing.join('; '));
    const scanner = api.createScanner();
    let links = 0;
    const P = 65536;
    for (let i = 0; i < text.length; i += P) {
      const end = Math.min(text.length, i + P);
      const s = Math.max(0, i - 64);
      links += scanner.scan(text.slice(s, end), i - s, end === text.length, s).links.length;
    }
    return links;
  }
  if (api.createLinkStream === undefined) throw new Error(missing.join('; '));
  let links = 0;
  for await (const chunk of Readable.from(buffers, { objectMode: false }).pipe(api.createLinkStream(markdown ? { markdown: true } : undefined))) {
    if ((chunk as { type: string }).type === 'link') links++;
  }
  return links;
}

const results: number[] = [];
await once(); // warm-up
await once();
for (let r = 0; r < runs; r++) {
  const t0 = process.cpuUsage();
  const count = await once();
  const used = process.cpuUsage(t0);
  const ms = (used.user + used.system) / 1000;
  results.push(ms / (bytes.length / 1e6));
  console.log(`run ${r}: ${(ms / (bytes.length / 1e6)).toFixed(2)} CPU ms/MB (${count})`);
}
results.sort((a, b) => a - b);
console.log(`${layer} ${file.split('/').pop()} ${(bytes.length / 1e6).toFixed(1)} MB: median ${results[results.length >> 1]!.toFixed(2)} CPU ms/MB`);
