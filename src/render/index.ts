// The renderers: plain functions over Chunk[] and the same as object-mode stream stages.
export { toHtml, createHtmlRenderer, DEFAULT_REL, type HtmlOptions } from './html.js';
export { toMarkdown, createMarkdownRenderer, type MarkdownOptions } from './markdown.js';
export { toAnsi, createAnsiRenderer, type AnsiOptions } from './ansi.js';
export { toJsonl, createJsonlRenderer, type JsonlOptions, type JsonlLink } from './jsonl.js';
export { toText, createTextRenderer, type TextOptions } from './text.js';
export {
  createRenderStream,
  createRenderer,
  RENDER_FORMATS,
  type RenderFormat,
  type RenderOptionsByFormat,
} from './stream.js';
export {
  UNSAFE_DIAGNOSTICS,
  DEFAULT_LINK_SCHEMES,
  refusals,
  containsRtl,
  type ChunkRenderer,
  type CommonRenderOptions,
  type Display,
  type RefusalCode,
} from './common.js';
