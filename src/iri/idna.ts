// UTS #46 (IDNA Compatibility Processing) through the `tr46` package, with the flags RFC 3987 and the
// vectors call for. One place, so toUri, toIri and the detector agree.
//
// tr46 ships CommonJS without type declarations; it is loaded with createRequire and typed here,
// which keeps a global `declare module 'tr46'` out of the tree.

import { createRequire } from 'node:module';

interface Tr46Flags {
  checkHyphens?: boolean;
  checkBidi?: boolean;
  checkJoiners?: boolean;
  useSTD3ASCIIRules?: boolean;
  verifyDNSLength?: boolean;
  transitionalProcessing?: boolean;
  ignoreInvalidPunycode?: boolean;
}
interface Tr46 {
  toASCII(domain: string, flags?: Tr46Flags): string | null;
  toUnicode(domain: string, flags?: Tr46Flags): { domain: string; error: boolean };
}

const tr46 = createRequire(import.meta.url)('tr46') as Tr46;

// vectors `defaults.iri_to_uri_idna`: UTS #46 ToASCII with Transitional_Processing=false (tricky point 1:
// ß ς ZWJ ZWNJ are kept), UseSTD3ASCIIRules=true (RFC 3987 §3.1, tricky point 5: `a_b` fails),
// CheckHyphens=true, CheckBidi=true, CheckJoiners=true, VerifyDnsLength=false (tricky point 11: a
// trailing root dot is kept).
const FLAGS: Tr46Flags = {
  checkHyphens: true,
  checkBidi: true,
  checkJoiners: true,
  useSTD3ASCIIRules: true,
  verifyDNSLength: false,
  transitionalProcessing: false,
  ignoreInvalidPunycode: false,
};

/**
 * UTS #46 §4.2 ToASCII of a domain name with irilink's flags (see FLAGS), or null when it fails.
 * @example domainToAscii('résumé.example.org') // 'xn--rsum-bpad.example.org'
 */
export function domainToAscii(domain: string): string | null {
  return tr46.toASCII(domain, FLAGS);
}

/**
 * UTS #46 §4.3 ToUnicode of a domain name with irilink's flags: the converted domain, and whether any
 * label had an error (the domain is then the best effort of UTS #46, labels with errors included).
 * @example domainToUnicode('xn--99zt52a.example.org') // { domain: '納豆.example.org', error: false }
 */
export function domainToUnicode(domain: string): { domain: string; error: boolean } {
  return tr46.toUnicode(domain, FLAGS);
}

/**
 * The schemes whose reg-name is a DNS domain name (vectors `defaults.iri_to_uri_idna`; DESIGN.md
 * "What each link carries"). `mailto` is handled apart: its domains are in the path (RFC 6068).
 */
export function isDnsScheme(scheme: string | undefined): boolean {
  if (scheme === undefined) return false;
  switch (scheme.length) {
    case 2:
      return asciiLowerEquals(scheme, 'ws');
    case 3:
      return asciiLowerEquals(scheme, 'ftp') || asciiLowerEquals(scheme, 'wss');
    case 4:
      return asciiLowerEquals(scheme, 'http');
    case 5:
      return asciiLowerEquals(scheme, 'https');
    default:
      return false;
  }
}

/** Compares `s` with an all-lowercase ASCII `lower`, ignoring ASCII case in `s`. */
export function asciiLowerEquals(s: string, lower: string): boolean {
  if (s.length !== lower.length) return false;
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c >= 0x41 && c <= 0x5a) c |= 0x20;
    if (c !== lower.charCodeAt(i)) return false;
  }
  return true;
}
