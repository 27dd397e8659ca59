// `bidi-embedded` in Markdown source where a control is written as a numeric character reference (`&#x202E;`):
// it opens or closes exactly as the character itself where the renderer decodes it into shown text, and counts for
// nothing where it does not (code span, escape, destination, title, autolink, HTML, a full reference's label, an
// image's description). Every Markdown path gives the same answer: findMarkdownLinks, linkifyMarkdown,
// MarkdownLinkifier at every split, createLinkStream({ markdown: true }) at every byte split, the markdown-it plugin
// and the remark plugin (src/detect/embedding.ts, src/markdown/extract.ts PieceResult.references).
import { expect } from 'chai';
import fc from 'fast-check';
import MarkdownIt from 'markdown-it';
import { remark } from 'remark';
import { findMarkdownLinks, irilinkLinkifyIt, irilinkMarkdownIt, linkifyMarkdown, MarkdownLinkifier, remarkIrilink } from '../src/markdown/index.js';
import { setFastPath } from '../src/markdown/extract.js';
import type { Chunk } from '../src/types.js';
import { streamed } from './support/stream.js';

const EVIL = 'https://evil.example/moc.elgoog//:sptth';
const DEF_OPEN = '\n\n[&#x202E;]: https://u.example/';
const DEF_CLOSE = '\n\n[&#x202C;]: https://u.example/';

/** [what comes before ` EVIL`, what comes after it, whether EVIL is inside something open once rendered] */
const CASES: readonly [string, string, boolean][] = [
  // An opener written as a reference, shown: in link text, a shortcut or collapsed reference's label (the link
  // chunk is the label), emphasis, a heading, decimal; a reference that does not resolve is shown as text.
  ['[&#x202E;](https://u.example/)', '', true],
  ['[&#x202E;]', DEF_OPEN, true],
  ['[&#x202E;][]', DEF_OPEN, true],
  ['[&#x202E;]', '', true],
  ['[x][&#x202E;]', '', true],
  ['*&#x202E;*', '', true],
  ['# &#x202E;', '', true],
  ['&#8238;', '', true],
  // Raw in a shortcut or collapsed reference's label: the label is text too.
  ['[\u202e]', '\n\n[\u202e]: https://u.example/', true],
  ['[a\u2067b][]', '\n\n[a\u2067b]: https://u.example/', true],
  // Raw in a full reference's label (§6.3: its text is shown, its label is not): it opens or closes nothing.
  ['[y][\u202e]', '\n\n[\u202e]: https://u.example/', false],
  ['\u202e x [y][\u202c]', '\n\n[\u202c]: https://u.example/', true],
  ['\u2067 x [y][\u2069]', '\n\n[\u2069]: https://u.example/', true],
  // An opener written as a reference, not shown: it opens nothing.
  ['[x][&#x202E;]', DEF_OPEN, false],
  ['`&#x202E;`', '', false],
  ['\\&#x202E;', '', false],
  ['&amp;#x202E;', '', false],
  ['[a](https://u.example/&#x202E;)', '', false],
  ['[a](https://u.example/ "&#x202E;")', '', false],
  ['<https://u.example/&#x202E;>', '', false],
  ['![&#x202E;](https://u.example/i.png)', '', false],
  ['<span title="&#x202E;">x</span>', '', false],
  // A closer written as a reference, shown: it closes as the character would (UAX #9 X7 a PDF closes an embedding
  // or override only, X6a a PDI closes an isolate and what it holds).
  ['&#x202E; x &#x202C;', '', false],
  ['\u202e x &#x202C;', '', false],
  ['&#x202E; x \u202c', '', false],
  ['&#8238; x &#8236;', '', false],
  ['&#x202E; x\n&#x202C;', '', false],
  ['&#x202E; [&#x202C;](https://u.example/)', '', false],
  ['&#x202E; *x &#x202C;*', '', false],
  ['&#x2067; x &#x202C;', '', true],
  ['&#x2067; &#x202B; x &#x2069;', '', false],
  ['&#x202B; &#x2067; x &#x2069;', '', true],
  ['&#x202B; &#x202E; x &#x202C;', '', true],
  ['&#x202B; &#x202E; x &#x202C; &#x202C;', '', false],
  // An isolate opened in an earlier block (heading, list item) is closed with it: a PDI in the next block is
  // unmatched and leaves the override opened there open (UAX #9 X6a; each block is its own paragraph once rendered).
  ['# &#x2067; a\n&#x202E; b &#x2069;', '', true],
  ['# \u2067 a\n\u202e b \u2069', '', true],
  ['- &#x2067; a\n- &#x202E; b &#x2069;', '', true],
  ['- \u2067 a\n- \u202e b \u2069', '', true],
  // A closer written as a reference, not shown: it closes nothing.
  ['&#x202E; `&#x202C;`', '', true],
  ['&#x202E; \\&#x202C;', '', true],
  ['&#x202E; &amp;#x202C;', '', true],
  ['&#x202E; [a](https://u.example/&#x202C;)', '', true],
  ['&#x202E; [a](https://u.example/ "&#x202C;")', '', true],
  ['&#x202E; <https://u.example/&#x202C;>', '', true],
  ['&#x202E; ![&#x202C;](https://u.example/i.png)', '', true],
  ['&#x202E; [x][&#x202C;]', DEF_CLOSE, true],
  ['&#x202E; <span title="&#x202C;">x</span>', '', true],
];

/** Whether the EVIL link of `chunks` has bidi-embedded (there must be exactly one). */
function evilFlag(chunks: readonly Chunk[]): boolean {
  const evil = chunks.filter((c) => c.type === 'link' && c.text === EVIL);
  expect(evil, 'one EVIL link').to.have.length(1);
  return evil[0]!.type === 'link' && evil[0]!.diagnostics.includes('bidi-embedded');
}

describe('bidi-embedded in Markdown: a control written as a character reference counts where it is shown, as the character', () => {
  const md = new MarkdownIt({ html: true }).use(irilinkMarkdownIt);

  for (const [before, after, flagged] of CASES) {
    const source = `${before} ${EVIL}${after}`;
    it(`${JSON.stringify(source)} → ${flagged ? 'inside' : 'outside'}`, async () => {
      const found = findMarkdownLinks(source).filter((l) => l.text === EVIL);
      expect(found.map((l) => l.diagnostics.includes('bidi-embedded')), 'findMarkdownLinks').to.deep.equal([flagged]);
      expect(evilFlag(linkifyMarkdown(source)), 'linkifyMarkdown').to.equal(flagged);
      expect(evilFlag(linkifyMarkdown(source, { gfm: true })), 'gfm').to.equal(flagged);
      for (let i = 0; i <= source.length; i++) {
        const m = new MarkdownLinkifier();
        expect(evilFlag([...m.push(source.slice(0, i)), ...m.push(source.slice(i)), ...m.end()]), `split at ${i}`).to.equal(flagged);
      }
      const bytes = Buffer.from(source);
      for (let i = 0; i <= bytes.length; i += 3) {
        const chunks = await streamed([bytes.subarray(0, i), bytes.subarray(i)], { markdown: true });
        expect(evilFlag(chunks), `byte split at ${i}`).to.equal(flagged);
      }
      // The plugins link a bare link only when nothing is open before it.
      expect(md.render(source).includes(`href="${EVIL}"`), 'markdown-it plugin').to.equal(!flagged);
      const out = String(await remark().use(remarkIrilink).process(source));
      expect(out.includes(`<${EVIL}>`) || out.includes(`](${EVIL})`), 'remark plugin').to.equal(!flagged);
    });
  }

  it('GFM table cells of one row are blocks of their own: an isolate in one cell does not reach the next', () => {
    const gfmMd = new MarkdownIt({ html: true }).use(irilinkMarkdownIt);
    for (const source of [
      `| &#x2067; a | &#x202E; b &#x2069; ${EVIL} |\n|---|---|`,
      `| h | h |\n|---|---|\n| &#x2067; a | &#x202E; b &#x2069; ${EVIL} |`,
      `| h | h |\n|---|---|\n| \u2067 a | \u202e b \u2069 ${EVIL} |`,
    ]) {
      expect(gfmMd.render(source).includes(`href="${EVIL}"`), `markdown-it: ${JSON.stringify(source)}`).to.equal(false);
      expect(evilFlag(linkifyMarkdown(source, { gfm: true })), JSON.stringify(source)).to.equal(true);
      for (let i = 0; i <= source.length; i += 5) {
        const m = new MarkdownLinkifier({ gfm: true });
        expect(evilFlag([...m.push(source.slice(0, i)), ...m.push(source.slice(i)), ...m.end()]), `split at ${i}`).to.equal(true);
      }
    }
  });

  it('a line end may be a space or a block end: a link open in either reading is flagged (errs toward open)', () => {
    // One paragraph: rendered, the PDI closes the isolate and the override after it; read as two blocks, it does not.
    expect(evilFlag(linkifyMarkdown(`&#x2067; a\n&#x202E; b &#x2069; ${EVIL}`))).to.equal(true);
    // Closed in both readings.
    expect(evilFlag(linkifyMarkdown(`&#x2067; a\n&#x202E; b &#x202C; &#x2069; ${EVIL}`))).to.equal(false);
    expect(evilFlag(linkifyMarkdown(`&#x202E; a\nb &#x202C; ${EVIL}`))).to.equal(false);
  });

  it('a long document read in many pieces and writes: each paragraph as on its own', async () => {
    // Cases whose meaning does not depend on another paragraph's definitions, each its own paragraph, 30 times
    // over (about 64 000 units: the linkifier cuts it into pieces).
    const own = CASES.filter(([before, after]) => after === '' && !before.startsWith('[x]') && before !== '[&#x202E;]');
    const paragraphs: string[] = [];
    const want: boolean[] = [];
    for (let round = 0; round < 30; round++) {
      for (const [before, , flagged] of own) {
        paragraphs.push(`${before} ${EVIL}`);
        want.push(flagged);
      }
    }
    const source = paragraphs.join('\n\n');
    expect(source.length).to.be.above(60_000);
    const evil = (chunks: readonly Chunk[]): boolean[] =>
      chunks.filter((c) => c.type === 'link' && c.text === EVIL).map((c) => c.type === 'link' && c.diagnostics.includes('bidi-embedded'));
    expect(evil(linkifyMarkdown(source))).to.deep.equal(want);
    for (const size of [1, 7, 1000, 4096]) {
      const m = new MarkdownLinkifier();
      const out: Chunk[] = [];
      for (let i = 0; i < source.length; i += size) out.push(...m.push(source.slice(i, i + size)));
      out.push(...m.end());
      expect(evil(out), `writes of ${size}`).to.deep.equal(want);
    }
    const bytes = Buffer.from(source);
    const writes: Buffer[] = [];
    for (let i = 0; i < bytes.length; i += 999) writes.push(bytes.subarray(i, i + 999));
    expect(evil(await streamed(writes, { markdown: true })), 'stream').to.deep.equal(want);
  });

  it('markdown-it with md.linkify alone (no core rule) judges the block as written: a closer written as a reference closes nothing there', () => {
    const alone = new MarkdownIt({ linkify: true });
    alone.linkify = irilinkLinkifyIt() as unknown as (typeof alone)['linkify'];
    // Errs toward "open": irilinkMarkdownIt links it (the table above).
    expect(alone.render(`&#x202E; x &#x202C; ${EVIL}`)).to.not.include('<a ');
    expect(alone.render(`\u202e x \u202c ${EVIL}`)).to.include(`href="${EVIL}"`);
  });

  it('the fast path and micromark alone agree (a piece with such a reference is parsed)', () => {
    for (const [before, after, flagged] of CASES) {
      const source = `- item\n\n${before} ${EVIL}${after}\n\nsee [docs](https://d.example/) and \`code\`\n`;
      for (const fast of [true, false]) {
        setFastPath(fast);
        try {
          expect(evilFlag(linkifyMarkdown(source)), `${JSON.stringify(source)} fast ${fast}`).to.equal(flagged);
        } finally {
          setFastPath(true);
        }
      }
    }
  });
});

/** Decimal or hexadecimal, as an author may write it. */
function reference(c: number, hex: boolean): string {
  return hex ? `&#x${c.toString(16).toUpperCase()};` : `&#${c};`;
}

const CONTROLS = [0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069];

describe('bidi-embedded in Markdown: references and characters give the same flags (property)', () => {
  // Words, links, line ends and blank lines, and a control; the same text with each control written as a
  // reference must flag the same links; written in a code span or escaped, as if it were not there.
  const WORDS = [' x ', ' y\n', '\n\n', '\n \n', ' https://a.example/ ', ' [t](https://b.example/) ', ' *e* ', ' c.example '];
  const item = fc.oneof(fc.constantFrom(...WORDS), fc.constantFrom(...CONTROLS));
  const doc = fc.array(item, { maxLength: 20 });
  const render = (items: readonly (string | number)[], control: (c: number, k: number) => string): string =>
    items.map((x, k) => (typeof x === 'string' ? x : ` ${control(x, k)} `)).join('');
  const flags = (s: string): boolean[] => findMarkdownLinks(s).map((l) => l.diagnostics.includes('bidi-embedded'));

  it('a reference where it is decoded counts as the character', () => {
    fc.assert(
      fc.property(doc, (items) => {
        const raw = render(items, (c) => String.fromCharCode(c));
        const refs = render(items, (c, k) => reference(c, k % 2 === 0));
        expect(flags(refs), JSON.stringify(refs)).to.deep.equal(flags(raw));
      }),
      { seed: 20261122, numRuns: 400 },
    );
  });

  it('a reference in a code span or escaped counts for nothing', () => {
    fc.assert(
      fc.property(doc, (items) => {
        const none = render(items, () => 'z');
        const code = render(items, (c, k) => (k % 2 === 0 ? `\`${reference(c, true)}\`` : `\\${reference(c, false)}`));
        expect(flags(code), JSON.stringify(code)).to.deep.equal(flags(none));
      }),
      { seed: 20261123, numRuns: 400 },
    );
  });
});
