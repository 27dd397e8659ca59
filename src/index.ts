// irilink: the public API (DESIGN.md "Public API"). Each export is implemented in its layer's folder;
// data flows one way: bytes → text → scanner → links → conversion → chunks → renderer.
export type { Chunk, DiagnosticCode, Link, LinkChunk, LinkKind, TextChunk } from './types.js';
export { IriError } from './errors.js';
export type { IriErrorCode } from './errors.js';

// UTS #58 detection with the documented extensions P1–P8 (DESIGN.md "Detection policy").
export { findLinks, linkify, createScanner, DEFAULT_SCHEMES, NEVER_SCHEMES, DEFAULT_MAX_LINK_LENGTH } from './detect/index.js';
export type { LinkOptions, Scanner, ScanResult, ScanResume, UnlinkedSpan } from './detect/index.js';

// Streaming: bytes or strings in, Chunk objects out (DESIGN.md "Streaming contract").
export { createLinkStream } from './stream/transform.js';
export type { StreamOptions } from './stream/transform.js';
export { Linkifier } from './stream/linkifier.js';

// Markdown mode (issue 6): links in Markdown source, and plugins for markdown-it and remark.
export {
  findMarkdownLinks,
  linkifyMarkdown,
  MarkdownLinkifier,
  irilinkLinkifyIt,
  irilinkMarkdownIt,
  remarkIrilink,
  toMarkdownSource,
  createMarkdownSourceRenderer,
} from './markdown/index.js';
export type {
  MarkdownChunk,
  MarkdownLinkChunk,
  MarkdownLinkOptions,
  MarkdownConstruct,
  MarkdownLink,
  LinkifyItLike,
  MarkdownItLike,
  LinkifyItMatch,
  MarkdownSourceOptions,
} from './markdown/index.js';

// RFC 3987 / draft-ietf-iri-3987bis: pure string functions.
export { isIri, parseIriReference, splitIriReference, recomposeIri } from './iri/parse.js';
export type { IriComponents, IriProduction } from './iri/parse.js';
export { toUri } from './iri/to-uri.js';
export type { ToUriOptions } from './iri/to-uri.js';
export { toIri } from './iri/to-iri.js';
export type { ToIriOptions } from './iri/to-iri.js';
export { leiriToIri } from './iri/leiri.js';
export { compareIris, comparisonKey } from './iri/compare.js';
export type { ComparisonLevel } from './iri/compare.js';
export { checkIriBidi, visualOrder, resolveBidi } from './iri/bidi.js';
export type { BidiProblem, BidiBaseDirection, BidiResolution } from './iri/bidi.js';

// UTS #58 §4.1 minimal escaping.
export { formatUrl, formatUrlParts } from './format/format-url.js';
export type { UrlParts } from './format/format-url.js';

// UTS #39: §5 restriction levels (behind mixed-script-host) and §4 confusables (behind confusable-host).
export { restrictionLevel, isSuspiciousHostLabel } from './unicode/mixed-script.js';
export type { RestrictionLevel } from './unicode/mixed-script.js';
export {
  skeleton,
  confusableHost,
  confusablePrototype,
  WELL_KNOWN_DOMAINS,
  CONFUSABLES_VERSION,
  CONFUSABLES_SOURCE,
} from './unicode/confusables.js';

// Renderers: plain functions over chunks, and the same as object-mode stream stages.
export {
  toHtml,
  toMarkdown,
  toAnsi,
  toJsonl,
  toText,
  createRenderStream,
  createRenderer,
  refusals,
  RENDER_FORMATS,
  UNSAFE_DIAGNOSTICS,
  DEFAULT_LINK_SCHEMES,
  DEFAULT_REL,
} from './render/index.js';
export type {
  HtmlOptions,
  MarkdownOptions,
  AnsiOptions,
  JsonlOptions,
  JsonlLink,
  TextOptions,
  RenderFormat,
  ChunkRenderer,
  RefusalCode,
  Display,
} from './render/index.js';

// Where irilink is used: mail (RFC 5322 messages and mbox), logs, and a line-per-record filter.
export {
  linkifyMail,
  linkifyMessage,
  linkifyQuoted,
  splitMbox,
  decodeFlowed,
  mailToHtml,
  mailToJsonl,
  mailHtmlPieces,
  mailJsonlPieces,
  runMail,
  MAIL_LIMITS,
} from './mail/index.js';
export type {
  LinkifyMailOptions,
  MailMessage,
  MailPart,
  MailOptions,
  MailError,
  MailErrorCode,
  MboxMessage,
  SplitMboxOptions,
  MailFormat,
  MailJsonlLink,
} from './mail/index.js';
export { findLogLinks, linkifyLogLine, LogLineLinker, createRecordStream, createLogLinkStream, linkRecords, RecordLinker } from './logs/index.js';
export type { LogOptions, RecordOptions, RecordLinkerOptions, RecordLink, LinkRecord } from './logs/index.js';
