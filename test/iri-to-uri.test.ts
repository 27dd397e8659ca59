// toUri beyond the vectors: options, non-IRI input, mailto, document charsets, huge inputs.
import { expect } from 'chai';
import fc from 'fast-check';
import { IriError } from '../src/errors.js';
import { toIri } from '../src/iri/to-iri.js';
import { toLinkUri, toUri } from '../src/iri/to-uri.js';

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (e) {
    if (e instanceof IriError) return e.code;
    throw e;
  }
  return undefined;
}

describe('toUri: the mapping (RFC 3987 §3.1, bis §3.3)', () => {
  it('encodes ucschar and iprivate as UTF-8 with uppercase hex, in every component', () => {
    expect(toUri('http://ü@例え.jp:80/パス?キー=値#断片')).to.equal(
      'http://%C3%BC@%E4%BE%8B%E3%81%88.jp:80/%E3%83%91%E3%82%B9?%E3%82%AD%E3%83%BC=%E5%80%A4#%E6%96%AD%E7%89%87',
    );
    expect(toUri('http://h/?\ue000')).to.equal('http://h/?%EE%80%80');
  });

  it('is the identity on URIs: existing triplets keep their case and octets, reserved stays', () => {
    for (const uri of [
      'http://example.org/%7euser/%c3%a9?a=%2F&b=%zz#%E9',
      "http://[2001:db8::7]:8080/!$&'()*+,;=:@/?/?#/?",
      'mailto:a@b.example?subject=%E2%82%AC',
      '',
      '%',
      'http://Example.COM/',
    ]) {
      expect(toUri(uri)).to.equal(uri);
      expect(toUri(uri, { host: 'idna' })).to.equal(uri);
    }
  });

  it('is idempotent', () => {
    for (const iri of ['http://résumé.example.org/ü?ü#ü', 'r%C3%A9sumé', 'http://h/\u202e\u0000']) {
      const once = toUri(iri);
      expect(toUri(once)).to.equal(once);
      const idna = toUri(iri, { host: 'idna' });
      expect(toUri(idna, { host: 'idna' })).to.equal(idna);
    }
  });

  it('applies to references and to bare components (RFC 3987 §3.1)', () => {
    expect(toUri('//例え.jp/x')).to.equal('//%E4%BE%8B%E3%81%88.jp/x');
    expect(toUri('#é')).to.equal('#%C3%A9');
    expect(toUri('é')).to.equal('%C3%A9');
  });

  it('normalize NFC only when asked (step 1 variant c by default)', () => {
    expect(toUri('http://h/\uf900')).to.equal('http://h/%EF%A4%80');
    expect(toUri('http://h/\uf900', { normalize: 'NFC' })).to.equal('http://h/%E8%B1%88'); // U+8C48
    expect(toUri('http://h/Vi\u00ea\u0323t', { normalize: 'NFC' })).to.equal('http://h/Vi%E1%BB%87t');
  });

  it('NFC keeps an escape as written: its last digit does not compose with a mark after it (found in review)', () => {
    expect(toUri('http://example.org/%7e\u0301', { normalize: 'NFC' })).to.equal('http://example.org/%7e%CC%81');
    expect(toUri('http://x/%4E\u0303/e\u0301', { normalize: 'NFC' })).to.equal('http://x/%4E%CC%83/%C3%A9');
    // Elsewhere NFC taken piece by piece is NFC of the whole (no composition has an ASCII second element).
    fc.assert(
      fc.property(fc.array(fc.constantFrom('a', 'e', '<', '/', 'x', ' ', '\u0301', '\u0338', '\u0323', '\u00ea', '\uf900', '\u1fef', '\u037e', '\u1100', '\u1161', '\u11a8', 'ḱ'), { maxLength: 24 }), (parts) => {
        const iri = 'http://h/' + parts.join('');
        const expected = (() => {
          try {
            return toUri(iri.normalize('NFC'), { asciiDisallowed: 'encode' });
          } catch (e) {
            return (e as IriError).code;
          }
        })();
        expect(toUri(iri, { normalize: 'NFC', asciiDisallowed: 'encode' })).to.equal(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it('an error after NFC gives the index in the input (found in review: it was the normalised string\'s)', () => {
    const input = 'http://x/e\u0301e\u0301e\u0301 y';
    try {
      toUri(input, { normalize: 'NFC' });
      expect.fail('no error');
    } catch (e) {
      expect((e as IriError).code).to.equal('disallowed-ascii');
      expect((e as IriError).index).to.equal(input.indexOf(' '));
    }
  });

  it('unencodable-query gives the index of the run the charset lacks, in the input (found in review: it had none)', () => {
    for (const [input, normalize] of [
      ['http://h/p?q=ab한c', 'none'],
      ['http://h/e\u0301e\u0301?x=1&q=é한', 'NFC'],
    ] as const) {
      try {
        toUri(input, { documentCharset: 'shift_jis', normalize });
        expect.fail('no error');
      } catch (e) {
        expect((e as IriError).code).to.equal('unencodable-query');
        expect((e as IriError).index, input).to.equal(input.indexOf(normalize === 'NFC' ? 'é한' : '한'));
      }
    }
  });
});

describe('toUri: input that is not an IRI', () => {
  it('space < > " { } | \\ ^ ` fail by default with disallowed-ascii, and are encoded on request', () => {
    for (const ch of [' ', '<', '>', '"', '{', '}', '|', '\\', '^', '`']) {
      expect(codeOf(() => toUri(`http://h/a${ch}b`)), ch).to.equal('disallowed-ascii');
      expect(toUri(`http://h/a${ch}b`, { asciiDisallowed: 'encode' })).to.equal(
        `http://h/a%${ch.charCodeAt(0).toString(16).toUpperCase()}b`,
      );
    }
  });

  it('the error carries the index of the character', () => {
    try {
      toUri('http://h/é x');
      expect.fail('should throw');
    } catch (e) {
      expect(e).to.be.instanceOf(IriError);
      expect((e as IriError).index).to.equal(10);
    }
  });

  it('C0 controls, DEL, C1, bidi controls, non-characters, tags and private use are encoded, never refused', () => {
    expect(toUri('http://h/a\tb\u0000c\u007f\u0085')).to.equal('http://h/a%09b%00c%7F%C2%85');
    expect(toUri('http://h/\u202e\u2066\ufdd0\uffff\u{e0041}\ue000')).to.equal(
      'http://h/%E2%80%AE%E2%81%A6%EF%B7%90%EF%BF%BF%F3%A0%81%81%EE%80%80',
    );
  });

  it('a "%" that starts no triplet, a second "#", "[" and "]" are left as they are (RFC 3987 §3.1 MUST NOT)', () => {
    expect(toUri('http://h/100%')).to.equal('http://h/100%');
    expect(toUri('http://h/%ZZé')).to.equal('http://h/%ZZ%C3%A9');
    expect(toUri('http://h/a[b]#c#d')).to.equal('http://h/a[b]#c#d');
  });

  it('lone surrogates fail with lone-surrogate (no UTF-8 form)', () => {
    expect(codeOf(() => toUri('http://h/\ud800'))).to.equal('lone-surrogate');
    expect(codeOf(() => toUri('\udc00'))).to.equal('lone-surrogate');
    expect(codeOf(() => toUri('http://h/\ud800', { asciiDisallowed: 'encode' }))).to.equal('lone-surrogate');
  });

  it('an empty string maps to itself', () => {
    expect(toUri('')).to.equal('');
  });
});

describe("toUri: host: 'idna' (bis §3.4.2, UTS #46 non-transitional, STD3)", () => {
  const idna = (s: string): string => toUri(s, { host: 'idna' });

  it('keeps the deviation characters (non-transitional) and lowercases through UTS #46 mapping', () => {
    expect(idna('http://faß.de/')).to.equal('http://xn--fa-hia.de/');
    expect(idna('http://ΣΑΣ.gr/')).to.equal('http://xn--mxa9ab.gr/'); // σασ: UTS #46 maps Σ to σ, never to final ς
    expect(idna('http://RÉSUMÉ.Example.ORG/')).to.equal('http://xn--rsum-bpad.example.org/');
  });

  it('maps full-width and ideographic dots (UTS #46) and keeps a trailing root dot', () => {
    expect(idna('http://ｅｘａｍｐｌｅ．ｃｏｍ/')).to.equal('http://example.com/');
    expect(idna('http://résumé。example。org/')).to.equal('http://xn--rsum-bpad.example.org/');
    expect(idna('http://résumé.example.org./')).to.equal('http://xn--rsum-bpad.example.org./');
  });

  it('fails with idna-failed on hyphen, bidi and STD3 violations', () => {
    expect(codeOf(() => idna('http://-résumé.example/'))).to.equal('idna-failed');
    expect(codeOf(() => idna('http://abא.example/'))).to.equal('idna-failed');
    expect(codeOf(() => idna('http://a b.résumé/'))).to.equal('disallowed-ascii');
    expect(codeOf(() => toUri('http://a b.résumé/', { host: 'idna', asciiDisallowed: 'encode' }))).to.equal('idna-failed');
  });

  it('leaves IP literals, userinfo, port, path, query and fragment to percent-encoding', () => {
    expect(idna('http://ü:ü@résumé.example:8080/ü?ü#ü')).to.equal(
      'http://%C3%BC:%C3%BC@xn--rsum-bpad.example:8080/%C3%BC?%C3%BC#%C3%BC',
    );
    expect(idna('http://[::1]/é')).to.equal('http://[::1]/%C3%A9');
  });

  it('applies to http https ftp ws wss in any case, not to other schemes or relative references', () => {
    for (const scheme of ['http', 'HTTPS', 'ftp', 'ws', 'Wss']) {
      expect(idna(`${scheme}://résumé.example/`)).to.equal(`${scheme}://xn--rsum-bpad.example/`);
    }
    expect(idna('irc://résumé.example/')).to.equal('irc://r%C3%A9sum%C3%A9.example/');
    expect(idna('//résumé.example/')).to.equal('//r%C3%A9sum%C3%A9.example/');
  });

  it('a valid all-ASCII host is left as written (identity on valid URIs)', () => {
    for (const uri of [
      'http://a-b.Example.COM/',
      'HTTP://EXAMPLE.COM:8080/x',
      'http://%41.example/',
      'https://XN--R8JZ45G.jp/', //  an A-label in upper case: valid, not lower-cased
      'https://xn--r8jz45g.jp./', // a trailing root dot
      'http://192.0.2.1/',
      'http://[::1]/', //            an IP-literal is no domain
      'ws://localhost:3000',
      'mailto:a@Example.COM,b@xn--r8jz45g.jp',
      'foo://a_b.example/', //       not a DNS scheme (vector IDN-30)
    ]) {
      expect(idna(uri), uri).to.equal(uri);
    }
  });

  it('an all-ASCII host is validated by UTS #46 too: STD3, Punycode and hyphen rules fail it', () => {
    const cases: [string, string][] = [
      ['http://a_b.example/', 'UseSTD3ASCIIRules: `_` (vector IDN-22 with an ASCII host)'],
      ['https://x_y.com/', 'UseSTD3ASCIIRules'],
      ['https://xn--a.co/', 'invalid Punycode'],
      ['https://xn--example.com/', 'invalid Punycode'],
      ['http://a-.example/', 'CheckHyphens: a trailing hyphen'],
      ['http://-a.example/', 'CheckHyphens: a leading hyphen'],
      ['http://ab--c.example/', 'CheckHyphens: hyphens in the 3rd and 4th positions'],
      ['http://%5F.example/', 'decoded to `_`'],
      ['ftp://a!b.example/x', 'UseSTD3ASCIIRules: a sub-delim'],
      ['mailto:a@b_c.example', 'RFC 6068 domain through IDNA'],
      ['http://a_b.example/ü', 'the slow path (non-ASCII in the path) as well'],
    ];
    for (const [uri, why] of cases) {
      expect(codeOf(() => idna(uri)), `${uri}: ${why}`).to.equal('idna-failed');
      expect(toUri(uri, { asciiDisallowed: 'encode' }), `${uri} in 'percent' mode`).to.be.a('string');
    }
  });

  it('mailto: the domain of each address goes through IDNA, the local part is percent-encoded (RFC 6068)', () => {
    expect(idna('mailto:ü@résumé.example,b@例え.jp?subject=ü')).to.equal(
      'mailto:%C3%BC@xn--rsum-bpad.example,b@xn--r8jz45g.jp?subject=%C3%BC',
    );
    expect(toUri('mailto:ü@résumé.example')).to.equal('mailto:%C3%BC@r%C3%A9sum%C3%A9.example');
    expect(idna('mailto:a@[192.0.2.1]')).to.equal('mailto:a@[192.0.2.1]');
    expect(codeOf(() => idna('mailto:a@-résumé.example'))).to.equal('idna-failed');
  });
});

describe('toLinkUri: the uri of a detected link (DESIGN.md "What each link carries")', () => {
  const link = (iri: string): string => toLinkUri(iri, 'idna', undefined, true);

  it('writes the scheme in lower case (RFC 3986 §3.1), in both host modes', () => {
    expect(link('HTTP://example.com/A')).to.equal('http://example.com/A');
    expect(toLinkUri('HTTP://Ex.COM/A', 'percent', undefined, true)).to.equal('http://Ex.COM/A');
    expect(link('Tel:+1-555')).to.equal('tel:+1-555');
    expect(link('SSH://Git@GitHub.COM/X')).to.equal('ssh://Git@GitHub.COM/X'); // not a DNS scheme: host as written
  });

  it('writes a DNS host as UTS #46 ToASCII does: lower case, percent-decoded (where toUri keeps it as written)', () => {
    for (const [iri, uri] of [
      ['HTTPS://Example.COM:8080/Path?Q#F', 'https://example.com:8080/Path?Q#F'],
      ['https://User@Example.COM/', 'https://User@example.com/'], //    userinfo as written
      ['https://XN--R8JZ45G.jp/', 'https://xn--r8jz45g.jp/'],
      ['http://%41.example/', 'http://a.example/'], //                 bis §3.4.2: decoded, then ToASCII
      ['http://Bücher.DE/', 'http://xn--bcher-kva.de/'],
      ['mailto:John@Example.COM,Ann@B.org?subject=Hi', 'mailto:John@example.com,Ann@b.org?subject=Hi'],
      ['http://Example.COM./', 'http://example.com./'], //              a trailing root dot is kept
    ]) {
      expect(link(iri!), iri).to.equal(uri);
      expect(toUri(iri!, { host: 'idna' }), iri).to.equal(iri!.includes('ü') ? uri : iri); // toUri: ASCII as written
    }
  });

  it('Deviation (UseSTD3ASCIIRules): takes `_` in an all-ASCII host without xn--, as browsers do', () => {
    expect(link('http://other_side.blogspot.com/')).to.equal('http://other_side.blogspot.com/');
    expect(link('HTTP://Other_Side.Blogspot.COM/X_Y')).to.equal('http://other_side.blogspot.com/X_Y');
    expect(link('mailto:a@_dmarc.Example.org')).to.equal('mailto:a@_dmarc.example.org');
    expect(link('http://a%5Fb.example/')).to.equal('http://a_b.example/');
    // toUri keeps STD3 (vector IDN-22), and so does toLinkUri without `underscore`: the same hosts fail there
    expect(codeOf(() => toUri('http://other_side.blogspot.com/', { host: 'idna' }))).to.equal('idna-failed');
    expect(codeOf(() => toLinkUri('http://other_side.blogspot.com/', 'idna', undefined, false))).to.equal('idna-failed');
    expect(toLinkUri('HTTP://Other.Blogspot.COM/', 'idna', undefined, false)).to.equal('http://other.blogspot.com/');
  });

  it('still fails on what UTS #46 refuses with `_` allowed, and on `_` beside a non-ASCII or ACE label', () => {
    for (const iri of [
      'http://a_b-.example/', //          CheckHyphens
      'http://ab--c_d.example/', //       CheckHyphens (3rd and 4th)
      'http://a_b..example/', //          an empty label
      'http://a*b.example/', //           STD3 for every other ASCII character
      'http://a_b.résumé.example/', //    vector IDN-22's host
      'http://a_b.xn--rsum-bpad.example/',
      'http://xn--a.example/', //         invalid Punycode
    ]) {
      expect(codeOf(() => link(iri)), iri).to.equal('idna-failed');
    }
  });
});

describe('toUri: documentCharset (bis §3.5)', () => {
  it('only the query of http/https is encoded in the document charset', () => {
    expect(toUri('https://h/é?q=é#é', { documentCharset: 'iso-8859-1' })).to.equal('https://h/%C3%A9?q=%E9#%C3%A9');
    expect(toUri('ftp://h/é?q=é', { documentCharset: 'iso-8859-1' })).to.equal('ftp://h/%C3%A9?q=%C3%A9');
    expect(toUri('http://h/?q=日本', { documentCharset: 'Shift_JIS' })).to.equal('http://h/?q=%93%FA%96%7B');
    expect(toUri('http://h/?q=日本', { documentCharset: 'EUC-JP' })).to.equal('http://h/?q=%C6%FC%CB%DC');
  });

  it('UCS-based charsets change nothing', () => {
    for (const cs of ['utf-8', 'UTF8', 'utf-16le', 'UTF-16']) {
      expect(toUri('http://h/?q=é', { documentCharset: cs })).to.equal('http://h/?q=%C3%A9');
    }
  });

  it('an unknown charset fails with unknown-charset; a character the charset lacks with unencodable-query', () => {
    expect(codeOf(() => toUri('http://h/?q=é', { documentCharset: 'no-such-charset' }))).to.equal('unknown-charset');
    expect(codeOf(() => toUri('http://h/?q=日本', { documentCharset: 'iso-8859-1' }))).to.equal('unencodable-query');
  });

  it('a WHATWG single-byte label encodes by the WHATWG index, as the stream decodes it (WHATWG Encoding §9.2)', () => {
    // macintosh: € is 0xDB (index-macintosh pointer 91); iconv-lite's macintosh has ¤ there and no €.
    expect(toUri('http://h/?q=€', { documentCharset: 'macintosh' })).to.equal('http://h/?q=%DB');
    // iso-8859-1 is windows-1252: € 0x80, Š 0x8A; U+0081 is 0x81 (index-windows-1252 pointer 1).
    expect(toUri('http://h/?q=€Š\u0081', { documentCharset: 'iso-8859-1' })).to.equal('http://h/?q=%80%8A%81');
    // koi8-u: ў is 0xAE (index-koi8-u pointer 46); x-mac-ukrainian is x-mac-cyrillic: Ґ 0xA2, € 0xFF.
    expect(toUri('http://h/?q=ў', { documentCharset: 'koi8-u' })).to.equal('http://h/?q=%AE');
    expect(toUri('http://h/?q=Ґ€', { documentCharset: 'x-mac-ukrainian' })).to.equal('http://h/?q=%A2%FF');
    // windows-1253 has no ª (no pointer 42): a character the index lacks fails.
    expect(codeOf(() => toUri('http://h/?q=ª', { documentCharset: 'windows-1253' }))).to.equal('unencodable-query');
  });

  it('a character the charset has only decomposed is encoded as the charset writes it (it was unencodable-query)', () => {
    // windows-1258 has ê (0xEA) and a combining acute (0xEC), not ế (U+1EBF), which NFC makes of them.
    expect(toUri('http://h/?q=Vi\u1EBFt', { documentCharset: 'windows-1258' })).to.equal('http://h/?q=Vi%EA%ECt');
    expect(toUri('http://h/?q=Vi\u00EA\u0301t', { documentCharset: 'windows-1258' })).to.equal('http://h/?q=Vi%EA%ECt');
    // A character no form of which the charset has still fails, in either charset.
    expect(codeOf(() => toUri('http://h/?q=\u1EBF日', { documentCharset: 'windows-1258' }))).to.equal('unencodable-query');
    expect(codeOf(() => toUri('http://h/?q=\u1EBF', { documentCharset: 'windows-1252' }))).to.equal('unencodable-query');
  });

  it('a character the charset has only as one whose NFC it is gets that one\'s bytes (it was unencodable-query; found in review)', () => {
    // Shift_JIS has U+212B ANGSTROM SIGN (81 F0), not U+00C5, which NFC makes of it; Ω U+03A9 it has itself (83 B6).
    expect(toUri('http://h/?q=\u00C5', { documentCharset: 'shift_jis' })).to.equal('http://h/?q=%81%F0');
    expect(toUri('http://h/?q=\u212B', { documentCharset: 'shift_jis' })).to.equal('http://h/?q=%81%F0');
    expect(toUri('http://h/?q=\u03A9', { documentCharset: 'shift_jis' })).to.equal('http://h/?q=%83%B6');
    // Where the charset has both (EUC-KR 豈 U+8C48 D1 C2, and U+F900 CB D0), the character's own bytes.
    expect(toUri('http://h/?q=\u8C48', { documentCharset: 'euc-kr' })).to.equal('http://h/?q=%D1%C2');
    expect(codeOf(() => toUri('http://h/?q=\u00C5', { documentCharset: 'koi8-r' }))).to.equal('unencodable-query');
  });

  it('Shift_JIS and EUC-JP write U+2212 as U+FF0D, as WHATWG\'s encoders do (it was unencodable-query; found in review)', () => {
    for (const [charset, bytes] of [['shift_jis', '%81%7C'], ['windows-31j', '%81%7C'], ['euc-jp', '%A1%DD']]) {
      expect(toUri('http://h/?q=1\u22122', { documentCharset: charset })).to.equal(`http://h/?q=1${bytes}2`);
      expect(new TextDecoder(charset).decode(Buffer.from(bytes.replace(/%/g, ''), 'hex'))).to.equal('\uff0d');
    }
    // Elsewhere it stays as it is: UTF-8 by default, unencodable in a charset without it.
    expect(toUri('http://h/?q=\u2212')).to.equal('http://h/?q=%E2%88%92');
    expect(codeOf(() => toUri('http://h/?q=\u2212', { documentCharset: 'windows-1252' }))).to.equal('unencodable-query');
  });
});

describe('toUri: bad arguments are TypeErrors', () => {
  it('names the argument or option', () => {
    expect(() => toUri(5 as unknown as string)).to.throw(TypeError, /toUri\(\): iri must be a string/);
    expect(() => toUri('x', null as unknown as object)).to.throw(TypeError, /options/);
    expect(() => toUri('x', { host: 'punycode' as 'idna' })).to.throw(TypeError, /option host/);
    expect(() => toUri('x', { normalize: 'NFKC' as 'NFC' })).to.throw(TypeError, /option normalize/);
    expect(() => toUri('x', { asciiDisallowed: 'drop' as 'fail' })).to.throw(TypeError, /option asciiDisallowed/);
    expect(() => toUri('x', { documentCharset: 7 as unknown as string })).to.throw(TypeError, /option documentCharset/);
    expect(() => toUri('x', { documentCharset: '' })).to.throw(TypeError, /option documentCharset/);
  });
});

describe('toUri: huge inputs (linear, no stack)', () => {
  const MB5 = 5 * 1024 * 1024;
  it('5 MB (as UTF-8) of non-ASCII path, and 5 MB of ASCII', () => {
    const out = toUri('http://h/' + 'é'.repeat(MB5 / 2));
    expect(out.length).to.equal(9 + 6 * (MB5 / 2));
    expect(out.endsWith('%C3%A9%C3%A9')).to.equal(true);
    const ascii = 'http://h/' + 'a/'.repeat(MB5 / 2);
    expect(toUri(ascii)).to.equal(ascii);
  });

  it('a 256 KB label in idna mode is converted (VerifyDnsLength=false); most of its time is tr46', () => {
    const s = 'http://' + 'é'.repeat(128 * 1024) + '.example/';
    const out = toUri(s, { host: 'idna' });
    expect(out.startsWith('http://xn--')).to.equal(true);
    expect(out.endsWith('.example/')).to.equal(true);
    // Punycode decoding of so long a label overflows (RFC 3492 §6.4), so ToUnicode keeps the ACE form.
    expect(toIri(out) === out).to.equal(true);
  });

  it('5 MB of "%" and of "%ZZ"', () => {
    expect(toUri('%'.repeat(MB5))).to.equal('%'.repeat(MB5));
    expect(toUri('%ZZ'.repeat(MB5 / 3))).to.equal('%ZZ'.repeat(MB5 / 3));
  });
});
