// Issue 7 "Spoofing": userinfo disguising the host. UTS #58's conformance file links nothing in
// `http://john.smith@example.com`, so an http(s) URL with `user@` (no password) before the host is not a link;
// detection still reports the span it would have been (ScanResult.unlinked), and linkify(), the stream and the
// HTML renderer carry it as a text chunk with the `userinfo` diagnostic.
import { expect } from 'chai';
import fc from 'fast-check';
import { Readable } from 'node:stream';
import { createScanner, findLinks, linkify } from '../src/detect/index.js';
import { createLinkStream } from '../src/stream/transform.js';
import { toHtml } from '../src/render/index.js';
import type { Chunk } from '../src/types.js';

/** The unlinked spans of `text` as ⸢…⸣ marks, the links as ⸠…⸡ (the same shape as the marker tests). */
function marked(text: string): string {
  return linkify(text)
    .map((c) => (c.type === 'link' ? `⸠${c.text}⸡` : c.diagnostics?.includes('userinfo') ? `⸢${c.text}⸣` : c.text))
    .join('');
}

describe('detect: unlinked spans (http(s) userinfo without a password)', () => {
  const cases = [
    'log in at ⸢https://bank.example@evil.example/login⸣ now',
    '⸢http://john.smith@example.com⸣',
    '⸢http://john.smith@example.com/foo/bar⸣',
    '⸢http://john..smith@example.com⸣',
    'see ⸢https://www.paypal.com@phish.example.net/⸣, then ⸠https://ok.example.com/⸡.',
    '(⸢https://a@b.example.org/x⸣)',
    // Not disguises: a password is visible (linked, flagged), other schemes, emails.
    '⸠https://user:pass@example.com/a⸡ ⸠ssh://git@github.com/a/b.git⸡ ⸠ftp://anonymous@ftp.example.com/pub⸡',
    'mail ⸠john.smith@example.com⸡ now',
    // No `@` before the host's end: nothing unlinked.
    '⸠https://example.com/@user⸡ ⸠https://example.com/a?b=c@d⸡',
  ];
  for (const c of cases) {
    it(c, () => {
      const plain = c.replace(/[⸠⸡⸢⸣]/g, '');
      expect(marked(plain)).to.equal(c);
    });
  }

  it('the span is not a link: findLinks() leaves it out, and nothing inside it is linked on its own', () => {
    expect(findLinks('https://bank.example@www.evil.com/a')).to.deep.equal([]);
    expect(findLinks('https://me@example.com')).to.deep.equal([]);
  });

  it('a span cut at maxLinkLength also carries link-too-long (the rest of its run is its own, not new text)', () => {
    const text = `https://u@evil.example/${'a'.repeat(60)}&u=www.example.com/x end`;
    const chunks = linkify(text, { maxLinkLength: 64 });
    expect(chunks[0]).to.deep.include({ type: 'text', start: 0, end: 64, diagnostics: ['userinfo', 'link-too-long'] });
    expect(chunks.slice(1).map((c) => [c.type, c.text])).to.deep.equal([['text', text.slice(64)]]);
    expect(linkify('https://u@evil.example/a')[0]!.diagnostics).to.deep.equal(['userinfo']);
  });

  it('the scanner reports it with stream offsets', () => {
    const result = createScanner().scan('xx https://a@b.example.com/ y', 0, true, 100);
    expect(result.links).to.deep.equal([]);
    expect(result.unlinked).to.deep.equal([{ start: 103, end: 127, diagnostics: ['userinfo'] }]);
  });

  it('the HTML renderer marks it like a link that may not be clickable', () => {
    const html = toHtml(linkify('go to https://bank.example@evil.example/ <now>'));
    expect(html).to.equal('go to <span class="irilink-unsafe" title="userinfo">https://bank.example@evil.example/</span> &lt;now&gt;');
    expect(toHtml(linkify('go to https://bank.example@evil.example/'), { links: true })).to.equal('');
  });

  it('the stream gives the same chunk for it however the bytes are split (fast-check)', async () => {
    const input = Buffer.from('a ⸢https://bank.example@évil.example/パス⸣ b https://ok.example/ c http://x@y.example.org\n');
    const plain = Buffer.from(input.toString().replace(/[⸢⸣]/g, ''));
    const expected = linkify(plain.toString()).filter((c) => c.type === 'text' && c.diagnostics !== undefined);
    expect(expected.map((c) => c.text)).to.deep.equal(['https://bank.example@évil.example/パス', 'http://x@y.example.org']);
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(fc.integer({ min: 1, max: plain.length - 1 }), { maxLength: 8 }), async (cuts) => {
        const sorted = [...cuts].sort((a, b) => a - b);
        const pieces: Buffer[] = [];
        let last = 0;
        for (const cut of [...sorted, plain.length]) {
          pieces.push(plain.subarray(last, cut));
          last = cut;
        }
        const chunks: Chunk[] = [];
        for await (const chunk of Readable.from(pieces).pipe(createLinkStream())) chunks.push(chunk as Chunk);
        const flagged = chunks
          .filter((c) => c.type === 'text' && c.diagnostics !== undefined)
          .map(({ byteStart: _s, byteEnd: _e, ...rest }) => rest);
        expect(flagged).to.deep.equal(expected);
      }),
      { numRuns: 60 },
    );
  });
});
