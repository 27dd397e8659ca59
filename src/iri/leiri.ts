// LEIRI → IRI: draft-ietf-iri-3987bis-11 §6.2, with the character list of §6.3.

import { badArgument, IriError } from '../errors.js';
import { isAsciiControl, isBidiFormat, isDisallowedAscii, isIprivateBis, isUcschar } from './chars.js';
import { pctEncodeCodePoint } from './percent.js';

/**
 * Converts a Legacy Extended IRI (reference) to an IRI (reference): bis §6.2 "each character allowed in
 * a Legacy Extended IRI (reference) but not allowed in an IRI (reference) … MUST be percent-encoded by
 * applying the steps in Section 3.3" (UTF-8, uppercase hex). Those characters (§6.3) are: space,
 * `<` `>` `"`, `{` `}` `|` `\` `^` and backtick, C0 controls, DEL, C1 controls, the bidi formatting
 * characters (plus the isolates U+2066–2069 and U+061C: labelled deviation in chars.ts `isBidiFormat`),
 * the specials U+FFF0–FFFD, private use outside the query, tags outside the query, non-characters.
 *
 * This is a 3987bis operation, so the query keeps 3987bis iprivate, tags U+E0000–E0FFF included
 * (vector LEI-16; chars.ts `isIprivateBis`). The query is [first `?`, first `#`), as RFC 3986 Appendix B
 * splits it. Everything an IRI allows — `é`, existing `%XX`, reserved characters — is copied unchanged
 * (LEI-12), and so are `%`, `#`, `[`, `]` where the grammar does not allow them (not LEIRI characters
 * either: §6.1 only widens ucschar).
 *
 * Throws IriError 'lone-surrogate' for a lone surrogate and 'noncharacter' for U+FFFE / U+FFFF, the code
 * points §6.3 says are "not even allowed in Legacy Extended IRIs" (LEI-17, LEI-18).
 *
 * @example leiriToIri('http://example.org/a b<c>') // 'http://example.org/a%20b%3Cc%3E'
 */
export function leiriToIri(leiri: string): string {
  if (typeof leiri !== 'string') throw badArgument('leiriToIri', 'leiri', 'a string', leiri);
  const n = leiri.length;
  let fragmentStart = leiri.indexOf('#');
  if (fragmentStart < 0) fragmentStart = n;
  let queryStart = leiri.indexOf('?');
  if (queryStart < 0 || queryStart > fragmentStart) queryStart = fragmentStart;
  let out = '';
  let last = 0;
  for (let i = 0; i < n; i++) {
    const c = leiri.charCodeAt(i);
    if (c < 128) {
      if (isDisallowedAscii(c) || isAsciiControl(c)) {
        out += leiri.slice(last, i) + pctEncodeCodePoint(c);
        last = i + 1;
      }
      continue;
    }
    let cp = c;
    let width = 1;
    if (c >= 0xd800 && c <= 0xdfff) {
      const d = i + 1 < n ? leiri.charCodeAt(i + 1) : 0;
      if (c > 0xdbff || d < 0xdc00 || d > 0xdfff) throw new IriError('lone-surrogate', `at index ${i}`, i);
      cp = ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
      width = 2;
    } else if (c >= 0xfffe) {
      throw new IriError('noncharacter', `U+${c.toString(16).toUpperCase()} at index ${i}`, i);
    }
    const allowed = isUcschar(cp)
      ? !isBidiFormat(cp)
      : i > queryStart && i < fragmentStart && isIprivateBis(cp); // bis §2.2: iprivate only in iquery
    if (!allowed) {
      out += leiri.slice(last, i) + pctEncodeCodePoint(cp);
      last = i + width;
    }
    i += width - 1;
  }
  return last === 0 ? leiri : out + leiri.slice(last);
}
