// toIri beyond the vectors: what is decoded and what stays encoded, ToUnicode, non-URI input, huge inputs.
import { expect } from 'chai';
import { toIri } from '../src/iri/to-iri.js';

const plain = (s: string): string => toIri(s, { toUnicode: false });

describe('toIri: step 2, which triplets are decoded (RFC 3987 §3.2, bis §4)', () => {
  it('unreserved ASCII is decoded, any hex case', () => {
    expect(plain('http://h/%7e%41%2d%2E%5f%30')).to.equal('http://h/~A-._0');
  });

  it('"%", reserved, disallowed ASCII and controls stay, in the case they were written', () => {
    expect(plain('http://h/%25%2f%2F%3a%40%5b%5d%21%3d%20%3c%7b%5e%60%00%0a%7f')).to.equal(
      'http://h/%25%2f%2F%3a%40%5b%5d%21%3d%20%3c%7b%5e%60%00%0a%7f',
    );
    expect(plain('http://h/%2541')).to.equal('http://h/%2541');
  });

  it('valid UTF-8 of appropriate characters is decoded in every component', () => {
    expect(plain('http://%C3%BC@r%C3%A9sum%C3%A9.example/%e6%96%ad?%E3%82%AD#%F0%90%8C%80')).to.equal(
      'http://ü@résumé.example/断?キ#𐌀',
    );
  });
});

describe('toIri: steps 3 and 4, what is re-encoded (uppercase)', () => {
  it('octets outside strictly legal UTF-8', () => {
    expect(plain('http://h/%e9%C0%af%ed%a0%80%f4%90%80%80%c3%28%e2%82')).to.equal(
      'http://h/%E9%C0%AF%ED%A0%80%F4%90%80%80%C3%28%E2%82',
    );
    expect(plain('http://h/%C3%41')).to.equal('http://h/%C3A');
  });

  it('non-ucschar: C1, specials, non-characters, tags (even in the query: RFC 3987, U2I-29)', () => {
    expect(plain('http://h/%c2%85%ef%bf%bd%ef%b7%90%f0%9f%bf%be?%f3%a0%81%81')).to.equal(
      'http://h/%C2%85%EF%BF%BD%EF%B7%90%F0%9F%BF%BE?%F3%A0%81%81',
    );
  });

  it('private use is decoded in the query only', () => {
    expect(plain('http://h/%EE%80%80?%ee%80%80#%EE%80%80')).to.equal('http://h/%EE%80%80?\ue000#%EE%80%80');
    expect(plain('http://h/p?a=%F3%B0%80%80?b#?%F3%B0%80%80')).to.equal('http://h/p?a=\u{f0000}?b#?%F3%B0%80%80');
  });

  it('bidi formatting characters stay encoded, the isolates and ALM too (labelled deviation)', () => {
    expect(plain('http://h/%E2%81%A6%E2%81%A9%D8%9C')).to.equal('http://h/%E2%81%A6%E2%81%A9%D8%9C');
  });

  it('invisible and space-like characters stay encoded; ZWJ, ZWNJ and variation selectors are decoded', () => {
    expect(plain('http://h/%C2%A0%C2%AD%E2%80%8B%E2%81%A0%EF%BB%BF%E3%80%80')).to.equal(
      'http://h/%C2%A0%C2%AD%E2%80%8B%E2%81%A0%EF%BB%BF%E3%80%80',
    );
    expect(plain('http://h/%E2%80%8C%E2%80%8D%EF%B8%8F')).to.equal('http://h/\u200c\u200d\ufe0f');
  });

  it('decoding %2E may create dot-segments; it is still done (vectors tricky point 12)', () => {
    expect(plain('http://h/a/%2E%2E/b')).to.equal('http://h/a/../b');
  });
});

describe('toIri: step 6, ToUnicode of xn-- labels', () => {
  it('converts ACE labels of DNS schemes, any case, and keeps other labels as written', () => {
    expect(toIri('http://XN--RSUM-BPAD.Example.ORG/')).to.equal('http://résumé.Example.ORG/');
    expect(toIri('https://u@xn--r8jz45g.jp:443/p')).to.equal('https://u@例え.jp:443/p');
    expect(toIri('ftp://xn--fa-hia.de/')).to.equal('ftp://faß.de/');
  });

  it('keeps a label whose ToUnicode reports an error', () => {
    expect(toIri('http://xn--a.example/')).to.equal('http://xn--a.example/');
    expect(toIri('http://xn--rsum-bpad.a_b.example/')).to.equal('http://résumé.a_b.example/');
    expect(toIri('http://xn--.example/')).to.equal('http://xn--.example/');
    expect(toIri('http://xn--ls8h.la/')).to.equal('http://💩.la/'); // valid in UTS #46 (tricky point 7)
  });

  it('only for http https ftp ws wss and mailto domains; never for IP literals or relative references', () => {
    expect(toIri('foo://xn--rsum-bpad.example/')).to.equal('foo://xn--rsum-bpad.example/');
    expect(toIri('//xn--rsum-bpad.example/')).to.equal('//xn--rsum-bpad.example/');
    expect(toIri('http://h/xn--rsum-bpad')).to.equal('http://h/xn--rsum-bpad');
    expect(toIri('mailto:a@xn--rsum-bpad.example,b@xn--r8jz45g.jp')).to.equal('mailto:a@résumé.example,b@例え.jp');
  });

  it('a mailto domain after an @ written %40 (RFC 6068 §2), the %40 kept; after a literal @ that one counts', () => {
    expect(toIri('mailto:a%40xn--r8jz45g.jp')).to.equal('mailto:a%40例え.jp');
    expect(toIri('mailto:a%40b.com,c%40xn--r8jz45g.jp?subject=x')).to.equal('mailto:a%40b.com,c%40例え.jp?subject=x');
    expect(toIri('mailto:%22a%40xn--r8jz45g%22@xn--r8jz45g.jp')).to.equal('mailto:%22a%40xn--r8jz45g%22@例え.jp');
    expect(toIri('mailto:a%40xn--r8jz45g.jp', { toUnicode: false })).to.equal('mailto:a%40xn--r8jz45g.jp');
  });

  it('toUnicode: false leaves the host alone', () => {
    expect(toIri('http://xn--rsum-bpad.example/', { toUnicode: false })).to.equal('http://xn--rsum-bpad.example/');
  });
});

describe('toIri: input that is not a URI never throws', () => {
  it('raw characters are treated as their UTF-8 octets', () => {
    expect(toIri('http://h/é\u202e\ue000?\ue000')).to.equal('http://h/é%E2%80%AE%EE%80%80?\ue000');
  });

  it('lone surrogates, "%" at the end, "%ZZ", spaces and the empty string are copied', () => {
    expect(toIri('http://h/\ud800x\udc00')).to.equal('http://h/\ud800x\udc00');
    expect(toIri('http://h/100%')).to.equal('http://h/100%');
    expect(toIri('%ZZ%')).to.equal('%ZZ%');
    expect(toIri('a b')).to.equal('a b');
    // a stray "%" never gains a triplet from decoding (found by the idempotence property)
    expect(toIri('%%34%31')).to.equal('%%341');
    expect(toIri('%2%41/%4%41')).to.equal('%2%41/%4%41');
    expect(toIri('')).to.equal('');
  });

  it('bad arguments are TypeErrors', () => {
    expect(() => toIri(1 as unknown as string)).to.throw(TypeError, /toIri\(\): uri must be a string/);
    expect(() => toIri('x', { toUnicode: 'yes' as unknown as boolean })).to.throw(TypeError, /option toUnicode/);
    expect(() => toIri('x', 3 as unknown as object)).to.throw(TypeError);
  });
});

describe('toIri: huge inputs', () => {
  const MB5 = 5 * 1024 * 1024;
  it('5 MB of triplets, of "%" and of raw text', () => {
    expect(toIri('http://h/' + '%C3%A9'.repeat(MB5 / 6))).to.equal('http://h/' + 'é'.repeat(MB5 / 6));
    expect(toIri('%'.repeat(MB5))).to.equal('%'.repeat(MB5));
    expect(toIri('http://h/' + '%e9'.repeat(MB5 / 3))).to.equal('http://h/' + '%E9'.repeat(MB5 / 3));
    const raw = 'http://xn--rsum-bpad.example/' + 'あ'.repeat(MB5);
    expect(toIri(raw)).to.equal('http://résumé.example/' + 'あ'.repeat(MB5));
  });
});
