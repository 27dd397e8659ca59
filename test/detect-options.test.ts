// LinkOptions: validation (TypeError with a clear message) and effect; API misuse; no input makes findLinks throw.
import { expect } from 'chai';
import fc from 'fast-check';
import { createScanner, findLinks, linkify, type LinkOptions } from '../src/detect/index.js';
import { toUri } from '../src/iri/to-uri.js';
import { isDocumentCharset, streamEncodings, whatwgLabels } from '../src/charsets.js';
import { IriError } from '../src/errors.js';
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

describe('detect: documentCharset takes the names toUri takes, the charsets a stream decodes (3987bis §3.5; one list, src/charsets.ts)', () => {
  // WHATWG single-byte labels iconv-lite lacks, iconv-lite's names, and names neither knows
  const names = [
    'x-mac-cyrillic', 'x-mac-ukrainian', 'X-MAC-CYRILLIC', ' x-mac-ukrainian\n', 'maccyrillic', 'x-cp1252', 'koi8', 'dos-874',
    'x-mac-roman', 'latin1', 'iso-8859-8-i', 'Shift_JIS', 'EUC-JP', 'gb18030', 'utf-8',
    'x-euc-jp', 'x-user-defined', 'replacement', 'iso-2022-kr', 'no-such-charset', 'x-mac-', 'x-mac-ukr',
    'base64', 'hex', 'utf-7', 'UTF7',
  ];
  it('accepted exactly where toUri accepts it; refused with a TypeError that names the option', () => {
    const got = names.map((name) => {
      let detector = 'ok';
      let uri = 'ok';
      try {
        createScanner({ documentCharset: name });
      } catch (e) {
        expect(e, name).to.be.instanceOf(TypeError);
        expect((e as Error).message, name).to.match(/^irilink: option documentCharset must be a charset a stream decodes and whose queries irilink encodes/);
        detector = 'refused';
      }
      try {
        toUri('http://x.example/?q=a', { documentCharset: name });
      } catch {
        uri = 'refused';
      }
      return [name, detector, uri];
    });
    expect(got.filter(([, d, u]) => d !== u)).to.deep.equal([]);
    expect(got.filter(([, d]) => d === 'refused').map(([n]) => n)).to.deep.equal([
      'x-user-defined', 'replacement', 'iso-2022-kr', 'no-such-charset', 'x-mac-', 'x-mac-ukr', 'base64', 'hex', 'utf-7', 'UTF7',
    ]);
  });
  it('every WHATWG label and every stream encoding: taken by both or refused by both, and a taken one encodes or fails with an IriError', () => {
    const odd: string[] = [];
    for (const name of [...whatwgLabels(), ...streamEncodings()]) {
      let scanner = true;
      try {
        createScanner({ documentCharset: name });
      } catch {
        scanner = false;
      }
      if (scanner !== isDocumentCharset(name)) odd.push(`${name}: scanner ${scanner}`);
      const q = 'http://example.com/?q=日本€é';
      let uri: string;
      try {
        toUri(q, { documentCharset: name });
        uri = 'ok';
      } catch (e) {
        uri = e instanceof IriError ? e.code : `${(e as Error).name}: ${(e as Error).message}`;
      }
      let found: string;
      try {
        found = findLinks(`see ${q}`, { documentCharset: name }).length === 1 ? 'ok' : 'not one link';
      } catch (e) {
        found = (e as Error).name;
      }
      // Taken: toUri encodes the query or finds a character the charset lacks, findLinks links it. Refused: toUri
      // says the charset is unknown, findLinks refuses the option.
      const want = scanner ? [['ok', 'unencodable-query'], ['ok']] : [['unknown-charset'], ['TypeError']];
      if (!want[0]!.includes(uri) || !want[1]!.includes(found)) odd.push(`${name}: toUri ${uri}, findLinks ${found}`);
    }
    expect(odd).to.deep.equal([]);
  });
  it('a WHATWG label iconv-lite spells otherwise encodes as its encoding: x-euc-jp as euc-jp, unicodefeff as UTF-8; ISO-2022-JP has no encoder', () => {
    const q = 'http://example.com/?q=日本';
    expect(toUri(q, { documentCharset: 'x-euc-jp' })).to.equal(toUri(q, { documentCharset: 'euc-jp' })).and.to.equal('http://example.com/?q=%C6%FC%CB%DC');
    expect(findLinks(`see ${q}`, { documentCharset: 'cseucpkdfmtjapanese' })[0]!.uri).to.equal('http://example.com/?q=%C6%FC%CB%DC');
    for (const ucs of ['unicodefeff', 'unicodefffe', 'csunicode', 'iso-10646-ucs-2', 'unicode20utf8', 'x-unicode20utf8']) {
      expect(toUri(q, { documentCharset: ucs }), ucs).to.equal('http://example.com/?q=%E6%97%A5%E6%9C%AC');
    }
    expect(() => toUri(q, { documentCharset: 'iso-2022-jp' })).to.throw(IriError, /unknown document charset/);
    expect(() => createScanner({ documentCharset: 'csiso2022jp' })).to.throw(TypeError, /ISO-2022-JP/);
  });
  it('an empty name is refused, as toUri refuses it', () => {
    expect(() => createScanner({ documentCharset: '' })).to.throw(TypeError, /documentCharset/);
  });
  it('x-mac-cyrillic and its label x-mac-ukrainian encode a query by the WHATWG index (0xA2 Ґ, 0xFF €)', () => {
    for (const documentCharset of ['x-mac-cyrillic', 'x-mac-ukrainian', 'maccyrillic']) {
      expect(findLinks('see http://x.ua/?q=Ґ€ ok', { documentCharset })[0]!.uri, documentCharset).to.equal('http://x.ua/?q=%A2%FF');
    }
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
  it('tlds: a Set as well as an array, as schemes takes (found in review: a Set was refused)', () => {
    expect(detectMarked('⸠example.xyz⸡ example.com', { tlds: new Set(['xyz']) })).to.equal('⸠example.xyz⸡ example.com');
    expect(() => findLinks('x', { tlds: new Set(['a.b']) })).to.throw(TypeError, /option tlds must be an array or a Set of top-level domain names \(one label each/);
    expect(() => findLinks('x', { tlds: new Map() as unknown as string[] })).to.throw(TypeError, /option tlds must be an array or a Set/);
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
