// Markdown mode (issue 6): links in Markdown source, and plugins for markdown-it and remark.
export { findMarkdownLinks, linkifyMarkdown, MarkdownLinkifier, DEFAULT_MAX_PIECE_LENGTH } from './linkifier.js';
export type { MarkdownChunk, MarkdownLinkChunk, MarkdownLinkOptions } from './linkifier.js';
export type { MarkdownConstruct, MarkdownLink } from './extract.js';
export { irilinkLinkifyIt, irilinkMarkdownIt } from './markdown-it.js';
export type { LinkifyItLike, LinkifyItMatch, MarkdownItLike } from './markdown-it.js';
export { remarkIrilink } from './remark.js';
export { createMarkdownSourceRenderer, toMarkdownSource } from './source.js';
export type { MarkdownSourceOptions } from './source.js';
