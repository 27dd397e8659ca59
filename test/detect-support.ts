// Marker helpers for the detection tests (the format of UTS #58 LinkDetectionTest.txt): `⸠` and `⸡` around
// every expected link.
import type { Link } from '../src/types.js';
import { findLinks, type LinkOptions } from '../src/detect/index.js';

export const OPEN_MARK = '⸠';
export const CLOSE_MARK = '⸡';

/** The text with the markers removed. */
export function unmark(marked: string): string {
  return marked.replace(/[⸠⸡]/g, '');
}

/** `text` with markers around each of `links`. */
export function mark(text: string, links: readonly Link[]): string {
  let out = '';
  let last = 0;
  for (const l of links) {
    out += text.slice(last, l.start) + OPEN_MARK + text.slice(l.start, l.end) + CLOSE_MARK;
    last = l.end;
  }
  return out + text.slice(last);
}

/** Runs detection on the unmarked text and marks what was found. */
export function detectMarked(marked: string, options?: LinkOptions): string {
  const text = unmark(marked);
  return mark(text, findLinks(text, options));
}

/** The contexts every marker case runs in (STYLE.md habit 10): bare, inside a sentence, wrapped in newlines. */
export const CONTEXTS: readonly (readonly [string, string, string])[] = [
  ['bare', '', ''],
  ['in a sentence', 'Before it, ', ' and after it.'],
  ['between newlines', '\n', '\n'],
  ['after CRLF and a tab', 'x\r\n\t', '\r\nx'],
];

/** Registers one `it` per case and context: detection on the unmarked text gives the marked text back. */
export function itMarks(cases: readonly string[], options?: LinkOptions): void {
  for (const marked of cases) {
    for (const [name, before, after] of CONTEXTS) {
      it(`${JSON.stringify(marked)} (${name})`, () => {
        const whole = before + marked + after;
        const got = detectMarked(whole, options);
        if (got !== whole) throw new Error(`expected ${JSON.stringify(whole)}\n     got ${JSON.stringify(got)}`);
      });
    }
  }
}
