// UTS #58 Link_Term read straight from the published data file (../shared/uts58/17.0.0/LinkTerm.txt),
// used by the generators to check that a string placed between spaces is one whole link. This is a
// second, independent reading of the data (irilink's own tables live in src/unicode); a plain sorted
// array of ranges searched by bisection is enough for a generator.
import { readFileSync } from 'node:fs';
import { sharedPath } from '../../test/support/shared.js';

export type LinkTermValue = 'Hard' | 'Soft' | 'Include' | 'Open' | 'Close';

let table: { lo: number[]; hi: number[]; value: LinkTermValue[] } | undefined;

function load(): NonNullable<typeof table> {
  const lo: number[] = [];
  const hi: number[] = [];
  const value: LinkTermValue[] = [];
  const text = readFileSync(sharedPath('uts58', '17.0.0', 'LinkTerm.txt'), 'utf8');
  const rows: [number, number, LinkTermValue][] = [];
  for (const line of text.split('\n')) {
    const data = line.split('#')[0]!.trim();
    if (data === '') continue;
    const [range, val] = data.split(';').map((s) => s.trim()) as [string, LinkTermValue];
    const [a, b] = range.split('..');
    rows.push([parseInt(a!, 16), parseInt(b ?? a!, 16), val]);
  }
  rows.sort((x, y) => x[0] - y[0]);
  for (const [a, b, v] of rows) {
    lo.push(a);
    hi.push(b);
    value.push(v);
  }
  return { lo, hi, value };
}

/** UTS #58 §2 Link_Term of a code point (`@missing` is Hard). */
export function linkTerm(cp: number): LinkTermValue {
  table ??= load();
  let a = 0;
  let b = table.lo.length - 1;
  while (a <= b) {
    const mid = (a + b) >> 1;
    if (cp < table.lo[mid]!) b = mid - 1;
    else if (cp > table.hi[mid]!) a = mid + 1;
    else return table.value[mid]!;
  }
  return 'Hard';
}
