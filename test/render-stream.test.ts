import { expect } from 'chai';
import fc from 'fast-check';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  createRenderStream,
  RENDER_FORMATS,
  toAnsi,
  toHtml,
  toJsonl,
  toMarkdown,
  toText,
} from '../src/render/index.js';
import type { Chunk, DiagnosticCode } from '../src/types.js';
import { chunksOf, link, renderThroughStream, splitText } from './render-support.js';

type Render = (chunks: readonly Chunk[], options?: object) => string;
const FUNCTIONS: Record<string, Render> = { html: toHtml, markdown: toMarkdown, ansi: toAnsi, jsonl: toJsonl, text: toText };

// One configuration per format and option set the output depends on.
const CONFIGS: [string, object][] = [
  ['html', {}],
  ['html', { breaks: true, display: 'iri' }],
  ['html', { links: true }],
  ['markdown', {}],
  ['markdown', { display: 'iri' }],
  ['markdown', { links: true }],
  ['ansi', {}],
  ['ansi', { sgr: 'control', terminator: 'bel' }],
  ['ansi', { links: true }],
  ['jsonl', {}],
  ['jsonl', { links: true }],
  ['text', {}],
  ['text', { links: true, display: 'uri' }],
];

const SAMPLE = chunksOf(
  '# see ⸠https://例え.jp/パス⸡!\r\n1. \x1b[31mred\x1b[0m <b>&amp;</b>\r⸠user@example.com⸡\n\n    ⸠xn--r8jz45g.jp⸡ 😀 ⸠https://bank.example@evil.example/⸡ end!',
  [
    { uri: 'https://xn--r8jz45g.jp/%E3%83%91%E3%82%B9' },
    { kind: 'email', uri: 'mailto:user@example.com', scheme: 'mailto', schemeInferred: true },
    { uri: 'https://xn--r8jz45g.jp', iri: 'https://例え.jp', scheme: 'https', schemeInferred: true },
    { diagnostics: ['userinfo'] },
  ],
);
const SAMPLE_LENGTH = SAMPLE.reduce((n, c) => n + c.text.length, 0);

// Splitting a text chunk changes the per-chunk JSON Lines output by design (one object per chunk).
const splitInvariant = ([format, options]: [string, object]): boolean => format !== 'jsonl' || (options as { links?: boolean }).links === true;

describe('render: createRenderStream equals the function', () => {
  for (const [format, options] of CONFIGS) {
    it(`${format} ${JSON.stringify(options)}: stream output = function output`, async () => {
      const expected = FUNCTIONS[format]!(SAMPLE, options);
      expect(await renderThroughStream(format, options, SAMPLE)).to.equal(expected);
    });
  }

  it('for text chunks split at every position (and every pair of positions), output is unchanged', async () => {
    for (const config of CONFIGS.filter(splitInvariant)) {
      const [format, options] = config;
      const render = FUNCTIONS[format]!;
      const expected = render(SAMPLE, options);
      for (let a = 1; a < SAMPLE_LENGTH; a++) {
        expect(render(splitText(SAMPLE, [a]), options), `${format} cut ${a}`).to.equal(expected);
        for (let b = a + 1; b < SAMPLE_LENGTH; b += 3) {
          expect(render(splitText(SAMPLE, [a, b]), options), `${format} cuts ${a},${b}`).to.equal(expected);
        }
      }
      // And through the stream, a few splits (each a whole pipeline).
      for (const cuts of [[1], [3, 4], [20, 21, 22], [SAMPLE_LENGTH - 1]]) {
        expect(await renderThroughStream(format, options, splitText(SAMPLE, cuts)), `${format} stream ${cuts}`).to.equal(expected);
      }
    }
  });

  it('property: random chunks, random splits of the text — stream = function = function over the split chunks', async () => {
    const piece = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 4 }),
      fc.constantFrom('\r', '\n', '\x1b', '[', '31', 'm', '#', '!', '1', '.', ' ', '\t', '<', '&', '😀', '\uD83D', 'א'),
    );
    const text = fc.array(piece, { maxLength: 6 }).map((p) => p.join(''));
    const linkArb = fc.record({
      shown: fc.constantFrom('https://a.example/', 'https://例え.jp/', 'x.example', 'u@h.example', 'javascript:x', 'http://דוגמה.il/'),
      diagnostics: fc.constantFrom<DiagnosticCode[]>([], ['userinfo'], ['wrapped']),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(text, linkArb), { maxLength: 3 }),
        text,
        fc.array(fc.nat(60), { maxLength: 4 }),
        fc.constantFrom(...CONFIGS),
        async (pairs, tail, rawCuts, config) => {
          const [format, options] = config;
          const chunks: Chunk[] = [];
          let offset = 0;
          for (const [t, l] of pairs) {
            chunks.push({ type: 'text', text: t, start: offset, end: offset + t.length });
            offset += t.length;
            chunks.push(link(l.shown, offset, { diagnostics: l.diagnostics }));
            offset += l.shown.length;
          }
          chunks.push({ type: 'text', text: tail, start: offset, end: offset + tail.length });
          const render = FUNCTIONS[format]!;
          const expected = render(chunks, options);
          const cuts = [...new Set(rawCuts)].sort((x, y) => x - y);
          const split = splitText(chunks, cuts);
          if (splitInvariant(config)) expect(render(split, options)).to.equal(expected);
          const streamed = await renderThroughStream(format, options, split);
          expect(streamed).to.equal(Buffer.from(splitInvariant(config) ? expected : render(split, options), 'utf8').toString('utf8'));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a surrogate pair split between two chunks reaches the bytes whole', async () => {
    const chunks: Chunk[] = [
      { type: 'text', text: 'a\uD83D', start: 0, end: 2 },
      { type: 'text', text: '\uDE00b', start: 2, end: 4 },
    ];
    expect(await renderThroughStream('text', {}, chunks)).to.equal('a😀b');
    expect(await renderThroughStream('html', {}, chunks)).to.equal('a😀b');
    // A truly lone surrogate becomes U+FFFD in UTF-8, as it would from the function's string.
    expect(await renderThroughStream('text', {}, [{ type: 'text', text: 'a\uD83D', start: 0, end: 2 }])).to.equal('a\uFFFD');
  });

  it('works with for await and setEncoding for strings', async () => {
    const stream = createRenderStream('markdown');
    stream.setEncoding('utf8');
    Readable.from(SAMPLE, { objectMode: true }).pipe(stream);
    let out = '';
    for await (const part of stream) out += part as string;
    expect(out).to.equal(toMarkdown(SAMPLE));
  });

  it('an unknown format is a TypeError listing the formats; bad options fail before any data', () => {
    expect(() => createRenderStream('xml')).to.throw(TypeError, /format must be one of html, markdown, ansi, jsonl, text, got "xml"/);
    expect(RENDER_FORMATS).to.deep.equal(['html', 'markdown', 'ansi', 'jsonl', 'text']);
    expect(() => createRenderStream('html', { rel: 5 } as object)).to.throw(TypeError, /rel/);
  });

  it('a written value that is not a chunk fails the pipeline with a TypeError', async () => {
    let error: unknown;
    try {
      await pipeline(
        Readable.from([SAMPLE[0], 'not a chunk'], { objectMode: true }),
        createRenderStream('text'),
        new Writable({ write: (_c, _e, cb) => cb() }),
      );
    } catch (e) {
      error = e;
    }
    expect(error).to.be.instanceOf(TypeError);
    expect((error as Error).message).to.match(/createRenderStream\(\): each chunk must be a text or link chunk/);
  });
});
