// Locates ../shared (the reference material beside the repository). Tests that need it call
// sharedPath(); when the folder is absent they fail with a message that says so, rather than pass silently.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const sharedRoot = process.env.IRILINK_SHARED ?? path.resolve(repoRoot, '..', 'shared');

export function sharedPath(...parts: string[]): string {
  const p = path.join(sharedRoot, ...parts);
  if (!existsSync(p)) {
    throw new Error(
      `reference data missing: ${path.join('shared', ...parts)} was not found. These tests read the ` +
        `project's shared folder (../shared beside the repository, or IRILINK_SHARED); without it they cannot run.`,
    );
  }
  return p;
}
