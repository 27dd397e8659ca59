// UTS #46 (IDNA Compatibility Processing) through the `tr46` package, with the flags RFC 3987 and the
// vectors call for. One place, so toUri, toIri and the detector agree.
//
// tr46 ships CommonJS without type declarations; it is loaded at first use (src/lazy.ts) and typed here,
// which keeps a global `declare module 'tr46'` out of the tree.

import { lazyRequire } from '../lazy.js';
import { BoundedMemo, detached } from '../memo.js';

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

const tr46 = lazyRequire<Tr46>('tr46');

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

// Memo (performance): hosts repeat in running text, and tr46 maps, validates and Punycode-codes every label
// on every call. Both functions are pure (same input, same output: the flags are fixed), so a memo cannot
// change any result; it only skips work. Bounded: at most MEMO_SIZE entries of at most MEMO_MAX_KEY_LENGTH
// units each (RFC 1035 §2.3.4: 253 octets is the longest name; longer inputs are not remembered), and the
// map is cleared when full, so memory stays flat whatever the input.
const MEMO_SIZE = 2048;
const MEMO_MAX_KEY_LENGTH = 256;
const asciiMemo = new BoundedMemo<string | null>(MEMO_SIZE, MEMO_MAX_KEY_LENGTH);
const unicodeMemo = new BoundedMemo<{ domain: string; error: boolean }>(MEMO_SIZE, MEMO_MAX_KEY_LENGTH);

/**
 * UTS #46 §4.2 ToASCII of a domain name with irilink's flags (see FLAGS), or null when it fails.
 * @example domainToAscii('résumé.example.org') // 'xn--rsum-bpad.example.org'
 */
export function domainToAscii(domain: string): string | null {
  if (domain.length > MEMO_MAX_KEY_LENGTH) return tr46().toASCII(domain, FLAGS);
  let ascii = asciiMemo.get(domain);
  if (ascii === undefined) {
    ascii = tr46().toASCII(domain, FLAGS);
    asciiMemo.set(domain, ascii === null ? null : detached(ascii));
  }
  return ascii;
}

/**
 * UTS #46 §4.3 ToUnicode of a domain name with irilink's flags: the converted domain, and whether any
 * label had an error (the domain is then the best effort of UTS #46, labels with errors included).
 * @example domainToUnicode('xn--99zt52a.example.org') // { domain: '納豆.example.org', error: false }
 */
export function domainToUnicode(domain: string): { domain: string; error: boolean } {
  if (domain.length > MEMO_MAX_KEY_LENGTH) return tr46().toUnicode(domain, FLAGS);
  let result = unicodeMemo.get(domain);
  if (result === undefined) {
    result = tr46().toUnicode(domain, FLAGS);
    unicodeMemo.set(domain, { domain: detached(result.domain), error: result.error });
    return result;
  }
  return { domain: result.domain, error: result.error }; // a fresh object: the caller may change it
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
