// Session 8 attack review of every output: each `describe` shows one attack at a glance (the input, what a reader
// would have seen), then the property that keeps it closed. Parsers used as the reader: markdown-it (with its own
// linkify-it, as a GFM-like autolinker), commonmark.js (the CommonMark reference), parse5 for HTML.
import { expect } from 'chai';
import fc from 'fast-check';
import MarkdownIt from 'markdown-it';
import * as commonmark from 'commonmark';
import type { Root } from 'mdast';
import { remark } from 'remark';
import { findLinks, linkify, refusals, toAnsi, toHtml, toJsonl, toMarkdown } from '../src/index.js';
import { irilinkLinkifyIt, linkifyMarkdown, remarkIrilink, toMarkdownSource } from '../src/markdown/index.js';
import type { LinkifyItLike, LinkifyItMatch } from '../src/markdown/index.js';
import { UNSAFE_DIAGNOSTICS } from '../src/render/index.js';
import type { Chunk, DiagnosticCode } from '../src/types.js';
import { chunksOf, link } from './render-support.js';

const SEED = { seed: 0x5ec8, numRuns: 400 };

type Md = InstanceType<typeof MarkdownIt>;
function withIrilink(): Md {
  const md = new MarkdownIt({ linkify: true });
  md.linkify = irilinkLinkifyIt() as unknown as Md['linkify'];
  return md;
}
/** markdown-it with its own linkify-it: the autolinking reader (GFM autolink literals behave alike). */
const autolinking = new MarkdownIt({ linkify: true });
const reference = { parse: new commonmark.Parser(), html: new commonmark.HtmlRenderer() };

/** The hrefs of the <a> elements in markdown-it's or commonmark.js's HTML (both write plain `<a href="…">`). */
function hrefs(html: string): string[] {
  return [...html.matchAll(/<a href="([^"]*)"/g)].map((m) => m[1]!.replace(/&quot;/g, '"').replace(/&amp;/g, '&'));
}

/** The text of an HTML fragment: tags dropped, the references markdown-it and commonmark.js write decoded. */
function textOf(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
}

// C0, DEL, C1, and the bidi formatting characters of DESIGN.md P1.
const UNSAFE_SHOWN = /[\0-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

describe('security: the markdown-it plugin links only what toHtml would make clickable', () => {
  const flagged: [string, DiagnosticCode][] = [
    ['see https://раураl.com/login', 'mixed-script-host'],
    ['see https://xn--80ak6aa92e.com/ now', 'confusable-host'],
    ['see https://user:pw@evil.example/ now', 'userinfo'],
  ];
  for (const [text, code] of flagged) {
    it(`${JSON.stringify(text)} (${code}) stays text`, () => {
      const links = findLinks(text);
      expect(links.map((l) => l.diagnostics.includes(code))).to.deep.equal([true]);
      expect(toHtml(linkify(text))).to.not.include('<a ');
      expect(withIrilink().renderInline(text)).to.equal(new MarkdownIt().renderInline(text)); // no <a>, the text as is
    });
  }

  it('a %-encoded RIGHT-TO-LEFT OVERRIDE is not shown decoded: https://a.example/%E2%80%AEexe.txt stays text', () => {
    // markdown-it shows a linkify link's text through normalizeLinkText, which percent-decodes it: linked, the
    // reader would see https://a.example/‮exe.txt, displayed as "https://a.example/txt.exe".
    const text = 'get https://a.example/%E2%80%AEexe.txt now';
    expect(autolinking.renderInline(text)).to.include('\u202e'); // the attack, with markdown-it's own linkify
    expect(withIrilink().renderInline(text)).to.equal('get https://a.example/%E2%80%AEexe.txt now');
  });

  it('a link whose %XX decode to ordinary characters is still linked, and shown decoded by markdown-it', () => {
    expect(withIrilink().renderInline('https://a.example/%E5%80%A4')).to.equal('<a href="https://a.example/%E5%80%A4">https://a.example/値</a>');
  });

  it('property: markdown-it is handed only safe links, and no <a> shows a control or bidi control', () => {
    const piece = fc.constantFrom(
      'https://', 'http://', 'www.', 'example.com', 'раураl', '.com', 'xn--80ak6aa92e', 'user:pw@', 'a@', '/', ' ', '\n',
      '%E2%80%AE', '%E2%81%A6', '%0A', '%00', '%C2%85', '%E5%80%A4', '%41', '%', 'x', '例え', '.jp', '\u202e', '**', '`',
    );
    const md = withIrilink();
    const handed: LinkifyItMatch[] = [];
    const linkify = md.linkify as unknown as LinkifyItLike;
    const match = linkify.match.bind(linkify);
    linkify.match = (text: string) => {
      const found = match(text);
      handed.push(...(found ?? []));
      return found;
    };
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 14 }), (parts) => {
        const text = parts.join('');
        handed.length = 0;
        const html = md.render(text);
        for (const m of handed) expect(refusals({ type: 'link', ...m.link }), JSON.stringify(text)).to.deep.equal([]);
        for (const m of html.matchAll(/<a href="[^"]*">([^<]*)<\/a>/g)) expect(m[1]!, JSON.stringify(text)).to.not.match(UNSAFE_SHOWN);
      }),
      SEED,
    );
  });
});

describe('security: the remark plugin makes no link node of a flagged link', () => {
  it('https://раураl.com/ (mixed-script-host) and https://user:pw@evil.example/ (userinfo) stay text; a clean one is linked', async () => {
    const processor = remark().use(remarkIrilink);
    const tree = (await processor.run(processor.parse('a https://раураl.com/ b https://user:pw@evil.example/ c https://ok.example/\n'))) as Root;
    const paragraph = tree.children[0] as { children: { type: string; url?: string; value?: string }[] };
    expect(paragraph.children.map((n) => [n.type, n.url ?? n.value])).to.deep.equal([
      ['text', 'a https://раураl.com/ b https://user:pw@evil.example/ c '],
      ['link', 'https://ok.example/'],
    ]);
  });
});

describe('security: toMarkdown writes a link it refuses so that no autolinker links it again', () => {
  it('https://раураl.com/ → https\\://раураl\\.com/ : markdown-it with linkify shows the text and links nothing', () => {
    const chunks = chunksOf('see ⸠https://раураl.com/⸡ now', [{ uri: 'https://xn--l-7sbaa1b2e.com/', diagnostics: ['mixed-script-host'] }]);
    const out = toMarkdown(chunks);
    expect(out).to.equal('see https\\://раураl\\.com/ now');
    expect(autolinking.renderInline(out)).to.equal('see https://раураl.com/ now');
  });

  it('an unlinked span (https://bank.example@evil.example/, a text chunk flagged userinfo) likewise', () => {
    const chunks: Chunk[] = [{ type: 'text', text: 'https://bank.example@evil.example/', start: 0, end: 34, diagnostics: ['userinfo'] }];
    const out = toMarkdown(chunks);
    expect(out).to.equal('https\\://bank\\.example\\@evil\\.example/');
    expect(autolinking.renderInline(out)).to.equal('https://bank.example@evil.example/');
  });

  it('links: true keeps a refused link\'s final ! on its own line', () => {
    const chunks = chunksOf('⸠javascript:alert(1)!⸡ ⸠https://a.example/⸡');
    expect(toMarkdown(chunks, { links: true })).to.equal('javascript\\:alert(1)!\n<https://a.example/>\n');
  });

  it('property: refused links of any link-like text, between spaces: markdown-it (linkify on) links none, shows each', () => {
    const piece = fc.constantFrom(
      'https://', 'http://', 'mailto:', 'ftp://', 'www.', 'example.com', 'раураl', '.com', 'user:pw@', 'a@', 'b.org', '/', 'x',
      '例え', '.jp', ':', '.', '@', '!', '[', ']', '(', ')', '\\', '%41', '*', '_', '<', '>', '&amp;', '~', '|', '#',
    );
    const refused = fc.record({
      text: fc.array(piece, { minLength: 1, maxLength: 8 }).map((p) => p.join('')),
      why: fc.constantFrom<DiagnosticCode | 'scheme'>(...UNSAFE_DIAGNOSTICS, 'scheme'),
    });
    fc.assert(
      fc.property(fc.array(refused, { minLength: 1, maxLength: 4 }), fc.constantFrom<'text' | 'iri' | 'uri'>('text', 'iri', 'uri'), (links, display) => {
        const chunks: Chunk[] = [];
        let at = 0;
        for (const { text, why } of links) {
          if (chunks.length > 0) chunks.push({ type: 'text', text: ' ', start: at, end: ++at });
          const fields = why === 'scheme' ? { uri: 'javascript:' + text } : { uri: 'https://a.example/', diagnostics: [why] };
          chunks.push(link(text, at, { ...fields, iri: text }));
          at += text.length;
        }
        const shown = links.map((l) => (display === 'uri' && l.why !== 'scheme' ? 'https://a.example/' : display === 'uri' ? 'javascript:' + l.text : l.text));
        const html = autolinking.renderInline(toMarkdown(chunks, { display }));
        expect(hrefs(html), html).to.deep.equal([]);
        expect(textOf(html), html).to.equal(shown.join(' '));
      }),
      SEED,
    );
  });
});

describe('security: toMarkdown output holds no raw HTML for a CommonMark parser that allows it', () => {
  /** The raw HTML nodes (html_block, html_inline) commonmark.js finds in `markdown`. */
  function rawHtml(markdown: string): string[] {
    const found: string[] = [];
    const walker = reference.parse.parse(markdown).walker();
    for (let e = walker.next(); e !== null; e = walker.next()) {
      if (e.entering && (e.node.type === 'html_block' || e.node.type === 'html_inline')) found.push(e.node.literal ?? '');
    }
    return found;
  }

  it('!a@b.org <img src=x onerror=alert(1)>: the email is no <!a@b.org> autolink, which at a line start is an HTML block', () => {
    const out = toMarkdown(linkify('!a@b.org <img src=x onerror=alert(1)>'));
    expect(out).to.equal('[!a@b.org](mailto:!a@b.org) \\<img src=x onerror=alert(1)>');
    expect(rawHtml(out)).to.deep.equal([]);
    expect(reference.html.render(reference.parse.parse(out))).to.not.include('<img');
    // RFC 6068 §2: the `?` of the address is percent-encoded in its mailto URI.
    expect(toMarkdown(linkify('?a@b.org\n<img src=x onerror=alert(1)>?>'))).to.equal('[?a@b.org](mailto:%3Fa@b.org)\n\\<img src=x onerror=alert(1)>?>');
    expect(toMarkdown(linkify('a@b.org'))).to.equal('<a@b.org>');
  });

  it('property: linkify → toMarkdown (every display) parses with commonmark.js to no raw HTML at all', () => {
    const piece = fc.constantFrom(
      '!', '?', '--', '!--', '<', '>', '?>', '-->', 'a@b.org', '@', 'x', 'https://a.example/', 'www.b.example', 'mailto:c@d.org', '\n', '\n\n', ' ',
      '<img src=x onerror=alert(1)>', '<script>', '</div>', '<div>', '<![CDATA[', ']]>', '<!DOCTYPE', 'pre', '&', '`', '\\', '/',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), fc.constantFrom<'text' | 'iri' | 'uri'>('text', 'iri', 'uri'), (parts, display) => {
        const out = toMarkdown(linkify(parts.join('')), { display });
        expect(rawHtml(out), JSON.stringify(out)).to.deep.equal([]);
      }),
      { ...SEED, numRuns: 1000 },
    );
  });
});

describe('security: toMarkdown output stays text for markdown-it with html and linkify on', () => {
  // markdown-it's linkify rule reads the source from a scheme on: its match took in the `\\` escaping a `<` after a
  // URL irilink did not link, and the `<img>` after it became raw HTML.
  const md = new MarkdownIt({ html: true, linkify: true });
  const inputs = [
    'éhttps://a.example/<img src=x onerror=alert(1)>',
    'éhttp://a.example/<!-- x -->',
    'see éhttps://b.example/\\[x](https://evil.example) now',
  ];

  it('the `:` of a `://` irilink did not link is escaped: no raw HTML, no link the text did not show', () => {
    expect(toMarkdown(linkify(inputs[0]!))).to.equal('éhttps\\://a.example/\\<img src=x onerror=alert(1)>');
    for (const text of inputs) {
      const html = md.render(toMarkdown(linkify(text)));
      expect(html, text).to.not.match(/<img|<!--|href="https:\/\/(?:a|b)\.example/);
    }
    // A scheme the options leave out (--schemes https) is text too.
    const out = toMarkdown(linkify('http://a.example/<img src=x onerror=alert(1)>', { schemes: ['https'], anyScheme: false }));
    expect(md.render(out)).to.equal('<p>http://a.example/&lt;img src=x onerror=alert(1)&gt;</p>\n');
    // Prose colons are left alone.
    expect(toMarkdown(linkify('Note: 10:30'))).to.equal('Note: 10:30');
  });

  it('the same output however the text is cut into chunks (a `:` or `:/` at a chunk end waits for the next)', () => {
    for (const text of [...inputs, 'a:// b', 'x:/ y', 'end:', 'see: https://ok.example/ and a://b']) {
      const whole = linkify(text);
      const expected = toMarkdown(whole);
      for (const chunk of whole) {
        if (chunk.type !== 'text') continue;
        for (let k = 1; k < chunk.text.length; k++) {
          const split = whole.flatMap((c): Chunk[] => (c !== chunk ? [c] : [
            { ...c, text: c.text.slice(0, k), end: c.start + k },
            { ...c, text: c.text.slice(k), start: c.start + k },
          ]));
          expect(toMarkdown(split), `${JSON.stringify(text)} cut at ${chunk.start + k}`).to.equal(expected);
        }
      }
    }
  });
});

describe('security: toMarkdownSource (Markdown mode written back)', () => {
  it('a bare link holding `|` keeps it unescaped: a paragraph stays a paragraph (with `\\|` the line became a table header)', () => {
    const gfm = new MarkdownIt();
    // (A query's `|`: in a path it ends the link, terminate.ts.)
    for (const source of ['see https://b.example/?x|y\n|---|\n', 'https://b.example/?x_y| a | b |\n|---|---|\n']) {
      const out = toMarkdownSource(linkifyMarkdown(source));
      expect(out, source).to.include('|');
      expect(gfm.render(out), out).to.not.include('<table>');
      expect(gfm.render(source), source).to.not.include('<table>');
    }
    expect(toMarkdownSource(linkifyMarkdown('see https://b.example/?x|y\n|---|\n'))).to.equal('see [https://b.example/?x|y](<https://b.example/?x%7Cy>)\n|---|\n');
    // In a table a cell's `|` is a separator, never a link's.
    expect(toMarkdownSource(linkifyMarkdown('| a |\n|---|\n| https://x.example/a|b |\n'))).to.equal('| a |\n|---|\n| <https://x.example/a>|b |\n');
  });

  it('a bare link whose %XX decode to U+202E is an inline link, not an autolink markdown-it would show decoded', () => {
    const out = toMarkdownSource(linkifyMarkdown('get https://a.example/%E2%80%AEexe.txt now'));
    expect(out).to.equal('get [https://a.example/%E2%80%AEexe.txt](<https://a.example/%E2%80%AEexe.txt>) now');
    expect(new MarkdownIt().renderInline(out)).to.not.include('\u202e');
  });

  it('... and after a `!` (where only the autolink form would keep the `!` text) it stays as written', () => {
    const out = toMarkdownSource(linkifyMarkdown('wow!https://a.example/%E2%80%AEexe.txt'));
    expect(out).to.equal('wow!https://a.example/%E2%80%AEexe.txt');
    expect(new MarkdownIt().renderInline(out)).to.not.include('\u202e');
  });

  it('a hand-made uri holding > cannot break out of <…> into raw HTML, nor an & into an entity', () => {
    const uri = 'https://a.example/><b>x</b>';
    const out = toMarkdownSource([link('click', 0, { uri })]);
    expect(out).to.equal('[click](<https://a.example/\\>\\<b\\>x\\</b\\>>)');
    const html = reference.html.render(reference.parse.parse(out)); // commonmark.js lets raw HTML through
    expect(html).to.equal('<p><a href="https://a.example/%3E%3Cb%3Ex%3C/b%3E">click</a></p>\n');
    const amp = toMarkdownSource([link('q', 0, { uri: 'https://a.example/?q=1&amp;r=&#62;' })]);
    expect(amp).to.equal('[q](<https://a.example/?q=1\\&amp;r=\\&#62;>)');
    expect(hrefs(reference.html.render(reference.parse.parse(amp)))).to.deep.equal(['https://a.example/?q=1&amp;r=&#62;']);
  });

  it('property: a hand-made bare link chunk re-parses (commonmark.js, markdown-it) to one link with its uri', () => {
    const uriChar = fc.constantFrom(...'abc019-._~!$&\'()*+,;=:@/?#%[]"<>\\`{}|^'.split(''), '%41', '&amp;', '&#62;');
    const arb = fc.tuple(fc.constantFrom('', 'x', '!', ']', '\\', '\\\\'), fc.array(uriChar, { minLength: 1, maxLength: 10 }), fc.boolean());
    fc.assert(
      fc.property(arb, ([before, rest, same]) => {
        const uri = 'https://h.example/' + rest.join('');
        const text = same ? uri : 'see';
        const chunks: Chunk[] = [{ type: 'text', text: before, start: 0, end: before.length }, link(text, before.length, { uri })];
        const out = toMarkdownSource(chunks);
        if (refusals(chunks[1] as never).length > 0) return;
        const md = new MarkdownIt().render(out);
        const cm = reference.html.render(reference.parse.parse(out));
        if (hrefs(md).length === 0) {
          // Written as text (after `!` or `]` when no autolink could hold the uri): nothing links, the text is shown.
          expect(hrefs(cm), out).to.deep.equal([]);
          return;
        }
        const href = new MarkdownIt().normalizeLink(uri);
        expect(hrefs(md), out).to.deep.equal([href]);
        expect(hrefs(cm), out).to.deep.equal([href]);
        expect(md, out).to.not.match(/<(img|script|b)\b/);
      }),
      SEED,
    );
  });
});

describe('security: toAnsi lets no CR rewrite a hyperlink, no bidi override reverse one', () => {
  const ESC = '\x1b';
  const open = (uri: string): string => `${ESC}]8;;${uri}${ESC}\\`;
  const close = `${ESC}]8;;${ESC}\\`;

  it('`https://xxxx.example/` CR `https://bank` would read https://bank.example/ with .example/ a link to xxxx: the CR is shown ␍', () => {
    const chunks = chunksOf('⸠https://xxxx.example/⸡\rhttps://bank');
    expect(toAnsi(chunks)).to.equal(`${open('https://xxxx.example/')}https://xxxx.example/${close}␍https://bank`);
    expect(toAnsi(chunks, { controls: 'strip' })).to.equal(`${open('https://xxxx.example/')}https://xxxx.example/${close}https://bank`);
  });

  it('CR LF stays a line break, also split between chunks; a CR at the end of the input is shown', () => {
    expect(toAnsi(chunksOf('a\r\nb\rc'))).to.equal('a\r\nb␍c');
    const split: Chunk[] = [
      { type: 'text', text: 'a\r', start: 0, end: 2 },
      { type: 'text', text: '\nb\r', start: 2, end: 5 },
    ];
    expect(toAnsi(split)).to.equal('a\r\nb␍');
    expect(toAnsi([{ type: 'text', text: 'a\r', start: 0, end: 2 }, link('https://a.example/', 2)])).to.equal(
      `a␍${open('https://a.example/')}https://a.example/${close}`,
    );
  });

  it('a bidi override or isolate left open in the text is shown U+FFFD (a bidi terminal would reverse the link after it)', () => {
    const chunks = linkify('\u202e x \u2067 https://evil.example/moc.elgoog//:sptth \u200f');
    // The detector flags the link (`bidi-embedded`): it is text, not a hyperlink, and the controls are still hidden.
    expect(toAnsi(chunks)).to.equal('\ufffd x \ufffd https://evil.example/moc.elgoog//:sptth \u200f');
    // A chunk that lacks the flag (hand-made, or from an older detector) is linked, the controls still shown U+FFFD.
    const unflagged = chunks.map((c) => (c.type === 'link' ? { ...c, diagnostics: [] } : c));
    expect(toAnsi(unflagged)).to.equal(`\ufffd x \ufffd ${open('https://evil.example/moc.elgoog//:sptth')}https://evil.example/moc.elgoog//:sptth${close} \u200f`);
    expect(toAnsi(unflagged, { controls: 'strip' })).to.equal(` x  ${open('https://evil.example/moc.elgoog//:sptth')}https://evil.example/moc.elgoog//:sptth${close} \u200f`);
  });

  it('property: no CR but before LF, no BS, no ESC but ours and kept SGR, however the text is cut into chunks', () => {
    const piece = fc.constantFrom('\r', '\n', '\r\n', '\b', ESC, '[', '31', 'm', 'x', ' ', '\x07', '\x9b', '\u202e', '\u2066');
    fc.assert(
      fc.property(fc.array(fc.array(piece, { maxLength: 6 }), { maxLength: 6 }), (parts) => {
        const chunks: Chunk[] = [];
        let at = 0;
        for (const [k, p] of parts.entries()) {
          const text = p.join('');
          if (k % 2 === 1) {
            chunks.push(link('https://a.example/', at));
            at += 18;
          }
          chunks.push({ type: 'text', text, start: at, end: at + text.length });
          at += text.length;
        }
        const out = toAnsi(chunks, { sgr: 'strip' });
        const rest = out.split(open('https://a.example/')).join('').split(close).join('');
        expect(rest, JSON.stringify(out)).to.not.match(/\r(?!\n)|[\b\x1b\x07\x80-\x9f\u202a-\u202e\u2066-\u2069]/);
      }),
      SEED,
    );
  });
});

describe('security: toHtml isolates a link from a bidi override left open before it', () => {
  it('U+202E x https://evil.example/moc.elgoog//:sptth (read reversed: https://google.com/elpmaxe.live//:sptth) gets dir="ltr"', () => {
    const chunks = linkify('\u202e x https://evil.example/moc.elgoog//:sptth');
    // Not touching (no `bidi-control`), but the override is still open where the link starts: `bidi-embedded`.
    expect(chunks.map((c) => c.diagnostics)).to.deep.equal([undefined, ['bidi-embedded']]);
    expect(toHtml(chunks, { rel: '' })).to.equal(
      '\u202e x <span class="irilink-unsafe" title="bidi-embedded" dir="ltr">https://evil.example/moc.elgoog//:sptth</span>',
    );
    // A chunk that lacks the flag (hand-made) is still isolated.
    const unflagged = chunks.map((c) => (c.type === 'link' ? { ...c, diagnostics: [] } : c));
    expect(toHtml(unflagged, { rel: '' })).to.equal(
      '\u202e x <a href="https://evil.example/moc.elgoog//:sptth" dir="ltr">https://evil.example/moc.elgoog//:sptth</a>',
    );
  });

  it('from the first right-to-left character or bidi control on, every link is isolated; before it none', () => {
    const chunks = chunksOf('⸠https://a.example/⸡ שלום ⸠https://b.example/⸡ \u2066x\u2069 ⸠https://c.example/⸡');
    expect(toHtml(chunks, { rel: '' })).to.equal(
      '<a href="https://a.example/">https://a.example/</a> שלום <a href="https://b.example/" dir="ltr">https://b.example/</a>' +
        ' \u2066x\u2069 <a href="https://c.example/" dir="ltr">https://c.example/</a>',
    );
    expect(toHtml(chunks, { rel: '', isolate: 'never' })).to.not.include('dir=');
  });

  it('a link (hand-made) whose own text holds an override is isolated, so the override ends with it', () => {
    expect(toHtml([link('https://a.example/\u202ex', 0, { uri: 'https://a.example/' })], { rel: '' })).to.equal(
      '<a href="https://a.example/" dir="ltr">https://a.example/\u202ex</a>',
    );
  });

  it('property: after any text holding a bidi control or right-to-left letter, each link and unsafe span has dir="ltr"', () => {
    const piece = fc.constantFrom('\u202a', '\u202b', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u200f', '\u061c', 'א', 'ا', '\ud802\udd00', 'x', ' ');
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 5 }), fc.boolean(), (parts, flagged) => {
        const before = parts.join('');
        const bidi = /[\u202a-\u202e\u2066-\u2069\u200f\u061c\u0590-\u08ff]|\ud802[\udc00-\udfff]/.test(before);
        const chunks: Chunk[] = [
          { type: 'text', text: before, start: 0, end: before.length },
          link('https://a.example/', before.length, flagged ? { diagnostics: ['userinfo'] } : {}),
        ];
        expect(toHtml(chunks).includes(' dir="ltr"'), JSON.stringify(before)).to.equal(bidi);
      }),
      SEED,
    );
  });
});

describe('security: an href never holds a backslash', () => {
  it('https://evil.example\\@bank.example/ (a browser goes to evil.example; RFC 3986 reads bank.example) is refused', () => {
    const chunk = link('https://bank.example/', 0, { uri: 'https://evil.example\\@bank.example/' });
    expect(refusals(chunk)).to.deep.equal(['unsafe-uri']);
    expect(toHtml([chunk])).to.equal('<span class="irilink-unsafe" title="unsafe-uri">https://bank.example/</span>');
    expect(new URL(chunk.uri).host).to.equal('evil.example');
  });

  it('the detector never hands out one: toUri writes %5C', () => {
    for (const text of ['https://a.example/a\\b', 'file:///C:\\x\\y', 'https://evil.example\\@bank.example/']) {
      for (const l of findLinks(text)) expect(l.uri, text).to.not.include('\\');
    }
  });
});

describe('security: toJsonl writes one JSON line per chunk for any text', () => {
  it('property: lone surrogates, U+2028/2029, controls: each line parses back to its chunk', () => {
    const unit = fc.integer({ min: 0, max: 0xffff }).map((u) => String.fromCharCode(u));
    const piece = fc.oneof(fc.constantFrom('\ud800', '\udc00', '\u2028', '\u2029', '\n', '\r', '"', '\\', 'https://a.example/', ' '), unit);
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 20 }), (parts) => {
        const text = parts.join('');
        const chunks = linkify(text);
        const lines = toJsonl(chunks).split('\n');
        expect(lines.pop()).to.equal('');
        expect(lines.length).to.equal(chunks.length);
        for (const [k, line] of lines.entries()) {
          // JSON.stringify writes a lone surrogate as a \u escape (a pair stays as it is), CR and LF as \r \n
          expect(line).to.not.match(/\r|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
          expect((JSON.parse(line) as { text: string }).text).to.equal(chunks[k]!.text);
        }
      }),
      SEED,
    );
  });
});

describe('security: every UNSAFE_DIAGNOSTICS code makes a link unclickable in every renderer', () => {
  for (const code of UNSAFE_DIAGNOSTICS) {
    it(code, () => {
      const chunks = chunksOf('⸠https://a.example/⸡', [{ diagnostics: [code] }]);
      expect(toHtml(chunks)).to.equal(`<span class="irilink-unsafe" title="${code}">https://a.example/</span>`);
      expect(toMarkdown(chunks)).to.equal('https\\://a\\.example/');
      expect(toAnsi(chunks)).to.equal('https://a.example/');
      expect(textOf(autolinking.render(toMarkdown(chunks))).trim()).to.equal('https://a.example/');
      expect(hrefs(autolinking.render(toMarkdown(chunks)))).to.deep.equal([]);
    });
  }
});
