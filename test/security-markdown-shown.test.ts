// Markdown links what a reader sees. A character reference (CommonMark §2.5) is text once rendered:
// `pay&#112;al.com/login` shows `paypal.com/login`. Read between references, it linked `al.com/login`: a host the
// reader does not see. Bare links are now found in the text as shown (src/markdown/escapes.ts), by the Markdown mode,
// toMarkdownSource and both plugins alike. Emphasis delimiters are not seen either: `pay*p*al.com/login` shows
// `paypal.com/login` with one letter in italics, and the link after the emphasis is flagged hidden-split.
import { expect } from 'chai';
import * as commonmark from 'commonmark';
import MarkdownIt from 'markdown-it';
import { Readable } from 'node:stream';
import { remark } from 'remark';
import { createLinkStream, findMarkdownLinks, irilinkMarkdownIt, linkifyMarkdown, MarkdownLinkifier, remarkIrilink, toMarkdownSource } from '../src/index.js';
import type { Chunk } from '../src/index.js';
import { shownRunLinks } from '../src/markdown/escapes.js';
import { readStats } from '../src/markdown/extract.js';
import { MAX_INLINE_MARKS } from '../src/markdown/hostile.js';
import type { Link } from '../src/index.js';

const reference = { parse: new commonmark.Parser(), html: new commonmark.HtmlRenderer() };

/** The hrefs and texts of the <a> elements in commonmark.js's or markdown-it's HTML. */
function anchors(html: string): [string, string][] {
  const decode = (s: string): string => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&');
  return [...html.matchAll(/<a href="([^"]*)"[^>]*>(.*?)<\/a>/g)].map((m) => [decode(m[1]!), decode(m[2]!.replace(/<[^>]*>/g, ''))]);
}

/** The links markdown-it's plugin made (markup 'linkify'), not the author's: their texts. */
function madeByPlugin(md: InstanceType<typeof MarkdownIt>, source: string): string[] {
  const made: string[] = [];
  for (const block of md.parse(source, {})) {
    const children = block.children ?? [];
    children.forEach((t, i) => t.type === 'link_open' && t.markup === 'linkify' && made.push(children[i + 1]!.content));
  }
  return made;
}

/**
 * Each case's bare links and their diagnostics in the Markdown mode; the markdown-it and remark plugins make exactly
 * the unflagged ones links (remark: counted as the `](` and `<https:` it writes beyond the source's); toMarkdownSource makes no flagged link a link, and writes it inert (`al\.com`) so that no
 * autolinker does.
 */
function expectInEveryReader(cases: [string, [string, string[]][]][], md: InstanceType<typeof MarkdownIt>): void {
  const tree = remark().use(remarkIrilink);
  for (const [source, expected] of cases) {
    const links = findMarkdownLinks(source).filter((l) => l.construct === 'bare').map((l): [string, string[]] => [l.text, l.diagnostics]);
    expect(links, source).to.deep.equal(expected);
    const clickable = expected.filter(([, d]) => d.length === 0).map(([text]) => text);
    expect(madeByPlugin(md, source), `markdown-it ${source}`).to.deep.equal(clickable);
    const written = (text: string): number => text.match(/\]\(|<https?:/g)?.length ?? 0;
    expect(written(String(tree.processSync(source))) - written(source), `remark ${source}`).to.equal(clickable.length);
    if (expected.length > 0 && clickable.length === 0) {
      const out = toMarkdownSource(linkifyMarkdown(source));
      expect(written(out) - written(source), `toMarkdownSource ${source}`).to.equal(0);
      expect(out, `toMarkdownSource ${source}`).to.not.match(/[a-z]\.com/);
    }
  }
}

const brief = (source: string): [string, string, string, string[]][] =>
  findMarkdownLinks(source).map((l) => [l.text, l.destination, l.uri, l.diagnostics]);

describe('security: Markdown links what a reader sees (character references, emphasis)', () => {
  it('pay&#112;al.com/login is one link to the host shown, in every way to read it', () => {
    const source = 'log in at pay&#112;al.com/login today';
    expect(brief(source)).to.deep.equal([['pay&#112;al.com/login', 'paypal.com/login', 'https://paypal.com/login', []]]);
    // toMarkdownSource keeps the reference, and a CommonMark reader shows and links what the source showed.
    const written = toMarkdownSource(linkifyMarkdown(source));
    expect(written).to.equal('log in at [pay&#112;al.com/login](<https://paypal.com/login>) today');
    expect(anchors(reference.html.render(reference.parse.parse(written)))).to.deep.equal([['https://paypal.com/login', 'paypal.com/login']]);
    // The plugins.
    const md = new MarkdownIt().use(irilinkMarkdownIt);
    expect(anchors(md.renderInline(source))).to.deep.equal([['https://paypal.com/login', 'paypal.com/login']]);
    const tree = remark().use(remarkIrilink);
    expect(String(tree.processSync(source))).to.include('[paypal.com/login](https://paypal.com/login)');
  });

  it('a dot written as a reference: the host is the whole name shown', () => {
    expect(brief('https://a.com&#46;evil.com/ and www.a.com&period;evil.com')).to.deep.equal([
      ['https://a.com&#46;evil.com/', 'https://a.com.evil.com/', 'https://a.com.evil.com/', []],
      ['www.a.com&period;evil.com', 'www.a.com.evil.com', 'https://www.a.com.evil.com', []],
    ]);
  });

  it('an invisible character written as a reference is flagged as one written plainly (hidden-split)', () => {
    for (const ref of ['&shy;', '&#173;', '&#x200B;', '&#x2060;']) {
      const links = findMarkdownLinks(`see https://pay${ref}pal.com/login now`);
      expect(links.map((l) => [l.text, l.diagnostics]), ref).to.deep.equal([
        ['https://pay', ['hidden-split']],
        ['pal.com/login', ['hidden-split']],
      ]);
      // Neither is made a link.
      expect(toMarkdownSource(linkifyMarkdown(`see https://pay${ref}pal.com/login now`)), ref).to.not.match(/\]\(|<https/);
    }
  });

  it('a query written with &amp; keeps its whole query', () => {
    expect(brief('see https://a.example/?a=1&amp;b=2 and')).to.deep.equal([
      ['https://a.example/?a=1&amp;b=2', 'https://a.example/?a=1&b=2', 'https://a.example/?a=1&b=2', []],
    ]);
  });

  it('what a reference cannot do: be escaped, open a link inside code, or carry a bidi control into a link', () => {
    // `\&` shows `pay&#112;al.com/login` as written: the host shown is `al.com`, as in plain text.
    expect(brief('pay\\&#112;al.com/login')).to.deep.equal([['al.com/login', 'al.com/login', 'https://al.com/login', []]]);
    expect(brief('`pay&#112;al.com` x')).to.deep.equal([]);
    expect(brief('https://a.example/x&#x202E;y')).to.deep.equal([['https://a.example/x', 'https://a.example/x', 'https://a.example/x', []]]);
  });

  it('the same chunks in a stream, split at every place, and in MarkdownLinkifier pushes of one unit', async () => {
    const source = '- pay&#112;al.com/login and https://a.example/?a=1&amp;b=2\n- `&#112;` www.a.com&period;org\n';
    const whole = linkifyMarkdown(source);
    expect(whole.map((c) => c.text).join('')).to.equal(source);
    expect(whole.filter((c) => c.type === 'link').map((c) => c.uri)).to.deep.equal([
      'https://paypal.com/login', 'https://a.example/?a=1&b=2', 'https://www.a.com.org',
    ]);
    const strip = (chunks: Chunk[]) => chunks.map(({ byteStart: _s, byteEnd: _e, ...rest }) => rest);
    for (let cut = 1; cut < source.length; cut++) {
      const parts = [Buffer.from(source.slice(0, cut)), Buffer.from(source.slice(cut))];
      const out: Chunk[] = [];
      for await (const chunk of Readable.from(parts).pipe(createLinkStream({ markdown: true }))) out.push(chunk as Chunk);
      expect(strip(out), `cut at ${cut}`).to.deep.equal(strip(whole));
    }
    const linkifier = new MarkdownLinkifier();
    const pushed: Chunk[] = [];
    for (const ch of source) pushed.push(...linkifier.push(ch));
    pushed.push(...linkifier.end());
    expect(pushed).to.deep.equal(whole);
  });

  it('a link glued to a name through emphasis or strikethrough is flagged hidden-split, in every way to read it', () => {
    const md = new MarkdownIt().use(irilinkMarkdownIt);
    const cases: [string, [string, string[]][]][] = [
      ['log in at pay*p*al.com/login', [['al.com/login', ['hidden-split']]]],
      ['log in at https://pay**p**al.com/login', [['https://pay', ['hidden-split']], ['al.com/login', ['hidden-split']]]],
      ['see **ACME**corp.com', [['corp.com', ['hidden-split']]]],
      ['see _ACME_corp.com', []], // `_` inside a word is text (§6.2): no emphasis, no host
      ['see x.*paypal.com*', [['paypal.com', ['hidden-split']]]], // a host dot and a name before it
      // What the parse calls delimiters, however many `*` stand there (micromark, markdown-it and remark agree here).
      ['https://~**x@y.com***a.example*~~foo__', [['x@y.com', ['hidden-split']]]],
      // Not glued: a `*` that is text shows; another script, a space, punctuation.
      ['pay\\*p\\*al.com', [['al.com', []]]],
      ['見て*ください*example.com', [['example.com', []]]],
      ['see *this* example.com', [['example.com', []]]],
      ['**Docs:**https://a.example/', [['https://a.example/', []]]],
      // Glued before a link written with its scheme: the scheme shown changes (`Downloadhttps://…`), not the host.
      ['**Download**https://a.example/x and *x*http://b.example/', [['https://a.example/x', []], ['http://b.example/', []]]],
    ];
    expectInEveryReader(cases, md);
    // Inline HTML tags are not shown either (markdown-it with `html: true`, as CommonMark has it); an anchor's text is
    // shown, though not linked again; an autolink shows its text.
    const html = new MarkdownIt({ html: true }).use(irilinkMarkdownIt);
    const tagged: [string, [string, string[]][]][] = [
      ['log in at pay<b>p</b>al.com/login', [['al.com/login', ['hidden-split']]]],
      ['see <b>`ACME`</b>corp.com', [['corp.com', ['hidden-split']]]], // a tag and a code span's backticks
      // A host dot alone between tags: what follows it decides (every reader looks past it).
      ['see https://login.example<b>.</b>paypal.com', [['https://login.example', ['hidden-split']], ['paypal.com', ['hidden-split']]]],
      ['see <a href="https://x.example/">ACME</a>corp.com', [['corp.com', ['hidden-split']]]],
      ['see www.a.com<a href="https://x.example/">&period;evil.com</a>', [['www.a.com', ['hidden-split']]]],
      ['see <https://a.example/>al.com', [['al.com', []]]],
      // A comment shows nothing either (it was left out of the rule: found in review).
      ['see pay<!-- c -->al.com', [['al.com', ['hidden-split']]]],
      ['see https://pay<!-- a<b -->al.com/x', [['https://pay', ['hidden-split']], ['al.com/x', ['hidden-split']]]],
      ['see pay<!--' + 'x'.repeat(2050) + '-->al.com', [['al.com', ['hidden-split']]]], // longer than a search's reach
      // The rest of CommonMark's raw HTML, which an HTML parser reads as comments in a body, shows nothing either.
      ['see pay<?x?>al.com and pay<?a<b?>al.com', [['al.com', ['hidden-split']], ['al.com', ['hidden-split']]]],
      ['see pay<!DOCTYPE html>al.com', [['al.com', ['hidden-split']]]],
      ['see pay<![CDATA[p]]>al.com and https://login.example<![CDATA[a<b]]>.paypal.com', [['al.com', ['hidden-split']], ['https://login.example', ['hidden-split']]]],
      // No raw HTML: shown as text.
      ['see pay<?>al.com and pay<!1>al.com', [['al.com', []], ['al.com', []]]],
    ];
    const tree = remark().use(remarkIrilink);
    const written = (text: string): number => text.match(/\]\(|<https?:/g)?.length ?? 0;
    for (const [source, expected] of tagged) {
      const links = findMarkdownLinks(source).filter((l) => l.construct === 'bare').map((l): [string, string[]] => [l.text, l.diagnostics]);
      expect(links, source).to.deep.equal(expected);
      const clickable = expected.filter(([, d]) => d.length === 0).map(([text]) => text);
      expect(madeByPlugin(html, source), `markdown-it ${source}`).to.deep.equal(clickable);
      expect(written(String(tree.processSync(source))) - written(source), `remark ${source}`).to.equal(clickable.length);
    }
    // GFM strikethrough likewise; in plain CommonMark (remark without remark-gfm) `~~` is text, and ends the host.
    const struck = 'see pay~~p~~al.com';
    expect(findMarkdownLinks(struck).map((l) => l.diagnostics)).to.deep.equal([['hidden-split']]);
    expect(anchors(md.renderInline(struck))).to.deep.equal([]);
    expect(findMarkdownLinks(struck, { gfm: false }).map((l) => [l.text, l.diagnostics])).to.deep.equal([['al.com', []]]);
  });

  it('a link glued to a name through a code span is flagged hidden-split, in every way to read it', async () => {
    // A code span shows its content (CommonMark §6.1), in another font, and is never linked: `` pay`p`al.com/login ``
    // shows `paypal.com/login`, where the text after the span alone links `al.com/login`.
    const md = new MarkdownIt().use(irilinkMarkdownIt);
    const cases: [string, [string, string[]][]][] = [
      ['log in at pay`p`al.com/login', [['al.com/login', ['hidden-split']]]],
      ['see https://pay`p`al.com/login', [['https://pay', ['hidden-split']], ['al.com/login', ['hidden-split']]]],
      ['see pay` p `al.com', [['al.com', ['hidden-split']]]], // one space stripped from each end: shows `p`
      ['see ``ACME``corp.com', [['corp.com', ['hidden-split']]]],
      ['`code`example.com', [['example.com', ['hidden-split']]]],
      ['see login.example`.`paypal.com', [['paypal.com', ['hidden-split']]]], // a host dot and a name before it
      ['see https://login.example`.`paypal.com', [['https://login.example', ['hidden-split']], ['paypal.com', ['hidden-split']]]],
      // Not glued: a space shown at the edge, a `*` that is text, another script.
      ['see `x` example.com', [['example.com', []]]],
      ['see pay`  p  `al.com', [['al.com', []]]],
      ['see pay*`p`*al.com', [['al.com', []]]],
      ['see **`ACME`**corp.com', [['corp.com', []]]], // (a `**` after a backtick and before a letter closes nothing)
      ['見て`ください`example.com', [['example.com', []]]],
    ];
    expectInEveryReader(cases, md);
    // The same in a stream split at every place (the code span and the run after it may come in different writes).
    const source = 'log in at pay`p`al.com/login\n';
    const whole = linkifyMarkdown(source);
    for (let cut = 1; cut < source.length; cut++) {
      const out: Chunk[] = [];
      const parts = [Buffer.from(source.slice(0, cut)), Buffer.from(source.slice(cut))];
      for await (const chunk of Readable.from(parts).pipe(createLinkStream({ markdown: true }))) out.push(chunk as Chunk);
      expect(out.filter((c) => c.type === 'link').map((c) => [c.text, c.diagnostics]), `cut at ${cut}`).to.deep.equal([['al.com/login', ['hidden-split']]]);
      expect(out.map((c) => c.text).join('')).to.equal(source);
    }
    expect(whole.filter((c) => c.type === 'link').map((c) => c.diagnostics)).to.deep.equal([['hidden-split']]);
  });

  it('an invisible character beside the markup is looked through, as inside a run (hidden-split), in every way to read it', () => {
    const md = new MarkdownIt({ html: true }).use(irilinkMarkdownIt);
    const cases: [string, [string, string[]][]][] = [
      ['`pay`\u00ADpal.com/login', [['pal.com/login', ['hidden-split']]]],
      ['`pay\u00AD`pal.com', [['pal.com', ['hidden-split']]]],
      ['**pay**\u00ADpal.com/login', [['pal.com/login', ['hidden-split']]]],
      ['<b>pay</b>\u2060pal.com/login', [['pal.com/login', ['hidden-split']]]],
      ['see pay.com\u00AD**x**', [['pay.com', ['hidden-split']]]],
      ['https://login.example\u00AD`.`paypal.com', [['https://login.example', ['hidden-split']], ['paypal.com', ['hidden-split']]]],
      ['payal.com``\u00AD``al.com', [['payal.com', ['hidden-split']], ['al.com', ['hidden-split']]]], // a code span of one
      // Written as a reference: the run is read as shown, where `&shy;` is one invisible character.
      ['see pay.com&shy;**x**', [['pay.com', ['hidden-split']]]],
      ['https://login.example&shy;<b>.</b>paypal.com', [['https://login.example', ['hidden-split']], ['paypal.com', ['hidden-split']]]],
      ['see pay.com&amp;**x** and pay.com&shy; **x**', [['pay.com', []], ['pay.com', []]]],
      // U+200B alone between words of a script written without spaces is a word space there (as in plain text).
      ['ดูที่\u200B**ตัวอย่าง.ไทย**', [['ตัวอย่าง.ไทย', []]]],
    ];
    expectInEveryReader(cases, md);
  });

  it("a Markdown link's text is shown text: a bare link glued to it is flagged hidden-split, in every way to read it", () => {
    const md = new MarkdownIt({ html: true }).use(irilinkMarkdownIt);
    const cases: [string, [string, string[]][]][] = [
      ['pay[p](https://x.example/)al.com/login', [['al.com/login', ['hidden-split']]]],
      ['[ACME](https://x.example/)corp.com', [['corp.com', ['hidden-split']]]],
      ['https://login.example[.](https://x.example/)paypal.com', [['https://login.example', ['hidden-split']], ['paypal.com', ['hidden-split']]]],
      ['pay[p][r]al.com\n\n[r]: https://x.example/', [['al.com', ['hidden-split']]]], // a full reference shows its text
      ['see [**ACME**](https://x.example/)corp.com', [['corp.com', ['hidden-split']]]], // emphasis inside
      ['see [![i](x.png) ACME](https://x.example/)corp.com', [['corp.com', ['hidden-split']]]], // an image, then text
      // Not glued: an image shows no text, an autolink is no hidden markup, a space, another script.
      ['see ![p](x.png)al.com', [['al.com', []]]],
      ['see <https://a.example/x>al.com', [['al.com', []]]],
      ['see [docs](https://x.example/) a.com', [['a.com', []]]],
      ['see [доки](https://x.example/)a.com', [['a.com', []]]],
    ];
    expectInEveryReader(cases, md);
  });

  it('a paragraph read as plain text (too many inline marks to parse): a link glued to possible markup is flagged', () => {
    // hostile.ts: such a paragraph is not parsed, so whether a `*` or a `<b>` is markup is not known; any of them beside
    // a link counts as hidden. (The plugins parse it and flag what is markup, as above.)
    const padding = 'a[ '.repeat(MAX_INLINE_MARKS + 1);
    const cases: [string, [string, string[]][]][] = [
      ['**pay**pal.com/login', [['pal.com/login', ['hidden-split']]]],
      ['`pay`pal.com', [['pal.com', ['hidden-split']]]],
      ['https://pay<b>pal.com</b>/login', [['https://pay', ['hidden-split']], ['pal.com', ['hidden-split']]]],
      ['https://login.example<b>.</b>paypal.com', [['https://login.example', ['hidden-split']], ['paypal.com', ['hidden-split']]]],
      ['[pay](https://x.example/)pal.com', [['https://x.example/', []], ['pal.com', ['hidden-split']]]],
      ['[pay](/x)pal.com', [['pal.com', ['hidden-split']]]],
      ['[**pay**](https://x.example/)pal.com', [['https://x.example/', []], ['pal.com', ['hidden-split']]]],
      // (a destination in `<…>`, or with a title: found in review)
      ['[pay](<https://x.example/>)pal.com', [['https://x.example/', []], ['pal.com', ['hidden-split']]]],
      ['[pay](https://x.example/ "t")pal.com and [pay](https://x.example/  (t) )pal.com', [['https://x.example/', []], ['pal.com', ['hidden-split']], ['https://x.example/', []], ['pal.com', ['hidden-split']]]],
      ['pay\u00AD**pal.com**', [['pal.com', ['hidden-split']]]],
      // An invisible character written as a reference, and a comment (found in review), as in the parsed paths.
      ['https://pay&shy;pal.com/login', [['https://pay', ['hidden-split']], ['pal.com/login', ['hidden-split']]]],
      ['pay&#x200B;pal.com and pay&zwj;**pal.com**', [['pal.com', ['hidden-split']], ['pal.com', ['hidden-split']]]],
      ['pay<!-- -->pal.com and https://pay<!-- a<b -->pal.com/x', [['pal.com', ['hidden-split']], ['https://pay', ['hidden-split']], ['pal.com/x', ['hidden-split']]]],
      ['pay<!-- a <!-- b -->pal.com and pay<!-- <!-->pal.com', [['pal.com', ['hidden-split']], ['pal.com', ['hidden-split']]]],
      ['pay<?a<?b?>pal.com, pay<![CDATA[a<b]]>pal.com and pay<!DOCTYPE x>pal.com', [['pal.com', ['hidden-split']], ['pal.com', ['hidden-split']], ['pal.com', ['hidden-split']]]],
      // a declaration holding a `<` is read from that `<`: an escaped or code `<!X` must not hide a real tag's glue
      // (found in review)
      ['x \\<!X pay<b>pal.com and x `<!X` pay<b>pal.com', [['pal.com', ['hidden-split']], ['pal.com', ['hidden-split']]]],
      // A reference to a character shown glues as that character (the parsed paths link `paypal.com/login`).
      ['pay&#112;al.com/login and https://pay&#112;al.com/x', [['al.com/login', ['hidden-split']], ['https://pay', ['hidden-split']], ['al.com/x', ['hidden-split']]]],
      ['pay&#112;**al.com** and see al.com&#112;x', [['al.com', ['hidden-split']], ['al.com', ['hidden-split']]]],
      ['x*a.com', [['a.com', ['hidden-split']]]], // (parsed, the `*` is text: an error toward flagging)
      ['**Download**https://a.example/x and pay&#112;https://a.example/', [['https://a.example/x', []], ['https://a.example/', []]]],
      // Not glued: a space, a separator, the edges of the markup, a word space of a script without spaces.
      ['see a.com', [['a.com', []]]],
      ['*x* a.com.', [['a.com', []]]],
      ['pay&amp;pal.com and a&nbsp;b.com', [['pal.com', []], ['b.com', []]]], // references to what is shown
      ['**a.com**, [a.com] and <b>a.com</b>', [['a.com', []], ['a.com', []], ['a.com', []]]],
      ['mail **bob@example.com**, ok', [['bob@example.com', []]]],
      ['[x](https://a.example/x) and (https://a.example/y)', [['https://a.example/x', []], ['https://a.example/y', []]]],
      ['ดูที่\u200B**ตัวอย่าง.ไทย**', [['ตัวอย่าง.ไทย', []]]],
    ];
    for (const [text, expected] of cases) {
      const source = padding + text + '\n';
      const plainBefore = readStats.plain;
      const found = findMarkdownLinks(source).map((l): [string, string[]] => [l.text, l.diagnostics]);
      expect(readStats.plain - plainBefore, `read as plain text: ${text}`).to.be.at.least(source.length);
      expect(found, text).to.deep.equal(expected);
      // The same in a stream, in small writes.
      const linkifier = new MarkdownLinkifier();
      const chunks: Chunk[] = [];
      for (let i = 0; i < source.length; i += 7) chunks.push(...linkifier.push(source.slice(i, i + 7)));
      chunks.push(...linkifier.end());
      const streamed = chunks.flatMap((c) => (c.type === 'link' ? [[c.text, c.diagnostics] as [string, string[]]] : []));
      expect(streamed, `stream ${text}`).to.deep.equal(expected);
    }
    // A `)` at the very start of the run, before a destination: the walk back jumps over a destination once (it
    // looped for ever; found in review).
    for (const start of [')', ')**']) {
      const found = findMarkdownLinks(`${start}](https://a.example/)b.com ${padding}`).map((l) => l.text);
      expect(found, start).to.deep.equal(['https://a.example/', 'b.com']);
    }
  });

  it('shownRunLinks: a link that would start or end inside a reference\'s text is no link', () => {
    const link = (start: number, end: number): Link => ({ start, end, text: 'x'.repeat(end - start), kind: 'url', scheme: 'https', schemeInferred: true, uri: '', iri: '', diagnostics: [] });
    const scanned = { links: [link(0, 3), link(4, 6), link(7, 9), link(10, 12)], unlinked: [] };
    // references' shown text: [2, 4) cuts the first (its end), [5, 8) the second (its end) and the third (its
    // start), [10, 12) is the fourth's whole text and cuts nothing.
    expect(shownRunLinks(scanned, [], [2, 4, 5, 8, 10, 12]).links.map((l) => l.start)).to.deep.equal([10]);
    expect(shownRunLinks(scanned, [], [3, 4, 6, 7]).links.map((l) => l.start)).to.deep.equal([0, 4, 7, 10]);
    expect(shownRunLinks(scanned, [11], []).links.map((l) => l.start)).to.deep.equal([0, 4, 7]);
  });
});
