// The expected `uri` of a link, computed independently of irilink (an oracle for the evaluation and for
// the expected-links files), from the rules DESIGN.md "What each link carries" states:
//   - RFC 3987 §3.1 step 2: every non-ASCII code point outside the host becomes its UTF-8 bytes as %XX
//     (upper-case hex); ASCII, including existing %XX, is left alone;
//   - the host of a DNS scheme (http, https, ftp, ws, wss; the domain of mailto) goes through UTS #46
//     ToASCII (non-transitional, CheckBidi, CheckJoiners), via the `tr46` package;
//   - schemeless links get `https://`, emails `mailto:`; RFC 6068 percent-encodes a non-ASCII local part.
// Only the shapes the expected-links files use are handled (no userinfo, no IP literals, no P3 wrapping).
import { createRequire } from 'node:module';

interface Tr46 {
  toASCII(
    domain: string,
    options: {
      checkHyphens: boolean;
      checkBidi: boolean;
      checkJoiners: boolean;
      useSTD3ASCIIRules: boolean;
      transitionalProcessing: boolean;
      verifyDNSLength: boolean;
    },
  ): string | null;
}
const tr46 = createRequire(import.meta.url)('tr46') as Tr46;

const DNS_SCHEMES = new Set(['http', 'https', 'ftp', 'ftps', 'ws', 'wss']);

/** UTS #46 ToASCII, or undefined when it fails. */
export function hostToAscii(host: string): string | undefined {
  const r = tr46.toASCII(host, {
    checkHyphens: false,
    checkBidi: true,
    checkJoiners: true,
    useSTD3ASCIIRules: false,
    transitionalProcessing: false,
    verifyDNSLength: false,
  });
  return r === null ? undefined : r;
}

// RFC 3987 §3.1 (and 3987bis §3.3): ASCII characters a URI may not hold, percent-encoded like non-ASCII; plus
// `[` `]`, which RFC 3986 §3.2.2 allows only around an IP literal host, never in a path, query or fragment.
const ASCII_DISALLOWED = ' "<>\\^`{|}[]';

/**
 * RFC 3987 §3.1 step 2: percent-encode the UTF-8 bytes of every non-ASCII code point, and the ASCII
 * characters a URI cannot hold outside the host (space " < > [ \ ] ^ ` { | }); everything else, including
 * %XX, is kept.
 */
export function percentEncodeNonAscii(s: string): string {
  let out = '';
  for (const ch of s) {
    if (ch.charCodeAt(0) < 0x80 && !ASCII_DISALLOWED.includes(ch)) {
      out += ch;
      continue;
    }
    for (const byte of Buffer.from(ch, 'utf8')) out += '%' + byte.toString(16).toUpperCase().padStart(2, '0');
  }
  return out;
}

/** An email link text (`local@domain`, `mailto:local@domain`) as opposed to a URL that holds an `@`. */
export function looksLikeEmail(text: string): boolean {
  return /^(mailto:)?[^/:@?#]+@[^/@?#:]+$/i.test(text);
}

/**
 * The expected `uri` of a link text, or undefined when the text is outside the shapes above or its host
 * fails ToASCII. `kind` tells an email (`x@y`, `mailto:x@y`) from a URL.
 */
export function expectedUri(text: string, kind: 'url' | 'email'): string | undefined {
  if (kind === 'email') {
    const body = text.toLowerCase().startsWith('mailto:') ? text.slice(7) : text;
    const at = body.lastIndexOf('@');
    if (at <= 0) return undefined;
    const domain = hostToAscii(body.slice(at + 1));
    return domain === undefined ? undefined : 'mailto:' + percentEncodeNonAscii(body.slice(0, at)) + '@' + domain;
  }
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]*)([^]*)$/.exec(text);
  const scheme = m ? m[1]!.toLowerCase() : 'https';
  let authority: string;
  let rest: string;
  if (m) {
    authority = m[2]!;
    rest = m[3]!;
  } else {
    const cut = text.search(/[/?#]/);
    authority = cut < 0 ? text : text.slice(0, cut);
    rest = cut < 0 ? '' : text.slice(cut);
  }
  if (authority.includes('@') || authority.startsWith('[')) return undefined;
  const colon = authority.lastIndexOf(':');
  const host = colon < 0 ? authority : authority.slice(0, colon);
  const port = colon < 0 ? '' : authority.slice(colon);
  let asciiHost: string | undefined;
  if (DNS_SCHEMES.has(scheme)) asciiHost = hostToAscii(host);
  else asciiHost = percentEncodeNonAscii(host);
  if (asciiHost === undefined) return undefined;
  // RFC 3986 §3.5: the fragment cannot hold a second `#`.
  const hash = rest.indexOf('#');
  const fixed = hash < 0 ? rest : rest.slice(0, hash + 1) + rest.slice(hash + 1).replace(/#/g, '%23');
  return scheme + '://' + asciiHost + port + percentEncodeNonAscii(fixed);
}
