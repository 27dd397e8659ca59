// The Markdown mode's fast path (src/markdown/fast.ts) against the full path (micromark reads every piece): the
// chunks must be the same, byte for byte, over the CommonMark spec examples, real READMEs (a slice of
// corpora/large/markdown.txt when it is there, else the committed sample) and generated Markdown.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect } from 'chai';
import * as commonmark from 'commonmark';
import fc from 'fast-check';
import { readStats, setFastPath, setListSplit } from '../src/markdown/extract.js';
import { fastSegment } from '../src/markdown/fast.js';
import type { FastContext, FastItem } from '../src/markdown/fast.js';
import { linkifyMarkdown, MarkdownLinkifier } from '../src/markdown/index.js';
import type { MarkdownChunk, MarkdownLinkOptions } from '../src/markdown/index.js';
import { BlockTracker, lineEnd, lineEndingLength } from '../src/markdown/segment.js';

function both(source: string, options?: MarkdownLinkOptions): [MarkdownChunk[], MarkdownChunk[]] {
  try {
    setFastPath(false);
    const full = linkifyMarkdown(source, options);
    setFastPath(true);
    return [linkifyMarkdown(source, options), full];
  } finally {
    setFastPath(true);
  }
}

function streamed(pieces: string[], fast: boolean): MarkdownChunk[] {
  try {
    setFastPath(fast);
    const linkifier = new MarkdownLinkifier();
    const out: MarkdownChunk[] = [];
    for (const p of pieces) out.push(...linkifier.push(p));
    out.push(...linkifier.end());
    return out;
  } finally {
    setFastPath(true);
  }
}

/** Where segment.ts lets a piece be cut, as fast.ts's caller cuts it. */
function segments(text: string): [number, number][] {
  const tracker = new BlockTracker();
  const out: [number, number][] = [];
  let start = 0;
  for (let ls = 0; ls < text.length; ) {
    const le = lineEnd(text, ls);
    const e = le < 0 ? text.length : le;
    if (ls > start && tracker.canCutBefore(text, ls, e)) {
      out.push([start, ls]);
      start = ls;
    }
    tracker.line(text, ls, e);
    ls = le < 0 ? text.length : e + lineEndingLength(text, e);
  }
  out.push([start, text.length]);
  return out;
}

/** A context where the labels in `defined` (normalised) are, or may be, defined. */
function context(defined: string[] = []): FastContext {
  return { gfm: true, noReferences: defined.length === 0, mayBeDefined: (label) => defined.includes(label) };
}
const GFM = context();

/**
 * The fast reader's items as marks: runs between ⟦ ⟧, backslash escapes between ⟮ ⟯, character references between
 * ⦃ ⦄, code spans' contents between ⟪ ⟫, destinations between ⟨ ⟩.
 */
function items(source: string, ctx: FastContext = GFM): string | undefined {
  const found: FastItem[] | undefined = fastSegment(source, 0, source.length, ctx);
  if (found === undefined) return undefined;
  let out = '';
  let pos = 0;
  for (const item of found) {
    const [open, close] =
      item.escape === true
        ? ['⟮', '⟯']
        : item.reference === true
          ? ['⦃', '⦄']
          : item.code === true
            ? ['⟪', '⟫']
            : item.destination === undefined
              ? ['⟦', '⟧']
              : ['⟨', '⟩'];
    out += source.slice(pos, item.s) + open + source.slice(item.s, item.e) + close;
    pos = item.e;
  }
  return out + source.slice(pos);
}

describe('Markdown fast path: what it reads', () => {
  const cases: [string, string][] = [
    ['see https://a.example/ and *em* and `code`', '⟦see https://a.example/ and ⟧*⟦em⟧*⟦ and ⟧`⟪code⟫`'],
    // §6.1: a code span's content is shown, never linked (an item for hidden-split); its backtick strings are not.
    ['a ``b ` c`` d `e', '⟦a ⟧``⟪b ` c⟫``⟦ d `e⟧'],
    ['**https://x.example/**', '**⟦https://x.example/⟧**'],
    ['a_b_c *not closed', '⟦a_b_c *not closed⟧'],
    ['line one  \n   line two\\\nthree &amp; four \\* five', '⟦line one⟧  \n   ⟦line two⟧\\\n⟦three ⟧⦃&amp;⦄⟦ four ⟧⟮\\*⟯⟦ five⟧'],
    // §2.5: a reference outside any construct is an item of its own; inside one (a code span, a link's text) none.
    ['pay&#112;al.com `a&amp;b` [x&amp;y](https://d.example/&amp;) &bogus; &#x202E;', '⟦pay⟧⦃&#112;⦄⟦al.com ⟧`⟪a&amp;b⟫`⟦ ⟧[x&amp;y](⟨https://d.example/&amp;⟩)⟦ &bogus; ⟧⦃&#x202E;⦄'],
    ['[docs](https://b.example/ "t") x', '[docs](⟨https://b.example/⟩ "t")⟦ x⟧'],
    ['[![CI](https://ci.example/b.svg)](https://ci.example/) x', '[![CI](⟨https://ci.example/b.svg⟩)](⟨https://ci.example/⟩)⟦ x⟧'],
    ['# Title https://t.example/ ##', '# ⟦Title https://t.example/⟧ ##'],
    ['- one https://1.example/\n  - two\n3. three', '- ⟦one https://1.example/⟧\n  - ⟦two⟧\n3. ⟦three⟧'],
    ['| a | https://b.example/ |\n|---|:-:|\n| `c|d` | e \\| f |', '| ⟦a⟧ | ⟦https://b.example/⟧ |\n|---|:-:|\n| ⟦`c⟧|⟦d`⟧ | ⟦e ⟧⟮\\|⟯⟦ f⟧ |'],
    ['```js\nhttps://code.example/\n```\nafter', '```js\nhttps://code.example/\n```\n⟦after⟧'],
    ['Title\n---', '⟦Title⟧\n---'],
    ['a <https://auto.example/> <u@example.com> <b title="x>y">c</b>', '⟦a ⟧<⟨https://auto.example/⟩>⟦ ⟧<⟨u@example.com⟩>⟦ ⟧<b title="x>y">⟦c⟧</b>'],
    ['<div align="center">\n<img src="https://i.example/">\n</div>\n\nhttps://after.example/', '<div align="center">\n<img src="https://i.example/">\n</div>\n\n⟦https://after.example/⟧'],
    // Block quotes holding paragraphs (§5.1): the markers are no data, lazy lines go on, a quote line with no content
    // ends the paragraph.
    ['> see https://q.example/\n> > and *x\n>y* and\nlazy\n>\n> z', '> ⟦see https://q.example/⟧\n> > ⟦and ⟧*⟦x⟧\n>⟦y⟧*⟦ and⟧\n⟦lazy⟧\n>\n> ⟦z⟧'],
    ['a\n> b\n    > c', '⟦a⟧\n> ⟦b⟧\n    ⟦> c⟧'],
    // GFM strikethrough: one or two tildes, paired by length; three are text. micromark resolves emphasis and
    // strikethrough in the order their first sequence came, each pair's content on its own: `*a ~b* c~` has no
    // strikethrough (the first `~` is inside the emphasis), `~a *b~ c*` no emphasis.
    ['~~https://s.example/~~ ~x~ ~~~y~~~ ~z~~ ~/home', '~~⟦https://s.example/⟧~~⟦ ⟧~⟦x⟧~⟦ ~~~y~~~ ~z~~ ~/home⟧'],
    ['*a ~b* c~', '*⟦a ~b⟧*⟦ c~⟧'],
    ['~a *b~ c*', '~⟦a *b⟧~⟦ c*⟧'],
    // Indented code (§4.4): no data, to the first line indented less than 4 columns. `--` and `=` where no paragraph
    // is open are text; headings and thematic breaks in quotes.
    ['    https://c.example/\n\t\n\tx\n  y https://y.example/', '    https://c.example/\n\t\n\tx\n  ⟦y https://y.example/⟧'],
    ['-- \nsig https://s.example/\n\n==', '⟦--⟧ \n⟦sig https://s.example/⟧\n\n⟦==⟧'],
    ['> # Re: https://h.example/\n> ***\n> a\n> --\n> --', '> # ⟦Re: https://h.example/⟧\n> ***\n> ⟦a⟧\n> --\n> ⟦--⟧'],
    // A tab after a list marker reaches the next multiple of 4 (§2.2, §5.2): `*\t` puts the content at column 4.
    ['*\t, https://l.example/\n    more\n1.\tx\n\n    y', '*\t⟦, https://l.example/⟧\n    ⟦more⟧\n1.\t⟦x⟧\n\n    ⟦y⟧'],
    // A line indented with a tab is code in a fence, never its closing fence (§2.2, §4.5).
    ['```\n\thttps://c.example/\n  \t```\n```\nafter', '```\n\thttps://c.example/\n  \t```\n```\n⟦after⟧'],
    // A tab in the indentation of a line under a paragraph (mail's continued lines): continuation text (§2.2, §4.4).
    ['a https://t.example/\n\tb\n \t> c\n\t\n\t', '⟦a https://t.example/⟧\n\t⟦b⟧\n \t⟦> c⟧\n\t\n\t'],
  ];
  for (const [input, expected] of cases) {
    it(JSON.stringify(input), () => {
      expect(items(input)).to.equal(expected);
    });
  }

  it('gives up on what it does not model', () => {
    for (const input of ['<img src="x">', 'a <!-- c -->', '<a href="x">y</a>', '> - quote', '- > quote', '> a\n===', '>\tb', '- a\n\tb', '[ref] here', '- \n', '1. a\n\n       code', '[i](<x>)']) {
      // (The parser keeps labels normalised: case-folded to upper case.)
      expect(items(input, context(['REF'])), input).to.equal(undefined);
    }
    // A label that is or may be defined is a possible reference: give up; not defined: plain text.
    expect(items('[ref] here', context(['REF']))).to.equal(undefined);
    expect(items('[ref] here', context(['OTHER']))).to.equal('⟦[ref] here⟧');
    expect(items('[ref] here')).to.equal('⟦[ref] here⟧');
    // A paragraph that may hold a definition: give up.
    expect(items('[ref]: https://d.example/')).to.equal(undefined);
    expect(items('- [ref]: https://d.example/')).to.equal(undefined);
  });
});

describe('Markdown fast path: the same chunks as micromark alone', () => {
  const examples = (createRequire(import.meta.url)('commonmark-spec') as { tests: { markdown: string; number: number }[] }).tests;

  it(`on all ${examples.length} CommonMark spec examples, with and without GFM`, () => {
    let fast = 0;
    for (const ex of examples) {
      const markdown = ex.markdown.replace(/→/g, '\t');
      for (const gfm of [true, false]) {
        const [a, b] = both(markdown, { gfm });
        expect(a, `example ${ex.number} gfm ${gfm}`).to.deep.equal(b);
      }
      if (segments(markdown).some(([s, e]) => fastSegment(markdown, s, e, GFM) !== undefined)) fast++;
    }
    // Not vacuous: the fast reader takes a good part of the examples.
    expect(fast).to.be.above(250);
  });

  const root = new URL('../corpora/', import.meta.url);
  const large = new URL('large/markdown.txt', root);
  const haveLarge = existsSync(large);
  it(haveLarge ? 'on the first 600 kB of corpora/large/markdown.txt (npm READMEs)' : 'on corpora/samples/markdown.txt (corpora/large absent)', () => {
    const text = haveLarge ? readFileSync(large, "utf8").slice(0, 600_000) : readFileSync(new URL('samples/markdown.txt', root), 'utf8');
    const [a, b] = both(text);
    expect(a.length).to.equal(b.length);
    for (let k = 0; k < a.length; k++) expect(a[k], `chunk ${k}`).to.deep.equal(b[k]);
    // The stream (which resolves a reference only against definitions before it) too.
    const pieces = [text.slice(0, 70001), text.slice(70001)];
    expect(streamed(pieces, true)).to.deep.equal(streamed(pieces, false));
    // Not vacuous: most of the text is read by the fast reader.
    let covered = 0;
    for (const [s, e] of segments(text)) if (fastSegment(text, s, e, GFM) !== undefined) covered += e - s;
    expect(covered / text.length).to.be.above(haveLarge ? 0.6 : 0.3);
  });

  // Fragments the fast reader handles, and some it gives up on, each with links where they can be.
  const inline = [
    'https://a.example/x', 'www.b.example', 'm@c.example', '*', '**', '***', '_', '__', 'x_y_z', '*em*', '**st**',
    '`code https://c.example/`', '``a`b``', '`', '\\*', '\\_', '\\', '&amp;', '&nope;', '&#x41;', '&#65;', '[t](https://l.example/)',
    '![i](https://i.example/p.png "title")', '[a](b (c))', '[x]', ']', '[', '![', '(', ')', '"', "'", ' ', '  ', '\t', 'é', '。', '😀',
    '[![b](https://s.example/b.svg)](https://t.example/)', '[u](<https://u.example/>)', '<https://auto.example/>', '<b>', '~', '~~s~~', '|',
    '[t](https://l.example/\n)', '[ref]', '[ref][]', '[t][ref]', ': ', '#', '-', '1.', '>',
    // Delimiters glued to links: whether they open or close decides where a bare link ends.
    'a_https://g.example/_b', '_https://k.example/_', '*https://h.example/*', 'x*https://j.example/*y', '**https://m.example/**_',
    '<img src="https://img.example/">', '<x-y a=\'1\' b>', '</b >', '<a b=c=d>', '<3', '<u@mail.example>', '<https://a@b.example.org/>',
    '(*https://n.example/*)', '"_https://o.example/_"', '__https://p.example/__.', '***https://q.example/*x**', 'https://r.example/a*b*',
  ];
  const lineStarts = ['', '', '', '- ', '* ', '1. ', '2) ', '  ', '    ', '\t', ' \t', '\t  ', '-\t', '1.\t', '- \t', '-   \t', '# ', '### ', '> ', '| ', '|', '---', '===', '```', '~~~', '[ref]: https://ref.example/\n', '<div>', '<img src="x">', '<a b=c=d>', '<!-- c -->', '- <img src="i.png"/> '];
  const line = fc
    .tuple(fc.constantFrom(...lineStarts), fc.array(fc.constantFrom(...inline), { minLength: 0, maxLength: 8 }), fc.array(fc.constantFrom(' ', '', 'word '), { minLength: 8, maxLength: 8 }))
    .map(([start, parts, gaps]) => start + parts.map((p, k) => p + gaps[k]!).join(''));
  const table = fc
    .tuple(fc.integer({ min: 1, max: 3 }), fc.array(fc.array(fc.constantFrom(...inline), { minLength: 0, maxLength: 3 }), { minLength: 2, maxLength: 9 }))
    .map(([n, cells]) => {
      const row = (k: number): string => '| ' + Array.from({ length: n }, (_, c) => (cells[(k * n + c) % cells.length] ?? []).join(' ')).join(' | ') + ' |';
      return [row(0), '|' + ' --- |'.repeat(n), row(1), row(2)].join('\n');
    });
  const doc = fc.array(fc.oneof({ weight: 5, arbitrary: line }, { weight: 1, arbitrary: table }, { weight: 2, arbitrary: fc.constant('') }), { minLength: 1, maxLength: 14 }).map((lines) => lines.join('\n'));

  it('on generated Markdown (fast-check), with and without GFM', () => {
    fc.assert(
      fc.property(doc, fc.boolean(), (source, gfm) => {
        const [a, b] = both(source, { gfm });
        expect(a).to.deep.equal(b);
      }),
      { numRuns: 1500 },
    );
  });

  // Block quotes (fast.ts reads those holding paragraphs, headings and thematic breaks): the lines above behind quote
  // markers of every kind the reader takes or gives up on, lazy lines, quote lines with no content, underlines and
  // indented code among them.
  const quotePrefix = fc.constantFrom('', '', '> ', '> ', '>', '>> ', '> > ', '   > ', '    > ', '>  ', ' >', '>\t', '> >  > ', '>>>', '> - ', '- > ', '\t', '  \t> ', '>\t\t', '> # ', '> ***', '> --', '> ==', '--', '-- ', '==', '    ', '     ');
  const quoted = fc
    .array(fc.oneof({ weight: 5, arbitrary: fc.tuple(quotePrefix, line).map(([q, l]) => q + l) }, { weight: 1, arbitrary: quotePrefix }, { weight: 1, arbitrary: fc.constant('') }), { minLength: 1, maxLength: 14 })
    .map((lines) => lines.join('\n'));

  it('on generated block quotes (fast-check), with and without GFM', () => {
    let fast = 0;
    fc.assert(
      fc.property(quoted, fc.boolean(), (source, gfm) => {
        const [a, b] = both(source, { gfm });
        expect(a).to.deep.equal(b);
        if (source.includes('>') && segments(source).some(([s, e]) => source.slice(s, e).includes('>') && fastSegment(source, s, e, GFM) !== undefined)) fast++;
      }),
      { numRuns: 1500 },
    );
    // Not vacuous: the fast reader takes many of the quotes.
    expect(fast).to.be.above(120);
  });

  // Stretches for micromark longer than LIST_SPLIT are parsed in parts, each starting with a list item in column 0
  // (extract.ts LIST_SPLIT): generated lists long enough for that, full of lines that could be torn apart.
  // Lines of nothing but markers (`+ *`: an item holding an empty one) start an item after another item's line,
  // but continue a paragraph (segment.ts startsItem).
  const listLine = fc.oneof(
    { weight: 4, arbitrary: fc.tuple(fc.constantFrom('- ', '* ', '+ ', '- - ', '  - ', '    ', '- [ ] ', '1. ', '2) ', '> - ', '', '- <div>', '<div>', '- *', '+ 1.', '- 2. ', '*  - ', '[a]: ', '*\t', '1.\t', '-  \t', '  -\t', '    \t'), line).map(([marker, rest]) => marker + rest) },
    { weight: 1, arbitrary: fc.constantFrom('+ *', '- *', '* -  ', '- 2.', '+ 10)', '- 1.', '* * *', '- -', '- - -', '+ - *', '+  *', '-     *', '+ *\t', '2) + ', '3. *', '10) - x', '1) 2.') },
  );
  it('a line that may continue the paragraph before it is no place to split (an empty or not-1 nested item); other cases the review found', () => {
    const cases = [
      'Intro:\n- *\n[docs]: https://docs.example/\n\nSee [docs].\n',
      'x\n+ *\n[a]: https://a.example/\n',
      'x\n- 1.\n[a]: https://a.example/\n',
      'x\n* +\n[a]: https://a.example/\n',
      'Steps:\n- 2.\n[a]: https://a.example/\n',
      'Text\n- 2.      https://a.example/\n',
      'a\n- 2.\t s://a',
      // `2)` continues the paragraph `) `, so the line after it may not be split from it either (segment.ts prevItem).
      '- <div>[t](https://l.example/\n) \n2) https://a.example/x \n- 2. ```https://a.example/x \n- \n- ',
      // A comment closed on its first line: `<!-->` and `<!--->` (§4.6 end condition 2, §6.6).
      '<!-->\r<ps:-->',
      '<!--->\n<ps:x> https://a.example/\n',
      // Code spans among backtick strings that close nothing (fast.ts BacktickStrings).
      '\\``'.repeat(20) + ' `https://a.example/` https://b.example/ ``https://c.example/`` ```x`` https://d.example/',
      // An escaped `[` starts no label (labelsDefinable): the reference is found either way.
      '[x\\[y]: https://x.example/\n\n[x\\[y]\n',
      'see [a\\[b] here\n\n[a\\[b]: https://x.example/\n',
    ];
    setListSplit(1);
    try {
      for (const source of cases) {
        for (const gfm of [true, false]) {
          const [a, b] = both(source, { gfm });
          expect(a, JSON.stringify(source)).to.deep.equal(b);
        }
      }
    } finally {
      setListSplit(undefined);
    }
  });

  // Whether a line starts an item depends on the line before it (segment.ts startsItem): short documents of item
  // lines of every marker kind, nested and empty, each a place to split.
  const itemLine = fc
    .tuple(
      fc.constantFrom('- ', '* ', '+ ', '1. ', '2) ', '10. ', '- 2. ', '+ * ', '1) - ', '', '  ', '> ', '- <div>', '    ', '```', '- ```'),
      fc.constantFrom('', 'a', 'https://a.example/x ', '*', '-', '2.', '[a]', '[a]: https://r.example/', '<div>', '`x`', '=', '---'),
    )
    .map(([marker, rest]) => marker + rest);
  it('on generated item lines of every marker kind, parsed in parts before every item (fast-check)', () => {
    setListSplit(1);
    try {
      fc.assert(
        fc.property(fc.array(itemLine, { minLength: 2, maxLength: 30 }), fc.boolean(), (lines, gfm) => {
          const [a, b] = both(lines.join('\n'), { gfm });
          expect(a).to.deep.equal(b);
        }),
        { numRuns: 3000 },
      );
    } finally {
      setListSplit(undefined);
    }
  });

  for (const [length, sizes] of [[undefined, [150, 250]], [1, [2, 40]]] as const) {
    it(`on generated lists, parsed in parts ${length === undefined ? 'past LIST_SPLIT' : 'before every item'} (fast-check)`, () => {
      const splits = readStats.splits;
      setListSplit(length);
      try {
        fc.assert(
          fc.property(fc.array(listLine, { minLength: sizes[0], maxLength: sizes[1] }), fc.boolean(), (lines, gfm) => {
            const [a, b] = both(lines.join('\n'), { gfm });
            expect(a).to.deep.equal(b);
          }),
          { numRuns: length === undefined ? 100 : 3000 },
        );
      } finally {
        setListSplit(undefined);
      }
      expect(readStats.splits - splits, 'stretches split').to.be.above(length === undefined ? 10 : 1000);
    });
  }
});


/** The chunks in marker style: each link between ⸠ and ⸡. */
function marked(chunks: MarkdownChunk[]): string {
  return chunks.map((c) => (c.type === 'text' ? c.text : `⸠${c.text}⸡`)).join('');
}

/** The texts of the reference parser's (commonmark.js) text nodes: where a bare link may be. */
function plainText(markdown: string): string[] {
  const out: string[] = [];
  const walker = new commonmark.Parser().parse(markdown).walker();
  for (let step = walker.next(); step; step = walker.next()) {
    if (step.entering && step.node.type === 'text') out.push(step.node.literal ?? '');
  }
  return out;
}

// Found by the property above. CommonMark 0.31 §5.2: only a list item that interrupts a paragraph must start with 1
// and have content; indented code (§4.4) is no paragraph and ends at the first line indented less than 4 columns. So
// after it `2) …` starts a list, and a line indented under the item is the item's, not code. micromark 4 alone reads
// `2) …` as paragraph text (micromark/micromark#228) where the fast path, after the cut segment.ts makes there, read a
// list: both now read a list.
describe('Markdown mode: a list item after indented code (CommonMark §5.2, §4.4)', () => {
  const found = '    https://a.example/x \n\n2) https://a.example/x \n\n    https://a.example/x ';

  it(JSON.stringify(found), () => {
    for (const gfm of [true, false]) {
      const [fast, full] = both(found, { gfm });
      expect(marked(full), `gfm ${gfm}`).to.equal('    https://a.example/x \n\n2) ⸠https://a.example/x⸡ \n\n    ⸠https://a.example/x⸡ ');
      expect(fast, `gfm ${gfm}`).to.deep.equal(full);
    }
    // In a stream that cuts a piece before `2)`, as in one piece.
    expect(streamed([found], false)).to.deep.equal(both(found)[1]);
  });

  it('with other start numbers, bullets, indents, empty items and blank lines: as the reference parser reads it', () => {
    const markers = ['1)', '1.', '2)', '2.', '10.', '0)', '-', '*', '+'];
    let lists = 0;
    for (const marker of markers) {
      for (const indent of ['', ' ', '   ']) {
        for (const gap of ['\n', '\n\n', '\n\n\n']) {
          for (const item of [' https://item.example/', '']) {
            for (const next of ['\n\n    https://next.example/', '\n  https://next.example/', '\n\n       https://next.example/']) {
              const source = `    https://code.example/${gap}${indent}${marker}${item}${next}`;
              const plain = plainText(source);
              const expected = ['https://code.example/', 'https://item.example/', 'https://next.example/'].filter((url) => plain.some((t) => t.includes(url)));
              const [fast, full] = both(source);
              const links = full.filter((c) => c.type === 'link').map((c) => c.text);
              expect(links, JSON.stringify(source)).to.deep.equal(expected);
              expect(fast, JSON.stringify(source)).to.deep.equal(full);
              if (expected.includes('https://next.example/') && next.startsWith('\n\n    ')) lists++;
            }
          }
        }
      }
    }
    // Not vacuous: the line indented 4 after a blank is often an item's paragraph rather than code.
    expect(lists).to.be.above(50);
  });
});

// Found by a generator of list and code lines. CommonMark 0.31 §5.2 laziness: a line that matches fewer containers
// than the open paragraph's continues it only when, read after the containers it matches, it starts no block; `# c`
// indented 3 under the outer item is a heading (the paragraph ends), and a line after it indented 4 is code.
describe('Markdown fast path: a line under a nested item, read after the containers it matches (CommonMark §5.2)', () => {
  it('"- a\\n\\n    0) b\\n     # c\\n      -https://x.example/"', () => {
    const source = '- a\n\n    0) b\n     # c\n      -https://x.example/';
    const [fast, full] = both(source);
    expect(marked(full)).to.equal(source);
    expect(fast).to.deep.equal(full);
  });

  it('with other lines between the items: as the reference parser reads it', () => {
    for (const nested of ['    0) b', '  1. b', '   * b']) {
      for (const indent of ['  ', '   ', '    ', '     ', '      ']) {
        for (const line of ['# c', 'c', '- c', '> c', '```']) {
          for (const last of ['      -https://x.example/', '     https://x.example/', '        https://x.example/', 'https://x.example/']) {
            const source = `- a\n\n${nested}\n${indent}${line}\n${last}`;
            const expected = plainText(source).some((t) => t.includes('https://x.example/')) ? ['https://x.example/'] : [];
            const [fast, full] = both(source);
            expect(full.filter((c) => c.type === 'link').map((c) => c.text), JSON.stringify(source)).to.deep.equal(expected);
            expect(fast, JSON.stringify(source)).to.deep.equal(full);
          }
        }
      }
    }
  });
});
