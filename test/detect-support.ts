// Marker helpers for the detection tests (the format of UTS #58 LinkDetectionTest.txt): `⸠` and `⸡` around
// every expected link.
import type { Link } from '../src/types.js';
import { createScanner, findLinks, type LinkOptions, type ScanResume } from '../src/detect/index.js';

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
        if (name === 'in a sentence') {
          // …and split at every position through the scanner as the stream drives it.
          const text = unmark(whole);
          const expected = JSON.stringify(scanWhole(text, options));
          for (let i = 0; i <= text.length; i++) {
            const streamed = JSON.stringify(streamLinks([text.slice(0, i), text.slice(i)], options));
            if (streamed !== expected) throw new Error(`split at ${i}: ${streamed}\n  whole: ${expected}`);
          }
        }
      });
    }
  }
}

/**
 * The scanner's answer for the whole text: findLinks without its `bidi-embedded` pass (src/detect/embedding.ts),
 * which reads state from the start of the line and is checked across splits in detect-bidi-context.test.ts.
 */
export function scanWhole(text: string, options?: LinkOptions): Link[] {
  return createScanner(options).scan(text, 0, true, 0).links;
}

/**
 * Drives a scanner the way the stream does: append a piece, scan from the settled point, keep the text from
 * settled − contextLength, and finish with final = true. Returns every link found. A scan's `resume` is passed
 * back only where the contract needs it, after a link cut at maxLinkLength (`cutRun`): so these tests check that
 * the other scans give the same answer without the hint (detect-scan-context.test.ts passes it every time).
 */
export function streamLinks(pieces: readonly string[], options?: LinkOptions, onScan?: (held: number) => void): Link[] {
  const scanner = createScanner(options);
  let text = '';
  let base = 0;
  let from = 0;
  const links: Link[] = [];
  let resume: ScanResume | undefined;
  const step = (final: boolean): void => {
    const r = scanner.scan(text, from, final, base, resume);
    if (r.settled < from || r.settled > text.length || (final && r.settled !== text.length)) {
      throw new Error(`settled ${r.settled} out of range [${from}, ${text.length}] (final ${final})`);
    }
    for (const l of r.links) {
      if (l.start - base < from || l.end - base > r.settled) throw new Error(`link [${l.start}, ${l.end}) outside [from, settled)`);
      links.push(l);
    }
    onScan?.(text.length - r.settled);
    const k = Math.max(0, r.settled - scanner.contextLength);
    text = text.slice(k);
    base += k;
    from = r.settled - k;
    resume = r.resume?.cutRun === undefined ? undefined : { ...r.resume, at: r.resume.at - k, lowerLimit: r.resume.lowerLimit - k };
  };
  for (const piece of pieces) {
    text += piece;
    step(false);
  }
  step(true);
  return links;
}
