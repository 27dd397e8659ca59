// parse.ts: the RFC 3987 §2.2 ABNF checker and parser, the RFC 3986 Appendix B splitter, §5.3 recomposition.
import { expect } from 'chai';
import fc from 'fast-check';
import {
  isIpv4Address,
  isIpv6Address,
  isIri,
  matchesIriAbnf,
  parseIriReference,
  recomposeIri,
  splitIriReference,
  type IriComponents,
} from '../src/iri/parse.js';

// An oracle for the tests only: the RFC 3987 §2.2 ABNF transcribed into anchored regular expressions.
// A backtracking regex answers exact membership on short inputs; the library itself never uses one.
const h16 = '[0-9A-Fa-f]{1,4}';
const decOctet = '(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9][0-9]|[0-9])';
const ipv4 = `${decOctet}\\.${decOctet}\\.${decOctet}\\.${decOctet}`;
const ls32 = `(?:${h16}:${h16}|${ipv4})`;
const ipv6 =
  '(?:' +
  [
    `(?:${h16}:){6}${ls32}`,
    `::(?:${h16}:){5}${ls32}`,
    `(?:${h16})?::(?:${h16}:){4}${ls32}`,
    `(?:(?:${h16}:){0,1}${h16})?::(?:${h16}:){3}${ls32}`,
    `(?:(?:${h16}:){0,2}${h16})?::(?:${h16}:){2}${ls32}`,
    `(?:(?:${h16}:){0,3}${h16})?::${h16}:${ls32}`,
    `(?:(?:${h16}:){0,4}${h16})?::${ls32}`,
    `(?:(?:${h16}:){0,5}${h16})?::${h16}`,
    `(?:(?:${h16}:){0,6}${h16})?::`,
  ].join('|') +
  ')';
const subDelims = "[!$&'()*+,;=]";
const ipvFuture = `[vV][0-9A-Fa-f]+\\.(?:[A-Za-z0-9\\-._~:]|${subDelims})+`;
const ucschar =
  '[\\u{A0}-\\u{D7FF}\\u{F900}-\\u{FDCF}\\u{FDF0}-\\u{FFEF}\\u{10000}-\\u{1FFFD}\\u{20000}-\\u{2FFFD}' +
  '\\u{30000}-\\u{3FFFD}\\u{40000}-\\u{4FFFD}\\u{50000}-\\u{5FFFD}\\u{60000}-\\u{6FFFD}\\u{70000}-\\u{7FFFD}' +
  '\\u{80000}-\\u{8FFFD}\\u{90000}-\\u{9FFFD}\\u{A0000}-\\u{AFFFD}\\u{B0000}-\\u{BFFFD}\\u{C0000}-\\u{CFFFD}' +
  '\\u{D0000}-\\u{DFFFD}\\u{E1000}-\\u{EFFFD}]';
const iprivate = '[\\u{E000}-\\u{F8FF}\\u{F0000}-\\u{FFFFD}\\u{100000}-\\u{10FFFD}]';
const iunreserved = `(?:[A-Za-z0-9\\-._~]|${ucschar})`;
const pct = '%[0-9A-Fa-f]{2}';
const ipchar = `(?:${iunreserved}|${pct}|${subDelims}|[:@])`;
const iauthority =
  `(?:(?:${iunreserved}|${pct}|${subDelims}|:)*@)?` +
  `(?:\\[(?:${ipv6}|${ipvFuture})\\]|${ipv4}|(?:${iunreserved}|${pct}|${subDelims})*)(?::[0-9]*)?`;
const isegment = `${ipchar}*`;
const ipathAbempty = `(?:/${isegment})*`;
const ipathAbsolute = `/(?:${ipchar}+(?:/${isegment})*)?`;
const ipathRootless = `${ipchar}+(?:/${isegment})*`;
const ipathNoscheme = `(?:${iunreserved}|${pct}|${subDelims}|@)+(?:/${isegment})*`;
const iquery = `(?:${ipchar}|${iprivate}|[/?])*`;
const ifragment = `(?:${ipchar}|[/?])*`;
const scheme = '[A-Za-z][A-Za-z0-9+\\-.]*';
const absolute = `${scheme}:(?://${iauthority}${ipathAbempty}|${ipathAbsolute}|${ipathRootless}|)(?:\\?${iquery})?`;
const relative = `(?://${iauthority}${ipathAbempty}|${ipathAbsolute}|${ipathNoscheme}|)(?:\\?${iquery})?(?:#${ifragment})?`;
const ORACLE = {
  IRI: new RegExp(`^${absolute}(?:#${ifragment})?$`, 'u'),
  'absolute-IRI': new RegExp(`^${absolute}$`, 'u'),
  'IRI-reference': new RegExp(`^(?:${absolute}(?:#${ifragment})?|${relative})$`, 'u'),
};
const IPV6_ORACLE = new RegExp(`^${ipv6}$`);

// Pieces that make the interesting cases likely.
const PIECES = [
  'a', 'Z', '0', '1', '9', '2', '5', 'f', 'v', 'V', '-', '.', '_', '~', ':', '/', '?', '#', '@', '[', ']',
  '!', '$', "'", '(', '*', '+', ',', ';', '=', '%', '%2f', '%C3%A9', '%zz', ' ', '<', '"', '\\', '^', '`',
  '|', '{', 'é', '納', '𐌀', '\u00a0', '\ue000', '\u{f0000}', '\u{e0041}', '\ufdd0', '\ufffe', '\u202e',
  '\u200e', '\u0085', '\u0000', '\ud800', '\udc00', '::', '//', 'http:', 'x:', '[::1]', '[v1.a]', '255.',
];
const iriish = fc.array(fc.constantFrom(...PIECES), { maxLength: 14 }).map((a) => a.join(''));

describe('iri parse: the ABNF checker agrees with a transcription of the ABNF', () => {
  for (const production of ['IRI', 'IRI-reference', 'absolute-IRI'] as const) {
    it(`${production}: random strings built from grammar pieces`, () => {
      fc.assert(
        fc.property(iriish, (s) => matchesIriAbnf(s, production) === ORACLE[production].test(s)),
        { numRuns: 4000 },
      );
    });
  }

  it('IPv6address: random strings of hex digits, colons and dots', () => {
    const piece = fc.constantFrom('0', '1', 'a', 'F', 'ffff', '12345', ':', ':', '::', '.', '1.2.3.4', '255', '256');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 18 }).map((a) => a.join('')), (s) => {
        return isIpv6Address(s) === IPV6_ORACLE.test(s) && matchesIriAbnf(`http://[${s}]/`) === IPV6_ORACLE.test(s);
      }),
      { numRuns: 6000 },
    );
  });
});

describe('iri parse: IPv6 and IPv4 forms (RFC 3986 §3.2.2)', () => {
  const valid = [
    '::', '::1', '1::', '1:2:3:4:5:6:7:8', '2001:db8::7', 'fe80::1', '::ffff:192.0.2.128', '1:2:3:4:5:6:1.2.3.4',
    '1::2:3:4:5:6:7', '::2:3:4:5:6:7:8', '1:2:3:4:5:6:7::', 'FFFF::', 'a:b::c:1.2.3.4', '::0.0.0.0',
  ];
  const invalid = [
    '', ':', ':::', '1', '1:2:3:4:5:6:7', '1:2:3:4:5:6:7:8:9', '::1::2', '1::2::3', '12345::', ':1::', '1::2:',
    '1:2:3:4:5:6:7:1.2.3.4', '::1.2.3.256', '::1.2.3', '::01.2.3.4', '1.2.3.4', '::g', 'fe80::1%25eth0',
    '::1.2.3.4:5', '1:2:3:4:5:6:7:8::',
  ];
  for (const a of valid) it(`[${a}] is an IPv6address`, () => expect(isIpv6Address(a)).to.equal(true));
  for (const a of invalid) it(`[${a}] is not an IPv6address`, () => expect(isIpv6Address(a)).to.equal(false));

  it('IPv4address: dec-octet has no leading zeros and stops at 255', () => {
    expect(isIpv4Address('192.0.2.1')).to.equal(true);
    expect(isIpv4Address('0.0.0.0')).to.equal(true);
    expect(isIpv4Address('255.255.255.255')).to.equal(true);
    expect(isIpv4Address('256.1.1.1')).to.equal(false);
    expect(isIpv4Address('01.1.1.1')).to.equal(false);
    expect(isIpv4Address('1.1.1')).to.equal(false);
    expect(isIpv4Address('1.1.1.1.')).to.equal(false);
  });

  it('a dotted quad out of range is still a valid ireg-name (vectors tricky point 16)', () => {
    expect(isIri('http://192.168.0.256/')).to.equal(true);
    expect(parseIriReference('http://192.168.0.256/')!.host).to.equal('192.168.0.256');
  });

  it('IPvFuture, with "v" in either case; zone IDs are not allowed (RFC 6874 is not RFC 3987)', () => {
    expect(isIri('http://[v7.fe80::a+en1]/')).to.equal(true);
    expect(isIri('http://[V1F.x]/')).to.equal(true);
    expect(isIri('http://[v.x]/')).to.equal(false);
    expect(isIri('http://[v1.]/')).to.equal(false);
    expect(isIri('http://[fe80::1%25eth0]/')).to.equal(false);
    expect(isIri('http://[::1]x/')).to.equal(false);
    expect(isIri('http://[::1/')).to.equal(false);
  });
});

describe('iri parse: parseIriReference on RFC 3986 §1.1.2 / §5.4 style examples', () => {
  const cases: [string, IriComponents][] = [
    ['ftp://ftp.is.co.za/rfc/rfc1808.txt', { scheme: 'ftp', authority: 'ftp.is.co.za', host: 'ftp.is.co.za', path: '/rfc/rfc1808.txt' }],
    ['http://www.ietf.org/rfc/rfc2396.txt', { scheme: 'http', authority: 'www.ietf.org', host: 'www.ietf.org', path: '/rfc/rfc2396.txt' }],
    ['ldap://[2001:db8::7]/c=GB?objectClass?one', { scheme: 'ldap', authority: '[2001:db8::7]', host: '[2001:db8::7]', path: '/c=GB', query: 'objectClass?one' }],
    ['mailto:John.Doe@example.com', { scheme: 'mailto', path: 'John.Doe@example.com' }],
    ['news:comp.infosystems.www.servers.unix', { scheme: 'news', path: 'comp.infosystems.www.servers.unix' }],
    ['tel:+1-816-555-1212', { scheme: 'tel', path: '+1-816-555-1212' }],
    ['telnet://192.0.2.16:80/', { scheme: 'telnet', authority: '192.0.2.16:80', host: '192.0.2.16', port: '80', path: '/' }],
    ['urn:oasis:names:specification:docbook:dtd:xml:4.1.2', { scheme: 'urn', path: 'oasis:names:specification:docbook:dtd:xml:4.1.2' }],
    ['http://a/b/c/d;p?q', { scheme: 'http', authority: 'a', host: 'a', path: '/b/c/d;p', query: 'q' }],
    ['g;x?y#s', { path: 'g;x', query: 'y', fragment: 's' }],
    ['//g', { authority: 'g', host: 'g', path: '' }],
    ['?y', { path: '', query: 'y' }],
    ['#s', { path: '', fragment: 's' }],
    ['', { path: '' }],
    ['../../../g', { path: '../../../g' }],
    ['./g:h', { path: './g:h' }],
    ['http://user:pass@例え.jp:/パス?クエリ#断片', { scheme: 'http', authority: 'user:pass@例え.jp:', userinfo: 'user:pass', host: '例え.jp', port: '', path: '/パス', query: 'クエリ', fragment: '断片' }],
    ['http://example.com?', { scheme: 'http', authority: 'example.com', host: 'example.com', path: '', query: '' }],
    ['file:///etc/hosts', { scheme: 'file', authority: '', host: '', path: '/etc/hosts' }],
    ['x://@:', { scheme: 'x', authority: '@:', userinfo: '', host: '', port: '', path: '' }],
  ];
  for (const [input, expected] of cases) {
    it(input || '(empty string)', () => {
      expect(parseIriReference(input)).to.deep.equal(expected);
      expect(splitIriReference(input)).to.deep.equal(expected);
      expect(recomposeIri(expected)).to.equal(input);
    });
  }

  it('rejects what the grammar rejects', () => {
    for (const s of [
      'g:h:i/../x y', 'a b', '1http://x', ':x', '%', '%4', 'http://a@b@c/', 'http://a:b:c/', 'http://h/p#a#b',
      'http://h/\u00a0\ud800', 'http://h/[x]', 'http://h:8a/', 'http://h/%zz', 'x:\u202e' + '\u0000', 'g:h\ue000',
    ]) {
      expect(parseIriReference(s), s).to.equal(null);
    }
  });

  it('private use only in the query, tags nowhere (RFC 3987 §2.2)', () => {
    expect(isIri('http://h/?\ue000\u{f0000}\u{10fffd}')).to.equal(true);
    expect(isIri('http://h/\ue000')).to.equal(false);
    expect(isIri('http://h/#\ue000')).to.equal(false);
    expect(isIri('http://\ue000/')).to.equal(false);
    expect(isIri('http://h/?\u{e0041}')).to.equal(false);
  });

  it('a relative reference needs no ":" in its first segment (ipath-noscheme)', () => {
    expect(isIri('a/b:c', 'IRI-reference')).to.equal(true);
    expect(isIri('./a:b', 'IRI-reference')).to.equal(true);
    expect(isIri('a:b', 'IRI-reference')).to.equal(true); // an IRI with scheme "a"
    expect(isIri('1a:b', 'IRI-reference')).to.equal(false);
    expect(isIri('é:b', 'IRI-reference')).to.equal(false);
  });
});

describe('iri parse: isIri and its productions', () => {
  it('IRI needs a scheme, absolute-IRI also refuses a fragment', () => {
    expect(isIri('http://a/b#c')).to.equal(true);
    expect(isIri('http://a/b#c', 'absolute-IRI')).to.equal(false);
    expect(isIri('http://a/b?c', 'absolute-IRI')).to.equal(true);
    expect(isIri('//a/b')).to.equal(false);
    expect(isIri('//a/b', 'IRI-reference')).to.equal(true);
    expect(isIri('')).to.equal(false);
    expect(isIri('', 'IRI-reference')).to.equal(true);
    expect(isIri('x:')).to.equal(true);
  });

  it('RFC 3987 §4.1: no bidi formatting characters, although the ABNF allows them', () => {
    for (const c of ['\u200e', '\u200f', '\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069', '\u061c']) {
      const s = `http://example.org/a${c}b`;
      expect(isIri(s), s).to.equal(false);
      expect(matchesIriAbnf(s), s).to.equal(true);
    }
  });

  it('lone surrogates are never part of an IRI', () => {
    for (const s of ['http://h/\ud800', 'http://h/\udc00x', 'http://h/?\ud800', 'http://h/#\udbff']) {
      expect(isIri(s, 'IRI-reference'), s).to.equal(false);
    }
  });

  it('bad arguments are TypeErrors', () => {
    expect(() => isIri(42 as unknown as string)).to.throw(TypeError, /isIri\(\): s must be a string/);
    expect(() => isIri('x:', 'URI' as 'IRI')).to.throw(TypeError, /production/);
    expect(() => parseIriReference(null as unknown as string)).to.throw(TypeError);
    expect(() => splitIriReference(undefined as unknown as string)).to.throw(TypeError);
    expect(() => matchesIriAbnf({} as unknown as string)).to.throw(TypeError);
    expect(() => recomposeIri(null as unknown as IriComponents)).to.throw(TypeError);
  });
});

describe('iri parse: splitIriReference (RFC 3986 Appendix B) never fails', () => {
  it('splits what is not an IRI', () => {
    expect(splitIriReference('a b:c d?e f#g#h')).to.deep.equal({ scheme: 'a b', path: 'c d', query: 'e f', fragment: 'g#h' });
    expect(splitIriReference('http://u@v@host:port:99/p')).to.deep.equal({
      scheme: 'http', authority: 'u@v@host:port:99', userinfo: 'u@v', host: 'host:port', port: '99', path: '/p',
    });
    expect(splitIriReference('http://[::1]x:5/')).to.deep.equal({ scheme: 'http', authority: '[::1]x:5', host: '[::1]x:5', path: '/' });
    expect(splitIriReference('http://[::1]:5/')).to.deep.equal({ scheme: 'http', authority: '[::1]:5', host: '[::1]', port: '5', path: '/' });
    expect(splitIriReference(':x')).to.deep.equal({ path: ':x' });
    expect(splitIriReference('/a:b')).to.deep.equal({ path: '/a:b' });
  });

  it('recomposeIri(splitIriReference(s)) === s for any string', () => {
    fc.assert(fc.property(iriish, (s) => recomposeIri(splitIriReference(s)) === s), { numRuns: 3000 });
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (s) => recomposeIri(splitIriReference(s)) === s));
  });

  it('on a valid IRI reference, the lenient split equals the exact parse', () => {
    fc.assert(
      fc.property(iriish, (s) => {
        const p = parseIriReference(s);
        return p === null || JSON.stringify(splitIriReference(s)) === JSON.stringify(p);
      }),
      { numRuns: 3000 },
    );
  });

  it('recomposeIri rebuilds the authority from a changed host', () => {
    const c = splitIriReference('http://u@résumé.example:8080/p');
    c.host = 'xn--rsum-bpad.example';
    expect(recomposeIri(c)).to.equal('http://u@xn--rsum-bpad.example:8080/p');
    expect(recomposeIri({ authority: 'a:1', path: '/x' })).to.equal('//a:1/x');
  });
});

describe('iri parse: huge inputs are linear and do not use the stack', () => {
  const MB5 = 5 * 1024 * 1024;
  it('a 5 MB path, query and fragment', () => {
    const s = 'http://example.org/' + 'résumé/'.repeat(MB5 / 7) + '?' + 'q=1&'.repeat(1000) + '#' + 'f'.repeat(1000);
    expect(isIri(s)).to.equal(true);
    const c = parseIriReference(s)!;
    expect(c.host).to.equal('example.org');
    expect(c.fragment!.length).to.equal(1000);
  });

  it('5 MB of ":" and of "[" and of "%" and of "@" in the authority', () => {
    for (const ch of [':', '[', '%', '@', '%4', '::1']) {
      const s = 'http://' + ch.repeat(Math.floor(MB5 / ch.length)) + '/';
      expect(isIri(s)).to.equal(false);
      expect(splitIriReference(s).path).to.equal('/');
    }
    expect(isIri('http://[' + '1:'.repeat(MB5 / 2) + ']/')).to.equal(false);
  });

  it('a 5 MB port and a 5 MB scheme', () => {
    expect(isIri('http://h:' + '8'.repeat(MB5) + '/')).to.equal(true);
    expect(isIri('a'.repeat(MB5) + ':x')).to.equal(true);
    expect(isIri('a'.repeat(MB5) + ' :x')).to.equal(false);
  });
});
