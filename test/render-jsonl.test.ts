import { expect } from 'chai';
import { toJsonl, toText, type JsonlOptions, type TextOptions } from '../src/render/index.js';
import type { Chunk } from '../src/types.js';
import { chunksOf, link } from './render-support.js';

const lines = (out: string): unknown[] => {
  expect(out.endsWith('\n') || out === '').to.equal(true);
  return out.split('\n').slice(0, -1).map((l) => JSON.parse(l));
};

describe('render: toJsonl', () => {
  it('one object per chunk, keys in a fixed order', () => {
    const chunks: Chunk[] = [
      { end: 4, start: 0, text: 'see ', type: 'text' },
      { ...link('https://例え.jp/', 4, { uri: 'https://xn--r8jz45g.jp/', byteStart: 4, byteEnd: 22 }) },
      { type: 'text', text: '\uFFFD', start: 18, end: 19, diagnostics: ['invalid-utf8'] },
    ];
    expect(toJsonl(chunks)).to.equal(
      '{"type":"text","start":0,"end":4,"line":1,"column":1,"text":"see ","diagnostics":[]}\n' +
        '{"type":"link","start":4,"end":18,"byteStart":4,"byteEnd":22,"line":1,"column":5,"text":"https://例え.jp/",' +
        '"uri":"https://xn--r8jz45g.jp/","iri":"https://例え.jp/","kind":"url","scheme":"https","schemeInferred":false,"diagnostics":[]}\n' +
        '{"type":"text","start":18,"end":19,"line":1,"column":19,"text":"\uFFFD","diagnostics":["invalid-utf8"]}\n',
    );
  });

  it('links: true gives one object per link with the issue 4 fields', () => {
    const chunks = chunksOf('a\n  ⸠https://a.example/⸡\r\n\r\nb ⸠user@b.example⸡ ⸠https://c.example/⸡', [
      {},
      { kind: 'email', uri: 'mailto:user@b.example', scheme: 'mailto', schemeInferred: true, diagnostics: ['userinfo'] },
    ]);
    const out = lines(toJsonl(chunks, { links: true }));
    expect(out).to.deep.equal([
      { start: 4, end: 22, line: 2, column: 3, text: 'https://a.example/', uri: 'https://a.example/', iri: 'https://a.example/', kind: 'url', scheme: 'https', schemeInferred: false, diagnostics: [] },
      { start: 28, end: 42, line: 4, column: 3, text: 'user@b.example', uri: 'mailto:user@b.example', iri: 'user@b.example', kind: 'email', scheme: 'mailto', schemeInferred: true, diagnostics: ['userinfo'] },
      { start: 43, end: 61, line: 4, column: 18, text: 'https://c.example/', uri: 'https://c.example/', iri: 'https://c.example/', kind: 'url', scheme: 'https', schemeInferred: false, diagnostics: [] },
    ]);
  });

  it('counts \\r\\n, lone \\n and lone \\r as one line break each, also when \\r\\n is split across chunks', () => {
    for (const sep of ['\n', '\r\n', '\r']) {
      const chunks = chunksOf(`a${sep}b${sep}${sep}⸠https://x.example/⸡`);
      expect((lines(toJsonl(chunks, { links: true }))[0] as { line: number }).line, JSON.stringify(sep)).to.equal(4);
    }
    const split: Chunk[] = [
      { type: 'text', text: 'a\r', start: 0, end: 2 },
      { type: 'text', text: '\nb\r', start: 2, end: 5 },
      { type: 'text', text: '\r\n', start: 5, end: 7 },
      link('https://x.example/', 7),
    ];
    expect(lines(toJsonl(split, { links: true }))[0]).to.include({ line: 4, column: 1 });
    const perChunk = lines(toJsonl(split)) as { line: number; column: number }[];
    expect(perChunk.map((o) => [o.line, o.column])).to.deep.equal([[1, 1], [1, 3], [3, 1], [4, 1]]);
  });

  it('a link holding a line break (P3 wrapping) moves the count for what follows', () => {
    const chunks = chunksOf('<⸠http://example.com/a\n   /b⸡> ⸠https://z.example/⸡', [{ uri: 'http://example.com/a/b', diagnostics: ['wrapped'] }]);
    const out = lines(toJsonl(chunks, { links: true })) as { line: number; column: number }[];
    expect(out.map((o) => [o.line, o.column])).to.deep.equal([[1, 2], [2, 8]]);
  });

  it('column counts UTF-16 code units, like start', () => {
    const chunks = chunksOf('😀 é\n😀⸠https://x.example/⸡');
    expect(lines(toJsonl(chunks, { links: true }))[0]).to.include({ line: 2, column: 3, start: 7 });
  });

  it('strings are escaped by JSON: line separators and lone surrogates cannot break a line', () => {
    const out = toJsonl(chunksOf('a\u2028b\nc\uD800"'));
    expect(out.split('\n').length).to.equal(2);
    expect((lines(out)[0] as { text: string }).text).to.equal('a\u2028b\nc\uD800"');
    expect(out).to.include('\\ud800');
  });

  it('rejects bad options', () => {
    expect(() => toJsonl([], { links: 1 } as unknown as JsonlOptions)).to.throw(TypeError, /links/);
  });
});

describe('render: toText', () => {
  const chunks = chunksOf('see ⸠例え.jp⸡ and ⸠https://a.example/%7E⸡.', [
    { uri: 'https://xn--r8jz45g.jp', iri: 'https://例え.jp', scheme: 'https', schemeInferred: true },
    { iri: 'https://a.example/~' },
  ]);

  it('is the input unchanged by default', () => {
    expect(toText(chunks)).to.equal('see 例え.jp and https://a.example/%7E.');
  });

  it('display rewrites links to their iri (an inferred scheme left off) or uri', () => {
    expect(toText(chunks, { display: 'iri' })).to.equal('see 例え.jp and https://a.example/~.');
    expect(toText(chunks, { display: 'uri' })).to.equal('see https://xn--r8jz45g.jp and https://a.example/%7E.');
  });

  it('links: true lists them one per line', () => {
    expect(toText(chunks, { links: true, display: 'uri' })).to.equal('https://xn--r8jz45g.jp\nhttps://a.example/%7E\n');
    expect(() => toText(chunks, { display: 'html' } as unknown as TextOptions)).to.throw(TypeError, /display/);
  });
});
