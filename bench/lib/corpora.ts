// The named inputs of the bench. Real corpora come from `npm run corpora` (corpora/large, see
// corpora/README.md); the IRI-dense, link-free and hostile inputs are generated on first use.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ensureIriDense } from '../gen-iri-dense.js';
import { ensureHostile, hostileSpecs } from '../gen-hostile.js';
import { largeDir } from './paths.js';

export interface Corpus {
  name: string;
  file: string;
  /** One line for the tables. */
  about: string;
  /** A correct linkifier finds links here: the bench fails if irilink finds none. */
  hasLinks: boolean;
}

export const realCorpora: { name: string; about: string }[] = [
  { name: 'en-mixed', about: 'English-dominant real text: mail, docs, man pages, changelogs (206 MiB, ~208 k links)' },
  { name: 'multilingual', about: 'Debian docs in 40+ languages + localized npm Markdown (147 MiB, 16 % non-ASCII)' },
  { name: 'mail', about: 'SpamAssassin corpus, decoded as a mail reader shows it (23 MiB)' },
  { name: 'markdown', about: 'Markdown of 922 npm packages (18 MiB)' },
  { name: 'logs', about: 'fail2ban sample logs, an Apache access log, an IRC log (0.9 MiB)' },
];

export function realCorpus(name: string): Corpus | undefined {
  const spec = realCorpora.find((c) => c.name === name);
  if (spec === undefined) return undefined;
  const file = path.join(largeDir, `${name}.txt`);
  return existsSync(file) ? { name, file, about: spec.about, hasLinks: true } : undefined;
}

export function generatedCorpora(): Corpus[] {
  const f = ensureIriDense();
  return [
    { name: 'iri-dense', file: f.text, about: 'real IRIs placed in real multilingual prose (generated, seed 58)', hasLinks: true },
    { name: 'prose-nolinks', file: f.noLinks, about: 'the same prose without links (generated)', hasLinks: false },
  ];
}

export function hostileCorpora(scale = 1): Corpus[] {
  return hostileSpecs.map((s) => ({ name: s.name, file: ensureHostile(s, scale), about: s.shape, hasLinks: s.hasLinks }));
}
