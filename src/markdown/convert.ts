// A Markdown link destination (CommonMark 0.31 §6.3 inline links, §4.7 link reference definitions, §6.5 autolinks)
// becomes a Link: its URI (RFC 3987 §3.1, hosts through UTS #46) and its IRI (RFC 3987 §3.2), as the detector's
// links carry (DESIGN.md "What each link carries").

import { IriError } from '../errors.js';
import { checkIriBidi } from '../iri/bidi.js';
import { toIri } from '../iri/to-iri.js';
import { toUri } from '../iri/to-uri.js';
import type { ToUriOptions } from '../iri/to-uri.js';
import type { DiagnosticCode, Link } from '../types.js';

/** RFC 3986 §3.1: scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ), then `:`. Returns the lower-case scheme or ''. */
export function schemeOf(s: string): string {
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
  const iriText = email ? 'mailto:' + destination : destination;
  const scheme = email ? 'mailto' : schemeOf(destination);
  const diagnostics: DiagnosticCode[] = [];
  const uriOptions: ToUriOptions = { host: 'idna', asciiDisallowed: 'encode' };
  if (documentCharset !== undefined) uriOptions.documentCharset = documentCharset;
  let uri: string;
  let idnaFailed = false;
  let conversionFailed = false;
  try {
    uri = toUri(iriText, uriOptions);
  } catch (err) {
    if (!(err instanceof IriError)) throw err;
    if (err.code === 'idna-failed') idnaFailed = true;
    else conversionFailed = true;
    uri = fallbackUri(iriText);
  }
  let iri: string;
  try {
    iri = toIri(uri);
  } catch {
    conversionFailed = true;
    iri = iriText;
  }
  if (idnaFailed) diagnostics.push('idna-failed');
  if (!idnaFailed && !conversionFailed && checkIriBidi(iri).length > 0) diagnostics.push('bidi-component');
  if (hasInvalidPercent(destination)) diagnostics.push('invalid-percent-encoding');
  if (conversionFailed) diagnostics.push('conversion-failed');
  return {
    start: start + base,
    end: end + base,
    text: source.slice(start, end),
    kind: email || scheme === 'mailto' ? 'email' : 'url',
    scheme,
    schemeInferred: email,
    uri,
    iri,
    diagnostics,
  };
}

/** toUri with the host percent-encoded (after an IDNA failure) or, failing that, the text itself. */
function fallbackUri(iriText: string): string {
  try {
    return toUri(iriText, { host: 'percent', asciiDisallowed: 'encode' });
  } catch {
    return iriText;
  }
}

/** A `%` not followed by two hex digits. */
function hasInvalidPercent(s: string): boolean {
  for (let i = s.indexOf('%'); i >= 0; i = s.indexOf('%', i + 1)) {
    if (!(isHex(s.charCodeAt(i + 1)) && isHex(s.charCodeAt(i + 2)))) return true;
  }
  return false;
}

function isHex(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}
