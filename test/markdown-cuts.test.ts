// The Markdown stream's forced cuts (a block or a line longer than the piece cap, 64 KiB; lowered here through the
// test-only setMaxPieceLength so that the documents stay small) and the cost of small writes.
import { expect } from 'chai';
import fc from 'fast-check';
import { parse } from 'micromark';
import { createScanner } from '../src/detect/index.js';
import { piecesLinks } from '../src/markdown/extract.js';
import { DEFAULT_MAX_PIECE_LENGTH, MarkdownLinkifier, setMaxPieceLength } from '../src/markdown/linkifier.js';
import { findMarkdownLinks, type MarkdownChunk, type MarkdownLink } from '../src/markdown/index.js';

/** The chunks of `text` written in writes of `size` units. */
function streamed(text: string, size: number): MarkdownChunk[] {
  const linkifier = new MarkdownLinkifier();
  const out: MarkdownChunk[] = [];
  for (let i = 0; i < text.length; i += size) out.push(...linkifier.push(text.slice(i, i + size)));
  out.push(...linkifier.end());
  return out;
}

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

describe('Markdown stream: the default piece cap bounds what micromark parses at once', () => {
  it('a paragraph of 160 KiB of references (one definition, `[x] ` repeated) is read in pieces of at most 64 KiB', () => {
    // micromark holds about 1.3 MB of events per KiB of such a piece (linkifier.ts DEFAULT_MAX_PIECE_LENGTH).
    expect(DEFAULT_MAX_PIECE_LENGTH).to.equal(64 * 1024);
    const text = '[x]: https://a.example/\n\n' + '[x] '.repeat(40 * 1024) + '\n';
    const linkifier = new MarkdownLinkifier();
    let max = 0;
    let count = 0;
    for (let i = 0; i < text.length; i += 4096) {
      for (const c of linkifier.push(text.slice(i, i + 4096))) if (c.type === 'link') count++;
      max = Math.max(max, linkifier.pending);
    }
    for (const c of linkifier.end()) if (c.type === 'link') count++;
    expect(max).to.be.at.most(DEFAULT_MAX_PIECE_LENGTH + 4096);
    // Every reference is still a link: the definition, then each `x` (a cut falls between two references).
    expect(count).to.equal(1 + 40 * 1024);
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

describe('Markdown stream: a forced cut starts the next piece where nothing can begin a block or a definition', () => {
  beforeEach(() => setMaxPieceLength(CAP));
  afterEach(() => setMaxPieceLength(undefined));

  /** `len` units of words ending in a space: the old in-line cut fell right after its last space. */
  const filler = (len: number): string => {
    let s = '';
    while (s.length < len - 6) s += 'word ';
    return s + 'y'.repeat(len - 1 - s.length) + ' ';
  };
  /** The links of `text` streamed in writes of `size`, as `start:construct:uri`. */
  const streamedPlain = (text: string, size: number): string[] => {
    const linkifier = new MarkdownLinkifier({ gfm: false });
    const chunks: MarkdownChunk[] = [];
    for (let i = 0; i < text.length; i += size) chunks.push(...linkifier.push(text.slice(i, i + size)));
    chunks.push(...linkifier.end());
    return chunks.filter((c) => c.type === 'link').map((c) => `${c.start}:${c.construct}:${c.uri ?? ''}`);
  };
  /** The same, in one piece (a cap above the text's length: no cut). */
  const once = (text: string): string[] => {
    setMaxPieceLength(1 << 24);
    try {
      return streamedPlain(text, text.length);
    } finally {
      setMaxPieceLength(CAP);
    }
  };

  const after = Array.from({ length: 40 }, (_, k) => `Paragraph ${k} see https://p${k}.example/.`).join('\n\n') + '\n';
  for (const opener of ['```jjj', '~~~jjj', '<!--jjj', '<pre>jjj', '<script>jjj']) {
    it(`a line over the cap with ${opener} after its last space before the cap: the paragraphs after it keep their links`, () => {
      const text = filler(CAP - 6) + opener + ' tail tail\n\n' + after;
      const want = once(text);
      expect(want).to.have.length(40);
      for (const size of [text.length, 1000, 64]) expect(streamedPlain(text, size), `writes of ${size}`).to.deep.equal(want);
    });
  }

  it('a line over the cap with `[d]: url` after its last space before the cap: no definition (the later one counts)', () => {
    const text = filler(CAP - 3) + '[d]: https://attacker.example/\n\nsee [d] now\n\n[d]: https://real.example/\n';
    const uris = findMarkdownLinks(text, { gfm: false }).filter((l) => l.construct !== 'bare').map((l) => `${l.construct} ${l.uri ?? ''}`);
    // The `[d]` before the cut is a shortcut reference, as in one parse.
    expect(uris).to.deep.equal(['link-reference https://real.example/', 'link-reference https://real.example/', 'definition https://real.example/']);
  });

  for (const [name, second] of [
    ['a `[d1]: url` line', (k: number) => `[d${k % 2}]: https://attacker${k}.example/`],
    ['an indented line', (k: number) => `    https://i${k}.example/ indented`],
  ] as const) {
    it(`a paragraph over the cap whose every other line is ${name}: the same links as one parse`, () => {
      const lines: string[] = [];
      for (let k = 0; lines.join('\n').length < 3 * CAP; k++) lines.push(`word word word word ${k}`, second(k));
      const text = lines.join('\n') + '\n\nsee [d0] and [d1]\n\n[d0]: https://real0.example/\n[d1]: https://real1.example/\n';
      // The whole-text function (every definition known) as with no cut; the stream the same for any writes.
      const key = (l: MarkdownLink): string => `${l.start}:${l.construct}:${l.uri ?? ''}`;
      const cut = findMarkdownLinks(text, { gfm: false }).map(key);
      setMaxPieceLength(1 << 24);
      const whole = findMarkdownLinks(text, { gfm: false }).map(key);
      setMaxPieceLength(CAP);
      expect(cut).to.deep.equal(whole);
      const one = streamedPlain(text, text.length);
      for (const size of [1000, 77]) expect(streamedPlain(text, size), `writes of ${size}`).to.deep.equal(one);
      const refs = findMarkdownLinks(text, { gfm: false }).filter((l) => l.construct === 'link-reference').map((l) => l.uri);
      // Every `[d0]`/`[d1]` (the last two, and those at the start of the paragraph's lines) resolves to the real definitions.
      expect([...new Set(refs)]).to.deep.equal(['https://real0.example/', 'https://real1.example/']);
    });
  }

  for (const [name, row] of [
    ['a list', (k: number) => `- item [x] https://l${k}.example/`],
    ['an ordered list', (k: number) => `${k}. item https://o${k}.example/`],
    ['a block quote', (k: number) => `> [x] quoted https://q${k}.example/`],
    ['a table', (k: number) => `| [x] | https://t${k}.example/ |`],
  ] as const) {
    it(`${name} without blank lines is still cut near the cap, with the links of one piece`, () => {
      const rows = ['[x]: https://x.example/', '', ...(name === 'a table' ? ['| a | b |', '|---|---|'] : [])];
      for (let k = 0; rows.join('\n').length < 5 * CAP; k++) rows.push(row(k));
      const text = rows.join('\n') + '\n';
      const linkifier = new MarkdownLinkifier({ gfm: true });
      let max = 0;
      const chunks: MarkdownChunk[] = [];
      for (let i = 0; i < text.length; i += 100) {
        chunks.push(...linkifier.push(text.slice(i, i + 100)));
        max = Math.max(max, linkifier.pending);
      }
      chunks.push(...linkifier.end());
      expect(max).to.be.at.most(CAP + 200);
      setMaxPieceLength(1 << 24);
      const whole = new MarkdownLinkifier({ gfm: true });
      const one = [...whole.push(text), ...whole.end()];
      setMaxPieceLength(CAP);
      expect(links(chunks)).to.deep.equal(links(one));
    });
  }

  it('with no such place the piece grows to 16 times the cap, then is cut outside a character reference', () => {
    // No space before the reference to U+202E, which straddles 16 × CAP (and the old cut, a multiple of CAP): the
    // link after it is inside an override once rendered.
    const text = 'x'.repeat(16 * CAP - 3) + '&#x202E; https://e.example/\n';
    for (const size of [text.length, 4096, 1000]) {
      const linkifier = new MarkdownLinkifier({ gfm: false });
      const chunks: MarkdownChunk[] = [];
      let max = 0;
      for (let i = 0; i < text.length; i += size) {
        chunks.push(...linkifier.push(text.slice(i, i + size)));
        max = Math.max(max, linkifier.pending);
      }
      chunks.push(...linkifier.end());
      expect(max, `writes of ${size}`).to.be.at.most(16 * CAP + size);
      const link = chunks.filter((c) => c.type === 'link');
      expect(link.map((c) => [c.text, c.diagnostics])).to.deep.equal([['https://e.example/', ['bidi-embedded']]]);
    }
  });
});
