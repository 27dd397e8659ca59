// irilink: the public API (DESIGN.md "Public API"). Each export is implemented in its layer's folder.
export type { Chunk, DiagnosticCode, Link, LinkChunk, LinkKind, TextChunk } from './types.js';
export { IriError } from './errors.js';
export type { IriErrorCode } from './errors.js';
