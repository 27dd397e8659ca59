// Every example of the CommonMark 0.31 spec (the commonmark-spec package) through findMarkdownLinks, against the
// reference parser (commonmark.js).
//
// The comparison, and why it is fair:
// - Links and images: the destinations of the reference AST's link and image nodes (autolinks included, emails as
//   `mailto:…`, references resolved) equal the `destination`s of irilink's link/image/reference/autolink links, as
//   multisets (irilink orders by position in the source, the AST by nesting). Both sides go through mdurl's
//   encode (the reference's own normalizeURI step, idempotent on its output), so only a real difference shows.
//   Empty destinations (`[a]()`) and javascript:/vbscript:/data: are never irilink links: expected, listed below.
// - Definitions: the set of irilink's definition destinations equals the set of the reference's refmap entries.
// - Bare links irilink adds: each lies in plain text of the reference AST — inside the literal of a run of text
//   nodes that is not within a link, image, code span, code block or HTML.
// Examples where the two differ on purpose are listed in KNOWN with the reason, and the difference is asserted.
import { expect } from 'chai';
import * as commonmark from 'commonmark';
import { createRequire } from 'node:module';
import mdurl from 'mdurl';
import { findMarkdownLinks } from '../src/markdown/index.js';

interface Example {
  markdown: string;
  section: string;
  number: number;
}

const NEVER = /^(javascript|vbscript|data):/i;

function norm(destination: string): string {
  return mdurl.encode(destination);
}

/** Reference: link/image destinations (normalised), definitions, and plain-text runs outside links/code/HTML. */
function reference(markdown: string): { links: string[]; definitions: string[]; plain: string[] } {
  const parser = new commonmark.Parser();
  const doc = parser.parse(markdown);
  const links: string[] = [];
  const plain: string[] = [];
  let depth = 0;
  let run: string | undefined;
  const walker = doc.walker();
  for (let step = walker.next(); step; step = walker.next()) {
    const node = step.node;
    if (node.type === 'text' && depth === 0) {
      run = (run ?? '') + (node.literal ?? '');
      continue;
    }
    if (run !== undefined) plain.push(run);
    run = undefined;
    if (node.type === 'link' || node.type === 'image') {
      if (step.entering) {
        depth++;
        links.push(norm(node.destination ?? ''));
      } else {
        depth--;
      }
    }
  }
  if (run !== undefined) plain.push(run);
  const refmap = (parser as unknown as { refmap: Record<string, { destination: string }> }).refmap;
  const definitions = Object.values(refmap).map((r) => norm(r.destination));
  return { links, definitions, plain };
}

/** The differences between irilink and the reference for one example ('' when they agree). */
function compare(markdown: string): string {
  const ref = reference(markdown);
  const mine = findMarkdownLinks(markdown, { gfm: false });
  const problems: string[] = [];
  const expected = ref.links.filter((d) => d !== '' && !NEVER.test(d)).sort();
  const dropped = ref.links.filter((d) => d === '' || NEVER.test(d));
  const got = mine.filter((l) => l.construct !== 'bare' && l.construct !== 'definition').map((l) => norm(l.destination)).sort();
  if (JSON.stringify(got) !== JSON.stringify(expected)) problems.push(`links ${JSON.stringify(got)} ≠ ${JSON.stringify(expected)}`);
  if (dropped.length > 0) problems.push(`not linked: ${JSON.stringify(dropped)}`);
  const defsExpected = [...new Set(ref.definitions.filter((d) => d !== '' && !NEVER.test(d)))].sort();
  const defsGot = [...new Set(mine.filter((l) => l.construct === 'definition').map((l) => norm(l.destination)))].sort();
  if (JSON.stringify(defsGot) !== JSON.stringify(defsExpected)) {
    problems.push(`definitions ${JSON.stringify(defsGot)} ≠ ${JSON.stringify(defsExpected)}`);
  }
  for (const link of mine.filter((l) => l.construct === 'bare')) {
    if (!ref.plain.some((p) => p.includes(link.text))) problems.push(`bare ${JSON.stringify(link.text)} not in plain text`);
  }
  return problems.join('; ');
}

/** Examples where irilink differs from the reference on purpose: the difference, and why. */
const EMPTY = 'an empty destination is a link to the document itself in HTML; irilink reports no link (nothing to fetch or show)';
const KNOWN: Record<number, [string, string]> = {
  200: ['not linked: [""]', `[foo]: <> then [foo]: ${EMPTY}`],
  485: ['not linked: [""]', `[link](): ${EMPTY}`],
  486: ['not linked: [""]', `[link](<>): ${EMPTY}`],
  487: ['not linked: [""]', `[](): ${EMPTY}`],
  567: ['not linked: [""]', `[foo]() before a [foo] definition: ${EMPTY}`],
};

// The bare links of the whole spec: 602 and 608 are not autolinks in CommonMark (a space inside, a space after `<`),
// so their text is plain, and irilink's P3 (RFC 3986 Appendix C `<…>` wrapping) takes `<https://foo.bar/baz bim>` whole.
const BARE_LINKS = ['https://foo.bar/baz bim', 'https://foo.bar', 'https://example.com', 'foo@bar.example.com'];

const examples = (createRequire(import.meta.url)('commonmark-spec') as { tests: Example[] }).tests;

describe('Markdown mode against the CommonMark 0.31 reference (commonmark.js)', () => {
  it(`runs all ${examples.length} spec examples, bare links among them`, () => {
    expect(examples.length).to.equal(652);
    // The bare-link check is not vacuous: the spec writes URLs in code, HTML, autolinks and link text.
    const bare = examples.flatMap((ex) => findMarkdownLinks(ex.markdown.replace(/→/g, '\t'), { gfm: false }).filter((l) => l.construct === 'bare'));
    expect(bare.map((l) => l.text)).to.deep.equal(BARE_LINKS);
  });
  for (const ex of examples) {
    const markdown = ex.markdown.replace(/→/g, '\t');
    const known = KNOWN[ex.number];
    it(`example ${ex.number} (${ex.section})${known ? ' — known difference' : ''}`, () => {
      expect(compare(markdown)).to.equal(known ? known[0] : '');
    });
  }
});
