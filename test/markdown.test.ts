// The Markdown mode: findMarkdownLinks, linkifyMarkdown, MarkdownLinkifier. Expectations in marker style: each link
// chunk between ⸠ and ⸡, its construct after it when it is not a bare link.
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import fc from 'fast-check';
import * as commonmark from 'commonmark';
import MarkdownIt from 'markdown-it';
import { gfmStrikethrough } from 'micromark-extension-gfm-strikethrough';
import { gfmTable } from 'micromark-extension-gfm-table';
import mdurl from 'mdurl';
import { createScanner, findLinks } from '../src/detect/index.js';
import { piecesLinks, setFastPath } from '../src/markdown/extract.js';
import { createParser } from '../src/markdown/linkifier.js';
import { DEFAULT_MAX_PIECE_LENGTH, findMarkdownLinks, linkifyMarkdown, MarkdownLinkifier, toMarkdownSource } from '../src/markdown/index.js';
import type { MarkdownChunk, MarkdownLinkOptions } from '../src/markdown/index.js';
import { toHtml } from '../src/render/index.js';

function marked(chunks: MarkdownChunk[]): string {
  return chunks.map((c) => (c.type === 'text' ? c.text : `⸠${c.text}⸡${c.construct === 'bare' ? '' : `{${c.construct}}`}`)).join('');
}

function mark(source: string, options?: MarkdownLinkOptions): string {
  return marked(linkifyMarkdown(source, options));
}

/** Adjacent text chunks merged, so that two chunkings can be compared. */
function merged(chunks: MarkdownChunk[]): MarkdownChunk[] {
  const out: MarkdownChunk[] = [];
  for (const c of chunks) {
    const last = out[out.length - 1];
    if (c.type === 'text' && last !== undefined && last.type === 'text') {
      out[out.length - 1] = { type: 'text', text: last.text + c.text, start: last.start, end: c.end };
    } else {
      out.push(c);
    }
  }
  return out;
}

function streamed(pieces: string[], options?: MarkdownLinkOptions): MarkdownChunk[] {
  const linkifier = new MarkdownLinkifier(options);
  const out: MarkdownChunk[] = [];
  for (const p of pieces) out.push(...linkifier.push(p));
  out.push(...linkifier.end());
  return out;
}

describe('Markdown mode: bare links', () => {
  const cases: [string, string][] = [
    ['see https://例え.jp/パス。', 'see ⸠https://例え.jp/パス⸡。'],
    ['**https://x.example/**', '**⸠https://x.example/⸡**'],
    ['_https://x.example/_ and *https://y.example/*', '_⸠https://x.example/⸡_ and *⸠https://y.example/⸡*'],
    ['~~https://x.example/~~', '~~⸠https://x.example/⸡~~'],
    ['# 見出し https://ja.wikipedia.org/wiki/東京', '# 見出し ⸠https://ja.wikipedia.org/wiki/東京⸡'],
    ['> quoted example.com/a, ok', '> quoted ⸠example.com/a⸡, ok'],
    ['- item https://a.example/x\n- mail to 名前@例え.jp.', '- item ⸠https://a.example/x⸡\n- mail to ⸠名前@例え.jp⸡.'],
    ['| a | https://t.example/ |\n|---|---|\n| https://c.example/x | b |', '| a | ⸠https://t.example/⸡ |\n|---|---|\n| ⸠https://c.example/x⸡ | b |'],
  ];
  for (const [input, expected] of cases) {
    it(expected, () => {
      expect(mark(input)).to.equal(expected);
      expect(mark(`text before\n\n${input}\n\ntext after`)).to.equal(`text before\n\n${expected}\n\ntext after`);
    });
  }
});

describe('Markdown mode: backslash escapes (CommonMark §2.4)', () => {
  // The escaped character is shown as text: the run goes on through it, and the detector decides on the text as
  // shown, as plain mode does (src/markdown/extract.ts PieceReader.escape). Both readers; bare, in a block quote
  // between paragraphs, and written one character at a time.
  const cases: [string, string][] = [
    // Shown `_dmarc.example.com`, `pam_unix.so`, `$HOST.example.com`, `example.com_x`: names plain mode does not link
    // (the text after the escape alone was `dmarc.example.com`, `unix.so`, `HOST.example.com`; before it `example.com`).
    ['see \\_dmarc.example.com now', 'see \\_dmarc.example.com now'],
    ['load pam\\_unix.so here', 'load pam\\_unix.so here'],
    ['x \\$HOST.example.com y', 'x \\$HOST.example.com y'],
    ['see example.com\\_x', 'see example.com\\_x'],
    // An escaped backslash shows a single `\`: a path segment after it, as in plain mode.
    ['a \\\\www.example.com b', 'a \\\\www.example.com b'],
    // Escaped marks around a link are its context, as written plainly.
    ['\\_example.com\\_ and \\*https://example.com/a\\*', '\\_⸠example.com⸡\\_ and \\*⸠https://example.com/a⸡\\*'],
    ['\\"https://example.com/a\\" and \\(c.example.com\\) and https://example.com/b\\.', '\\"⸠https://example.com/a⸡\\" and \\(⸠c.example.com⸡\\) and ⸠https://example.com/b⸡\\.'],
    // No link holds an escaped character: GFM does not autolink `http\://…` or `www\.…` either; the run before the
    // escape alone linked `https://example.com/a`, `http://ex` and `ample.com/`, `www.example.com/`: other URLs.
    ['a https://example.com/a\\_b', 'a https://example.com/a\\_b'],
    ['http://ex\\_ample.com/ and http\\://www.example.com/ and www\\.example\\.com', 'http://ex\\_ample.com/ and http\\://www.example.com/ and www\\.example\\.com'],
    ['\\_a@example.com and b\\@example.com', '\\_a@example.com and b\\@example.com'],
    // Escapes in a construct are the construct's: a bare link after it is found as before.
    ['[a\\_b.example.com](https://x.example/) \\_ https://y.example/', '[a\\_b.example.com](⸠https://x.example/⸡{link}) \\_ ⸠https://y.example/⸡'],
    ['`a\\_b.example.com` c.example.com\\_', '`a\\_b.example.com` ⸠c.example.com⸡\\_'],
  ];
  for (const [input, expected] of cases) {
    it(expected, () => {
      for (const fast of [true, false]) {
        try {
          setFastPath(fast);
          expect(mark(input), `fast path ${fast}`).to.equal(expected);
          expect(mark(`text before\n\n> ${input}\n\ntext after`), `fast path ${fast}`).to.equal(`text before\n\n> ${expected}\n\ntext after`);
          expect(marked(merged(streamed([...input]))), `fast path ${fast}`).to.equal(expected);
        } finally {
          setFastPath(true);
        }
      }
    });
  }

  it('gives source offsets after escapes, and text that is the source slice', () => {
    const source = 'x \\_a \\*https://例え.jp/b\\* \\\\ c@example.com';
    const links = findMarkdownLinks(source).map((l) => [l.text, l.start, l.end, source.slice(l.start, l.end)]);
    expect(links).to.deep.equal([
      ['https://例え.jp/b', 8, 23, 'https://例え.jp/b'],
      ['c@example.com', 29, 42, 'c@example.com'],
    ]);
  });

  it('keeps a link a renderer would refuse marked when an escape makes it no link', () => {
    // Reported as an unlinked span with the reason, so that toMarkdownSource writes it inert (`\:` `\.`).
    const chunks = linkifyMarkdown('see https://раураl.com/x\\.y now');
    expect(chunks.map((c) => [c.type, c.text, c.diagnostics ?? []])).to.deep.equal([
      ['text', 'see ', []],
      ['text', 'https://раураl.com/x\\.y', ['mixed-script-host', 'confusable-host']],
      ['text', ' now', []],
    ]);
    expect(toMarkdownSource(chunks)).to.equal('see https\\://раураl\\.com/x\\.y now');
  });
});

describe('Markdown mode: nothing in code or HTML', () => {
  const cases: string[] = [
    'a `https://code.example/` b',
    '``https://code.example/ ` x``',
    '```\nhttps://fenced.example/\n```',
    '~~~ https://info.example/\nhttps://fenced.example/\n\nhttps://after-blank.example/\n~~~',
    '    https://indented.example/',
    '<div>\nhttps://html-block.example/\n</div>',
    '<!--\nhttps://comment.example/\n\nhttps://after-blank.example/\n-->',
    '<a href="https://attr.example/">x</a>',
    '- item\n\n  ```\n  https://in-item.example/\n  ```',
  ];
  for (const input of cases) {
    it(JSON.stringify(input), () => {
      expect(mark(input)).to.equal(input);
    });
  }
  it('links the text between inline HTML tags, not the attributes, and nothing inside an HTML anchor', () => {
    expect(mark('<span title="https://attr.example/">https://text.example/</span>')).to.equal(
      '<span title="https://attr.example/">⸠https://text.example/⸡</span>',
    );
    expect(mark('x <a href="https://attr.example/">https://text.example/</a> https://after.example/')).to.equal(
      'x <a href="https://attr.example/">https://text.example/</a> ⸠https://after.example/⸡',
    );
    expect(mark('<a href="x">open\n\nhttps://next.example/')).to.equal('<a href="x">open\n\n⸠https://next.example/⸡');
    expect(mark('<A\nhref="x">https://text.example/</A > <abbr>https://abbr.example/</abbr>')).to.equal(
      '<A\nhref="x">https://text.example/</A > <abbr>⸠https://abbr.example/⸡</abbr>',
    );
  });
});

describe('Markdown mode: existing links, linked once', () => {
  const cases: [string, string][] = [
    ['[see https://a.example](https://b.example)', '[see https://a.example](⸠https://b.example⸡{link})'],
    ['[docs](<https://例え.jp/パス> "title https://t.example")', '[docs](<⸠https://例え.jp/パス⸡{link}> "title https://t.example")'],
    ['![alt https://a.example](img/パス.png)', '![alt https://a.example](⸠img/パス.png⸡{image})'],
    ['[![CI](https://ci.example/badge.svg)](https://ci.example/)', '[![CI](⸠https://ci.example/badge.svg⸡{image})](⸠https://ci.example/⸡{link})'],
    ['<https://auto.example/a> <user@example.com>', '<⸠https://auto.example/a⸡{autolink}> <⸠user@example.com⸡{autolink}>'],
    // CommonMark §6.5: an email autolink is ASCII only; irilink's detection finds the address in the plain text.
    ['<名前@例え.jp>', '<⸠名前@例え.jp⸡>'],
    ['[text][ref] [ref][] [ref]\n\n[ref]: https://例え.jp/', '[text][⸠ref⸡{link-reference}] [⸠ref⸡{link-reference}][] [⸠ref⸡{link-reference}]\n\n[ref]: ⸠https://例え.jp/⸡{definition}'],
    ['![logo][img]\n\n[img]: <logo.png>', '![⸠logo⸡{image-reference}][img]\n\n[img]: <⸠logo.png⸡{definition}>'.replace('![⸠logo⸡{image-reference}][img]', '![logo][⸠img⸡{image-reference}]')],
    ['[https://a.example]\n\n[https://a.example]: https://b.example', '[⸠https://a.example⸡{link-reference}]\n\n[https://a.example]: ⸠https://b.example⸡{definition}'],
    ['[x](javascript:alert(1)) [y](data:text/html,z)', '[x](javascript:alert(1)) [y](data:text/html,z)'],
    ['[empty]() [undefined][nope]', '[empty]() [undefined][nope]'],
  ];
  for (const [input, expected] of cases) {
    it(expected, () => {
      expect(mark(input)).to.equal(expected);
    });
  }

  it('gives each link its destination, uri and iri', () => {
    const [link, image, ref, def, auto] = findMarkdownLinks(
      '[a](https://例え.jp/\\(x\\)?q=&auml;) ![b](/img%20x.png) [c]\n\n[c]: <https://EXAMPLE.com/a b>\n\n<u@example.com>',
    );
    expect(link).to.include({ construct: 'link', text: 'https://例え.jp/\\(x\\)?q=&auml;', destination: 'https://例え.jp/(x)?q=ä' });
    expect(link!.uri).to.equal('https://xn--r8jz45g.jp/(x)?q=%C3%A4');
    expect(link!.iri).to.equal('https://例え.jp/(x)?q=ä');
    expect(image).to.include({ construct: 'image', destination: '/img%20x.png', uri: '/img%20x.png', scheme: '' });
    expect(ref).to.include({ construct: 'link-reference', text: 'c', destination: 'https://EXAMPLE.com/a b', uri: 'https://example.com/a%20b' });
    expect(def).to.include({ construct: 'definition', text: 'https://EXAMPLE.com/a b' });
    expect(auto).to.include({ construct: 'autolink', kind: 'email', scheme: 'mailto', text: 'u@example.com', destination: 'mailto:u@example.com', uri: 'mailto:u@example.com' });
  });

  it('an email autolink with / ? # in its address: the destination as CommonMark writes it, the uri as RFC 6068 §2 does', () => {
    const [auto, bare] = findMarkdownLinks('<a?b/c@example.com> and a?b/c@example.com');
    expect(auto).to.include({ construct: 'autolink', destination: 'mailto:a?b/c@example.com', uri: 'mailto:a%3Fb%2Fc@example.com' });
    expect(bare).to.include({ construct: 'bare', text: 'a?b/c@example.com', uri: auto!.uri, iri: auto!.iri });
  });

  it('converts and checks a destination as the detector converts a bare link (one mechanism)', () => {
    const src = '[a](https://аррӏе.com/) [b](https://example.com/a[1]b) <https://pаypal.com/x> [c](http://x_y.example/)';
    const bare = (text: string) => findLinks(text)[0]!;
    const links = findMarkdownLinks(src);
    expect(links.map((l) => l.destination)).to.deep.equal([
      'https://аррӏе.com/', 'https://example.com/a[1]b', 'https://pаypal.com/x', 'http://x_y.example/',
    ]);
    for (const l of links) {
      const b = bare(l.destination);
      expect([l.uri, l.iri, l.diagnostics], l.destination).to.deep.equal([b.uri, b.iri, b.diagnostics]);
    }
    expect(links[0]!.diagnostics).to.include('confusable-host');
    expect(links[1]!.uri).to.equal('https://example.com/a%5B1%5Db');
    expect(links[2]!.diagnostics).to.include('mixed-script-host');
    expect(links[3]!).to.deep.include({ uri: 'http://x_y.example/', diagnostics: [] }); // `_`: as browsers take it
  });

  it('keeps the first of several definitions of a label (CommonMark §4.7)', () => {
    expect(mark('[a]\n\n[a]: /one\n[A]: /two')).to.equal('[⸠a⸡{link-reference}]\n\n[a]: ⸠/one⸡{definition}\n[A]: /two');
  });
});

describe('Markdown mode: offsets', () => {
  it('covers the input exactly, with CRLF, tabs, a BOM and astral characters', () => {
    const source = '\uFEFF# 𝐓itle\r\n\r\n\tcode https://no.example\r\n\r\n😀 https://例え.jp/😀 [a](https://b.example)\r\n';
    const chunks = linkifyMarkdown(source);
    expect(chunks.map((c) => c.text).join('')).to.equal(source);
    for (const c of chunks) expect(source.slice(c.start, c.end)).to.equal(c.text);
    expect(marked(chunks)).to.equal('\uFEFF# 𝐓itle\r\n\r\n\tcode https://no.example\r\n\r\n😀 ⸠https://例え.jp/😀⸡ [a](⸠https://b.example⸡{link})\r\n');
    const whole = merged(chunks);
    for (let i = 0; i <= source.length; i++) {
      expect(merged(streamed([source.slice(0, i), source.slice(i)]))).to.deep.equal(whole, `split at ${i}`);
    }
  });
});

describe('Markdown mode: streaming', () => {
  const doc = [
    '# Title https://t.example/',
    '',
    'para **https://例え.jp/パス** and `https://code.example/`',
    '',
    '```',
    'https://fenced.example/',
    '',
    'still code https://fenced2.example/',
    '```',
    '',
    '[ref]: https://ref.example/',
    '',
    'use [ref] then <https://auto.example/>.',
    '',
  ].join('\n');

  it('gives the same chunks however the text is split (every split point)', () => {
    const whole = merged(linkifyMarkdown(doc));
    for (let i = 0; i <= doc.length; i++) {
      expect(merged(streamed([doc.slice(0, i), doc.slice(i)]))).to.deep.equal(whole, `split at ${i}`);
    }
  });

  it('gives the same chunks over many pieces (random chunkings of a long document)', () => {
    const long = Array.from({ length: 400 }, (_, i) => doc.replace(/example/g, `ex${i}.example`).replace(/\[ref\]/g, `[ref${i}]`)).join('\n');
    const whole = merged(linkifyMarkdown(long));
    expect(whole.filter((c) => c.type === 'link').length).to.equal(400 * 5);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 30000 }), { minLength: 1, maxLength: 20 }), (sizes) => {
        const pieces: string[] = [];
        let pos = 0;
        for (let k = 0; pos < long.length; k++) {
          const n = sizes[k % sizes.length]!;
          pieces.push(long.slice(pos, pos + n));
          pos += n;
        }
        expect(merged(streamed(pieces))).to.deep.equal(whole);
      }),
      { numRuns: 20 },
    );
  });

  it('holds back a bounded tail: memory does not grow with the document', () => {
    const linkifier = new MarkdownLinkifier();
    let max = 0;
    let links = 0;
    for (let i = 0; i < 3000; i++) {
      for (const c of linkifier.push(`Paragraph ${i} with https://例え.jp/${i} in it.\n\n`)) if (c.type === 'link') links++;
      max = Math.max(max, linkifier.pending);
    }
    for (const c of linkifier.end()) if (c.type === 'link') links++;
    expect(links).to.equal(3000);
    expect(max).to.be.below(20 * 1024);
  });

  it('cuts a block longer than the piece cap (64 KiB) at a line, and keeps an open fence code', () => {
    const fence = '```\n' + 'https://in-code.example/ line\n'.repeat(40000) + '```\nafter https://after.example/\n';
    const linkifier = new MarkdownLinkifier();
    let max = 0;
    const chunks: MarkdownChunk[] = [];
    for (let i = 0; i < fence.length; i += 65536) {
      chunks.push(...linkifier.push(fence.slice(i, i + 65536)));
      max = Math.max(max, linkifier.pending);
    }
    chunks.push(...linkifier.end());
    expect(max).to.be.below(DEFAULT_MAX_PIECE_LENGTH + 65536 + 64);
    expect(chunks.filter((c) => c.type === 'link').map((c) => c.text)).to.deep.equal(['https://after.example/']);
  });

  it('resolves a reference defined after a long stretch of text in the whole-text functions', () => {
    const source = '[docs] at the top\n\n' + 'filler paragraph.\n\n'.repeat(2000) + '[docs]: https://docs.example/\n';
    const links = findMarkdownLinks(source);
    expect(links.map((l) => [l.construct, l.text, l.uri])).to.deep.equal([
      ['link-reference', 'docs', 'https://docs.example/'],
      ['definition', 'https://docs.example/', 'https://docs.example/'],
    ]);
    // The stream cannot look ahead: the use is text there, the definition is still a link.
    expect(streamed([source]).filter((c) => c.type === 'link').map((c) => (c.type === 'link' ? c.construct : ''))).to.deep.equal(['definition']);
  });
});

describe('Markdown mode: unlinked spans (http(s) userinfo without a password), as in plain mode', () => {
  /** Links between ⸠ ⸡ (construct after a non-bare one), unlinked spans (a text chunk with `userinfo`) between ⸢ ⸣. */
  function spans(source: string, options?: MarkdownLinkOptions): string {
    return linkifyMarkdown(source, options)
      .map((c) => (c.type === 'link' ? `⸠${c.text}⸡${c.construct === 'bare' ? '' : `{${c.construct}}`}` : c.diagnostics?.includes('userinfo') ? `⸢${c.text}⸣` : c.text))
      .join('');
  }
  const cases: [string, string][] = [
    ['log in at https://bank.example@evil.example/login now', 'log in at ⸢https://bank.example@evil.example/login⸣ now'],
    ['# **https://www.paypal.com@phish.example.net/** and https://ok.example/', '# **⸢https://www.paypal.com@phish.example.net/⸣** and ⸠https://ok.example/⸡'],
    // Not bare text: code, link text, a destination the author wrote (a link, as before), inline HTML.
    ['`https://a@b.example.org/` and\n\n    https://a@b.example.org/', '`https://a@b.example.org/` and\n\n    https://a@b.example.org/'],
    ['[https://a@b.example.org/](https://ok.example/)', '[https://a@b.example.org/](⸠https://ok.example/⸡{link})'],
    ['[x](https://a@b.example.org/)', '[x](⸠https://a@b.example.org/⸡{link})'],
    ['<a href="x">https://a@b.example.org/</a> <span title="https://a@b.example.org/">', '<a href="x">https://a@b.example.org/</a> <span title="https://a@b.example.org/">'],
    // A password is visible: linked (and flagged) as in plain mode.
    ['see https://user:pass@example.com/a', 'see ⸠https://user:pass@example.com/a⸡'],
  ];
  for (const [input, expected] of cases) {
    it(expected, () => {
      expect(spans(input)).to.equal(expected);
      expect(spans(input, { gfm: false })).to.equal(expected);
    });
  }

  it('in list items and table cells too', () => {
    const source = '- item http://john.smith@example.com\n- | a | http://a@b.example.org/x |\n  |---|---|\n';
    expect(spans(source)).to.equal('- item ⸢http://john.smith@example.com⸣\n- | a | ⸢http://a@b.example.org/x⸣ |\n  |---|---|\n');
  });

  it('the span is text: findMarkdownLinks leaves it out, the chunks still cover the source, the stream agrees', () => {
    const source = 'a https://bank.example@évil.example/パス b https://ok.example/ `https://c@d.example/`\n\n**http://x@y.example.org**\n';
    expect(findMarkdownLinks(source).map((l) => l.text)).to.deep.equal(['https://ok.example/']);
    const chunks = linkifyMarkdown(source);
    expect(chunks.map((c) => c.text).join('')).to.equal(source);
    const flagged = chunks.filter((c) => c.type === 'text' && c.diagnostics !== undefined);
    expect(flagged.map((c) => [c.text, c.diagnostics])).to.deep.equal([
      ['https://bank.example@évil.example/パス', ['userinfo']],
      ['http://x@y.example.org', ['userinfo']],
    ]);
    for (let i = 0; i <= source.length; i++) expect(streamed([source.slice(0, i), source.slice(i)]), `split at ${i}`).to.deep.equal(chunks);
  });
});

describe('Markdown mode: destinations get the spoofing diagnostics bare links get', () => {
  it('userinfo before the host, and bidi controls, in an inline link or an autolink', () => {
    const links = findMarkdownLinks('[x](https://bank.example@evil.example/) <https://u:p@evil.example/> [y](https://a.example/\u202Efdp.exe) [ok](https://ok.example/a)');
    // The RLO inside the third destination is still open at the fourth link (same line): `bidi-embedded`.
    expect(links.map((l) => l.diagnostics)).to.deep.equal([['userinfo'], ['userinfo'], ['bidi-control'], ['bidi-embedded']]);
  });
  it('and the HTML renderer does not make them clickable', () => {
    const html = toHtml(linkifyMarkdown('[x](https://bank.example@evil.example/) [ok](https://ok.example/a)'));
    expect(html).to.equal(
      '[x](<span class="irilink-unsafe" title="userinfo">https://bank.example@evil.example/</span>) ' +
        '[ok](<a href="https://ok.example/a" rel="nofollow noopener noreferrer">https://ok.example/a</a>)',
    );
  });
});

describe('Markdown mode: options', () => {
  it('passes detection options on and checks its own', () => {
    expect(mark('example.com and https://a.example/', { schemeless: false })).to.equal('example.com and ⸠https://a.example/⸡');
    // Without GFM, ~~ is no delimiter: the detector decides, as in plain text (a run around the link is markup, one
    // inside it is the link's: UTS #58 Include).
    expect(mark('~~https://x.example/~~', { gfm: false })).to.equal('~~⸠https://x.example/⸡~~');
    expect(mark('~~https://x.example/a~~b', { gfm: false })).to.equal('~~⸠https://x.example/a~~b⸡');
    expect(mark('~~https://x.example/a~~b')).to.equal('~~⸠https://x.example/a⸡~~b'); // GFM: struck through
    expect(() => linkifyMarkdown('x', { gfm: 'yes' as unknown as boolean })).to.throw(TypeError);
    expect(() => linkifyMarkdown('x', { nope: 1 } as unknown as MarkdownLinkOptions)).to.throw(TypeError);
    expect(() => linkifyMarkdown(3 as unknown as string)).to.throw(TypeError);
  });
});

describe('Markdown mode: toMarkdownSource', () => {
  const source = [
    'see https://例え.jp/パス。 **https://x.example/a_b** `https://code.example/` [a](https://b.example)',
    '',
    '- 名前@例え.jp and www.example.com/[x]/y https://a.example/*x*',
    '',
    '```',
    'https://fenced.example/',
    '```',
    '',
  ].join('\n');
  const expected = [
    'see [https://例え.jp/パス](<https://xn--r8jz45g.jp/%E3%83%91%E3%82%B9>)。 **<https://x.example/a_b>** `https://code.example/` [a](https://b.example)',
    '',
    // (the uri of www.example.com/[x]/y is the detector's: whether it encodes [ ] in a path is its business)
    `- [名前@例え.jp](<mailto:%E5%90%8D%E5%89%8D@xn--r8jz45g.jp>) and [www.example.com/\\[x\\]/y](<${findLinks('www.example.com/[x]/y')[0]!.uri}>) <https://a.example/>*x*`,
    '',
    '```',
    'https://fenced.example/',
    '```',
    '',
  ].join('\n');

  it('makes bare links Markdown links and copies everything else', () => {
    expect(toMarkdownSource(linkifyMarkdown(source))).to.equal(expected);
  });

  it('is idempotent, and the reference parser finds exactly the links irilink found', () => {
    const out = toMarkdownSource(linkifyMarkdown(source));
    expect(toMarkdownSource(linkifyMarkdown(out))).to.equal(out);
    const hrefs: string[] = [];
    const walker = new commonmark.Parser().parse(out).walker();
    for (let step = walker.next(); step; step = walker.next()) {
      if (step.entering && step.node.type === 'link') hrefs.push(step.node.destination ?? '');
    }
    // commonmark.js percent-encodes [ and ] in destinations (mdurl encode); so does the comparison.
    expect(hrefs).to.deep.equal(findMarkdownLinks(source).map((l) => mdurl.encode(l.uri)));
  });

  it('keeps a literal backslash before a bare link literal (CommonMark §2.4), and stays idempotent', () => {
    // Before the bare name an escaped backslash, shown as one: after a single `\` a name is a path segment, no link
    // (src/detect/domains.ts), as in plain mode.
    const source = 'C:\\https://a.example/ and \\\\www.example.com and \\\\https://b.example/ x\\\\\\https://c.example/';
    const out = toMarkdownSource(linkifyMarkdown(source));
    expect(out).to.equal('C:\\\\<https://a.example/> and \\\\www.example.com and \\\\<https://b.example/> x\\\\\\\\<https://c.example/>');
    expect(toMarkdownSource(linkifyMarkdown(out))).to.equal(out);
    // what a reader sees: the same text as the source shows, and every link
    const render = (md: string): string => new commonmark.HtmlRenderer().render(new commonmark.Parser().parse(md));
    expect(render(out).replace(/<[^>]*>/g, '')).to.equal(render(source).replace(/<[^>]*>/g, ''));
    expect(render(out).match(/<a href/g)?.length).to.equal(3);
  });

  it('after `!` or `]` writes the autolink form, so no image and no full reference is made (found in review)', () => {
    // (A label in another script: `[foo]www.example.com` shows `foowww.example.com`, a link glued to a name: hidden-split.)
    const source = '[фу]: /u\n\nwow!www.example.com and [фу]www.example.com and 見て!https://例え.jp/ and ![i](/i.png)';
    const out = toMarkdownSource(linkifyMarkdown(source));
    expect(out).to.equal(
      '[фу]: /u\n\nwow!<https://www.example.com> and [фу]<https://www.example.com> and 見て!<https://xn--r8jz45g.jp/> and ![i](/i.png)',
    );
    expect(toMarkdownSource(linkifyMarkdown(out))).to.equal(out);
    const html = new commonmark.HtmlRenderer().render(new commonmark.Parser().parse(out));
    expect(html.match(/<img/g)?.length).to.equal(1); // the author's image only
    expect(html).to.include('<a href="/u">фу</a>');
    expect(html.match(/<a href/g)?.length).to.equal(4);
  });

  it('leaves a link a renderer refuses as text', () => {
    const chunks = linkifyMarkdown('see https://раураl.com/ now');
    expect(chunks.some((c) => c.type === 'link' && c.diagnostics.includes('mixed-script-host'))).to.equal(true);
    // Escaped so that no autolinker (GFM, markdown-it's linkify) links it again; it shows as written.
    expect(toMarkdownSource(chunks)).to.equal('see https\\://раураl\\.com/ now');
    const html = new commonmark.HtmlRenderer().render(new commonmark.Parser().parse(toMarkdownSource(chunks)));
    expect(html).to.equal('<p>see https://раураl.com/ now</p>\n');
    expect(new MarkdownIt({ linkify: true }).render(toMarkdownSource(chunks))).to.equal('<p>see https://раураl.com/ now</p>\n');
  });

  it('escapes an unlinked span marked unsafe, and leaves an escape the source wrote as it is', () => {
    const chunks = linkifyMarkdown('go https://bank.example@evil.example/ or a\\.b https://раураl.com/x\\.y');
    expect(toMarkdownSource(chunks)).to.equal('go https\\://bank\\.example\\@evil\\.example/ or a\\.b https\\://раураl\\.com/x\\.y');
  });
});

describe('Markdown mode: cutting into pieces changes nothing', () => {
  // Blocks that run on across blank lines, or nest, or look like they do; each with a bare link and a construct.
  const blocks = [
    'Para https://p.example/ and [l](https://l.example/).',
    '```\ncode https://c.example/\n\nhttps://c2.example/\n```',
    '~~~~\nhttps://t.example/\n\n```\nhttps://t2.example/\n~~~~',
    '- item https://i.example/\n\n  ```\n  https://ic.example/\n\n  more\n  ```',
    '- item\n\n  ```\n  https://open.example/',
    '1. one\n2. two https://o.example/',
    '3) three https://o3.example/',
    '> quote https://q.example/\n> ```\n> https://qc.example/',
    '<!--\nhttps://h.example/\n\nhttps://h2.example/\n-->',
    '<script>\nhttps://s.example/\n\n</script>',
    '<div>\nhttps://d.example/\n</div>',
    '    indented https://ind.example/',
    '[def]: https://def.example/ "t"',
    'Use [def] and <https://a.example/>.',
    '# Heading https://hd.example/',
    '  ```\n  indented fence https://if.example/\n\nhttps://if2.example/\n  ```',
    '| a | b |\n|---|:-:|\n| https://cell.example/|x | ~~https://st.example/~~ |',
    '> | q | https://qt.example/|y |\n> | --- | --- |\n> | https://qt2.example/|z | w |',
    '* | l | https://lt.example/|y |\n  |---|---|',
    'x ~https://tilde.example/~ and a|b https://pipe.example/|c',
    '',
  ];

  it('equals one parse of the whole text (random documents over many pieces, CommonMark and GFM)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: blocks.length - 1 }), { minLength: 80, maxLength: 200 }), fc.boolean(), fc.boolean(), (picks, tight, gfm) => {
        const text = picks.map((k) => blocks[k]!).join(tight ? '\n' : '\n\n') + '\n';
        const parser = createParser(gfm ? [gfmStrikethrough(), gfmTable()] : []);
        const ctx = { parser, scanner: createScanner(), definitions: new Map<string, string>(), documentCharset: undefined, definitionsLinked: new Set<string>() };
        // The reference: micromark (as the linkifier sets it up) over the whole text at once.
        const once = piecesLinks(ctx, text, 0, 0).map((l) => `${l.start}:${l.text}:${l.construct}`);
        const cut = findMarkdownLinks(text, { gfm }).map((l) => `${l.start}:${l.text}:${l.construct}`);
        expect(cut).to.deep.equal(once);
      }),
      { numRuns: 40 },
    );
  });
});

describe('Markdown mode: the Markdown sample of corpora/', () => {
  it('finds the written links, the bare links of text and tables, and nothing in code', () => {
    const source = readFileSync(new URL('../corpora/samples/markdown.txt', import.meta.url), 'utf8');
    expect(findMarkdownLinks(source).map((l) => `${l.construct} ${l.text}`)).to.deep.equal([
      'link https://example.com/docs/guide.html',
      'autolink https://example.org/path?q=1',
      'link https://ja.wikipedia.org/wiki/東京',
      'link https://en.wikipedia.org/wiki/Mercury_(planet)',
      'link https://ru.wikipedia.org/wiki/%D0%81%D1%84%D0%B8%D0%BA%D0%B0%D1%82%D0%BE%D1%80',
      'bare www.example.com/start',
      'bare example.net',
      'bare dev@example.org',
      'image https://example.com/img/logo.png',
      'bare https://de.example.com/über-uns',
      'bare https://例え.jp/会社概要',
      'definition https://example.net/reference',
      'bare http://example.org/quoted/',
    ]);
  });
});
