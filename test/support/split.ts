// Test helpers: a Buffer or a string cut at arbitrary points (also inside UTF-8 sequences or surrogate pairs), as a
// stream may receive it.

/** `bytes` cut at the given points (each taken modulo length + 1), without empty parts. */
export function splitAt(bytes: Buffer, cuts: number[]): Buffer[] {
  return cutAt(bytes.length, cuts, (a, b) => bytes.subarray(a, b));
}

/** `text` cut at the given points (each taken modulo length + 1), without empty parts. */
export function splitString(text: string, cuts: number[]): string[] {
  return cutAt(text.length, cuts, (a, b) => text.slice(a, b));
}

function cutAt<T extends { length: number }>(length: number, cuts: number[], part: (a: number, b: number) => T): T[] {
  const points = [...new Set(cuts.map((c) => c % (length + 1)))].sort((a, b) => a - b);
  const parts: T[] = [];
  let last = 0;
  for (const p of points) {
    parts.push(part(last, p));
    last = p;
  }
  parts.push(part(last, length));
  return parts.filter((p) => p.length > 0);
}
