// The array trie behind the TLD and scheme lookups (tlds.ts, options.ts): a word is walked one ASCII character at a
// time, `next[node * symbols + symbolOf[c]]` is the child (0: none; node 0 is the root), with no allocation per lookup.

export interface ArrayTrie {
  readonly next: Int32Array;
  /** Nodes in use. */
  readonly nodes: number;
  /** The node each word ends at, in the order of `words`. */
  readonly ends: Int32Array;
}

/** The trie of `words`, whose characters all have a symbol (`symbolOf[c] >= 0`, c < 128). */
export function buildTrie(words: readonly string[], symbols: number, symbolOf: Int8Array): ArrayTrie {
  let size = 1;
  for (const w of words) size += w.length;
  const next = new Int32Array(size * symbols);
  const ends = new Int32Array(words.length);
  let nodes = 1;
  words.forEach((w, index) => {
    let node = 0;
    for (let i = 0; i < w.length; i++) {
      const k = node * symbols + symbolOf[w.charCodeAt(i)]!;
      if (next[k] === 0) next[k] = nodes++;
      node = next[k]!;
    }
    ends[index] = node;
  });
  return { next: next.slice(0, nodes * symbols), nodes, ends };
}
