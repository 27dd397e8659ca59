// LinkOptions: validation (TypeError with a clear message) and effect; API misuse; no input makes findLinks throw.
import { expect } from 'chai';
import fc from 'fast-check';
import { createScanner, findLinks, linkify, type LinkOptions } from '../src/detect/index.js';
import { detectMarked } from './detect-support.js';

describe('detect: option validation', () => {
  const bad: [string, unknown][] = [
    ['options', 42],
    ['options', 'https'],
    ['options', null],
    ['schemes', 'http'],
    ['schemes', ['http', 42]],
    ['schemes', ['1http']],
    ['schemes', ['javascript']],
    ['schemes', ['DATA']],
    ['anyScheme', 'yes'],
    ['schemeless', 1],
    ['email', null],
    ['defaultScheme', 'javascript'],
    ['defaultScheme', 'ht tp'],
    ['tlds', 'com'],
    ['tlds', ['com', 'a.b']],
    ['tlds', ['']],
    ['maxLinkLength', 0],
    ['maxLinkLength', 10.5],
    ['maxLinkLength', '8192'],
    ['documentCharset', 'no-such-charset'],
    ['unknownOption', true],
  ];
  for (const [name, value] of bad) {
    it(`rejects ${name}: ${JSON.stringify(value)}`, () => {
      const options = (name === 'options' ? value : { [name]: value }) as LinkOptions;
      expect(() => findLinks('x', options)).to.throw(TypeError, /^irilink: (findLinks\(\): options must|option \w+ must|unknown option ")/);
      expect(() => createScanner(options)).to.throw(TypeError, name === 'options' ? /options/ : new RegExp(name));
    });
  }
  it('accepts the documented options', () => {
    expect(() =>
      createScanner({
        schemes: ['https', 'Foo'],
        anyScheme: false,
        schemeless: false,
        email: false,
        defaultScheme: 'http',
        tlds: ['com', 'テスト'],
        maxLinkLength: 64,
        documentCharset: 'EUC-JP',
      }),
    ).to.not.throw();
  });
});

describe('detect: option effects', () => {
  it('schemes: only the listed ones (plus generic scheme:// when anyScheme)', () => {
    expect(detectMarked('⸠tel:+1-555⸡ ⸠foo:bar⸡', { schemes: ['tel', 'foo'] })).to.equal('⸠tel:+1-555⸡ ⸠foo:bar⸡');
    expect(detectMarked('tel:+1-555 ⸠https://a.example/⸡', { schemes: ['https'] })).to.equal('tel:+1-555 ⸠https://a.example/⸡');
  });
  it('anyScheme false: no generic scheme://', () => {
    expect(detectMarked('spotify://track/x ⸠https://a.example/⸡', { anyScheme: false })).to.equal(
      'spotify://track/x ⸠https://a.example/⸡',
    );
  });
  it('schemeless false: only links with a scheme and emails', () => {
    expect(detectMarked('example.com ⸠https://example.com⸡ ⸠a@example.com⸡', { schemeless: false })).to.equal(
      'example.com ⸠https://example.com⸡ ⸠a@example.com⸡',
    );
  });
  it('email false: no email, and its domain is not linked alone', () => {
    expect(detectMarked('a@example.com ⸠example.org⸡', { email: false })).to.equal('a@example.com ⸠example.org⸡');
  });
  it('tlds: the list replaces the default one (both IDN forms accepted)', () => {
    expect(detectMarked('⸠例え.テスト⸡ example.com ⸠a.xn--zckzah⸡', { tlds: ['テスト'] })).to.equal(
      '⸠例え.テスト⸡ example.com ⸠a.xn--zckzah⸡',
    );
  });
});

describe('detect: API misuse', () => {
  for (const value of [undefined, null, 42, {}, ['x']]) {
    it(`findLinks and linkify throw a TypeError for text ${JSON.stringify(value)}`, () => {
      expect(() => findLinks(value as unknown as string)).to.throw(TypeError, /findLinks\(\): text must be a string/);
      expect(() => linkify(value as unknown as string)).to.throw(TypeError, /linkify\(\): text must be a string/);
    });
  }
  it('scan() checks its arguments', () => {
    const s = createScanner();
    expect(() => s.scan('abc', 4, true, 0)).to.throw(TypeError, /from/);
    expect(() => s.scan('abc', -1, true, 0)).to.throw(TypeError, /from/);
    expect(() => s.scan('abc', 0, 'yes' as unknown as boolean, 0)).to.throw(TypeError, /final/);
    expect(() => s.scan('abc', 0, true, 1.5)).to.throw(TypeError, /base/);
  });
  it('findLinks returns [] (never null) when there is nothing', () => {
    expect(findLinks('')).to.deep.equal([]);
    expect(findLinks('no links here.')).to.deep.equal([]);
  });
});

describe('detect: no input makes findLinks throw', () => {
  it('property: arbitrary Unicode strings (lone surrogates included)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => {
        const links = findLinks(text);
        let last = 0;
        for (const l of links) {
          expect(l.start).to.be.at.least(last);
          expect(l.end).to.be.greaterThan(l.start);
          expect(text.slice(l.start, l.end)).to.equal(l.text);
          last = l.end;
        }
      }),
      { numRuns: 1000 },
    );
  });
  it('property: strings built from link pieces', () => {
    const piece = fc.constantFrom(
      'https://', 'http://', 'mailto:', 'a', 'é', '例', 'ا', '.', '。', '．', '/', ':', '@', '%', '%4', '(', ')', '[', ']',
      '<', '>', '<URL:', '"', '“', '」', '、', ' ', '\n', '\u202E', '\u200D', 'com', 'jp', 'xn--', '-', '?', '#', '😀', '\uD800',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 60 }), (pieces) => {
        const text = pieces.join('');
        for (const l of findLinks(text)) expect(text.slice(l.start, l.end)).to.equal(l.text);
        expect(linkify(text).map((c) => c.text).join('')).to.equal(text);
      }),
      { numRuns: 2000 },
    );
  });
});
