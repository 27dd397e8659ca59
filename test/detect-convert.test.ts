// What each link carries (DESIGN.md): kind, scheme, uri (RFC 3987 §3.1 + UTS #46), iri (RFC 3987 §3.2) and
// diagnostics, for representative links; and the plain-ASCII fast path checked against the full conversion.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { toValidUri } from '../src/detect/convert.js';
import { findLinks, linkify } from '../src/detect/index.js';
import { isIri } from '../src/iri/parse.js';
import { linkifyMarkdown } from '../src/index.js';
import { toIri } from '../src/iri/to-iri.js';
import { toLinkUri } from '../src/iri/to-uri.js';
import { sharedPath } from './support/shared.js';
import { streamLinks } from './detect-support.js';

function only(text: string) {
  const links = findLinks(text);
  expect(links, text).to.have.length(1);
  return links[0]!;
}

describe('detect: link fields', () => {
  it('an IDN host becomes xn-- in the uri and stays readable in the iri', () => {
    const link = only('see https://例え.jp/パス。');
    expect(link).to.deep.include({
      start: 4,
      end: 4 + 'https://例え.jp/パス'.length,
      text: 'https://例え.jp/パス',
      kind: 'url',
      scheme: 'https',
      schemeInferred: false,
      uri: 'https://xn--r8jz45g.jp/%E3%83%91%E3%82%B9',
      iri: 'https://例え.jp/パス',
      diagnostics: [],
    });
  });
  it('a non-ASCII path is percent-encoded as UTF-8, existing %XX untouched', () => {
    expect(only('https://example.com/résumé%20x').uri).to.equal('https://example.com/r%C3%A9sum%C3%A9%20x');
  });
  it('a schemeless link gets https; an email gets mailto', () => {
    expect(only('例え.jp/パス')).to.deep.include({ scheme: 'https', schemeInferred: true, uri: 'https://xn--r8jz45g.jp/%E3%83%91%E3%82%B9' });
    expect(only('αβγ.δεζ@example.com')).to.deep.include({
      kind: 'email',
      scheme: 'mailto',
      schemeInferred: true,
      uri: 'mailto:%CE%B1%CE%B2%CE%B3.%CE%B4%CE%B5%CE%B6@example.com',
      iri: 'mailto:αβγ.δεζ@example.com',
    });
    expect(only('mailto:user@例え.jp')).to.deep.include({ schemeInferred: false, uri: 'mailto:user@xn--r8jz45g.jp' });
  });
  it('an address with / ? # in its local part: the mailto uri percent-encodes them (RFC 6068 §2)', () => {
    // UTS #58 Link_Email takes RFC 5322 atext, so these are one address; written raw after `mailto:` they would be a
    // path segment, a query or a fragment of another one.
    expect(only('see a?b@example.com')).to.deep.include({ text: 'a?b@example.com', uri: 'mailto:a%3Fb@example.com', iri: 'mailto:a%3Fb@example.com' });
    expect(only('see a#b@example.com')).to.deep.include({ uri: 'mailto:a%23b@example.com', iri: 'mailto:a%23b@example.com' });
    expect(only('see //a@example.com')).to.deep.include({ text: '//a@example.com', uri: 'mailto:%2F%2Fa@example.com' });
    expect(only('see été/x@example.com')).to.deep.include({ uri: 'mailto:%C3%A9t%C3%A9%2Fx@example.com', iri: 'mailto:été%2Fx@example.com' });
    // The iri is found again as the same address.
    for (const text of ['a/b@example.com', 'a?b#c@example.com']) {
      const { iri } = only(`see ${text}`);
      expect(only(`see ${iri} ok`).text).to.equal(iri);
    }
    // Written with its scheme, the text is a URI as it stands: `?` starts the query.
    expect(only('see mailto:a@example.com?subject=a/b').uri).to.equal('mailto:a@example.com?subject=a/b');
    expect(only('see mailto:a/b@example.com').uri).to.equal('mailto:a/b@example.com');
  });
  it('the scheme is lower-cased', () => {
    expect(only('HTTPS://EXAMPLE.COM/A').scheme).to.equal('https');
  });
  it('an IDNA failure is reported with a diagnostic and the host percent-encoded', () => {
    const link = only('https://ab--c.例え.jp/');
    expect(link.diagnostics).to.include('idna-failed');
    expect(link.uri).to.equal('https://ab--c.%E4%BE%8B%E3%81%88.jp/');
  });
  it('a mixed-script host label is flagged', () => {
    expect(only('http://аpple.com/').diagnostics).to.include('mixed-script-host'); // Cyrillic а
    expect(only('https://例え.jp/').diagnostics).to.not.include('mixed-script-host');
  });
  it('userinfo is flagged', () => {
    expect(only('https://user:pass@example.com/').diagnostics).to.deep.equal(['userinfo']);
  });
  it('a bidi component problem is flagged (RFC 3987 §4.2)', () => {
    expect(only('https://example.com/abcאבג').diagnostics).to.include('bidi-component');
    expect(only('https://example.com/אבג').diagnostics).to.not.include('bidi-component');
  });
  it('an invalid percent-encoding is flagged', () => {
    expect(only('https://example.com/a%zz').diagnostics).to.deep.equal(['invalid-percent-encoding']);
    expect(only('https://example.com/a%2F').diagnostics).to.deep.equal([]);
  });
  it('a bidi control after the link is flagged', () => {
    expect(only('https://example.com/a\u202Eb').diagnostics).to.deep.equal(['bidi-control']);
  });
  it('a file: drive letter is the path\'s, `|` written `:`, as browsers read it (WHATWG URL file host and path states)', () => {
    for (const [text, uri] of [
      ['file://c|/autoexec.bat', 'file:///c:/autoexec.bat'],
      ['file://C:/Temp/x.txt', 'file:///C:/Temp/x.txt'],
      ['FILE:///d|/a', 'file:///d:/a'],
      ['file:///C:/x', 'file:///C:/x'],
      ['file://server/c|/x', 'file://server/c%7C/x'], // a host, then a path: no drive letter there
    ]) {
      expect(only(text!).uri, text).to.equal(uri);
      expect(only(text!).iri, text).to.equal(uri);
    }
    // …and so in a Markdown destination, which the same conversion writes.
    const md = linkifyMarkdown('[a](file://c|/x.txt)').filter((c) => c.type === 'link');
    expect(md.map((c) => (c as { uri: string }).uri)).to.deep.equal(['file:///c:/x.txt']);
  });
  it('the uri of a link in a document charset encodes the query in it (3987bis §3.5)', () => {
    const [link] = findLinks('http://example.jp/検索?q=日本', { documentCharset: 'Shift_JIS' });
    expect(link!.uri).to.equal('http://example.jp/%E6%A4%9C%E7%B4%A2?q=%93%FA%96%7B');
    // The iri is made from the uri (RFC 3987 §3.2): the query's Shift_JIS escapes are not UTF-8 and stay (README).
    expect(link!.iri).to.equal('http://example.jp/検索?q=%93%FA%96%7B');
  });
  it('the iri keeps a document-charset query\'s escapes as written, also where they happen to be UTF-8 (found in review)', () => {
    // EUC-KR C7 A1 is 퐈; read as UTF-8 it would be ǡ (U+01E1). Big5 writes 兀 with an ASCII trail byte, A4 61.
    for (const [text, charset, uri, iri] of [
      ['http://a.kr/?q=퐈', 'euc-kr', 'http://a.kr/?q=%C7%A1', 'http://a.kr/?q=%C7%A1'],
      ['http://a.tw/?q=兀', 'big5', 'http://a.tw/?q=%A4%61', 'http://a.tw/?q=%A4%61'],
      // Escapes written in the text (the fast conversion) and in a path or fragment, which are UTF-8 (WHATWG URL).
      ['http://a.kr/?q=%C7%A1', 'euc-kr', 'http://a.kr/?q=%C7%A1', 'http://a.kr/?q=%C7%A1'],
      ['HTTP://a.kr/%C7%A1?q=%C7%A1#%C7%A1', 'euc-kr', 'http://a.kr/%C7%A1?q=%C7%A1#%C7%A1', 'http://a.kr/ǡ?q=%C7%A1#ǡ'],
      ['http://a.kr/퐈?q=%7e#퐈', 'euc-kr', 'http://a.kr/%ED%90%88?q=%7e#%ED%90%88', 'http://a.kr/퐈?q=%7e#퐈'],
      // After an IDNA failure the query is still in the charset.
      ['https://ab--c.例え.kr/?q=퐈', 'euc-kr', 'https://ab--c.%E4%BE%8B%E3%81%88.kr/?q=%C7%A1', 'https://ab--c.例え.kr/?q=%C7%A1'],
    ]) {
      const [link] = findLinks(text!, { documentCharset: charset! });
      expect([link!.uri, link!.iri], text).to.deep.equal([uri, iri]);
    }
    // A UTF-8 document, a Unicode charset and a scheme other than http(s) decode the query as UTF-8 (RFC 3987 §3.2).
    expect(findLinks('http://a.kr/?q=%C7%A1')[0]!.iri).to.equal('http://a.kr/?q=ǡ');
    expect(findLinks('http://a.kr/?q=%C7%A1', { documentCharset: 'utf-16le' })[0]!.iri).to.equal('http://a.kr/?q=ǡ');
    expect(findLinks('ftp://a.kr/?q=%C7%A1', { documentCharset: 'euc-kr' })[0]!.iri).to.equal('ftp://a.kr/?q=ǡ');
  });
  it('an apostrophe right before the cut is read with what follows the cut, as one elsewhere (found in review)', () => {
    // P6 with `'…'`: `'s_b` goes on past the cut, so the link is cut there and flagged, wherever the `'` falls.
    for (let n = 41; n <= 46; n++) {
      const text = "'https://example.com/" + 'a'.repeat(n) + "'s_b' x";
      const [link] = findLinks(text, { maxLinkLength: 64 });
      expect([link!.end, link!.diagnostics], String(n)).to.deep.equal([64, ['link-too-long']]);
      // …and the same through the scanner fed one unit at a time.
      expect(streamLinks([...text], { maxLinkLength: 64 }).map((l) => l.end), String(n)).to.deep.equal([64]);
    }
  });
  it('a link cut at maxLinkLength is flagged', () => {
    const text = 'http://example.com/' + 'a'.repeat(200);
    const [link] = findLinks(text, { maxLinkLength: 100 });
    expect(link!.text).to.equal(text.slice(0, 100));
    expect(link!.diagnostics).to.deep.equal(['link-too-long']);
  });
});

describe('detect: the plain-ASCII fast path equals the full conversion', () => {
  const texts = [
    ...readFileSync(sharedPath('uts58', '17.0.0', 'LinkDetectionTest.txt'), 'utf8')
      .split('\n')
      .filter((l) => l !== '' && !l.startsWith('#'))
      .map((l) => l.replace(/[⸠⸡]/g, '')),
    'x@y.com mailto:a.b@c.org ssh://git@github.com/a file:///etc/hosts http://localhost:3000/a?b=c#d',
    'ftp://ftp.example.com/pub/ HTTP://Example.COM/ a-b.example.com/x_y~z http://[::1]/ tel:+1-555',
    'example.com/a[1]?b[2]#c#d http://[::1]/x[y] 0.org?%ZZ example.com## https://xn--a.co/ https://x_y.com/',
  ];
  it('for every link of the conformance lines and more', () => {
    let n = 0;
    for (const text of texts) {
      for (const link of findLinks(text)) {
        const iriText = link.schemeInferred ? (link.kind === 'email' ? 'mailto:' : link.scheme + '://') + link.text : link.text;
        let uri: string;
        try {
          uri = toLinkUri(iriText, 'idna', undefined, true);
        } catch {
          uri = toLinkUri(iriText, 'percent', undefined, true);
        }
        expect(link.uri, link.text).to.equal(toValidUri(uri));
        expect(link.iri, link.text).to.equal(toIri(uri));
        n++;
      }
    }
    expect(n).to.be.greaterThan(330);
  });
});

describe('detect: every uri is an RFC 3986 URI (issue 7)', () => {
  // The uri is what an href gets: toUri leaves `[` `]` `#` `%` alone where RFC 3987 §3.1 says they "MUST NOT be
  // converted"; the detector percent-encodes them where RFC 3986 has no place for them. The iri keeps the text.
  const cases: [string, string, string][] = [
    ['例え.jp/a[x]b', 'https://xn--r8jz45g.jp/a%5Bx%5Db', 'https://例え.jp/a[x]b'], //       §3.3 path
    ['http://é?[::1]', 'http://xn--9ca?%5B::1%5D', 'http://é?[::1]'], //                     §3.4 query
    ['example.com##', 'https://example.com#%23', 'https://example.com##'], //                §3.5 a second #
    ['https://example.com/?a[1]=b#x#y[z]w', 'https://example.com/?a%5B1%5D=b#x%23y%5Bz%5Dw', 'https://example.com/?a[1]=b#x#y[z]w'],
    ['0.org?%ZZ', 'https://0.org?%25ZZ', 'https://0.org?%ZZ'], //                           §2.1 a stray %
    ['http://a.com/%4', 'http://a.com/%254', 'http://a.com/%4'],
    ['http://[::1]/a[b]c', 'http://[::1]/a%5Bb%5Dc', 'http://[::1]/a[b]c'], //             the IP-literal keeps its brackets
    ['http://[2001:db8::7]:8080/', 'http://[2001:db8::7]:8080/', 'http://[2001:db8::7]:8080/'],
  ];
  for (const [text, uri, iri] of cases) {
    it(`${text} → ${uri}`, () => {
      const link = only(text);
      expect(link.text).to.equal(text);
      expect(link.uri).to.equal(uri);
      expect(link.iri).to.equal(iri);
      expect(isIri(link.uri, 'IRI'), link.uri).to.equal(true);
      expect(link.diagnostics.includes('invalid-percent-encoding')).to.equal(text.includes('%'));
    });
  }

  it('toValidUri encodes userinfo `@ [ ]` and leaves a URI alone', () => {
    expect(toValidUri('ssh://a[b]@c@host/x')).to.equal('ssh://a%5Bb%5D%40c@host/x');
    expect(toValidUri('mailto:a@[192.0.2.1]')).to.equal('mailto:a@%5B192.0.2.1%5D'); // RFC 6068 §2
    for (const uri of ['https://example.com/a%2Fb?c=d#e', 'http://[v1.x]/', 'file:///etc/hosts', 'urn:isbn:0451450523']) {
      expect(toValidUri(uri), uri).to.equal(uri);
    }
  });
});

describe('detect: ASCII hosts are checked by UTS #46 too', () => {
  it('an invalid ASCII host carries idna-failed and its uri is the host as written (the scheme in lower case)', () => {
    for (const [text, uri] of [
      ['https://xn--a.co/', 'https://xn--a.co/'], //                  invalid Punycode (new URL refuses it)
      ['HTTPS://XN--A.Co/', 'https://XN--A.Co/'],
      ['https://ab--c_d.com/', 'https://ab--c_d.com/'], //            CheckHyphens applies with `_` too
      ['https://a_b.xn--r8jz45g.jp/', 'https://a_b.xn--r8jz45g.jp/'], // `_` only in an all-ASCII host without xn--
      ['http://a_b.例え.jp/', 'http://a_b.%E4%BE%8B%E3%81%88.jp/'], // … and no non-ASCII label (vector IDN-22)
    ]) {
      const link = only(text!);
      expect(link.uri, text).to.equal(uri);
      expect(link.diagnostics, text).to.deep.equal(['idna-failed']);
    }
  });
  it('an all-ASCII host with `_` is taken as browsers take it (UseSTD3ASCIIRules=false for `_`): clickable', () => {
    for (const [text, uri] of [
      ['http://other_side.blogspot.com/', 'http://other_side.blogspot.com/'],
      ['HTTPS://A_B.Example.COM/x_Y', 'https://a_b.example.com/x_Y'],
      ['http://server_name/', 'http://server_name/'],
      ['ftp://_dmarc.example.org:21/', 'ftp://_dmarc.example.org:21/'],
    ]) {
      const link = only(text!);
      expect(link, text).to.deep.include({ uri, iri: uri, diagnostics: [] });
    }
  });
  it('a valid host of a DNS scheme is written as UTS #46 ToASCII writes it (lower case), the scheme in lower case', () => {
    expect(only('HTTPS://Example.COM/A')).to.deep.include({ uri: 'https://example.com/A', iri: 'https://example.com/A', diagnostics: [] });
    expect(only('https://XN--R8JZ45G.jp/')).to.deep.include({ uri: 'https://xn--r8jz45g.jp/', iri: 'https://例え.jp/', diagnostics: [] });
    expect(only('DeepEddy.Com/Page')).to.deep.include({ uri: 'https://deepeddy.com/Page', text: 'DeepEddy.Com/Page' });
    expect(only('John.Smith@Example.COM')).to.deep.include({ uri: 'mailto:John.Smith@example.com', diagnostics: [] });
    expect(only('MAILTO:John@Example.COM?Subject=Hi')).to.deep.include({ uri: 'mailto:John@example.com?Subject=Hi' });
    expect(only('FTP://User@Example.COM:21/P?Q#F')).to.deep.include({ uri: 'ftp://User@example.com:21/P?Q#F' });
    expect(only('http://Bücher.Example/Straße')).to.deep.include({
      uri: 'http://xn--bcher-kva.example/Stra%C3%9Fe',
      iri: 'http://bücher.example/Straße',
    });
  });
  it('other schemes keep their host as written (toUri maps only DNS hosts); the scheme is lower case', () => {
    expect(only('SSH://Git@GitHub.COM/x')).to.deep.include({ uri: 'ssh://Git@GitHub.COM/x', scheme: 'ssh' });
    expect(only('ssh://GitHub.COM/ü')).to.deep.include({ uri: 'ssh://GitHub.COM/%C3%BC', iri: 'ssh://GitHub.COM/ü' });
  });
});

describe('detect: linkify', () => {
  it('covers the input exactly with text and link chunks', () => {
    const text = 'see https://例え.jp/パス。 and mail x@example.com!';
    const chunks = linkify(text);
    expect(chunks.map((c) => c.type)).to.deep.equal(['text', 'link', 'text', 'link', 'text']);
    expect(chunks.map((c) => c.text).join('')).to.equal(text);
    for (const c of chunks) expect(text.slice(c.start, c.end)).to.equal(c.text);
    expect(chunks[1]).to.deep.include({ type: 'link', uri: 'https://xn--r8jz45g.jp/%E3%83%91%E3%82%B9' });
  });
  it('has no empty text chunk', () => {
    expect(linkify('example.com')).to.have.length(1);
    expect(linkify('')).to.deep.equal([]);
    expect(linkify('a.com b.com').map((c) => c.text)).to.deep.equal(['a.com', ' ', 'b.com']);
  });
});

describe('detect: conversion failures are values', () => {
  it('a query the document charset cannot hold: conversion-failed, the uri in UTF-8', () => {
    const [link] = findLinks('http://例え.jp/?q=한국어', { documentCharset: 'Shift_JIS' });
    expect(link!.diagnostics).to.include('conversion-failed');
    expect(link!.uri).to.equal('http://xn--r8jz45g.jp/?q=%ED%95%9C%EA%B5%AD%EC%96%B4');
  });
});
