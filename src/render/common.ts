// What every renderer shares: the per-chunk renderer shape, the policy that decides whether a link may be
// clickable, the text a link displays, and the right-to-left test used for bidi isolation.
import { badArgument, badOption, isOptionsObject, unknownOption } from '../errors.js';
import { isRtl } from '../iri/bidi.js';
import { asciiLower, isBidiFormat, isInvisibleOrSpace, isIprivate, isUcschar } from '../iri/chars.js';
import { decodeUtf8Triplets, isPctTriplet, tripletOctet } from '../iri/percent.js';
import type { Chunk, DiagnosticCode, LinkChunk } from '../types.js';
import { DEFAULT_SCHEMES, isSchemeName, NEVER_SCHEMES } from '../schemes.js';

/**
 * A renderer that sees the chunks one at a time. `chunk()` returns the output for one chunk, `end()` whatever
 * was held back (an unfinished escape sequence, a trailing line break state). The plain functions
 * (`toHtml` …) and the stream stages (`createRenderStream`) both drive one of these, so they cannot disagree.
 */
export interface ChunkRenderer {
  chunk(chunk: Chunk): string;
  end(): string;
}

/** How a link is shown: its original text, its readable IRI form (RFC 3987 §3.2), or its ASCII URI. */
export type Display = 'text' | 'iri' | 'uri';

/** Options every renderer takes. */
export interface CommonRenderOptions {
  /** Show the link's original `text` (default), its `iri`, or its `uri`. */
  display?: Display;
  /** Schemes that may be clickable (lower-case). Default: DEFAULT_LINK_SCHEMES. javascript, vbscript, data are refused. */
  schemes?: readonly string[] | ReadonlySet<string>;
  /** Render only the links, one per line (text chunks are read for state such as line numbers, not shown). */
  links?: boolean;
}

/**
 * Diagnostics that make a link not clickable, in every renderer: the link is shown as text instead.
 * - `idna-failed`, `conversion-failed`: the `uri` is not a usable address for what the text says.
 * - `mixed-script-host`, `confusable-host`: the host may imitate another one (UTS #39).
 * - `bidi-control`: a bidi formatting character touches the link, so what is shown next to it may be reordered
 *   (RFC 3987 §4.1 forbids them in IRIs; `invoice\u202Efdp.exe` is the classic trick).
 * - `bidi-embedded`: an override, embedding or isolate opened earlier on the line is still open where the link
 *   starts, so the link itself may be shown reordered (`\u202E https://evil.example/moc.elgoog//:sptth` reads as
 *   `https://google.com/…`): the same trick one step away (UAX #9 X1–X8, RFC 3987 §4.1).
 * - `userinfo`: `https://bank.example@evil.example/` shows one host and goes to another (RFC 3986 §7.6).
 * - `hidden-split`: an invisible character cuts the name a reader sees (`https://pay\u00ADpal.com/`; in Markdown also
 *   emphasis delimiters, tags or a code span, `pay*p*al.com`): the link holds only a part of it and may go to another host than
 *   the one shown.
 * Other diagnostics (`bidi-component`, `invalid-percent-encoding`, `link-too-long`, `wrapped`) leave the link
 * clickable.
 */
export const UNSAFE_DIAGNOSTICS: readonly DiagnosticCode[] = Object.freeze([
  'idna-failed',
  'conversion-failed',
  'mixed-script-host',
  'confusable-host',
  'bidi-control',
  'bidi-embedded',
  'userinfo',
  'hidden-split',
] as DiagnosticCode[]);

/** DESIGN.md P2: the schemes detection knows by name. Only these get an href / a hyperlink by default. */
export const DEFAULT_LINK_SCHEMES: readonly string[] = DEFAULT_SCHEMES;

// DESIGN.md P2 and "Security": never linked, whatever the options or the chunk say.
const NEVER_LINKED: ReadonlySet<string> = new Set(NEVER_SCHEMES);

/**
 * Why a link is shown as text: one of the UNSAFE_DIAGNOSTICS, or a renderer's own reason —
 * `scheme-not-allowed` (the uri's scheme is not in the allowed set) or `unsafe-uri` (the uri holds a character
 * outside printable ASCII U+0021–U+007E — whitespace, a control, anything non-ASCII — or a `\`, which browsers
 * read as `/`).
 */
export type RefusalCode = DiagnosticCode | 'scheme-not-allowed' | 'unsafe-uri';

const DEFAULT_SCHEME_SET: ReadonlySet<string> = new Set(DEFAULT_LINK_SCHEMES);

/**
 * The `schemes` option as a set; TypeError for anything but scheme names, or for a never-linked scheme. `fn`: the
 * function whose argument (not option) `schemes` is, as refusals(link, schemes): the message names it so.
 */
export function resolveSchemes(option: unknown, fn?: string): ReadonlySet<string> {
  if (option === undefined) return DEFAULT_SCHEME_SET;
  const bad = (expected: string, got: unknown): TypeError =>
    fn === undefined ? badOption('schemes', expected, got) : badArgument(fn, 'schemes', expected, got);
  const names: unknown = option instanceof Set ? [...(option as Set<unknown>)] : option;
  if (!Array.isArray(names)) throw bad('an array or a Set of scheme names', option);
  const set = new Set<string>();
  for (const name of names as unknown[]) {
    // As detection's `schemes` option takes them (src/schemes.ts), so that one list serves both.
    if (typeof name !== 'string' || !isSchemeName(name)) throw bad('an array or a Set of scheme names', name);
    const lower = asciiLower(name);
    if (NEVER_LINKED.has(lower)) {
      throw bad('free of javascript, vbscript and data (never linked)', name);
    }
    set.add(lower);
  }
  return set;
}

/**
 * The reasons `link` must not be clickable; `[]` when it may be. Defence in depth: the scheme is read from the
 * `uri` itself (not from `link.scheme`), and a uri with anything but printable ASCII is refused outright, so no
 * disguise of `javascript:` (case, whitespace, `%0A`, control characters, entities, full-width letters) can
 * reach an href.
 */
export function refusals(link: LinkChunk, schemes: ReadonlySet<string> | readonly string[] = DEFAULT_SCHEME_SET): readonly RefusalCode[] {
  const c = link as Partial<LinkChunk> | null;
  if (c === null || typeof c !== 'object' || c.type !== 'link') {
    throw badArgument('refusals', 'link', 'a link chunk ({ type: "link", text, uri, … })', link);
  }
  if (c.diagnostics !== undefined && !Array.isArray(c.diagnostics)) {
    throw badArgument('refusals', 'link.diagnostics', 'an array of diagnostic codes or absent', c.diagnostics);
  }
  return refusalsOf(link, resolveSchemes(schemes, 'refusals')); // checked and lower-cased
}

/** refusals() without the argument checks, for the renderers (their chunks and schemes are checked already). */
export function refusalsOf(link: LinkChunk, schemes: ReadonlySet<string>): readonly RefusalCode[] {
  const diagnostics = link.diagnostics;
  const uriProblem = checkUri(link.uri, schemes);
  const flagged = unsafeCodes(diagnostics);
  if (flagged.length === 0 && uriProblem === undefined) return NO_REFUSALS;
  const out: RefusalCode[] = flagged.slice();
  if (uriProblem !== undefined) out.push(uriProblem);
  return out;
}

const NO_REFUSALS: readonly RefusalCode[] = Object.freeze([]);

/** The UNSAFE_DIAGNOSTICS among `diagnostics` (of a text chunk: an unlinked span), in their canonical order. */
export function unsafeCodes(diagnostics: readonly DiagnosticCode[] | undefined): readonly DiagnosticCode[] {
  if (!Array.isArray(diagnostics) || diagnostics.length === 0 || !diagnostics.some(isUnsafeDiagnostic)) return NO_REFUSALS as DiagnosticCode[];
  return UNSAFE_DIAGNOSTICS.filter((code) => diagnostics.includes(code));
}
const UNSAFE_SET: ReadonlySet<string> = new Set(UNSAFE_DIAGNOSTICS);
function isUnsafeDiagnostic(code: string): boolean {
  return UNSAFE_SET.has(code);
}

// The uri must be printable ASCII (U+0021–U+007E) but `\`, and start with an allowed scheme.
// `\` is no URI character (RFC 3986 §2; toUri writes %5C), and the WHATWG URL parser reads it as `/` in http(s)
// and other special schemes: in `https://evil.example\@bank.example/` a browser goes to evil.example, where an RFC
// 3986 reading (the one every check of a link makes) sees the host bank.example.
function checkUri(uri: unknown, schemes: ReadonlySet<string>): RefusalCode | undefined {
  if (typeof uri !== 'string' || uri.length === 0) return 'unsafe-uri';
  let colon = -1;
  for (let i = 0; i < uri.length; i++) {
    const c = uri.charCodeAt(i);
    if (c < 0x21 || c > 0x7e || c === 0x5c) return 'unsafe-uri';
    if (c === 0x3a && colon < 0) colon = i;
  }
  // RFC 3986 §3.1: the scheme runs to the first ":" and is case-insensitive; a uri without one is relative
  // and is never an href.
  if (colon <= 0) return 'scheme-not-allowed';
  // (A name longer than isSchemeName's 32 characters is in no allowed set either.)
  if (!isSchemeName(uri.slice(0, colon))) return 'scheme-not-allowed';
  const scheme = asciiLower(uri.slice(0, colon));
  return schemes.has(scheme) && !NEVER_LINKED.has(scheme) ? undefined : 'scheme-not-allowed';
}

/**
 * True when a `%XX` sequence of `text`, decoded as UTF-8, is a character that is unsafe to show: an ASCII
 * control (C0, DEL), or a non-ASCII character RFC 3987 §3.2 step 4 keeps percent-encoded when a URI is shown as
 * an IRI (not ucschar — C1 controls, non-characters —, a bidi formatting character, an invisible or space-like
 * one; private use is harmless to show). Markdown-it shows the text of its autolinks and linkify links
 * percent-decoded (normalizeLinkText), so `https://a.example/%E2%80%AEexe.txt` would be shown with a real U+202E
 * (RIGHT-TO-LEFT OVERRIDE) reordering what follows; the Markdown writers use this to avoid those forms.
 */
export function percentRevealsUnsafe(text: string): boolean {
  for (let i = text.indexOf('%'); i >= 0 && i < text.length; i = text.indexOf('%', i + 1)) {
    if (!isPctTriplet(text, i)) continue;
    const octet = tripletOctet(text, i);
    if (octet < 0x80) {
      if (octet < 0x20 || octet === 0x7f) return true;
      continue;
    }
    const r = decodeUtf8Triplets(text, i);
    if (r < 0) continue; // not UTF-8: shown as U+FFFD, or left encoded
    const cp = Math.floor(r / 8);
    if (!((isUcschar(cp) && !isBidiFormat(cp) && !isInvisibleOrSpace(cp)) || isIprivate(cp))) return true;
    i += 3 * (r % 8) - 1;
  }
  return false;
}

/**
 * The text a renderer shows for a link. `iri` shows the readable form; when the scheme was inferred
 * (`example.com`, `user@host`) the inferred `https://` or `mailto:` is left off, since the reader never wrote it.
 * `uri` shows the uri as it is (what the link goes to).
 */
export function displayText(link: LinkChunk, display: Display): string {
  if (display === 'text') return link.text;
  if (display === 'uri') return typeof link.uri === 'string' && link.uri.length > 0 ? link.uri : link.text;
  const iri = typeof link.iri === 'string' && link.iri.length > 0 ? link.iri : link.text;
  if (!link.schemeInferred) return iri;
  const scheme = link.scheme;
  if (typeof scheme !== 'string' || iri.length <= scheme.length || iri.charCodeAt(scheme.length) !== 0x3a) return iri;
  if (asciiLower(iri.slice(0, scheme.length)) !== asciiLower(scheme)) return iri;
  let rest = scheme.length + 1;
  if (iri.charCodeAt(rest) === 0x2f && iri.charCodeAt(rest + 1) === 0x2f) rest += 2;
  return rest < iri.length ? iri.slice(rest) : iri;
}

/** UAX #9 §2.1–2.4: an explicit embedding, override or isolate (U+202A–202E, U+2066–2069). */
export function isExplicitBidiFormat(c: number): boolean {
  return (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
}

/** True when `s` holds a right-to-left character (Bidi_Class R or AL). */
export function containsRtl(s: string): boolean {
  if (typeof s !== 'string') throw badArgument('containsRtl', 's', 'a string', s);
  return rtlIn(s, false);
}

/** A right-to-left character in `s`, or with `formats` also an explicit embedding, override or isolate. */
export function rtlIn(s: string, formats: boolean): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x0590) continue;
    if (formats && isExplicitBidiFormat(c)) return true;
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        if (isRtl(((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000)) return true;
        i++;
        continue;
      }
    }
    if (isRtl(c)) return true;
  }
  return false;
}

/** The option names of CommonRenderOptions, for the renderers that take all three. */
export const COMMON_OPTION_NAMES: readonly string[] = Object.freeze(['display', 'schemes', 'links']);

/**
 * The options object of a renderer: undefined or a plain object whose names are all in `known` — an unknown name (a
 * typo such as `lnks`) is a TypeError, as it is for the detector's options (detect/options.ts). null is refused
 * too, as detection, toUri and toIri refuse it: one rule for every options argument.
 */
export function readOptions(fn: string, options: unknown, known: readonly string[]): Record<string, unknown> {
  if (options === undefined) return {};
  if (!isOptionsObject(options)) {
    throw badArgument(fn, 'options', 'an object or undefined', options);
  }
  for (const key of Object.keys(options)) if (!known.includes(key)) throw unknownOption(key, known);
  return options as Record<string, unknown>;
}

export function readDisplay(value: unknown): Display {
  if (value === undefined) return 'text';
  if (value === 'text' || value === 'iri' || value === 'uri') return value;
  throw badOption('display', '"text", "iri" or "uri"', value);
}

export function readBoolean(name: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') throw badOption(name, 'a boolean', value);
  return value;
}

export function readString(name: string, value: unknown, fallback: string): string {
  if (value === undefined) return fallback;
  if (typeof value !== 'string') throw badOption(name, 'a string', value);
  return value;
}

export function readChoice<T extends string>(name: string, value: unknown, choices: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (typeof value === 'string' && (choices as readonly string[]).includes(value)) return value as T;
  throw badOption(name, `one of ${choices.map((c) => JSON.stringify(c)).join(', ')}`, value);
}

/** A chunk as the renderers need it; a TypeError names the function and what was wrong. */
export function checkChunk(fn: string, chunk: unknown, name = 'each chunk'): Chunk {
  if (chunk !== null && typeof chunk === 'object') {
    const c = chunk as Chunk;
    if ((c.type === 'text' || c.type === 'link') && typeof c.text === 'string') {
      // Not an array of strings, the diagnostics would read as none: an unsafe link given `'idna-failed'` would be
      // clickable, and `[null]` was taken for no diagnostic.
      const diagnostics = c.diagnostics as unknown;
      if (diagnostics !== undefined) {
        const what = name === 'chunk' ? 'chunk.diagnostics' : "a chunk's diagnostics";
        if (!Array.isArray(diagnostics)) throw badArgument(fn, what, 'an array of diagnostic codes or absent', diagnostics);
        // An index loop, not for…of: a hole is refused too.
        for (let i = 0; i < diagnostics.length; i++) {
          const d: unknown = diagnostics[i];
          if (typeof d !== 'string') throw badArgument(fn, `${what}[${i}]`, 'a diagnostic code (a string)', d);
        }
      }
      return c;
    }
  }
  throw badArgument(fn, name, 'a text or link chunk ({ type, text, … })', chunk);
}

/**
 * A renderer whose chunk() checks its argument (checkChunk): what createRenderer and createMarkdownSourceRenderer
 * hand out, since their caller gives it chunks one by one (the plain functions check the array themselves).
 */
export function checkedRenderer(fn: string, renderer: ChunkRenderer): ChunkRenderer {
  const where = `${fn}().chunk`;
  // As Linkifier.push(): output after end() would follow what end() closed (a held link written twice, text after the
  // closing markup).
  let ended = false;
  return {
    chunk: (chunk: Chunk): string => {
      if (ended) throw new TypeError(`irilink: ${fn}().chunk() called after end()`);
      return renderer.chunk(checkChunk(where, chunk, 'chunk'));
    },
    end: (): string => {
      if (ended) return ''; // (a second end() adds nothing, as Linkifier's)
      ended = true;
      return renderer.end();
    },
  };
}

/** Drive a renderer over a whole array (the plain-function form of every renderer). */
export function renderAll(fn: string, chunks: unknown, renderer: ChunkRenderer): string {
  if (!Array.isArray(chunks)) throw badArgument(fn, 'chunks', 'an array of chunks', chunks);
  let out = '';
  for (const chunk of chunks) out += renderer.chunk(checkChunk(fn, chunk));
  return out + renderer.end();
}
