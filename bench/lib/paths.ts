// Where the bench finds things. Every path is derived from this file's location, never from the machine:
// the repository root, the large corpora (built by `npm run corpora`, git-ignored), generated inputs,
// the committed samples, and the results folder. Reference data in ../shared is reached only through
// test/support/shared.ts, which fails with a clear message when the folder is absent.
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sharedPath } from '../../test/support/shared.js';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const largeDir = process.env.IRILINK_CORPORA ?? path.join(repoRoot, 'corpora', 'large');
/** Inputs the bench generates itself (IRI-dense, link-free prose, hostile); git-ignored with the corpora. */
export const generatedDir = path.join(largeDir, 'generated');
export const samplesDir = path.join(repoRoot, 'corpora', 'samples');
export const resultsDir = path.join(repoRoot, 'bench', 'results');

/** The UTS #58 conformance file, through the shared-folder helper (clear error when ../shared is absent). */
export function uts58DetectionTestPath(): string {
  return sharedPath('uts58', '17.0.0', 'LinkDetectionTest.txt');
}

/** A built corpus (`en-mixed.txt`, …) or undefined when `npm run corpora` has not been run. */
export function largeCorpusPath(file: string): string | undefined {
  const p = path.join(largeDir, file);
  return existsSync(p) ? p : undefined;
}

export function ensureDir(dir: string): string {
  mkdirSync(dir, { recursive: true });
  return dir;
}
