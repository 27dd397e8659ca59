// `bidi-embedded` against an independent reading of UAX #9 §3.3.2 X1–X8 (review): a small directional
// status stack with real embedding levels (BD2 max_depth 125, X2–X5c least odd/even level, X6a, X7, X8) says
// whether anything is open where each link starts; every path that emits links must agree with it on random texts
// of openers, closers, paragraph separators, LRM/RLM/ALM and links, however the text is split.
// Markdown mode: the same stack, where only a blank line (spaces, tabs, CR) ends the paragraph (CommonMark §4.9).
import { expect } from 'chai';
import fc from 'fast-check';
import { findLinks, Linkifier, linkify } from '../src/index.js';
import { findMarkdownLinks, MarkdownLinkifier } from '../src/markdown/index.js';
import { EmbeddingState } from '../src/detect/embedding.js';
import type { Chunk } from '../src/types.js';
import { streamed } from './support/stream.js';

const MAX_DEPTH = 125; // UAX #9 BD2

/** UAX #9 X1–X8, kept as the spec's text states it (levels, overflow counters, valid isolate count). */
class ReferenceStack {
  private stack: { level: number; isolate: boolean }[] = [{ level: 0, isolate: false }];
  private overflowIsolates = 0;
  private overflowEmbeddings = 0;
  private validIsolates = 0;

  /** Anything above the paragraph's own entry. */
  get open(): boolean {
    return this.stack.length > 1;
  }

  // X8: end of paragraph.
  reset(): void {
    this.stack = [{ level: 0, isolate: false }];
    this.overflowIsolates = this.overflowEmbeddings = this.validIsolates = 0;
  }

  /** One character; returns without effect for anything but the explicit formatting characters. */
  apply(c: number): void {
    const top = this.stack[this.stack.length - 1]!;
    const rtl = c === 0x202b || c === 0x202e || c === 0x2067; // RLE, RLO, RLI (FSI's direction does not matter here)
    const next = rtl ? (top.level + 1) | 1 : (top.level + 2) & ~1;
    const free = next <= MAX_DEPTH && this.overflowIsolates === 0 && this.overflowEmbeddings === 0;
    if (c === 0x202a || c === 0x202b || c === 0x202d || c === 0x202e) {
      // X2–X5
      if (free) this.stack.push({ level: next, isolate: false });
      else if (this.overflowIsolates === 0) this.overflowEmbeddings++;
    } else if (c >= 0x2066 && c <= 0x2068) {
      // X5a–X5c
      if (free) {
        this.validIsolates++;
        this.stack.push({ level: next, isolate: true });
      } else {
        this.overflowIsolates++;
      }
    } else if (c === 0x2069) {
      // X6a
      if (this.overflowIsolates > 0) this.overflowIsolates--;
      else if (this.validIsolates > 0) {
        this.overflowEmbeddings = 0;
        while (!this.stack[this.stack.length - 1]!.isolate) this.stack.pop();
        this.stack.pop();
        this.validIsolates--;
      }
    } else if (c === 0x202c) {
      // X7
      if (this.overflowIsolates > 0) return;
      if (this.overflowEmbeddings > 0) this.overflowEmbeddings--;
      else if (!top.isolate && this.stack.length >= 2) this.stack.pop();
    }
  }
}

/** BD8: Bidi_Class B. */
const SEPARATORS = new Set([0x0a, 0x0d, 0x1c, 0x1d, 0x1e, 0x85, 0x2029]);

/** Whether the reference has something open at each of `starts` (plain text, or Markdown's blank-line rule). */
function referenceOpen(text: string, starts: readonly number[], markdown: boolean | 'lines' = false): boolean[] {
  const stack = new ReferenceStack();
  const want = new Set(starts);
  const at = new Map<number, boolean>();
  let lineBlank = true;
  for (let i = 0; i <= text.length; i++) {
    if (want.has(i)) at.set(i, stack.open);
    if (i === text.length) break;
    const c = text.charCodeAt(i);
    if (markdown) {
      if (c === 0x0a) {
        if (lineBlank || markdown === 'lines') stack.reset();
        lineBlank = true;
        continue;
      }
      if (c === 0x20 || c === 0x09 || c === 0x0d) continue;
      lineBlank = false;
      if (c === 0x7c && markdown === 'lines') {
        stack.reset();
        continue;
      }
    } else if (SEPARATORS.has(c)) {
      stack.reset();
      continue;
    }
    stack.apply(c);
  }
  return starts.map((s) => at.get(s)!);
}

const OPENERS = ['\u202a', '\u202b', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068'];
const CLOSERS = ['\u202c', '\u2069'];
const PIECES = [
  ...OPENERS, ...CLOSERS,
  '\n', '\r', '\r\n', '\u2029', '\u0085', '\u001c', '\u001d', '\u001e', // paragraph separators
  '\u200e', '\u200f', '\u061c', '\u2028', ' ', 'a', ' x ', '\u00e9', // not openers, not separators
  ' https://a.example/p ', ' www.b.example ', ' c@d.example ', 'https://e.example/x', ' http://f.example/',
];
const text = fc.array(fc.constantFrom(...PIECES), { maxLength: 30 }).map((a) => a.join(''));
const cuts = (n: number) => fc.uniqueArray(fc.integer({ min: 0, max: n }), { maxLength: 4 }).map((a) => a.sort((x, y) => x - y));
const PARAMS = { seed: 0x9bd1, numRuns: 150 };

const embedded = (d: readonly string[]) => d.includes('bidi-embedded');
function linkRows(chunks: readonly Chunk[]): [number, boolean][] {
  return chunks.flatMap((c) => (c.type === 'link' ? [[c.start, embedded(c.diagnostics)] as [number, boolean]] : []));
}
function expected(s: string): [number, boolean][] {
  const starts = findLinks(s).map((l) => l.start);
  const open = referenceOpen(s, starts);
  return starts.map((start, i) => [start, open[i]!]);
}
function pieces<T extends { length: number; slice(a: number, b?: number): T }>(whole: T, at: readonly number[]): T[] {
  const out: T[] = [];
  let p = 0;
  for (const c of [...at, whole.length]) {
    if (c > p) out.push(whole.slice(p, c));
    p = Math.max(p, c);
  }
  return out;
}
function utf16be(s: string): Buffer {
  const b = Buffer.from(s, 'utf16le');
  for (let i = 0; i + 1 < b.length; i += 2) [b[i], b[i + 1]] = [b[i + 1]!, b[i]!];
  return b;
}

describe('bidi-embedded against an independent UAX #9 X1–X8 reference', () => {
  it('EmbeddingState.open equals the reference after every prefix of control sequences, nesting past 125 included', () => {
    const controls = fc.array(fc.constantFrom(...OPENERS, ...OPENERS, ...CLOSERS), { minLength: 100, maxLength: 400 });
    fc.assert(
      fc.property(controls, (seq) => {
        const s = seq.join('');
        const state = new EmbeddingState();
        const ref = new ReferenceStack();
        for (let i = 0; i < s.length; i++) {
          state.walk(s, i, i + 1);
          ref.apply(s.charCodeAt(i));
          if (state.open !== ref.open) return false;
        }
        return true;
      }),
      { seed: 0x9bd2, numRuns: 300 },
    );
  });

  it('findLinks and linkify flag exactly the links the reference finds inside something open', () => {
    fc.assert(
      fc.property(text, (s) => {
        const want = expected(s);
        expect(findLinks(s).map((l) => [l.start, embedded(l.diagnostics)]), JSON.stringify(s)).to.deep.equal(want);
        expect(linkRows(linkify(s)), JSON.stringify(s)).to.deep.equal(want);
      }),
      PARAMS,
    );
  });

  it('Linkifier at random splits', () => {
    fc.assert(
      fc.property(text.chain((s) => fc.tuple(fc.constant(s), cuts(s.length))), ([s, at]) => {
        const linkifier = new Linkifier();
        const out: Chunk[] = [];
        for (const piece of pieces(s, at)) out.push(...linkifier.push(piece));
        out.push(...linkifier.end());
        expect(linkRows(out), JSON.stringify([s, at])).to.deep.equal(expected(s));
      }),
      PARAMS,
    );
  });

  it('createLinkStream: string writes, and UTF-8, UTF-16LE, UTF-16BE Buffers at random byte splits', async () => {
    await fc.assert(
      fc.asyncProperty(text, fc.array(fc.nat(), { maxLength: 4 }), async (s, raw) => {
        const want = expected(s);
        const stringCuts = [...new Set(raw.map((r) => r % (s.length + 1)))].sort((a, b) => a - b);
        expect(linkRows(await streamed(pieces(s, stringCuts), {})), 'strings ' + JSON.stringify(s)).to.deep.equal(want);
        for (const [encoding, bytes] of [
          ['utf-8', Buffer.from(s, 'utf8')],
          ['utf-16le', Buffer.from(s, 'utf16le')],
          ['utf-16be', utf16be(s)],
        ] as const) {
          const at = [...new Set(raw.map((r) => r % (bytes.length + 1)))].sort((a, b) => a - b);
          const got = linkRows(await streamed(pieces(bytes, at), { encoding }));
          expect(got, `${encoding} ${JSON.stringify(s)} at ${at.join(',')}`).to.deep.equal(want);
        }
      }),
      { seed: 0x9bd3, numRuns: 60 },
    );
  });

  it('Markdown mode: findMarkdownLinks and MarkdownLinkifier at random splits follow the reference with the blank-line rule or the every-line rule, whichever is open', () => {
    const mdPieces = [...PIECES, '\n\n', '\n \n', '\n\t\r\n', '# h\n', '- ', '> ', ' | ', ' <https://g.example/> ', ' [t](https://h.example/) '];
    const md = fc.array(fc.constantFrom(...mdPieces), { maxLength: 25 }).map((a) => a.join(''));
    fc.assert(
      fc.property(md.chain((s) => fc.tuple(fc.constant(s), cuts(s.length))), ([s, at]) => {
        const found = findMarkdownLinks(s);
        const starts = found.map((l) => l.start);
        // Open when a line end is a space (only a blank line ends the paragraph), or when it ends the paragraph
        // (a heading, a list item, a table row; a `|` a table cell): either reading may be the rendered one.
        const open = referenceOpen(s, starts, true);
        const lines = referenceOpen(s, starts, 'lines');
        const want = starts.map((start, i) => [start, open[i]! || lines[i]!]);
        expect(found.map((l) => [l.start, embedded(l.diagnostics)]), JSON.stringify(s)).to.deep.equal(want);
        const linkifier = new MarkdownLinkifier();
        const out: Chunk[] = [];
        for (const piece of pieces(s, at)) out.push(...linkifier.push(piece));
        out.push(...linkifier.end());
        expect(linkRows(out), JSON.stringify([s, at])).to.deep.equal(want);
      }),
      PARAMS,
    );
  });
});
