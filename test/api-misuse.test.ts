// Every public function given bad arguments (README "bad input gets a clear error and loses nothing"; DESIGN.md
// "Failure is a value": misuse of the API is a TypeError, from src/errors.ts). For every function, class and method
// the package entry exports, each argument position (and each option, and each field of an object argument) gets
// junk — undefined, null, numbers, NaN, '', a Symbol, [], {}, a Proxy that throws on every access, an object whose
// getters throw, a huge string where a short one is expected, a Buffer where a string is expected, a function —
// then random values (fast-check, fixed seed). The outcome must be one of:
//   - it works and returns the documented type, with no sign of a junk value leaking into it (`undefined`, `NaN`,
//     `[object Object]` in a string; NaN anywhere);
//   - a TypeError whose message starts with `irilink: ` and names the argument, field or option — for an argument
//     or a field the function too (`irilink: toHtml(): options must be …`); an option's message names the option
//     only (`irilink: option display must be …`: one resolver serves every function, and the command line shows
//     these messages as usage errors) — or, for the functions a specification lets fail, an IriError with its code;
//   - the caller's own error, unchanged, when the caller's Proxy or getter throws it (irilink does not hide it).
// Never an internal error (`Cannot read properties of null`, `x.charCodeAt is not a function`, …).
// Streams also get junk written into them: they fail with a TypeError and neither hang nor crash the process (a
// byte stream's write() throws Node's own ERR_INVALID_ARG_TYPE, as every Node byte stream does).
import { expect } from 'chai';
import fc from 'fast-check';
import { PassThrough, Readable, Transform, Writable } from 'node:stream';
import { runInNewContext } from 'node:vm';
import * as irilink from '../src/index.js';
import { IriError } from '../src/index.js';
import MarkdownIt from 'markdown-it';
import type { Chunk, LinkChunk } from '../src/index.js';

// ------------------------------------------------------------------------------------------------ the junk

/** What the caller's own Proxy or getter throws: irilink must let it through unchanged. */
const SENTINEL = new Error("the caller's own getter threw this");

/** A Proxy that throws SENTINEL from every trap (reading, listing keys, `in`, its prototype …). */
function throwingProxy(): object {
  const trap = (): never => {
    throw SENTINEL;
  };
  return new Proxy(
    {},
    {
      get: trap,
      set: trap,
      has: trap,
      ownKeys: trap,
      getOwnPropertyDescriptor: trap,
      getPrototypeOf: trap,
      defineProperty: trap,
      deleteProperty: trap,
      isExtensible: trap,
      preventExtensions: trap,
      setPrototypeOf: trap,
    },
  );
}

/** Names a getter-junk object defines: the fields and options the functions read. */
const GETTER_NAMES = [
  'type', 'text', 'start', 'end', 'uri', 'iri', 'scheme', 'schemeInferred', 'kind', 'diagnostics', 'length', 'index',
  'parts', 'path', 'host', 'query', 'fragment', 'authority', 'at', 'lowerLimit', 'pipe', 'write', 'on',
];

/** An object whose every listed property is an enumerable getter that throws SENTINEL. */
function throwingGetters(names: readonly string[] = GETTER_NAMES): object {
  const o = {};
  for (const name of names) {
    Object.defineProperty(o, name, {
      enumerable: true,
      get(): never {
        throw SENTINEL;
      },
    });
  }
  return o;
}

/** A string far longer than any name, level, format or charset (1 Mi code units). */
const HUGE = 'x'.repeat(1 << 20);

/** The fixed junk, fresh each call (a stream or a generator may have kept a reference to the last ones). */
function junk(getterNames?: readonly string[]): [string, unknown][] {
  return [
    ['undefined', undefined],
    ['null', null],
    ['42', 42],
    ['NaN', Number.NaN],
    ['-1', -1],
    ['1.5', 1.5],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['true', true],
    ['10n', 10n],
    ["''", ''],
    ['a Symbol', Symbol('junk')],
    ['[]', []],
    ['[null]', [null]],
    ['{}', {}],
    ['Object.create(null)', Object.create(null) as object],
    ['a throwing Proxy', throwingProxy()],
    ['an object with throwing getters', throwingGetters(getterNames)],
    ['a huge string', HUGE],
    ['a Buffer', Buffer.from('see https://example.com/')],
    ['a function', () => 'https://example.com/'],
    ['a Map', new Map([['a', 1]])],
  ];
}

// ------------------------------------------------------------------------------------------- the judgement

/** A Node stream (through2's stages come from the readable-stream package, so this is not `instanceof`). */
function isStream(v: unknown): boolean {
  if (v === null || typeof v !== 'object') return false;
  const s = v as Partial<Transform>;
  return typeof s.pipe === 'function' && typeof s.write === 'function' && typeof s.destroy === 'function' && typeof s.on === 'function';
}

type Outcome = { value: unknown } | { error: unknown };

/**
 * Calls `run` and settles what it returns: a promise is awaited, an async iterator (not a stream) is read to its
 * end, a stream is destroyed (it was built; writing junk into it is tested below).
 */
async function settle(run: () => unknown): Promise<Outcome> {
  try {
    let value = run();
    if (value instanceof Promise) value = await value;
    else if (value !== null && typeof value === 'object' && !isStream(value) && Symbol.asyncIterator in value) {
      const items: unknown[] = [];
      for await (const item of value as AsyncIterable<unknown>) items.push(item);
      value = items;
    }
    if (isStream(value)) (value as Transform).destroy();
    return { value };
  } catch (error) {
    return { error };
  }
}

/** Strings that show a junk value leaked into an answer (checked only when the inputs do not hold them). */
const LEAKS = ['undefined', 'NaN', '[object ', 'Symbol(', 'Infinity'];

function inputText(args: readonly unknown[]): string {
  let s = '';
  const seen = new Set<unknown>();
  const walk = (v: unknown, depth: number): void => {
    if (depth > 4 || seen.has(v)) return;
    if (typeof v === 'string') s += v.length > 1000 ? v.slice(0, 1000) : v;
    else if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') s += String(v);
    else if (v !== null && typeof v === 'object' && !isHostile(v)) {
      seen.add(v);
      if (Buffer.isBuffer(v)) s += v.toString('latin1');
      else for (const key of Object.keys(v)) {
        s += key;
        walk((v as Record<string, unknown>)[key], depth + 1);
      }
    }
    s += ' ';
  };
  for (const a of args) walk(a, 0);
  return s;
}

const hostile = new WeakSet<object>();
function isHostile(v: object): boolean {
  return hostile.has(v);
}

/** Where a junk value shows through an answer: NaN anywhere, or one of LEAKS in a string the input did not hold. */
function leak(value: unknown, input: string): string | undefined {
  const seen = new Set<unknown>();
  let found: string | undefined;
  let budget = 100_000;
  const walk = (v: unknown, path: string): void => {
    if (found !== undefined || budget-- <= 0) return;
    if (typeof v === 'number') {
      if (Number.isNaN(v)) found = `NaN at ${path}`;
      return;
    }
    if (typeof v === 'string') {
      for (const word of LEAKS) {
        if (v.includes(word) && !input.includes(word)) {
          found = `${JSON.stringify(word)} in the string at ${path}: ${JSON.stringify(v.length > 120 ? v.slice(0, 120) + '…' : v)}`;
          return;
        }
      }
      return;
    }
    if (v === null || typeof v !== 'object' || seen.has(v) || isHostile(v) || ArrayBuffer.isView(v)) return;
    seen.add(v);
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${path}[${i}]`));
    else if (Object.getPrototypeOf(v) === Object.prototype) for (const [k, x] of Object.entries(v)) walk(x, `${path}.${k}`);
  };
  walk(value, 'result');
  return found;
}

interface Expect {
  /** The function as the message names it. */
  fn: string;
  /** What the message must name (the argument, the option, or the field). */
  names: string;
  /** What `names` is: an argument, an option, or a field of the argument `param`. */
  kind: 'argument' | 'option' | 'field';
  /** For a field: the argument that holds it. */
  param?: string;
  /**
   * The message must name the function too (an argument or a field of one). Not for options: one resolver serves
   * every function that takes the detector's options, so an option's message names the option only.
   */
  namesFunction: boolean;
  /** The documented return type (after settle()). */
  returns: (v: unknown) => boolean;
  /** A specification lets the operation fail with an IriError (RFC 3987 §3.1, bis §3.5 …). */
  iriError?: boolean;
}


// `toHtml():`, `LogLineLinker.links():`, `linkify.pretest():`, `createRenderer().chunk():` …
function namesFunction(message: string, fn: string): boolean {
  // An options object with a name the function does not know: the message lists what it knows.
  if (message.startsWith('irilink: unknown option ')) return true;
  // longLine's encoding goes to the stream's decoder, which names the `encoding` option.
  if (fn === 'LogLineLinker.longLine' && message.startsWith('irilink: option encoding ')) return true;
  const last = fn.split('.').pop()!;
  return message.includes(`${last}(`);
}

const singular = (name: string): string => (name.endsWith('s') ? name.slice(0, -1) : name);
const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Does the message name what got the junk? Not a substring test: `iri` is inside `irilink:`, `a` inside `a string`.
 * An argument: `…(): text must` (or `…(): each chunk must`, for an array of chunks); an option: `option display `
 * (or `options.mbox must`); a field: `…(): chunk.start must`, or the whole argument when its message lists the
 * field (`chunk must be a text or link chunk ({ type, text, … })`). `unknown option "K"` names an options argument
 * only when the value given there is a plain object that has K as its own name (a Buffer's "0" is no option).
 */
function namesWhat(message: string, e: Expect, value: unknown): boolean {
  const n = e.names;
  switch (e.kind) {
    case 'option':
      return message.includes(`option ${n} `) || message.includes(`options.${n} must`);
    case 'field': {
      const p = e.param!;
      if (message.includes(`(): ${p}.${n} must`) || message.includes(`(): ${n} must`)) return true;
      // One element of a field that is an array: `chunk.diagnostics[0] must`.
      if (new RegExp(`\\(\\): ${escapeRegExp(p)}\\.${escapeRegExp(n)}\\[\\d+\\] must`).test(message)) return true;
      // A field that is an array: one bad element (`each chunk must`, `each of message.parts must`).
      if (message.includes(`(): each ${singular(n)} must`) || message.includes(`(): each of ${p}.${n} must`)) return true;
      if (message.includes(`(): a ${p}'s ${n} must`) || message.includes(`(): each ${p}'s ${n} must`)) return true;
      if (new RegExp(`\\(\\): a ${escapeRegExp(p)}'s ${escapeRegExp(n)}\\[\\d+\\] must`).test(message)) return true;
      // The argument as a whole (or, in an array, each of them), when what it must be lists the field by name:
      // `chunk must be a text or link chunk ({ type, text, … })`, `tree must be an mdast tree (each children …)`.
      const what = message.slice(0, message.lastIndexOf(', got '));
      return new RegExp(`\\(\\): (?:each |a )?${escapeRegExp(p)} must be .*\\b${escapeRegExp(n)}\\b`).test(what);
    }
    case 'argument': {
      const unknown = /^irilink: unknown option ("(?:[^"\\]|\\.)*")/.exec(message);
      if (unknown) {
        if (value === null || typeof value !== 'object') return false;
        const proto: unknown = Object.getPrototypeOf(value);
        if (proto !== Object.prototype && proto !== null) return false;
        return Object.keys(value).some((k) => JSON.stringify(k.length > 40 ? k.slice(0, 40) + '…' : k) === unknown[1]);
      }
      if (e.fn === 'LogLineLinker.longLine' && n === 'encoding' && message.startsWith('irilink: option encoding ')) return true;
      if (message.includes(`(): ${n} must`) || message.includes(`(): each ${singular(n)} must`) || message.includes(`(): each piece of ${n} must`)) return true;
      // A field of the argument (`c.path must`), or of the array element the argument is (`each of message.parts`,
      // `each part's text`).
      return message.includes(`(): ${n}.`) || message.includes(`(): each ${n}'s `) || new RegExp(`\\(\\): each of [\\w.]*\\.${escapeRegExp(n)}s must`).test(message);
    }
  }
}

/** undefined when the outcome is acceptable, else what went wrong. */
function judge(outcome: Outcome, e: Expect, args: readonly unknown[], value?: unknown): string | undefined {
  if ('error' in outcome) {
    const error = outcome.error;
    if (error === SENTINEL) return undefined;
    if (e.iriError && error instanceof IriError && typeof error.code === 'string') return undefined;
    if (error instanceof TypeError && error.message.startsWith('irilink: ')) {
      if (!namesWhat(error.message, e, value)) return `a TypeError that does not name the ${e.kind} ${e.names}: ${error.message}`;
      if (error.message.length > 600) return `a TypeError of ${error.message.length} characters`;
      if (e.namesFunction && !namesFunction(error.message, e.fn)) return `a TypeError that does not name ${e.fn}: ${error.message}`;
      return undefined;
    }
    const name = error instanceof Error ? error.constructor.name : typeof error;
    return `an internal error: ${name}: ${error instanceof Error ? error.message.slice(0, 200) : String(error)}`;
  }
  if (!e.returns(outcome.value)) return `returned ${show(outcome.value)}, not the documented type`;
  const leaked = leak(outcome.value, inputText(args));
  return leaked === undefined ? undefined : `a silent wrong answer: ${leaked}`;
}

function show(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v.length > 80 ? v.slice(0, 80) + '…' : v);
  if (Array.isArray(v)) return `an array of ${v.length}`;
  if (v === null || typeof v !== 'object') return String(v);
  return `an object (${Object.keys(v).slice(0, 6).join(', ')})`;
}

// ---------------------------------------------------------------------------------------------- the table

const isString = (v: unknown): boolean => typeof v === 'string';
const isBoolean = (v: unknown): boolean => typeof v === 'boolean';
const isArray = (v: unknown): boolean => Array.isArray(v);
const isObject = (v: unknown): boolean => v !== null && typeof v === 'object';
const isFunction = (v: unknown): boolean => typeof v === 'function';
const isIntegerAtLeast0 = (v: unknown): boolean => Number.isInteger(v) && (v as number) >= 0;

/** One function (or method) and how to call it: `args()` gives valid arguments, each replaced by junk in turn. */
interface Spec {
  fn: string;
  /** Argument names, one per position; the message must name the one that got the junk. */
  params: readonly string[];
  args: () => unknown[];
  call: (...args: unknown[]) => unknown;
  returns: (v: unknown) => boolean;
  iriError?: boolean;
  /** The position of an options object and the names it takes: each option gets junk too. */
  options?: { at: number; names: readonly string[] };
  /** The position of an object argument whose fields the function reads: each field gets junk too. */
  fields?: { at: number; names: readonly string[] };
}

const DETECTOR = ['schemes', 'anyScheme', 'schemeless', 'email', 'defaultScheme', 'tlds', 'maxLinkLength', 'documentCharset'];
const TEXT = 'see https://例え.jp/パス, www.example.com and αβγ@example.com.';

const sampleChunks = (): Chunk[] => irilink.linkify(TEXT);
const sampleLink = (): LinkChunk => sampleChunks().find((c): c is LinkChunk => c.type === 'link')!;
const LINK_FIELDS = ['type', 'text', 'start', 'end', 'kind', 'scheme', 'schemeInferred', 'uri', 'iri', 'diagnostics'];
const MAIL = Buffer.from('Subject: hi\nMessage-ID: <a@b>\n\nsee https://例え.jp/パス\n');

let mailMessage: irilink.MailMessage;
before(async () => {
  mailMessage = await irilink.linkifyMessage(MAIL);
});

// Methods of the objects the functions return are public too: each is called on a fresh object.
const linkifyIt = (): irilink.LinkifyItLike => irilink.irilinkLinkifyIt();

const RENDERER_OPTIONS: Record<string, readonly string[]> = {
  toHtml: ['display', 'schemes', 'links', 'rel', 'target', 'class', 'unsafeClass', 'isolate', 'breaks'],
  toMarkdown: ['display', 'schemes', 'links'],
  toAnsi: ['display', 'schemes', 'links', 'terminator', 'sgr', 'controls', 'underline', 'color'],
  toJsonl: ['links'],
  toText: ['display', 'links'],
};

const SPECS: Spec[] = [
  // Detection.
  { fn: 'findLinks', params: ['text', 'options'], args: () => [TEXT, {}], call: (t, o) => irilink.findLinks(t as string, o as object), returns: isArray, options: { at: 1, names: DETECTOR } },
  { fn: 'linkify', params: ['text', 'options'], args: () => [TEXT, {}], call: (t, o) => irilink.linkify(t as string, o as object), returns: isArray, options: { at: 1, names: DETECTOR } },
  { fn: 'createScanner', params: ['options'], args: () => [{}], call: (o) => irilink.createScanner(o as object), returns: isObject, options: { at: 0, names: DETECTOR } },
  {
    fn: 'scan', params: ['text', 'from', 'final', 'base', 'resume'], args: () => [TEXT, 0, true, 0, undefined],
    call: (t, f, fi, b, r) => irilink.createScanner().scan(t as string, f as number, fi as boolean, b as number, r as irilink.ScanResume),
    returns: isObject,
  },
  { fn: 'Linkifier', params: ['options'], args: () => [{}], call: (o) => new irilink.Linkifier(o as object), returns: isObject, options: { at: 0, names: DETECTOR } },
  { fn: 'Linkifier.push', params: ['text'], args: () => [TEXT], call: (t) => new irilink.Linkifier().push(t as string), returns: isArray },
  {
    fn: 'createLinkStream', params: ['options'], args: () => [{}], call: (o) => irilink.createLinkStream(o as object), returns: isStream,
    options: { at: 0, names: [...DETECTOR, 'encoding', 'highWaterMark', 'markdown', 'gfm'] },
  },

  // Markdown.
  { fn: 'findMarkdownLinks', params: ['source', 'options'], args: () => [TEXT, {}], call: (t, o) => irilink.findMarkdownLinks(t as string, o as object), returns: isArray, options: { at: 1, names: [...DETECTOR, 'gfm'] } },
  { fn: 'linkifyMarkdown', params: ['source', 'options'], args: () => [TEXT, {}], call: (t, o) => irilink.linkifyMarkdown(t as string, o as object), returns: isArray, options: { at: 1, names: [...DETECTOR, 'gfm'] } },
  { fn: 'MarkdownLinkifier', params: ['options'], args: () => [{}], call: (o) => new irilink.MarkdownLinkifier(o as object), returns: isObject, options: { at: 0, names: [...DETECTOR, 'gfm'] } },
  { fn: 'MarkdownLinkifier.push', params: ['text'], args: () => [TEXT], call: (t) => new irilink.MarkdownLinkifier().push(t as string), returns: isArray },
  { fn: 'irilinkLinkifyIt', params: ['options'], args: () => [{}], call: (o) => irilink.irilinkLinkifyIt(o as object), returns: isObject, options: { at: 0, names: DETECTOR } },
  {
    fn: 'irilinkMarkdownIt', params: ['md', 'options'], args: () => [new MarkdownIt(), {}],
    call: (m, o) => irilink.irilinkMarkdownIt(m as irilink.MarkdownItLike, o as object), returns: (v) => v === undefined, options: { at: 1, names: DETECTOR },
  },
  { fn: 'pretest', params: ['text'], args: () => [TEXT], call: (t) => linkifyIt().pretest(t as string), returns: isBoolean },
  { fn: 'test', params: ['text'], args: () => [TEXT], call: (t) => linkifyIt().test(t as string), returns: isBoolean },
  { fn: 'match', params: ['text'], args: () => [TEXT], call: (t) => linkifyIt().match(t as string), returns: (v) => v === null || isArray(v) },
  { fn: 'matchAtStart', params: ['text'], args: () => [TEXT], call: (t) => linkifyIt().matchAtStart(t as string), returns: (v) => v === null },
  { fn: 'testSchemaAt', params: ['text', 'schema', 'pos'], args: () => [TEXT, 'https:', 4], call: (t, s, p) => linkifyIt().testSchemaAt(t as string, s as string, p as number), returns: isIntegerAtLeast0 },
  { fn: 'add', params: ['schema', 'definition'], args: () => ['spotify:', 'http:'], call: (s, d) => linkifyIt().add(s as string, d), returns: isObject },
  { fn: 'tlds', params: ['list', 'keepOld'], args: () => [['example'], true], call: (l, k) => linkifyIt().tlds(l as string[], k as boolean), returns: isObject },
  { fn: 'set', params: ['options'], args: () => [{ fuzzyLink: false }], call: (o) => linkifyIt().set(o as object), returns: isObject, fields: { at: 0, names: ['fuzzyLink', 'fuzzyEmail', 'fuzzyIP'] } },
  { fn: 'remarkIrilink', params: ['options'], args: () => [{}], call: (o) => irilink.remarkIrilink(o as object), returns: isFunction, options: { at: 0, names: DETECTOR } },
  {
    fn: 'remarkIrilink', params: ['tree'], args: () => [{ type: 'root', children: [{ type: 'paragraph', children: [{ type: 'text', value: TEXT }] }] }],
    call: (t) => irilink.remarkIrilink()(t as object), returns: (v) => v === undefined, fields: { at: 0, names: ['type', 'children'] },
  },
  { fn: 'toMarkdownSource', params: ['chunks', 'options'], args: () => [irilink.linkifyMarkdown(TEXT), {}], call: (c, o) => irilink.toMarkdownSource(c as Chunk[], o as object), returns: isString, options: { at: 1, names: ['schemes'] } },
  { fn: 'createMarkdownSourceRenderer', params: ['options'], args: () => [{}], call: (o) => irilink.createMarkdownSourceRenderer(o as object), returns: isObject, options: { at: 0, names: ['schemes'] } },
  { fn: 'createMarkdownSourceRenderer', params: ['chunk'], args: () => [sampleLink()], call: (c) => irilink.createMarkdownSourceRenderer().chunk(c as Chunk), returns: isString, fields: { at: 0, names: LINK_FIELDS } },

  // RFC 3987.
  { fn: 'isIri', params: ['s', 'production'], args: () => ['http://例え.jp/', 'IRI'], call: (s, p) => irilink.isIri(s as string, p as irilink.IriProduction), returns: isBoolean },
  { fn: 'parseIriReference', params: ['s'], args: () => ['http://例え.jp/a?b#c'], call: (s) => irilink.parseIriReference(s as string), returns: (v) => v === null || isObject(v) },
  { fn: 'splitIriReference', params: ['s'], args: () => ['http://例え.jp/a?b#c'], call: (s) => irilink.splitIriReference(s as string), returns: isObject },
  {
    fn: 'recomposeIri', params: ['c'], args: () => [irilink.splitIriReference('http://u@例え.jp:80/a?b#c')], call: (c) => irilink.recomposeIri(c as irilink.IriComponents), returns: isString,
    fields: { at: 0, names: ['scheme', 'authority', 'userinfo', 'host', 'port', 'path', 'query', 'fragment'] },
  },
  { fn: 'toUri', params: ['iri', 'options'], args: () => ['http://例え.jp/パス', {}], call: (s, o) => irilink.toUri(s as string, o as object), returns: isString, iriError: true, options: { at: 1, names: ['host', 'normalize', 'asciiDisallowed', 'documentCharset'] } },
  { fn: 'toIri', params: ['uri', 'options'], args: () => ['http://xn--r8jz45g.jp/%E3%83%91', {}], call: (s, o) => irilink.toIri(s as string, o as object), returns: isString, options: { at: 1, names: ['toUnicode'] } },
  { fn: 'leiriToIri', params: ['leiri'], args: () => ['http://example.org/a b'], call: (s) => irilink.leiriToIri(s as string), returns: isString, iriError: true },
  { fn: 'compareIris', params: ['a', 'b', 'level'], args: () => ['http://a.example/~u', 'http://a.example/%7eu', 'percent-encoding'], call: (a, b, l) => irilink.compareIris(a as string, b as string, l as irilink.ComparisonLevel), returns: isBoolean },
  { fn: 'comparisonKey', params: ['iri', 'level'], args: () => ['http://a.example/~u', 'scheme'], call: (a, l) => irilink.comparisonKey(a as string, l as irilink.ComparisonLevel), returns: isString },
  { fn: 'checkIriBidi', params: ['iri'], args: () => ['http://example.com/שלום1/'], call: (s) => irilink.checkIriBidi(s as string), returns: isArray },
  { fn: 'visualOrder', params: ['text', 'baseDirection'], args: () => ['http://ab.אבג.ij/', 'ltr'], call: (t, d) => irilink.visualOrder(t as string, d as irilink.BidiBaseDirection), returns: isString },
  { fn: 'resolveBidi', params: ['text', 'baseDirection'], args: () => ['http://ab.אבג.ij/', 'rtl'], call: (t, d) => irilink.resolveBidi(t as string, d as irilink.BidiBaseDirection), returns: isObject },
  { fn: 'formatUrl', params: ['url'], args: () => ['https://例え.jp/%E3%83%91'], call: (s) => irilink.formatUrl(s as string), returns: isString },
  {
    fn: 'formatUrlParts', params: ['parts'], args: () => [{ scheme: 'https', host: 'example.com', path: ['α', 'β/γ'], query: [['q', 'a&b'], ['k']], fragment: ['f'] }],
    call: (p) => irilink.formatUrlParts(p as irilink.UrlParts), returns: isString, fields: { at: 0, names: ['scheme', 'host', 'path', 'query', 'fragment'] },
  },

  // UTS #39.
  { fn: 'restrictionLevel', params: ['label'], args: () => ['pаypal'], call: (s) => irilink.restrictionLevel(s as string), returns: isString },
  { fn: 'isSuspiciousHostLabel', params: ['label'], args: () => ['pаypal'], call: (s) => irilink.isSuspiciousHostLabel(s as string), returns: isBoolean },
  { fn: 'skeleton', params: ['s'], args: () => ['раураl'], call: (s) => irilink.skeleton(s as string), returns: isString },
  { fn: 'confusableHost', params: ['host'], args: () => ['аррӏе.com'], call: (s) => irilink.confusableHost(s as string), returns: (v) => v === null || isString(v) },
  { fn: 'confusablePrototype', params: ['cp'], args: () => [0x0430], call: (c) => irilink.confusablePrototype(c as number), returns: (v) => v === undefined || isString(v) },

  // Renderers.
  ...(['toHtml', 'toMarkdown', 'toAnsi', 'toJsonl', 'toText'] as const).flatMap((fn): Spec[] => [
    { fn, params: ['chunks', 'options'], args: () => [sampleChunks(), {}], call: (c, o) => irilink[fn](c as Chunk[], o as object), returns: isString, options: { at: 1, names: RENDERER_OPTIONS[fn]! } },
    // Each chunk of the array, and each field of a link chunk.
    { fn, params: ['chunk'], args: () => [sampleLink()], call: (c) => irilink[fn]([c] as Chunk[]), returns: isString, fields: { at: 0, names: LINK_FIELDS } },
    { fn, params: ['chunk'], args: () => [{ type: 'text', text: 'a\nb', start: 0, end: 3, diagnostics: ['userinfo'] }], call: (c) => irilink[fn]([c] as Chunk[], fn === 'toJsonl' ? undefined : { links: false }), returns: isString, fields: { at: 0, names: ['type', 'text', 'start', 'end', 'diagnostics'] } },
  ]),
  ...(['toJsonl', 'toText', 'toHtml'] as const).map((fn): Spec => ({
    fn, params: ['chunk'], args: () => [sampleLink()], call: (c) => irilink[fn]([{ type: 'text', text: 'a\r\n', start: 0, end: 3 }, c] as Chunk[], { links: true }), returns: isString, fields: { at: 0, names: LINK_FIELDS },
  })),
  { fn: 'createRenderStream', params: ['format', 'options'], args: () => ['html', {}], call: (f, o) => irilink.createRenderStream(f as 'html', o as object), returns: isStream, options: { at: 1, names: RENDERER_OPTIONS.toHtml! } },
  { fn: 'createRenderer', params: ['format', 'options'], args: () => ['ansi', {}], call: (f, o) => irilink.createRenderer(f as 'ansi', o as object), returns: isObject, options: { at: 1, names: RENDERER_OPTIONS.toAnsi! } },
  ...irilink.RENDER_FORMATS.map((format): Spec => ({
    fn: 'createRenderer', params: ['chunk'], args: () => [sampleLink()], call: (c) => irilink.createRenderer(format).chunk(c as Chunk), returns: isString, fields: { at: 0, names: LINK_FIELDS },
  })),
  { fn: 'refusals', params: ['link', 'schemes'], args: () => [sampleLink(), ['https']], call: (l, s) => irilink.refusals(l as LinkChunk, s as string[]), returns: isArray, fields: { at: 0, names: LINK_FIELDS } },

  // Mail.
  {
    fn: 'linkifyMail', params: ['input', 'options'], args: () => [MAIL, {}], call: (i, o) => irilink.linkifyMail(i as Buffer, o as object), returns: isArray,
    options: { at: 1, names: [...DETECTOR, 'html', 'mbox'] },
  },
  {
    fn: 'linkifyMessage', params: ['raw', 'options', 'index', 'envelope'], args: () => [MAIL, {}, 0, undefined],
    call: (r, o, i, e) => irilink.linkifyMessage(r as Buffer, o as object, i as number, e as string), returns: isObject, options: { at: 1, names: [...DETECTOR, 'html'] },
  },
  { fn: 'linkifyQuoted', params: ['text', 'options'], args: () => ['> see <https://例え.jp/\n> パス>', {}], call: (t, o) => irilink.linkifyQuoted(t as string, o as object), returns: isArray, options: { at: 1, names: DETECTOR } },
  { fn: 'splitMbox', params: ['input', 'options'], args: () => [[Buffer.from('From a\nSubject: x\n\nb\n')], {}], call: (i, o) => irilink.splitMbox(i as Buffer[], o as object), returns: isArray, options: { at: 1, names: ['mbox'] } },
  { fn: 'decodeFlowed', params: ['text', 'delSp'], args: () => ['see https://例え.jp/ \nパス\n', true], call: (t, d) => irilink.decodeFlowed(t as string, d as boolean), returns: isString },
  { fn: 'mailToHtml', params: ['message', 'options'], args: () => [mailMessage, {}], call: (m, o) => irilink.mailToHtml(m as irilink.MailMessage, o as object), returns: isString, options: { at: 1, names: RENDERER_OPTIONS.toHtml! } },
  { fn: 'mailToHtml', params: ['message'], args: () => [{ ...mailMessage }], call: (m) => irilink.mailToHtml(m as irilink.MailMessage), returns: isString, fields: { at: 0, names: ['index', 'messageId', 'subject', 'envelope', 'parts'] } },
  { fn: 'mailToJsonl', params: ['message'], args: () => [{ ...mailMessage }], call: (m) => irilink.mailToJsonl(m as irilink.MailMessage), returns: isString, fields: { at: 0, names: ['index', 'messageId', 'subject', 'envelope', 'parts'] } },
  // The same output in pieces (an iterable, read whole here, so that a field checked while the pieces are made counts).
  { fn: 'mailHtmlPieces', params: ['message', 'options'], args: () => [mailMessage, {}], call: (m, o) => [...irilink.mailHtmlPieces(m as irilink.MailMessage, o as object)], returns: isArray, options: { at: 1, names: RENDERER_OPTIONS.toHtml! } },
  { fn: 'mailHtmlPieces', params: ['message'], args: () => [{ ...mailMessage }], call: (m) => [...irilink.mailHtmlPieces(m as irilink.MailMessage)], returns: isArray, fields: { at: 0, names: ['index', 'messageId', 'subject', 'envelope', 'parts'] } },
  { fn: 'mailJsonlPieces', params: ['message'], args: () => [{ ...mailMessage }], call: (m) => [...irilink.mailJsonlPieces(m as irilink.MailMessage)], returns: isArray, fields: { at: 0, names: ['index', 'messageId', 'subject', 'envelope', 'parts'] } },
  ...(['mailToHtml', 'mailToJsonl'] as const).map((fn): Spec => ({
    fn, params: ['part'], args: () => [{ ...mailMessage.parts[0]! }], call: (p) => irilink[fn]({ ...mailMessage, parts: [p as irilink.MailPart] }), returns: isString,
    fields: { at: 0, names: ['part', 'contentType', 'charset', 'text', 'chunks', 'links'] },
  })),
  {
    fn: 'runMail', params: ['input', 'output', 'format', 'options'], args: () => [Readable.from([MAIL]), new PassThrough(), 'jsonl', {}],
    call: (i, out, f, o) => irilink.runMail(i as Readable, out as Writable, f as 'jsonl', o as object), returns: isObject,
    options: { at: 3, names: [...DETECTOR, 'html', 'mbox', 'render'] },
  },

  // Logs and records.
  { fn: 'findLogLinks', params: ['line', 'options'], args: () => [TEXT, {}], call: (t, o) => irilink.findLogLinks(t as string, o as object), returns: isArray, options: { at: 1, names: [...DETECTOR, 'logRules'] } },
  { fn: 'linkifyLogLine', params: ['line', 'options'], args: () => [TEXT, {}], call: (t, o) => irilink.linkifyLogLine(t as string, o as object), returns: isArray, options: { at: 1, names: [...DETECTOR, 'logRules'] } },
  { fn: 'LogLineLinker', params: ['options'], args: () => [{}], call: (o) => new irilink.LogLineLinker(o as object), returns: isObject, options: { at: 0, names: [...DETECTOR, 'logRules'] } },
  { fn: 'LogLineLinker.longLine', params: ['encoding', 'first'], args: () => ['shift_jis', true], call: (e, f) => new irilink.LogLineLinker().longLine(e as string, f as boolean), returns: isObject },
  { fn: 'LogLineLinker.links', params: ['line'], args: () => [TEXT], call: (t) => new irilink.LogLineLinker().links(t as string), returns: isArray },
  { fn: 'createRecordStream', params: ['options'], args: () => [{}], call: (o) => irilink.createRecordStream(o as object), returns: isStream, options: { at: 0, names: [...DETECTOR, 'logRules', 'encoding', 'maxRecordBytes'] } },
  { fn: 'createLogLinkStream', params: ['options'], args: () => [{}], call: (o) => irilink.createLogLinkStream(o as object), returns: isStream, options: { at: 0, names: [...DETECTOR, 'logRules', 'encoding', 'maxRecordBytes'] } },
  { fn: 'linkRecords', params: ['input', 'options'], args: () => [TEXT + '\n' + TEXT, {}], call: (i, o) => irilink.linkRecords(i as string, o as object), returns: isArray, options: { at: 1, names: [...DETECTOR, 'logRules', 'encoding'] } },
  { fn: 'RecordLinker', params: ['options'], args: () => [{}], call: (o) => new irilink.RecordLinker(o as object), returns: isObject, options: { at: 0, names: [...DETECTOR, 'logRules', 'encoding'] } },
  { fn: 'RecordLinker.record', params: ['bytes'], args: () => [Buffer.from(TEXT)], call: (b) => new irilink.RecordLinker().record(b as Buffer), returns: isObject },

  // The error class itself.
  { fn: 'IriError', params: ['code', 'detail', 'index'], args: () => ['lone-surrogate', 'at 3', 3], call: (c, d, i) => new IriError(c as irilink.IriErrorCode, d as string, i as number), returns: (v) => v instanceof IriError },
];

// ------------------------------------------------------------------------------------------------ the sweep

/** The calls of one spec: each argument, each option and each field replaced by each junk value. */
function* cases(spec: Spec): Generator<{ label: string; names: string; kind: Expect['kind']; param?: string; value: unknown; namesFunction: boolean; args: unknown[] }> {
  for (let at = 0; at < spec.params.length; at++) {
    for (const [label, value] of junk(spec.options?.at === at ? spec.options.names : undefined)) {
      const args = spec.args();
      args[at] = value;
      markHostile(value);
      yield { label: `${spec.params[at]} = ${label}`, names: spec.params[at]!, kind: 'argument', value, namesFunction: true, args };
    }
  }
  if (spec.options) {
    const { at, names } = spec.options;
    for (const name of names) {
      for (const [label, value] of junk()) {
        const args = spec.args();
        args[at] = { ...(args[at] as object), [name]: value };
        markHostile(value);
        yield { label: `option ${name} = ${label}`, names: name, kind: 'option', value, namesFunction: false, args };
      }
    }
  }
  if (spec.fields) {
    const { at, names } = spec.fields;
    for (const name of names) {
      for (const [label, value] of junk()) {
        const args = spec.args();
        const copy = { ...(args[at] as object) } as Record<string, unknown>;
        if (label === 'undefined') delete copy[name];
        else copy[name] = value;
        args[at] = copy;
        markHostile(value);
        yield { label: `${spec.params[at]}.${name} = ${label}`, names: name, kind: 'field', param: spec.params[at]!, value, namesFunction: true, args };
      }
    }
  }
}

function markHostile(v: unknown): void {
  if (v !== null && typeof v === 'object') {
    let proxy = false;
    try {
      Object.keys(v);
    } catch {
      proxy = true;
    }
    if (proxy || GETTER_NAMES.some((n) => Object.getOwnPropertyDescriptor(v, n)?.get !== undefined)) hostile.add(v);
  }
}


describe('api misuse: every exported function, given junk in each argument, option and field', function () {
  this.timeout(60_000);

  it('the table covers every function and class the package entry exports', () => {
    const covered = new Set(SPECS.map((s) => s.fn.split('.')[0]));
    const exported = Object.entries(irilink).filter(([, v]) => typeof v === 'function').map(([k]) => k);
    expect(exported.filter((name) => !covered.has(name))).to.deep.equal([]);
    expect(exported.length).to.be.at.least(55);
  });

  it('the judge names an argument by `(): name must`, not by a substring (iri is inside irilink:, a inside a string)', () => {
    const arg = (fn: string, names: string): Expect => ({ fn, names, kind: 'argument', namesFunction: true, returns: () => true });
    expect(namesWhat('irilink: toUri(): uri must be a string, got 42', arg('toUri', 'iri'), 42)).to.equal(false);
    expect(namesWhat('irilink: toUri(): iri must be a string, got 42', arg('toUri', 'iri'), 42)).to.equal(true);
    expect(namesWhat('irilink: compareIris(): b must be a string, got 42', arg('compareIris', 'a'), 42)).to.equal(false);
    expect(namesWhat('irilink: isIri(): production must be one of IRI, …, got 42', arg('isIri', 's'), 42)).to.equal(false);
    // An unknown option names an options argument only when the value given there is a plain object with that name.
    const unknown = 'irilink: unknown option "0"; the known options are links';
    expect(namesWhat(unknown, arg('toHtml', 'options'), Buffer.from('x'))).to.equal(false);
    expect(namesWhat(unknown, arg('toHtml', 'options'), { 0: 1 })).to.equal(true);
    expect(namesWhat('irilink: option display must be "text", got 1', { ...arg('toHtml', 'display'), kind: 'option' }, 1)).to.equal(true);
    expect(namesWhat('irilink: option displays must be …, got 1', { ...arg('toHtml', 'display'), kind: 'option' }, 1)).to.equal(false);
  });

  for (const spec of SPECS) {
    const title = `${spec.fn}(${spec.params.join(', ')})${spec.fields ? ` and the fields of ${spec.params[spec.fields.at]}` : ''}`;
    it(title, async () => {
      const problems: string[] = [];
      for (const c of cases(spec)) {
        const outcome = await settle(() => spec.call(...c.args));
        const verdict = judge(outcome, { fn: spec.fn, names: c.names, kind: c.kind, param: c.param, namesFunction: c.namesFunction, returns: spec.returns, iriError: spec.iriError }, c.args, c.value);
        if (verdict !== undefined) problems.push(`${c.label}: ${verdict}`);
      }
      expect(problems).to.deep.equal([]);
    });
  }

  it(`random values in every argument position (fast-check, fixed seed)`, async () => {
    const problems: string[] = [];
    for (const spec of SPECS) {
      for (let at = 0; at < spec.params.length; at++) {
        await fc.assert(
          fc.asyncProperty(fc.anything({ withBoxedValues: true, withMap: true, withSet: true, withTypedArray: true, withSparseArray: true, withNullPrototype: true }), async (value) => {
            const args = spec.args();
            args[at] = value;
            const outcome = await settle(() => spec.call(...args));
            const verdict = judge(outcome, { fn: spec.fn, names: spec.params[at]!, kind: 'argument', namesFunction: true, returns: spec.returns, iriError: spec.iriError }, args, value);
            if (verdict !== undefined && problems.length < 50) problems.push(`${spec.fn} ${spec.params[at]} = ${fc.stringify(value)}: ${verdict}`);
            return true;
          }),
          { seed: 58, numRuns: 25 },
        );
      }
    }
    expect(problems).to.deep.equal([]);
  });
});

// ------------------------------------------------------------------------------------------ junk into streams

/**
 * What a stream does with one junk write: `thrown` (write() threw at once — Node's own check of a byte stream's
 * input, ERR_INVALID_ARG_TYPE or ERR_STREAM_NULL_VALUES), or the error the stream failed with, or 'no error'.
 * Never waits more than `ms`: a stream that neither fails nor finishes is a hang.
 */
async function writeJunk(stream: Transform, value: unknown, ms = 5000): Promise<{ thrown?: unknown; failed?: unknown; finished?: boolean }> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve({ failed: new Error(`neither failed nor finished within ${ms} ms`) }), ms);
    const done = (r: { thrown?: unknown; failed?: unknown; finished?: boolean }): void => {
      clearTimeout(timer);
      stream.removeAllListeners('data');
      resolve(r);
    };
    stream.on('error', (error) => done({ failed: error }));
    stream.on('data', () => undefined);
    stream.on('end', () => done({ finished: true }));
    try {
      stream.write(value);
    } catch (error) {
      stream.destroy();
      done({ thrown: error });
      return;
    }
    stream.end();
  });
}

const STREAMS: [string, () => Transform, 'bytes' | 'objects'][] = [
  ['createLinkStream', () => irilink.createLinkStream(), 'bytes'],
  ['createLinkStream', () => irilink.createLinkStream({ markdown: true }), 'bytes'],
  ['createLinkStream', () => irilink.createLinkStream({ encoding: 'shift_jis' }), 'bytes'],
  ['createRecordStream', () => irilink.createRecordStream(), 'bytes'],
  ['createLogLinkStream', () => irilink.createLogLinkStream(), 'bytes'],
  ...irilink.RENDER_FORMATS.map((f): [string, () => Transform, 'objects'] => ['createRenderStream', () => irilink.createRenderStream(f), 'objects']),
];

const STREAM_JUNK: [string, unknown][] = [
  ['null', null],
  ['42', 42],
  ['{}', {}],
  ['[]', []],
  ['true', true],
  ['a Symbol', Symbol('junk')],
  ['a throwing Proxy', throwingProxy()],
  ['an object with throwing getters', throwingGetters()],
  ['a link chunk without text', { type: 'link', uri: 'https://example.com/' }],
  ['a string', 'see https://example.com/'],
  ['a Buffer', Buffer.from('see https://example.com/')],
];

describe('api misuse: junk written into every stream fails it with a TypeError, without a hang or a crash', function () {
  this.timeout(30_000);
  STREAMS.forEach(([fn, make, input], n) => {
    it(`${fn} #${n} (${input} in)`, async () => {
      const problems: string[] = [];
      for (const [label, value] of STREAM_JUNK) {
        const valid = input === 'bytes' && (label === 'a string' || label === 'a Buffer');
        const r = await writeJunk(make(), value);
        if (valid) {
          if (!r.finished) problems.push(`${label}: a valid write did not finish (${String((r.failed as Error | undefined)?.message ?? r.thrown)})`);
          continue;
        }
        const error = r.thrown ?? r.failed;
        if (error === undefined) {
          problems.push(`${label}: accepted`);
        } else if (error === SENTINEL) {
          continue;
        } else if (!(error instanceof TypeError)) {
          problems.push(`${label}: ${(error as Error).constructor.name}: ${(error as Error).message}`);
        } else if (r.thrown !== undefined) {
          // Node's own check of what a byte stream takes, thrown by write() before the stream sees the value.
          const code = (error as NodeJS.ErrnoException).code;
          if (code !== 'ERR_INVALID_ARG_TYPE' && code !== 'ERR_STREAM_NULL_VALUES') problems.push(`${label}: write() threw ${error.message}`);
        } else if ((error as NodeJS.ErrnoException).code === 'ERR_STREAM_NULL_VALUES') {
          // Node refuses null in every stream, object mode included (null ends a readable).
        } else if (!error.message.startsWith(`irilink: ${fn}(): `)) {
          problems.push(`${label}: failed with ${error.message}`);
        }
      }
      expect(problems).to.deep.equal([]);
    });
  });

  it('a byte stream that refused a junk write goes on with the next writes, losing nothing', async () => {
    for (const [fn, make, input] of STREAMS) {
      if (input !== 'bytes') continue;
      const stream = make();
      const out: unknown[] = [];
      stream.on('data', (d: unknown) => out.push(d));
      const ended = new Promise((resolve, reject) => {
        stream.on('end', resolve);
        stream.on('error', reject);
      });
      expect(() => stream.write(42), fn).to.throw(TypeError);
      stream.end(Buffer.from('see https://example.com/a\n'));
      await ended;
      const text = out.map((d) => (Buffer.isBuffer(d) ? d.toString() : JSON.stringify(d))).join('');
      expect(text, fn).to.include('"uri":"https://example.com/a"');
    }
  });

  it('pipeline() from a source of junk rejects with a TypeError and leaves the process running', async () => {
    const { pipeline } = await import('node:stream/promises');
    const sink = (): Writable => new Writable({ objectMode: true, write: (_c, _e, cb) => cb() });
    for (const [fn, make, input] of STREAMS) {
      let error: unknown;
      try {
        // A byte stream's write() throws (Node's check), which pipe() would not catch: pipeline() from an iterable
        // catches it. An object-mode stage fails itself, so a Readable source works too.
        const source = input === 'bytes' ? (async function* () { yield { junk: true }; })() : Readable.from([{ junk: true }]);
        await pipeline(source, make(), sink());
      } catch (e) {
        error = e;
      }
      expect(error, fn).to.be.instanceOf(TypeError);
      if (input === 'objects') expect((error as Error).message).to.match(/^irilink: createRenderStream\(\): each chunk must be a text or link chunk/);
    }
  });
});

// ------------------------------------------------------------------------------ what the sweep found, one by one

describe('api misuse: the gaps the sweep found, each with the message it now gives', () => {
  type Loose = (...args: unknown[]) => unknown;
  const loose = (f: unknown): Loose => f as Loose;
  const link = (): LinkChunk => sampleLink();

  it('every renderer refuses null options, as detection, toUri and toIri do (they took null as {})', () => {
    for (const fn of ['toHtml', 'toMarkdown', 'toAnsi', 'toJsonl', 'toText'] as const) {
      expect(() => loose(irilink[fn])(sampleChunks(), null), fn).to.throw(TypeError, `irilink: ${fn}(): options must be an object or undefined, got null`);
    }
    expect(() => loose(irilink.createRenderStream)('html', null)).to.throw(TypeError, 'irilink: createRenderStream(): options must be an object or undefined, got null');
    expect(() => loose(irilink.createRenderer)('ansi', null)).to.throw(TypeError, 'irilink: createRenderer(): options must be an object or undefined, got null');
    expect(() => loose(irilink.toMarkdownSource)([], null)).to.throw(TypeError, 'irilink: toMarkdownSource(): options must be an object or undefined, got null');
    expect(() => loose(irilink.findLinks)('x', null)).to.throw(TypeError, 'irilink: findLinks(): options must be an object or undefined, got null');
    expect(() => loose(irilink.linkify)('x', null)).to.throw(TypeError, 'irilink: linkify(): options must be an object or undefined, got null');
    expect(() => loose(irilink.createScanner)(null)).to.throw(TypeError, 'irilink: createScanner(): options must be an object or undefined, got null');
    expect(() => new irilink.Linkifier(null as unknown as undefined)).to.throw(TypeError, 'irilink: Linkifier(): options must be an object or undefined, got null');
    expect(() => loose(irilink.toUri)('x', null)).to.throw(TypeError, /^irilink: toUri\(\): options must be an object/);
    expect(irilink.toHtml(sampleChunks(), undefined)).to.equal(irilink.toHtml(sampleChunks(), {}));
  });

  it('setEncoding() on a link stream throws at the call (Node threw from push() in a later turn: an uncaught crash)', async () => {
    for (const make of [() => irilink.createLinkStream(), () => irilink.createLinkStream({ markdown: true })]) {
      const stream = make();
      expect(() => stream.setEncoding('utf8')).to.throw(
        TypeError,
        'irilink: createLinkStream(): setEncoding("utf8") does not apply: the stream emits Chunk objects (read chunk.text)',
      );
      // The refused call changed nothing: the stream still links.
      stream.end('see https://example.com/a');
      const chunks: Chunk[] = [];
      for await (const chunk of stream) chunks.push(chunk as Chunk);
      expect(chunks.map((c) => c.text)).to.deep.equal(['see ', 'https://example.com/a']);
    }
  });

  it('options that are a Map, a Buffer or a Date are refused (a Map was read as {}, its entries ignored; a Buffer gave unknown option "0")', () => {
    const map = new Map([['email', false]]);
    expect(() => loose(irilink.findLinks)('a@example.com', map)).to.throw(TypeError, 'irilink: findLinks(): options must be an object or undefined, got a Map');
    expect(() => loose(irilink.toHtml)([], Buffer.from('x'))).to.throw(TypeError, 'irilink: toHtml(): options must be an object or undefined, got a Buffer');
    expect(() => loose(irilink.createLinkStream)(new Date(0))).to.throw(TypeError, 'irilink: createLinkStream(): options must be an object or undefined, got a Date');
    expect(() => loose(irilink.toUri)('x', new Map())).to.throw(TypeError, /^irilink: toUri\(\): options must be an object/);
    // An object made by a class, or with no prototype, is still an options object.
    class Options {
      email = false;
    }
    expect(irilink.findLinks('a@example.com', new Options())).to.deep.equal([]);
    expect(irilink.findLinks('a@example.com', Object.assign(Object.create(null) as object, { email: false }))).to.deep.equal([]);
  });

  it('refusals(link, [42]) names its argument schemes (it said "option schemes")', () => {
    expect(() => loose(irilink.refusals)(link(), [42])).to.throw(TypeError, 'irilink: refusals(): schemes must be an array or a Set of scheme names, got 42');
    expect(() => loose(irilink.refusals)(link(), new Set(['java script']))).to.throw(TypeError, 'irilink: refusals(): schemes must be an array or a Set of scheme names, got "java script"');
    expect(() => loose(irilink.refusals)(link(), ['data'])).to.throw(TypeError, 'irilink: refusals(): schemes must be free of javascript, vbscript and data (never linked), got "data"');
    // An option of a renderer is still an option.
    expect(() => irilink.toHtml([], { schemes: [42] as unknown as string[] })).to.throw(TypeError, 'irilink: option schemes must be an array or a Set of scheme names, got 42');
  });

  it('schemes may be a Set wherever it is taken, as refusals() takes one (renderers refused it: found in review)', () => {
    const text = 'see spotify:track and https://example.com/';
    const chunks = irilink.linkify(text, { schemes: new Set(['spotify', 'https']) });
    expect(chunks.filter((c) => c.type === 'link').map((c) => c.text)).to.deep.equal(['spotify:track', 'https://example.com/']);
    expect(irilink.toHtml(chunks, { schemes: new Set(['spotify']) })).to.include('<a href="spotify:track"');
    expect(irilink.toHtml(chunks, { schemes: ['spotify'] })).to.equal(irilink.toHtml(chunks, { schemes: new Set(['spotify']) }));
    expect(() => irilink.findLinks('x', { schemes: new Set([42]) as unknown as Set<string> })).to.throw(TypeError, 'irilink: option schemes must be an array or a Set of scheme names (RFC 3986 §3.1 syntax, at most 32 characters), got 42');
    expect(() => irilink.toHtml([], { schemes: new Set(['data']) })).to.throw(TypeError, /free of javascript/);
  });

  it('a renderer from createRenderer or createMarkdownSourceRenderer checks each chunk (null read .type; a bad text was echoed)', () => {
    expect(() => loose(irilink.createRenderer('html').chunk)(null)).to.throw(TypeError, 'irilink: createRenderer().chunk(): chunk must be a text or link chunk ({ type, text, … }), got null');
    expect(() => loose(irilink.createRenderer('text').chunk)({ type: 'text', text: 42 })).to.throw(TypeError, /createRenderer\(\)\.chunk\(\): chunk must be a text or link chunk .*, got an object/);
    expect(() => loose(irilink.createMarkdownSourceRenderer().chunk)({ ...link(), text: {} })).to.throw(TypeError, /^irilink: createMarkdownSourceRenderer\(\)\.chunk\(\): chunk must be/);
    expect(irilink.createRenderer('text').chunk(link())).to.equal('https://例え.jp/パス');
  });

  it('toJsonl refuses a field it would write wrongly (a NaN offset became null, a BigInt threw its own error)', async () => {
    const r = await writeJunk(irilink.createRenderStream('jsonl'), { ...link(), end: '4' });
    expect((r.failed as Error).message).to.equal('irilink: createRenderStream(): chunk.end must be a finite number or absent, got "4"');
    expect(() => irilink.toJsonl([{ ...link(), start: Number.NaN }])).to.throw(TypeError, 'irilink: toJsonl(): chunk.start must be a finite number or absent, got NaN');
    expect(() => irilink.toJsonl([{ ...link(), uri: 10n as unknown as string }])).to.throw(TypeError, 'irilink: toJsonl(): chunk.uri must be a string or absent, got 10n');
    expect(() => irilink.toJsonl([{ ...link(), diagnostics: [null] as unknown as [] }])).to.throw(TypeError, "irilink: toJsonl(): a chunk's diagnostics[0] must be a diagnostic code (a string), got null");
    // Every renderer: `[null]` was read as no diagnostic.
    expect(() => irilink.toHtml([{ ...link(), diagnostics: [null] as unknown as [] }])).to.throw(TypeError, "irilink: toHtml(): a chunk's diagnostics[0] must be a diagnostic code (a string), got null");
    expect(() => irilink.createRenderer('ansi').chunk({ ...link(), diagnostics: ['userinfo', 7] as unknown as [] })).to.throw(TypeError, 'irilink: createRenderer().chunk(): chunk.diagnostics[1] must be a diagnostic code (a string), got 7');
    expect(irilink.toJsonl([{ type: 'link', text: 'x' } as LinkChunk], { links: true })).to.equal('{"line":1,"column":1,"text":"x","diagnostics":[]}\n');
  });

  it("irilinkLinkifyIt's methods check their arguments (pretest(null) read .includes, add(42) .endsWith, set(null) .fuzzyLink)", () => {
    const l = irilink.irilinkLinkifyIt();
    expect(() => loose(l.pretest.bind(l))(null)).to.throw(TypeError, 'irilink: linkify.pretest(): text must be a string, got null');
    expect(() => loose(l.test.bind(l))(42)).to.throw(TypeError, 'irilink: linkify.test(): text must be a string, got 42');
    expect(() => loose(l.add.bind(l))(42, null)).to.throw(TypeError, 'irilink: linkify.add(): schema must be a scheme name (RFC 3986 §3.1), with or without its ":", got 42');
    expect(() => l.add('', 'http:')).to.throw(TypeError, /linkify\.add\(\): schema must be a scheme name/);
    expect(() => l.add('javascript:', 'http:')).to.throw(TypeError, /linkify\.add\(\): schema must be a scheme other than javascript/);
    expect(() => loose(l.tlds.bind(l))(undefined)).to.throw(TypeError, /^irilink: linkify\.tlds\(\): list must be a top-level domain or an array of them/);
    expect(() => l.tlds([, 'com'] as string[])).to.throw(TypeError, /linkify\.tlds\(\): list must be/); // a hole
    expect(() => loose(l.set.bind(l))(null)).to.throw(TypeError, 'irilink: linkify.set(): options must be an object or undefined, got null');
    expect(() => loose(l.set.bind(l))({ fuzzyLink: null })).to.throw(TypeError, 'irilink: linkify.set(): options.fuzzyLink must be a boolean, got null');
    expect(l.add('spotify:', 'http:').test('see spotify:track:1')).to.equal(true);
  });

  it('the remark transformer checks the tree it is given (42 gave "Cannot use \'in\' operator")', () => {
    const transform = irilink.remarkIrilink();
    expect(() => loose(transform)(42)).to.throw(TypeError, 'irilink: remarkIrilink(): tree must be an mdast tree (its children arrays of node objects), got 42');
    expect(() => transform({ type: 'root', children: [null] })).to.throw(TypeError, /remarkIrilink\(\): tree must be an mdast tree .*, got null/);
    expect(() => transform({ type: 'root', children: [{ type: 'text', value: 5 }] })).to.throw(TypeError, /each text value a string\), got 5/);
    expect(() => loose(irilink.remarkIrilink)(null)).to.throw(TypeError, 'irilink: remarkIrilink(): options must be an object or undefined, got null');
    // A frozen tree cannot take the links ("Cannot assign to read only property 'length'").
    const frozen = (node: object): object => {
      for (const v of Object.values(node)) if (v !== null && typeof v === 'object') frozen(v as object);
      return Object.freeze(node);
    };
    const tree = frozen({ type: 'root', children: [{ type: 'paragraph', children: [{ type: 'text', value: 'see https://a.example/' }] }] });
    expect(() => transform(tree)).to.throw(TypeError, 'irilink: remarkIrilink(): tree must be an mdast tree it can change (not frozen), got an array');
    // A tree frozen only in part is left as it was, the parts before the frozen one too.
    const open = { type: 'paragraph', children: [{ type: 'text', value: 'see https://a.example/' }] };
    const partly = { type: 'root', children: [open, frozen({ type: 'paragraph', children: [{ type: 'text', value: 'and https://b.example/' }] })] };
    const before = JSON.stringify(partly);
    expect(() => transform(partly)).to.throw(TypeError, /not frozen/);
    expect(JSON.stringify(partly)).to.equal(before);
    delete (partly.children as unknown[])[1];
    partly.children.length = 1;
    transform(partly);
    expect(open.children.map((n) => n.type)).to.deep.equal(['text', 'link']);
    // A node the tree holds twice is linked once (its text is not replaced twice).
    const shared = { type: 'paragraph', children: [{ type: 'text', value: 'see https://a.example/ now' }] };
    transform({ type: 'root', children: [shared, shared] });
    expect(shared.children.map((n) => n.type)).to.deep.equal(['text', 'link', 'text']);
    // …and read each time: an override opened in a shared node runs on in each block it is in (found in review).
    const override = { type: 'emphasis', children: [{ type: 'text', value: 'x\u202Ey' }] };
    const paragraph = (): { type: string; children: object[] } => ({ type: 'paragraph', children: [override, { type: 'text', value: ' see https://a.example/ now' }] });
    const twice = { type: 'root', children: [paragraph(), paragraph()] };
    transform(twice);
    expect(twice.children.map((p) => p.children.map((n) => (n as { type: string }).type))).to.deep.equal([['emphasis', 'text'], ['emphasis', 'text']]);
  });

  it('scan() refuses a base past 2^53 − 1 (a link\'s start and end came out equal)', () => {
    const scanner = irilink.createScanner();
    expect(() => scanner.scan('see https://a.example/', 0, true, 2 ** 60)).to.throw(TypeError, /^irilink: scan\(\): base must be a non-negative integer, base \+ text\.length at most 2\^53/);
    expect(() => scanner.scan('see https://a.example/', 0, true, Number.MAX_SAFE_INTEGER - 3)).to.throw(TypeError, /base must be/);
    expect(scanner.scan('see https://a.example/', 0, true, 2 ** 52).links.map((l) => l.end - l.start)).to.deep.equal([18]);
  });

  it('a renderer refuses chunks after end() (they were written after what end() closed); a second end() adds nothing', () => {
    for (const format of ['html', 'markdown', 'ansi', 'jsonl', 'text'] as const) {
      const r = irilink.createRenderer(format);
      r.chunk({ type: 'text', text: 'a', start: 0, end: 1 });
      r.end();
      expect(() => r.chunk({ type: 'text', text: 'b', start: 1, end: 2 }), format).to.throw(TypeError, `irilink: createRenderer().chunk() called after end()`);
      expect(r.end(), format).to.equal('');
    }
    const source = irilink.createMarkdownSourceRenderer();
    source.end();
    expect(() => source.chunk({ type: 'text', text: 'b', start: 0, end: 1 })).to.throw(TypeError, 'irilink: createMarkdownSourceRenderer().chunk() called after end()');
  });

  it('recomposeIri and formatUrlParts check every component (an object was written as "[object Object]")', () => {
    expect(() => irilink.recomposeIri({ path: '/', host: {} as string })).to.throw(TypeError, 'irilink: recomposeIri(): c.host must be a string or undefined, got an object');
    expect(() => irilink.recomposeIri({ path: '/', scheme: Symbol('s') as unknown as string })).to.throw(TypeError, /c\.scheme must be a string or undefined, got a symbol/);
    expect(irilink.recomposeIri({ scheme: 'http', host: 'example.org', port: '8080', path: '/' })).to.equal('http://example.org:8080/');
    expect(() => irilink.formatUrlParts({ scheme: 'https', host: 'a.example', path: 'a/b' as unknown as string[] })).to.throw(TypeError, 'irilink: formatUrlParts(): parts.path must be an array of strings, or undefined, got "a/b"');
    expect(() => irilink.formatUrlParts({ scheme: 'https', host: 'a.example', query: [null] as unknown as [string][] })).to.throw(TypeError, /parts\.query must be an array of \[key, value\?\] pairs of strings/);
  });

  it('formatUrlParts refuses a scheme or a host that would move the boundaries of the parts (they were written as given)', () => {
    for (const scheme of ['', 'ht tp', '1http', 'a:b', 'https/']) {
      expect(() => irilink.formatUrlParts({ scheme, host: 'a.example' }), scheme).to.throw(TypeError, /^irilink: formatUrlParts\(\): parts\.scheme must be a scheme name/);
    }
    for (const host of ['a.example/evil', 'a.example?x', 'a.example#f', 'a\\b', 'a b', 'a\nb', 'a\u0000']) {
      expect(() => irilink.formatUrlParts({ scheme: 'https', host, path: ['x'] }), host).to.throw(TypeError, /^irilink: formatUrlParts\(\): parts\.host must be a string without/);
    }
    // An empty host (file:), userinfo, an IP literal and a port are an authority.
    expect(irilink.formatUrlParts({ scheme: 'file', host: '', path: ['etc', 'hosts'] })).to.equal('file:///etc/hosts');
    expect(irilink.formatUrlParts({ scheme: 'svn+ssh', host: 'u@[2001:db8::1]:22', path: ['r'] })).to.equal('svn+ssh://u@[2001:db8::1]:22/r');
  });

  it('formatUrlParts refuses a field it does not know (`port: 8080` or `fragments` was left out of the URL unsaid)', () => {
    const parts = (extra: object): irilink.UrlParts => ({ scheme: 'https', host: 'a.example', path: ['x'], ...extra }) as irilink.UrlParts;
    expect(() => irilink.formatUrlParts(parts({ port: 8080 }))).to.throw(
      TypeError,
      'irilink: formatUrlParts(): parts.port must be absent: the parts are scheme, host, path, query, fragment (a port goes in host, "example.com:8080"), got 8080',
    );
    expect(() => irilink.formatUrlParts(parts({ fragments: ['f'] }))).to.throw(TypeError, /^irilink: formatUrlParts\(\): parts\.fragments must be absent/);
    expect(irilink.formatUrlParts(parts({ host: 'a.example:8080', fragment: ['f'] }))).to.equal('https://a.example:8080/x#f');
  });

  it('skeleton and confusableHost speak as the rest of irilink ("skeleton: expected a string" had no irilink: prefix)', () => {
    expect(() => loose(irilink.skeleton)(undefined)).to.throw(TypeError, 'irilink: skeleton(): s must be a string, got undefined');
    expect(() => loose(irilink.confusableHost)(42)).to.throw(TypeError, 'irilink: confusableHost(): host must be a string, got 42');
  });

  it('mail functions check their inputs (linkifyMessage(null) read .buffer; decodeFlowed(null) .length; runMail(…, null) .write)', async () => {
    const rejection = async (p: () => Promise<unknown>): Promise<string> => {
      try {
        await p();
      } catch (e) {
        return (e as Error).message;
      }
      return 'no error';
    };
    expect(await rejection(() => loose(irilink.linkifyMessage)(null) as Promise<unknown>)).to.equal('irilink: linkifyMessage(): raw must be a Buffer or a Uint8Array (the message bytes), got null');
    expect(await rejection(() => loose(irilink.linkifyMessage)(MAIL, {}, Number.NaN) as Promise<unknown>)).to.equal('irilink: linkifyMessage(): index must be a non-negative integer, got NaN');
    expect(await rejection(() => loose(irilink.runMail)(Readable.from([MAIL]), null, 'html') as Promise<unknown>)).to.equal('irilink: runMail(): output must be a writable stream (an object with a write method), got null');
    expect(await rejection(async () => {
      for await (const _ of loose(irilink.splitMbox)([null]) as AsyncIterable<unknown>) void _;
    })).to.equal('irilink: splitMbox(): each piece of input must be a Buffer, a Uint8Array or a string, got null');
    expect(await rejection(async () => {
      for await (const _ of irilink.linkifyMail(MAIL, { html: 10n as unknown as 'all' })) void _;
    })).to.equal('irilink: option html must be "alternative", "all" or "none", got 10n'); // JSON.stringify threw on the BigInt
    expect(() => loose(irilink.decodeFlowed)(null, true)).to.throw(TypeError, 'irilink: decodeFlowed(): text must be a string, got null');
    expect(() => loose(irilink.decodeFlowed)('a \nb', 'yes')).to.throw(TypeError, /decodeFlowed\(\): delSp must be a boolean/);
    expect(() => loose(irilink.linkifyQuoted)(42)).to.throw(TypeError, 'irilink: linkifyQuoted(): text must be a string, got 42');
    expect(() => irilink.mailToHtml({ ...mailMessage, index: Number.NaN })).to.throw(TypeError, 'irilink: mailToHtml(): message.index must be a non-negative integer, got NaN'); // was data-index="NaN"
    expect(() => irilink.mailToHtml({ ...mailMessage, parts: [{ ...mailMessage.parts[0]!, chunks: [null] as unknown as Chunk[] }] })).to.throw(TypeError, /^irilink: mailToHtml\(\): each chunk must be/);
  });

  it('null is no default value: logRules, maxRecordBytes, html, mbox and render refuse it (it was read as "not given")', async () => {
    expect(() => irilink.findLogLinks('x', { logRules: null as unknown as boolean })).to.throw(TypeError, 'irilink: option logRules must be a boolean, got null');
    expect(() => irilink.createRecordStream({ maxRecordBytes: null as unknown as number })).to.throw(TypeError, 'irilink: option maxRecordBytes must be a positive integer, got null');
    let message = '';
    try {
      await irilink.runMail(Readable.from([MAIL]), new PassThrough(), 'jsonl', { mbox: null as unknown as boolean });
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).to.equal('irilink: option mbox must be true, false or "auto", got null');
    try {
      await irilink.runMail(Readable.from([MAIL]), new PassThrough(), 'jsonl', { render: 42 as unknown as object });
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).to.equal('irilink: option render must be an object (the HTML options) or undefined, got 42');
  });

  it('splitMbox refuses an option name it does not know (`mbx` was read as mbox: "auto"); runMail checks render whatever the format', async () => {
    const rejection = async (f: () => Promise<unknown>): Promise<string> => {
      try {
        await f();
      } catch (e) {
        return (e as Error).message;
      }
      return 'resolved';
    };
    expect(await rejection(async () => {
      for await (const _ of irilink.splitMbox('From a Sat\nSubject: x\n\nb\n', { mbx: true } as object)) void _;
    })).to.equal('irilink: unknown option "mbx"; the known options are mbox');
    // Its options' type is exported with it, as ScanResult's items' type is (they were not).
    const options: irilink.SplitMboxOptions = { mbox: false };
    const messages: irilink.MboxMessage[] = [];
    for await (const m of irilink.splitMbox('Subject: x\n\nb\n', options)) messages.push(m);
    expect(messages).to.have.length(1);
    const spans: irilink.UnlinkedSpan[] = irilink.createScanner().scan('see https://u@example.com/ x', 0, true, 0).unlinked;
    expect(spans).to.deep.equal([{ start: 4, end: 26, diagnostics: ['userinfo'] }]);
    // The contents of render were checked only when a message was rendered as HTML.
    for (const format of ['jsonl', 'html'] as const) {
      for (const input of [[MAIL], []]) {
        expect(await rejection(() => irilink.runMail(Readable.from(input), new PassThrough(), format, { render: { rel: 5 } as object })), format)
          .to.equal('irilink: option render (the HTML options): option rel must be a string, got 5');
      }
    }
    // runMail's unknown-name message lists render among what it takes (linkifyMail's list did not).
    const unknown = await rejection(() => irilink.runMail(Readable.from([MAIL]), new PassThrough(), 'jsonl', { rendr: {} } as object));
    expect(unknown).to.match(/^irilink: unknown option "rendr"; the known options are html, mbox, render, /);
  });

  it("a chunk's diagnostics that are not an array are refused (a link given 'idna-failed' as a string was clickable)", () => {
    const unsafe = { ...link(), diagnostics: 'idna-failed' as unknown as [] };
    expect(() => irilink.toHtml([unsafe])).to.throw(TypeError, `irilink: toHtml(): a chunk's diagnostics must be an array of diagnostic codes or absent, got "idna-failed"`);
    expect(() => irilink.refusals(unsafe)).to.throw(TypeError, 'irilink: refusals(): link.diagnostics must be an array of diagnostic codes or absent, got "idna-failed"');
    expect(irilink.refusals({ ...link(), diagnostics: ['idna-failed'] })).to.deep.equal(['idna-failed']);
  });

  it('log functions name themselves, and RecordLinker.record checks its line (null read .length)', () => {
    expect(() => loose(irilink.findLogLinks)(42)).to.throw(TypeError, 'irilink: findLogLinks(): line must be a string, got 42'); // was LogLineLinker.links()
    expect(() => loose(irilink.linkifyLogLine)(null)).to.throw(TypeError, 'irilink: linkifyLogLine(): line must be a string, got null');
    expect(() => loose(new irilink.RecordLinker().record)(null)).to.throw(TypeError, 'irilink: RecordLinker.record(): bytes must be a Buffer or a Uint8Array (one line), got null');
    expect(new irilink.RecordLinker().record(new TextEncoder().encode('see https://例え.jp/')).links[0]?.byteEnd).to.equal(22);
  });

  it('Markdown functions name themselves for bad options (it said MarkdownLinkifier())', () => {
    expect(() => loose(irilink.findMarkdownLinks)('x', 42)).to.throw(TypeError, 'irilink: findMarkdownLinks(): options must be an object or undefined, got 42');
    expect(() => loose(irilink.linkifyMarkdown)('x', [])).to.throw(TypeError, 'irilink: linkifyMarkdown(): options must be an object or undefined, got an array');
  });

  it('new IriError checks its code (a junk code gave the message "undefined")', () => {
    expect(() => loose((c: unknown) => new IriError(c as irilink.IriErrorCode))(42)).to.throw(TypeError, /^irilink: IriError\(\): code must be one of lone-surrogate, noncharacter, /);
    expect(() => new IriError('lone-surrogate', Symbol('d') as unknown as string)).to.throw(TypeError, /IriError\(\): detail must be a string or undefined, got a symbol/);
    expect(new IriError('idna-failed', '"a..b"').message).to.equal('the host is not a valid IDNA domain name (UTS #46 ToASCII failed): "a..b"');
  });
});

// ------------------------------------------------------------------ what the review of the sweep found

describe('api misuse: valid input the first sweep refused, and messages it left unclear', () => {
  type Loose = (...args: unknown[]) => unknown;
  const loose = (f: unknown): Loose => f as Loose;
  const link = (): LinkChunk => sampleLink();
  /** A Uint8Array made in another realm (a vm context, as a test runner's environment makes them): not instanceof. */
  const foreignBytes = (bytes: Uint8Array): Uint8Array => runInNewContext(`new Uint8Array(${JSON.stringify([...bytes])})`) as Uint8Array;
  const messageOf = async (p: () => Promise<unknown>): Promise<string> => {
    try {
      await p();
    } catch (e) {
      return (e as Error).message;
    }
    return 'no error';
  };

  it('a Uint8Array from another realm is bytes, as one from this realm is (it was "must be a Buffer or a Uint8Array …, got an Uint8Array")', async () => {
    const raw = foreignBytes(MAIL);
    expect(raw instanceof Uint8Array).to.equal(false);
    const message = await irilink.linkifyMessage(raw);
    expect(message.parts[0]!.links.map((l) => l.uri)).to.deep.equal(['https://xn--r8jz45g.jp/%E3%83%91%E3%82%B9']);
    const mails: irilink.MailMessage[] = [];
    for await (const m of irilink.linkifyMail(foreignBytes(MAIL))) mails.push(m);
    expect(mails.length).to.equal(1);
    const pieces: irilink.MboxMessage[] = [];
    for await (const m of irilink.splitMbox([foreignBytes(Buffer.from('From a Sat\nSubject: x\n\nb\n'))])) pieces.push(m);
    expect(pieces.map((m) => m.raw.toString())).to.deep.equal(['Subject: x\n\nb\n']);
    expect(new irilink.RecordLinker().record(foreignBytes(Buffer.from('see https://例え.jp/'))).links[0]?.byteEnd).to.equal(22);
    expect(irilink.linkRecords(foreignBytes(Buffer.from('a\nsee https://例え.jp/\n'))).map((r) => r.links.length)).to.deep.equal([0, 1]);
    // Any other typed array is still no bytes, and the message says "a Uint16Array" (it said "an Uint16Array").
    expect(() => loose(new irilink.RecordLinker().record)(new Uint16Array(2))).to.throw(TypeError, 'irilink: RecordLinker.record(): bytes must be a Buffer or a Uint8Array (one line), got a Uint16Array');
  });

  it("irilinkLinkifyIt().add('//', null) turns linkify-it's protocol-relative rule off, as linkify-it documents (it was refused)", () => {
    const l = irilink.irilinkLinkifyIt();
    expect(l.add('//', null)).to.equal(l);
    // Every removal turns anyScheme off (as main did for '//'); the listed schemes are still linked.
    expect(l.match('see foo://bar.example/x')).to.equal(null);
    expect(l.match('see https://例え.jp/')?.map((m) => m.url)).to.deep.equal(['https://xn--r8jz45g.jp/']);
    // '//' is no scheme to add.
    expect(() => irilink.irilinkLinkifyIt().add('//', 'http:')).to.throw(TypeError, /^irilink: linkify\.add\(\): schema must be a scheme name/);
  });

  it('an options object is any object but the built-in kinds that hold no options (a module namespace and a tagged class were refused)', async () => {
    class Tagged {
      email = false;
      get [Symbol.toStringTag](): string {
        return 'Tagged';
      }
    }
    expect(irilink.findLinks('a@example.com', new Tagged())).to.deep.equal([]);
    // A module namespace (`import * as options from './options.js'`): null prototype, toStringTag "Module".
    const moduleOf = async (source: string): Promise<object> => (await import(`data:text/javascript,${source}`)) as object;
    expect(irilink.findLinks('a@example.com', await moduleOf('export const email = false;'))).to.deep.equal([]);
    expect(irilink.toHtml(sampleChunks(), (await moduleOf('export const rel = "x-namespace";')) as irilink.HtmlOptions)).to.include(' rel="x-namespace"');
    const plainFromAnotherRealm = runInNewContext('({ email: false })') as object;
    expect(irilink.findLinks('a@example.com', plainFromAnotherRealm)).to.deep.equal([]);
    // Still refused: the kinds whose entries or items are no options, from this realm or another.
    const refused: [unknown, string][] = [
      [[], 'an array'],
      [new Set(['email']), 'a Set'],
      [new WeakMap(), 'a WeakMap'],
      [/email/, 'a RegExp'],
      [Object(false) as object, 'a Boolean'],
      [new Uint8Array(1), 'a Uint8Array'],
      [new ArrayBuffer(1), 'an ArrayBuffer'],
      [Promise.resolve(), 'a Promise'],
      [runInNewContext('new Map()'), 'a Map'],
      [runInNewContext('new Date(0)'), 'a Date'],
    ];
    for (const [value, kind] of refused) {
      expect(() => loose(irilink.findLinks)('x', value), kind).to.throw(TypeError, `irilink: findLinks(): options must be an object or undefined, got ${kind}`);
      expect(() => loose(irilink.toText)([], value), kind).to.throw(TypeError, `irilink: toText(): options must be an object or undefined, got ${kind}`);
    }
  });

  it('each message names its function and its field the same way (createRenderer().chunk, chunk.diagnostics[i], option mbox, "or undefined")', async () => {
    // (a) The chunk's other errors already said createRenderer().chunk(); the jsonl field checks said createRenderer().
    expect(() => irilink.createRenderer('jsonl').chunk({ ...link(), start: Number.NaN })).to.throw(TypeError, 'irilink: createRenderer().chunk(): chunk.start must be a finite number or absent, got NaN');
    expect(() => irilink.createRenderer('jsonl').chunk({ ...link(), diagnostics: ['userinfo', 7] as unknown as [] })).to.throw(TypeError, 'irilink: createRenderer().chunk(): chunk.diagnostics[1] must be a diagnostic code (a string), got 7');
    // (c) One message for the mbox option, whichever function reads it (splitMbox said options.mbox … 'auto').
    const mbox = 'irilink: option mbox must be true, false or "auto", got "yes"';
    expect(await messageOf(async () => {
      for await (const _ of irilink.splitMbox([MAIL], { mbox: 'yes' as unknown as boolean })) void _;
    })).to.equal(mbox);
    expect(await messageOf(async () => {
      for await (const _ of irilink.linkifyMail(MAIL, { mbox: 'yes' as unknown as boolean })) void _;
    })).to.equal(mbox);
    // (d) Where undefined is accepted, the message says so.
    expect(() => loose(irilink.toUri)('x', 42)).to.throw(TypeError, 'irilink: toUri(): options must be an object or undefined, got 42');
    expect(() => loose(irilink.toIri)('x', 42)).to.throw(TypeError, 'irilink: toIri(): options must be an object or undefined, got 42');
    const l = irilink.irilinkLinkifyIt();
    expect(() => loose(l.set.bind(l))(42)).to.throw(TypeError, 'irilink: linkify.set(): options must be an object or undefined, got 42');
    expect(l.set(undefined).test('see www.example.com')).to.equal(true); // as linkify-it: no change
  });

  it('decodeFlowed(text) reads a missing delSp as false, and runMail writes to a sink that has only write()', async () => {
    expect(irilink.decodeFlowed('see https://例え.jp/ \nパス\n')).to.equal(irilink.decodeFlowed('see https://例え.jp/ \nパス\n', false));
    expect(irilink.decodeFlowed('a \nb\n')).to.equal('a b\n');
    let written = '';
    const sink = { write: (s: string): boolean => ((written += s), false) }; // false: "wait for drain", which it cannot
    const result = await irilink.runMail(Readable.from([MAIL]), sink as unknown as NodeJS.WritableStream, 'jsonl');
    expect(result).to.deep.equal({ messages: 1, links: 1, failed: 0 });
    expect(JSON.parse(written.trim()).uri).to.equal('https://xn--r8jz45g.jp/%E3%83%91%E3%82%B9');
    expect(await messageOf(() => loose(irilink.runMail)(Readable.from([MAIL]), { once: () => undefined }, 'jsonl') as Promise<unknown>)).to.equal(
      'irilink: runMail(): output must be a writable stream (an object with a write method), got an object',
    );
  });
});
