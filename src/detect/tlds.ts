// The top-level domains of schemeless links and emails: IANA's root zone list, from the `tlds` package.
// UTS #58 §4.2 (NOTES §4.2): IDN TLDs are accepted both as A-labels (`xn--mgbah1a3hjkrd`) and U-labels (`موريتانيا`).

import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const IANA_TLDS = require('tlds') as readonly string[];
// RFC 3492; the userland package (trailing slash), not Node's deprecated built-in.
const punycode = require('punycode/') as { toUnicode(s: string): string; toASCII(s: string): string };

/**
 * A set of lower-cased TLDs holding, for each IDN TLD, both its A-label and its U-label.
 * Deviation (UTS #58 §4.1): the reference matches TLDs case-sensitively (only all-lower or all-upper), so it
 * misses `example.Com`; we compare lower-cased, as DNS does (RFC 4343).
 */
export function buildTldSet(list: readonly string[]): ReadonlySet<string> {
  const set = new Set<string>();
  for (const raw of list) {
    const t = raw.toLowerCase();
    set.add(t);
    try {
      if (t.startsWith('xn--')) set.add(punycode.toUnicode(t).toLowerCase());
      else if (/[^\x00-\x7f]/.test(t)) set.add(punycode.toASCII(t));
    } catch {
      // A malformed A-label stays in its written form only.
    }
  }
  return set;
}

/** The default set, built once. */
export const DEFAULT_TLDS: ReadonlySet<string> = buildTldSet(IANA_TLDS);

/**
 * P7: TLDs that are also common file extensions. A bare two-label name ending in one (`README.md`, `setup.py`,
 * `main.rs`, `notes.zip`) is read as a file name, not a link.
 */
export const FILE_EXTENSION_TLDS: ReadonlySet<string> = new Set(['md', 'py', 'rs', 'zip', 'sh', 'mov', 'pm', 'mk', 'tf']);
