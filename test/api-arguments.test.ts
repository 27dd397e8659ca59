// API misuse across the public functions (DESIGN.md "Failure is a value": misuse is a TypeError with a message
// from src/errors.ts): unknown option names, arguments of the wrong type, how a message shows the value it got,
// and the defaultScheme a schemeless host can take.
import { expect } from 'chai';
import { PassThrough, Readable } from 'node:stream';
import { findLinks, linkify } from '../src/detect/index.js';
import { createLinkStream } from '../src/stream/transform.js';
import { irilinkLinkifyIt } from '../src/markdown/markdown-it.js';
import { confusablePrototype } from '../src/unicode/confusables.js';
import { linkifyMarkdown, createMarkdownSourceRenderer, toMarkdownSource } from '../src/markdown/index.js';
import { linkifyMail, linkifyMessage, mailToHtml, mailToJsonl, runMail, type MailMessage } from '../src/mail/index.js';
import {
  createRenderer,
  createRenderStream,
  containsRtl,
  refusals,
  toAnsi,
  toHtml,
  toJsonl,
  toMarkdown,
  toText,
  RENDER_FORMATS,
} from '../src/render/index.js';
import { toIri } from '../src/iri/to-iri.js';
import { toUri } from '../src/iri/to-uri.js';
import { hasMixedNumbers, isAtLeast, isSuspiciousHostLabel, restrictionLevel, type RestrictionLevel } from '../src/unicode/mixed-script.js';
import { badArgument, badOption } from '../src/errors.js';
import type { LinkChunk } from '../src/types.js';

// The functions are called the way a JavaScript caller could call them, past the types.
type Loose = (...args: unknown[]) => unknown;
const loose = (f: unknown): Loose => f as Loose;

const RENDERER_OPTIONS = {
  html: 'display, schemes, links, rel, target, class, unsafeClass, isolate, breaks',
  markdown: 'display, schemes, links',
  ansi: 'display, schemes, links, terminator, sgr, controls, underline, color',
  jsonl: 'links',
  text: 'display, links',
} as const;

describe('api: an unknown option name is a TypeError', () => {
  const chunks = linkify('see https://例え.jp/ and www.example.com');
  const plain = { html: toHtml, markdown: toMarkdown, ansi: toAnsi, jsonl: toJsonl, text: toText };

  for (const format of RENDER_FORMATS) {
    const known = RENDERER_OPTIONS[format];
    const message = `irilink: unknown option "lnks"; the known options are ${known}`;
    it(`${format}: the function, createRenderer and createRenderStream refuse { lnks: true } and list ${known}`, () => {
      expect(() => loose(plain[format])(chunks, { lnks: true })).to.throw(TypeError, message);
      expect(() => createRenderer(format, { lnks: true })).to.throw(TypeError, message);
      expect(() => createRenderStream(format, { lnks: true })).to.throw(TypeError, message);
    });
    it(`${format}: every option it lists is accepted (with its default value where there is one)`, () => {
      const options: Record<string, unknown> = {};
      for (const name of known.split(', ')) options[name] = undefined;
      expect(loose(plain[format])(chunks, options)).to.equal(loose(plain[format])(chunks));
      expect(() => createRenderStream(format, options).destroy()).to.not.throw();
    });
  }

  it('jsonl takes neither display nor schemes (every row has text, uri and iri; nothing is clickable)', () => {
    expect(() => toJsonl(chunks, { display: 'uri' } as object)).to.throw(TypeError, /unknown option "display"; the known options are links$/);
    expect(() => toJsonl(chunks, { schemes: ['https'] } as object)).to.throw(TypeError, /unknown option "schemes"/);
  });

  it('text takes no schemes (it writes every link as text)', () => {
    expect(() => toText(chunks, { schemes: ['https'] } as object)).to.throw(TypeError, /unknown option "schemes"; the known options are display, links$/);
  });

  it('the renderers still take what they took: a full options object of each', () => {
    expect(toHtml(chunks, { display: 'iri', schemes: ['https'], links: true, rel: '', target: '_blank', class: 'l', unsafeClass: 'u', isolate: 'never', breaks: true }))
      .to.equal('<a href="https://xn--r8jz45g.jp/" class="l" target="_blank">https://例え.jp/</a>\n<a href="https://www.example.com" class="l" target="_blank">www.example.com</a>\n');
    expect(toAnsi(chunks, { display: 'uri', schemes: ['https'], links: true, terminator: 'bel', sgr: 'strip', controls: 'strip', underline: false, color: 4 }))
      .to.equal('\x1b]8;;https://xn--r8jz45g.jp/\x07\x1b[38;5;4mhttps://xn--r8jz45g.jp/\x1b[39m\x1b]8;;\x07\n\x1b]8;;https://www.example.com\x07\x1b[38;5;4mhttps://www.example.com\x1b[39m\x1b]8;;\x07\n');
    expect(toMarkdown(chunks, { display: 'text', schemes: ['https'], links: true })).to.equal('[https://例え.jp/](https://xn--r8jz45g.jp/)\n[www.example.com](https://www.example.com)\n');
    expect(toText(chunks, { display: 'uri', links: true })).to.equal('https://xn--r8jz45g.jp/\nhttps://www.example.com\n');
    expect(toJsonl(chunks, { links: true }).split('\n').length).to.equal(3);
  });

  it('toUri and toIri refuse a misspelt option instead of silently using the default', () => {
    expect(() => loose(toUri)('http://résumé.example/', { hots: 'idna' })).to.throw(
      TypeError,
      'irilink: unknown option "hots"; the known options are host, normalize, asciiDisallowed, documentCharset',
    );
    expect(() => loose(toIri)('http://xn--rsum-bpad.example/', { toUnicod: false })).to.throw(
      TypeError,
      'irilink: unknown option "toUnicod"; the known options are toUnicode',
    );
    expect(toUri('http://résumé.example/', { host: 'idna' })).to.equal('http://xn--rsum-bpad.example/');
    expect(toIri('http://xn--rsum-bpad.example/', { toUnicode: false })).to.equal('http://xn--rsum-bpad.example/');
    expect(() => loose(toUri)('x', [])).to.throw(TypeError, /toUri\(\): options must be an object or undefined, got an array/);
    expect(() => loose(toIri)('x', [])).to.throw(TypeError, /toIri\(\): options must be an object or undefined, got an array/);
  });

  it('toMarkdownSource and createMarkdownSourceRenderer know schemes only', () => {
    const md = linkifyMarkdown('see https://a.example/x');
    const message = 'irilink: unknown option "scheme"; the known options are schemes';
    expect(() => loose(toMarkdownSource)(md, { scheme: ['https'] })).to.throw(TypeError, message);
    expect(() => loose(createMarkdownSourceRenderer)({ scheme: ['https'] })).to.throw(TypeError, message);
    // Refused by the schemes: written with : . escaped, so no autolinker links it (it shows as written).
    expect(toMarkdownSource(md, { schemes: ['ftp'] })).to.equal('see https\\://a\\.example/x');
    expect(toMarkdownSource(md, { schemes: ['https'] })).to.equal('see <https://a.example/x>');
  });

  it('options passed through a layer reach the renderer: mailToHtml and runMail hand theirs to toHtml', async () => {
    const message = await linkifyMessage(Buffer.from('Subject: hi\n\nsee https://例え.jp/\n'));
    expect(mailToHtml(message, { display: 'uri', rel: '' })).to.include('<a href="https://xn--r8jz45g.jp/">https://xn--r8jz45g.jp/</a>');
    expect(() => mailToHtml(message, { rell: '' } as object)).to.throw(TypeError, /unknown option "rell"/);
    // Checked before anything is read, also for a message without text parts.
    const empty: MailMessage = { ...message, parts: [] };
    expect(() => mailToHtml(empty, { rell: '' } as object)).to.throw(TypeError, /unknown option "rell"/);
    const out = new PassThrough();
    let written = '';
    out.on('data', (d: Buffer) => (written += d.toString()));
    await runMail(Readable.from([Buffer.from('Subject: hi\n\nsee https://例え.jp/\n')]), out, 'html', { render: { display: 'uri', rel: '' } });
    expect(written).to.include('<a href="https://xn--r8jz45g.jp/">https://xn--r8jz45g.jp/</a>');
    // A string or a Buffer, as linkifyMail takes them (found in review: the type refused them; the function did not).
    for (const input of ['Subject: hi\n\nsee https://a.example/\n', Buffer.from('Subject: hi\n\nsee https://a.example/\n')]) {
      const sink = new PassThrough();
      let rows = '';
      sink.on('data', (d: Buffer) => (rows += d.toString()));
      expect(await runMail(input, sink, 'jsonl')).to.deep.equal({ messages: 1, links: 1, failed: 0 });
      expect(rows).to.include('"uri":"https://a.example/"');
    }
  });
});

describe('api: a function with options of its own lists them with the detector\'s in the unknown-option message', () => {
  const detector = 'schemes, anyScheme, schemeless, email, defaultScheme, tlds, maxLinkLength, documentCharset';
  it('createLinkStream: encoding, highWaterMark, markdown, gfm', () => {
    const message = `irilink: unknown option "encodng"; the known options are encoding, highWaterMark, markdown, gfm, ${detector}`;
    expect(() => createLinkStream({ encodng: 'latin1' } as object)).to.throw(TypeError, message);
    expect(() => createLinkStream({ markdown: true, encodng: 'latin1' } as object)).to.throw(TypeError, message);
    expect(() => createLinkStream({ encoding: 'latin1', highWaterMark: 4, email: false }).destroy()).to.not.throw();
  });
  it('linkifyMarkdown: gfm', () => {
    expect(() => linkifyMarkdown('x', { gfmm: false } as object)).to.throw(TypeError, `irilink: unknown option "gfmm"; the known options are gfm, ${detector}`);
  });
  it('linkifyMessage: html; linkifyMail: html, mbox', async () => {
    let error: unknown;
    try {
      await linkifyMessage(Buffer.from('Subject: hi\n\nx\n'), { htm: 'all' } as object);
    } catch (e) {
      error = e;
    }
    expect(error).to.be.instanceOf(TypeError);
    expect((error as Error).message).to.equal(`irilink: unknown option "htm"; the known options are html, ${detector}`);
    error = undefined;
    try {
      for await (const m of linkifyMail(Buffer.from('Subject: hi\n\nx\n'), { htm: 'all' } as object)) void m;
    } catch (e) {
      error = e;
    }
    expect(error).to.be.instanceOf(TypeError);
    expect((error as Error).message).to.equal(`irilink: unknown option "htm"; the known options are html, mbox, ${detector}`);
  });
});

describe('api: more argument checks (found in review)', () => {
  it('createLinkStream and irilinkLinkifyIt refuse options that are not an object', () => {
    for (const bad of [[], 42, null]) {
      expect(() => createLinkStream(bad as object), JSON.stringify(bad)).to.throw(TypeError, /^irilink: createLinkStream\(\): options must be an object or undefined/);
      expect(() => irilinkLinkifyIt(bad as object), JSON.stringify(bad)).to.throw(TypeError, /^irilink: irilinkLinkifyIt\(\): options must be an object or undefined/);
    }
  });
  it('refusals reads a Set of schemes as it reads an array: checked and case-insensitive', () => {
    const [chunk] = linkify('https://example.com/').filter((c): c is LinkChunk => c.type === 'link');
    expect(refusals(chunk!, new Set(['HTTPS']))).to.deep.equal(refusals(chunk!, ['HTTPS'])).and.deep.equal([]);
    expect(refusals(chunk!, new Set(['ftp']))).to.deep.equal(['scheme-not-allowed']);
    expect(() => refusals(chunk!, new Set([42]) as unknown as Set<string>)).to.throw(TypeError);
  });
  it('linkifyMessage and runMail refuse options that are not an object, with irilink\'s message', async () => {
    for (const bad of [null, [], 42]) {
      let error: unknown;
      try {
        await linkifyMessage(Buffer.from('Subject: hi\n\nx\n'), bad as object);
      } catch (e) {
        error = e;
      }
      expect((error as Error).message, JSON.stringify(bad)).to.match(/^irilink: linkifyMessage\(\): options must be an object or undefined/);
      error = undefined;
      try {
        await runMail(Readable.from([Buffer.from('Subject: hi\n\nx\n')]), new PassThrough(), 'jsonl', bad as object);
      } catch (e) {
        error = e;
      }
      expect((error as Error).message, JSON.stringify(bad)).to.match(/^irilink: runMail\(\): options must be an object or undefined/);
    }
  });
  it('confusablePrototype takes a code point', () => {
    for (const bad of [undefined, 'a', -1, 0x110000, 1.5]) {
      expect(() => loose(confusablePrototype)(bad), String(bad)).to.throw(TypeError, /^irilink: confusablePrototype\(\): cp must be a code point/);
    }
    expect(confusablePrototype(0x0430)).to.equal('a'); // CYRILLIC SMALL LETTER A
  });
});

describe('api: arguments of the wrong type are a TypeError naming the function', () => {
  it('toMarkdownSource: a string is not chunks (it gave "undefined"), nor null, nor an array of non-chunks', () => {
    expect(() => loose(toMarkdownSource)('x')).to.throw(TypeError, 'irilink: toMarkdownSource(): chunks must be an array (or iterable) of chunks, got "x"');
    expect(() => loose(toMarkdownSource)(null)).to.throw(TypeError, /toMarkdownSource\(\): chunks must be .*, got null/);
    expect(() => loose(toMarkdownSource)(undefined)).to.throw(TypeError, /toMarkdownSource\(\): chunks must be .*, got undefined$/);
    expect(() => loose(toMarkdownSource)([{}])).to.throw(TypeError, /toMarkdownSource\(\): each chunk must be a text or link chunk .*, got an object/);
    expect(() => loose(toMarkdownSource)(['ab'])).to.throw(TypeError, /toMarkdownSource\(\): each chunk must be .*, got "ab"/);
    expect(() => loose(toMarkdownSource)(linkifyMarkdown('x'), null)).to.throw(TypeError, /toMarkdownSource\(\): options must be an object or undefined, got null/);
    // An iterable that is not an array still works.
    expect(toMarkdownSource(new Set(linkifyMarkdown('see https://a.example/')))).to.equal('see <https://a.example/>');
  });

  it('restrictionLevel, isSuspiciousHostLabel and their siblings hasMixedNumbers, isAtLeast', () => {
    expect(() => loose(restrictionLevel)(null)).to.throw(TypeError, 'irilink: restrictionLevel(): label must be a string, got null');
    expect(() => loose(restrictionLevel)(5)).to.throw(TypeError, 'irilink: restrictionLevel(): label must be a string, got 5');
    expect(() => loose(isSuspiciousHostLabel)(null)).to.throw(TypeError, 'irilink: isSuspiciousHostLabel(): label must be a string, got null');
    expect(() => loose(hasMixedNumbers)(undefined)).to.throw(TypeError, 'irilink: hasMixedNumbers(): label must be a string, got undefined');
    expect(() => loose(isAtLeast)('ascii', 'latin')).to.throw(TypeError, /isAtLeast\(\): b must be a restriction level \(ascii, single-script, .*\), got "latin"/);
    expect(restrictionLevel('pаypal')).to.equal('minimally-restrictive'); // Cyrillic а
    expect(isSuspiciousHostLabel('pаypal')).to.equal(true);
    expect(isAtLeast('ascii', 'single-script' as RestrictionLevel)).to.equal(true);
  });

  it('mailToHtml and mailToJsonl: a message, not null or a bare object', async () => {
    for (const [name, f] of [['mailToHtml', mailToHtml], ['mailToJsonl', mailToJsonl]] as const) {
      expect(() => loose(f)(null)).to.throw(TypeError, `irilink: ${name}(): message must be a MailMessage (from linkifyMail or linkifyMessage), got null`);
      expect(() => loose(f)({})).to.throw(TypeError, `irilink: ${name}(): message.index must be a non-negative integer, got undefined`);
      expect(() => loose(f)({ index: 0, parts: [null] })).to.throw(TypeError, `irilink: ${name}(): each of message.parts must be a MailPart object, got null`);
      expect(() => loose(f)({ index: 0, parts: [{ part: '1', contentType: 'text/plain', charset: 'utf-8', text: 'x', chunks: [], links: [null] }] }))
        .to.throw(TypeError, new RegExp(`${name}\\(\\): each part's links must be an array of links`));
    }
    const message = await linkifyMessage(Buffer.from('Subject: hi\n\nsee https://例え.jp/\n'));
    expect(mailToJsonl(message)).to.include('"uri":"https://xn--r8jz45g.jp/"');
    expect(mailToHtml(message)).to.include('<h2>hi</h2>');
  });

  it('refusals: a link chunk, and the schemes as a Set or an array (default: the renderers\' list)', () => {
    const [link] = linkify('https://例え.jp/').filter((c): c is LinkChunk => c.type === 'link');
    expect(refusals(link!)).to.deep.equal([]);
    expect(refusals(link!, ['ftp'])).to.deep.equal(['scheme-not-allowed']);
    expect(refusals(link!, new Set(['https']))).to.deep.equal([]);
    expect(() => loose(refusals)(null)).to.throw(TypeError, /refusals\(\): link must be a link chunk .*, got null/);
    expect(() => loose(refusals)(link, 'https')).to.throw(TypeError, /refusals\(\): schemes must be an array or a Set of scheme names, got "https"/);
    expect(() => loose(refusals)(link, ['javascript'])).to.throw(TypeError, /schemes must be free of javascript/);
  });

  it('containsRtl: a string', () => {
    expect(() => loose(containsRtl)(null)).to.throw(TypeError, 'irilink: containsRtl(): s must be a string, got null');
    expect(containsRtl('https://مثال.إختبار/')).to.equal(true);
  });
});

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
    expect(() => loose(findLinks)('x', 42)).to.throw(TypeError, 'irilink: findLinks(): options must be an object or undefined, got 42');
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
