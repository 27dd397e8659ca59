// --unique: one line per distinct link, by the syntax-based comparison of RFC 3987 §5.3.2 (case,
// percent-encoding and path-segment normalisation). comparisonKey(a) === comparisonKey(b) exactly when
// compareIris(a, b, 'path-segment'), so the key can go into a Set while the links stream past.
import { comparisonKey } from '../iri/compare.js';
import type { Link } from '../types.js';

/** The key under which two links count as the same link; compared on their readable IRI form. */
export function uniqueKey(link: Link): string {
  return link.kind + ' ' + comparisonKey(link.iri, 'path-segment');
}
