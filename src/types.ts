// The shapes every layer shares (DESIGN.md "What each link carries").
// Offsets are half-open UTF-16 code unit offsets relative to the whole input (STYLE.md habit 6).

/** Stable kebab-case diagnostic codes. Renderers and users switch on these strings. */
export type DiagnosticCode =
  | 'bidi-control' //            P1: the link ended before a bidi formatting character (RFC 3987 §4.1)
  | 'bidi-embedded' //           an embedding/override/isolate opened before it on its line is still open (UAX #9 X1–X8; RFC 3987 §4.1)
  | 'bidi-component' //          RFC 3987 §4.2: a component mixes rtl and ltr, or rtl does not start and end it
  | 'idna-failed' //             UTS #46 ToASCII failed for the host; `uri` keeps the host percent-encoded
  | 'mixed-script-host' //       a host label mixes scripts in a way UTS #39 calls suspicious
  | 'confusable-host' //         a host that only looks like another through confusable characters (UTS #39)
  | 'invalid-percent-encoding' // a `%` not followed by two hex digits
  | 'userinfo' //                P5: `user[:pass]@` before the host
  | 'hidden-split' //            an invisible character (U+200B, U+00AD, …; Markdown: `*`) joins the link to more of the name a reader sees
  | 'link-too-long' //           the link ran on past maxLinkLength and was cut there
  | 'wrapped' //                 P3: an RFC 3986 Appendix C link spanning whitespace
  | 'invalid-utf8' //            the stream replaced undecodable input bytes with U+FFFD
  | 'invalid-bytes' //           the same in a charset other than UTF-8 (`encoding` option): bytes it cannot decode
  | 'conversion-failed'; //      the uri could not be made as asked (a query the documentCharset cannot encode): percent-encoded UTF-8

export type LinkKind = 'url' | 'email';

export interface Link {
  /** UTF-16 offset of the first code unit of the link in the whole input. */
  start: number;
  /** UTF-16 offset just past the link (half-open). */
  end: number;
  /** Exactly `input.slice(start, end)`. */
  text: string;
  kind: LinkKind;
  /** Lower-case scheme, e.g. `https`, `mailto`. */
  scheme: string;
  /** True when the text had no scheme (`example.com`, `user@host`). */
  schemeInferred: boolean;
  /** ASCII URI for an href (RFC 3987 §3.1, hosts through UTS #46). */
  uri: string;
  /** Readable IRI for display (RFC 3987 §3.2). */
  iri: string;
  diagnostics: DiagnosticCode[];
  /** Byte offsets into the input, present when the input was bytes (streams). */
  byteStart?: number;
  byteEnd?: number;
}

export interface TextChunk {
  type: 'text';
  text: string;
  start: number;
  end: number;
  byteStart?: number;
  byteEnd?: number;
  /** Only set when something happened to this text (e.g. `invalid-utf8`). */
  diagnostics?: DiagnosticCode[];
}

export interface LinkChunk extends Link {
  type: 'link';
}

export type Chunk = TextChunk | LinkChunk;
