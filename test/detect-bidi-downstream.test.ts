// `bidi-embedded` downstream (review findings): what a renderer of the OUTPUT sees decides, not the
// input. src/render/markdown.ts (the text it writes), src/render/html.ts (isolate: 'never'), the Markdown walk's
// character references (src/detect/embedding.ts), the plugins, and the log rules' JSON view (src/logs).
import { expect } from 'chai';
import fc from 'fast-check';
import MarkdownIt from 'markdown-it';
import { remark } from 'remark';
import { linkify } from '../src/index.js';
import { findMarkdownLinks, irilinkLinkifyIt, irilinkMarkdownIt, linkifyMarkdown, MarkdownLinkifier, remarkIrilink, toMarkdownSource } from '../src/markdown/index.js';
import type { Chunk } from '../src/types.js';
import { toHtml, toMarkdown } from '../src/render/index.js';
import { EmbeddingState } from '../src/detect/embedding.js';
import { streamed } from './support/stream.js';

/**
 * Whether rendered HTML holds an `<a` while an embedding, override or isolate opened earlier in the same block is
 * open. Walks the HTML: a block tag (p, li, h1–h6, blockquote, pre, hr, table cells) ends the bidi paragraph; a line
 * end inside a block is a space (so it closes nothing); text is read by EmbeddingState (UAX #9 X1–X8).
 */
function anchorInsideOverride(html: string): boolean {
  const state = new EmbeddingState();
  let i = 0;
  while (i < html.length) {
    const lt = html.indexOf('<', i);
    const text = html.slice(i, lt < 0 ? html.length : lt).replace(/[\r\n]/g, ' ');
    state.walk(text, 0, text.length);
    if (lt < 0) break;
    const gt = html.indexOf('>', lt);
    const tag = html.slice(lt + 1, gt).toLowerCase();
    if (/^a[\s>]/.test(tag + '>') && state.open) return true;
    if (/^\/?(p|li|ul|ol|h[1-6]|blockquote|pre|hr|table|tr|td|th|div)\b/.test(tag)) state.reset();
    i = gt + 1;
  }
  return false;
}

const PIECES = [
  '\u202e', '\u202b', '\u202d', '\u2067', '\u2068', '\u202c', '\u2069', 'x', 'y ', ' ', '\t', '  ',
  '\n', '\n\n', '\n \n', '\n\t\n', '\n    \n', '\n \t \n', '\r\n', '\r\n \r\n', '\n>', '# ', '> ', '- ', '1. ',
  '`', '*', '&', '!', 'https://evil.example/moc.elgoog//:sptth', ' https://a.example/b ', ' b.example ',
  ' mail@c.example ', ' [x](https://d.example/) ', '&#x202E;', '&#8238;', '\\', '#x202E;',
];

describe('toMarkdown: the override tracker reads the text it writes (review F1)', () => {
  const md = new MarkdownIt();

  it('a space- or tab-only line is written `&#32;` / `&#9;`, not blank: the link after it stays text', () => {
    for (const mid of ['\n \n', '\n\t\n', '\n    \n', '\n \t \n']) {
      const out = toMarkdown(linkify(`\u202e x${mid}https://evil.example/moc.elgoog//:sptth`));
      expect(out, JSON.stringify(mid)).to.include('https\\://evil\\.example');
      expect(md.render(out), JSON.stringify(mid)).to.not.include('<a ');
    }
    // A truly blank line ends the paragraph: the link after it is a link.
    expect(md.render(toMarkdown(linkify('\u202e x\n\nhttps://ok.example/')))).to.include('<a href="https://ok.example/">');
  });

  it('property: no link toMarkdown writes sits, once rendered by markdown-it, inside an open override', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PIECES), { maxLength: 24 }), (pieces) => {
        const out = toMarkdown(linkify(pieces.join('')));
        return !anchorInsideOverride(md.render(out));
      }),
      { seed: 20261122, numRuns: 3000 },
    );
  });

  it('a text\'s `&#x202E;`, written escaped (`\\&#x202E;`), is no override: the link after it stays a link, however chunked (found in review)', () => {
    const chunks = linkify('&#x202E; https://example.com/a');
    const split = [{ ...chunks[0]!, text: '&', end: 1 }, { ...chunks[0]!, text: '#x202E; ', start: 1 }, chunks[1]!] as typeof chunks;
    for (const c of [chunks, split]) {
      const out = toMarkdown(c);
      expect(out).to.equal('\\&#x202E; <https://example.com/a>');
      expect(md.renderInline(out)).to.equal('&amp;#x202E; <a href="https://example.com/a">https://example.com/a</a>');
    }
    // The text's own backslashes are escaped too: the reference never comes out live, and no anchor sits in an override.
    const out = toMarkdown(linkify('\\&#x202E; https://evil.example/moc.elgoog//:sptth'));
    expect(out.startsWith('\\\\\\&#x202E;')).to.equal(true);
    expect(anchorInsideOverride(md.render(out))).to.equal(false);
  });

  it('the walk itself finds an anchor inside an override', () => {
    expect(anchorInsideOverride('<p>\u202e x\n<a href="h">h</a></p>')).to.equal(true);
    expect(anchorInsideOverride('<p>\u202e x</p>\n<p><a href="h">h</a></p>')).to.equal(false);
  });
});

describe('toHtml isolate: "never": links written while an override is open in the output are not clickable (review F5)', () => {
  it('an override on an earlier line: HTML joins the lines into one block, so the link is an unsafe span', () => {
    const chunks = linkify('\u202e x\nhttps://evil.example/moc.elgoog//:sptth');
    for (const breaks of [false, true]) {
      const html = toHtml(chunks, { rel: '', isolate: 'never', breaks });
      expect(html, `breaks ${breaks}`).to.not.include('<a ');
      expect(html).to.include('<span class="irilink-unsafe" title="bidi-embedded">https://evil.example/moc.elgoog//:sptth</span>');
    }
  });

  it('closed before the link (PDF, PDI): a link; the default isolates instead', () => {
    expect(toHtml(linkify('\u202e x\u202c\nhttps://a.example/'), { rel: '', isolate: 'never' })).to.equal(
      '\u202e x\u202c\n<a href="https://a.example/">https://a.example/</a>',
    );
    expect(toHtml(linkify('\u2067x\u2069 https://a.example/'), { rel: '', isolate: 'never' })).to.include('<a href=');
    // The default ('rtl') isolates instead: the link stays clickable, with dir="ltr".
    expect(toHtml(linkify('\u202e x\nhttps://a.example/'), { rel: '' })).to.equal(
      '\u202e x\n<a href="https://a.example/" dir="ltr">https://a.example/</a>',
    );
  });

  it('property: with isolate "never", no <a> follows an opener left open in the written HTML', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PIECES), { maxLength: 24 }), fc.boolean(), (pieces, breaks) => {
        const html = toHtml(linkify(pieces.join('')), { isolate: 'never', breaks });
        // One block: nothing in the element content closes an override.
        return !anchorInsideOverride(`<p>${html.replace(/<br>/g, '')}</p>`);
      }),
      { seed: 20261123, numRuns: 2000 },
    );
  });
});


const flagsOf = (chunks: readonly Chunk[]): boolean[] =>
  chunks.filter((c) => c.type === 'link').map((c) => c.type === 'link' && c.diagnostics.includes('bidi-embedded'));

describe('Markdown mode: a character reference to an opener is an opener once rendered (review F2)', () => {
  const EVIL = 'https://evil.example/moc.elgoog//:sptth';
  // [source, flags of its links]
  const CASES: readonly [string, boolean[]][] = [
    [`&#x202E; x ${EVIL}`, [true]],
    [`&#X202e; x ${EVIL}`, [true]],
    [`&#8238; x ${EVIL}`, [true]],
    [`&#0008238; x ${EVIL}`, [true]],
    [`&#x00202E; x ${EVIL}`, [true]],
    [`a &#x2067;\nb ${EVIL}\n\nhttps://ok.example/`, [true, false]],
    [`&#x202B;x [a](https://a.example/) <https://b.example/>`, [true, true]],
    // Not references to an opener: a PDF with nothing open (closers: test/detect-bidi-markdown.test.ts), a
    // reference without `;`, too many digits, LRM.
    [`&#x202C; x https://a.example/`, [false]],
    [`&#x202E x https://a.example/`, [false]],
    [`&#x000202E; x https://a.example/`, [false]],
    [`&#00008238; x https://a.example/`, [false]],
    [`&lrm;&#x200F; x https://a.example/`, [false]],
  ];
  const md = new MarkdownIt();

  for (const [source, flags] of CASES) {
    it(JSON.stringify(source), async () => {
      expect(findMarkdownLinks(source).map((l) => l.diagnostics.includes('bidi-embedded'))).to.deep.equal(flags);
      expect(flagsOf(linkifyMarkdown(source))).to.deep.equal(flags);
      for (let i = 0; i <= source.length; i++) {
        const m = new MarkdownLinkifier();
        expect(flagsOf([...m.push(source.slice(0, i)), ...m.push(source.slice(i)), ...m.end()]), `split at ${i}`).to.deep.equal(flags);
      }
      const bytes = Buffer.from(source);
      for (let i = 0; i <= bytes.length; i += 2) {
        const chunks = await streamed([bytes.subarray(0, i), bytes.subarray(i)], { markdown: true });
        expect(flagsOf(chunks), `byte split at ${i}`).to.deep.equal(flags);
      }
    });
  }

  it('toMarkdownSource writes no clickable link after the reference (markdown-it renders it)', () => {
    const html = md.render(toMarkdownSource(linkifyMarkdown(`&#x202E; x ${EVIL}`)));
    expect(html).to.include('\u202e x').and.to.not.include('<a ');
  });
});

describe('the plugins carry what is open across a paragraph\'s inline tokens, in order (review F2)', () => {
  const EVIL = 'https://evil.example/moc.elgoog//:sptth';
  const SOURCES = [
    `&#x202E; x ${EVIL}`,
    `\u202e *x* ${EVIL}`,
    `\u202e \`x\` ${EVIL}`,
    `*\u202e x* ${EVIL}`,
    `\`\u202e\` ${EVIL}`,
    `[\u202e](https://a.example/) ${EVIL}`,
    `\u202e x  \n${EVIL}`,
  ];
  const render = (source: string): string => new MarkdownIt().use(irilinkMarkdownIt).render(source);

  for (const source of SOURCES) {
    it(JSON.stringify(source), async () => {
      expect(render(source)).to.not.include(`href="${EVIL}"`);
      expect(render(`${source}\n\nhttps://ok.example/`)).to.include('<a href="https://ok.example/">');
      const out = String(await remark().use(remarkIrilink).process(`${source}\n\nhttps://ok.example/`));
      expect(out).to.not.include(`](${EVIL}`).and.to.not.include(`<${EVIL}>`);
      expect(out).to.include('<https://ok.example/>');
    });
  }

  it('closed before the link (PDF, PDI, in another token): linked; a heading or a list item is its own block', async () => {
    for (const source of ['\u202e *x\u202c* https://a.example/', '\u2067 `x` \u2069 https://a.example/', '# \u202e x\n\nhttps://a.example/', '- \u202e x\n- https://a.example/']) {
      expect(render(source), source).to.include('<a href="https://a.example/">');
      expect(String(await remark().use(remarkIrilink).process(source)), source).to.include('<https://a.example/>');
    }
  });

  it('irilinkMarkdownIt sets md.linkify to irilink\'s and turns linkify on; md.linkify alone reads references too', () => {
    expect(render('see https://例え.jp/')).to.include('<a href="https://xn--r8jz45g.jp/">');
    const md = new MarkdownIt({ linkify: true });
    md.linkify = irilinkLinkifyIt() as unknown as (typeof md)['linkify'];
    // markdown-it hands the text token over with the reference as written.
    expect(md.render(`&#x202E; x ${EVIL}`)).to.not.include('<a ');
    expect(() => irilinkMarkdownIt({} as never)).to.throw(TypeError);
  });
});
