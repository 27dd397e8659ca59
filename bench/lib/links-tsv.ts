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

/**
 * The data rows of a tab-separated file that starts with `header` and may hold `#` comment lines and blank lines:
 * each row's fields (exactly as many as the header has), its 1-based line and its `file:line` for messages.
 */
export function tsvRows(file: string, content: string, header: string): { fields: string[]; line: number; where: string }[] {
  const rows = content.split('\n');
  if (rows[0] !== header) throw new Error(`${file}:1: header must be "${header.replace(/\t/g, '<TAB>')}"`);
  const width = header.split('\t').length;
  const out: { fields: string[]; line: number; where: string }[] = [];
  rows.forEach((row, i) => {
    if (i === 0 || row === '' || row.startsWith('#')) return;
    const fields = row.split('\t');
    const where = `${file}:${i + 1}`;
    if (fields.length !== width) throw new Error(`${where}: expected ${width} tab-separated fields, got ${fields.length}`);
    out.push({ fields, line: i + 1, where });
  });
  return out;
}

/** Parses a .links.tsv; throws with the file and line for any malformed row. */
export function parseLinksTsv(file: string, content = readFileSync(file, 'utf8')): LabelledLink[] {
  return tsvRows(file, content, TSV_HEADER).map(({ fields, line, where }) => {
    const [s, e, kind, text, uri] = fields as [string, string, string, string, string];
    if (!/^\d+$/.test(s) || !/^\d+$/.test(e)) throw new Error(`${where}: start and end must be integers`);
    if (kind !== 'url' && kind !== 'email') throw new Error(`${where}: kind must be url or email`);
    if (text === '' || uri === '') throw new Error(`${where}: empty text or uri`);
    return { start: Number(s), end: Number(e), kind, text, uri, line };
  });
}
