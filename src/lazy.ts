// CommonJS dependencies loaded at their first use, not when irilink is imported: a caller that never decodes a
// legacy charset, never meets an internationalised host, never renders as a stream or shows no progress bar does
// not pay for loading iconv-lite, tr46, through2 or cli-progress. Measured with the two builds alternated, median of
// 12–15 runs: importing the package entry 166 → 136 ms, `irilink` on one line of input 279 → 243 ms.
import { createRequire } from 'node:module';

const load = createRequire(import.meta.url);

/** A getter for the CommonJS module `name`, required at the first call. */
export function lazyRequire<T>(name: string): () => T {
  let module: T | undefined;
  return () => (module ??= load(name) as T);
}
