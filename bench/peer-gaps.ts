// Links a peer finds that irilink misses or cuts elsewhere, on samples of the real corpora.
// For each corpus, fixed byte offsets (fractions of the file) give samples of --size MB, cut to whole lines; on each,
// irilink's findLinks and linkify-it, linkifyjs and Autolinker (bench/lib/peers.ts, the bench's adapters) run, and
// every peer span that irilink does not find exactly is listed:
//   missed     no irilink link overlaps it;
//   start/end/both   an irilink link overlaps it with another start, end or both (`longer`/`shorter`: irilink's side);
//   split      it overlaps several irilink links.
// and, the other way, `irilink-only`: irilink links that no peer span overlaps. Each span is grouped with the
// peers that report it and classified by the first rule of `classify` below that fits (the classes are described
// in bench/README.md). Writes STEM.md (counts per class and corpus, and examples) and STEM.jsonl (every span).
//
//   tsx bench/peer-gaps.ts [--size MB] [--offsets 0.05,0.3,0.55,0.8] [--corpus en-mixed,…] [--examples N] [--out STEM]
//
// Not part of `npm test` or `npm run bench`; needs `npm run build` and the corpora (`npm run corpora`).
import { closeSync, existsSync, openSync, readSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadIrilink } from './lib/irilink.js';
import { ensureDir, largeDir, resultsDir } from './lib/paths.js';
import { makePeer, type FoundLink, type Peer } from './lib/peers.js';
import { markedLine } from './lib/pieces.js';
import type { Link } from '../src/types.js';

interface Args {
  sizeMb: number;
  offsets: number[];
  corpora: string[];
  examples: number;
  out: string;
}

function parseArgs(argv: string[]): Args {
  const a: Args = {
    sizeMb: 2,
    offsets: [0.05, 0.3, 0.55, 0.8],
    corpora: ['en-mixed', 'multilingual', 'mail', 'markdown', 'logs'],
    examples: 12,
    out: path.join(resultsDir, 'peer-gaps'),
  };
  for (let i = 0; i < argv.length; i++) {
    const v = argv[i + 1];
    switch (argv[i]) {
      case '--size':
        a.sizeMb = Number(v);
        i++;
        break;
      case '--offsets':
        a.offsets = v!.split(',').map(Number);
        i++;
        break;
      case '--corpus':
        a.corpora = v!.split(',');
        i++;
        break;
      case '--examples':
        a.examples = Number(v);
        i++;
        break;
      case '--out':
        a.out = path.resolve(v!);
        i++;
        break;
      default:
        throw new Error(`peer-gaps: unknown argument ${argv[i]}`);
    }
  }
  return a;
}

/** `bytes` bytes of `file` from `offset`, cut to whole lines (the first partial line is dropped unless offset is 0). */
export function readSample(file: string, offset: number, bytes: number): string {
  const size = statSync(file).size;
  const start = Math.max(0, Math.min(offset, size - bytes));
  const buf = Buffer.alloc(Math.min(bytes, size));
  const fd = openSync(file, 'r');
  try {
    readSync(fd, buf, 0, buf.length, start);
  } finally {
    closeSync(fd);
  }
  const first = start === 0 ? 0 : buf.indexOf(0x0a) + 1;
  const last = start + buf.length >= size ? buf.length : buf.lastIndexOf(0x0a) + 1;
  return buf.subarray(first, last).toString('utf8');
}

/** The peer's spans over `text`, found in line-aligned pieces of about 64 K code units (as the bench feeds them). */
function peerSpans(peer: Peer, text: string): FoundLink[] {
  const out: FoundLink[] = [];
  let from = 0;
  while (from < text.length) {
    let to = text.indexOf('\n', from + 65536);
    to = to < 0 ? text.length : to + 1;
    for (const f of peer.find(text.slice(from, to))) out.push({ ...f, start: f.start + from, end: f.end + from });
    from = to;
  }
  return out;
}

export type GapKind = 'missed' | 'start' | 'end' | 'both' | 'split' | 'irilink-only';

export interface Gap {
  corpus: string;
  kind: GapKind;
  /** The peer's span (for irilink-only: irilink's). */
  start: number;
  end: number;
  text: string;
  /** The irilink links overlapping it. */
  ours: { start: number; end: number; text: string }[];
  peers: string[];
  cls: string;
  context: string;
}

const CONTEXT = 40;

/** The span in its line, marked ⸠…⸡ (and irilink's overlapping links ⟦…⟧ when they differ). */
function contextOf(text: string, g: { start: number; end: number; ours: { start: number; end: number }[] }): string {
  const lo = Math.max(0, Math.min(g.start, ...g.ours.map((o) => o.start)) - CONTEXT);
  const hi = Math.min(text.length, Math.max(g.end, ...g.ours.map((o) => o.end)) + CONTEXT);
  const marks: [number, string][] = [
    [g.start, '⸠'],
    [g.end, '⸡'],
  ];
  for (const o of g.ours) {
    if (o.start === g.start && o.end === g.end) continue;
    marks.push([o.start, '⟦'], [o.end, '⟧']);
  }
  return markedLine(text, lo, hi, marks);
}

/** Indices of the links that overlap [start, end). */
function overlapping(links: Link[], start: number, end: number): number[] {
  // links are in order and disjoint: binary search for the first that ends after start.
  let lo = 0;
  let hi = links.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (links[mid]!.end <= start) lo = mid + 1;
    else hi = mid;
  }
  const out: number[] = [];
  for (let i = lo; i < links.length && links[i]!.start < end; i++) out.push(i);
  return out;
}

const SCHEME_RE = /^([a-z][a-z0-9+.-]{0,31}):/i;

/**
 * The class of a gap: the first rule that fits. The rules were written after reading the spans (see bench/README.md);
 * `other` is what none of them describes.
 */
export function classify(text: string, g: Omit<Gap, 'cls' | 'context'>): string {
  const t = g.text;
  const before = g.start > 0 ? text[g.start - 1]! : '';
  const scheme = SCHEME_RE.exec(t)?.[1]?.toLowerCase();
  const o = g.ours[0];
  if (g.kind === 'irilink-only') {
    if (/[^\x00-\x7f]/.test(t)) return 'ours: non-ASCII link';
    if (scheme !== undefined && !['http', 'https', 'ftp', 'mailto'].includes(scheme)) return `ours: scheme ${scheme}:`;
    if (t.includes('@')) return 'ours: email';
    if (scheme === undefined) return 'ours: schemeless name';
    return 'ours: other';
  }
  if (g.kind === 'missed') {
    if (scheme !== undefined) {
      if (/^(javascript|vbscript|data):/i.test(t)) return 'missed: never-linked scheme';
      if (/^https?:\/\/[^/]*@/i.test(t)) return 'missed: http(s) userinfo (unlinked span)';
      if (/[a-z0-9]/i.test(before)) return 'missed: scheme glued to a word (P4)';
      return `missed: scheme ${scheme}:`;
    }
    if (t.includes('@')) {
      if (/^[^@]*:[^@]*@/.test(t)) return 'missed: user:pass@host';
      return 'missed: email';
    }
    if (before === '/') return 'missed: after a single / (path segment)';
    if (before === '_') return 'missed: after an identifier _';
    if (/^[^./]+\.[a-z]+$/i.test(t)) return 'missed: bare two-label name';
    return 'missed: schemeless name';
  }
  if (o === undefined) return 'other';
  if (g.kind === 'split') return 'split: peer span covers several of ours';
  const parts: string[] = [];
  if (g.start !== o.start) {
    parts.push(o.start > g.start ? `start later at ${JSON.stringify(text.slice(g.start, o.start).slice(-3))}` : `start earlier by ${JSON.stringify(text.slice(o.start, g.start).slice(-3))}`);
  }
  if (g.end !== o.end) {
    if (o.end < g.end) {
      const c = text[o.end]!;
      parts.push(`ours ends before ${JSON.stringify(c)}`);
    } else {
      const c = text[g.end]!;
      parts.push(`peer ends before ${JSON.stringify(c)}`);
    }
  }
  return `${g.kind}: ${parts.join(', ')}`;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const { api, missing } = await loadIrilink();
  if (api.findLinks === undefined) throw new Error(missing.join('; '));
  const findLinks = api.findLinks;
  const peers = (['linkify-it', 'linkifyjs', 'autolinker'] as const).map(makePeer);
  const gaps: Gap[] = [];
  const totals = new Map<string, { irilink: number; peers: Map<string, number>; chars: number }>();
  for (const corpus of args.corpora) {
    const file = path.join(largeDir, `${corpus}.txt`);
    if (!existsSync(file)) {
      console.error(`peer-gaps: ${corpus}.txt missing (npm run corpora), skipped`);
      continue;
    }
    const size = statSync(file).size;
    const bytes = Math.round(args.sizeMb * 1e6);
    const offsets = size <= bytes ? [0] : [...new Set(args.offsets.map((f) => Math.floor(f * size)))];
    const tot = { irilink: 0, peers: new Map<string, number>(), chars: 0 };
    totals.set(corpus, tot);
    for (const offset of offsets) {
      const text = readSample(file, offset, bytes);
      tot.chars += text.length;
      const ours = findLinks(text);
      tot.irilink += ours.length;
      const byKey = new Map<string, Gap>();
      const covered = new Uint8Array(ours.length);
      for (const peer of peers) {
        const spans = peerSpans(peer, text);
        tot.peers.set(peer.name, (tot.peers.get(peer.name) ?? 0) + spans.length);
        for (const p of spans) {
          const idx = overlapping(ours, p.start, p.end);
          for (const i of idx) covered[i] = 1;
          const ov = idx.map((i) => ours[i]!);
          if (ov.length === 1 && ov[0]!.start === p.start && ov[0]!.end === p.end) continue;
          let kind: GapKind;
          if (ov.length === 0) kind = 'missed';
          else if (ov.length > 1) kind = 'split';
          else if (ov[0]!.start !== p.start && ov[0]!.end !== p.end) kind = 'both';
          else kind = ov[0]!.start !== p.start ? 'start' : 'end';
          const key = `${p.start}:${p.end}`;
          const had = byKey.get(key);
          if (had !== undefined) {
            had.peers.push(peer.name);
            continue;
          }
          const g = {
            corpus,
            kind,
            start: p.start,
            end: p.end,
            text: text.slice(p.start, p.end),
            ours: ov.map((o) => ({ start: o.start, end: o.end, text: o.text })),
            peers: [peer.name],
          };
          byKey.set(key, { ...g, cls: classify(text, g), context: contextOf(text, g) });
        }
      }
      for (let i = 0; i < ours.length; i++) {
        if (covered[i] === 1) continue;
        const o = ours[i]!;
        const g = { corpus, kind: 'irilink-only' as const, start: o.start, end: o.end, text: o.text, ours: [], peers: [] };
        byKey.set(`i${o.start}`, { ...g, cls: classify(text, g), context: contextOf(text, g) });
      }
      for (const g of byKey.values()) gaps.push(g);
      console.error(`${corpus} @${offset}: ${text.length} chars, ${ours.length} links, ${byKey.size} differences`);
    }
  }
  writeReport(args, gaps, totals);
}

function writeReport(args: Args, gaps: Gap[], totals: Map<string, { irilink: number; peers: Map<string, number>; chars: number }>): void {
  ensureDir(path.dirname(args.out));
  writeFileSync(`${args.out}.jsonl`, gaps.map((g) => JSON.stringify(g)).join('\n') + '\n');
  const corpora = [...totals.keys()];
  const byClass = new Map<string, Gap[]>();
  for (const g of gaps) {
    const list = byClass.get(g.cls);
    if (list === undefined) byClass.set(g.cls, [g]);
    else list.push(g);
  }
  const classes = [...byClass.keys()].sort((a, b) => byClass.get(b)!.length - byClass.get(a)!.length);
  const lines: string[] = [];
  lines.push('# Where the peers and irilink disagree on the corpora (bench/peer-gaps.ts)', '');
  lines.push(`Samples: ${args.sizeMb} MB at offsets ${args.offsets.join(', ')} of each file, cut to whole lines.`, '');
  lines.push('| corpus | chars | irilink | ' + [...totals.values().next().value!.peers.keys()].join(' | ') + ' |');
  lines.push('|---|---:|---:|' + '---:|'.repeat(totals.values().next().value!.peers.size));
  for (const [c, t] of totals) lines.push(`| ${c} | ${t.chars} | ${t.irilink} | ${[...t.peers.values()].join(' | ')} |`);
  lines.push('', '| class | total | ' + corpora.join(' | ') + ' | peers |', '|---|---:|' + '---:|'.repeat(corpora.length) + '---|');
  for (const cls of classes) {
    const list = byClass.get(cls)!;
    const peerCount = new Map<string, number>();
    for (const g of list) for (const p of g.peers) peerCount.set(p, (peerCount.get(p) ?? 0) + 1);
    lines.push(
      `| ${cls.replace(/\|/g, '\\|')} | ${list.length} | ${corpora.map((c) => list.filter((g) => g.corpus === c).length).join(' | ')} | ${[...peerCount].map(([p, n]) => `${p} ${n}`).join(', ')} |`,
    );
  }
  for (const cls of classes) {
    const list = byClass.get(cls)!;
    lines.push('', `## ${cls} (${list.length})`, '');
    // Spread the examples over the list (it is in corpus and text order).
    const step = Math.max(1, Math.floor(list.length / args.examples));
    for (let i = 0; i < list.length && i / step < args.examples; i += step) {
      const g = list[i]!;
      lines.push(`- ${g.corpus} [${g.peers.join(',') || 'irilink'}] \`${g.context.replace(/`/g, 'ˋ')}\``);
    }
  }
  writeFileSync(`${args.out}.md`, lines.join('\n') + '\n');
  console.error(`wrote ${args.out}.md and ${args.out}.jsonl (${gaps.length} spans)`);
}

await main();
