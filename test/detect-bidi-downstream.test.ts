// `bidi-embedded` downstream (session 9 review findings): what a renderer of the OUTPUT sees decides, not the
// input. src/render/markdown.ts (the text it writes), src/render/html.ts (isolate: 'never'), the Markdown walk's
// character references (src/detect/embedding.ts), the plugins, and the log rules' JSON view (src/logs).
import { expect } from 'chai';
import fc from 'fast-check';
import MarkdownIt from 'markdown-it';
import { linkify } from '../src/index.js';
import { toHtml, toMarkdown } from '../src/render/index.js';
import { EmbeddingState } from '../src/detect/embedding.js';

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
  ' mail@c.example ', ' [x](https://d.example/) ',
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
