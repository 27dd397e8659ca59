// Running the `irilink` command as users run it (`node bin/irilink.js …`) from the tests, and making sure the
// built package it loads (dist/) is not older than src/.
import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './shared.js';

export const bin = path.join(repoRoot, 'bin', 'irilink.js');
export const fixture = (name: string): string => path.join(repoRoot, 'test', 'fixtures', name);

export interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the command with `args` (and `nodeArgs` before the script), standard input `input`, UTF-8 output. */
export function irilink(args: string[], input?: string | Buffer, nodeArgs: string[] = []): Run {
  const r = spawnSync(process.execPath, [...nodeArgs, bin, ...args], { cwd: repoRoot, input, encoding: 'utf8', timeout: 60_000, maxBuffer: 1 << 26 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/**
 * Builds dist/ with tsc when `entry` (a path below dist/) is missing or older than src/ (`npm test` builds it
 * anyway; this is for running one test file alone).
 */
export function ensureBuilt(entry = path.join('cli', 'main.js')): void {
  const main = path.join(repoRoot, 'dist', entry);
  let built = 0;
  try {
    built = statSync(main).mtimeMs;
  } catch {
    built = 0;
  }
  if (built >= newestMtime(path.join(repoRoot, 'src'))) return;
  const tsc = path.join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');
  try {
    execFileSync(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: repoRoot, stdio: 'pipe' });
  } catch {
    // Type errors elsewhere still emit JavaScript; what matters is that the entry exists now.
  }
  statSync(main);
}
