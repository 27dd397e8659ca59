// API misuse across the public functions (DESIGN.md "Failure is a value": misuse is a TypeError with a message
// from src/errors.ts): unknown option names, arguments of the wrong type, how a message shows the value it got,
// and the defaultScheme a schemeless host can take.
import { expect } from 'chai';
import { findLinks, linkify } from '../src/detect/index.js';
import { badArgument, badOption } from '../src/errors.js';

// The functions are called the way a JavaScript caller could call them, past the types.
type Loose = (...args: unknown[]) => unknown;
const loose = (f: unknown): Loose => f as Loose;

describe('api: how a message shows the value it got', () => {
  const cases: [unknown, string][] = [
    [undefined, 'undefined'], // was "undefined undefined"
    [null, 'null'],
    ['x', '"x"'],
    ['a'.repeat(50), `"${'a'.repeat(40)}…"`],
    [42, '42'],
    [Number.NaN, 'NaN'],
    [true, 'true'],
    [10n, '10n'],
    [Symbol('x'), 'a symbol (Symbol(x))'], // was "symbol Symbol(x)"
    [() => 1, 'a function'], // was the function's source text
    [[1], 'an array'],
    [{ a: 1 }, 'an object'],
    [Object.create(null), 'an object'],
    [new Map(), 'a Map'],
    [new ArrayBuffer(1), 'an ArrayBuffer'],
  ];
  for (const [value, shown] of cases) {
    it(`${shown}`, () => {
      expect(badOption('links', 'a boolean', value).message).to.equal(`irilink: option links must be a boolean, got ${shown}`);
      expect(badArgument('toUri', 'iri', 'a string', value).message).to.equal(`irilink: toUri(): iri must be a string, got ${shown}`);
    });
  }
  it('the detector names the option it does not know, quoted, whatever characters it holds', () => {
    expect(() => findLinks('x', { 'a"b': true } as object)).to.throw(
      TypeError,
      'irilink: unknown option "a\\"b"; the known options are schemes, anyScheme, schemeless, email, defaultScheme, tlds, maxLinkLength, documentCharset',
    );
  });

  it('the options object itself is "options", not "option options"', () => {
    expect(() => loose(findLinks)('x', 42)).to.throw(TypeError, 'irilink: options must be an object or undefined, got 42');
    expect(() => linkify('x', undefined)).to.not.throw();
  });
  it('findLinks() with nothing says so once', () => {
    expect(() => loose(findLinks)()).to.throw(TypeError, /got undefined$/);
  });
});

describe('api: defaultScheme is a scheme written with // and a host', () => {
  const uri = (defaultScheme: string): string | undefined => findLinks('see www.example.com', { defaultScheme })[0]?.uri;

  it('schemes whose URIs have an authority are accepted, in lower case', () => {
    expect(uri('http')).to.equal('http://www.example.com');
    expect(uri('FTP')).to.equal('ftp://www.example.com');
    expect(uri('git+ssh')).to.equal('git+ssh://www.example.com');
  });
  for (const scheme of ['mailto', 'tel', 'urn', 'news', 'geo', 'magnet', 'sip', 'sips', 'xmpp', 'MAILTO']) {
    it(`${scheme} is refused (it gave ${scheme.toLowerCase()}://www.example.com)`, () => {
      expect(() => uri(scheme)).to.throw(
        TypeError,
        `irilink: option defaultScheme must be a scheme written with // and a host (as https://www.example.com), not one of mailto, tel, urn, news, geo, magnet, sip, sips, xmpp, got "${scheme}"`,
      );
    });
  }
  for (const bad of ['', '1http', 'ht tp', 'http:', 'https://', 'é', 'a'.repeat(33)]) {
    it(`${JSON.stringify(bad)} is not a scheme name (RFC 3986 §3.1)`, () => {
      expect(() => uri(bad)).to.throw(TypeError, /option defaultScheme must be a scheme name \(RFC 3986 §3\.1/);
    });
  }
  it('javascript, vbscript and data stay refused', () => {
    expect(() => uri('JavaScript')).to.throw(TypeError, /defaultScheme must be a scheme name other than javascript, vbscript or data/);
  });
});
