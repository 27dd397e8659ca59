import { expect } from 'chai';
import fc from 'fast-check';
import { parseFragment } from 'parse5';
import { toHtml, DEFAULT_LINK_SCHEMES, type HtmlOptions } from '../src/render/index.js';
import { checkHtml, parsedText, type Node5 } from './support/html-safety.js';
import type { Chunk } from '../src/types.js';
import { chunksOf, link } from './render-support.js';
import { findLinks } from '../src/index.js';
import { DEFAULT_SCHEMES } from '../src/schemes.js';

const REL = ' rel="nofollow noopener noreferrer"';

describe('render: toHtml exact output', () => {
  it('escapes text and links a chunk with its uri and original text', () => {
    const chunks = chunksOf('see ⸠https://例え.jp/パス⸡。 <b>&"\'', [
      { uri: 'https://xn--r8jz45g.jp/%E3%83%91%E3%82%B9' },
    ]);
    expect(toHtml(chunks)).to.equal(
      `see <a href="https://xn--r8jz45g.jp/%E3%83%91%E3%82%B9"${REL}>https://例え.jp/パス</a>。 &lt;b&gt;&amp;&quot;&#39;`,
    );
  });

  it('display: "iri" shows the readable form, without an inferred scheme', () => {
    const chunks = chunksOf('⸠xn--r8jz45g.jp⸡ and ⸠https://xn--r8jz45g.jp/%E3%83%91⸡', [
      { uri: 'https://xn--r8jz45g.jp', iri: 'https://例え.jp', scheme: 'https', schemeInferred: true },
      { iri: 'https://例え.jp/パ' },
    ]);
    expect(toHtml(chunks, { display: 'iri', rel: '' })).to.equal(
      '<a href="https://xn--r8jz45g.jp">例え.jp</a> and <a href="https://xn--r8jz45g.jp/%E3%83%91">https://例え.jp/パ</a>',
    );
  });

  it('display: "uri" shows the uri itself', () => {
    const chunks = chunksOf('⸠例え.jp⸡', [{ uri: 'https://xn--r8jz45g.jp', iri: 'https://例え.jp', scheme: 'https', schemeInferred: true }]);
    expect(toHtml(chunks, { display: 'uri', rel: '' })).to.equal('<a href="https://xn--r8jz45g.jp">https://xn--r8jz45g.jp</a>');
  });

  it('an email shows its text; display "iri" leaves the inferred mailto: off', () => {
    const chunks = chunksOf('mail ⸠ユーザー@例え.jp⸡', [
      { kind: 'email', scheme: 'mailto', schemeInferred: true, uri: 'mailto:%E3%83%A6%E3%83%BC%E3%82%B6%E3%83%BC@xn--r8jz45g.jp', iri: 'mailto:ユーザー@例え.jp' },
    ]);
    const href = 'mailto:%E3%83%A6%E3%83%BC%E3%82%B6%E3%83%BC@xn--r8jz45g.jp';
    expect(toHtml(chunks)).to.equal(`mail <a href="${href}"${REL}>ユーザー@例え.jp</a>`);
    expect(toHtml(chunks, { display: 'iri' })).to.equal(`mail <a href="${href}"${REL}>ユーザー@例え.jp</a>`);
  });

  it('rel, target and class options, each escaped', () => {
    const chunks = chunksOf('⸠https://a.example/⸡');
    expect(toHtml(chunks, { rel: 'ugc', target: '_blank', class: 'x"y' })).to.equal(
      '<a href="https://a.example/" class="x&quot;y" rel="ugc" target="_blank">https://a.example/</a>',
    );
  });

  it('an href keeps & and quotes of the uri as references, so the parsed href is the uri', () => {
    const uri = "https://a.example/?q=1&amp;r='x'";
    const html = toHtml([link(uri, 0)], { rel: '' });
    expect(html).to.equal('<a href="https://a.example/?q=1&amp;amp;r=&#39;x&#39;">https://a.example/?q=1&amp;amp;r=&#39;x&#39;</a>');
    const a = parseFragment(html).childNodes[0] as unknown as { attrs: { name: string; value: string }[] };
    expect(a.attrs[0]).to.deep.equal({ name: 'href', value: uri });
  });

  it('isolates a link holding right-to-left text with dir="ltr" (RFC 3987 §4.1)', () => {
    const chunks = chunksOf('קישור: ⸠http://דוגמה.ישראל/נתיב⸡ סוף', [{ uri: 'http://xn--4dbrk0ce.xn--4dbrk0ce/%D7%A0%D7%AA%D7%99%D7%91' }]);
    expect(toHtml(chunks, { rel: '' })).to.equal(
      'קישור: <a href="http://xn--4dbrk0ce.xn--4dbrk0ce/%D7%A0%D7%AA%D7%99%D7%91" dir="ltr">http://דוגמה.ישראל/נתיב</a> סוף',
    );
    const arabic = chunksOf('⸠https://مثال.إختبار/⸡', [{ uri: 'https://xn--mgbh0fb.xn--kgbechtv/' }]);
    expect(toHtml(arabic, { rel: '' })).to.equal('<a href="https://xn--mgbh0fb.xn--kgbechtv/" dir="ltr">https://مثال.إختبار/</a>');
  });

  it('isolate: "always" / "never"; the rtl test looks at the shown text', () => {
    const ascii = chunksOf('⸠https://a.example/⸡');
    expect(toHtml(ascii, { rel: '', isolate: 'always' })).to.equal('<a href="https://a.example/" dir="ltr">https://a.example/</a>');
    const hebrewIri = chunksOf('⸠http://xn--4dbrk0ce.il/⸡', [{ iri: 'http://דוגמה.il/' }]);
    expect(toHtml(hebrewIri, { rel: '' })).to.equal('<a href="http://xn--4dbrk0ce.il/">http://xn--4dbrk0ce.il/</a>');
    expect(toHtml(hebrewIri, { rel: '', display: 'iri' })).to.equal('<a href="http://xn--4dbrk0ce.il/" dir="ltr">http://דוגמה.il/</a>');
    expect(toHtml(hebrewIri, { rel: '', display: 'iri', isolate: 'never' })).to.equal('<a href="http://xn--4dbrk0ce.il/">http://דוגמה.il/</a>');
  });

  it('links with unsafe diagnostics are a marked span, not clickable', () => {
    const cases: [string, Chunk[], string][] = [
      ['idna-failed', chunksOf('⸠http://a..b/⸡', [{ diagnostics: ['idna-failed'] }]), 'idna-failed'],
      ['mixed-script-host', chunksOf('⸠https://pаypal.com/⸡', [{ uri: 'https://xn--pypal-4ve.com/', diagnostics: ['mixed-script-host'] }]), 'mixed-script-host'],
      ['confusable-host', chunksOf('⸠https://ехаmple.com/⸡', [{ uri: 'https://xn--mple-43da2b.com/', diagnostics: ['confusable-host', 'mixed-script-host'] }]), 'mixed-script-host confusable-host'],
      ['bidi-control', chunksOf('⸠https://a.example/⸡\u202Egpj.exe', [{ diagnostics: ['bidi-control'] }]), 'bidi-control'],
      ['userinfo', chunksOf('⸠https://bank.example@evil.example/⸡', [{ diagnostics: ['userinfo'] }]), 'userinfo'],
      ['conversion-failed', chunksOf('⸠https://a.example/\uD800⸡', [{ diagnostics: ['conversion-failed'] }]), 'conversion-failed unsafe-uri'],
    ];
    for (const [name, chunks, title] of cases) {
      const text = (chunks[0] as { text: string }).text;
      const rest = chunks.length > 1 ? (chunks[1] as { text: string }).text : '';
      expect(toHtml(chunks), name).to.equal(`<span class="irilink-unsafe" title="${title}">${text}</span>${rest}`);
    }
    expect(toHtml(cases[4]![1], { unsafeClass: 'warn' })).to.equal('<span class="warn" title="userinfo">https://bank.example@evil.example/</span>');
  });

  it('other diagnostics leave the link clickable', () => {
    for (const code of ['bidi-component', 'invalid-percent-encoding', 'link-too-long', 'wrapped'] as const) {
      expect(toHtml(chunksOf('⸠https://a.example/%zz⸡', [{ diagnostics: [code] }]), { rel: '' }), code).to.equal(
        '<a href="https://a.example/%zz">https://a.example/%zz</a>',
      );
    }
  });

  it('only allowed schemes get an href; the schemes option replaces the set', () => {
    expect(toHtml(chunksOf('⸠custom://x⸡'))).to.equal('<span class="irilink-unsafe" title="scheme-not-allowed">custom://x</span>');
    expect(toHtml(chunksOf('⸠custom://x⸡'), { schemes: ['custom'], rel: '' })).to.equal('<a href="custom://x">custom://x</a>');
    expect(toHtml(chunksOf('⸠https://x⸡'), { schemes: ['HTTP'], rel: '' })).to.equal('<span class="irilink-unsafe" title="scheme-not-allowed">https://x</span>');
    expect(toHtml(chunksOf('⸠HTTP://X⸡'), { schemes: ['HTTP'], rel: '' })).to.equal('<a href="HTTP://X">HTTP://X</a>');
    for (const scheme of DEFAULT_LINK_SCHEMES) {
      expect(toHtml(chunksOf(`⸠${scheme}:x⸡`), { rel: '' })).to.equal(`<a href="${scheme}:x">${scheme}:x</a>`);
    }
  });

  it('breaks: <br> before each line break; CRLF is one break even split across chunks', () => {
    const chunks = chunksOf('a\nb\r\nc\rd\n\n⸠https://x.example/⸡');
    expect(toHtml(chunks, { breaks: true, rel: '' })).to.equal('a<br>\nb<br>\r\nc<br>\rd<br>\n<br>\n<a href="https://x.example/">https://x.example/</a>');
    const split: Chunk[] = [
      { type: 'text', text: 'a\r', start: 0, end: 2 },
      { type: 'text', text: '\nb', start: 2, end: 4 },
    ];
    expect(toHtml(split, { breaks: true })).to.equal('a<br>\r\nb');
    expect(toHtml(split)).to.equal('a\r\nb');
  });

  it('links: true renders the links alone, one per line', () => {
    expect(toHtml(chunksOf('x ⸠https://a.example/⸡ y <⸠mailto:b@c.example⸡>'), { links: true, rel: '' })).to.equal(
      '<a href="https://a.example/">https://a.example/</a>\n<a href="mailto:b@c.example">mailto:b@c.example</a>\n',
    );
  });

  it('text chunks with invalid-utf8 need nothing special', () => {
    expect(toHtml([{ type: 'text', text: 'a\uFFFDb', start: 0, end: 3, diagnostics: ['invalid-utf8'] }])).to.equal('a\uFFFDb');
  });

  it('rejects misuse with a TypeError', () => {
    expect(() => toHtml('x' as unknown as Chunk[])).to.throw(TypeError, /chunks must be an array/);
    expect(() => toHtml([{ type: 'bogus' } as unknown as Chunk])).to.throw(TypeError, /each chunk/);
    expect(() => toHtml([], { display: 'url' } as unknown as HtmlOptions)).to.throw(TypeError, /display/);
    expect(() => toHtml([], { rel: 1 } as unknown as HtmlOptions)).to.throw(TypeError, /rel/);
    expect(() => toHtml([], { isolate: 'yes' } as unknown as HtmlOptions)).to.throw(TypeError, /isolate/);
    expect(() => toHtml([], { schemes: ['https', 'JavaScript'] })).to.throw(TypeError, /never linked/);
    expect(() => toHtml([], { schemes: ['data'] })).to.throw(TypeError, /never linked/);
    expect(() => toHtml([], { schemes: ['ht tp'] })).to.throw(TypeError, /scheme names/);
    // The renderers take scheme names as detection's `schemes` option does (found in review: they took any length).
    const long = 'a'.repeat(33);
    expect(() => findLinks('x', { schemes: [long] })).to.throw(TypeError);
    expect(() => toHtml([], { schemes: [long] })).to.throw(TypeError, /scheme names/);
    expect(toHtml([], { schemes: ['a'.repeat(32)] })).to.equal('');
    expect(DEFAULT_LINK_SCHEMES).to.equal(DEFAULT_SCHEMES);
  });
});

// ---------------------------------------------------------------------------------------------------------
// Issue 7: no input makes the HTML renderer emit markup that runs. The output is parsed with parse5 and the
// tree may hold only text, <a>, <span>, <br> (and nothing else), with the attributes the renderer writes.

/** The parsed tree's text; throws on anything the renderer never writes (nested <a>/<span> included). */
const checkTree = (html: string): string => checkHtml(html, { flat: true }).text;

const TEXT_PAYLOADS = [
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  "'><svg onload=alert(1)>",
  '<a href="javascript:alert(1)">x</a>',
  '<iframe srcdoc="&lt;script&gt;alert(1)&lt;/script&gt;"></iframe>',
  '&lt;script&gt;alert(1)&lt;/script&gt;',
  '<!--<script>-->',
  '<![CDATA[<script>alert(1)</script>]]>',
  '</span></a><script>alert(1)</script>',
  '<style>*{background:url(javascript:alert(1))}</style>',
  '<textarea><script>alert(1)</script>',
  '\0<script>alert(1)</script>',
  '<scr\0ipt>alert(1)</script>',
  '<math><mi xlink:href="javascript:alert(1)">x</mi></math>',
  '<body onload=alert(1)>',
  '&#60;script&#62;',
];

const HREF_PAYLOADS = [
  'javascript:alert(1)',
  'JaVaScRiPt:alert(1)',
  ' javascript:alert(1)',
  '\tjavascript:alert(1)',
  'java\tscript:alert(1)',
  'java\nscript:alert(1)',
  'java\0script:alert(1)',
  'javascript%3Aalert(1)',
  '%0Ajavascript:alert(1)',
  'javascript&#58;alert(1)',
  '&#106;avascript:alert(1)',
  'javascript&colon;alert(1)',
  'ｊａｖａｓｃｒｉｐｔ:alert(1)',
  'javascript://%0Aalert(1)',
  'javascript://example.com/%0Aalert(1)',
  'vbscript:msgbox(1)',
  'VBScript:msgbox(1)',
  'data:text/html,<script>alert(1)</script>',
  'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
  ' data:text/html,x',
  'https://x.example/" onmouseover="alert(1)',
  "https://x.example/' onmouseover='alert(1)",
  'https://x.example/"><script>alert(1)</script>',
  'https://x.example/&quot; onclick=&quot;alert(1)',
  'https://x.example/\u2028javascript:alert(1)',
  '//evil.example/',
  '/relative',
  '',
];

describe('render: toHtml never emits markup that runs (parse5)', () => {
  const optionSets: HtmlOptions[] = [{}, { display: 'iri' }, { breaks: true, isolate: 'always', target: '_blank', class: 'l' }];

  it('text payloads stay text', () => {
    for (const payload of TEXT_PAYLOADS) {
      for (const options of optionSets) {
        const chunks = chunksOf(`before ${payload} ⸠https://ok.example/⸡ after ${payload}`);
        expect(checkTree(toHtml(chunks, options)), payload).to.equal(parsedText(`before ${payload} https://ok.example/ after ${payload}`));
      }
    }
  });

  it('link chunks carrying payloads as uri, text or iri never produce a bad href or element', () => {
    for (const uri of HREF_PAYLOADS) {
      for (const shown of [uri, '<b>x</b>', TEXT_PAYLOADS[1]!]) {
        for (const scheme of ['https', 'javascript']) {
          for (const options of optionSets) {
            const chunk = link(shown, 2, { uri, iri: shown + '<i>', scheme });
            const html = toHtml([{ type: 'text', text: 'a ', start: 0, end: 2 }, chunk], options);
            const expected = options.display === 'iri' ? shown + '<i>' : shown;
            expect(checkTree(html), JSON.stringify(uri)).to.equal('a ' + parsedText(expected));
          }
        }
      }
    }
  });

  it('no disguised javascript:, vbscript: or data: uri is ever an href, even with a lying scheme field', () => {
    for (const uri of HREF_PAYLOADS.filter((u) => !u.startsWith('https://'))) {
      const html = toHtml([link('click', 0, { uri, scheme: 'https' })]);
      expect(html, JSON.stringify(uri)).to.not.include('href');
      expect(html).to.match(/^<span class="irilink-unsafe" title="(scheme-not-allowed|unsafe-uri)">click<\/span>$/);
    }
  });

  it('entities inside links stay literal text and literal href', () => {
    const uri = 'https://x.example/?a=&lt;script&gt;&amp;b=&#34;';
    const html = toHtml([link(uri, 0)]);
    expect(checkTree(html)).to.equal(uri);
    const a = (parseFragment(html) as unknown as Node5).childNodes![0]!;
    expect(a.attrs!.find((x) => x.name === 'href')!.value).to.equal(uri);
  });

  it('property: for any text, link text, iri and uri, the tree is safe and its text is the shown text', () => {
    const piece = fc.oneof(
      fc.string({ unit: 'binary' }),
      fc.constantFrom('<', '>', '&', '"', "'", '=', '/', '\0', '\r', '\n', 'javascript:', 'script', 'onerror=', '&#', ';', '<!--', '-->', 'https://'),
    );
    const str = fc.array(piece, { maxLength: 8 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(str, str, str, str, str, fc.boolean(), fc.boolean(), (before, shown, iri, uri, after, iriDisplay, breaks) => {
        const text = shown.length > 0 ? shown : 'x';
        const chunks: Chunk[] = [
          { type: 'text', text: before, start: 0, end: before.length },
          link(text, before.length, { uri, iri }),
          { type: 'text', text: after, start: before.length + text.length, end: before.length + text.length + after.length },
        ];
        const options: HtmlOptions = { display: iriDisplay ? 'iri' : 'text', breaks };
        const shownText = iriDisplay && iri.length > 0 ? iri : text;
        // parse5 normalises line breaks within each text node; the link element separates the three.
        expect(checkTree(toHtml(chunks, options))).to.equal(parsedText(before) + parsedText(shownText) + parsedText(after));
      }),
      { numRuns: 500 },
    );
  });
});
