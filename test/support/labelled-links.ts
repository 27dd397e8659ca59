// Comparing irilink's links with hand-labelled ones (corpora/samples, corpora/stretches): the text with ⸠ ⸡ around
// each link, so a failure shows the answer at a glance, and the links one side has and the other has not.

interface Span {
  start: number;
  end: number;
  text: string;
}

/** The text with ⸠ ⸡ around each link (links in order, not overlapping). */
export function marked(text: string, links: { start: number; end: number }[]): string {
  let out = '';
  let at = 0;
  for (const l of links) {
    out += text.slice(at, l.start) + '⸠' + text.slice(l.start, l.end) + '⸡';
    at = l.end;
  }
  return out + text.slice(at);
}

/**
 * Where found and labelled links differ, by exact span: the found links not labelled (`extra`) and the labelled
 * links not found with that span (`missed`), each as its text, in text order; and the pairs with the same span.
 */
export function linkErrors<F extends Span, L extends Span>(
  found: F[],
  labelled: L[],
): { extra: string[]; missed: string[]; matched: [F, L][] } {
  const span = (l: Span): string => `${l.start}:${l.end}`;
  const bySpan = new Map(labelled.map((l) => [span(l), l]));
  const foundSpans = new Set(found.map(span));
  return {
    extra: found.filter((l) => !bySpan.has(span(l))).map((l) => l.text),
    missed: labelled.filter((l) => !foundSpans.has(span(l))).map((l) => l.text),
    matched: found.filter((l) => bySpan.has(span(l))).map((l) => [l, bySpan.get(span(l))!]),
  };
}
