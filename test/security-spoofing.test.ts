// Issue 7 "Spoofing": hosts that imitate other hosts, bidi controls that reorder what is shown, userinfo that
// disguises the host. Each carries a diagnostic, and the HTML renderer shows it as a marked, unclickable span —
// except http(s) userinfo without a password, which is no link at all (UTS #58's conformance file; see below).
import { expect } from 'chai';
import { findLinks, linkify, toHtml } from '../src/index.js';
import type { DiagnosticCode } from '../src/types.js';
import { confusableHost, skeleton, WELL_KNOWN_DOMAINS } from '../src/unicode/confusables.js';
import { mark } from './detect-support.js';

/** The HTML of `text`, with the one expected unsafe link shown as `[codes|text]` and clickable links as `<text>`. */
function shownAs(text: string): string {
  const html = toHtml(linkify(text));
  return html
    .replace(/<span class="irilink-unsafe" title="([^"]*)"(?: dir="ltr")?>([^<]*)<\/span>/g, '[$1|$2]')
    .replace(/<a href="[^"]*" rel="[^"]*"(?: dir="ltr")?>([^<]*)<\/a>/g, '<$1>');
}

function diagnosticsOf(text: string): DiagnosticCode[][] {
  return findLinks(text).map((l) => l.diagnostics);
}

const BIDI_CONTROLS = ['\u200E', '\u200F', '\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069', '\u061C'];

describe('security: spoofing is flagged and never clickable', () => {
  describe('mixed-script host labels (UTS #39 §5)', () => {
    // Each of these also imitates a well-known domain, so it carries confusable-host too (UTS #39 §4).
    const cases: [string, string, string][] = [
      // Cyrillic р а у inside Latin
      ['see https://раураl.com/login now', 'see ⸠https://раураl.com/login⸡ now', 'mixed-script-host confusable-host'],
      // Cyrillic о о inside Latin, schemeless
      ['go to gооgle.com today', 'go to ⸠gооgle.com⸡ today', 'mixed-script-host confusable-host'],
      // Greek ο inside Latin, in the domain of an email
      ['write to ceo@micrοsoft.com.', 'write to ⸠ceo@micrοsoft.com⸡.', 'mixed-script-host confusable-host'],
      // Cyrillic а inside Latin, a host that imitates nothing listed nor any ASCII label (д has no ASCII prototype)
      ['see https://pаyдay.example/ now', 'see ⸠https://pаyдay.example/⸡ now', 'mixed-script-host'],
    ];
    for (const [text, marked, codes] of cases) {
      it(JSON.stringify(text), () => {
        const links = findLinks(text);
        expect(mark(text, links)).to.equal(marked);
        expect(links[0]!.diagnostics.join(' ')).to.equal(codes);
        const shown = links[0]!.text;
        expect(shownAs(text)).to.equal(text.replace(shown, `[${codes}|${shown}]`));
      });
    }

    it('a single-script IDN is not flagged and stays clickable', () => {
      for (const text of ['https://例え.jp/パス', 'https://пример.рф/', 'https://münchen.de/', 'https://ελλάδα.gr/']) {
        expect(diagnosticsOf(text), text).to.deep.equal([[]]);
        expect(shownAs(text), text).to.equal(`<${text}>`);
      }
    });
  });

  describe('confusable hosts (UTS #39 §4): confusableHost', () => {
    const cases: [string, string | null][] = [
      ['раураl.com', 'paypal.com'], //           Cyrillic р а у: mixed with Latin l
      ['аррӏе.com', 'apple.com'], //             all Cyrillic (U+04CF palochka): a whole-script confusable
      ['xn--80ak6aa92e.com', 'apple.com'], //    the same host in its ACE form
      ['login.раураl.com', 'paypal.com'], //     a subdomain of the look-alike
      ['gооgle.com', 'google.com'], //           Cyrillic о о
      ['PAYPАL.COM', 'paypal.com'], //           upper case, Cyrillic А
      ['αpple.com', 'apple.com'], //             Greek α
      ['раураl.com.', 'paypal.com'], //          a trailing root dot
      ['ɡithub.com', 'github.com'], //           U+0261 LATIN SMALL LETTER SCRIPT G
      ['mаil.example', 'mail.example'], //       not listed: the whole host looks like an ASCII host (rule 2)
      ['ѕсоре.example', 'scope.example'], //     all Cyrillic, not listed (rule 2)
      ['example.com', null], //                  ASCII imitates nothing here
      ['paypal.com', null],
      ['paypa1.com', null], //                   ASCII look-alikes are out of scope
      ['例え.jp', null],
      ['пример.рф', null], //                    a Cyrillic word under a Cyrillic TLD
      ['сайт.com', null], //                     Cyrillic that looks like no ASCII label (й т)
      ['сор.ru', null], //                       Cyrillic under .ru is the local language
      ['münchen.de', null],
      ['straße.de', null],
      ['ｅｘａｍｐｌｅ．ｃｏｍ', null], //           full-width: UTS #46 maps it to example.com itself
      ['[::1]', null],
      ['', null],
    ];
    for (const [host, expected] of cases) {
      it(`${JSON.stringify(host)} → ${JSON.stringify(expected)}`, () => {
        expect(confusableHost(host)).to.equal(expected);
      });
    }

    it('skeleton is the UTS #39 §4 transform: confusables meet, different strings do not', () => {
      expect(skeleton('раураl')).to.equal(skeleton('paypal'));
      expect(skeleton('rn')).to.equal(skeleton('m')); //  m ; r n in confusables.txt
      expect(skeleton('l')).to.equal(skeleton('1')).and.to.equal(skeleton('I'));
      expect(skeleton('paypal')).to.not.equal(skeleton('paypa'));
      expect(skeleton('é')).to.equal('e\u0301'); //     NFD before and after the mapping
    });

    it('a Latin label spelt with Latin letters is a word, not a disguise (Danish æ, French œ, Turkish ı)', () => {
      for (const host of ['værtsnavn.dk', 'œuvre.fr', 'ı.tr', 'straße.de', 'façade.fr', 'bücher.de']) {
        expect(confusableHost(host), host).to.equal(null);
      }
      expect(diagnosticsOf('dav://eksempel.værtsnavn.dk/sti')).to.deep.equal([[]]);
      // Another script passing for Latin is still flagged.
      expect(confusableHost('аррӏе.com')).to.equal('apple.com');
    });

    it('…but phonetic and technical Latin letters imitating ASCII are a disguise (found in review: no diagnostic)', () => {
      const hosts: Array<[string, string]> = [
        ['exɑmple.com', 'example.com'], // U+0251 LATIN SMALL LETTER ALPHA
        ['exampǀe.com', 'example.com'], // U+01C0 LATIN LETTER DENTAL CLICK
        ['ꜱcope.com', 'scope.com'], //     U+A731 LATIN LETTER SMALL CAPITAL S
        ['mybɑnk.com', 'mybank.com'],
      ];
      for (const [host, imitated] of hosts) {
        expect(confusableHost(host), host).to.equal(imitated);
        expect(diagnosticsOf(`https://${host}/login`), host).to.deep.equal([['confusable-host']]);
      }
      // Orthographic Latin (Latin-1, Latin Extended-A, and letters with diacritics) stays a word.
      for (const host of ['smørrebrød.dk', 'łódź.pl', 'ılık.com.tr', 'vượt.vn', 'șir.ro']) expect(confusableHost(host), host).to.equal(null);
    });

    it('no well-known domain is a confusable of another well-known domain, nor of itself', () => {
      for (const domain of WELL_KNOWN_DOMAINS) {
        expect(confusableHost(domain), domain).to.equal(null);
        expect(domain, domain).to.match(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/);
      }
      expect(new Set(WELL_KNOWN_DOMAINS).size).to.equal(WELL_KNOWN_DOMAINS.length);
    });

    it('a look-alike of a well-known domain carries confusable-host and is not clickable', () => {
      for (const [text, shown] of [['see https://аррӏе.com/ now', 'https://аррӏе.com/'], ['go to gооgle.com today', 'gооgle.com']]) {
        const links = findLinks(text);
        expect(links.map((l) => l.text)).to.deep.equal([shown]);
        expect(links[0]!.diagnostics).to.include('confusable-host');
        // Two assertions: chai's `not` would also negate anything chained after it with `.and`.
        const html = toHtml(linkify(text));
        expect(html).to.not.include('<a ');
        expect(html).to.include('confusable-host');
      }
    });

    it('ACE (xn--) labels are judged in their Unicode form, by both UTS #39 checks', () => {
      const cases: [string, DiagnosticCode[]][] = [
        ['https://xn--80ak6aa92e.com/', ['confusable-host']], //                    аррӏе.com, all Cyrillic
        ['https://XN--80AK6AA92E.com/', ['confusable-host']], //                    ACE prefix in upper case
        ['https://xn--pypal-4ve.com/', ['mixed-script-host', 'confusable-host']], // pаypal.com, Cyrillic а
        ['login.xn--pypal-4ve.com', ['mixed-script-host', 'confusable-host']],
        ['https://xn--r8jz45g.jp/', []], //                                         例え.jp
        ['https://xn--e1afmkfd.xn--p1ai/', []], //                                  пример.рф
      ];
      for (const [text, diagnostics] of cases) {
        expect(diagnosticsOf(text), text).to.deep.equal([diagnostics]);
        const html = toHtml(linkify(text));
        if (diagnostics.length > 0) expect(html, text).to.not.include('<a ');
        else expect(html, text).to.include('<a ');
      }
    });

    it('a host with neither non-ASCII characters nor an ACE label is not checked: ASCII imitates nothing', () => {
      for (const text of ['https://paypa1.com/', 'https://xn.example/', 'https://axn--b.example/']) {
        expect(diagnosticsOf(text), text).to.deep.equal([[]]);
      }
    });

    it('a whole-script confusable link is still converted, to the punycode of what is written', () => {
      const [link] = findLinks('https://аррӏе.com/');
      expect(link!.uri).to.equal('https://xn--80ak6aa92e.com/');
    });

    it('rejects a non-string with a TypeError', () => {
      expect(() => confusableHost(42 as unknown as string)).to.throw(TypeError);
      expect(() => skeleton(null as unknown as string)).to.throw(TypeError);
    });
  });

  describe('bidi controls (P1, RFC 3987 §4.1)', () => {
    it('invoice\\u202Efdp.exe: the link ends before U+202E and is not clickable', () => {
      const text = 'get https://example.com/invoice\u202Efdp.exe now';
      expect(mark(text, findLinks(text))).to.equal('get ⸠https://example.com/invoice⸡\u202Efdp.exe now');
      expect(diagnosticsOf(text)).to.deep.equal([['bidi-control']]);
      expect(shownAs(text)).to.equal('get [bidi-control|https://example.com/invoice]\u202Efdp.exe now');
    });

    for (const control of BIDI_CONTROLS) {
      const name = `U+${control.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
      it(`${name} inside a path ends the link; the part before is flagged and shown as text`, () => {
        const text = `see https://example.com/a${control}b/c here`;
        const links = findLinks(text);
        expect(links[0]!.text).to.equal('https://example.com/a');
        expect(links[0]!.diagnostics).to.include('bidi-control');
        expect(toHtml(linkify(text))).to.not.include('<a ');
        expect(shownAs(text)).to.include('[bidi-control|https://example.com/a]');
      });
    }
  });

  describe('userinfo disguising the host (P5, RFC 3986 §7.6)', () => {
    it('https://user:pw@evil.example/ is one link with the userinfo diagnostic, not clickable', () => {
      const text = 'log in at https://user:pw@evil.example/ now';
      expect(mark(text, findLinks(text))).to.equal('log in at ⸠https://user:pw@evil.example/⸡ now');
      expect(diagnosticsOf(text)).to.deep.equal([['userinfo']]);
      expect(shownAs(text)).to.equal('log in at [userinfo|https://user:pw@evil.example/] now');
    });

    it('userinfo without a password in http(s) (`https://bank.example@evil.example/`) gives no link at all', () => {
      // Decided with the lead: UTS #58's conformance file links nothing in `http://john.smith@example.com` and
      // `http://john.smith@example.com/foo/bar` (userinfo is deprecated, RFC 3986 §3.2.1), and 345/345 must hold,
      // so the detector follows it rather than DESIGN.md P5's one flagged link. Nothing is clickable either way:
      // not the whole URL, not the part after the `@` (which would open evil.example), not the part before it
      // (which would pass for bank.example), and no mailto link made of `bank.example@evil.example`.
      for (const text of [
        'https://bank.example@evil.example/',
        'x https://bank.example@evil.example/ y',
        'https://user@evil.example/',
        'HTTPS://user@evil.example/path',
        'go https://www.paypal.com@evil.com/login now', // real TLDs on both sides of the `@`
        'http://john.smith@example.com', //              the conformance file's own cases
        'http://john.smith@example.com/foo/bar',
      ]) {
        expect(findLinks(text), text).to.deep.equal([]);
        expect(toHtml(linkify(text)), text).to.not.include('<a ');
      }
    });

    it('userinfo with a password, or in another scheme, is one link flagged userinfo and not clickable', () => {
      const cases: [string, string][] = [
        ['https://bank.example:pw@evil.example/', 'https://bank.example:pw@evil.example/'],
        ['https://www.bank.example:443@evil.example/login', 'https://www.bank.example:443@evil.example/login'],
        ['clone ssh://git@host.example/org/repo.git now', 'ssh://git@host.example/org/repo.git'],
        ['ftp://anonymous@ftp.example.org/pub/', 'ftp://anonymous@ftp.example.org/pub/'],
      ];
      for (const [text, shown] of cases) {
        const links = findLinks(text);
        expect(links.map((l) => l.text), text).to.deep.equal([shown]);
        expect(links[0]!.diagnostics, text).to.deep.equal(['userinfo']);
        expect(shownAs(text), text).to.equal(text.replace(shown, `[userinfo|${shown}]`));
      }
    });
  });
});
