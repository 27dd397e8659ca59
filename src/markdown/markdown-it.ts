// A drop-in for markdown-it's `md.linkify` (the linkify-it interface), so that markdown-it's `linkify: true` finds
// links with irilink's detection (UTS #58 + P1–P8) and gives them irilink's `uri` as href.
//
//   const md = new MarkdownIt({ linkify: true });
//   md.linkify = irilinkLinkifyIt();
//
// markdown-it calls it in two places: the core rule `linkify` (test() then match() on each text token, after
// emphasis and links are parsed, skipping link text), and the inline rule `linkify` (matchAtStart() at each `://`).
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
// order and turns back into text a link markdown-it's linkify made while an override is open (`bidi-embedded`).
// There a control written as a character reference counts exactly where markdown-it decodes it (a `text_special`
// token: not in a code span, a destination or title, not escaped), closers as openers. md.linkify alone sees only
// the block's source as written (test()) and its text tokens: a reference to an opener counts anywhere in it, one to
// a closer nowhere (errs toward "open").
//
//   const md = new MarkdownIt().use(irilinkMarkdownIt, options);

import { findLinks, markEmbeddedLinks } from '../detect/index.js';
import type { LinkOptions } from '../detect/index.js';
import { DEFAULT_SCHEMES, NEVER_SCHEMES } from '../detect/index.js';
import { isSchemeName, isTldName } from '../detect/options.js';
import { DEFAULT_TLDS } from '../detect/tlds.js';
import { badArgument, isOptionsObject } from '../errors.js';
import { percentRevealsUnsafe, unsafeCodes } from '../render/common.js';
import type { Link } from '../types.js';
import { EmbeddingState } from '../detect/embedding.js';

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

  /** `fn`: the function that argument errors name (irilinkLinkifyIt, or irilinkMarkdownIt that makes one). */
  constructor(options: LinkOptions | undefined, fn = 'irilinkLinkifyIt', coreRule = false) {
    this.coreRule = coreRule;
    if (options !== undefined && !isOptionsObject(options)) {
      throw badArgument(fn, 'options', 'an object or undefined', options);
    }
    this.options = { ...(options ?? {}) };
    findLinks('', this.options); // validates the options now (TypeError), not at the first render
  }

  private links(text: string, method = 'match'): Link[] {
    checkText(method, text);
    if (text !== this.lastText) {
      const found = findLinks(text, this.options);
      if (this.coreRule) {
        this.lastLinks = found.filter((link) => isSafeToLink(link, true));
      } else {
        // A soft line break is a space in the rendered paragraph (when markdown-it hands over text holding one).
        markEmbeddedLinks(text, found, 0, true);
        this.lastLinks = found.filter((link) => isSafeToLink(link, false));
      }
      this.lastText = text;
    }
    return this.lastLinks;
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

  testSchemaAt(text: string, _schema: string, pos: number): number {
    if (!Number.isInteger(pos) || pos < 0) throw badArgument('linkify.testSchemaAt', 'pos', 'a non-negative integer', pos);
    const link = this.links(text, 'testSchemaAt').find((l) => l.start === pos);
    return link === undefined ? 0 : link.end - pos;
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
    const current = this.options.schemes ?? DEFAULT_SCHEMES;
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
  children: TokenLike[] | null;
}

/** The part of markdown-it's core rule state the plugin uses. */
interface CoreStateLike {
  tokens: TokenLike[];
  Token: new (type: string, tag: string, nesting: 0) => TokenLike;
}

/** The part of a MarkdownIt instance the plugin uses. */
export interface MarkdownItLike {
  linkify: unknown;
  set(options: { linkify: boolean }): unknown;
  core: { ruler: { after(after: string, name: string, rule: (state: CoreStateLike) => void): void } };
}

/**
 * markdown-it plugin: `new MarkdownIt().use(irilinkMarkdownIt, options)`. Sets `md.linkify` to
 * irilinkLinkifyIt(options), turns markdown-it's `linkify` on, and adds the core rule `irilink_bidi` (see the top of
 * this file): a link markdown-it's linkify made where an embedding, override or isolate opened earlier in the same
 * block (a paragraph, a heading, a table cell) is still open stays text. Throws a TypeError for a bad option or
 * an `md` that is no MarkdownIt instance.
 */
export function irilinkMarkdownIt(md: MarkdownItLike, options?: LinkOptions): void {
  const ruler = md !== null && typeof md === 'object' ? (md as Partial<MarkdownItLike>).core?.ruler : undefined;
  if (typeof ruler?.after !== 'function' || typeof md.set !== 'function') {
    throw badArgument('irilinkMarkdownIt', 'md', 'a MarkdownIt instance', md);
  }
  md.linkify = new IrilinkLinkifyIt(options, 'irilinkMarkdownIt', true);
  md.set({ linkify: true });
  ruler.after('linkify', 'irilink_bidi', unlinkEmbedded);
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
        const text = new state.Token('text', '', 0);
        text.content = children.slice(i + 1, close).map((t) => t.content).join('');
        children.splice(i, close - i + 1, text);
        bidi.walkInline(text.content, 0, text.content.length);
      } else if (token.type === 'text' || token.type === 'text_special' || token.type === 'code_inline') {
        bidi.walkInline(token.content, 0, token.content.length);
      }
    }
  }
}
