// The fast path of makeLink (src/detect/convert.ts quickLink, with what the scan noted for it) against the full
// conversion (toUri with UTS #46 hosts, toIri, toValidUri, the host and bidi checks): every field of every Link is
// the same.
import { expect } from 'chai';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setConvertFastPath } from '../src/detect/convert.js';
import { findLinks } from '../src/detect/index.js';
import type { Link } from '../src/types.js';
import { seededRandom } from '../scripts/random.js';

/** findLinks with the fast path on and off. */
function bothWays(text: string, options?: Parameters<typeof findLinks>[1]): [Link[], Link[]] {
  setConvertFastPath(true);
  const fast = findLinks(text, options);
  setConvertFastPath(false);
  try {
    return [fast, findLinks(text, options)];
  } finally {
    setConvertFastPath(true);
  }
}


const HEX = '0123456789abcdefABCDEF';
// Octets that toIri keeps (reserved, `%`, space, `|`), decodes (unreserved, UTF-8 letters), re-encodes (U+202E,
// a lone continuation byte) or reads as right-to-left (Hebrew alef: bidi-component).
const TRIPLETS = ['%20', '%2F', '%2f', '%25', '%3A', '%7C', '%41', '%7e', '%2E', '%30', '%C3%A9', '%c3%a9', '%E2%80%AE',
  '%80', '%C3', '%D7%90', '%FF', '%00', '%0A'];
const STRAY = ['%', '%zz', '%4', '%G1', '%%41', '%%'];
const PATH_CHARS = "abcXYZ019-._~!$&'()*+,;=:@/";
// Raw non-ASCII characters for the paths, queries and fragments of IRIs: letters of several scripts, right-to-left
// ones (bidi-component), a combining mark, astral characters, what toIri keeps encoded (U+202E, U+200B, a
// non-character, private use: allowed raw only in the query, a tag), a lone surrogate (toUri fails:
// conversion-failed), and what displayIri may keep encoded (CJK punctuation and brackets, quotation marks, U+3000).
const IRI_CHARS = ['é', 'ß', 'パ', 'ス', '日本', 'д', 'א', 'ب', '\u0301', '😀', '\u202E', '\u200B', '\uFDD0', '\uE000',
  '\uD800', '\u00A0', 'ｘ', 'İ', '，', '、', '（', '）', '「', '」', '…', '”', '’', '\u3000', '٣', '𝐀', '\u{E0041}'];
const IRI_HOSTS = ['例え.jp', 'bücher.de', 'XN--R8JZ45G.jp', 'аррӏе.com', 'pаypal.com', 'example.عربي', 'ｅｘａｍｐｌｅ．ｃｏｍ',
  'example。com', 'www.example。com', 'example.com。', 'a.example｡org'];

function generateLink(r: () => number, iri = false): string {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const caseOf = (s: string): string =>
    [...s].map((ch) => (r() < 0.3 ? ch.toUpperCase() : ch)).join('');
  const label = (): string => {
    const v = r();
    if (v < 0.05) return pick(['xn--r8jz45g', 'XN--R8JZ45G', 'xn--a', 'ab--c', 'a_b', '-ab', 'ab-', 'A_B', '_x', 'x_']);
    let s = '';
    const n = 1 + Math.floor(r() * 8);
    for (let k = 0; k < n; k++) s += pick([...'abcdefghijklmnopqrstuvwxyz0123456789', '-']);
    if (s.startsWith('-')) s = 'a' + s;
    if (s.endsWith('-')) s += 'z';
    return caseOf(s);
  };
  const host = (): string => {
    const n = 1 + Math.floor(r() * 3);
    const labels: string[] = [];
    for (let k = 0; k < n; k++) labels.push(label());
    return labels.join('.') + '.' + caseOf(pick(['com', 'org', 'au', 'jp', 'de', 'net', 'io']));
  };
  const piece = (): string => {
    let s = '';
    const n = Math.floor(r() * 10);
    for (let k = 0; k < n; k++) {
      const v = r();
      if (v < 0.2) s += pick(TRIPLETS).replace(/[0-9a-f]/gi, (h) => (r() < 0.2 ? pick([...HEX]) : h));
      else if (v < 0.25) s += pick(STRAY);
      else if (v < 0.28) s += pick(['[', ']', '|', '#', '`', '{']);
      else if (iri && v < 0.5) s += pick(IRI_CHARS);
      else s += pick([...PATH_CHARS]);
    }
    return s;
  };
  const kind = r();
  if (kind < 0.15) {
    // an email, bare or with mailto:
    const local = caseOf(pick(['john', 'a.b', 'x_y', 'first.last+tag', 'user%2Bx', 'u%zz', ...(iri ? ['jürgen', 'пётр'] : [])]));
    const domain = iri && r() < 0.2 ? pick(IRI_HOSTS) : host();
    return (r() < 0.5 ? 'mailto:' : '') + local + '@' + domain + (r() < 0.2 ? '?subject=' + piece() : '');
  }
  const scheme = kind < 0.3 ? '' : pick(['http://', 'https://', 'HTTP://', 'Https://', 'ftp://', 'ws://', 'ssh://', 'git://']);
  let s = scheme;
  if (scheme !== '' && r() < 0.1) s += pick(['user', 'user:pw', 'u%40x:p%zz', 'a%20b']) + '@';
  s += iri && r() < 0.2 ? pick(IRI_HOSTS) : host();
  if (r() < 0.15) s += ':' + pick(['80', '8080', '443']);
  if (r() < 0.8) s += '/' + piece();
  if (r() < 0.3) s += '?' + piece();
  if (r() < 0.2) s += '#' + piece();
  return s;
}

describe("detect: the conversion's fast path gives the same Link as the full conversion", () => {
  it('for generated ASCII links (any case hosts, %XX valid and not, ports, userinfo, xn--, _, [ ] and #)', () => {
    const r = seededRandom(0x1f15);
    let links = 0;
    let upperHost = 0;
    let triplets = 0;
    for (let k = 0; k < 6000; k++) {
      const link = generateLink(r);
      const text = `see ${link} now, and (${generateLink(r)}) too`;
      const [fast, slow] = bothWays(text);
      expect(fast, text).to.deep.equal(slow);
      links += fast.length;
      for (const l of fast) {
        if (/[A-Z]/.test(l.uri) && l.diagnostics.length === 0) upperHost++;
        if (/%[0-9a-f]{2}/i.test(l.text)) triplets++;
      }
    }
    // The generator reaches the shapes it is meant to: thousands of links, many with upper case and with triplets.
    expect(links).to.be.greaterThan(8000);
    expect(upperHost).to.be.greaterThan(1000);
    expect(triplets).to.be.greaterThan(1000);
  });

  it('for generated IRIs (non-ASCII paths, queries, fragments, local parts and hosts; RTL, bidi controls, surrogates)', () => {
    const r = seededRandom(0x3987);
    let links = 0;
    let nonAscii = 0;
    let quick = 0;
    for (let k = 0; k < 6000; k++) {
      const text = `see ${generateLink(r, true)} now, and (${generateLink(r, true)}) too`;
      const [fast, slow] = bothWays(text);
      expect(fast, text).to.deep.equal(slow);
      links += fast.length;
      for (const l of fast) {
        if (/[^\x00-\x7f]/.test(l.text)) {
          nonAscii++;
          if (l.diagnostics.length === 0) quick++;
        }
      }
    }
    // Thousands of links, many of them with non-ASCII text that converts cleanly (what the fast path takes).
    expect(links).to.be.greaterThan(8000);
    expect(nonAscii).to.be.greaterThan(2000);
    expect(quick).to.be.greaterThan(1000);
  });

  it('for hand-picked shapes, each with what the link should carry', () => {
    const cases: [string, Partial<Link>][] = [
      ['http://munnari.OZ.AU/x', { uri: 'http://munnari.oz.au/x', iri: 'http://munnari.oz.au/x', diagnostics: [] }],
      ['DeepEddy.Com', { uri: 'https://deepeddy.com', iri: 'https://deepeddy.com', diagnostics: [] }],
      ['HTTP://A.com/B', { uri: 'http://a.com/B', iri: 'http://a.com/B', diagnostics: [] }],
      ['http://a.com/x%20y%2f', { uri: 'http://a.com/x%20y%2f', iri: 'http://a.com/x%20y%2f', diagnostics: [] }],
      ['http://a.com/r%C3%A9sum%c3%a9', { uri: 'http://a.com/r%C3%A9sum%c3%a9', iri: 'http://a.com/résumé', diagnostics: [] }],
      ['http://a.com/%7Euser', { uri: 'http://a.com/%7Euser', iri: 'http://a.com/~user' }],
      ['http://a.com/a%zz', { uri: 'http://a.com/a%25zz', iri: 'http://a.com/a%zz', diagnostics: ['invalid-percent-encoding'] }],
      ['http://a.com/?a=1&#x3D;2#f', { uri: 'http://a.com/?a=1&#x3D;2%23f', iri: 'http://a.com/?a=1&#x3D;2#f' }],
      ['http://a.com/abc%D7%90', { iri: 'http://a.com/abcא', diagnostics: ['bidi-component'] }],
      ['John.Smith@Example.COM', { uri: 'mailto:John.Smith@example.com', diagnostics: [] }],
      ['https://x_y.com/', { uri: 'https://x_y.com/', diagnostics: [] }],
      ['HTTPS://X_Y.com/', { uri: 'https://x_y.com/', diagnostics: [] }],
      ['https://ab--x_y.com/', { diagnostics: ['idna-failed'] }],
      ['https://XN--R8JZ45G.jp/', { iri: 'https://例え.jp/' }],
      ['https://A.com/パス?q=日本#é', { uri: 'https://a.com/%E3%83%91%E3%82%B9?q=%E6%97%A5%E6%9C%AC#%C3%A9', iri: 'https://a.com/パス?q=日本#é' }],
      ['http://a.com/אב', { uri: 'http://a.com/%D7%90%D7%91', iri: 'http://a.com/אב', diagnostics: [] }],
      ['http://a.com/abא', { iri: 'http://a.com/abא', diagnostics: ['bidi-component'] }],
      ['http://a.com/x\u200By', { uri: 'http://a.com/x%E2%80%8By', iri: 'http://a.com/x%E2%80%8By' }],
      ['jürgen@Example.DE', { uri: 'mailto:j%C3%BCrgen@example.de', iri: 'mailto:jürgen@example.de' }],
      ['https://例え.jp/パス', { uri: 'https://xn--r8jz45g.jp/%E3%83%91%E3%82%B9', iri: 'https://例え.jp/パス' }],
      ['mailto:Jürgen@Ex.DE?subject=ä', { uri: 'mailto:J%C3%BCrgen@ex.de?subject=%C3%A4', iri: 'mailto:Jürgen@ex.de?subject=ä' }],
      ['ftp://u:p@A.b:21/x', { uri: 'ftp://u:p@a.b:21/x', diagnostics: ['userinfo'] }],
    ];
    for (const [text, expected] of cases) {
      const [fast, slow] = bothWays(`see ${text} now`);
      expect(fast, text).to.have.length(1);
      expect(fast, text).to.deep.equal(slow);
      expect(fast[0], text).to.deep.include({ text, ...expected });
    }
  });

  it('for links the author delimited that keep a word a bare link ends before (glued.ts: the iri encodes it)', () => {
    const cases: [string, string][] = [
      ['<https://a.example/a.html에서>', 'https://a.example/a.html%EC%97%90%EC%84%9C'],
      ['"https://a.example/x/를"', 'https://a.example/x/%EB%A5%BC'],
      ['<https://a.example/b.txtを参照>', 'https://a.example/b.txt%E3%82%92参照'],
      ['<https://a.example/x/은>', 'https://a.example/x/은'],
    ];
    for (const [text, iri] of cases) {
      const [fast, slow] = bothWays(`see ${text} now`);
      expect(fast, text).to.have.length(1);
      expect(fast, text).to.deep.equal(slow);
      expect(fast[0]!.iri, text).to.equal(iri);
    }
    // Found in review: a `<…>` link taken on past what terminate walked, a link cut at maxLinkLength after a particle.
    for (const [text, options] of [
      ['<https://a.example/x)a를>', undefined],
      ['<https://a.example/x)a.htmlを参照>', undefined],
      ['https://a.example/' + 'a'.repeat(45) + '를가나다', { maxLinkLength: 64 }],
    ] as const) {
      const [fast, slow] = bothWays(`see ${text} now`, options);
      expect(fast, text).to.have.length(1);
      expect(fast, text).to.deep.equal(slow);
    }
  });

  it('for hosts and addresses the scan found plain (no walk of them), and their near misses', () => {
    // [text, uri]: the authority or address is lower-case LDH without hyphens (and a plain local part) or just not.
    const cases: [string, string][] = [
      ['example.com./x', 'https://example.com./x'],
      ['http://example.com./x', 'http://example.com./x'],
      ['http://example.com.', 'http://example.com'],
      ['http://a.b.example.co.uk', 'http://a.b.example.co.uk'],
      ['a.b.example.co.uk/p?q=1#f', 'https://a.b.example.co.uk/p?q=1#f'],
      ['http://example.com/a%41#x#y', 'http://example.com/a%41#x%23y'],
      ['http://example.com:8080/x', 'http://example.com:8080/x'],
      ['http://Example.com/x', 'http://example.com/x'],
      ['http://my-host.example.com/x', 'http://my-host.example.com/x'],
      ['http://ab--cd.example.com/x', 'http://ab--cd.example.com/x'],
      ['http://xn--r8jz45g.jp/x', 'http://xn--r8jz45g.jp/x'],
      ['ssh://git@example.com/x', 'ssh://git@example.com/x'],
      ['git://x_y.example.com/x', 'git://x_y.example.com/x'],
      ["o'neil+x=1@example.com", "mailto:o'neil+x%3D1@example.com"],
      ['John.Smith@example.com', 'mailto:John.Smith@example.com'],
      ['john@Example.com', 'mailto:john@example.com'],
      ['john@my-example.com', 'mailto:john@my-example.com'],
      ['MailTo:john@example.com?subject=a%20b', 'mailto:john@example.com?subject=a%20b'],
      ['a/b@example.com', 'mailto:a%2Fb@example.com'],
      ['a%41b@example.com', 'mailto:a%2541b@example.com'],
      ['a^b@example.com', 'mailto:a%5Eb@example.com'],
      // UTS #46 maps an ideographic or full-width dot to `.`: a domain holding one is not written as it is.
      ['example。com', 'https://example.com'],
      ['www.example。com/x', 'https://www.example.com/x'],
      ['example.com。/x', 'https://example.com./x'],
      ['example.com．/x', 'https://example.com./x'],
      ['john@example。com', 'mailto:john@example.com'],
    ];
    for (const [text, uri] of cases) {
      const [fast, slow] = bothWays(`see ${text} now, {${text}} and '${text}'`);
      expect(fast, text).to.have.length(3);
      expect(fast, text).to.deep.equal(slow);
      expect(fast[0], text).to.deep.include({ text: text.replace(/\.$/, ''), uri });
    }
  });

  it('for text pieced together from link parts, dots of every kind, brackets, quotes and non-ASCII characters', () => {
    // What the scan notes for the conversion (ScanState.plainAuthority, pathNotSimple) in shapes no link generator
    // makes: a `。` trigger, a full-width trailing dot, a host run that stops at a bracket, a path cut by a quote.
    const ATOMS = ['http://', 'https://', 'HTTP://', 'mailto:', 'MailTo:', 'ftp://', 'tel:', 'www.', 'example', 'Ex', 'a',
      'b-c', 'x_y', '.', '.', '.', '。', '．', '｡', 'com', 'org', 'jp', 'COM', 'de', '@', '@', ':', '8080', '/', '/', '?', '#',
      '=', '&', '%41', '%zz', '%', '-', 'xn--r8jz45g', '例え', 'é', 'א', ' ', ' ', '\n', '(', ')', '[', ']', '<', '>', '"',
      "'", ',', ';', '!', '~', '+', '$', '|', '{', '}', '^', '`', '\\', '\u202E', '\u200B', '😀', 'ｃｏｍ', '、', '）', '（'];
    const r = seededRandom(0x7e57);
    let links = 0;
    for (let k = 0; k < 3000; k++) {
      let text = '';
      const n = 5 + Math.floor(r() * 40);
      for (let m = 0; m < n; m++) text += ATOMS[Math.floor(r() * ATOMS.length)];
      for (const options of [undefined, { documentCharset: 'Shift_JIS' }]) {
        const [fast, slow] = bothWays(text, options);
        expect(fast, text).to.deep.equal(slow);
        links += fast.length;
      }
    }
    expect(links).to.be.greaterThan(1500);
  });

  it('for a link in `<…>` taken on to its `>` past where its path ended, with no whitespace (RFC 3986 Appendix C)', () => {
    // What terminate() noted for the conversion (ScanState.pathNotSimple) ends where its walk ended: the rest, up to
    // the `>`, is walked by the conversion too (a raw `é` in the uri, a stray `%` or a second `#` left as written).
    const cases: [string, Partial<Link>][] = [
      ['<http://example.com/a)é>', { uri: 'http://example.com/a)%C3%A9', iri: 'http://example.com/a)é', diagnostics: [] }],
      ['<http://example.com/a)%zz>', { uri: 'http://example.com/a)%25zz', diagnostics: ['invalid-percent-encoding'] }],
      ['<URL:http://example.com/a)#b#c>', { uri: 'http://example.com/a)#b%23c', iri: 'http://example.com/a)#b#c' }],
      ['<http://example.com!x/%zz>', { uri: 'http://example.com!x/%25zz', diagnostics: ['idna-failed', 'invalid-percent-encoding'] }],
      ['<example.com/a)א>', { uri: 'https://example.com/a)%D7%90', diagnostics: ['bidi-component'] }],
      // The host ends at the first `@` the scan meets, the authority at the last (RFC 3986 §3.2): a userinfo `@`
      // is encoded, with or without a `%` elsewhere in the link.
      ['<ftp://a@b@example.com/x>', { uri: 'ftp://a%40b@example.com/x', iri: 'ftp://a@b@example.com/x' }],
      ['<ftp://a@b@example.com/%41>', { uri: 'ftp://a%40b@example.com/%41', iri: 'ftp://a@b@example.com/A' }],
      ['<ftp://a@b@example.com/é>', { uri: 'ftp://a%40b@example.com/%C3%A9', iri: 'ftp://a@b@example.com/é' }],
    ];
    for (const [text, expected] of cases) {
      const [fast, slow] = bothWays(`see ${text} now`);
      expect(fast, text).to.have.length(1);
      expect(fast, text).to.deep.equal(slow);
      expect(fast[0], text).to.deep.include({ text: text.replace(/^<(URL:)?|>$/g, ''), ...expected });
    }
  });

  it('with a document charset, an other default scheme, a bidi control and a cut link', () => {
    for (const [text, options] of [
      ['http://a.com/?q=%41%E6%97%A5 Ex.COM/%20', { documentCharset: 'Shift_JIS' }],
      ['Example.COM/a%20b x@Y.org', { defaultScheme: 'http' }],
      ['\u202Ehttp://A.com/%20\u202C', undefined],
      ['http://A.com/' + 'a%20'.repeat(60), { maxLinkLength: 100 }],
      ['http://a.com/?q=日本 Ex.COM/é', { documentCharset: 'Shift_JIS' }],
      ['http://a.com/?q=日本 Ex.COM/é', { documentCharset: 'UTF-8' }],
    ] as const) {
      const [fast, slow] = bothWays(text, options);
      expect(fast.length, text).to.be.greaterThan(0);
      expect(fast, text).to.deep.equal(slow);
    }
  });

  it('through the memo of full conversions: a repeated link gives the Link a first one gives, with its own diagnostics', () => {
    const link = ['https://A.com/パス?q=%41', 'x_y@Example.COM', 'http://例え.jp/%zz', 'https://xn--a.co/', 'Ex.COM/a#b#c',
      'https://例え.jp/' + 'ä%41'.repeat(20), 'http://a.com/{x}|y', 'user:pw@例え.jp', 'ftp://u@аррӏе.com/'];
    for (const text of link) {
      // the same text bare, by a bidi control, in brackets, after a sentence, cut by maxLinkLength; and wrapped (P3)
      const doc = `${text} (${text}) \u202A${text}\u202C <${text}> ${text}. ${text} <URL:${text}\n  /more> <URL:${text}\n  /more>`;
      for (const options of [undefined, { defaultScheme: 'http' }, { documentCharset: 'Shift_JIS' }, { maxLinkLength: 64 }]) {
        setConvertFastPath(true);
        const first = findLinks(doc, options);
        const again = findLinks(doc, options); // every conversion remembered
        const [, slow] = bothWays(doc, options);
        expect(first, doc).to.deep.equal(slow);
        expect(again, doc).to.deep.equal(slow);
        expect(again.length, doc).to.be.greaterThan(3);
        for (let k = 0; k < again.length; k++) {
          expect(again[k]).to.not.equal(first[k]);
          expect(again[k]!.diagnostics).to.not.equal(first[k]!.diagnostics);
        }
      }
    }
  });

  const root = join(dirname(fileURLToPath(import.meta.url)), '..', 'corpora');
  const large = ['en-mixed.txt', 'mail.txt', 'multilingual.txt'].map((f) => join(root, 'large', f));
  const haveLarge = large.every((f) => existsSync(f));
  const files = haveLarge
    ? large
    : existsSync(join(root, 'samples'))
      ? readdirSync(join(root, 'samples')).filter((f) => f.endsWith('.txt')).map((f) => join(root, 'samples', f))
      : [];
  const title = haveLarge
    ? 'for every link in the first 2 MB of corpora/large/en-mixed.txt, mail.txt and multilingual.txt'
    : 'for every link in corpora/samples/*.txt (corpora/large/en-mixed.txt, mail.txt or multilingual.txt absent)';
  it(title, () => {
    let links = 0;
    for (const file of files) {
      const text = readFileSync(file).subarray(0, 2 << 20).toString('utf8');
      const [fast, slow] = bothWays(text);
      expect(fast.length, file).to.equal(slow.length);
      for (let k = 0; k < fast.length; k++) expect(fast[k], `${file}: ${fast[k]!.text}`).to.deep.equal(slow[k]);
      links += fast.length;
    }
    // The committed samples hold 83 hand-labelled links (corpora/samples/*.links.tsv).
    expect(links).to.be.at.least(haveLarge ? 10000 : 80);
  });
});
