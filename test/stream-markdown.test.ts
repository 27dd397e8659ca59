import { expect } from 'chai';
import { Readable } from 'node:stream';
import { createLinkStream, linkifyMarkdown } from '../src/index.js';
import type { Chunk } from '../src/index.js';

async function collect(input: string, options: Parameters<typeof createLinkStream>[0], piece = 7): Promise<Chunk[]> {
  const bytes = Buffer.from(input, 'utf8');
  const parts: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += piece) parts.push(bytes.subarray(i, i + piece));
  const out: Chunk[] = [];
  for await (const chunk of Readable.from(parts).pipe(createLinkStream(options))) out.push(chunk as Chunk);
  return out;
}

const strip = (chunks: Chunk[]) => chunks.map(({ byteStart: _s, byteEnd: _e, ...rest }) => rest);

describe('createLinkStream({ markdown: true })', () => {
  const source = [
    '# Title with https://例え.jp/パス',
    '',
    'Use `https://code.example/x` or [the spec](https://www.rfc-editor.org/rfc/rfc3987) and **https://b.example/**.',
    '',
    '```',
    'https://fenced.example/',
    '```',
    '',
    '[ref]: https://ref.example/ページ',
  ].join('\n');

  it('gives the Markdown mode\'s chunks, whatever the byte split, with byte offsets', async () => {
    const expected = linkifyMarkdown(source);
    for (const piece of [1, 3, 64, 1 << 16]) {
      const chunks = await collect(source, { markdown: true }, piece);
      expect(strip(chunks)).to.deep.equal(expected);
      const last = chunks[chunks.length - 1]!;
      expect(last.byteEnd).to.equal(Buffer.byteLength(source));
    }
    const uris = expected.filter((c) => c.type === 'link').map((c) => (c.type === 'link' ? c.uri : ''));
    expect(uris).to.include('https://www.rfc-editor.org/rfc/rfc3987');
    expect(uris).to.include('https://b.example/');
    expect(uris.some((u) => u.includes('code.example') || u.includes('fenced.example'))).to.equal(false);
  });

  it('plain mode still links inside code spans (the closing backquote is not part of the link)', async () => {
    const chunks = await collect(source, {});
    const texts = chunks.filter((c) => c.type === 'link').map((c) => c.text);
    expect(texts).to.include('https://code.example/x');
  });

  it('reports an unlinked span (userinfo, no password) as a text chunk with its diagnostic, as plain mode does', async () => {
    const input = '# Login\n\nGo to **https://bank.example@évil.example/パス** or `https://a@b.example.org/`.\n';
    for (const piece of [1, 5, 1 << 16]) {
      const chunks = await collect(input, { markdown: true }, piece);
      expect(strip(chunks)).to.deep.equal(linkifyMarkdown(input));
      const flagged = chunks.filter((c) => c.type === 'text' && c.diagnostics !== undefined);
      expect(flagged.map((c) => [c.text, c.diagnostics])).to.deep.equal([['https://bank.example@évil.example/パス', ['userinfo']]]);
      const start = Buffer.byteLength(input.slice(0, input.indexOf('https://bank')));
      expect([flagged[0]!.byteStart, flagged[0]!.byteEnd]).to.deep.equal([start, start + Buffer.byteLength(flagged[0]!.text)]);
    }
  });

  it('rejects bad markdown/gfm options before any data flows', () => {
    expect(() => createLinkStream({ markdown: 'yes' as unknown as boolean })).to.throw(TypeError, /markdown/);
    expect(() => createLinkStream({ gfm: false })).to.throw(TypeError, /gfm/);
    expect(() => createLinkStream({ markdown: true, gfm: false })).to.not.throw();
  });
});
