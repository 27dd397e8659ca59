// Options of the detector (DESIGN.md "Detection policy" P2, "Hosts", "Streaming contract"), validated once.

import { isDocumentCharset } from '../charsets.js';
import { badArgument, badOption, isOptionsObject, unknownOption } from '../errors.js';
import { buildTldSet, DEFAULT_TLDS } from './tlds.js';
import { buildTrie } from './trie.js';
import { DEFAULT_SCHEMES, isSchemeName, NEVER_SCHEMES } from '../schemes.js';

/** Options of findLinks, linkify, createScanner and the stream. Every field is optional. */
export interface LinkOptions {
  /**
   * P2: the schemes recognised before `:` (lower-case names, RFC 3986 §3.1 syntax). Default: `http https mailto
   * ftp ftps sftp ssh git file ws wss irc ircs xmpp sip sips tel news nntp urn magnet geo`. `javascript`,
   * `vbscript` and `data` are never links and may not be listed. It does not restrict alone: with `anyScheme` (the
   * default) every `scheme://` is linked too, and `mailto:` links follow `email`, listed or not.
   */
  schemes?: readonly string[] | ReadonlySet<string>;
  /** P2: link any syntactically valid `scheme://` as well, listed in `schemes` or not (default true). */
  anyScheme?: boolean;
  /** Link domains without a scheme, validated against the TLD list (default true). */
  schemeless?: boolean;
  /** Link email addresses (default true). */
  email?: boolean;
  /**
   * The scheme given to schemeless links in `uri` and `scheme` (default 'https'): `www.example.com` →
   * `https://www.example.com`. A scheme name (RFC 3986 §3.1) whose URIs take `//` and a host: not javascript,
   * vbscript, data, nor one of NO_AUTHORITY_SCHEMES (mailto tel urn news geo magnet sip sips xmpp).
   */
  defaultScheme?: string;
  /** The top-level domains accepted for schemeless links and emails (default: the IANA list of the `tlds` package). */
  tlds?: readonly string[] | ReadonlySet<string>;
  /** The longest link, in UTF-16 code units; a longer run is cut and flagged `link-too-long` (default 8192). */
  maxLinkLength?: number;
  /**
   * 3987bis §3.5: charset of the source document; http(s) queries are percent-encoded in it (default: Unicode). A
   * name toUri takes: a WHATWG label (`x-mac-cyrillic`, `latin1`, `x-euc-jp`) or a name iconv-lite knows.
   */
  documentCharset?: string;
}

export { DEFAULT_SCHEMES, isSchemeName, NEVER_SCHEMES } from '../schemes.js';

/**
 * Known schemes whose URIs have no authority (no `//host`: RFC 6068 mailto, RFC 3966 tel, RFC 8141 urn, RFC 5538
 * news, RFC 5870 geo, magnet, RFC 3261 sip/sips, RFC 5122 xmpp): never the defaultScheme of a schemeless host.
 */
const NO_AUTHORITY_SCHEMES: readonly string[] = Object.freeze([
  'mailto', 'tel', 'urn', 'news', 'geo', 'magnet', 'sip', 'sips', 'xmpp',
]);

export const DEFAULT_MAX_LINK_LENGTH = 8192;
/** The smallest maxLinkLength accepted: room for a scheme, a host and the scanner's bounded look-arounds. */
export const MIN_MAX_LINK_LENGTH = 64;
export const MAX_MAX_LINK_LENGTH = 1 << 28;

const OPTION_NAMES = new Set([
  'schemes', 'anyScheme', 'schemeless', 'email', 'defaultScheme', 'tlds', 'maxLinkLength', 'documentCharset',
]);

/** Options after validation, in the shapes the scanner reads. */
export interface ResolvedOptions {
  readonly schemes: ReadonlySet<string>;
  readonly schemeList: readonly string[];
  /** Length of the longest listed scheme. */
  readonly maxSchemeLength: number;
  /** The listed schemes and NEVER_SCHEMES as a trie (url.ts looks names up in it without building strings). */
  readonly schemeTrie: SchemeTrie;
  readonly anyScheme: boolean;
  readonly schemeless: boolean;
  readonly email: boolean;
  readonly defaultScheme: string;
  readonly tlds: ReadonlySet<string>;
  /** Longest TLD in the set, in UTF-16 units (bounds the label looked up). */
  readonly tldMaxLength: number;
  readonly maxLinkLength: number;
  readonly documentCharset: string | undefined;
}

/** A top-level domain as the `tlds` option takes it: one DNS label (RFC 1035 §2.3.4: at most 63), no dot of any script. */
export function isTldName(t: unknown): t is string {
  return typeof t === 'string' && t.length > 0 && t.length <= 63 && !/[\s.。．｡]/u.test(t);
}

let defaultResolved: ResolvedOptions | undefined;

/**
 * For a function that takes the detector's options and its own (`own`): a TypeError for a name that is neither,
 * listing both, so the message names what that function takes. (resolveOptions, which sees only the detector's
 * part, would list only the detector's names.)
 */
export function checkOptionNames(options: object, own: readonly string[]): void {
  for (const key of Object.keys(options)) {
    if (!OPTION_NAMES.has(key) && !own.includes(key)) throw unknownOption(key, [...own, ...OPTION_NAMES]);
  }
}

/**
 * The options argument of a public entry point (findLinks, linkify, createScanner, the Linkifier): an object or
 * undefined, else a TypeError that names `fn` (resolveOptions, shared by every caller, names none).
 */
export function checkOptionsArgument(fn: string, options: unknown): void {
  if (options !== undefined && !isOptionsObject(options)) throw badArgument(fn, 'options', 'an object or undefined', options);
}

/** Validates `options` (TypeError via badOption for a bad value or an unknown name) and resolves defaults. */
export function resolveOptions(options: LinkOptions | undefined): ResolvedOptions {
  if (options === undefined) return (defaultResolved ??= resolve({}));
  if (!isOptionsObject(options)) {
    throw badOption('options', 'an object or undefined', options);
  }
  for (const key of Object.keys(options)) {
    if (!OPTION_NAMES.has(key)) throw unknownOption(key, OPTION_NAMES);
  }
  return resolve(options);
}

function resolve(o: LinkOptions): ResolvedOptions {
  let schemeList = DEFAULT_SCHEMES;
  if (o.schemes !== undefined) {
    const names: unknown = o.schemes instanceof Set ? [...(o.schemes as Set<unknown>)] : o.schemes;
    if (!Array.isArray(names)) throw badOption('schemes', 'an array or a Set of scheme names', o.schemes);
    const list: string[] = [];
    for (const s of names as unknown[]) {
      if (typeof s !== 'string' || !isSchemeName(s)) {
        throw badOption('schemes', 'an array or a Set of scheme names (RFC 3986 §3.1 syntax, at most 32 characters)', s);
      }
      const lower = s.toLowerCase();
      if (NEVER_SCHEMES.includes(lower)) {
        throw badOption('schemes', 'free of javascript, vbscript and data (they are never linked)', s);
      }
      if (!list.includes(lower)) list.push(lower);
    }
    schemeList = list;
  }
  const anyScheme = bool(o, 'anyScheme', true);
  const schemeless = bool(o, 'schemeless', true);
  const email = bool(o, 'email', true);
  let defaultScheme = 'https';
  if (o.defaultScheme !== undefined) {
    const s = o.defaultScheme as unknown;
    if (typeof s !== 'string' || !isSchemeName(s)) {
      throw badOption('defaultScheme', 'a scheme name (RFC 3986 §3.1: a letter, then letters, digits, + - or ., at most 32)', s);
    }
    const lower = s.toLowerCase();
    if (NEVER_SCHEMES.includes(lower)) {
      throw badOption('defaultScheme', 'a scheme name other than javascript, vbscript or data (they are never linked)', s);
    }
    // The link's uri is written `${defaultScheme}://${text}` (convert.ts), so the scheme must be one whose URIs
    // have an authority (RFC 3986 §3.2: "//" then the host): `mailto://example.com` is no mailbox.
    if (NO_AUTHORITY_SCHEMES.includes(lower)) {
      throw badOption(
        'defaultScheme',
        `a scheme written with // and a host (as https://www.example.com), not one of ${NO_AUTHORITY_SCHEMES.join(', ')}`,
        s,
      );
    }
    defaultScheme = lower;
  }
  let tlds = DEFAULT_TLDS;
  if (o.tlds !== undefined) {
    // An array or a Set, as `schemes` takes.
    const names: unknown = o.tlds instanceof Set ? [...(o.tlds as Set<unknown>)] : o.tlds;
    if (!Array.isArray(names)) throw badOption('tlds', 'an array or a Set of top-level domain names', o.tlds);
    for (const t of names as unknown[]) {
      if (!isTldName(t)) {
        throw badOption('tlds', 'an array or a Set of top-level domain names (one label each, no dots)', t);
      }
    }
    tlds = buildTldSet(names as readonly string[]);
  }
  let maxLinkLength = DEFAULT_MAX_LINK_LENGTH;
  if (o.maxLinkLength !== undefined) {
    const m = o.maxLinkLength as unknown;
    if (typeof m !== 'number' || !Number.isInteger(m) || m < MIN_MAX_LINK_LENGTH || m > MAX_MAX_LINK_LENGTH) {
      throw badOption('maxLinkLength', `an integer from ${MIN_MAX_LINK_LENGTH} to ${MAX_MAX_LINK_LENGTH}`, m);
    }
    maxLinkLength = m;
  }
  let documentCharset: string | undefined;
  if (o.documentCharset !== undefined) {
    const c = o.documentCharset as unknown;
    // The names toUri takes (one list: src/charsets.ts), so the stream can hand on the WHATWG name it decoded with.
    if (typeof c !== 'string' || c === '' || !isDocumentCharset(c)) {
      throw badOption('documentCharset', 'a charset a stream decodes and whose queries irilink encodes: a WHATWG label or a name iconv-lite knows (e.g. "shift_jis", "x-mac-cyrillic"), not base64, hex, UTF-7 or ISO-2022-JP', c);
    }
    documentCharset = c;
  }
  let tldMaxLength = 0;
  for (const t of tlds) tldMaxLength = Math.max(tldMaxLength, t.length);
  // `mailto:` is an email's (the `email` option decides, whatever `schemes` lists): url.ts finds the one whose `@`
  // is written `%40` from its colon, so the name is looked up there as emailAt finds `mailto:a@b.com` anyway.
  const colonSchemes = email && !schemeList.includes('mailto') ? [...schemeList, 'mailto'] : schemeList;
  return Object.freeze({
    schemes: new Set(schemeList),
    schemeList: Object.freeze([...schemeList]),
    maxSchemeLength: colonSchemes.reduce((m, s) => Math.max(m, s.length), 0),
    schemeTrie: buildSchemeTrie(colonSchemes),
    anyScheme,
    schemeless,
    email,
    defaultScheme,
    tlds,
    tldMaxLength,
    maxLinkLength,
    documentCharset,
  });
}

/**
 * Scheme names (RFC 3986 §3.1 characters, ASCII letters case folded) in a trie: `next[node * SCHEME_SYMBOLS +
 * SCHEME_SYMBOL[c]]` is the child, 0 for none (node 0 is the root); `name[node]` is the listed scheme that ends
 * there, `never[node]` is 1 where one of NEVER_SCHEMES ends.
 */
export interface SchemeTrie {
  readonly next: Int32Array;
  readonly name: readonly (string | null)[];
  readonly never: Uint8Array;
}

export const SCHEME_SYMBOLS = 39;
/** The trie symbol of an ASCII scheme character (A–Z folded onto a–z), −1 for any other character. */
export const SCHEME_SYMBOL = new Int8Array(128).fill(-1);
for (let c = 0x61; c <= 0x7a; c++) SCHEME_SYMBOL[c] = SCHEME_SYMBOL[c - 0x20] = c - 0x61;
for (let c = 0x30; c <= 0x39; c++) SCHEME_SYMBOL[c] = 26 + c - 0x30;
SCHEME_SYMBOL[0x2b] = 36;
SCHEME_SYMBOL[0x2d] = 37;
SCHEME_SYMBOL[0x2e] = 38;

function buildSchemeTrie(list: readonly string[]): SchemeTrie {
  const all = [...list, ...NEVER_SCHEMES];
  const { next, nodes, ends } = buildTrie(all, SCHEME_SYMBOLS, SCHEME_SYMBOL);
  const name: (string | null)[] = new Array<string | null>(nodes).fill(null);
  const never = new Uint8Array(nodes);
  all.forEach((s, i) => {
    if (NEVER_SCHEMES.includes(s)) never[ends[i]!] = 1;
    else name[ends[i]!] = s;
  });
  return { next, name, never };
}

function bool(o: LinkOptions, name: 'anyScheme' | 'schemeless' | 'email', dflt: boolean): boolean {
  const v = o[name] as unknown;
  if (v === undefined) return dflt;
  if (typeof v !== 'boolean') throw badOption(name, 'a boolean', v);
  return v;
}
