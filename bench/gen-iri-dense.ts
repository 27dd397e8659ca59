// The IRI-dense corpus (issue 5): real IRIs placed into real multilingual prose, reproducibly (seeded), with
// the expected links known by construction. Also writes the link-free prose alone (`prose-nolinks.txt`),
// the bench's "no links" input.
//
// Sources:
//   - IRIs: the Wikipedia URLs of the UTS #58 conformance file (../shared/uts58/17.0.0/LinkDetectionTest.txt),
//     plus the IRIs of the multilingual corpus (corpora/large/multilingual.txt, when built);
//   - prose: lines of the multilingual corpus with no link-like text in them (see isLinkFreeProse); without
//     the built corpus, the prose lines of the committed samples (corpora/samples).
// Every IRI is checked to be exactly one link when it stands between spaces (isWholeLink: UTS #58 §3.5.1
// termination read from LinkTerm.txt, no userinfo, a host that passes UTS #46), and is placed only in a
// context that ends it unambiguously: after a space or an opening bracket/quote, before a space, a closing
// bracket/quote, or Soft punctuation followed by a space or the end of the line.
//
// Usage: tsx bench/gen-iri-dense.ts [--size MB] [--seed N] [--out DIR]
//   writes DIR/iri-dense.txt, DIR/iri-dense.links.tsv (start, end, text, uri; UTF-16 offsets) and
//   DIR/prose-nolinks.txt. MB = 10^6 bytes. Defaults: 20 MB, seed 58, DIR = corpora/large/generated.
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import tlds from 'tlds';
import { expectedUri, hostToAscii } from './lib/expected-uri.js';
import { linkTerm } from './lib/linkterm.js';
import { ensureDir, generatedDir, largeCorpusPath, samplesDir, uts58DetectionTestPath } from './lib/paths.js';
import { seededRandom } from '../scripts/random.js';

export interface ExpectedLink {
  start: number;
  end: number;
  text: string;
  uri: string;
}


const IANA_TLDS = new Set(tlds);
const BIDI_CONTROLS = new Set([0x061c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069]);
const isHex = (c: string | undefined): boolean => c !== undefined && /^[0-9A-Fa-f]$/.test(c);

/**
 * True when `s` (an http(s) IRI) is exactly one link if it stands between two spaces: UTS #58 §3.5.1
 * termination (no Hard character, no Soft character at the end, brackets only as balanced ASCII `(…)`
 * inside one path segment or query value), no userinfo, no second scheme (DESIGN.md P8), no bidi control
 * (P1), no `%` without two hex digits, a host that passes UTS #46 ToASCII, and at least one non-ASCII
 * character (an IRI, not a URI).
 */
export function isWholeLink(s: string): boolean {
  const m = /^https?:\/\/([^/?#]+)([^]*)$/.exec(s);
  if (!m) return false;
  const host = m[1]!;
  const rest = m[2]!;
  if (host.includes('@') || host.includes(':') || host.startsWith('.') || host.endsWith('.') || host.includes('..')) return false;
  if (!/[^\x00-\x7F]/.test(s) || s.length > 2000 || rest.includes('://')) return false;
  // A host of dot-separated labels whose last label is an IANA TLD (the `tlds` package), so that prose glued
  // to a host (`www.example.com参照`, `www.debian.org。你…`) is not taken for an IRI.
  if (/[。．｡]/.test(host) || !IANA_TLDS.has(host.slice(host.lastIndexOf('.') + 1).toLowerCase())) return false;
  if (hostToAscii(host) === undefined) return false;
  if (looksGluedToProse(s)) return false;
  const cps = [...s];
  let open = false;
  for (let i = 0; i < cps.length; i++) {
    const ch = cps[i]!;
    const cp = ch.codePointAt(0)!;
    if (BIDI_CONTROLS.has(cp) || '"<>\\^`|{}[]⸠⸡'.includes(ch)) return false;
    if (ch === '%' && !(isHex(cps[i + 1]) && isHex(cps[i + 2]))) return false;
    if (open && '/?#=&'.includes(ch)) return false;
    const v = linkTerm(cp);
    if (v === 'Hard') return false;
    if (v === 'Soft' && i === cps.length - 1) return false;
    if (v === 'Open') {
      if (ch !== '(' || open) return false;
      open = true;
    }
    if (v === 'Close') {
      if (ch !== ')' || !open) return false;
      open = false;
    }
  }
  return !open;
}

/**
 * True for a line of prose with nothing a linkifier could take for a link: no `://`, `@`, `www`, no dot
 * (any script's) between two letters or digits, no `letter:non-space` (mailto:, urn:, tel:), no `<>`,
 * no bidi controls; 30–400 characters, at least a third of them letters.
 */
export function isLinkFreeProse(line: string): boolean {
  if (line.length < 30 || line.length > 400) return false;
  if (/:\/\/|[@＠<>⸠⸡]|www|[A-Za-z][:：]\S/i.test(line)) return false;
  if (/[\p{L}\p{N}\p{M}][.。．｡][\p{L}\p{N}]/u.test(line)) return false;
  if (/[\u0000-\u001F\u007F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/.test(line)) return false;
  const letters = line.match(/\p{L}/gu)?.length ?? 0;
  return letters * 3 >= line.length;
}

/**
 * Corpus text often glues prose to a URL (`…/vnc/を参照のこと`, `…/hurd를`, `…/에서도`, `…/latest.tar.gz处取得`,
 * `…/。在`): it is not an IRI anyone wrote, so the generator leaves it out. Heuristic: CJK sentence punctuation
 * anywhere, or a final non-ASCII run that starts with Hiragana (a particle), is one to three Hangul syllables (a
 * particle) or follows a file name's extension.
 */
export function looksGluedToProse(s: string): boolean {
  if (/[。、，；！？]/.test(s)) return true;
  const tail = /[^\x00-\x7F]+$/.exec(s)?.[0];
  if (tail === undefined) return false;
  if (/\.(?:html?|php|cgi|aspx?|jsp|txt|pdf|gz|zip|exe|gif|png|jpe?g)$/i.test(s.slice(0, -tail.length))) return true;
  return /^[\u3040-\u309F]/.test(tail) || /^[\uAC00-\uD7A3]{1,3}$/.test(tail);
}

/** The Wikipedia URLs marked in the UTS #58 conformance file. */
export function conformanceWikipediaIris(): string[] {
  const out: string[] = [];
  for (const line of readFileSync(uts58DetectionTestPath(), 'utf8').split('\n')) {
    if (line.startsWith('#')) continue;
    for (const m of line.matchAll(/⸠([^⸡]*)⸡/g)) if (m[1]!.includes('wikipedia.org/')) out.push(m[1]!);
  }
  return out;
}

/** IRIs found in a text: `http(s)://` runs up to whitespace or a delimiter, trailing Soft characters dropped. */
export function irisInText(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/https?:\/\/[^\s<>"'「」『』（）()[\]{}|\\^`]+/g)) {
    const cps = [...m[0]];
    while (cps.length > 0 && linkTerm(cps[cps.length - 1]!.codePointAt(0)!) === 'Soft') cps.pop();
    out.push(cps.join(''));
  }
  return out;
}

interface Sources {
  iris: string[];
  prose: string[];
  /** Where the prose and IRIs came from, for the report. */
  origin: string;
}

/** Collects the IRIs and the prose, from the built multilingual corpus when present, else from the samples. */
export function collectSources(): Sources {
  const seen = new Set<string>();
  const iris: string[] = [];
  const addIri = (s: string): void => {
    if (!seen.has(s) && isWholeLink(s)) {
      seen.add(s);
      iris.push(s);
    }
  };
  for (const s of conformanceWikipediaIris()) addIri(s);
  const prose: string[] = [];
  const corpus = largeCorpusPath('multilingual.txt');
  let origin: string;
  if (corpus !== undefined) {
    // The scan of 150 MB takes a while: its result is cached beside the generated files, keyed by the
    // corpus's size and mtime and this file's own mtime.
    const key = [statSync(corpus).size, statSync(corpus).mtimeMs, statSync(fileURLToPath(import.meta.url)).mtimeMs].join(':');
    const cacheFile = path.join(generatedDir, 'iri-dense-sources.json');
    if (existsSync(cacheFile)) {
      const cached = JSON.parse(readFileSync(cacheFile, 'utf8')) as Sources & { key: string };
      if (cached.key === key) return { iris: cached.iris, prose: cached.prose, origin: cached.origin };
    }
    const text = readFileSync(corpus, 'utf8');
    for (const s of irisInText(text)) addIri(s);
    // Prose: every line that passes the filter, thinned to at most ~60,000 by a fixed stride.
    const lines = text.split('\n');
    const stride = Math.max(1, Math.floor(lines.length / 600_000));
    for (let i = 0; i < lines.length; i += stride) {
      const line = lines[i]!;
      if (/[^\x00-\x7F]/.test(line) && isLinkFreeProse(line)) prose.push(line);
    }
    origin = 'corpora/large/multilingual.txt + UTS #58 LinkDetectionTest.txt';
    ensureDir(generatedDir);
    writeFileSync(cacheFile, JSON.stringify({ key, origin, iris, prose }));
  } else {
    for (const f of readdirSync(samplesDir).filter((n) => n.endsWith('.txt')).sort()) {
      const text = readFileSync(path.join(samplesDir, f), 'utf8');
      for (const s of irisInText(text)) addIri(s);
      for (const line of text.split('\n')) if (isLinkFreeProse(line)) prose.push(line);
    }
    origin = 'corpora/samples (multilingual corpus not built) + UTS #58 LinkDetectionTest.txt';
  }
  return { iris, prose, origin };
}

// Contexts that end a link unambiguously (see the header). `eol` contexts go at the end of a line only.
const CONTEXTS: { before: string; after: string; eol?: boolean }[] = [
  { before: ' ', after: ' ' },
  { before: ' ', after: ' ' },
  { before: ' (', after: ') ' },
  { before: ' <', after: '> ' },
  { before: '「', after: '」' },
  { before: '（', after: '）' },
  { before: ' “', after: '” ' },
  { before: ' ', after: ', ' },
  { before: ' ', after: '. ' },
  { before: ' ', after: '。', eol: true },
  { before: ' ', after: '', eol: true },
];

export interface DenseCorpus {
  text: string;
  links: ExpectedLink[];
  origin: string;
  distinctIris: number;
  proseLines: number;
}

/** Builds about `sizeBytes` bytes (UTF-8) of IRI-dense text. Same sources + seed → same output. */
export function generateIriDense(sizeBytes: number, seed: number, sources = collectSources()): DenseCorpus {
  const { iris, prose } = sources;
  if (iris.length === 0 || prose.length === 0) throw new Error('gen-iri-dense: no IRIs or no prose found');
  const rand = seededRandom(seed);
  const pick = <T>(xs: T[]): T => xs[Math.floor(rand() * xs.length)]!;
  // IRIs grouped by site (the last two host labels), a site picked first: one recipe site holds a third of
  // the corpus's IRIs and would otherwise dominate.
  const groups = new Map<string, string[]>();
  for (const iri of iris) {
    const host = /^https?:\/\/([^/?#]+)/.exec(iri)![1]!;
    const site = host.split('.').slice(-2).join('.');
    const g = groups.get(site);
    if (g === undefined) groups.set(site, [iri]);
    else g.push(iri);
  }
  const sites = [...groups.values()];
  const parts: string[] = [];
  const links: ExpectedLink[] = [];
  let offset = 0; // UTF-16
  let bytes = 0;
  const emit = (s: string): void => {
    parts.push(s);
    offset += s.length;
    bytes += Buffer.byteLength(s);
  };
  while (bytes < sizeBytes) {
    const line = pick(prose);
    const n = rand() < 0.35 ? 0 : rand() < 0.75 ? 1 : 2;
    // Cut points: at spaces when the line has them; else anywhere but inside a Latin word or a surrogate pair.
    const spaces: number[] = [];
    for (let i = line.indexOf(' '); i >= 0; i = line.indexOf(' ', i + 1)) spaces.push(i);
    const cuts: number[] = [];
    for (let k = 0; k < n; k++) {
      let at: number;
      if (spaces.length >= 2) at = pick(spaces);
      else {
        at = Math.floor(rand() * (line.length + 1));
        while (at < line.length && (/[A-Za-z0-9]/.test(line[at]!) || (line.charCodeAt(at) & 0xfc00) === 0xdc00)) at++;
      }
      cuts.push(at);
    }
    cuts.sort((a, b) => a - b);
    let prev = 0;
    for (let k = 0; k < cuts.length; k++) {
      const at = cuts[k]!;
      emit(line.slice(prev, at));
      prev = at;
      let ctx = pick(CONTEXTS);
      while (ctx.eol === true && at < line.length) ctx = pick(CONTEXTS);
      const iri = pick(pick(sites));
      // The text around must not glue onto the link: drop a space the context already supplies.
      emit(ctx.before);
      links.push({ start: offset, end: offset + iri.length, text: iri, uri: expectedUri(iri, 'url')! });
      emit(iri);
      emit(ctx.after);
      if (ctx.after.endsWith(' ') && line.charCodeAt(prev) === 0x20) prev++;
    }
    emit(line.slice(prev));
    emit('\n');
  }
  return { text: parts.join(''), links, origin: sources.origin, distinctIris: iris.length, proseLines: prose.length };
}

/** The link-free prose alone, about `sizeBytes` bytes, in a seeded order. */
export function generateNoLinks(sizeBytes: number, seed: number, sources = collectSources()): string {
  const rand = seededRandom(seed ^ 0x5eed);
  const parts: string[] = [];
  let bytes = 0;
  while (bytes < sizeBytes) {
    const line = sources.prose[Math.floor(rand() * sources.prose.length)]! + '\n';
    parts.push(line);
    bytes += Buffer.byteLength(line);
  }
  return parts.join('');
}

export function linksToTsv(links: ExpectedLink[]): string {
  return 'start\tend\ttext\turi\n' + links.map((l) => `${l.start}\t${l.end}\t${l.text}\t${l.uri}\n`).join('');
}

export function denseFiles(dir = generatedDir): { text: string; tsv: string; noLinks: string } {
  return {
    text: path.join(dir, 'iri-dense.txt'),
    tsv: path.join(dir, 'iri-dense.links.tsv'),
    noLinks: path.join(dir, 'prose-nolinks.txt'),
  };
}

/** Writes the three files (if `force` or missing) and returns their paths. */
export function ensureIriDense(sizeMB = 20, seed = 58, dir = generatedDir, force = false): ReturnType<typeof denseFiles> {
  const files = denseFiles(dir);
  if (!force && existsSync(files.text) && existsSync(files.tsv) && existsSync(files.noLinks)) return files;
  ensureDir(dir);
  const sources = collectSources();
  const dense = generateIriDense(sizeMB * 1e6, seed, sources);
  writeFileSync(files.text, dense.text);
  writeFileSync(files.tsv, linksToTsv(dense.links));
  writeFileSync(files.noLinks, generateNoLinks(sizeMB * 1e6, seed, sources));
  console.error(
    `gen-iri-dense: ${dense.links.length} links (${dense.distinctIris} distinct IRIs, ${dense.proseLines} prose lines; ` +
      `from ${dense.origin}) → ${files.text}`,
  );
  return files;
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const arg = (name: string): string | undefined => {
    const i = process.argv.indexOf(name);
    return i > 0 ? process.argv[i + 1] : undefined;
  };
  ensureIriDense(Number(arg('--size') ?? 20), Number(arg('--seed') ?? 58), arg('--out') ?? generatedDir, true);
}
