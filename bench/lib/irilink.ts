// irilink as the bench and eval see it: through the package's built entry (dist/index.js, produced by
// `npm run build`), exactly as a user imports it. While a layer is still missing from the entry the
// harness keeps working for everything else and says which export it lacks. IRILINK_ENTRY=path/to/module.js
// measures another build instead (e.g. an older version, for a before/after comparison).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Transform } from 'node:stream';
import type { Link } from '../../src/types.js';
import { repoRoot } from './paths.js';

export interface IrilinkApi {
  findLinks?: (text: string, options?: Record<string, unknown>) => Link[];
  createLinkStream?: (options?: Record<string, unknown>) => Transform;
  createScanner?: () => { scan(text: string, from: number, final: boolean, base: number): { links: Link[] } };
}

export interface LoadedIrilink {
  api: IrilinkApi;
  version: string;
  /** Why a function is unavailable, e.g. `dist/index.js does not export createLinkStream yet`. */
  missing: string[];
}

export async function loadIrilink(): Promise<LoadedIrilink> {
  const entry = process.env.IRILINK_ENTRY !== undefined ? path.resolve(process.env.IRILINK_ENTRY) : path.join(repoRoot, 'dist', 'index.js');
  const version = (JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;
  if (!existsSync(entry)) {
    return { api: {}, version, missing: [`${path.relative(repoRoot, entry)} is missing: run \`npm run build\``] };
  }
  const mod = (await import(pathToFileURL(entry).href)) as Record<string, unknown>;
  const api: IrilinkApi = {};
  const missing: string[] = [];
  if (typeof mod.findLinks === 'function') api.findLinks = mod.findLinks as IrilinkApi['findLinks'];
  else missing.push(`${path.relative(repoRoot, entry)} does not export findLinks yet`);
  if (typeof mod.createLinkStream === 'function') api.createLinkStream = mod.createLinkStream as IrilinkApi['createLinkStream'];
  else missing.push(`${path.relative(repoRoot, entry)} does not export createLinkStream yet`);
  if (typeof mod.createScanner === 'function') api.createScanner = mod.createScanner as IrilinkApi['createScanner'];
  else missing.push(`${path.relative(repoRoot, entry)} does not export createScanner yet`);
  return { api, version, missing };
}
