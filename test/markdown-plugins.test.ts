// The plugins with the real markdown-it and remark: irilink's detection inside their pipelines.
import { expect } from 'chai';
import fc from 'fast-check';
import MarkdownIt from 'markdown-it';
import { LinkifyIt } from 'linkify-it';
import type { Link, Root } from 'mdast';
import { remark } from 'remark';
import { findLinks } from '../src/detect/index.js';
import { findMarkdownLinks, irilinkLinkifyIt, irilinkMarkdownIt, remarkIrilink } from '../src/markdown/index.js';
import { UNSAFE_DIAGNOSTICS } from '../src/render/common.js';

type Md = InstanceType<typeof MarkdownIt>;

function markdownIt(options?: Parameters<typeof irilinkLinkifyIt>[0]): Md {
  const md = new MarkdownIt({ linkify: true });
  md.linkify = irilinkLinkifyIt(options) as unknown as Md['linkify'];
  return md;
}

/** The anchors of markdown-it's HTML as [href, text] (the HTML is markdown-it's own, simple and regular). */
function anchors(html: string): [string, string][] {
  return [...html.matchAll(/<a href="([^"]*)">([^<]*)<\/a>/g)].map((m) => [m[1]!, m[2]!]);
}

describe('markdown-it with md.linkify = irilinkLinkifyIt()', () => {
  it('links IRIs whole and leaves CJK punctuation out', () => {
    const html = markdownIt().renderInline('see https://ja.wikipedia.org/wiki/フィンセント・ファン・ゴッホ。 東京https://例え.jp/a?q=値#frag、');
    expect(anchors(html)).to.deep.equal([
      [
        'https://ja.wikipedia.org/wiki/%E3%83%95%E3%82%A3%E3%83%B3%E3%82%BB%E3%83%B3%E3%83%88%E3%83%BB%E3%83%95%E3%82%A1%E3%83%B3%E3%83%BB%E3%82%B4%E3%83%83%E3%83%9B',
        'https://ja.wikipedia.org/wiki/フィンセント・ファン・ゴッホ',
      ],
      ['https://xn--r8jz45g.jp/a?q=%E5%80%A4#frag', 'https://例え.jp/a?q=値#frag'],
    ]);
    expect(html).to.match(/ゴッホ<\/a>。 東京<a /);
    expect(html).to.match(/#frag<\/a>、$/);
  });

  it('gives every href exactly irilink\'s uri (normalizeLink does not encode it again)', () => {
    const inputs = [
      'https://例え.テスト/パス?q=%E5%80%A4&r=ü#片',
      'http://例え.jp/100%25',
      'mailto:名前@例え.jp',
      '名前@例え.jp',
      'www.例え.jp/パス',
      'https://example.com/a(b)c',
      'ftp://ftp.example.org/ファイル.txt',
    ];
    const md = markdownIt();
    for (const input of inputs) {
      const links = findLinks(input);
      expect(links, input).to.have.length(1);
      expect(anchors(md.renderInline(input)).map((a) => a[0]), input).to.deep.equal([links[0]!.uri.replace(/&/g, '&amp;')]);
    }
  });

  it('keeps emphasis out of links, links nothing in code or inside links', () => {
    const html = markdownIt().render('**https://x.example/** `https://code.example/` [see https://a.example](https://b.example)\n\n    https://indented.example/\n');
    expect(anchors(html)).to.deep.equal([
      ['https://x.example/', 'https://x.example/'],
      ['https://b.example', 'see https://a.example'],
    ]);
    expect(html).to.include('<strong><a href="https://x.example/">');
  });

  it('takes linkify-it configuration: set, tlds, add', () => {
    const linkify = irilinkLinkifyIt();
    expect(linkify.test('example.com')).to.equal(true);
    expect(linkify.set({ fuzzyLink: false }).test('example.com')).to.equal(false);
    expect(linkify.set({ fuzzyLink: true }).tlds(['onion'], false).test('example.com')).to.equal(false);
    expect(linkify.test('hidden.onion')).to.equal(true);
    expect(linkify.tlds('com', true).test('example.com')).to.equal(true);
    expect(linkify.add('https:', null).test('https://a.example/')).to.equal(false);
    expect(linkify.add('https:', 'http:').match('x https://a.example/')?.map((m) => [m.schema, m.index, m.lastIndex, m.text, m.url])).to.deep.equal([
      ['https:', 2, 20, 'https://a.example/', 'https://a.example/'],
    ]);
    expect(linkify.match('no links here')).to.equal(null);
    expect(() => irilinkLinkifyIt({ schemes: ['javascript'] })).to.throw(TypeError);
  });

  it('testSchemaAt(text, schema, pos) answers as linkify-it does: pos just after the schema, the length of the rest', () => {
    // It took pos for the link's start and gave the whole link's length (18 at 4, 0 at 10 below).
    const ours = irilinkLinkifyIt();
    const theirs = new LinkifyIt();
    const cases: [string, string, number][] = [
      ['see https://x.example/ now', 'https:', 10],
      ['see https://x.example/ now', 'https:', 4],
      ['see https://x.example/ now', 'https:', 0],
      ['see HTTPS://x.example/a?b=1 now', 'https:', 10],
      ['mail mailto:bob@example.org.', 'mailto:', 12],
      ['see //www.example.org/x and more', '//', 6],
      // linkify-it's `//` rule: none after `:` or `/` (an error in a scheme name, `///`).
      ['a://example.org/x', '//', 4],
      ['x///example.org', '//', 4],
      ['see ///example.org', '//', 7],
      ['no link: here', 'https:', 9],
      ['https:', 'https:', 6],
    ];
    for (const [text, schema, pos] of cases) {
      const expected = theirs.testSchemaAt(text, schema, pos);
      expect(ours.testSchemaAt(text, schema, pos), `${text} ${schema} ${pos}`).to.equal(expected);
    }
    expect(ours.testSchemaAt('see https://x.example/ now', 'https:', 10)).to.equal(12);
    // It reads only the text from pos, as if the schema stood before it (linkify-it's validators do the same).
    expect(ours.testSchemaAt('xx//x.example/a', 'https:', 2)).to.equal(theirs.testSchemaAt('xx//x.example/a', 'https:', 2)).and.to.equal(13);
    // A link irilink finds and linkify-it does not: the length of irilink's link.
    expect(ours.testSchemaAt('see https://例え.jp/パス。', 'https:', 10)).to.equal('//例え.jp/パス'.length);
    expect(ours.testSchemaAt('text', 'https:', 9)).to.equal(theirs.testSchemaAt('text', 'https:', 9)).and.to.equal(0); // past the end
    expect(() => ours.testSchemaAt('text', 'https:', -1)).to.throw(TypeError, /pos must be a non-negative integer/);
    expect(() => ours.testSchemaAt('text', '', 0)).to.throw(TypeError, /schema must be a non-empty string/);
  });
});

describe('remark with remarkIrilink', () => {
  it('turns bare links into link nodes and writes Markdown links', async () => {
    const file = await remark().use(remarkIrilink).process('see https://例え.jp/パス。 and **https://x.example/**\n');
    expect(String(file)).to.equal('see [https://例え.jp/パス](https://xn--r8jz45g.jp/%E3%83%91%E3%82%B9)。 and **<https://x.example/>**\n');
  });

  it('skips code, inline code, HTML and existing links; puts the Link in data.irilink', async () => {
    const source = [
      '`https://code.example/` [see https://a.example](https://b.example) [ref] <https://auto.example/>',
      '',
      '```',
      'https://fenced.example/',
      '```',
      '',
      '<div>https://html.example/</div>',
      '',
      'mail 名前@例え.jp <a href="https://html.example/">https://anchor.example/</a>',
      '',
      '[ref]: https://ref.example/',
      '',
    ].join('\n');
    const processor = remark().use(remarkIrilink);
    const tree = (await processor.run(processor.parse(source))) as Root;
    const links: Link[] = [];
    const walk = (node: { type: string; children?: unknown[] }): void => {
      if (node.type === 'link') links.push(node as Link);
      for (const child of node.children ?? []) walk(child as { type: string; children?: unknown[] });
    };
    walk(tree);
    expect(links.map((l) => l.url)).to.deep.equal(['https://b.example', 'https://auto.example/', 'mailto:%E5%90%8D%E5%89%8D@xn--r8jz45g.jp']);
    const mail = links[2]!;
    expect(mail.children).to.deep.equal([{ type: 'text', value: '名前@例え.jp' }]);
    expect((mail.data as { irilink: { kind: string } }).irilink.kind).to.equal('email');
  });
});

/**
 * The bare links of `source` three ways: the Markdown mode (findMarkdownLinks, those a renderer would link) as [text
 * as written, href, text as shown], remark with remarkIrilink as [text as shown, href], markdown-it with irilinkMarkdownIt (HTML on, as CommonMark has it)
 * as the href (its text is shown through normalizeLinkText).
 * GFM off for the Markdown mode and markdown-it (strikethrough), as remark without remark-gfm reads CommonMark.
 */
const pluginMd = new MarkdownIt({ html: true }).use(irilinkMarkdownIt).disable('strikethrough').disable('table');
const pluginRemark = remark().use(remarkIrilink);

function threeWays(source: string): { core: string[][]; markdownIt: string[]; remark: string[][] } {
  const unsafe = new Set<string>(UNSAFE_DIAGNOSTICS);
  const core = findMarkdownLinks(source, { gfm: false })
    .filter((l) => l.construct === 'bare' && !l.diagnostics.some((d) => unsafe.has(d)))
    .map((l) => [l.text, l.uri, l.destination]);
  const markdownIt: string[] = [];
  for (const block of pluginMd.parse(source, {})) {
    for (const token of block.children ?? []) {
      if (token.type === 'link_open' && token.markup === 'linkify') markdownIt.push(String(token.attrGet('href')));
    }
  }
  const fromRemark: string[][] = [];
  const walk = (node: { type: string; url?: string; data?: unknown; children?: unknown[] }): void => {
    const link = (node.data as { irilink?: { text: string } } | undefined)?.irilink;
    if (node.type === 'link' && link !== undefined) fromRemark.push([link.text, node.url!]);
    for (const child of node.children ?? []) walk(child as typeof node);
  };
  walk(pluginRemark.runSync(pluginRemark.parse(source), source));
  return { core, markdownIt, remark: fromRemark };
}

describe('the plugins link what the Markdown mode links (escapes, character references, inline anchors)', () => {
  // ⸠…⸡ marks the links; each case is also read inside a sentence and between line ends.
  const cases = [
    // §2.4: an escape is read as the character it shows, and no link holds an escaped character. markdown-it's own
    // linkify rule linked the text before the escape; remark's text nodes linked across it.
    'https://example.com/a\\_b',
    'example.com\\_foo',
    'http\\://www.example.com/',
    'www\\.example\\.com',
    'pam\\_unix.so',
    '\\_dmarc.example.com',
    '\\$HOST.example.com',
    '<foo\\+@bar.example.com>',
    'see https://example.com/a\\_b and ⸠https://example.com/c⸡',
    // markdown-it's linkify rule dropped a link right after an escape or a character reference.
    '\\*⸠example.com⸡',
    '&lt;⸠tj@vision-media.ca⸡&gt;',
    '&quot;⸠https://example.com/q⸡&quot;',
    // §2.5: a character reference is read as the text it shows, and a link may hold it. markdown-it's linkify rule
    // read the text on each side of it alone, so `pay&#112;al.com/login` (shown `paypal.com/login`) went to
    // `al.com/login`.
    'pam&#95;example.net',
    '_⸠dmarc.example.com⸡&#95;',
    '⸠example.com&#46;example.org⸡',
    '⸠pay&#112;al.com/login⸡',
    'see ⸠https://a.example/?a=1&amp;b=2⸡ and ⸠https://a.example/&#x41;⸡',
    '⸠example&period;com⸡',
    // One to a bidi control ends the run (the embedding tracker reads it).
    '⸠https://a.example/x⸡&#x202E;y',
    // `&ngE;` shows two code points.
    '⸠https://a.example/&ngE;x⸡',
    '&lt;⸠a@example.com⸡&gt;',
    // Emphasis right before an address is markup, not the start of its local part (which may hold `*` or `_`):
    // the Markdown mode linked nothing there.
    '**⸠security@example.com⸡**',
    '_⸠bob@example.com⸡_ and *⸠&amp;x@example.com⸡*',
    // An inline <a> not closed holds the rest of its paragraph, also from inside emphasis.
    '<a href="x">example.com',
    '*<a href="x">* https://a.example/',
    '<a href="x">x</a> ⸠https://a.example/⸡',
  ];
  const blockCases = [
    '> quoted https://q.example/a\\_b and\n> ⸠https://q.example/c⸡ &lt;⸠a@example.com⸡&gt;',
    '- item\n  https://l.example/a\\_b ⸠https://l.example/c⸡\n\n  pam&#95;example.net ⸠pay&#112;al.com⸡',
    '> > nested\n> > \\_dmarc.example.com ⸠www.example.com⸡',
    // A line ending ends a run: no `<…>` wrapped across lines (P3 in plain text) in a paragraph.
    '<⸠http://a.example/very/long⸡\n/path>',
  ];
  const asShown = (core: string[][]): string[][] => core.map((l) => [l[2]!, l[1]!]);
  const expected = (marked: string): string[] => [...marked.matchAll(/⸠([^⸡]*)⸡/g)].map((m) => m[1]!);
  const run = (marked: string): void => {
    const source = marked.replace(/[⸠⸡]/g, '');
    const { core, markdownIt, remark: viaRemark } = threeWays(source);
    const label = JSON.stringify(source);
    expect(core.map((l) => l[0]), `${label} Markdown mode`).to.deep.equal(expected(marked));
    expect(markdownIt, `${label} markdown-it`).to.deep.equal(core.map((l) => l[1]));
    expect(viaRemark, `${label} remark`).to.deep.equal(asShown(core));
  };
  for (const marked of cases) {
    it(marked, () => {
      for (const context of ['%', 'see %, here', '\n%\n']) run(context.replace('%', marked));
    });
  }
  for (const marked of blockCases) it(marked.replace(/\n/g, '⏎'), () => run(marked));

  it('remark without the source (a tree run without its file) reads each text node whole, as shown', () => {
    const source = 'see https://a.example/b\\_c';
    expect(JSON.stringify(pluginRemark.runSync(pluginRemark.parse(source), source))).to.not.include('"type":"link"');
    expect(JSON.stringify(pluginRemark.runSync(pluginRemark.parse(source)))).to.include('"url":"https://a.example/b_c"');
  });

  it('a paragraph of 70,000 links (no spread of them into one call: the stack would overflow)', () => {
    const source = 'x.co '.repeat(70_000);
    const tokens = pluginMd.parseInline(source, {})[0]!.children!;
    expect(tokens.filter((t) => t.type === 'link_open')).to.have.length(70_000);
    const tree = pluginRemark.runSync(pluginRemark.parse(source), source) as Root;
    const nodes = (tree.children[0] as { children: { type: string }[] }).children;
    expect(nodes.filter((node) => node.type === 'link')).to.have.length(70_000);
  });

  it('on generated Markdown (fast-check): the same links three ways', () => {
    const fragment = fc.constantFrom(
      'https://example.com/a', 'www.example.org', 'example.com', 'a@b.example', 'pam', 'unix.so', '_dmarc.example.com', '例え.jp',
      ' ', ' ', '\n', '\n\n', '\n> ', '\n- ', '\\_', '\\.', '\\:', '\\*', '\\\\', '\\$', '&amp;', '&lt;', '&gt;', '&#95;', '&#46;',
      '*', '**', '_', '`', '[', '](', ')', '<b>', '<a href="x">', '</a>', '。', '.', ',', '!', ':', '/', '"', '$', 'foo',
      'pay', 'al.com', '&#112;', '~~',
    );
    fc.assert(
      fc.property(fc.array(fragment, { maxLength: 12 }), (fragments) => {
        const { core, markdownIt, remark: viaRemark } = threeWays(fragments.join(''));
        expect(markdownIt).to.deep.equal(core.map((l) => l[1]));
        expect(viaRemark).to.deep.equal(asShown(core));
      }),
      { numRuns: 1500 },
    );
  });
});
