// RFC 3987 §5.3: the comparison ladder. Each case names the lowest rung at which the two IRIs are
// equivalent ('never' when none), and is checked at every rung: not equivalent below, equivalent at and above.
import { expect } from 'chai';
import fc from 'fast-check';
import { compareIris, comparisonKey, removeDotSegments, type ComparisonLevel } from '../src/iri/compare.js';
import { toUri } from '../src/iri/to-uri.js';

const LADDER: ComparisonLevel[] = ['simple', 'case', 'percent-encoding', 'path-segment', 'scheme'];

function equivalentFrom(a: string, b: string, lowest: ComparisonLevel | 'never'): void {
  const from = lowest === 'never' ? LADDER.length : LADDER.indexOf(lowest);
  for (let rung = 0; rung < LADDER.length; rung++) {
    const level = LADDER[rung]!;
    expect(compareIris(a, b, level), `${a} vs ${b} at ${level}`).to.equal(rung >= from);
    expect(compareIris(b, a, level), `${b} vs ${a} at ${level}`).to.equal(rung >= from);
    expect(comparisonKey(a, level) === comparisonKey(b, level), `keys at ${level}`).to.equal(rung >= from);
  }
}

function table(cases: [string, string, ComparisonLevel | 'never', string][]): void {
  for (const [a, b, lowest, why] of cases) {
    it(`${a}  ≡  ${b}  from ${lowest} (${why})`, () => equivalentFrom(a, b, lowest));
  }
}

describe('compareIris: simple string comparison (§5.3.1)', () => {
  table([
    ['http://example.com/', 'http://example.com/', 'simple', 'identical'],
    ['', '', 'simple', 'the empty string is a (relative) reference'],
    ['http://www.example.org/résumé.html', 'http://www.example.org/r%C3%A9sum%C3%A9.html', 'percent-encoding', '§5.3.1: never maps IRIs to URIs'],
  ]);
});

describe('compareIris: case normalization (§5.3.2.1)', () => {
  table([
    ['HtTp://example.com/', 'http://example.com/', 'case', 'scheme'],
    ['http://Example.COM/', 'http://example.com/', 'case', 'US-ASCII host'],
    ['http://[FE80::1]/', 'http://[fe80::1]/', 'case', 'IP literal'],
    ['http://e.com/%c3%a9?%3d#%7e', 'http://e.com/%C3%A9?%3D#%7E', 'case', 'hex digits in every component'],
    ['http://e.com/Path', 'http://e.com/path', 'never', 'the path is case-sensitive'],
    ['http://User@e.com/', 'http://user@e.com/', 'never', 'userinfo is case-sensitive'],
    ['http://e.com/?Q', 'http://e.com/?q', 'never', 'query'],
    ['http://e.com/#F', 'http://e.com/#f', 'never', 'fragment'],
    ['http://RÉSUMÉ.example.org/', 'http://résumé.example.org/', 'scheme', 'a non-ASCII host is never case-folded here; IDNA folds it'],
    ['http://Bücher.EXAMPLE/', 'http://Bücher.example/', 'scheme', 'the whole host is left alone when it is not US-ASCII'],
    ['http://e.com/Vi\u1EC7t', 'http://e.com/Vi\u00EA\u0323t', 'never', '§5.3.2.2: no character normalization (NFC)'],
    ['http://e.com/%zz', 'http://e.com/%ZZ', 'never', 'not a percent-encoding triplet'],
  ]);
});

describe('compareIris: percent-encoding normalization (§5.3.2.3)', () => {
  table([
    ['http://e.com/%41%62%7E%2d%2E%5f', 'http://e.com/Ab~-._', 'percent-encoding', 'unreserved characters are decoded'],
    ['http://e.com/?%61=%62#%63', 'http://e.com/?a=b#c', 'percent-encoding', 'in query and fragment too'],
    ['http://%65xample.com/', 'http://example.com/', 'percent-encoding', 'in the host (EQV-24)'],
    ['http://%45XAMPLE.com/', 'http://example.com/', 'percent-encoding', 'a decoded letter in an ASCII host is lowercased'],
    ['http://u%73er@e.com/', 'http://user@e.com/', 'percent-encoding', 'userinfo'],
    ['http://e.com/a%2Fb', 'http://e.com/a/b', 'never', 'reserved characters stay encoded (EQV-25)'],
    ['http://e.com/?a%3Db', 'http://e.com/?a=b', 'never', 'reserved, in the query'],
    ['http://e.com/r%E9sum%E9', 'http://e.com/résumé', 'never', 'Latin-1 octets are not UTF-8'],
    ['http://e.com/ros%c3%a9', 'http://e.com/rosé', 'percent-encoding', 'IRI aligned with URI (lowercase hex)'],
    ['http://e.com/\u{10302}', 'http://e.com/%F0%90%8C%82', 'percent-encoding', 'astral character, four UTF-8 octets'],
    ['http://e.com/%2E%2E/b', 'http://e.com/b', 'path-segment', 'a decoded dot segment is removed one rung up'],
    ['http://résumé.example.org/', 'http://r%C3%A9sum%C3%A9.example.org/', 'percent-encoding', 'a non-ASCII host maps to its UTF-8 percent form'],
    // A host with a triplet of a non-ASCII byte is no US-ASCII host: its capitals stay, as in its IRI (found in review).
    ['foo://Ké/', 'foo://K%C3%A9/', 'percent-encoding', 'an IRI and its URI, capitals in a non-ASCII host'],
    ['foo://K%C3%A9/', 'foo://k%C3%A9/', 'never', 'a non-ASCII host keeps its case (for a scheme without IDNA)'],
  ]);

  it('an IRI and its toUri are equivalent at the percent-encoding rung, and comparisonKey is idempotent (found in review)', () => {
    const host = fc.array(fc.constantFrom('a', 'K', 'é', 'ß', 'Z', '-', '%41', '%C3%A9', 'É', '.'), { minLength: 1, maxLength: 8 });
    fc.assert(
      fc.property(fc.constantFrom('foo', 'http', 'ws'), host, (scheme, parts) => {
        const iri = `${scheme}://${parts.join('')}/p`;
        let uri: string;
        try {
          uri = toUri(iri);
        } catch {
          return;
        }
        for (const level of ['percent-encoding', 'path-segment', 'scheme'] as const) {
          expect(compareIris(iri, uri, level), `${iri} ${uri} ${level}`).to.equal(true);
          const key = comparisonKey(iri, level);
          expect(comparisonKey(key, level), `${iri} ${level}`).to.equal(key);
        }
      }),
      { seed: 20261124, numRuns: 2000 },
    );
  });
});

describe('compareIris: path segment normalization (§5.3.2.4)', () => {
  table([
    ['http://e.com/a/./b/../c', 'http://e.com/a/c', 'path-segment', 'EQV-11'],
    ['http://e.com/a/b/c/./../../g', 'http://e.com/a/g', 'path-segment', 'RFC 3986 §5.2.4 example'],
    ['http://e.com/../../a', 'http://e.com/a', 'path-segment', '".." above the root'],
    ['http://e.com/a/..', 'http://e.com/', 'path-segment', 'a final ".." leaves the "/"'],
    ['file:///a/./b', 'file:///a/b', 'path-segment', 'empty authority'],
    ['x:/a/./b', 'x:/a/b', 'path-segment', 'absolute path without authority'],
    ['urn:a/./b', 'urn:a/b', 'never', 'rootless path: not hierarchical'],
    ['a/./b', 'a/b', 'never', 'relative references are resolved before comparing (§5.1), not here'],
    ['http://e.com/a?b/../c', 'http://e.com/a?c', 'never', 'only the path'],
    ['http://e.com/a/.b', 'http://e.com/a/b', 'never', '".b" is not a dot segment'],
  ]);

  it('removeDotSegments follows RFC 3986 §5.2.4 (its examples, and §5.4 results)', () => {
    expect(removeDotSegments('/a/b/c/./../../g')).to.equal('/a/g');
    expect(removeDotSegments('mid/content=5/../6')).to.equal('mid/6');
    expect(removeDotSegments('/./')).to.equal('/');
    expect(removeDotSegments('/.')).to.equal('/');
    expect(removeDotSegments('/..')).to.equal('/');
    expect(removeDotSegments('.')).to.equal('');
    expect(removeDotSegments('..')).to.equal('');
    expect(removeDotSegments('../a')).to.equal('a');
    expect(removeDotSegments('/a/b/..g')).to.equal('/a/b/..g');
    expect(removeDotSegments('/a//../b')).to.equal('/a/b');
    expect(removeDotSegments('')).to.equal('');
  });
});

describe('compareIris: scheme-based normalization (§5.3.3)', () => {
  table([
    ['http://e.com', 'http://e.com/', 'scheme', 'empty path (EQV-12)'],
    ['http://e.com:/', 'http://e.com/', 'scheme', 'empty port (EQV-13)'],
    ['http://e.com:80/', 'http://e.com/', 'scheme', 'default port (EQV-14)'],
    ['HTTPS://e.com:443', 'https://e.com/', 'scheme', 'https 443'],
    ['ftp://e.com:21/f', 'ftp://e.com/f', 'scheme', 'ftp 21'],
    ['ws://e.com:80/', 'ws://e.com/', 'scheme', 'ws 80'],
    ['wss://e.com:443/', 'wss://e.com/', 'scheme', 'wss 443'],
    ['foo://e.com:/x', 'foo://e.com/x', 'scheme', 'an empty port, any scheme'],
    ['http://e.com:443/', 'http://e.com/', 'never', "not http's default"],
    ['http://e.com:8080/', 'http://e.com/', 'never', 'another port'],
    ['foo://e.com:80/', 'foo://e.com/', 'never', 'unknown scheme: no default port'],
    ['foo://e.com', 'foo://e.com/', 'never', 'unknown scheme: empty path kept'],
    ['http://résumé.example.org', 'http://xn--rsum-bpad.example.org', 'scheme', 'IDN and its ACE form (EQV-18)'],
    ['http://ＥＸＡＭＰＬＥ.com/', 'http://example.com/', 'scheme', 'UTS #46 maps full-width letters'],
    ['http://例え。jp/', 'http://xn--r8jz45g.jp/', 'scheme', 'UTS #46: U+3002 is a label separator'],
    ['http://Bücher.example/', 'http://xn--bcher-kva.example/', 'scheme', 'IDNA lowercases'],
    ['mailto:a@RÉSUMÉ.org', 'mailto:a@résumé.org', 'never', 'only the hosts of http https ftp ws wss go through IDNA'],
    ['http://example.org./', 'http://example.org/', 'never', 'the root dot is kept'],
    ['http://e.com/?', 'http://e.com/', 'never', 'an empty query keeps its "?" (EQV-16)'],
    ['http://e.com/#', 'http://e.com/', 'never', 'an empty fragment keeps its "#" (EQV-17)'],
    ['http://u@e.com/', 'http://u:@e.com/', 'never', 'an empty password keeps its ":" (EQV-28)'],
    ['http://e.com/data', 'http://e.com/data/', 'never', 'a trailing slash is protocol-based (§5.3.4)'],
    ['http://[::1]:80', 'http://[::1]/', 'scheme', 'IP literal: ports and path, no IDNA'],
  ]);

  it('an IDNA failure is a value, not a throw: the host is then compared as written', () => {
    // UseSTD3ASCIIRules: "_" fails ToASCII in a non-ASCII domain.
    equivalentFrom('http://a_b.例え.jp/', 'http://a_b.例え.jp:80', 'scheme');
    equivalentFrom('http://A_B.例え.jp/', 'http://a_b.例え.jp/', 'never');
    equivalentFrom('http://a_b.例え.jp/', 'http://xn--a_b-ij3d3b.jp/', 'never');
    // An invalid A-label beside a Unicode label.
    equivalentFrom('http://xn--a.例え.jp/', 'http://xn--a.例え.jp:/', 'scheme');
  });
});

describe('compareIris: inputs that are not IRIs', () => {
  it('lone surrogates: no URI mapping exists, the rest is still normalized', () => {
    equivalentFrom('HTTP://a/\uD800', 'http://a/\uD800', 'case');
    equivalentFrom('http://a/\uD800%7e', 'http://a/\uD800~', 'percent-encoding');
    equivalentFrom('http://a/é\uD800', 'http://a/%C3%A9\uD800', 'never');
    equivalentFrom('http://a/\uDC00', 'http://a/%ED%B0%80', 'never');
    // The host still goes through IDNA at the scheme rung.
    equivalentFrom('http://résumé.org:80/\uD800', 'http://xn--rsum-bpad.org/\uD800', 'scheme');
  });

  it('space and the other ASCII characters an IRI cannot hold are not encoded for comparison', () => {
    equivalentFrom('http://a/b c', 'http://a/b%20c', 'never');
    equivalentFrom('HTTP://a/b c', 'http://a/b c', 'case');
    equivalentFrom('http://a/<%7e>', 'http://a/<~>', 'percent-encoding');
    equivalentFrom('http://résumé.org/a b', 'http://xn--rsum-bpad.org/a b', 'scheme');
  });

  it('odd strings compare without throwing', () => {
    const odd = ['', ':', '//', '?#', '%', '%%41', 'http:', 'http://', 'http://@:', 'http://[', 'http://[::1', '\u0000', '\uFFFF', 'a:b:c', '::/..'];
    for (const a of odd) {
      for (const b of odd) {
        for (const level of LADDER) expect(compareIris(a, b, level)).to.equal(a === b || compareIris(b, a, level));
      }
    }
    equivalentFrom('http://[', 'HTTP://[', 'case');
  });

  it('huge inputs are handled in linear time', () => {
    const dots = 'http://e.com/' + 'a/../'.repeat(100_000) + 'b';
    expect(comparisonKey(dots, 'path-segment')).to.equal('http://e.com/b');
    const escapes = 'http://e.com/' + '%7e'.repeat(300_000);
    expect(comparisonKey(escapes, 'percent-encoding')).to.equal('http://e.com/' + '~'.repeat(300_000));
    const upper = 'HTTP://' + 'A'.repeat(500_000) + '.com/';
    expect(compareIris(upper, upper.toLowerCase(), 'case')).to.equal(true);
    const rtlHost = 'http://' + 'é'.repeat(100_000) + '.fr/';
    expect(compareIris(rtlHost, rtlHost + 'x', 'scheme')).to.equal(false);
  });

  it('misuse is a TypeError', () => {
    expect(() => compareIris('a', 'a', 'nfc' as ComparisonLevel)).to.throw(TypeError, /level/);
    expect(() => compareIris('a', 'a', undefined as unknown as ComparisonLevel)).to.throw(TypeError);
    expect(() => compareIris(null as unknown as string, 'a', 'simple')).to.throw(TypeError);
    expect(() => compareIris('a', 1 as unknown as string, 'case')).to.throw(TypeError);
    expect(() => comparisonKey('a', 'Scheme' as ComparisonLevel)).to.throw(TypeError);
    expect(() => removeDotSegments(undefined as unknown as string)).to.throw(TypeError);
  });

  it('comparisonKey is the normal form at a rung', () => {
    expect(comparisonKey('eXAMPLE://a/./b/../b/%63/%7bfoo%7d/ros%C3%A9', 'path-segment')).to.equal(
      'example://a/b/c/%7Bfoo%7D/ros%C3%A9',
    );
    expect(comparisonKey('HTTP://RÉSUMÉ.example.org:80', 'scheme')).to.equal('http://xn--rsum-bpad.example.org/');
    expect(comparisonKey('HTTP://X', 'simple')).to.equal('HTTP://X');
  });
});

describe('compareIris: ladder properties (fast-check)', () => {
  // Pairs of IRIs with the same meaning part by part, each part spelled in one of the ways the rungs
  // undo (case, escapes, dot segments, default ports, IDN forms), so that many pairs are equivalent at
  // some rung and not below it; and pairs whose parts differ in meaning.
  const SCHEMES = [['http', 'HTTP', 'Http'], ['https', 'HTTPS'], ['foo', 'FOO'], ['urn', 'Urn']];
  const HOSTS = [
    ['example.com', 'EXAMPLE.com', '%65xample.com', '%45XAMPLE.com'],
    ['résumé.org', 'RÉSUMÉ.org', 'r%C3%A9sum%C3%A9.org', 'xn--rsum-bpad.org', 'XN--RSUM-BPAD.org'],
    ['[::1]', '[::1]'],
    ['a_b.例', 'a_b.%E4%BE%8B', 'a_b.%e4%be%8b'],
    [''],
  ];
  const PORTS = [[undefined, '', '80'], ['8080'], ['443']];
  const SEGMENTS = [['a', '%61', 'b/../a'], ['~', '%7e', '%7E'], ['é', '%C3%A9', '%c3%a9'], ['%2F', '%2f'], ['x', './x', 'y/../x']];
  const QUERIES = [[undefined], [''], ['a=%41', 'a=A']];

  const choice = fc.nat({ max: 1000 });
  const part = (classes: (string | undefined)[][]) =>
    fc.tuple(fc.nat({ max: classes.length - 1 }), choice, choice).map(([m, x, y]) => {
      const spellings = classes[m]!;
      return [spellings[x % spellings.length], spellings[y % spellings.length]] as const;
    });
  const pair = fc
    .record({
      scheme: part(SCHEMES),
      host: part(HOSTS),
      port: part(PORTS),
      segments: fc.array(part(SEGMENTS), { maxLength: 4 }),
      query: part(QUERIES),
      authority: fc.boolean(),
      sameMeaning: fc.boolean(),
    })
    .chain((r) => (r.sameMeaning ? fc.constant(r) : fc.tuple(fc.constant(r), part(SEGMENTS)).map(([r2, extra]) => ({ ...r2, segments: [...r2.segments, [extra[0], 'z'] as const] }))))
    .map((r) => {
      const build = (side: 0 | 1): string => {
        const scheme = r.scheme[side]!;
        const path = r.segments.map((s) => '/' + s[side]!).join('');
        const auth = r.authority ? '//' + r.host[side]! + (r.port[side] === undefined ? '' : ':' + r.port[side]) : '';
        const query = r.query[side] === undefined ? '' : '?' + r.query[side];
        return scheme + ':' + auth + path + query;
      };
      return [build(0), build(1)] as const;
    });
  const anyString = fc.oneof(fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' }), pair.map((p) => p[0]));

  function monotonic(a: string, b: string): boolean {
    let before = false;
    for (const level of LADDER) {
      const now = compareIris(a, b, level);
      if (before && !now) return false;
      before = now;
    }
    return true;
  }

  it('each rung is reflexive and symmetric, and agrees with comparisonKey', () => {
    fc.assert(
      fc.property(fc.oneof(pair, fc.tuple(anyString, anyString)), ([a, b]) => {
        for (const level of LADDER) {
          if (!compareIris(a, a, level)) return false;
          const ab = compareIris(a, b, level);
          if (ab !== compareIris(b, a, level)) return false;
          if (ab !== (comparisonKey(a, level) === comparisonKey(b, level))) return false;
        }
        return true;
      }),
      { numRuns: 800 },
    );
  });

  it('the ladder is monotonic: equivalent at one rung implies equivalent at every rung above', () => {
    fc.assert(fc.property(pair, ([a, b]) => monotonic(a, b)), { numRuns: 3000 });
  });

  it('the generated pairs reach every rung (the property above is not vacuous)', () => {
    const firstRung = new Set<number>();
    for (const [a, b] of fc.sample(pair, { numRuns: 2000, seed: 42 })) {
      const rung = LADDER.findIndex((level) => compareIris(a, b, level));
      firstRung.add(rung);
    }
    expect([...firstRung].sort()).to.deep.equal([-1, 0, 1, 2, 3, 4]);
  });

  it('the ladder is monotonic on random strings too, and never throws', () => {
    fc.assert(fc.property(anyString, anyString, (a, b) => monotonic(a, b)), { numRuns: 1000 });
  });
});
