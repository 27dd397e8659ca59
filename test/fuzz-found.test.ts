// Inputs found by the fuzzer (scripts/fuzz.ts) and by the fast-check properties of test/security-properties.test.ts,
// each pinned as a named test. (The fuzz runs so far found no crash; these are the counterexamples the properties
// met while they were being written, with the behaviour that was judged right.)
import { expect } from 'chai';
import type { Readable } from 'node:stream';
import { findLinks, linkify, toHtml } from '../src/index.js';
import { createLinkStream } from '../src/stream/transform.js';
import type { Chunk } from '../src/types.js';

async function streamText(parts: readonly number[][]): Promise<Chunk[]> {
  const stream = createLinkStream();
  const out: Chunk[] = [];
  const done = (async () => {
    for await (const c of stream as Readable) out.push(c as Chunk);
  })();
  for (const part of parts.slice(0, -1)) stream.write(Buffer.from(part));
  stream.end(Buffer.from(parts[parts.length - 1]!));
  await done;
  return out;
}

describe('fuzz-found inputs', () => {
  it('bytes 00 80 00 cut after the first byte: the same text and the same invalid-utf8 diagnostic as uncut', async () => {
    const whole = await streamText([[0x00, 0x80, 0x00]]);
    const split = await streamText([[0x00], [0x80, 0x00]]);
    const text = (chunks: Chunk[]): string => chunks.map((c) => c.text).join('');
    const codes = (chunks: Chunk[]): string[] => [...new Set(chunks.flatMap((c) => c.diagnostics ?? []))];
    expect(text(whole)).to.equal('\0\uFFFD\0');
    expect(text(split)).to.equal('\0\uFFFD\0');
    expect(codes(whole)).to.deep.equal(['invalid-utf8']);
    expect(codes(split)).to.deep.equal(['invalid-utf8']);
  });

  it('"\\u08D3.jp" (a host starting with a combining mark): idna-failed, host percent-encoded, not clickable', () => {
    const [link] = findLinks('\u08D3.jp');
    expect(link!.diagnostics).to.deep.equal(['idna-failed']);
    expect(link!.uri).to.equal('https://%E0%A3%93.jp');
    expect(toHtml(linkify('\u08D3.jp'))).to.equal('<span class="irilink-unsafe" title="idna-failed">\u08D3.jp</span>');
  });

  it('"0.org?%ZZ": the stray % is flagged invalid-percent-encoding', () => {
    const [link] = findLinks('0.org?%ZZ');
    expect(link!.text).to.equal('0.org?%ZZ');
    expect(link!.diagnostics).to.include('invalid-percent-encoding');
  });

  it('"http://\\u{323B0}" (a CJK Ext. J ideograph, new in Unicode 17): converted with the Unicode 17 IDNA table', () => {
    const [link] = findLinks('http://\u{323B0}');
    expect(link!.diagnostics).to.deep.equal([]);
    expect(link!.uri).to.match(/^http:\/\/xn--[a-z0-9]+$/);
  });

  it('"https://example.com/#javascript:…" is an https link whose fragment is only text', () => {
    const text = 'https://example.com/#javascript:window.__xss=1';
    const html = toHtml(linkify(text));
    expect(html).to.match(/^<a href="https:\/\/example\.com\/#javascript:window\.__xss=1" /);
  });

  it('"https://user:\\"onmouseover=…\\"@x.example/": no link reaches past the quote, no handler in the HTML', () => {
    const text = 'https://user:"onmouseover="window.__xss=1"@x.example/';
    for (const link of findLinks(text)) expect(link.text).to.not.include('"');
    expect(toHtml(linkify(text))).to.not.match(/<[^>]* onmouseover=/);
  });
});
