// Seeded random numbers for the fuzzers (scripts/fuzz*.ts), the IRI-dense corpus (bench/gen-iri-dense.ts) and tests:
// Mulberry32, small and seedable, so that a run is replayed and a corpus rebuilt from its seed on any machine; good
// enough for choosing inputs, not for anything secret.

/** A function returning numbers in [0, 1), the same sequence for the same seed (a 32-bit unsigned integer). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
