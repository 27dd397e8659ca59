// --schemes and --no-email: which links the command keeps.
//
//   --schemes LIST   links with a scheme written in the text only for the listed schemes, `mailto:` included;
//   --no-email       no bare email addresses (alice@example.com); a `mailto:` link follows --schemes.
//
// The detector's options cannot say all of this: its `schemes` governs the schemes of URLs, and its `email` turns
// bare addresses and `mailto:` links on and off together (a `mailto:` link is found from its address, UTS #58 §5.2
// step 5). So the detector runs with email on whenever either kind is wanted, and the kind not wanted is dropped
// from what it finds: the link becomes text, as if it had not been found. In Markdown, the links the author wrote
// (`[f](ftp://…)`, `<ssh://…>`, `<ann@example.org>`: a `construct` other than `bare`) come from the parser, not the
// detector, so the list is applied to them here; a relative destination (`/docs`, no scheme) is kept.
// The log modes (--records, --logs) give `keep` to their stream (src/logs/records.ts createCliLogStream), which
// leaves those links out of what it writes.
import type { Chunk } from '../types.js';
import type { LinkFields } from '../render/jsonl.js';

/** The fields of a link the choice reads (of a Link, or of a row's LinkFields). */
export type ChoiceFields = Pick<LinkFields, 'kind' | 'scheme' | 'schemeInferred'> & { construct?: string };

/** What --schemes (the list, or undefined) and --no-email ask for. */
export interface LinkChoice {
  /** The detector's `email` option. */
  detectEmail: boolean;
  /** Whether a link is kept; null when the detector's options alone give the answer. */
  keep: ((link: ChoiceFields) => boolean) | null;
}

export function linkChoice(schemes: readonly string[] | undefined, noEmail: boolean, authorLinks: boolean): LinkChoice {
  const listed = schemes === undefined ? null : new Set(schemes.map((s) => s.toLowerCase()));
  const mailto = listed === null || listed.has('mailto');
  const bare = !noEmail;
  if (mailto === bare && (listed === null || !authorLinks)) return { detectEmail: mailto, keep: null };
  // A `mailto:` link is an email whose scheme was written (schemeInferred false), and so is an address the author
  // made a link (`<ann@example.org>`); a bare address gets `mailto` inferred.
  return {
    detectEmail: mailto || bare,
    keep: (link) => {
      if (link.kind === 'email') return link.schemeInferred && (link.construct ?? 'bare') === 'bare' ? bare : mailto;
      return listed === null || link.schemeInferred || link.scheme === '' || listed.has(link.scheme);
    },
  };
}

/** A link chunk not kept becomes a text chunk with the same text and offsets. */
export function asText(chunk: Chunk): Chunk {
  if (chunk.type !== 'link') return chunk;
  const text: Chunk = { type: 'text', text: chunk.text, start: chunk.start, end: chunk.end };
  if (chunk.byteStart !== undefined) {
    text.byteStart = chunk.byteStart;
    text.byteEnd = chunk.byteEnd;
  }
  return text;
}
