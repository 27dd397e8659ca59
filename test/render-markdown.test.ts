import { expect } from 'chai';
import fc from 'fast-check';
import MarkdownIt from 'markdown-it';
import { parseFragment } from 'parse5';
import { refusals, toMarkdown, DEFAULT_LINK_SCHEMES, type MarkdownOptions } from '../src/render/index.js';
import type { Chunk, LinkChunk } from '../src/types.js';
import { chunksOf, link } from './render-support.js';
import { linkify } from '../src/detect/index.js';

describe('render: toMarkdown exact output', () => {
  it('writes a link whose text holds a % in the inline form, which every renderer shows as written', () => {
    expect(toMarkdown(linkify('see %0a@example.com and https://a.example/%41 and https://a.example/b'))).to.equal(
      'see [%0a@example.com](mailto:%250a@example.com) and [https://a.example/%41](https://a.example/%41) and <https://a.example/b>',
    );
  });
  it('nor one whose text holds an xn-- label, which markdown-it shows in Unicode in an autolink (found in review)', () => {
    expect(toMarkdown(linkify('visit שלום.com'), { display: 'uri' })).to.equal('visit [https://xn--9dbne9b.com](https://xn--9dbne9b.com)');
    expect(toMarkdown(linkify('see https://XN--r8jz45g.jp/a and a@xn--r8jz45g.jp'))).to.equal(
      'see [https://XN--r8jz45g.jp/a](https://xn--r8jz45g.jp/a) and [a@xn--r8jz45g.jp](mailto:a@xn--r8jz45g.jp)',
    );
    // Rendered, the text reads as written.
    const html = new MarkdownIt({ linkify: false }).renderInline(toMarkdown(linkify('visit שלום.com'), { display: 'uri' }));
    expect(html).to.equal('visit <a href="https://xn--9dbne9b.com">https://xn--9dbne9b.com</a>');
  });
  it('a link shown as its uri is an autolink; any other is [text](uri)', () => {
    const chunks = chunksOf('see ⸠https://example.com/a⸡ and ⸠https://例え.jp/パス⸡。', [
      {},
      { uri: 'https://xn--r8jz45g.jp/%E3%83%91%E3%82%B9' },
    ]);
    expect(toMarkdown(chunks)).to.equal('see <https://example.com/a> and [https://例え.jp/パス](https://xn--r8jz45g.jp/%E3%83%91%E3%82%B9)。');
  });

  it('schemeless and email links', () => {
    const chunks = chunksOf('⸠example.com⸡ ⸠user@example.com⸡ ⸠ユーザー@例え.jp⸡', [
      { uri: 'https://example.com', iri: 'https://example.com', scheme: 'https', schemeInferred: true },
      { kind: 'email', uri: 'mailto:user@example.com', iri: 'mailto:user@example.com', scheme: 'mailto', schemeInferred: true },
      { kind: 'email', uri: 'mailto:%E3%83%A6@xn--r8jz45g.jp', iri: 'mailto:ユ@例え.jp', scheme: 'mailto', schemeInferred: true },
    ]);
    expect(toMarkdown(chunks)).to.equal(
      '[example.com](https://example.com) <user@example.com> [ユーザー@例え.jp](mailto:%E3%83%A6@xn--r8jz45g.jp)',
    );
    expect(toMarkdown(chunks, { display: 'iri' })).to.equal(
      '[example.com](https://example.com) <user@example.com> [ユ@例え.jp](mailto:%E3%83%A6@xn--r8jz45g.jp)',
    );
    // A shown text with a `%` is not an autolink: markdown-it would show it percent-decoded.
    expect(toMarkdown(chunks, { display: 'uri' })).to.equal(
      '<https://example.com> <mailto:user@example.com> [mailto:%E3%83%A6@xn--r8jz45g.jp](mailto:%E3%83%A6@xn--r8jz45g.jp)',
    );
  });

  it('escapes link text and the destination as CommonMark requires', () => {
    const chunks = [link('https://a.example/[x](y)*_`\\', 0, { uri: 'https://a.example/%5Bx%5D(y)*_%60%5C' })];
    expect(toMarkdown(chunks)).to.equal('[https://a.example/\\[x\\](y)\\*\\_\\`\\\\](https://a.example/%5Bx%5D\\(y\\)*_%60%5C)');
    // & is escaped in a destination only where it could start an entity reference.
    const amp = [link('q', 0, { uri: 'https://a.example/?a=1&b=2&#38;&;' })];
    expect(toMarkdown(amp)).to.equal('[q](https://a.example/?a=1\\&b=2\\&#38;&;)');
    // An autolink reads no escapes or entities: the uri goes in as it is.
    expect(toMarkdown([link('https://a.example/?a=1&amp;b', 0)])).to.equal('<https://a.example/?a=1&amp;b>');
  });

  it('escapes inline constructs everywhere: \\ ` * _ [ ] < & ~ |', () => {
    expect(toMarkdown(chunksOf('a\\b `c` *d* _e_ [f](g) <h> &amp; ~~i~~ j|k'))).to.equal(
      'a\\\\b \\`c\\` \\*d\\* \\_e\\_ \\[f\\](g) \\<h> \\&amp; \\~\\~i\\~\\~ j\\|k',
    );
  });

  it('escapes block starts at the beginning of each line only', () => {
    const input = '# h\n> q\n- l\n+ l\n= s\n12. o\n3) o\n2024 was a year.\na # > - + = 1. b';
    expect(toMarkdown(chunksOf(input))).to.equal(
      '\\# h\n\\> q\n\\- l\n\\+ l\n\\= s\n12\\. o\n3\\) o\n2024 was a year.\na # > - + = 1. b',
    );
    expect(toMarkdown(chunksOf('a\r# b\r\n- c'))).to.equal('a\r\\# b\r\n\\- c');
  });

  it('indentation becomes a character reference, so no indented code block or late block start', () => {
    expect(toMarkdown(chunksOf('a\n\n    code\n  # h\n\t- x'))).to.equal('a\n\n&#32;   code\n&#32; # h\n&#9;- x');
  });

  it('line state carries across chunks: a block start after a chunk boundary is still escaped', () => {
    const chunks: Chunk[] = [
      { type: 'text', text: 'a\n', start: 0, end: 2 },
      { type: 'text', text: '# b\n1', start: 2, end: 7 },
      { type: 'text', text: '2', start: 7, end: 8 },
      { type: 'text', text: '. c', start: 8, end: 11 },
    ];
    expect(toMarkdown(chunks)).to.equal('a\n\\# b\n12\\. c');
  });

  it('a ! right before an inline link is escaped so it does not make an image', () => {
    expect(toMarkdown(chunksOf('wow!⸠https://例え.jp/⸡!', [{ uri: 'https://xn--r8jz45g.jp/' }]))).to.equal(
      'wow\\![https://例え.jp/](https://xn--r8jz45g.jp/)!',
    );
    expect(toMarkdown(chunksOf('wow!⸠https://a.example/⸡'))).to.equal('wow!<https://a.example/>');
    const split: Chunk[] = [
      { type: 'text', text: 'a!', start: 0, end: 2 },
      { type: 'text', text: '', start: 2, end: 2 },
      link('x.example', 2, { uri: 'https://x.example', schemeInferred: true, scheme: 'https' }),
    ];
    expect(toMarkdown(split)).to.equal('a\\![x.example](https://x.example)');
    expect(toMarkdown(chunksOf('hi!'))).to.equal('hi!');
  });

  it('a wrapped link (P3) keeps one line in its text', () => {
    const chunks = [link('http://example.com/a\r\n   /b', 0, { uri: 'http://example.com/a/b', diagnostics: ['wrapped'] })];
    expect(toMarkdown(chunks)).to.equal('[http://example.com/a    /b](http://example.com/a/b)');
  });

  it('links that may not be clickable are escaped text, : . @ too (no autolinker links them again)', () => {
    const chunks = chunksOf('⸠https://bank.example@evil.example/⸡ ⸠javascript:alert(1)⸡ ⸠*x*:y⸡', [{ diagnostics: ['userinfo'] }, {}, {}]);
    expect(toMarkdown(chunks)).to.equal('https\\://bank\\.example\\@evil\\.example/ javascript\\:alert(1) \\*x\\*\\:y');
  });

  it('links: true writes the links alone, one per line', () => {
    expect(toMarkdown(chunksOf('# x ⸠https://a.example/⸡ y ⸠b.example⸡', [{}, { uri: 'https://b.example', schemeInferred: true }]), { links: true })).to.equal(
      '<https://a.example/>\n[b.example](https://b.example)\n',
    );
  });

  it('rejects bad options with a TypeError', () => {
    expect(() => toMarkdown([], { display: 'x' } as unknown as MarkdownOptions)).to.throw(TypeError, /display/);
    expect(() => toMarkdown([], { links: 'yes' } as unknown as MarkdownOptions)).to.throw(TypeError, /links/);
  });
});

// ---------------------------------------------------------------------------------------------------------
// Round trip through the real markdown-it: render → parse → the links are exactly the clickable chunks'
// (href as markdown-it normalises any destination), and the text is the input's text.

const md = new MarkdownIt();

interface Node5 {
  nodeName: string;
  value?: string;
  attrs?: { name: string; value: string }[];
  childNodes?: Node5[];
}

function readHtml(html: string): { text: string; links: { href: string; text: string }[] } {
  let text = '';
  const links: { href: string; text: string }[] = [];
  const visit = (node: Node5, inLink: { href: string; text: string } | null): void => {
    for (const child of node.childNodes ?? []) {
      if (child.nodeName === '#text') {
        text += child.value;
        if (inLink) inLink.text += child.value;
      } else if (child.nodeName === 'a') {
        const found = { href: child.attrs!.find((a) => a.name === 'href')!.value, text: '' };
        links.push(found);
        visit(child, found);
      } else {
        if (!['p', 'br'].includes(child.nodeName)) throw new Error(`<${child.nodeName}> in ${JSON.stringify(html)}`);
        visit(child, inLink);
      }
    }
  };
  visit(parseFragment(html) as unknown as Node5, null);
  return { text, links };
}

// Markdown (like HTML) does not keep whitespace as written: runs of it are compared as one space. U+0000 is
// dropped by the HTML parser (markdown-it's autolink text decodes %00 to it).
const collapse = (s: string): string => s.replace(/\0/g, '').replace(/[ \t\r\n]+/g, ' ').trim();

function roundTrip(chunks: Chunk[], options: MarkdownOptions = {}): void {
  const markdown = toMarkdown(chunks, options);
  const { text, links } = readHtml(md.render(markdown));
  let expectedText = '';
  let next = 0;
  for (const chunk of chunks) {
    if (chunk.type === 'text') {
      expectedText += chunk.text;
      continue;
    }
    const shown = options.display === 'iri' ? displayIri(chunk) : options.display === 'uri' ? chunk.uri : chunk.text;
    if (refusals(chunk, new Set(DEFAULT_LINK_SCHEMES)).length > 0) {
      expectedText += shown;
      continue;
    }
    const found = links[next++];
    expect(found, `link ${chunk.uri} in ${JSON.stringify(markdown)}`).to.not.equal(undefined);
    expect(found!.href, markdown).to.equal(md.normalizeLink(chunk.uri));
    // markdown-it shows an autolink's uri decoded (normalizeLinkText); an inline link shows its text.
    const accepted = [collapse(shown), collapse(md.normalizeLinkText(shown))];
    expect(accepted, markdown).to.include(collapse(found!.text));
    expectedText += found!.text;
  }
  expect(links.length, markdown).to.equal(next);
  expect(collapse(text), JSON.stringify(markdown)).to.equal(collapse(expectedText));
}

function displayIri(chunk: LinkChunk): string {
  return chunk.iri;
}

describe('render: toMarkdown round trip through markdown-it', () => {
  it('sample documents', () => {
    roundTrip(chunksOf('# Title\n\n* item ⸠https://example.com/a_b*c⸡\n1. ⸠https://例え.jp/パス⸡!\n\n    indented `code`\n> quote [x](y) <b>&amp;</b>', [
      {},
      { uri: 'https://xn--r8jz45g.jp/%E3%83%91%E3%82%B9' },
    ]));
    roundTrip(chunksOf('| a | b |\n|---|---|\n| ⸠https://a.example/(x)⸡ | ~~s~~ |\n***\n___\n---\nx\n===\n```\n~~~'));
    // A GFM delimiter row under a line with an escaped `|` (found by the property below).
    roundTrip(chunksOf('|\n:-'));
    roundTrip(chunksOf('a | b\n:-: | --:\n⸠https://a.example/⸡'));
    roundTrip(chunksOf('mail ⸠user@example.com⸡, ⸠ユ@例え.jp⸡, <⸠mailto:a@b.example?subject=x&body=y⸡>', [
      { kind: 'email', uri: 'mailto:user@example.com', schemeInferred: true, scheme: 'mailto' },
      { kind: 'email', uri: 'mailto:%E3%83%A6@xn--r8jz45g.jp', schemeInferred: true, scheme: 'mailto' },
    ]));
    roundTrip(chunksOf('wow!⸠https://a.example/\\⸡![⸠ftp://b.example/<x>⸡](c)', [{ uri: 'https://a.example/%5C' }, { uri: 'ftp://b.example/%3Cx%3E' }]));
  });

  it('property: random text around links round-trips (text and links)', () => {
    const piece = fc.oneof(
      { weight: 3, arbitrary: fc.string({ unit: 'grapheme-ascii', maxLength: 6 }) },
      {
        weight: 3,
        arbitrary: fc.constantFrom(
          '\n', '\r\n', '\r', '\n\n', ' ', '    ', '\t', '#', '##', '>', '-', '+', '=', '*', '**', '_', '`', '```', '~', '~~', '[', ']', '(', ')', '<',
          '>', '&', '&amp;', '&#32;', '\\', '!', '|', '---', '1.', '2)', '10', '<b>', '<!--', 'x', 'é', '例', ':',
        ),
      },
    );
    const text = fc.array(piece, { maxLength: 8 }).map((p) => p.join('').replace(/\0/g, ''));
    // Also the printable ASCII toUri never leaves in a uri (" < > \ ` { } | ^): refusals() lets them through.
    const uriChar = fc.constantFrom(...'abcXYZ019-._~!$&\'()*+,;=:@/?#%[]"<>\\`{}|^'.split(''), '%41', '&amp;', '&#34;', '(', ')');
    const uri = fc.tuple(
      fc.constantFrom('https://', 'http://', 'mailto:', 'ftp://', 'tel:', 'urn:', 'custom://', 'javascript:'),
      fc.array(uriChar, { minLength: 1, maxLength: 10 }),
    ).map(([s, rest]) => s + 'h.example/' + rest.join(''));
    const linkArb = fc.record({
      uri,
      shownSame: fc.boolean(),
      shown: fc.string({ minLength: 1, maxLength: 6 }).map((s) => s.replace(/[\0\r\n]/g, 'x') || 'x'),
    });
    fc.assert(
      fc.property(fc.array(fc.tuple(text, linkArb), { maxLength: 4 }), text, fc.constantFrom<MarkdownOptions['display']>('text', 'iri', 'uri'), (pairs, tail, display) => {
        const chunks: Chunk[] = [];
        let offset = 0;
        for (const [t, l] of pairs) {
          chunks.push({ type: 'text', text: t, start: offset, end: offset + t.length });
          offset += t.length;
          const shown = l.shownSame ? l.uri : l.shown;
          chunks.push(link(shown, offset, { uri: l.uri, iri: shown }));
          offset += shown.length;
        }
        chunks.push({ type: 'text', text: tail, start: offset, end: offset + tail.length });
        roundTrip(chunks, { display });
      }),
      { numRuns: 1000 },
    );
  });
});
