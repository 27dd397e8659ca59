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
// A text node holds its text as shown: backslash escapes and character references decoded, lines joined. Where the
// source is at hand (the file, and the node's position), the plugin reads it as the Markdown mode reads its runs of
// text (extract.ts): a line ending ends a run, escapes and character references do not, no link holds an escaped
// character, and a link may hold a reference (escapes.ts). `&lt;a@example.com&gt;` links the address,
// `pay&#112;al.com/login` links `paypal.com/login` (what it shows), and `lib&#95;example.net`, `pam\_unix.so` and
// `https://a.example/b\_c` link nothing, as in findMarkdownLinks.

import type { InlineCode, Link as MdastLink, Nodes, Parent, PhrasingContent, Root, Text } from 'mdast';
import { decodeString } from 'micromark-util-decode-string';
import { createScanner, findLinks, markEmbeddedLinks } from '../detect/index.js';
import type { Scanner } from '../detect/index.js';
import { controlReference, EmbeddingState } from '../detect/embedding.js';
import { badArgument, isOptionsObject } from '../errors.js';
import type { LinkOptions } from '../detect/index.js';
import { unsafeCodes } from '../render/common.js';
import type { Link } from '../types.js';
import { flagGluedByMarkup, headOf, NOT_GLUED, onlyHiddenMarkup, shownRunLinks, tailOf } from './escapes.js';
import type { Glued } from './escapes.js';
import { referenceEnd } from './fast.js';

/** Parents whose text is never linked: links already, and references to definitions. */
const SKIP = new Set(['link', 'linkReference']);

/**
 * remark plugin: `unified().use(remarkParse).use(remarkIrilink, options)`. The link node's `url` is irilink's
 * `uri` (the ASCII href), its text the link as written; `data.irilink` holds the whole irilink Link.
 */
export function remarkIrilink(options?: LinkOptions): (tree: object, file?: { value?: unknown }) => void {
  if (options !== undefined && !isOptionsObject(options)) {
    throw badArgument('remarkIrilink', 'options', 'an object or undefined', options);
  }
  findLinks('', options); // validates the options now (TypeError)
  const scanner = createScanner(options);
  // The tree is typed `object` so that irilink's declarations need no mdast types; it is an mdast Root. The file
  // (a VFile) is unified's second argument: its `value` is the source the tree was parsed from.
  return (tree: object, file?: { value?: unknown }) => {
    checkNode(tree);
    const source = typeof file?.value === 'string' ? file.value : undefined;
    const reading: Reading = { scanner, source, edits: new Map(), read: new Set() };
    visit(tree as Root, reading);
    // The plugin changes the tree in place, as remark's plugins do, once the whole tree is read: a frozen part
    // (which cannot take its links) fails the call before any part is changed.
    for (const list of reading.edits.keys()) {
      if (!Object.isExtensible(list)) throw badArgument('remarkIrilink', 'tree', 'an mdast tree it can change (not frozen)', list);
    }
    for (const [list, edits] of reading.edits) applyEdits(list, edits);
  };
}

/**
 * What visit() links with: the scanner for the options, and the source when it is at hand; what it found, by the
 * children array it changes: each text node to replace (its index) and what replaces it, in the array's order.
 */
interface Reading {
  scanner: Scanner;
  source: string | undefined;
  edits: Map<PhrasingContent[], [number, PhrasingContent[]][]>;
  /** The children arrays read: one that a tree holds twice is changed once. */
  read: Set<unknown>;
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

/**
 * What the inline nodes of one block share, read in document order: its EmbeddingState, and the inline HTML `<a …>`
 * anchors open (their text is a link already, also when an anchor opened inside emphasis: `*<a href="x">*
 * https://a.example/`, as in the Markdown mode).
 */
interface BlockState {
  bidi: EmbeddingState;
  anchors: number;
  /** The block's node. */
  root: Nodes;
  /** What each of its text nodes is glued to through hidden markup (glueOf), made when first asked. */
  glue?: Map<Text, [Glued, Glued]>;
}

function newBlock(root: Nodes): BlockState {
  return { bidi: new EmbeddingState(), anchors: 0, root };
}

/**
 * What a text node of the block is glued to before and after it through emphasis or strikethrough delimiters,
 * inline raw HTML (tags, comments and the like) or a code span's backtick strings (hidden-split, escapes.ts): the text or code node
 * before or after it in the block, when only such markup lies between the two in the source (a code node's place
 * includes its backtick strings, so it may touch the text). (A `*` that is text is in a text node: mdast joins
 * adjacent text.)
 */
function glueOf(block: BlockState, node: Text, source: string): [Glued, Glued] {
  if (block.glue === undefined) {
    const glue = new Map<Text, [Glued, Glued]>();
    const shown: (Text | InlineCode)[] = [];
    // The last shown node of a link written `[…](…)` or `[…][…]`: where the link ends (the rest is markup).
    const linkEnd = new Map<Text | InlineCode, number>();
    const collect = (n: Nodes): void => {
      if (n.type === 'text' || n.type === 'inlineCode') shown.push(n);
      else if ((n === block.root || INLINE.has(n.type)) && 'children' in n && Array.isArray(n.children)) {
        const before = shown.length;
        for (const c of n.children) collect(c as Nodes);
        const start = n.position?.start.offset;
        const end = n.position?.end.offset;
        if ((n.type === 'link' || n.type === 'linkReference') && shown.length > before && start !== undefined && end !== undefined && source.charCodeAt(start) === 0x5b) {
          linkEnd.set(shown[shown.length - 1]!, end);
        }
      }
    };
    collect(block.root);
    // joins[k]: shown[k] is glued to shown[k + 1]. What is seen on each side of a node is read over the nodes glued
    // to it, for a host dot and the code point beyond it (`` login.example`.`paypal.com ``).
    const joins = shown.map((a, k) => {
      const b = shown[k + 1];
      const end = linkEnd.get(a) ?? a.position?.end.offset;
      const start = b?.position?.start.offset;
      if (b === undefined || end === undefined || start === undefined || typeof a.value !== 'string' || typeof b.value !== 'string') return false;
      // (A code node's place includes its backticks, and a link's its `](…)`: they may touch what follows.)
      const touches = a.type === 'inlineCode' || b.type === 'inlineCode' || linkEnd.has(a);
      return (touches && end === start) || onlyHiddenMarkup(source, end, start);
    });
    let tail = '';
    for (let k = 0; k < shown.length; k++) {
      const node = shown[k]!;
      const before = k > 0 && joins[k - 1] ? tailOf(tail) : NOT_GLUED;
      // (16 units: two code points and the invisible characters before them; the ends of long values only.)
      let head = '';
      for (let j = k + 1; j < shown.length && joins[j - 1] && head.length < 16; j++) head += (shown[j]!.value as string).slice(0, 16);
      if (node.type === 'text') glue.set(node, [before, head === '' ? NOT_GLUED : headOf(head)]);
      const value = node.value as string;
      tail = value.length >= 16 ? value.slice(-16) : ((before === NOT_GLUED ? '' : tail) + value).slice(-16);
    }
    block.glue = glue;
  }
  return block.glue.get(node) ?? NONE_GLUED;
}

const NONE_GLUED: [Glued, Glued] = [NOT_GLUED, NOT_GLUED];

function visit(node: Nodes, reading: Reading, block = newBlock(node)): void {
  if (!('children' in node)) return;
  const { bidi } = block;
  if (SKIP.has(node.type)) {
    readText(node, bidi);
    return;
  }
  const parent = node as Parent;
  const children = parent.children;
  if (!Array.isArray(children)) checkNode(node);
  // A children array the tree holds twice is read each time (what is open in its block depends on it) and
  // changed once.
  const again = reading.read.has(children);
  reading.read.add(children);
  for (let i = 0; i < children.length; i++) {
    const child = children[i]!;
    checkNode(child);
    if (child.type === 'html') {
      const v = child.value as unknown;
      if (typeof v !== 'string') throw badArgument('remarkIrilink', 'tree', 'an mdast tree (each html value a string)', v);
      if (/^<a[\s>/]/i.test(v)) block.anchors++;
      else if (/^<\/a[\s>]/i.test(v) && block.anchors > 0) block.anchors--;
      continue;
    }
    if (child.type === 'inlineCode') {
      const v = child.value as unknown;
      if (typeof v === 'string') bidi.walkInline(v, 0, v.length);
      continue;
    }
    if (child.type !== 'text') {
      // A block child (a paragraph in a list item, a cell) starts a new block; an inline one shares this one.
      visit(child as Nodes, reading, INLINE.has(child.type) ? block : newBlock(child as Nodes));
      continue;
    }
    if (block.anchors > 0) {
      readText(child, bidi);
      continue;
    }
    const replacement = linkText(child, reading, bidi, block);
    if (replacement === undefined || again) continue;
    const list = children as PhrasingContent[];
    const edits = reading.edits.get(list);
    if (edits === undefined) reading.edits.set(list, [[i, replacement]]);
    else edits.push([i, replacement]);
  }
}

/**
 * Puts each replacement in the place of its text node, in one pass over the list (a splice for each would take time
 * in proportion to the list for each link node's text), and without passing nodes as arguments: a text node of many
 * links (more than about 60,000) would overflow the stack.
 */
function applyEdits(list: PhrasingContent[], edits: readonly [number, PhrasingContent[]][]): void {
  const old = list.slice();
  list.length = 0;
  let from = 0;
  for (const [at, nodes] of edits) {
    for (let k = from; k < at; k++) list.push(old[k]!);
    for (const node of nodes) list.push(node);
    from = at + 1;
  }
  for (let k = from; k < old.length; k++) list.push(old[k]!);
}

/** The text node split into text and link nodes, or undefined when it holds no link. */
function linkText(node: Text, reading: Reading, bidi: EmbeddingState, block: BlockState): PhrasingContent[] | undefined {
  const value = node.value as unknown;
  if (typeof value !== 'string') throw badArgument('remarkIrilink', 'tree', 'an mdast tree (each text value a string)', value);
  const found = linksAsShown(value, reading, node.position?.start.offset, node.position?.end.offset, () => glueOf(block, node, reading.source!));
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

/**
 * The links of a text node's value, read as the Markdown mode reads its runs (see the top of this file): each run
 * (the value between line endings and references to bidi controls) scanned alone, less the links that hold an
 * escaped character or cut a reference's text (escapes.ts). Without the source, or where the value cannot be found
 * in source[start, end), the value is read
 * whole, as plain text.
 */
function linksAsShown(value: string, reading: Reading, start: number | undefined, end: number | undefined, glue: () => [Glued, Glued]): Link[] {
  const shown = reading.source === undefined ? undefined : readSource(reading.source, start, end, value);
  let links: Link[];
  if (shown === undefined) {
    links = reading.scanner.scan(value, 0, true, 0).links;
  } else {
    links = [];
    const { escaped, references, breaks } = shown;
    let k = 0;
    let q = 0;
    for (let r = 0; r <= breaks.length; r += 2) {
      const from = r === 0 ? 0 : breaks[r - 1]!;
      const to = r < breaks.length ? breaks[r]! : value.length;
      if (to <= from) continue;
      const escapedInRun: number[] = [];
      while (k < escaped.length && escaped[k]! < to) escapedInRun.push(escaped[k++]!);
      const referencesInRun: number[] = [];
      for (; q < references.length && references[q]! < to; q += 2) referencesInRun.push(references[q]!, references[q + 1]!);
      const scanned = reading.scanner.scan(value.slice(from, to), 0, true, from);
      for (const link of shownRunLinks(scanned, escapedInRun, referencesInRun).links) links.push(link);
    }
    // hidden-split across the delimiters or tags around the node (glueOf): `pay*p*al.com`.
    if (links.length > 0) {
      const [before, after] = glue();
      flagGluedByMarkup(links, value, 0, 0, value.length, before, after);
    }
  }
  markEmbeddedLinks(value, links);
  return links;
}

const BACKSLASH = 0x5c;
const AMPERSAND = 0x26;
const LF = 0x0a;
const CR = 0x0d;


/** Where a text node's value shows its source other than as written (readSource). */
interface ShownSource {
  /** The offsets of the characters written with a backslash escape (§2.4). */
  escaped: number[];
  /** Pairs [from, to): a character reference's decoded text (§2.5), which a link may hold. */
  references: number[];
  /** Pairs [from, to) that end a run: each line ending, and a reference to a bidi control. */
  breaks: number[];
}

/**
 * Where `value`, a text node's value, shows source[start, end) other than as written (ShownSource). Read in step
 * with the source: what the value
 * leaves out (a line's indentation and `>` markers, spaces before a line ending) is skipped. undefined when the
 * node has no position in the source or the value does not follow it. (A skipped marker that equals the value's
 * next character, as in `> \>`, is taken for it; the escape is then missed, but no link starts with `>`, and line
 * endings end runs.)
 *
 *   source  "pam\_unix.so &lt;a@b.example&gt;⏎x"
 *   value   "pam_unix.so <a@b.example>⏎x"      escaped [3]   references [12, 13, 24, 25]   breaks [25, 26]
 */
function readSource(source: string, start: number | undefined, end: number | undefined, value: string): ShownSource | undefined {
  if (start === undefined || end === undefined || !(start >= 0 && start <= end && end <= source.length)) return undefined;
  const escaped: number[] = [];
  const references: number[] = [];
  const breaks: number[] = [];
  let i = start;
  let j = 0;
  while (j < value.length) {
    if (i >= end) return undefined;
    const c = source.charCodeAt(i);
    if (c === BACKSLASH && i + 1 < end && isEscapable(source.charCodeAt(i + 1)) && value.charCodeAt(j) === source.charCodeAt(i + 1)) {
      escaped.push(j);
      i += 2;
      j++;
      continue;
    }
    if (c === AMPERSAND) {
      const e = referenceEnd(source, i, end);
      const decoded = e === 0 ? '' : decodeString(source.slice(i, e));
      if (e > 0 && value.startsWith(decoded, j)) {
        (controlReference(source, i) === 0 ? references : breaks).push(j, j + decoded.length);
        i = e;
        j += decoded.length;
        continue;
      }
    }
    if (c === value.charCodeAt(j)) {
      if (c === LF || c === CR) breaks.push(j, j + 1);
      i++;
      j++;
      continue;
    }
    i++;
  }
  return { escaped, references, breaks };
}

/** ASCII punctuation, which a backslash escapes (CommonMark §2.4). */
function isEscapable(c: number): boolean {
  return (c >= 0x21 && c <= 0x2f) || (c >= 0x3a && c <= 0x40) || (c >= 0x5b && c <= 0x60) || (c >= 0x7b && c <= 0x7e);
}
