// What each link carries (DESIGN.md): kind, scheme, uri (RFC 3987 §3.1 + UTS #46), iri (RFC 3987 §3.2) and
// diagnostics, for representative links; and the plain-ASCII fast path checked against the full conversion.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { findLinks, linkify } from '../src/detect/index.js';
import { toIri } from '../src/iri/to-iri.js';
import { toUri } from '../src/iri/to-uri.js';
import { sharedPath } from './support/shared.js';

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
  it('the uri of a link in a document charset encodes the query in it (3987bis §3.5)', () => {
    const [link] = findLinks('http://example.jp/検索?q=日本', { documentCharset: 'Shift_JIS' });
    expect(link!.uri).to.equal('http://example.jp/%E6%A4%9C%E7%B4%A2?q=%93%FA%96%7B');
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
  ];
  it('for every link of the conformance lines and more', () => {
    let n = 0;
    for (const text of texts) {
      for (const link of findLinks(text)) {
        const iriText = link.schemeInferred ? (link.kind === 'email' ? 'mailto:' : link.scheme + '://') + link.text : link.text;
        let uri: string;
        try {
          uri = toUri(iriText, { host: 'idna', asciiDisallowed: 'encode' });
        } catch {
          uri = toUri(iriText, { host: 'percent', asciiDisallowed: 'encode' });
        }
        expect(link.uri, link.text).to.equal(uri);
        expect(link.iri, link.text).to.equal(toIri(uri));
        n++;
      }
    }
    expect(n).to.be.greaterThan(330);
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
