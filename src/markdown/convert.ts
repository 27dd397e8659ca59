// A Markdown link destination (CommonMark 0.31 §6.3 inline links, §4.7 link reference definitions, §6.5 autolinks)
// becomes a Link: its URI (RFC 3987 §3.1, hosts through UTS #46) and its IRI (RFC 3987 §3.2), as the detector's
// links carry (DESIGN.md "What each link carries").

import { isBidiControl } from '../detect/chars.js';
import { convertLinkText, mailtoAddress } from '../detect/convert.js';
import { splitIriReference } from '../iri/parse.js';
import { BoundedMemo, detached } from '../memo.js';
import type { DiagnosticCode, Link } from '../types.js';

/** RFC 3986 §3.1: scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ), then `:`. Returns the lower-case scheme or ''. */
function schemeOf(s: string): string {
  const n = Math.min(s.length, 33);
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    const alpha = (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
    if (c === 0x3a) return i > 0 ? s.slice(0, i).toLowerCase() : '';
    if (i === 0 ? !alpha : !(alpha || (c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d || c === 0x2e)) return '';
  }
  return '';
}

/**
 * The Link for a destination written at source[start, end) whose value (after CommonMark's backslash escapes and
 * entity references are decoded) is `destination`. `email` marks a CommonMark §6.5 email autolink, whose URI
 * gets `mailto:`. A relative reference (no scheme) keeps `scheme: ''`.
 */
export function destinationLink(
  source: string,
  start: number,
  end: number,
  base: number,
  destination: string,
  email: boolean,
  documentCharset: string | undefined,
): Link {
  const key = (email ? '@' : ':') + destination;
  let known = destinationMemo.get(key);
  if (known === undefined || known.documentCharset !== documentCharset) {
    known = convertDestination(destination, email, documentCharset);
    destinationMemo.set(key, { ...known, uri: detached(known.uri), iri: detached(known.iri) });
  }
  const { kind, scheme, schemeInferred, uri, iri } = known;
  return { start: start + base, end: end + base, text: source.slice(start, end), kind, scheme, schemeInferred, uri, iri, diagnostics: [...known.diagnostics] };
}

/** All of a destination's Link but its offsets and text: a pure function of what it holds. */
interface ConvertedDestination {
  documentCharset: string | undefined;
  kind: Link['kind'];
  scheme: string;
  schemeInferred: boolean;
  uri: string;
  iri: string;
  diagnostics: DiagnosticCode[];
}

// Memo (performance) of convertDestination. Mail repeats its addresses and links (the mail corpus: 56,350
// destinations, 10,841 distinct; the READMEs 40,316 and 28,306). Bounded as the detector's memo is (src/memo.ts);
// every Link is a new object with its own diagnostics array.
const destinationMemo = new BoundedMemo<ConvertedDestination>(2048, 256);

/** Internal (tests): forgets the remembered destinations, so that the next conversion of each is done in full. */
export function clearDestinationMemo(): void {
  destinationMemo.clear();
}

function convertDestination(destination: string, email: boolean, documentCharset: string | undefined): ConvertedDestination {
  const iriText = email ? 'mailto:' + mailtoAddress(destination) : destination;
  const scheme = email ? 'mailto' : schemeOf(destination);
  const diagnostics: DiagnosticCode[] = [];
  // DESIGN.md P1 (RFC 3987 §4.1): a bidi formatting character in a destination gets the diagnostic a bare link
  // next to one gets (the author wrote the link, so it is still reported, but renderers do not make it clickable).
  if (hasBidiControl(destination)) diagnostics.push('bidi-control');
  const parts = splitIriReference(iriText);
  const host = hostOf(parts, scheme);
  // The detector's conversion (src/detect/convert.ts): uri, iri, and the same checks of the host and the text.
  const { uri, iri, conversionFailed } = convertLinkText(iriText, destination, host, 0, host.length, documentCharset, diagnostics);
  // P5 / RFC 3986 §7.6: userinfo before the host (`[x](https://bank.example@evil.example/)`), as for bare links.
  if (parts.userinfo !== undefined) diagnostics.push('userinfo');
  if (conversionFailed) diagnostics.push('conversion-failed');
  return { documentCharset, kind: email || scheme === 'mailto' ? 'email' : 'url', scheme, schemeInferred: email, uri, iri, diagnostics };
}

function hasBidiControl(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (isBidiControl(s.charCodeAt(i))) return true;
  return false;
}

/** The host the UTS #39 checks look at: the authority's host, or the domain of a mailto address. */
function hostOf(c: ReturnType<typeof splitIriReference>, scheme: string): string {
  if (c.host !== undefined) return c.host;
  if (scheme !== 'mailto') return '';
  const at = c.path.lastIndexOf('@');
  return at >= 0 ? c.path.slice(at + 1) : '';
}
