// A remark (unified) plugin: bare links in mdast text nodes become link nodes, with irilink's detection.
//
//   const file = await remark().use(remarkIrilink).process('see https://例え.jp/パス。');
//   String(file) // 'see [https://例え.jp/パス](https://xn--r8jz45g.jp/%E3%83%91%E3%82%B9)。\n'
//
// Only `text` nodes are read, so nothing in code, inline code or HTML is linked; text inside links and link
// references (and image alt text, which is no text node) is left alone: CommonMark does not nest links. Nor is
// text between an inline HTML `<a …>` and its `</a>`. Emphasis
// splits text nodes, so `**https://x/**` links `https://x/` inside the strong node.
// A link with one of the UNSAFE_DIAGNOSTICS (`confusable-host`, `userinfo`, …) stays text, as toHtml shows it
// (SECURITY.md: a flagged link is never clickable).

import type { Link as MdastLink, Nodes, Parent, PhrasingContent, Root, Text } from 'mdast';
import { findLinks } from '../detect/index.js';
import { EmbeddingState } from '../detect/embedding.js';
import { badArgument, isOptionsObject } from '../errors.js';
import type { LinkOptions } from '../detect/index.js';
import { unsafeCodes } from '../render/common.js';

/** Parents whose text is never linked: links already, and references to definitions. */
const SKIP = new Set(['link', 'linkReference']);

/**
 * remark plugin: `unified().use(remarkParse).use(remarkIrilink, options)`. The link node's `url` is irilink's
 * `uri` (the ASCII href), its text the link as written; `data.irilink` holds the whole irilink Link.
 */
export function remarkIrilink(options?: LinkOptions): (tree: object) => void {
  if (options !== undefined && !isOptionsObject(options)) {
    throw badArgument('remarkIrilink', 'options', 'an object or undefined', options);
  }
  findLinks('', options); // validates the options now (TypeError)
  // The tree is typed `object` so that irilink's declarations need no mdast types; it is an mdast Root.
  return (tree: object) => {
    checkNode(tree);
    visit(tree as Root, options);
  };
}

/** An mdast node as visit() reads it: an object, its `children` (when it has them) an array. */
function checkNode(node: unknown): void {
  if (node === null || typeof node !== 'object') throw badArgument('remarkIrilink', 'tree', 'an mdast tree (its children arrays of node objects)', node);
  const children = (node as { children?: unknown }).children;
  if (children !== undefined && !Array.isArray(children)) {
    throw badArgument('remarkIrilink', 'tree', 'an mdast tree (each children an array of nodes)', children);
  }
}

/**
 * Nodes whose children are phrasing content shown in their parent's block: an override opened in one of them runs
 * on after it (`\u202E *x* https://…`: the override is in the emphasis, the link after it), so they share the
 * block's EmbeddingState, read in document order (UAX #9 X1–X8; a soft line break is a space, so only a new block
 * starts a new state).
 */
const INLINE = new Set(['emphasis', 'strong', 'delete', 'link', 'linkReference']);

function visit(node: Nodes, options: LinkOptions | undefined, bidi = new EmbeddingState()): void {
  if (!('children' in node)) return;
  if (SKIP.has(node.type)) {
    readText(node, bidi);
    return;
  }
  const parent = node as Parent;
  const children = parent.children;
  if (!Array.isArray(children)) checkNode(node);
  let anchors = 0; // inline HTML `<a …>` open among these siblings: their text is a link already
  for (let i = 0; i < children.length; i++) {
    const child = children[i]!;
    checkNode(child);
    if (child.type === 'html') {
      const v = child.value as unknown;
      if (typeof v !== 'string') throw badArgument('remarkIrilink', 'tree', 'an mdast tree (each html value a string)', v);
      if (/^<a[\s>/]/i.test(v)) anchors++;
      else if (/^<\/a[\s>]/i.test(v) && anchors > 0) anchors--;
      continue;
    }
    if (child.type === 'inlineCode') {
      const v = child.value as unknown;
      if (typeof v === 'string') bidi.walkInline(v, 0, v.length);
      continue;
    }
    if (child.type !== 'text') {
      // A block child (a paragraph in a list item, a cell) starts a new bidi paragraph; an inline one shares it.
      visit(child as Nodes, options, INLINE.has(child.type) ? bidi : new EmbeddingState());
      continue;
    }
    if (anchors > 0) {
      readText(child, bidi);
      continue;
    }
    const replacement = linkText(child, options, bidi);
    if (replacement === undefined) continue;
    children.splice(i, 1, ...(replacement as typeof children));
    i += replacement.length - 1;
  }
}

/** The text node split into text and link nodes, or undefined when it holds no link. */
function linkText(node: Text, options: LinkOptions | undefined, bidi: EmbeddingState): PhrasingContent[] | undefined {
  const value = node.value as unknown;
  if (typeof value !== 'string') throw badArgument('remarkIrilink', 'tree', 'an mdast tree (each text value a string)', value);
  const found = findLinks(value, options);
  // What is open where each link starts, the block's text before this node included; a soft line break is a
  // space in the rendered paragraph, so an override before it still reverses a link after it.
  let pos = 0;
  for (const link of found) {
    bidi.walkInline(value, pos, link.start);
    pos = link.start;
    if (bidi.open && !link.diagnostics.includes('bidi-embedded')) link.diagnostics = [...link.diagnostics, 'bidi-embedded'];
  }
  bidi.walkInline(value, pos, value.length);
  const links = found.filter((link) => unsafeCodes(link.diagnostics).length === 0);
  if (links.length === 0) return undefined;
  const out: PhrasingContent[] = [];
  pos = 0;
  for (const link of links) {
    if (link.start > pos) out.push({ type: 'text', value: value.slice(pos, link.start) });
    const linkNode: MdastLink = {
      type: 'link',
      url: link.uri,
      title: null,
      children: [{ type: 'text', value: link.text }],
      data: { irilink: link } as MdastLink['data'],
    };
    out.push(linkNode);
    pos = link.end;
  }
  if (pos < value.length) out.push({ type: 'text', value: value.slice(pos) });
  return out;
}

/** Reads the text nodes under `node` (and its inline code) into `bidi`, linking nothing. */
function readText(node: Nodes, bidi: EmbeddingState): void {
  if (node.type === 'text' || node.type === 'inlineCode') {
    const v = node.value as unknown;
    if (typeof v === 'string') bidi.walkInline(v, 0, v.length);
    return;
  }
  if (!('children' in node) || !Array.isArray(node.children)) return;
  for (const child of node.children) {
    checkNode(child);
    readText(child as Nodes, bidi);
  }
}
