// `bidi-embedded`: a link that starts while an embedding, override or isolate opened earlier on its line is still
// open (UAX #9 X1–X8, BD8; RFC 3987 §4.1). src/detect/embedding.ts.
//
// Marker style: `⟪…⟫` a link flagged `bidi-embedded`, `⸠…⸡` a link without it; `{RLO}`, `{PDF}`, `{LF}`… stand for
// the control characters (named as in UAX #9), so the cases read at a glance.
import { expect } from 'chai';
import MarkdownIt from 'markdown-it';
import { remark } from 'remark';
import { findLinks, Linkifier, linkify } from '../src/index.js';
import { findMarkdownLinks, irilinkLinkifyIt, linkifyMarkdown, MarkdownLinkifier, remarkIrilink, toMarkdownSource } from '../src/markdown/index.js';
import { refusals, toAnsi, toHtml, toMarkdown, UNSAFE_DIAGNOSTICS } from '../src/render/index.js';
import { EmbeddingState } from '../src/detect/embedding.js';
import type { Chunk } from '../src/types.js';
import { streamed } from './support/stream.js';

const NAMED: Record<string, string> = {
  LRE: '\u202a', RLE: '\u202b', PDF: '\u202c', LRO: '\u202d', RLO: '\u202e',
  LRI: '\u2066', RLI: '\u2067', FSI: '\u2068', PDI: '\u2069',
  LF: '\n', CR: '\r', NEL: '\u0085', PS: '\u2029', FS: '\u001c', GS: '\u001d', RS: '\u001e',
};
const NAME_OF = new Map(Object.entries(NAMED).map(([name, c]) => [c, name]));

/** The text a marked case stands for. */
function plain(marked: string): string {
  return marked.replace(/\{([A-Z]+)\}/g, (_, name: string) => NAMED[name]!).replace(/[⸠⸡⟪⟫]/g, '');
}

function named(text: string): string {
  let out = '';
  for (const c of text) out += NAME_OF.has(c) ? `{${NAME_OF.get(c)}}` : c;
  return out;
}

/** Chunks written back in marker style. */
function shown(chunks: readonly Chunk[]): string {
  return chunks
    .map((c) => {
      if (c.type === 'text') return named(c.text);
      return c.diagnostics.includes('bidi-embedded') ? `⟪${named(c.text)}⟫` : `⸠${named(c.text)}⸡`;
    })
    .join('');
}

const linked = (marked: string): string => shown(linkify(plain(marked)));

/** Every opener kind, each closed by its own closer or left open. */
const OPENERS = ['LRE', 'RLE', 'LRO', 'RLO', 'LRI', 'RLI', 'FSI'] as const;
const closerOf = (opener: string): string => (opener.endsWith('I') ? 'PDI' : 'PDF');

const CASES: readonly string[] = [
  '{RLO} x ⟪https://evil.example/moc.elgoog//:sptth⟫',
  '⸠https://a.example/⸡ {RLE}x ⟪https://b.example/⟫ and ⟪example.com⟫',
  '{RLO}x{PDF} ⸠https://a.example/⸡ {RLO}x ⟪https://b.example/⟫',
  '{RLI}x{PDI} ⸠https://a.example/⸡ {FSI}x ⟪https://b.example/⟫',
  // Nested: one closer leaves the outer opener open.
  '{RLE}{LRO}x{PDF} ⟪https://a.example/⟫ {PDF} ⸠https://b.example/⸡',
  // A PDF does not close an isolate (X7); a PDI closes the embeddings opened after its isolate (X6a).
  '{RLI}x{PDF} ⟪https://a.example/⟫ {RLO}y{PDI} ⸠https://b.example/⸡',
  // Unmatched closers change nothing (the count does not go below zero).
  '{PDF}{PDF}{PDI} ⸠https://a.example/⸡ {RLO}x ⟪https://b.example/⟫',
  '{PDI}{PDI}{RLI}x ⟪https://a.example/⟫',
  // An embedding inside an isolate: the PDI closes both; an unmatched PDI inside an embedding does not close it.
  '{RLI}{RLE}{PDI} ⸠https://b.example/⸡ {LRE}{PDI} ⟪https://a.example/⟫',
  // An email, a schemeless domain and a bare IRI alike.
  '{RLO}mail ⟪aiko@example.jp⟫, ⟪例え.jp/パス⟫。',
  // A wrapped link (P3) is judged at its start; the opener is still closed after it by the line end inside it.
  '{RLO}x <URL:⟪http://example.com/a{LF} /b⟫> ⸠https://c.example/⸡',
];

describe('bidi-embedded: a link inside an embedding, override or isolate left open on its line', () => {
  for (const marked of CASES) {
    it(marked, () => {
      expect(linked(marked)).to.equal(marked);
    });
  }

  for (const opener of OPENERS) {
    it(`{${opener}} opens, {${closerOf(opener)}} closes`, () => {
      const marked = `{${opener}}x ⟪https://a.example/⟫ y{${closerOf(opener)}} ⸠https://b.example/⸡`;
      expect(linked(marked)).to.equal(marked);
    });
  }

  for (const separator of ['LF', 'CR', 'CR}{LF', 'NEL', 'PS', 'FS', 'GS', 'RS']) {
    it(`a paragraph separator {${separator}} closes everything (UAX #9 X8)`, () => {
      const marked = `{RLO}{RLI}{LRE}x ⟪https://a.example/⟫ y{${separator}}⸠https://b.example/⸡ {RLO}z ⟪https://c.example/⟫`;
      expect(linked(marked)).to.equal(marked);
    });
  }

  it('a link with no opener before it on its line is unchanged (its diagnostics are the scanner\'s)', () => {
    const marked = '{RLO}x ⟪https://a.example/⟫{LF}see ⸠https://例え.jp/パス⸡。 \u200e';
    const text = plain(marked);
    expect(shown(linkify(text))).to.equal(marked);
    expect(findLinks(text)[1]!.diagnostics).to.deep.equal([]);
  });

  it('a link touching the override gets both codes: bidi-control (P1) and bidi-embedded', () => {
    expect(findLinks('x\u202egnp.com y')[0]!.diagnostics).to.deep.equal(['bidi-control', 'bidi-embedded']);
  });

  it('findLinks and linkify agree', () => {
    for (const marked of CASES) {
      const text = plain(marked);
      const fromChunks = linkify(text).filter((c) => c.type === 'link').map((c) => c.diagnostics);
      expect(findLinks(text).map((l) => l.diagnostics), marked).to.deep.equal(fromChunks);
      expect(fromChunks.flat(), marked).to.include('bidi-embedded');
    }
  });

  it('deep nesting: 130 openers need 130 closers (125 entries, then overflow as UAX #9 X5/X7 count it)', () => {
    const open = '{RLE}'.repeat(130);
    expect(linked(`${open}${'{PDF}'.repeat(129)} ⟪https://a.example/⟫`)).to.equal(`${open}${'{PDF}'.repeat(129)} ⟪https://a.example/⟫`);
    expect(linked(`${open}${'{PDF}'.repeat(130)} ⸠https://a.example/⸡`)).to.equal(`${open}${'{PDF}'.repeat(130)} ⸠https://a.example/⸡`);
    const isolates = '{RLI}'.repeat(130);
    expect(linked(`${isolates}${'{PDI}'.repeat(129)} ⟪https://a.example/⟫`)).to.equal(`${isolates}${'{PDI}'.repeat(129)} ⟪https://a.example/⟫`);
    expect(linked(`${isolates}${'{PDI}'.repeat(130)} ⸠https://a.example/⸡`)).to.equal(`${isolates}${'{PDI}'.repeat(130)} ⸠https://a.example/⸡`);
  });

  it('EmbeddingState follows X1–X8 on a few sequences', () => {
    const openAfter = (marked: string): boolean => {
      const s = new EmbeddingState();
      const text = plain(marked);
      s.walk(text, 0, text.length);
      return s.open;
    };
    expect(['{RLO}', '{RLI}{PDF}', '{LRE}{PDI}', '{RLE}{RLE}{PDF}', '{PDF}{RLO}'].map(openAfter)).to.deep.equal([true, true, true, true, true]);
    expect(['', '{RLO}{PDF}', '{RLI}{LRE}{PDI}', '{RLO}{LF}', '{PDI}{PDF}', '{RLE}{PS}'].map(openAfter)).to.deep.equal([false, false, false, false, false, false]);
  });
});

/** The chunks of Linkifier fed `pieces`. */
function pushed(pieces: readonly string[]): Chunk[] {
  const l = new Linkifier();
  const out: Chunk[] = [];
  for (const p of pieces) out.push(...l.push(p));
  out.push(...l.end());
  return out;
}


describe('bidi-embedded across writes: the state crosses pieces, every split gives the same answer', () => {
  it('Linkifier: every case split at every position', () => {
    for (const marked of CASES) {
      const text = plain(marked);
      for (let i = 0; i <= text.length; i++) {
        expect(shown(pushed([text.slice(0, i), text.slice(i)])), `${marked} split at ${i}`).to.equal(marked);
      }
      expect(shown(pushed([...text])), `${marked} one unit at a time`).to.equal(marked);
    }
  });

  it('createLinkStream, Buffer writes: every case split at every byte (a control\'s three bytes split too)', async () => {
    for (const marked of CASES) {
      const bytes = Buffer.from(plain(marked));
      for (let i = 0; i <= bytes.length; i++) {
        const chunks = await streamed([bytes.subarray(0, i), bytes.subarray(i)]);
        expect(shown(chunks), `${marked} split at byte ${i}`).to.equal(marked);
      }
    }
  });

  it('createLinkStream, string writes and a UTF-16 stream (no byte test there) flag the same', async () => {
    const marked = CASES[1]!;
    const text = plain(marked);
    expect(shown(await streamed([text.slice(0, 25), text.slice(25)]))).to.equal(marked);
    const utf16 = Buffer.from(text, 'utf16le');
    expect(shown(await streamed([utf16.subarray(0, 31), utf16.subarray(31)], { encoding: 'utf-16le' }))).to.equal(marked);
  });

  it('the opener in an earlier write whose chunks were already released', async () => {
    const filler = 'plain words and more words. '.repeat(2000); // 56 000 units, no link, no line end
    const marked = `{RLO}x ${filler}⟪https://a.example/⟫{LF}⸠https://b.example/⸡`;
    const text = plain(marked);
    const l = new Linkifier();
    const first = l.push(text.slice(0, 40_000));
    expect(first.map((c) => c.text).join('').length, 'the opener was released with the first write').to.be.greaterThan(30_000);
    expect(shown([...first, ...l.push(text.slice(40_000)), ...l.end()])).to.equal(marked);
    const bytes = Buffer.from(text);
    const writes: Buffer[] = [];
    for (let i = 0; i < bytes.length; i += 4096) writes.push(bytes.subarray(i, i + 4096));
    expect(shown(await streamed(writes))).to.equal(marked);
  });
});

describe('bidi-embedded in Markdown mode', () => {
  // An inline link the author wrote, a bare link, and after a blank line an autolink.
  const marked = '{RLO}x see [a](⟪https://a.example/⟫) ⟪https://b.example/⟫{LF}{LF}<⸠https://c.example/⸡>';

  it('linkifyMarkdown and findMarkdownLinks: links the author wrote and bare links alike', () => {
    expect(shown(linkifyMarkdown(plain(marked)))).to.equal(marked);
    expect(findMarkdownLinks(plain(marked)).map((l) => l.diagnostics.includes('bidi-embedded'))).to.deep.equal([true, true, false]);
  });

  it('MarkdownLinkifier and createLinkStream({ markdown: true }) at every split', async () => {
    const text = plain(marked);
    const whole = linkifyMarkdown(text).map((c) => [c.type, c.diagnostics?.includes('bidi-embedded') ?? false]);
    expect(whole.filter(([, flagged]) => flagged)).to.have.length(2);
    for (let i = 0; i <= text.length; i++) {
      const m = new MarkdownLinkifier();
      const chunks = [...m.push(text.slice(0, i)), ...m.push(text.slice(i)), ...m.end()];
      expect(chunks.map((c) => [c.type, c.diagnostics?.includes('bidi-embedded') ?? false]), `split at ${i}`).to.deep.equal(whole);
    }
    const bytes = Buffer.from(text);
    for (let i = 0; i <= bytes.length; i += 3) {
      const chunks = await streamed([bytes.subarray(0, i), bytes.subarray(i)], { markdown: true });
      expect(chunks.map((c) => [c.type, c.diagnostics?.includes('bidi-embedded') ?? false]), `split at byte ${i}`).to.deep.equal(whole);
    }
  });
});

describe('bidi-embedded in Markdown mode: a line end inside a paragraph is a space once rendered', () => {
  // Plain text ends the override at the line end (UAX #9 X8); rendered Markdown joins the lines of a paragraph,
  // so only a blank line ends it there.
  const MD_CASES: readonly [string, string][] = [
    ['{RLO}x{LF}⟪https://b.example/⟫', '{RLO}x{LF}⸠https://b.example/⸡'],
    ['{RLO}x{CR}{LF}see ⟪https://b.example/⟫{LF}{LF}⸠https://c.example/⸡', '{RLO}x{CR}{LF}see ⸠https://b.example/⸡{LF}{LF}⸠https://c.example/⸡'],
    ['{RLI}x{LF}  {LF}⸠https://b.example/⸡ {RLO}{LF}⟪https://c.example/⟫', '{RLI}x{LF}  {LF}⸠https://b.example/⸡ {RLO}{LF}⸠https://c.example/⸡'],
    ['{RLO}x{CR}{LF}{CR}{LF}⸠https://b.example/⸡ {RLO}y ⟪https://c.example/⟫', '{RLO}x{CR}{LF}{CR}{LF}⸠https://b.example/⸡ {RLO}y ⟪https://c.example/⟫'],
    ['a{LF}{LF}{RLE}x{LF}y ⟪https://a.example/⟫{LF}\t{LF}⸠https://b.example/⸡', 'a{LF}{LF}{RLE}x{LF}y ⸠https://a.example/⸡{LF}\t{LF}⸠https://b.example/⸡'],
    ['> {RLO}x{LF}> ⟪https://b.example/⟫{LF}{LF}{PDF}⸠https://c.example/⸡', '> {RLO}x{LF}> ⸠https://b.example/⸡{LF}{LF}{PDF}⸠https://c.example/⸡'],
  ];

  for (const [markdown, plainText] of MD_CASES) {
    it(markdown, () => {
      const text = plain(markdown);
      expect(shown(linkifyMarkdown(text))).to.equal(markdown);
      expect(shown(linkify(text))).to.equal(plainText);
    });
  }

  it('the same at every split (MarkdownLinkifier) and every byte split (createLinkStream({ markdown: true }))', async () => {
    for (const [markdown] of MD_CASES) {
      const text = plain(markdown);
      for (let i = 0; i <= text.length; i++) {
        const m = new MarkdownLinkifier();
        expect(shown([...m.push(text.slice(0, i)), ...m.push(text.slice(i)), ...m.end()]), `${markdown} split at ${i}`).to.equal(markdown);
      }
      const m = new MarkdownLinkifier();
      expect(shown([...[...text].flatMap((c) => m.push(c)), ...m.end()]), `${markdown} one unit at a time`).to.equal(markdown);
      const bytes = Buffer.from(text);
      for (let i = 0; i <= bytes.length; i++) {
        const chunks = await streamed([bytes.subarray(0, i), bytes.subarray(i)], { markdown: true });
        expect(shown(chunks), `${markdown} split at byte ${i}`).to.equal(markdown);
      }
    }
  });
});

describe('bidi-embedded downstream: unsafe, as bidi-control (SECURITY.md)', () => {
  const text = '\u202e x https://evil.example/moc.elgoog//:sptth';
  const chunks = linkify(text);
  const link = chunks.find((c) => c.type === 'link')!;

  it('is one of UNSAFE_DIAGNOSTICS, and refusals() gives it', () => {
    expect(UNSAFE_DIAGNOSTICS).to.include('bidi-embedded');
    expect(link.type === 'link' && refusals(link)).to.deep.equal(['bidi-embedded']);
  });

  it('toHtml: an unsafe span, not an <a>', () => {
    expect(toHtml(chunks)).to.equal(
      '\u202e x <span class="irilink-unsafe" title="bidi-embedded" dir="ltr">https://evil.example/moc.elgoog//:sptth</span>',
    );
  });

  it('toMarkdown and toMarkdownSource: written with `\\:` `\\.` escaped, so no Markdown renderer links it', () => {
    expect(toMarkdown(chunks)).to.equal('\u202e x https\\://evil\\.example/moc\\.elgoog//\\:sptth');
    expect(toMarkdownSource(linkifyMarkdown(text))).to.equal('\u202e x https\\://evil\\.example/moc\\.elgoog//\\:sptth');
  });

  it('toAnsi: no OSC 8 hyperlink (and the override shown U+FFFD)', () => {
    expect(toAnsi(chunks)).to.equal('\ufffd x https://evil.example/moc.elgoog//:sptth');
  });

  it('the markdown-it and remark plugins leave it as text; a link in the next paragraph is linked', async () => {
    const md = new MarkdownIt({ linkify: true });
    md.linkify = irilinkLinkifyIt() as unknown as (typeof md)['linkify'];
    const html = md.render(`${text}\n\nhttps://ok.example/`);
    expect(html).to.not.include('href="https://evil.example');
    expect(html).to.include('<a href="https://ok.example/">');
    const out = String(await remark().use(remarkIrilink).process(`${text}\n\nhttps://ok.example/`));
    expect(out).to.not.include('](https://evil.example');
    expect(out).to.include('<https://ok.example/>');
  });

  it('an override on an earlier line of the same rendered paragraph: toMarkdown and the plugins do not link', async () => {
    // Plain text: the line end closes the override (the detector does not flag the link)…
    const chunks = linkify('\u202e x\nhttps://evil.example/moc.elgoog//:sptth\n\nhttps://ok.example/');
    expect(chunks.filter((c) => c.type === 'link').map((c) => c.diagnostics)).to.deep.equal([[], []]);
    // …but Markdown joins the two lines into one paragraph: toMarkdown writes the link as text.
    expect(toMarkdown(chunks)).to.equal('\u202e x\nhttps\\://evil\\.example/moc\\.elgoog//\\:sptth\n\n<https://ok.example/>');
    const source = '\u202e x\nhttps://evil.example/moc.elgoog//:sptth\n\nhttps://ok.example/';
    const out = String(await remark().use(remarkIrilink).process(source));
    expect(out).to.not.include('](https://evil.example').and.to.not.include('<https://evil.example');
    expect(out).to.include('<https://ok.example/>');
    const md = new MarkdownIt({ linkify: true });
    md.linkify = irilinkLinkifyIt() as unknown as (typeof md)['linkify'];
    const html = md.render(source);
    expect(html).to.not.include('href="https://evil.example');
    expect(html).to.include('<a href="https://ok.example/">');
  });
});
