// Scanner.scan() with exactly the left context it declares (scanner.ts, `contextLength`): the stream keeps
// text from k = max(0, settled − contextLength) and nothing more, so a look-behind that reaches further than
// contextLength would make a streamed answer differ from the whole-text one. These tests drive the scanner
// strictly per its contract (streamLinks in detect-support.ts keeps exactly contextLength units) over
// adversarial text: scheme fragments glued to file extensions and dotted names, CJK and astral characters,
// `@`, brackets, quotes and bidi controls, cut at random points — and compare with findLinks on the whole text.
import { expect } from 'chai';
import fc from 'fast-check';
import { createScanner, type LinkOptions, type ScanResume } from '../src/detect/index.js';
import type { Link } from '../src/types.js';
import { mark, scanWhole, streamLinks } from './detect-support.js';

/** Splits `text` at the given cut points (sorted, clamped, duplicates dropped; may split a surrogate pair). */
function cutAt(text: string, cuts: readonly number[]): string[] {
  const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
  const pieces: string[] = [];
  let prev = 0;
  for (const p of points) {
    pieces.push(text.slice(prev, p));
    prev = p;
  }
  pieces.push(text.slice(prev));
  return pieces;
}

/**
 * streamLinks (exactly contextLength units of context), also passing each scan's `resume` hint back to the
 * next scan, as the stream does. `rescanned` counts the trigger search's starting distance from `settled`
 * summed over the scans, for the linear-rescan test.
 */
function streamLinksResumed(pieces: readonly string[], options?: LinkOptions): { links: Link[]; skipped: number } {
  const scanner = createScanner(options);
  let text = '';
  let base = 0;
  let from = 0;
  let resume: ScanResume | undefined;
  let skipped = 0;
  const links: Link[] = [];
  const step = (final: boolean): void => {
    if (resume !== undefined) skipped += resume.at - from;
    const r = scanner.scan(text, from, final, base, resume);
    links.push(...r.links);
    const k = Math.max(0, r.settled - scanner.contextLength);
    text = text.slice(k);
    base += k;
    from = r.settled - k;
    resume = r.resume === undefined ? undefined : { ...r.resume, at: r.resume.at - k, lowerLimit: r.resume.lowerLimit - k };
  };
  for (const piece of pieces) {
    text += piece;
    step(false);
  }
  step(true);
  return { links, skipped };
}

function expectSameAsWhole(text: string, pieces: readonly string[], options?: LinkOptions): void {
  const whole = scanWhole(text, options);
  for (const streamed of [streamLinks(pieces, options), streamLinksResumed(pieces, options).links]) {
    if (JSON.stringify(streamed) === JSON.stringify(whole)) continue;
    expect(mark(text, streamed), `split as ${JSON.stringify(pieces)}`).to.equal(mark(text, whole));
    expect(streamed, `split as ${JSON.stringify(pieces)}`).to.deep.equal(whole);
  }
}

/** `text` in pieces of `size` code units. */
function piecesOf(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

// Pieces chosen to reach back as far as possible from a cut: scheme runs and dotted schemes glued to the
// text before them (P2, P4, P8), TLDs that are file extensions (P7), email back-scans (`@`), wrappers (P3),
// quotes (P6), bidi controls (P1), and scripts written without spaces next to astral characters.
const token = fc.constantFrom(
  'http', 'https', 'ftp', 'mailto', 'tel', 'urn', 'com.example.app', 'x-y+z', '://', ':', '//', '/', 'a',
  'x.tar.gz', '.tar', '.gz', '.jp', '.com', '.md', '.py', '.zip', 'README', 'www.', 'example', 'straße', 'пример',
  '.рф', '例え', 'パス', '日本', '詳細は', '。', '、', '．', '𒾐', '😀', '𠮷', '@', 'user', '.', '-', '_', '%41', '%E4',
  '(', ')', '[', ']', '{', '}', '<', '>', '<URL:', '「', '」', '"', "'", '“', '”', '«', '»', '\u202E', '\u200F',
  '\u2066', '\u061C', ' ', '\n', '\t', '?', '#', '=', '&', '~', '1', '2', 'ok', 'see',
  // mailto with %40 (RFC 6068 §2), tel with + or a context (RFC 3966 §3), version numbers, CJK punctuation after ASCII
  '%40', '%22', '+1', ';phone-context=', '2.0.9-', '，', '；',
);
const textArb = fc.array(token, { minLength: 1, maxLength: 40 }).map((t) => t.join(''));
const cutsArb = fc.array(fc.nat({ max: 10_000 }), { minLength: 1, maxLength: 8 });

describe('detect: scan() with exactly contextLength units of left context', () => {
  it('declares a fixed context: what a mail header field\'s name needs (src/detect/fields.ts), under 1 Ki units', () => {
    const scanner = createScanner();
    expect(scanner.contextLength).to.be.a('number').within(1, 1024);
  });

  it('the case found by the stream property test, split at every position', () => {
    // A file name glued to a scheme, then an IRI ending in astral characters (H5's report: cut at 46).
    const cases = [
      'ftp://files.example/x.tar.gzhttps://例え.jp/パス𒾐😀😀 ok',
      'see x.tar.gzhttps://例え.jp/パス𒾐😀😀',
      'a b c d e f g h i j k l m n o p q r s t u v w x.tar.gzhttps://例え.jp/パス𒾐😀😀',
      '日本語x.tar.gzhttps://例え.jp/パス com.example.app://open 詳細はhttps://例え.jp/パス。',
      // the rules of one review: a %40 mailto, tel: numbers, a version number, CJK punctuation after an ASCII link
      'mail <mailto:%22a%40b%22%40lists.debian.org?subject=x> Tel:27 83 tel:+1-201 X: 2.0.9-sf.net',
      '访问 http://localhost:8080/Test.html，即可看到 https://www.debian.org。你可以 tel:7042;phone-context=example.com',
      // what reads furthest back before a segment's start: a terminal's control sequence (its parameters are
      // separators), roff's escapes, a key before an address, POD, JSON and .properties escapes
      'x \u001b[38;5;208;48;5;17;1;4;38;2mwww.example.org \u001b[34;1mops@example.com \u001b[4mhttps://example.net/a',
      '.TP\n\\fBhttps://curl.se/docs/\\fR and \\f(CWhttps://example.com/x\\fP \\m[blue]bug@gnu.org\\m[] \\fIbug@gnu.org\\fP',
      '--author=you@example.com mail.from=a@example.org E<lt>gsar@activestate.comE<gt> https\\://services.gradle.org/d.zip',
      '{"u":"https:\\/\\/example.com\\/a?x=1\\u0026y=2","v":"\\"https://example.org/q\\""}',
      // message identifiers, a field folded over lines
      'Message-ID: <a.1@x.example.com>\nReferences: <b@y.example.org>,\n\t<c@z.example.net>\nFrom: Ann <ann@example.com>',
    ];
    for (const text of cases) {
      for (let i = 0; i <= text.length; i++) expectSameAsWhole(text, [text.slice(0, i), text.slice(i)]);
    }
  });

  it('property: adversarial text, random cuts', () => {
    fc.assert(
      fc.property(textArb, cutsArb, (text, cuts) => expectSameAsWhole(text, cutAt(text, cuts))),
      { numRuns: 3000 },
    );
  });

  it('property: adversarial text, every single split point', () => {
    fc.assert(
      fc.property(textArb, (text) => {
        for (let i = 1; i < text.length; i++) expectSameAsWhole(text, [text.slice(0, i), text.slice(i)]);
      }),
      { numRuns: 300 },
    );
  });

  it('property: adversarial text, one code unit at a time, also with maxLinkLength 64', () => {
    fc.assert(
      fc.property(textArb, fc.constantFrom<LinkOptions | undefined>(undefined, { maxLinkLength: 64 }), (text, options) =>
        expectSameAsWhole(text, text.split(''), options),
      ),
      { numRuns: 500 },
    );
  });
});

describe('detect: scan() resumes where the previous scan stopped (resume hint)', () => {
  // Long runs without a barrier, pushed in small pieces: the same links, and the trigger search of each
  // rescan starts where the last one stopped (the skipped distance shows the hint was used).
  const runs: [string, string][] = [
    ['a. × 20 000', 'a.'.repeat(20_000)],
    ['a: × 20 000', 'a:'.repeat(20_000)],
    ['x.y: × 10 000', 'x.y:'.repeat(10_000)],
    ['a@ × 10 000 then b.com', 'a@'.repeat(10_000) + 'b.com'],
    ['@ × 30 000', '@'.repeat(30_000)],
    ['ab.c@ × 5 000 then x.example.com', 'ab.c@'.repeat(5_000) + 'x.example.com'],
    ['one line of 3 000 units without a space', 'https://example.com/' + 'ab.cd/ef:g'.repeat(300)],
    ['domains glued by dots', 'example.com.'.repeat(3_000) + ' see example.org.'],
  ];
  for (const [name, text] of runs) {
    it(name, () => {
      for (const size of [1, 7, 100]) {
        const pieces = piecesOf(text, size);
        const resumed = streamLinksResumed(pieces);
        expect(mark(text, resumed.links)).to.equal(mark(text, scanWhole(text)));
        expect(resumed.skipped, 'the hint was used').to.be.greaterThan(0);
      }
    });
  }

  it('a bad resume hint is a TypeError', () => {
    const s = createScanner();
    expect(() => s.scan('abc', 1, false, 0, { at: 0, lowerLimit: 0 })).to.throw(TypeError, /resume/);
    expect(() => s.scan('abc', 0, false, 0, { at: 4, lowerLimit: 0 })).to.throw(TypeError, /resume/);
    expect(() => s.scan('abc', 0, false, 0, { at: 1.5, lowerLimit: 0 })).to.throw(TypeError, /resume/);
  });

  it('no hint after a final scan', () => {
    expect(createScanner().scan('see example.com', 0, true, 0).resume).to.equal(undefined);
  });
});
