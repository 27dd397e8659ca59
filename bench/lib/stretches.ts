// Labelled stretches of a built corpus (corpora/stretches): the text stays in corpora/large (its licences forbid
// copying it here), the repository keeps where each stretch is and what links it holds.
//   NAME.stretches.tsv   id <TAB> byteStart <TAB> byteEnd <TAB> sha256 <TAB> source
//     byte offsets into corpora/large/NAME.txt (half-open, each stretch whole lines), the first 16 hex digits of the
//     stretch's sha256 (so a corpus built otherwise is refused, not mislabelled), and the file it came from;
//   NAME.links.tsv       the expected links, in the format of corpora/samples (bench/lib/links-tsv.ts), with UTF-16
//     offsets into the stretches' texts joined in id order (each ends with a line break).
// bench/pick-stretches.ts draws the stretches; bench/eval.ts and test/stretches.test.ts read them here.
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { parseLinksTsv, tsvRows, type LabelledLink } from './links-tsv.js';
import { largeCorpusPath, repoRoot } from './paths.js';

export const stretchesDir = path.join(repoRoot, 'corpora', 'stretches');
export const STRETCHES_HEADER = 'id\tbyteStart\tbyteEnd\tsha256\tsource';

export interface Stretch {
  id: number;
  byteStart: number;
  byteEnd: number;
  sha256: string;
  source: string;
}

/** A stretch with its text and where that text starts in the joined text the labels point into. */
export interface StretchText extends Stretch {
  text: string;
  offset: number;
}

/** The corpora that have labelled stretches (`multilingual`, …), from the files present. */
export function stretchCorpora(): string[] {
  return readdirSync(stretchesDir)
    .filter((f) => f.endsWith('.stretches.tsv'))
    .map((f) => f.replace(/\.stretches\.tsv$/, ''))
    .sort();
}

export const stretchesFile = (corpus: string): string => path.join(stretchesDir, `${corpus}.stretches.tsv`);
export const stretchLinksFile = (corpus: string): string => path.join(stretchesDir, `${corpus}.links.tsv`);

export const shortSha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex').slice(0, 16);

/** Parses NAME.stretches.tsv; throws with the file and line for a malformed row. */
export function parseStretches(file: string, content = readFileSync(file, 'utf8')): Stretch[] {
  const out: Stretch[] = [];
  for (const { fields, where } of tsvRows(file, content, STRETCHES_HEADER)) {
    const [id, s, e, sha, source] = fields as [string, string, string, string, string];
    if (![id, s, e].every((n) => /^\d+$/.test(n))) throw new Error(`${where}: id, byteStart and byteEnd must be integers`);
    if (Number(e) <= Number(s)) throw new Error(`${where}: empty stretch`);
    if (!/^[0-9a-f]{16}$/.test(sha)) throw new Error(`${where}: sha256 must be 16 lower-case hex digits`);
    if (Number(id) !== out.length + 1) throw new Error(`${where}: ids must run 1, 2, 3, …`);
    out.push({ id: Number(id), byteStart: Number(s), byteEnd: Number(e), sha256: sha, source });
  }
  return out;
}

/**
 * The stretches of corpora/large/CORPUS.txt with their texts, or undefined when that corpus is not built (`npm run
 * corpora`). Throws when a stretch's bytes do not have the recorded sha256: the corpus was built from other inputs.
 */
export function readStretches(corpus: string): StretchText[] | undefined {
  const file = largeCorpusPath(`${corpus}.txt`);
  if (file === undefined) return undefined;
  const bytes = readFileSync(file);
  let offset = 0;
  return parseStretches(stretchesFile(corpus)).map((s) => {
    const piece = bytes.subarray(s.byteStart, s.byteEnd);
    if (shortSha256(piece) !== s.sha256) {
      throw new Error(`${corpus}.stretches.tsv: stretch ${s.id} differs from the labelled text (is ${file} built as MANIFEST.txt says?)`);
    }
    const text = piece.toString('utf8');
    const out = { ...s, text, offset };
    offset += text.length;
    return out;
  });
}

/** The text NAME.links.tsv's offsets point into: the stretches joined in id order (undefined when not built). */
export function joinedStretchText(corpus: string): string | undefined {
  return readStretches(corpus)
    ?.map((s) => s.text)
    .join('');
}

/** One stretch with the labelled links inside it, their offsets made relative to the stretch's text. */
export interface StretchCase {
  stretch: StretchText;
  expected: LabelledLink[];
}

/**
 * Each stretch of CORPUS with its labelled links, or undefined when the corpus is not built. Each stretch is read
 * on its own (a link cannot run from one stretch into the next, as it could in the joined text); a label that
 * does not lie inside one stretch is an error.
 */
export function stretchCases(corpus: string): StretchCase[] | undefined {
  const stretches = readStretches(corpus);
  if (stretches === undefined) return undefined;
  const cases = stretches.map((stretch) => ({ stretch, expected: [] as LabelledLink[] }));
  for (const l of parseLinksTsv(stretchLinksFile(corpus))) {
    const c = cases.find(({ stretch: s }) => s.offset <= l.start && l.end <= s.offset + s.text.length);
    if (c === undefined) throw new Error(`${corpus}.links.tsv:${l.line}: the link is not inside one stretch`);
    c.expected.push({ ...l, start: l.start - c.stretch.offset, end: l.end - c.stretch.offset });
  }
  return cases;
}
