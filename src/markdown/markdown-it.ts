// A drop-in for markdown-it's `md.linkify` (the linkify-it interface), so that markdown-it's `linkify: true` finds
// links with irilink's detection (UTS #58 + P1–P8) and gives them irilink's `uri` as href.
//
//   const md = new MarkdownIt({ linkify: true });
//   md.linkify = irilinkLinkifyIt();
//
// markdown-it calls it in two places: the core rule `linkify` (test() then match() on each text token, after
// emphasis and links are parsed, skipping link text), and the inline rule `linkify` (matchAtStart() at each `://`).
// Its core rule hands over the text between two backslash escapes or entity references alone, and drops a link at the
// start of a text token right after one: `https://a.example/b\_c` links `https://a.example/b`, `&lt;a@b.example&gt;`
// links nothing; and it counts an inline `<a>` only when its `</a>` follows. The plugin irilinkMarkdownIt therefore
// puts its own core rule in that place (linkifyBlocks below), which reads the text tokens as the Markdown mode reads
// its runs of text: escapes and entity references continue a run, which is scanned as shown; no link holds an
// escaped character, and a link may hold a reference (escapes.ts: `pay&#112;al.com/login` links what it shows,
// `paypal.com/login`, not `al.com/login`); a reference to a bidi control ends a run; an `<a>` holds the rest of its
// block until its `</a>`.
// matchAtStart() answers null: the inline rule exists so that linkify-it's URL wins over emphasis, and irilink's
// Markdown policy is the opposite — `**https://x/**` links `https://x/` and keeps the emphasis.
// markdown-it then runs the url through normalizeLink (mdurl encode + punycode), the identity on irilink's `uri`
// (ASCII, UTF-8 percent-encoded, host through UTS #46): the href is the `uri` (test/markdown-plugins.test.ts).
//
// Not every link found is handed to markdown-it, which would make each one an <a>:
// - a link with one of the UNSAFE_DIAGNOSTICS (`mixed-script-host`, `confusable-host`, `idna-failed`, `userinfo`,
//   `bidi-control`, `conversion-failed`) stays text, as toHtml shows it as text (SECURITY.md);
// - so does a link whose text holds a `%XX` sequence that markdown-it would show decoded as a control or a
//   bidi formatting character (its normalizeLinkText decodes the shown text: `https://a.example/%E2%80%AEfdp.exe`
//   would show a real U+202E and read `https://a.example/exe.pdf`).
//
// markdown-it hands each text token to test()/match() alone (and the last first), so what an earlier token of the
// paragraph left open — an override written `&#x202E;` (a token of its own), or inside `*x*` or a code span — is not
// seen there. The plugin irilinkMarkdownIt adds a core rule after `linkify` that reads each block's inline tokens in
// order and turns back into text a link the `linkify` rule made while an override is open (`bidi-embedded`).
// There a control written as a character reference counts exactly where markdown-it decodes it (a `text_special`
// token: not in a code span, a destination or title, not escaped), closers as openers. md.linkify alone sees only
// the block's source as written (test()) and its text tokens: a reference to an opener counts anywhere in it, one to
// a closer nowhere (errs toward "open").
//
//   const md = new MarkdownIt().use(irilinkMarkdownIt, options);

import { createScanner, findLinks, markEmbeddedLinks } from '../detect/index.js';
import type { LinkOptions, Scanner } from '../detect/index.js';
import { DEFAULT_SCHEMES, NEVER_SCHEMES } from '../detect/index.js';
import { isSchemeName, isTldName } from '../detect/options.js';
import { DEFAULT_TLDS } from '../detect/tlds.js';
import { badArgument, isOptionsObject } from '../errors.js';
import { percentRevealsUnsafe, unsafeCodes } from '../render/common.js';
import type { Link } from '../types.js';
import { controlReference, EmbeddingState } from '../detect/embedding.js';
import { flagGluedByMarkup, headOf, isHiddenHtml, NOT_GLUED, shownRunLinks, tailOf } from './escapes.js';
import type { Glued } from './escapes.js';

/** One match, in linkify-it's shape. */
export interface LinkifyItMatch {
  /** `https:`, `mailto:`…, or '' for a link written without a scheme (linkify-it's "fuzzy" links). */
  schema: string;
  index: number;
  lastIndex: number;
  raw: string;
  /** The link as written (markdown-it shows it through normalizeLinkText). */
  text: string;
  /** irilink's `uri`: what markdown-it puts in href. */
  url: string;
  /** The irilink Link behind the match. */
  link: Link;
}

/** The part of linkify-it's interface markdown-it uses, and its configuration methods. */
export interface LinkifyItLike {
  pretest(text: string): boolean;
  test(text: string): boolean;
  match(text: string): LinkifyItMatch[] | null;
  matchAtStart(text: string): LinkifyItMatch | null;
  testSchemaAt(text: string, schema: string, pos: number): number;
  /**
   * linkify-it's `add(schema, definition)`: a definition of null removes a scheme (and turns `anyScheme` off;
   * `add('//', null)`, linkify-it's protocol-relative rule, does only that),
   * anything else adds the scheme (irilink's own rules find its end, not the definition's validator).
   */
  add(schema: string, definition: unknown): this;
  /** linkify-it's `tlds(list, keepOld)`: the TLDs accepted for links without a scheme (and emails). */
  tlds(list: string | readonly string[], keepOld?: boolean): this;
  /** linkify-it's `set({ fuzzyLink, fuzzyEmail })`: schemeless links and emails on or off. */
  set(options?: { fuzzyLink?: boolean; fuzzyEmail?: boolean; fuzzyIP?: boolean }): this;
}

class IrilinkLinkifyIt implements LinkifyItLike {
  private options: LinkOptions;
  /** The text of the last test() and its links: markdown-it calls match() right after test() on the same text. */
  private lastText: string | undefined;
  private lastLinks: Link[] = [];

  /**
   * irilinkMarkdownIt's: `bidi-embedded` is left to its core rule, which reads the block's tokens in order with
   * character references decoded (a closer written `&#x202C;` closes there). Alone (irilinkLinkifyIt), the text
   * handed over is judged with the Markdown rules: markdown-it's test() gets a block's source as written, where a
   * reference to an opener is the only sign of an override its text tokens do not show.
   */
  private readonly coreRule: boolean;
  /** The scanner for the current options (linksOfRun). */
  private scanner: Scanner;

  /** `fn`: the function that argument errors name (irilinkLinkifyIt, or irilinkMarkdownIt that makes one). */
  constructor(options: LinkOptions | undefined, fn = 'irilinkLinkifyIt', coreRule = false) {
    this.coreRule = coreRule;
    if (options !== undefined && !isOptionsObject(options)) {
      throw badArgument(fn, 'options', 'an object or undefined', options);
    }
    this.options = { ...(options ?? {}) };
    findLinks('', this.options); // validates the options now (TypeError), not at the first render
    this.scanner = createScanner(this.options);
  }

  private links(text: string, method = 'match'): Link[] {
    checkText(method, text);
    if (text !== this.lastText) {
      const found = findLinks(text, this.options);
      if (this.coreRule) {
        this.lastLinks = found.filter((link) => isSafeToLink(link, true));
      } else {
        // A soft line break is a space in the rendered paragraph (when markdown-it hands over text holding one).
        markEmbeddedLinks(text, found, true);
        this.lastLinks = found.filter((link) => isSafeToLink(link, false));
      }
      this.lastText = text;
    }
    return this.lastLinks;
  }

  /**
   * irilinkMarkdownIt's core rule: the links of a run of text as shown, `escaped` the offsets of its escaped
   * characters and `references` its references' decoded text (escapes.ts), `before` and `after` what is glued to it
   * through emphasis or tags (flagGluedByMarkup), less those markdown-it may not make an <a> (`bidi-embedded` is decided
   * after).
   * @internal
   */
  linksOfRun(text: string, escaped: readonly number[], references: readonly number[], glue: () => [Glued, Glued]): Link[] {
    if (!this.pretest(text)) return [];
    const scanned = this.scanner.scan(text, 0, true, 0);
    const { links } = shownRunLinks(scanned, escaped, references);
    // What the run is glued to is looked for only when it has links: a long stretch of tags and delimiters, between
    // runs that hold none, is not read once per run (that was quadratic).
    if (links.length > 0) {
      const [before, after] = glue();
      flagGluedByMarkup(links, text, 0, 0, text.length, before, after);
    }
    return links.filter((link) => isSafeToLink(link, true));
  }

  // A link needs a trigger: `.` or `。` (a domain), `:` (a scheme). UTS #58 §3 starts every link at one of them.
  pretest(text: string): boolean {
    checkText('pretest', text);
    return text.includes('.') || text.includes(':') || text.includes('\u3002');
  }

  test(text: string): boolean {
    checkText('test', text);
    return this.pretest(text) && this.links(text, 'test').length > 0;
  }

  match(text: string): LinkifyItMatch[] | null {
    const links = this.links(text);
    return links.length === 0 ? null : links.map(toMatch);
  }

  matchAtStart(text: string): LinkifyItMatch | null {
    checkText('matchAtStart', text);
    return null;
  }

  /**
   * linkify-it's contract: `pos` is just after `schema` (`https:`, `mailto:`, `//`), and the answer is the length of
   * the link's rest from `pos`, 0 when there is none. As linkify-it's validators, it reads only the text from `pos`
   * on, as if `schema` stood right before it: the link of `schema + text.slice(pos)` that starts with the schema
   * (after `//`, protocol-relative, which irilink links from the host; and as linkify-it's `//` rule, none when a
   * `:` or `/` stands before the `//`, `a://…` and `///…`, which would be an error in a scheme name).
   */
  testSchemaAt(text: string, schema: string, pos: number): number {
    checkText('testSchemaAt', text);
    if (typeof schema !== 'string' || schema === '') throw badArgument('linkify.testSchemaAt', 'schema', 'a non-empty string', schema);
    if (!Number.isInteger(pos) || pos < 0) throw badArgument('linkify.testSchemaAt', 'pos', 'a non-negative integer', pos);
    const link = findLinks(schema + text.slice(pos), this.options).find((l) => isSafeToLink(l, false));
    if (schema === '//' && pos >= 3 && (text.charCodeAt(pos - 3) === 0x3a || text.charCodeAt(pos - 3) === 0x2f)) return 0;
    const start = schema === '//' ? 2 : 0;
    return link === undefined || link.start !== start || link.end <= schema.length ? 0 : link.end - schema.length;
  }

  add(schema: string, definition: unknown): this {
    // `//` (protocol-relative) is one of linkify-it's default rules, and its README turns a rule off with
    // `add(key, null)`: accepted, as every removal it turns anyScheme off. irilink has no `//` rule to add to.
    if (schema === '//' && definition === null) {
      this.reset({ ...this.options, anyScheme: false });
      return this;
    }
    // linkify-it's other schema keys are scheme names with their colon (`skype:`).
    const bare = typeof schema === 'string' && schema.endsWith(':') ? schema.slice(0, -1) : schema;
    if (typeof bare !== 'string' || !isSchemeName(bare)) {
      throw badArgument('linkify.add', 'schema', 'a scheme name (RFC 3986 §3.1), with or without its ":"', schema);
    }
    if (NEVER_SCHEMES.includes(bare.toLowerCase()) && definition !== null) {
      throw badArgument('linkify.add', 'schema', 'a scheme other than javascript, vbscript or data (they are never linked)', schema);
    }
    const name = schema.endsWith(':') ? schema.slice(0, -1).toLowerCase() : schema.toLowerCase();
    const current = [...(this.options.schemes ?? DEFAULT_SCHEMES)];
    const schemes = definition === null ? current.filter((s) => s !== name) : current.includes(name) ? current : [...current, name];
    // Removing a scheme also turns P2's "any scheme://" off, or the scheme would still be linked through it.
    this.reset(definition === null ? { ...this.options, schemes, anyScheme: false } : { ...this.options, schemes });
    return this;
  }

  tlds(list: string | readonly string[], keepOld = false): this {
    if (!(isTldName(list) || (Array.isArray(list) && everyItem(list, isTldName)))) {
      throw badArgument('linkify.tlds', 'list', 'a top-level domain or an array of them (one label each, no dots)', list);
    }
    if (typeof keepOld !== 'boolean') throw badArgument('linkify.tlds', 'keepOld', 'a boolean', keepOld);
    const added = typeof list === 'string' ? [list] : [...list];
    this.reset({ ...this.options, tlds: keepOld ? [...(this.options.tlds ?? [...DEFAULT_TLDS]), ...added] : added });
    return this;
  }

  set(options: { fuzzyLink?: boolean; fuzzyEmail?: boolean; fuzzyIP?: boolean } | undefined): this {
    // undefined changes nothing, as in linkify-it (its set() skips a missing options object).
    if (options === undefined) return this;
    if (!isOptionsObject(options)) {
      throw badArgument('linkify.set', 'options', 'an object or undefined', options);
    }
    // Other names are linkify-it options irilink has no use for ('---'), accepted as linkify-it accepts them.
    for (const name of ['fuzzyLink', 'fuzzyEmail', 'fuzzyIP'] as const) {
      const v = options[name];
      if (v !== undefined && typeof v !== 'boolean') throw badArgument('linkify.set', `options.${name}`, 'a boolean', v);
    }
    const next: LinkOptions = { ...this.options };
    if (options.fuzzyLink !== undefined) next.schemeless = options.fuzzyLink;
    if (options.fuzzyEmail !== undefined) next.email = options.fuzzyEmail;
    this.reset(next);
    return this;
  }

  private reset(options: LinkOptions): void {
    findLinks('', options);
    this.options = options;
    this.scanner = createScanner(options);
    this.lastText = undefined;
  }
}

/** Array.prototype.every, holes included (every() skips the holes of a sparse array). */
function everyItem(list: readonly unknown[], test: (x: unknown) => boolean): boolean {
  for (let i = 0; i < list.length; i++) if (!test(list[i])) return false;
  return true;
}

/** The text argument of the linkify-it methods: a string, as markdown-it gives them. */
function checkText(method: string, text: unknown): void {
  if (typeof text !== 'string') throw badArgument(`linkify.${method}`, 'text', 'a string', text);
}

/**
 * Whether markdown-it may make `link` an <a> (see the top of this file). `embeddedLater`: `bidi-embedded` is
 * decided afterwards, by irilinkMarkdownIt's core rule.
 */
function isSafeToLink(link: Link, embeddedLater: boolean): boolean {
  const unsafe = unsafeCodes(link.diagnostics);
  const refused = embeddedLater ? unsafe.filter((code) => code !== 'bidi-embedded') : unsafe;
  return refused.length === 0 && !percentRevealsUnsafe(link.text);
}

function toMatch(link: Link): LinkifyItMatch {
  return {
    schema: link.schemeInferred && link.kind === 'url' ? '' : link.scheme + ':',
    index: link.start,
    lastIndex: link.end,
    raw: link.text,
    text: link.text,
    url: link.uri,
    link,
  };
}

/**
 * A linkify-it look-alike backed by irilink's detection, for `md.linkify = irilinkLinkifyIt(options)` with
 * markdown-it's `linkify: true`. Throws a TypeError for a bad option.
 */
export function irilinkLinkifyIt(options?: LinkOptions): LinkifyItLike {
  return new IrilinkLinkifyIt(options);
}

/** The part of a markdown-it Token the plugin reads and writes. */
interface TokenLike {
  type: string;
  content: string;
  markup: string;
  info: string;
  level: number;
  attrs: [string, string | number][] | null;
  children: TokenLike[] | null;
}

/** The part of markdown-it's core rule state the plugin uses. */
interface CoreStateLike {
  tokens: TokenLike[];
  Token: new (type: string, tag: string, nesting: -1 | 0 | 1) => TokenLike;
  md: {
    options: { linkify?: boolean };
    normalizeLink(url: string): string;
    normalizeLinkText(text: string): string;
    validateLink(url: string): boolean;
  };
}

/** The part of a MarkdownIt instance the plugin uses. */
export interface MarkdownItLike {
  linkify: unknown;
  set(options: { linkify: boolean }): unknown;
  core: {
    ruler: {
      at(name: string, rule: (state: CoreStateLike) => void): void;
      after(after: string, name: string, rule: (state: CoreStateLike) => void): void;
    };
  };
}

/**
 * markdown-it plugin: `new MarkdownIt().use(irilinkMarkdownIt, options)`. Sets `md.linkify` to
 * irilinkLinkifyIt(options), turns markdown-it's `linkify` on, puts irilink's rule in the place of markdown-it's
 * core rule `linkify` (see the top of this file: escapes and entity references are read as the Markdown mode reads
 * them), and adds the core rule `irilink_bidi`: a link made where an embedding, override or isolate opened earlier in
 * the same block (a paragraph, a heading, a table cell) is still open stays text. Throws a TypeError for a bad
 * option or an `md` that is no MarkdownIt instance.
 */
export function irilinkMarkdownIt(md: MarkdownItLike, options?: LinkOptions): void {
  const ruler = md !== null && typeof md === 'object' ? (md as Partial<MarkdownItLike>).core?.ruler : undefined;
  if (typeof ruler?.after !== 'function' || typeof ruler.at !== 'function' || typeof md.set !== 'function') {
    throw badArgument('irilinkMarkdownIt', 'md', 'a MarkdownIt instance', md);
  }
  const linkify = new IrilinkLinkifyIt(options, 'irilinkMarkdownIt', true);
  md.linkify = linkify;
  md.set({ linkify: true });
  ruler.at('linkify', (state) => linkifyBlocks(state, linkify));
  ruler.after('linkify', 'irilink_bidi', unlinkEmbedded);
}

/** markdown-it's own test for an inline HTML anchor (its core rule `linkify`): no link inside `<a …>…</a>`. */
const ANCHOR_OPEN = /^<a[>\s]/i;
const ANCHOR_CLOSE = /^<\/a\s*>/i;

/**
 * The core rule in the place of markdown-it's `linkify`: in each block's inline tokens, outside links and inline
 * `<a>` anchors (an `<a>` not closed in the block holds the rest of it, as in the Markdown mode), the runs of `text`
 * tokens, backslash escapes and entity references are linked (linkifyRun). Anything else ends a run: emphasis,
 * code, a reference to a bidi control (as in the Markdown mode), a line break.
 */
function linkifyBlocks(state: CoreStateLike, linkify: IrilinkLinkifyIt): void {
  if (state.md.options.linkify !== true) return;
  for (const block of state.tokens) {
    const children = block.children;
    // (A reference may write the trigger: `example&period;com`.)
    if (block.type !== 'inline' || children === null || !(linkify.pretest(block.content) || block.content.includes('&'))) continue;
    const out: TokenLike[] = [];
    let run: TokenLike[] = [];
    let links = 0;
    let anchors = 0;
    for (let i = 0; i < children.length; i++) {
      const token = children[i]!;
      if (links === 0 && anchors === 0 && (token.type === 'text' || (token.type === 'text_special' && joinsRun(token)))) {
        run.push(token);
        continue;
      }
      if (run.length > 0) {
        const first = i - run.length;
        const last = i - 1;
        append(out, linkifyRun(state, linkify, run, () => [gluedTo(children, first, -1), gluedTo(children, last, 1)]));
      }
      run = [];
      if (token.type === 'link_open') links++;
      else if (token.type === 'link_close' && links > 0) links--;
      else if (token.type === 'html_inline' && ANCHOR_OPEN.test(token.content)) anchors++;
      else if (token.type === 'html_inline' && ANCHOR_CLOSE.test(token.content) && anchors > 0) anchors--;
      out.push(token);
    }
    if (run.length > 0) {
      const first = children.length - run.length;
      append(out, linkifyRun(state, linkify, run, () => [gluedTo(children, first, -1), NOT_GLUED]));
    }
    block.children = out;
  }
}

/** The tokens of emphasis and strikethrough delimiters, which a reader does not see. */
const DELIMITERS = new Set(['em_open', 'em_close', 'strong_open', 'strong_close', 's_open', 's_close']);

/**
 * What a reader sees glued to the run whose edge token is children[edge], through delimiter and tag tokens, looking
 * before it (`step` −1) or after it (1): the nearest code points of the text or code span beyond them (escapes.ts
 * flagGluedByMarkup: hidden-split across markup, `pay*p*al.com/login`, `` pay`p`al.com/login ``).
 */
function gluedTo(children: readonly TokenLike[], edge: number, step: 1 | -1): Glued {
  let k = edge + step;
  let crossed = false;
  // (markdown-it leaves an empty text token where a delimiter run was used up.)
  for (; k >= 0 && k < children.length; k += step) {
    if (hidden(children, k)) crossed = true;
    else if (children[k]!.type !== 'text' || children[k]!.content !== '') break;
  }
  // A code span's backtick strings are markup too; its content is shown (CommonMark §6.1).
  if (!crossed && children[k]?.type !== 'code_inline') return NOT_GLUED;
  // The text beyond, over as many text tokens as it takes for two code points and the invisible characters before
  // them (16 units; an entity is a token of its own), and over more hidden markup (`example<b>.</b>pal.com`: a host
  // dot and one).
  let text = '';
  for (; k >= 0 && k < children.length && text.length < 16; k += step) {
    const token = children[k]!;
    if (hidden(children, k)) continue;
    if (token.type !== 'text' && token.type !== 'text_special' && token.type !== 'code_inline') break;
    text = step === 1 ? text + token.content.slice(0, 16) : token.content.slice(-16) + text;
  }
  return step === 1 ? headOf(text) : tailOf(text);
}

/**
 * Whether a token is markup a reader does not see: an emphasis or strikethrough delimiter, inline raw HTML shown
 * as nothing (a tag, a comment and the like), the opening or closing of a link the author wrote with `[…](…)` or `[…][…]` (its text is shown; an
 * autolink's `<…>` is not hidden, as in the Markdown mode).
 */
function hidden(children: readonly TokenLike[], k: number): boolean {
  const token = children[k]!;
  if (token.type === 'link_open' || token.type === 'link_close') {
    // (A link with no text, `[](…)`, is read as the Markdown mode and remark read it: not looked through.)
    const empty = token.type === 'link_open' ? children[k + 1]?.type === 'link_close' : children[k - 1]?.type === 'link_open';
    return !empty && token.markup !== 'autolink' && token.markup !== 'linkify';
  }
  return DELIMITERS.has(token.type) || (token.type === 'html_inline' && isHiddenHtml(token.content));
}

/**
 * Whether a `text_special` token continues a run of text: an escape, or an entity reference (markdown-it decodes
 * it into its `content`; `markup` is the reference as written) unless to a bidi control, which ends the run as in
 * the Markdown mode (extract.ts PieceReader.reference).
 */
function joinsRun(token: TokenLike): boolean {
  return token.info === 'escape' || (token.info === 'entity' && controlReference(token.markup, 0) === 0);
}

/**
 * A run of text tokens, escapes and entity references, with its links made link tokens as markdown-it's linkify
 * makes them (href normalizeLink(uri), shown text normalizeLinkText(text), markup 'linkify'). An escape token
 * (CommonMark §2.4, its `markup` the backslash and its `content`) shows its character; markdown-it also gives `\a`
 * or `\ ` such a token, with the backslash in its content: text as written. An entity token (§2.5) shows its decoded
 * text, which a link may hold (escapes.ts).
 *
 *   tokens "see " "\_" "dmarc.example.com and https://a.example/"   shown "see _dmarc.example.com and https://a.example/"
 *                                                                   → one link, https://a.example/
 *   tokens "pay" "&#112;" "al.com/login"                            shown "paypal.com/login" → one link
 */
function linkifyRun(state: CoreStateLike, linkify: IrilinkLinkifyIt, run: TokenLike[], glue: () => [Glued, Glued]): TokenLike[] {
  const starts: number[] = [];
  const escaped: number[] = [];
  const references: number[] = [];
  let text = '';
  for (const token of run) {
    starts.push(text.length);
    if (token.type === 'text_special') {
      if (token.info === 'entity') references.push(text.length, text.length + token.content.length);
      else if (token.markup === '\\' + token.content) escaped.push(text.length);
    }
    text += token.content;
  }
  const links = linkify.linksOfRun(text, escaped, references, glue);
  if (links.length === 0) return run;
  const out: TokenLike[] = [];
  const level = run[0]!.level;
  // The tokens (or parts of text) covering text[from, to): a link holds no escape token and cuts no entity token
  // (shownRunLinks), so only text tokens are cut.
  let t = 0;
  const copy = (from: number, to: number): void => {
    while (t < run.length && starts[t]! + run[t]!.content.length <= from) t++;
    for (let k = t; k < run.length && starts[k]! < to; k++) {
      const s = starts[k]!;
      const token = run[k]!;
      if (s >= from && s + token.content.length <= to) out.push(token);
      else out.push(textToken(state, token.content.slice(Math.max(from, s) - s, Math.min(to, s + token.content.length) - s), level));
    }
  };
  let pos = 0;
  for (const link of links) {
    const href = state.md.normalizeLink(link.uri);
    if (!state.md.validateLink(href)) continue;
    copy(pos, link.start);
    const open = new state.Token('link_open', 'a', 1);
    open.attrs = [['href', href]];
    open.level = level;
    open.markup = 'linkify';
    open.info = 'auto';
    const close = new state.Token('link_close', 'a', -1);
    close.level = level;
    close.markup = 'linkify';
    close.info = 'auto';
    out.push(open, textToken(state, shownLinkText(state, toMatch(link)), level + 1), close);
    pos = link.end;
  }
  copy(pos, text.length);
  return out;
}

/** out.push(...tokens), without passing them as arguments (more than about 120,000 overflow the stack). */
function append(out: TokenLike[], tokens: readonly TokenLike[]): void {
  for (const token of tokens) out.push(token);
}

function textToken(state: CoreStateLike, content: string, level: number): TokenLike {
  const token = new state.Token('text', '', 0);
  token.content = content;
  token.level = level;
  return token;
}

/** A link's text as markdown-it's linkify shows it: through normalizeLinkText, with a scheme for a link without one. */
function shownLinkText(state: CoreStateLike, match: LinkifyItMatch): string {
  const md = state.md;
  if (match.schema === '') return md.normalizeLinkText(`http://${match.text}`).replace(/^http:\/\//, '');
  if (match.schema === 'mailto:' && !/^mailto:/i.test(match.text)) return md.normalizeLinkText(`mailto:${match.text}`).replace(/^mailto:/, '');
  return md.normalizeLinkText(match.text);
}

/**
 * The core rule: each block's inline tokens read in order through EmbeddingState (UAX #9 X1–X8; text, character
 * references, code spans; a soft or hard line break closes nothing, which errs toward "open"); a linkify link
 * (`markup` 'linkify') that starts while something is open is replaced by a text token of its text.
 */
function unlinkEmbedded(state: CoreStateLike): void {
  for (const block of state.tokens) {
    const children = block.children;
    if (block.type !== 'inline' || children === null) continue;
    const bidi = new EmbeddingState();
    for (let i = 0; i < children.length; i++) {
      const token = children[i]!;
      if (token.type === 'link_open' && token.markup === 'linkify' && bidi.open) {
        let close = i + 1;
        while (close < children.length && children[close]!.type !== 'link_close') close++;
        const text = textToken(state, children.slice(i + 1, close).map((t) => t.content).join(''), token.level);
        children.splice(i, close - i + 1, text);
        bidi.walkInline(text.content, 0, text.content.length);
      } else if (token.type === 'text' || token.type === 'text_special' || token.type === 'code_inline') {
        bidi.walkInline(token.content, 0, token.content.length);
      }
    }
  }
}
