// What irilink keeps for the length of a whole input must not keep the text it was sliced from: a link's strings,
// and Markdown's labels and destinations, are slices of the write or piece they came from, and V8 keeps a slice of
// 13 or more units as a view of its parent string. (The memo's own test is memo.test.ts; a consumer's copies are
// its own affair, README "Streaming".) Each test builds 40 parents of 1 MiB that are reachable, once the loop is
// done, only through what was kept: kept slices would hold 40 MiB.
import { expect } from 'chai';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { DistinctLinks } from '../src/cli/unique.js';
import { MarkdownLinkifier } from '../src/markdown/index.js';
import type { Link } from '../src/types.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const PARENTS = 40;

/** A distinct string of 1 Mi ASCII units (1 MiB) that starts with `head`. */
function parent(head: string): string {
  return [head, 'x'.repeat(1 << 20)].join('');
}

/** How many MiB the heap grew while `fill` ran, after a full collection. */
function heapGrowth(fill: () => void): number {
  gc();
  const before = process.memoryUsage().heapUsed;
  fill();
  gc();
  return (process.memoryUsage().heapUsed - before) / 1048576;
}

describe('what lives as long as the input does', () => {
  it('--unique and --stats: the distinct links', () => {
    const seen = new DistinctLinks();
    const link = (text: string): Link => ({ kind: 'url', text, uri: text, iri: text }) as Link;
    const grown = heapGrowth(() => {
      // Each link once: a key compared with an equal string is flattened by V8 on the way (no longer a slice).
      for (let i = 0; i < PARENTS; i++) expect(seen.add(link(parent(`https://example.com/page${i}/`).slice(0, 60)))).to.equal(true);
    });
    expect(grown, `heap grew by ${grown.toFixed(1)} MiB`).to.be.below(15);
    expect(seen.size).to.equal(PARENTS);
    const again = `https://EXAMPLE.com/page7/${'x'.repeat(34)}`;
    expect(seen.add(link(again))).to.equal(false); // RFC 3987 §5.3.2.1: the host compares case-insensitively
    expect(seen.add(link(again.replace('page7', `page${PARENTS}`)))).to.equal(true);
  });

  it('Markdown: the link reference definitions of a document', () => {
    const linkifier = new MarkdownLinkifier();
    const grown = heapGrowth(() => {
      for (let i = 0; i < PARENTS; i++) {
        // Each push its own piece: a definition, a blank line, then a long paragraph (the parent's tail).
        const piece = parent(`[release-${String(i).padStart(3, '0')}-notes]: https://example.com/releases/${i}/notes\n\n`);
        linkifier.push(piece + '\n\n');
      }
      linkifier.end();
    });
    expect(linkifier.definitions.size).to.equal(PARENTS);
    expect(linkifier.definitions.get('RELEASE-007-NOTES')).to.equal('https://example.com/releases/7/notes');
    expect(grown, `heap grew by ${grown.toFixed(1)} MiB`).to.be.below(15);
  });
});
