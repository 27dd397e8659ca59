// The Markdown mode's options, read without loading the Markdown parser: createLinkStream checks them when a
// stream is created, and loads micromark only at the stream's first write (src/stream/transform.ts).
import { badArgument, badOption, isOptionsObject } from '../errors.js';
import { checkOptionNames } from '../detect/options.js';
import type { LinkOptions } from '../detect/index.js';

/** Options of the Markdown mode: the detector's, and the Markdown dialect. */
export interface MarkdownLinkOptions extends LinkOptions {
  /**
   * GFM tables and strikethrough (default true): `~~https://x/~~` links `https://x/`, and `|` ends a cell.
   * With false, plain CommonMark 0.31. (GFM's autolink literals are irilink's own bare-link detection here.)
   */
  gfm?: boolean;
}

/** The dialect and the detector's options of `options`; a TypeError (naming `fn`) when they are not an object. */
export function splitMarkdownOptions(fn: string, options: MarkdownLinkOptions | undefined): { gfm: boolean; link: LinkOptions | undefined } {
  if (options === undefined) return { gfm: true, link: undefined };
  if (!isOptionsObject(options)) {
    throw badArgument(fn, 'options', 'an object or undefined', options);
  }
  checkOptionNames(options, ['gfm']);
  const { gfm, ...link } = options;
  if (gfm !== undefined && typeof gfm !== 'boolean') throw badOption('gfm', 'a boolean', gfm);
  return { gfm: gfm ?? true, link };
}
