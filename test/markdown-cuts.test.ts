// The Markdown stream's forced cuts (a block or a line longer than the piece cap, 1 MiB; lowered here through the
// test-only setMaxPieceLength so that the documents stay small) and the cost of small writes.
import { expect } from 'chai';
import fc from 'fast-check';
import { parse } from 'micromark';
import { createScanner } from '../src/detect/index.js';
import { piecesLinks, readStats, setFastPath } from '../src/markdown/extract.js';
import { MarkdownLinkifier, setMaxPieceLength } from '../src/markdown/linkifier.js';
import type { MarkdownChunk } from '../src/markdown/index.js';
import { streamed } from './support/markdown.js';

/** Links as `start:text`. */
function links(chunks: MarkdownChunk[]): string[] {
  return chunks.filter((c) => c.type === 'link').map((c) => `${c.start}:${c.text}`);
}

const CAP = 4096;

describe('Markdown stream: a line longer than the piece cap is cut by its text, not by the writes', () => {
  beforeEach(() => setMaxPieceLength(CAP));
  afterEach(() => setMaxPieceLength(undefined));

  // A link that straddles the cap, where one write size ends a write inside it (4096 = 64 × 64 = 4 × 1024).
  const before = 'word '.repeat(Math.floor((CAP - 10) / 5));
  const line = before + 'x'.repeat(CAP - 10 - before.length) + ' https://a.example/long/path/here and more ' + 'y '.repeat(3000);
  const at = line.indexOf('https://a.');

  for (const ending of ['', '\n', '\r\n']) {
    it(`gives the same chunks for one write and any write size (line ending ${JSON.stringify(ending)})`, () => {
      const text = line + ending + 'next https://b.example/\n';
      const one = streamed(text, text.length);
      expect(links(one)).to.deep.equal([`${at}:https://a.example/long/path/here`, `${text.indexOf('https://b.')}:https://b.example/`]);
      for (const size of [1, 7, 64, 1000, 1024, CAP, CAP + 1, 3 * CAP]) expect(streamed(text, size), `writes of ${size}`).to.deep.equal(one);
      // The chunks cover the text.
      expect(one.map((c) => c.text).join('')).to.equal(text);
    });
  }

  it('cuts after the last space in the second half of the cap, else at the cap but not inside a surrogate pair', () => {
    // No space: cut at the cap, one unit early where a surrogate pair would be split.
    const astral = 'a'.repeat(CAP - 1) + '😀'.repeat(10) + ' https://c.example/';
    const one = streamed(astral, astral.length);
    expect(one.map((c) => c.text).join('')).to.equal(astral);
    expect(one.every((c) => !/^[\uDC00-\uDFFF]/.test(c.text) && !/[\uD800-\uDBFF]$/.test(c.text))).to.equal(true);
    for (const size of [1, 64, 1000]) expect(streamed(astral, size)).to.deep.equal(one);
    expect(links(one)).to.deep.equal([`${astral.indexOf('https://c.')}:https://c.example/`]);
  });

  it('holds back at most the cap and one write of a long line', () => {
    const linkifier = new MarkdownLinkifier();
    let max = 0;
    for (let i = 0; i < 5000; i++) {
      linkifier.push('lorem ipsum https://a.b/ ');
      max = Math.max(max, linkifier.pending);
    }
    linkifier.end();
    expect(max).to.be.at.most(CAP + 25);
  });
});

describe('Markdown stream: an HTML block cut by force stays HTML in the next piece (CommonMark §4.6 kinds 6 and 7)', () => {
  beforeEach(() => setMaxPieceLength(CAP));
  afterEach(() => setMaxPieceLength(undefined));

  for (const [open, close] of [['<div>', '</div>'], ['<table class="t">', '</table>'], ['<custom-tag>', '</custom-tag>'], ['</section>', ''], ['<pre>', '</pre>'], ['```', '```']]) {
    it(`${open}: nothing inside is linked, whatever the writes`, () => {
      const text = open + '\n' + 'see http://a.example/ here\n'.repeat(600) + close + '\n\nafter https://b.example/\n';
      for (const size of [text.length, 1000, 64]) expect(links(streamed(text, size)), `writes of ${size}`).to.deep.equal([`${text.indexOf('https://b.')}:https://b.example/`]);
    });
  }

  it('an indented HTML comment that ends on the last line of a piece cut by force is closed: the text after it is linked', () => {
    // The piece is cut at the first line end at or after the cap: the `-->` line. micromark's htmlFlow token starts
    // at the indentation; read as the `<`, the comment looked unclosed and was replayed over the text after it.
    const line = 'x'.repeat(63) + '\n';
    const lines = Math.floor((CAP - 6) / line.length);
    const last = 'y'.repeat(CAP - 6 - lines * line.length) + '-->\n';
    const text = ' <!--\n' + line.repeat(lines) + last + '\nafter https://z.example/\n';
    for (const fast of [false, true]) {
      try {
        setFastPath(fast);
        expect(links(streamed(text, text.length)), `fast path ${fast}`).to.deep.equal([`${text.indexOf('https://z.')}:https://z.example/`]);
      } finally {
        setFastPath(true);
      }
    }
  });

  it('a block closed by a blank line stays closed: the text after it is linked (random documents, as one parse)', () => {
    const blocks = [
      '<div>\nhttps://d.example/ in div\n</div>',
      '<x-tag>\nhttps://x.example/ in tag',
      '<ul>\n<li>https://u.example/</li>',
      'para https://p.example/\nline two https://p2.example/',
      '<!--\nhttps://h.example/\n-->',
      '```\nhttps://c.example/\n```',
    ];
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: blocks.length - 1 }), { minLength: 150, maxLength: 400 }), fc.integer({ min: 1, max: 3000 }), (picks, size) => {
        // The cap is below the length at which a piece may end between blocks: every piece is cut by force, at a line.
        const text = picks.map((k) => blocks[k]!).join('\n\n') + '\n';
        const parser = parse({ extensions: [] });
        const ctx = { parser, scanner: createScanner(), definitions: new Map<string, string>(), documentCharset: undefined, definitionsLinked: new Set<string>() };
        const once = piecesLinks(ctx, text, 0, 0).map((l) => `${l.start}:${l.text}`);
        const linkifier = new MarkdownLinkifier({ gfm: false });
        const chunks: MarkdownChunk[] = [];
        for (let i = 0; i < text.length; i += size) chunks.push(...linkifier.push(text.slice(i, i + size)));
        chunks.push(...linkifier.end());
        expect(links(chunks)).to.deep.equal(once);
      }),
      { numRuns: 30 },
    );
  });
});

describe('Markdown stream: a piece after a forced cut, with its replayed opener line, read by the fast path', () => {
  beforeEach(() => setMaxPieceLength(CAP));
  afterEach(() => setMaxPieceLength(undefined));

  /** The chunks of `text` in writes of `size`, through the fast path or through micromark alone. */
  function read(text: string, size: number, fast: boolean): MarkdownChunk[] {
    try {
      setFastPath(fast);
      return streamed(text, size);
    } finally {
      setFastPath(true);
    }
  }

  it('gives the chunks micromark alone gives, on fences and HTML blocks cut by force (random documents)', () => {
    // Blocks longer than the cap, and ordinary ones: the cut falls inside a fence or HTML block, whose opener line
    // the next piece replays, and the fast reader reads the rest of that piece.
    const long = (open: string, close: string): string => open + '\n' + 'see http://in.example/ *x*\n'.repeat(200) + close;
    const blocks = [
      long('~~~~', '~~~~'), long('~~~~~~', '~~~~'), long('```js', '```'), long('<div>', ''), long('<pre>', '</pre>'), long('<!--', '-->'),
      long('<?x', '?>'), long('<x-tag a="1">', ''), 'para https://p.example/ ~~s~~ *e*\nline two', '> quoted https://q.example/\n> more',
      '- item https://i.example/\n- two', '~~~\nhttps://c.example/\n~~~', '| a | https://t.example/ |\n| - | - |\n| b | c |',
    ];
    let replays = 0;
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: blocks.length - 1 }), { minLength: 2, maxLength: 12 }), fc.constantFrom('\n\n', '\n'), fc.integer({ min: 1, max: 5000 }), (picks, gap, size) => {
        const text = picks.map((k) => blocks[k]!).join(gap) + '\n\nafter https://z.example/\n';
        if (picks.some((k) => k < 8)) replays++;
        expect(read(text, size, true)).to.deep.equal(read(text, size, false));
      }),
      { numRuns: 60 },
    );
    expect(replays).to.be.above(30);
  });

  it('a long fence cut by force is not handed to micromark piece by piece', () => {
    const text = '~~~~\n' + 'see http://in.example/\n'.repeat(1000) + '~~~~\n\n' + 'after https://z.example/ and more\n'.repeat(300);
    const parsed = readStats.parsed;
    const chunks = read(text, 1000, true);
    expect(links(chunks)).to.have.length(300);
    expect(readStats.parsed - parsed).to.equal(0);
  });
});

describe('Markdown stream: the work of a write is proportional to its text', () => {
  /** Calls of String.prototype.charCodeAt while `fn` runs (every reader here walks text with it). */
  function charReads(fn: () => void): number {
    // eslint-disable-next-line @typescript-eslint/unbound-method
    const original = String.prototype.charCodeAt;
    let n = 0;
    String.prototype.charCodeAt = function (this: string, i: number): number {
      n++;
      return original.call(this, i);
    };
    try {
      fn();
    } finally {
      String.prototype.charCodeAt = original;
    }
    return n;
  }

  it('a long line in 1-unit writes is read once, not once per write', () => {
    const text = 'lorem ipsum http://a.b/ '.repeat(400);
    const linkifier = new MarkdownLinkifier();
    const reads = charReads(() => {
      for (let i = 0; i < text.length; i++) linkifier.push(text[i]!);
    });
    // Each unit looked at a bounded number of times (the line has not ended: nothing is parsed yet).
    expect(reads).to.be.at.most(2 * text.length);
    expect(links(linkifier.end())).to.have.length(400);
  });

  it('a paragraph of short lines in 1-unit writes is read a bounded number of times per unit', () => {
    const text = 'lorem ipsum http://a.b/\n'.repeat(400);
    const linkifier = new MarkdownLinkifier();
    const reads = charReads(() => {
      for (let i = 0; i < text.length; i++) linkifier.push(text[i]!);
    });
    expect(reads).to.be.at.most(4 * text.length);
    expect(links(linkifier.end())).to.have.length(400);
  });
});

describe('Markdown stream: a U+FEFF is dropped at the start of the document only, not where a piece starts', () => {
  // micromark drops a U+FEFF that starts what it parses. A piece that started with one read `\uFEFF~~~` as a fence,
  // lost the links after it, and was cut again and again (found by scripts/fuzz-cost.ts).
  it('`\\uFEFF~~~` after a blank line is text wherever the pieces start, and the links after it are found', () => {
    const tail = '\n\n\ufeff~~~ https://x.example/\n\nhttps://y.example/\n';
    for (const fill of [0, 20_000, 40_000]) {
      const text = 'word. '.repeat(fill / 6) + tail;
      const expected = ['https://x.', 'https://y.'].map((u) => `${text.indexOf(u)}:${u}example/`);
      for (const size of [text.length, 4096, 64]) expect(links(streamed(text, size)), `${fill}, writes of ${size}`).to.deep.equal(expected);
    }
  });

  it('a piece that starts with one after the start of the document is read by the fast path, as micromark reads it', () => {
    const tail = '\n\n\ufeff~~~ https://x.example/ *a*\n\n\ufeff> q https://q.example/\n\n\ufeff- https://y.example/\n';
    for (const fill of [0, 20_000, 40_000]) {
      const text = 'word. '.repeat(fill / 6) + tail;
      for (const size of [text.length, 4096, 64]) {
        const parsed = readStats.parsed;
        const fast = links(streamed(text, size));
        if (fill > 0 && size === text.length) expect(readStats.parsed - parsed, `${fill}: nothing for micromark`).to.equal(0);
        try {
          setFastPath(false);
          expect(fast, `${fill}, writes of ${size}`).to.deep.equal(links(streamed(text, size)));
        } finally {
          setFastPath(true);
        }
      }
    }
  });

  it('at the start of the document it is dropped, as micromark drops it: `\\uFEFF~~~` opens a fence there', () => {
    const text = '\ufeff~~~\nhttps://x.example/\n~~~\nhttps://y.example/\n';
    expect(links(streamed(text, text.length))).to.deep.equal([`${text.indexOf('https://y.')}:https://y.example/`]);
  });

  it('`\\n\\n\\uFEFF~~~` repeated: each piece is parsed once (linear work)', () => {
    const text = '\n\n\ufeff~~~'.repeat(20_000);
    const parsed = readStats.parsed;
    streamed(text, text.length);
    expect(readStats.parsed - parsed).to.be.below(2 * text.length);
  });
});
