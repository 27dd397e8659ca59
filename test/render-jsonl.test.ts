import { expect } from 'chai';
import { toJsonl, toText, type JsonlOptions, type TextOptions } from '../src/render/index.js';
import type { Chunk } from '../src/types.js';
import { Readable } from 'node:stream';
import { createLogLinkStream, createRecordStream } from '../src/logs/index.js';
import { linkifyMessage, mailToJsonl } from '../src/mail/index.js';
import { createLinkStream } from '../src/stream/transform.js';
import { chunksOf, link } from './render-support.js';

const lines = (out: string): unknown[] => {
  expect(out.endsWith('\n') || out === '').to.equal(true);
  return out.split('\n').slice(0, -1).map((l) => JSON.parse(l));
};

describe('render: toJsonl', () => {
  it('one object per chunk, keys in a fixed order: type, line, column, then the link\'s fields in DESIGN.md\'s order', () => {
    const chunks: Chunk[] = [
      { end: 4, start: 0, text: 'see ', type: 'text' },
      { ...link('https://例え.jp/', 4, { uri: 'https://xn--r8jz45g.jp/', byteStart: 4, byteEnd: 22 }) },
      { type: 'text', text: '\uFFFD', start: 18, end: 19, diagnostics: ['invalid-utf8'] },
    ];
    expect(toJsonl(chunks)).to.equal(
      '{"type":"text","line":1,"column":1,"start":0,"end":4,"text":"see ","diagnostics":[]}\n' +
        '{"type":"link","line":1,"column":5,"start":4,"end":18,"byteStart":4,"byteEnd":22,"text":"https://例え.jp/",' +
        '"uri":"https://xn--r8jz45g.jp/","iri":"https://例え.jp/","kind":"url","scheme":"https","schemeInferred":false,"diagnostics":[]}\n' +
        '{"type":"text","line":1,"column":19,"start":18,"end":19,"text":"\uFFFD","diagnostics":["invalid-utf8"]}\n',
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

// src/render/jsonl.ts linkRow writes a link's fields for every JSON row irilink makes; each writer adds its own first.
describe('one writer of a link\'s JSON fields (linkRow)', () => {
  const FIELDS = ['start', 'end', 'byteStart', 'byteEnd', 'text', 'uri', 'iri', 'kind', 'scheme', 'schemeInferred', 'diagnostics'];
  const LINK_VALUES = ['text', 'uri', 'iri', 'kind', 'scheme', 'schemeInferred', 'diagnostics'];
  const text = 'see https://例え.jp/パス and alice@example.jp';
  const rows = (out: string): Record<string, unknown>[] => out.trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
  async function streamOut(stream: NodeJS.ReadWriteStream, input: string): Promise<string> {
    let out = '';
    for await (const b of Readable.from([Buffer.from(input)]).pipe(stream)) out += (b as Buffer).toString('utf8');
    return out;
  }

  it('toJsonl, --records, --logs and --mail rows: their own fields, then the link\'s in DESIGN.md\'s order, the same values', async () => {
    const chunks: Chunk[] = [];
    for await (const c of Readable.from([Buffer.from(text)]).pipe(createLinkStream())) chunks.push(c as Chunk);
    const jsonl = rows(toJsonl(chunks, { links: true }));
    const perChunk = rows(toJsonl(chunks)).filter((o) => o.type === 'link');
    const records = (rows(await streamOut(createRecordStream(), text + '\n'))[0]!.links as Record<string, unknown>[]);
    const logs = rows(await streamOut(createLogLinkStream(), text + '\n'));
    const mail = rows(mailToJsonl(await linkifyMessage(Buffer.from(`Subject: s\n\n${text}\n`))));
    expect(jsonl.map((o) => o.text)).to.deep.equal(['https://例え.jp/パス', 'alice@example.jp']);
    for (const k of [0, 1]) {
      expect(Object.keys(jsonl[k]!)).to.deep.equal(['line', 'column', ...FIELDS]);
      expect(Object.keys(perChunk[k]!)).to.deep.equal(['type', 'line', 'column', ...FIELDS]);
      expect(Object.keys(records[k]!)).to.deep.equal(FIELDS);
      expect(Object.keys(logs[k]!)).to.deep.equal(['line', 'column', ...FIELDS]);
      expect(Object.keys(mail[k]!)).to.deep.equal(
        ['message', 'messageId', 'subject', 'part', 'contentType', 'charset', 'line', 'column', ...FIELDS.filter((f) => !f.startsWith('byte'))],
      );
      // One line at offset 0 in every input: the same offsets, the same values.
      for (const row of [perChunk[k]!, records[k]!, logs[k]!]) expect([row.byteStart, row.byteEnd]).to.deep.equal([jsonl[k]!.byteStart, jsonl[k]!.byteEnd]);
      for (const row of [perChunk[k]!, records[k]!, logs[k]!, mail[k]!]) {
        for (const f of LINK_VALUES) expect(row[f], f).to.deep.equal(jsonl[k]![f]);
        expect([row.start, row.end]).to.deep.equal([jsonl[k]!.start, jsonl[k]!.end]);
      }
    }
    expect(toJsonl(chunks, { links: true }).split('\n')[0]).to.equal(
      '{"line":1,"column":5,"start":4,"end":20,"byteStart":4,"byteEnd":28,"text":"https://例え.jp/パス",' +
        '"uri":"https://xn--r8jz45g.jp/%E3%83%91%E3%82%B9","iri":"https://例え.jp/パス","kind":"url","scheme":"https",' +
        '"schemeInferred":false,"diagnostics":[]}',
    );
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
