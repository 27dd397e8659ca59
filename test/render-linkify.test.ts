// The renderers over real detection output: linkify(text) → render.
import { expect } from 'chai';
import fc from 'fast-check';
import MarkdownIt from 'markdown-it';
import { parseFragment } from 'parse5';
import { linkify } from '../src/detect/index.js';
import { refusals, toAnsi, toHtml, toJsonl, toMarkdown, toText, DEFAULT_LINK_SCHEMES } from '../src/render/index.js';
import type { LinkChunk } from '../src/types.js';

const REL = ' rel="nofollow noopener noreferrer"';
const SCHEMES = new Set(DEFAULT_LINK_SCHEMES);

interface Node5 {
  nodeName: string;
  value?: string;
  attrs?: { name: string; value: string }[];
  childNodes?: Node5[];
}

/** Text content and hrefs of an HTML fragment; throws on any element other than a, span, br, p. */
function read(html: string): { text: string; hrefs: string[] } {
  let text = '';
  const hrefs: string[] = [];
  const visit = (node: Node5): void => {
    for (const child of node.childNodes ?? []) {
      if (child.nodeName === '#text') text += child.value;
      else if (['a', 'span', 'br', 'p'].includes(child.nodeName)) {
        for (const attr of child.attrs ?? []) {
          if (attr.name.startsWith('on')) throw new Error(`event attribute in ${html}`);
          if (attr.name === 'href') hrefs.push(attr.value);
        }
        visit(child);
      } else throw new Error(`<${child.nodeName}> in ${JSON.stringify(html)}`);
    }
  };
  visit(parseFragment(html) as unknown as Node5);
  return { text, hrefs };
}

const clickable = (text: string): LinkChunk[] =>
  linkify(text).filter((c): c is LinkChunk => c.type === 'link' && refusals(c, SCHEMES).length === 0);

describe('render: real linkify output', () => {
  it('HTML of an IRI in Japanese prose', () => {
    expect(toHtml(linkify('see https://例え.jp/パス。'))).to.equal(
      `see <a href="https://xn--r8jz45g.jp/%E3%83%91%E3%82%B9"${REL}>https://例え.jp/パス</a>。`,
    );
  });

  it('HTML of a Hebrew IRI is isolated with dir="ltr"', () => {
    const html = toHtml(linkify('קישור http://דוגמה.ישראל/נתיב סוף'), { rel: '' });
    expect(html).to.match(/^קישור <a href="http:\/\/xn--[a-z0-9-]+\.xn--4dbrk0ce\/%D7%A0%D7%AA%D7%99%D7%91" dir="ltr">http:\/\/דוגמה\.ישראל\/נתיב<\/a> סוף$/);
  });

  it('HTML of a mixed-script host is not clickable', () => {
    expect(toHtml(linkify('pay at https://pаypal.com/ now'))).to.equal(
      'pay at <span class="irilink-unsafe" title="mixed-script-host confusable-host">https://pаypal.com/</span> now',
    );
  });

  it('Markdown, ANSI, JSON Lines and text of the same input', () => {
    const input = 'Docs: https://ja.wikipedia.org/wiki/ゴッホ\n# mail ユーザー@例え.jp!';
    const chunks = linkify(input);
    const wiki = 'https://ja.wikipedia.org/wiki/%E3%82%B4%E3%83%83%E3%83%9B';
    const mail = 'mailto:%E3%83%A6%E3%83%BC%E3%82%B6%E3%83%BC@xn--r8jz45g.jp';
    expect(toMarkdown(chunks)).to.equal(`Docs: [https://ja.wikipedia.org/wiki/ゴッホ](${wiki})\n\\# mail [ユーザー@例え.jp](${mail})!`);
    expect(toAnsi(chunks)).to.equal(
      `Docs: \x1b]8;;${wiki}\x1b\\https://ja.wikipedia.org/wiki/ゴッホ\x1b]8;;\x1b\\\n# mail \x1b]8;;${mail}\x1b\\ユーザー@例え.jp\x1b]8;;\x1b\\!`,
    );
    const jsonl = toJsonl(chunks, { links: true }).split('\n').slice(0, -1).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(jsonl.map((o) => [o.line, o.column, o.text, o.uri, o.kind])).to.deep.equal([
      [1, 7, 'https://ja.wikipedia.org/wiki/ゴッホ', wiki, 'url'],
      [2, 8, 'ユーザー@例え.jp', mail, 'email'],
    ]);
    expect(toText(chunks)).to.equal(input);
    expect(toText(chunks, { links: true, display: 'iri' })).to.equal('https://ja.wikipedia.org/wiki/ゴッホ\nユーザー@例え.jp\n');
  });

  it('property: for any text, the HTML holds only the input as text and only detected uris as hrefs', () => {
    const piece = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 6 }),
      fc.constantFrom(
        'https://例え.jp/パス', 'example.com', 'a@b.example', '<script>', '"', "'", '&amp;', 'javascript:alert(1)',
        ' ', '\n', '\r\n', '(', ')', '<', '>', 'http://', 'www.', '.jp', '@', 'ftp://x.example/?q=<b>', 'data:,x',
      ),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 10 }).map((p) => p.join('')), (input) => {
        const chunks = linkify(input);
        const { text, hrefs } = read(toHtml(chunks));
        expect(text).to.equal(input.replace(/\r\n?/g, '\n').replace(/\0/g, ''));
        expect(hrefs).to.deep.equal(clickable(input).map((c) => c.uri));
        for (const href of hrefs) expect(SCHEMES.has(href.slice(0, href.indexOf(':')).toLowerCase())).to.equal(true);
      }),
      { numRuns: 500 },
    );
  });

  it('property: Markdown rendered by markdown-it links exactly the clickable uris', () => {
    const md = new MarkdownIt();
    const piece = fc.oneof(
      fc.string({ unit: 'grapheme-ascii', maxLength: 6 }),
      fc.constantFrom('https://例え.jp/パス', 'example.com', 'a@b.example', 'http://x.example/a_(b)*c', '# ', '\n', '\n\n', '    ', '*', '_', '[', ']', '!', '<', '`', '|'),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 10 }).map((p) => p.join('')), (input) => {
        const { text, hrefs } = read(md.render(toMarkdown(linkify(input))));
        // markdown-it refuses file: links itself (its validateLink); every other clickable link is there.
        const expected = clickable(input).filter((c) => !c.uri.toLowerCase().startsWith('file:'));
        expect(hrefs).to.deep.equal(expected.map((c) => md.normalizeLink(c.uri)));
        const collapse = (s: string): string => s.replace(/[ \t\r\n]+/g, ' ').trim();
        if (expected.every((c) => c.text !== c.uri)) expect(collapse(text)).to.equal(collapse(input));
      }),
      { numRuns: 500 },
    );
  });

  it('property: JSON Lines line/column agree with counting on the input', () => {
    const piece = fc.constantFrom('x', ' ', '\n', '\r', '\r\n', 'https://a.example/', 'b.example', '例', '😀');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }).map((p) => p.join('')), (input) => {
        const objects = toJsonl(linkify(input), { links: true }).split('\n').slice(0, -1).map((l) => JSON.parse(l) as { start: number; line: number; column: number });
        for (const o of objects) {
          const before = input.slice(0, o.start);
          const breaks = before.match(/\r\n|\r|\n/g) ?? [];
          const lastBreak = Math.max(before.lastIndexOf('\n'), before.lastIndexOf('\r'));
          expect([o.line, o.column]).to.deep.equal([breaks.length + 1, o.start - lastBreak]);
        }
      }),
      { numRuns: 300 },
    );
  });
});
