// The plugins with the real markdown-it and remark: irilink's detection inside their pipelines.
import { expect } from 'chai';
import MarkdownIt from 'markdown-it';
import type { Link, Root } from 'mdast';
import { remark } from 'remark';
import { findLinks } from '../src/detect/index.js';
import { irilinkLinkifyIt, remarkIrilink } from '../src/markdown/index.js';

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
