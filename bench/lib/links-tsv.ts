// The expected-links files of corpora/samples: `NAME.links.tsv` beside `NAME.txt`.
//   start <TAB> end <TAB> kind <TAB> text <TAB> uri
// one row per link, in text order, after a header row; offsets are half-open UTF-16 offsets into the
// sample (DESIGN.md: `text` is exactly `sample.slice(start, end)`); `kind` is `url` or `email`; `uri` is
// the ASCII URI an href should get. Lines starting with `#` are comments (why a case is what it is).
import { readFileSync } from 'node:fs';

export const TSV_HEADER = 'start\tend\tkind\ttext\turi';

export interface LabelledLink {
  start: number;
  end: number;
  kind: 'url' | 'email';
  text: string;
  uri: string;
  /** 1-based line in the .tsv file, for messages. */
  line: number;
}

/** Parses a .links.tsv; throws with the file and line for any malformed row. */
export function parseLinksTsv(file: string, content = readFileSync(file, 'utf8')): LabelledLink[] {
  const rows = content.split('\n');
  if (rows[0] !== TSV_HEADER) throw new Error(`${file}:1: header must be "${TSV_HEADER.replace(/\t/g, '<TAB>')}"`);
  const out: LabelledLink[] = [];
  rows.forEach((row, i) => {
    if (i === 0 || row === '' || row.startsWith('#')) return;
    const f = row.split('\t');
    const where = `${file}:${i + 1}`;
    if (f.length !== 5) throw new Error(`${where}: expected 5 tab-separated fields, got ${f.length}`);
    const [s, e, kind, text, uri] = f as [string, string, string, string, string];
    if (!/^\d+$/.test(s) || !/^\d+$/.test(e)) throw new Error(`${where}: start and end must be integers`);
    if (kind !== 'url' && kind !== 'email') throw new Error(`${where}: kind must be url or email`);
    if (text === '' || uri === '') throw new Error(`${where}: empty text or uri`);
    out.push({ start: Number(s), end: Number(e), kind, text, uri, line: i + 1 });
  });
  return out;
}
