// toMarkdownSource makes bare links explicit (`[…](<…>)`, `<…>`) and must change nothing else: the emphasis,
// strikethrough, code spans and HTML around a link parse as they did. An explicit link starts and ends with
// punctuation where the bare one had a letter, which moves the left/right-flanking of a `*`, `_` or `~` run beside it
// (CommonMark §6.2); such a link is left as written, unless the run after it could only close and surely closed the
// one opener of its length on its line. The property: the output, parsed by markdown-it and by micromark
// (+ GFM strikethrough), is the original's parse with links added: the HTML with each `<a …>`/`</a>` dropped is the
// original's HTML. linkifyMarkdown reads the text as micromark does; where markdown-it parses the original otherwise
// (the two differ on some delimiter runs: `<**.*x**<`), the links found are micromark's, and only micromark is asked.
import { expect } from 'chai';
import fc from 'fast-check';
import MarkdownIt from 'markdown-it';
import { micromark } from 'micromark';
import { gfmStrikethrough, gfmStrikethroughHtml } from 'micromark-extension-gfm-strikethrough';
import { createMarkdownSourceRenderer, linkifyMarkdown, toMarkdownSource } from '../src/markdown/index.js';
import { sourceScanStats } from '../src/markdown/source.js';
import { MAX_DELIMITER_RUNS } from '../src/markdown/hostile.js';
import type { Chunk } from '../src/types.js';

const markdownIt = new MarkdownIt({ html: true, linkify: false });
const strikethrough = { extensions: [gfmStrikethrough()], htmlExtensions: [gfmStrikethroughHtml()], allowDangerousHtml: true };
const parsers: [string, (s: string) => string][] = [
  ['markdown-it', (s) => markdownIt.render(s).trimEnd()],
  ['micromark', (s) => micromark(s, strikethrough).trimEnd()],
];

/** The HTML of `html` without its links (their text stays): those toMarkdownSource adds, and the author's. */
function withoutLinks(html: string): string {
  return html.replace(/<a href="[^"<>]*">/g, '').replaceAll('</a>', '');
}

const source = (markdown: string): string => toMarkdownSource(linkifyMarkdown(markdown));

/**
 * Whether `output` parses as `input` with links added: null, or the first parser that differs. markdown-it is asked
 * where it parses the input as micromark does. micromark is not asked where a link's text holds `*`, `_` or `~`:
 * there it lets even a run that can neither open nor close (`x_y`) change how later runs of other kinds resolve
 * (`x_y ~H*~*H` and `X ~H*~*H` parse differently), so the link made explicit, which no longer holds the run, can
 * change micromark's parse of what follows; CommonMark (and markdown-it) are not affected.
 */
function sameParse(input: string, output: string): string | null {
  const agree = parsers[0]![1](input) === parsers[1]![1](input);
  const delimiterInLink = linkifyMarkdown(input).some((c) => c.type === 'link' && /[*_~]/.test(c.text));
  for (const [name, render] of parsers) {
    if (name === 'markdown-it' && !agree) continue;
    if (name === 'micromark' && delimiterInLink) continue;
    if (withoutLinks(render(output)) !== withoutLinks(render(input))) return name;
  }
  return null;
}

describe('toMarkdownSource: a link made explicit leaves the emphasis around it as it was (CommonMark §6.2)', () => {
  it('a `*`, `_` or `~` run that would open or close differently beside `)`, `>`, `[` or `<`: the link is left as written', () => {
    const cases: [string, string][] = [
      // After `H` the `*` could only close; after `)` it would open and make `"x` emphasis.
      ['https://H*"x*', 'https://H*"x*'],
      ['a *b* https://H*"x*', 'a *b* https://H*"x*'],
      // The `*` after `H` closes the emphasis; after `)` it could not. (With a Latin letter after it, `*a https://H*b`,
      // the link is glued to the name `Hb` a reader sees: flagged hidden-split, and written inert.)
      ['*a https://H*б', '*a https://H*б'],
      ['see https://a.example/H~~б~~', 'see https://a.example/H~~б~~'],
      // Before the link: `б*` opens before `h`, not before `[`. (A Latin letter there would be glued to the link: hidden-split.)
      ['б*https://a.example/ y*', 'б*https://a.example/ y*'],
      ['(*https://a.example/*)', '(*https://a.example/*)'],
    ];
    for (const [input, expected] of cases) {
      expect(source(input), input).to.equal(expected);
      expect(sameParse(input, source(input)), input).to.equal(null);
    }
  });

  it('where the runs beside it flank alike, the link is made', () => {
    const cases: [string, string][] = [
      // It closes the one `*` before it on the line, and still does after `)` (where it could also open).
      ['*a https://H*"', '*a [https://H](<https://h>)*"'],
      ['**https://bold.example/two**, or _https://under.example/three_.', '**<https://bold.example/two>**, or _<https://under.example/three>_.'],
      ['**https://a.example/**', '**<https://a.example/>**'],
      ['_see https://a.example/H_', '_see <https://a.example/H>_'],
      ['see https://a.example/*x*', 'see <https://a.example/>*x*'],
      ['https://a.example/ *x*', '<https://a.example/> *x*'],
      ['*https://H*', '*[https://H](<https://h>)*'],
      ['https://H\\*"x*', '[https://H](<https://h>)\\*"x*'],
      ['https://a.example/`x`', '<https://a.example/>`x`'],
      // (With a Latin letter in the tag or the link's text, `H<b>x</b>`, `h[x](y)`, the link is glued to the name
      // `Hx` a reader sees: hidden-split.)
      ['https://a.example/H<b>б</b>', '<https://a.example/H><b>б</b>'],
      ['https://h[б](y)', '<https://h>[б](y)'],
    ];
    for (const [input, expected] of cases) {
      expect(source(input), input).to.equal(expected);
      expect(sameParse(input, source(input)), input).to.equal(null);
    }
  });

  it('a link is held only until what follows it is known; a long run after it is held as a count, whatever the split', () => {
    const renderer = createMarkdownSourceRenderer();
    const link = linkifyMarkdown('https://h').find((c) => c.type === 'link')!;
    // Ends with a letter: the chunk after it decides.
    expect(renderer.chunk(link)).to.equal('');
    expect(renderer.chunk({ type: 'text', text: ' *x*', start: 8, end: 12 })).to.equal('<https://h> *x*');
    // A run of 6000 `*` (then ` x`) in chunks of any size: nothing is written until the run ends, and then the same
    // output as for the whole text.
    const input = 'a https://H' + '*'.repeat(6000) + ' x';
    const whole = source(input);
    expect(whole).to.equal('a [https://H](<https://h>)' + '*'.repeat(6000) + ' x');
    const chunks = linkifyMarkdown(input);
    for (const size of [1, 1000, 4096, 4097, 5999, 6000]) {
      const split = createMarkdownSourceRenderer();
      let out = '';
      for (const c of chunks) {
        if (c.type !== 'text' || c.text.length <= size) {
          out += split.chunk(c);
          continue;
        }
        for (let at = 0; at < c.text.length; at += size) {
          const piece = split.chunk({ type: 'text', text: c.text.slice(at, at + size), start: c.start + at, end: Math.min(c.end, c.start + at + size) });
          if (at + size < c.text.length - 2) expect(piece, `chunks of ${size}`).to.equal('');
          out += piece;
        }
      }
      expect(out + split.end(), `chunks of ${size}`).to.equal(whole);
    }
    // The end of the text ends the run.
    const last = createMarkdownSourceRenderer();
    expect(last.chunk(link) + last.chunk({ type: 'text', text: '**', start: 8, end: 10 })).to.equal('');
    expect(last.end()).to.equal('<https://h>**');
  });

  it('a closer after the link takes the one opener of its length before it on its line, whatever else the line holds', () => {
    const cases: [string, string][] = [
      // README's example: a Markdown link before the opener.
      ['See [東京](https://ja.wikipedia.org/wiki/東京) and **https://例え.jp/パス**.', 'See [東京](https://ja.wikipedia.org/wiki/東京) and **[https://例え.jp/パス](<https://xn--r8jz45g.jp/%E3%83%91%E3%82%B9>)**.'],
      ['See `code` and **https://a.example/x**.', 'See `code` and **<https://a.example/x>**.'],
      ['A &amp; B: **https://a.example/x**.', 'A &amp; B: **<https://a.example/x>**.'],
      ['Docs: *https://a.example/x*; see also *https://b.example/y*.', 'Docs: *<https://a.example/x>*; see also *<https://b.example/y>*.'],
      ['**https://a.example/x**, **https://b.example/y**, end', '**<https://a.example/x>**, **<https://b.example/y>**, end'],
      ['*a* and _b_ then __https://a.example/x__.', '*a* and _b_ then __<https://a.example/x>__.'],
      // A run inside the link's text that can neither open nor close (`x_y`) is no obstacle.
      ['**see https://a.example/x_y**.', '**see <https://a.example/x_y>**.'],
    ];
    for (const [input, expected] of cases) {
      expect(source(input), input).to.equal(expected);
      expect(sameParse(input, source(input)), input).to.equal(null);
    }
  });

  it('a closer whose opener is uncertain leaves the link as written (the opener can close, is on another line, or may be hidden)', () => {
    const cases = [
      // `c*d` can close too: it closes the `*` of the line before, and the closer after H has no opener.
      'a *b\nc*d https://H*, e*',
      '> a *b\n> c*d https://H*, e*',
      // The opener is inside a link title that spans lines.
      '[x](/u "t\n*b") https://H*, c*',
      // Inside a code span, HTML or link text that ends before the link.
      '`**a` https://H**, b**',
      '<span title="**"> https://H**, b**',
      '[**a](/u) https://H**, b**',
      // Lengths differ: the rule of 3 and what is left over decide.
      '*a https://H**, b*',
      '**a https://H*, b*',
      // Another run of the same delimiter between them.
      '**a \\** https://H**, b**',
      // The link's own text holds a run that can close (before `)`): made explicit, the run would be gone.
      '</b>"**"!www.example.com/x****)',
    ];
    for (const input of cases) {
      expect(source(input), input).to.equal(input);
    }
  });

  it('work is linear in the text: each unit of the source is scanned a bounded number of times (hostile shapes)', () => {
    const shapes = [
      (n: number) => 'Mirrors: ' + '**https://a.example/x**, '.repeat(n),
      (n: number) => '*a https://H*, '.repeat(n),
      (n: number) => 'x https://H*, '.repeat(n),
      (n: number) => '_'.repeat(n) + ' https://H_, ' + '*a* '.repeat(n),
    ];
    for (const shape of shapes) {
      const perUnit: number[] = [];
      // At most 2n + 1 delimiter runs in the paragraph: below MAX_DELIMITER_RUNS, so that it is read as Markdown
      // (past it, src/markdown/hostile.ts reads it as plain text and no emphasis rule is asked).
      const large = Math.min(255, Math.floor((MAX_DELIMITER_RUNS - 1) / 2));
      for (const n of [large >> 1, large]) {
        const input = shape(n);
        const chunks = linkifyMarkdown(input);
        sourceScanStats.units = 0;
        toMarkdownSource(chunks);
        perUnit.push(sourceScanStats.units / input.length);
      }
      // A quadratic scan would read the line once for each link: thousands of units per unit of text.
      expect(perUnit[1], shape(1)).to.be.at.most(2);
      expect(perUnit[1]! - perUnit[0]!, shape(1)).to.be.below(0.01);
    }
  });

  // Generated paragraphs: links of several shapes with delimiter runs, backticks, `<`, `[` and punctuation on both
  // sides. (Not `]` or `!`: right after them a link is written `<uri>`, which shows its uri rather than its text; that
  // rule has its own tests.)
  const LINKS = ['https://H', 'https://a.example/x', 'https://a.example/', 'https://例え.jp/パス', 'www.example.com', 'ann@example.org', 'https://a.example/x_y'];
  const AROUND = ['*', '**', '***', '_', '__', '~', '~~', '`', '<', '[', '(', ')', '"', '.', ',', '\\', ' ', 'x', 'é', '例', '™', '$'];
  const side = fc.array(fc.constantFrom(...AROUND), { maxLength: 4 }).map((parts) => parts.join(''));
  const segment = fc.tuple(side, fc.constantFrom(...LINKS), side).map(([a, l, b]) => a + l + b);
  const paragraph = fc.array(segment, { minLength: 1, maxLength: 3 }).map((segments) => segments.join(''));

  it('property: the output parses as the input with links added (markdown-it and micromark, fixed seed)', () => {
    let made = 0;
    let runs = 0;
    let agreed = 0;
    let plainLinks = 0;
    fc.assert(
      fc.property(paragraph, (input) => {
        const output = source(input);
        runs++;
        if (output !== input) made++;
        if (parsers[0]![1](input) === parsers[1]![1](input)) agreed++;
        if (!linkifyMarkdown(input).some((c) => c.type === 'link' && /[*_~]/.test(c.text))) plainLinks++;
        const differs = sameParse(input, output);
        if (differs !== null) throw new Error(`${differs}: ${JSON.stringify(input)} → ${JSON.stringify(output)}`);
      }),
      { seed: 3987, numRuns: 1000 },
    );
    // The rule leaves a link as written only beside a run that would change: most inputs still get their links.
    expect(made / runs).to.be.above(0.5);
    expect(agreed / runs, 'inputs markdown-it was asked about').to.be.above(0.4);
    expect(plainLinks / runs, 'inputs micromark was asked about').to.be.above(0.4);
  });

  it('property: the same output however the text chunks are split (a held link waits across chunks)', () => {
    fc.assert(
      fc.property(paragraph, fc.nat(), (input, cut) => {
        const chunks = linkifyMarkdown(input);
        const split: Chunk[] = [];
        for (const c of chunks) {
          if (c.type !== 'text' || c.text.length < 2) {
            split.push(c);
            continue;
          }
          const at = 1 + (cut % (c.text.length - 1));
          // Each piece keeps the chunk's diagnostics (an unsafe span is written inert in both).
          const diagnostics = c.diagnostics ?? [];
          split.push({ type: 'text', text: c.text.slice(0, at), start: c.start, end: c.start + at, diagnostics });
          split.push({ type: 'text', text: c.text.slice(at), start: c.start + at, end: c.end, diagnostics });
        }
        const renderer = createMarkdownSourceRenderer();
        let out = '';
        for (const c of split) out += renderer.chunk(c);
        out += renderer.end();
        expect(out, JSON.stringify(input)).to.equal(toMarkdownSource(chunks));
      }),
      { seed: 3987, numRuns: 500 },
    );
  });
});
