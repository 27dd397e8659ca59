// `new Linkifier(options)`: the incremental linkifier bound to irilink's UTS #58 scanner.
import { createScanner } from '../detect/index.js';
import type { LinkOptions } from '../detect/index.js';
import { checkOptionsArgument } from '../detect/options.js';
import { IncrementalLinkifier } from './incremental.js';

/**
 * Incremental link detection over text that arrives in pieces.
 *
 * ```ts
 * const linkifier = new Linkifier();
 * const chunks = [...linkifier.push('see https://例え.jp/パ'), ...linkifier.push('ス。'), ...linkifier.end()];
 * ```
 * The chunks, once adjacent text chunks are merged, equal `linkify(whole text)` however the text was split.
 */
export class Linkifier extends IncrementalLinkifier {
  constructor(options?: LinkOptions) {
    checkOptionsArgument('Linkifier', options);
    super(createScanner(options));
  }
}
