// hidden-split: an invisible character (one UTS #46 maps to nothing, or ZWNJ/ZWJ) inside a name. UTS #58 §4.1 ends a
// host at it, so `https://pay\u00ADpal.com/login` — `https://paypal.com/login` to a reader, and to a browser given
// the whole URL — was two clean links, `https://pay` and `pal.com/login`, the second going to pal.com.
import { expect } from 'chai';
import { PassThrough } from 'node:stream';
import { parseFragment } from 'parse5';
import { createLinkStream, findLinks, linkify, toHtml, UNSAFE_DIAGNOSTICS } from '../src/index.js';
import type { Chunk, Link } from '../src/index.js';
import { streamLinks } from './detect-support.js';

/** UTS #46 (IdnaMappingTable, status `ignored`) and ZWNJ/ZWJ: one of each range. */
const HIDDEN = [0xad, 0x34f, 0x115f, 0x1160, 0x17b4, 0x180b, 0x180e, 0x180f, 0x200b, 0x200c, 0x200d, 0x2060, 0x2064, 0x206a, 0x206f, 0x3164, 0xfe00, 0xfe0f, 0xfeff, 0xffa0, 0x1bca0, 0x1d173, 0xe0100, 0xe01ef];

const brief = (links: readonly Link[]): [string, string[]][] => links.map((l) => [l.text, l.diagnostics]);

describe('security: an invisible character inside a name flags the links it cuts (hidden-split)', () => {
  it('https://pay<U+00AD>pal.com/login: both parts flagged, neither clickable in HTML', () => {
    const text = 'log in at https://pay\u00ADpal.com/login today';
    expect(brief(findLinks(text))).to.deep.equal([
      ['https://pay', ['hidden-split']],
      ['pal.com/login', ['hidden-split']],
    ]);
    expect(UNSAFE_DIAGNOSTICS).to.include('hidden-split');
    const html = toHtml(linkify(text));
    expect(html).to.not.include('<a ');
    expect(parseFragment(html).childNodes.filter((n) => n.nodeName === 'span')).to.have.length(2);
  });

  it('every character UTS #46 ignores, ZWNJ and ZWJ, in a host after a scheme and in a bare name', () => {
    for (const cp of HIDDEN) {
      const h = String.fromCodePoint(cp);
      const label = `U+${cp.toString(16).toUpperCase()}`;
      for (const text of [`see https://pay${h}pal.com/login now`, `see www.pay${h}pal.com now`, `mail bo${h}b@example.com now`]) {
        const links = findLinks(text);
        expect(links.length, `${label} ${JSON.stringify(text)}`).to.be.above(0);
        // A link that holds the character (an email's local part takes a mark such as U+034F) cuts nothing.
        for (const link of links) {
          if (!link.text.includes(h)) expect(link.diagnostics, `${label} ${link.text}`).to.include('hidden-split');
        }
      }
    }
  });

  it('a TLD cut short (example.co<ZWSP>m shows example.com, links example.co), an email, digits after the TLD', () => {
    expect(brief(findLinks('go to example.co\u200Bm now'))).to.deep.equal([['example.co', ['hidden-split']]]);
    expect(brief(findLinks('bob@example.co\u2060m'))).to.deep.equal([['bob@example.co', ['hidden-split']]]);
    expect(brief(findLinks('bo\u200Bb@example.com'))).to.deep.equal([['b@example.com', ['hidden-split']]]);
    expect(brief(findLinks('example.com\uFEFF123'))).to.deep.equal([['example.com', ['hidden-split']]]);
    // Before a link written with its scheme, the glued name changes the scheme shown (`xhttps://…`), not the host: no
    // flag. After it, or before a link without one, it does.
    expect(brief(findLinks('x\u200Bhttps://evil.example/ and x\u00ADmailto:bob@evil.com'))).to.deep.equal([['https://evil.example/', []], ['mailto:bob@evil.com', []]]);
    expect(brief(findLinks('https://evil.example\u200Bx and x\u00ADwww.evil.com'))).to.deep.equal([['https://evil.example', ['hidden-split']], ['www.evil.com', ['hidden-split']]]);
    // Cyrillic next to Cyrillic, Latin with an accent next to Latin.
    expect(brief(findLinks('пример\u200Bсайт.рф'))).to.deep.equal([['сайт.рф', ['hidden-split']]]);
    expect(brief(findLinks('café\u00ADexample.com'))).to.deep.equal([['example.com', ['hidden-split']]]);
  });

  it('a run of invisible characters, Korean and Japanese names, an invisible character before a host dot (found by review)', () => {
    // Two in a row gave two clean links.
    expect(brief(findLinks('https://pay\u00AD\u00ADpal.com/login'))).to.deep.equal([
      ['https://pay', ['hidden-split']],
      ['pal.com/login', ['hidden-split']],
    ]);
    expect(brief(findLinks('see www.pay\uFE0F\u00AD\u200Bpal.com'))).to.deep.equal([['www.pay', ['hidden-split']], ['pal.com', ['hidden-split']]]);
    // Korean is written with spaces; in Japanese only U+200B keeps words apart, a soft hyphen does not.
    for (const text of ['https://카카오\u00AD뱅크.com/login', 'https://グー\u00ADグル.jp/', 'https://グー\u2060グル.jp/']) {
      const links = findLinks(text);
      expect(links.length, text).to.be.above(0);
      for (const link of links) expect(link.diagnostics, `${text} ${link.text}`).to.include('hidden-split');
    }
    // `login.example` followed by an invisible character and `.paypal.com`: a subdomain of paypal.com to a reader.
    expect(brief(findLinks('https://login.example\u00AD.paypal.com/'))).to.deep.equal([['https://login.example', ['hidden-split']]]);
    // A run longer than the scanner's left context (8 units) is not looked through: the same answer in pieces.
    const long = 'pay' + '\u200B'.repeat(9) + 'pal.com';
    expect(brief(streamLinks([long.slice(0, 8), long.slice(8)]))).to.deep.equal(brief(findLinks(long)));
  });

  it('not flagged: an invisible character between words of a script written without spaces, before punctuation or a space, or inside a path', () => {
    const clean = [
      'ดูที่ example.com\u200Bแล้ว',
      'ดูที่\u200Bexample.com',
      'ดูที่\u200Bตัวอย่าง.ไทย',
      '東京\u200Bexample.com',
      'see example.com\u200B, ok',
      'see https://a.example/x\u200B y',
      'https://a.example/p\u200Bath',
      'https://a.example/x\u200B\u200Bab', // in the path: one link, Include characters
      'see\u200B https://a.example/',
      'emoji \u{1F44D}\u200Dexample.com',
    ];
    for (const text of clean) {
      const links = findLinks(text);
      expect(links.length, JSON.stringify(text)).to.be.above(0);
      for (const link of links) expect(link.diagnostics, JSON.stringify(text)).to.not.include('hidden-split');
    }
  });

  it('a ZWNJ or ZWJ where no label may hold it (RFC 5892 CONTEXTJ) is outside the name, as any invisible character', () => {
    // After an ASCII letter, a space, a symbol or at a label's start: UTS #46 would fail the host (idna-failed, a
    // percent-encoded uri); the name a reader sees starts after it.
    expect(brief(findLinks('x\u200Df.org and a\u200Cb.example.org'))).to.deep.equal([['f.org', ['hidden-split']], ['b.example.org', ['hidden-split']]]);
    expect(brief(findLinks('\u200Df.org, a \u200Cg.org and \u{1F44D}\u200Dexample.com'))).to.deep.equal([['f.org', []], ['g.org', []], ['example.com', []]]);
    expect(brief(findLinks('f\u200D.org and x \u200D.f.org'))).to.deep.equal([]);
    // After a virama (Devanagari) or an Arabic letter (Persian), a label holds it.
    for (const text of ['क्\u200Dष.org', 'مثال\u200Cکتاب.ایران']) {
      const links = findLinks(text);
      expect(brief(links), text).to.deep.equal([[text, []]]);
      expect(links[0]!.uri, text).to.match(/^https:\/\/xn--/);
    }
  });

  it('the same links and diagnostics through the scanner in pieces (exact left context) and through the stream, at every split', async () => {
    const texts = [
      'log in at https://pay\u00ADpal.com/login today',
      'a p\u200Baypal.com b bo\u200Bb@example.co\u2060m c',
      'https://pay\u00AD\u00AD\u200Bpal.com/ x.example\u2060\u2060.evil.example y' + '\u200B'.repeat(8) + 'z.example',
      'x\u{E0100}https://evil.example/ and example.co\u200Bm.',
      'ดูที่ example.com\u200Bแล้ว https://pay\u{1D173}pal.com/',
      'x\u200Df.org a\u200Db.example.org \u200Cg.org f\u200D.org क्\u200Dष.org',
    ];
    for (const text of texts) {
      const whole = brief(findLinks(text));
      for (let k = 0; k <= text.length; k++) {
        expect(brief(streamLinks([text.slice(0, k), text.slice(k)])), `${JSON.stringify(text)} at ${k}`).to.deep.equal(whole);
      }
      const units = [...text].map((c) => c); // one code point a write
      expect(brief(streamLinks(units)), JSON.stringify(text)).to.deep.equal(whole);
      const stream = createLinkStream();
      const chunks: Chunk[] = [];
      stream.on('data', (c: Chunk) => chunks.push(c));
      const done = new Promise((resolve) => stream.on('end', resolve));
      const bytes = Buffer.from(text);
      const source = new PassThrough();
      source.pipe(stream);
      for (let i = 0; i < bytes.length; i += 3) source.write(bytes.subarray(i, i + 3));
      source.end();
      await done;
      const streamed = chunks.filter((c) => c.type === 'link').map((c) => [c.text, c.diagnostics] as [string, string[]]);
      expect(streamed, JSON.stringify(text)).to.deep.equal(whole);
    }
  });
});
