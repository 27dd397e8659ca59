// Failure is a value; exceptions are for misuse of the API (TypeError) and for the places where a
// specification says the operation fails (IriError with a stable `.code`). All messages live here.

import { types } from 'node:util';

export type IriErrorCode =
  | 'lone-surrogate' //        RFC 3987 §3.1: a lone surrogate has no UTF-8 form
  | 'noncharacter' //          bis §6.3: U+FFFE / U+FFFF cannot be held even by a LEIRI
  | 'disallowed-ascii' //      RFC 3987 §3.1: space < > " { } | \ ^ ` in an IRI (asciiDisallowed: 'fail')
  | 'idna-failed' //           UTS #46 ToASCII failed for the host (host: 'idna')
  | 'unknown-charset' //       bis §3.5: documentCharset is not a charset a stream decodes (WHATWG label or iconv-lite name)
  | 'unencodable-query'; //    bis §3.5: the query has characters the document charset cannot encode

const MESSAGES: Record<IriErrorCode, string> = {
  'lone-surrogate': 'the string holds a lone surrogate, which has no UTF-8 encoding (RFC 3987 §3.1)',
  noncharacter: 'U+FFFE and U+FFFF cannot appear even in a LEIRI (3987bis §6.3)',
  'disallowed-ascii': 'an IRI cannot contain space or < > " { } | \\ ^ ` (RFC 3987 §3.1); pass asciiDisallowed: "encode" to percent-encode them',
  'idna-failed': 'the host is not a valid IDNA domain name (UTS #46 ToASCII failed)',
  'unknown-charset': 'unknown document charset',
  'unencodable-query': 'the query holds characters the document charset cannot encode (3987bis §3.5)',
};

export class IriError extends Error {
  readonly code: IriErrorCode;
  /** UTF-16 offset in the input where the problem was found, when there is one. */
  readonly index: number | undefined;

  constructor(code: IriErrorCode, detail?: string, index?: number) {
    // Checked first: a junk code would give the message "undefined", a symbol detail an internal error.
    if (typeof code !== 'string' || !Object.prototype.hasOwnProperty.call(MESSAGES, code)) {
      throw badArgument('IriError', 'code', `one of ${Object.keys(MESSAGES).join(', ')}`, code);
    }
    if (detail !== undefined && typeof detail !== 'string') throw badArgument('IriError', 'detail', 'a string or undefined', detail);
    if (index !== undefined && !(Number.isInteger(index) && index >= 0)) {
      throw badArgument('IriError', 'index', 'a non-negative integer or undefined', index);
    }
    super(detail ? `${MESSAGES[code]}: ${detail}` : MESSAGES[code]);
    this.name = 'IriError';
    this.code = code;
    this.index = index;
  }
}

/**
 * What every function takes as its options argument: an object of the kind `{ … }` makes — a class instance (with a
 * Symbol.toStringTag of its own too), a null-prototype object, a module namespace (`import * as o`), an object from
 * another realm — and not one of the built-in kinds whose entries or items are no options: an array, an ArrayBuffer
 * or a view of one (a Buffer), a Map, a Set, a WeakMap, a WeakSet, a Date, a RegExp, a Promise or a boxed primitive.
 * They would be read as `{}` (a Map, a Date) or give `unknown option "0"` (a Buffer). The brand checks of
 * util.types see through realms and Symbol.toStringTag. A Proxy whose traps throw lets its own error through.
 */
export function isOptionsObject(value: unknown): value is object {
  if (value === null || typeof value !== 'object') return false;
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto === Object.prototype || proto === null) return true; // `{ … }`, Object.create(null), a module namespace
  return !(
    Array.isArray(value) ||
    ArrayBuffer.isView(value) ||
    types.isAnyArrayBuffer(value) ||
    types.isMap(value) ||
    types.isSet(value) ||
    types.isWeakMap(value) ||
    types.isWeakSet(value) ||
    types.isDate(value) ||
    types.isRegExp(value) ||
    types.isPromise(value) ||
    types.isBoxedPrimitive(value)
  );
}

/** A TypeError for a bad argument or option, worded the same way everywhere. */
export function badOption(name: string, expected: string, got: unknown): TypeError {
  // The options object itself is not "option options".
  const subject = name === 'options' ? 'options' : `option ${name}`;
  return new TypeError(`irilink: ${subject} must be ${expected}, got ${describe(got)}`);
}

export function badArgument(fn: string, name: string, expected: string, got: unknown): TypeError {
  return new TypeError(`irilink: ${fn}(): ${name} must be ${expected}, got ${describe(got)}`);
}

/**
 * The TypeError for an option name a function does not know (a typo such as `lnks` would otherwise be ignored
 * silently). The name is quoted (it is the caller's string), the known names listed.
 */
export function unknownOption(name: string, known: Iterable<string>): TypeError {
  return new TypeError(`irilink: unknown option ${describe(name)}; the known options are ${[...known].join(', ')}`);
}

const MAX_SHOWN = 40;

function shorten(s: string): string {
  return s.length > MAX_SHOWN ? s.slice(0, MAX_SHOWN) + '…' : s;
}

/** A value as a message shows it: strings quoted, other primitives as written, objects by their kind. */
function describe(value: unknown): string {
  switch (typeof value) {
    case 'undefined':
      return 'undefined';
    case 'string':
      return JSON.stringify(shorten(value));
    case 'number':
    case 'boolean':
      return String(value);
    case 'bigint':
      return `${shorten(String(value))}n`;
    case 'symbol':
      return `a symbol (${shorten(value.toString())})`;
    case 'function':
      return 'a function';
    default:
      break;
  }
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return kindOf(value as object);
}

// `an object` for a plain object, `a Map`, `a Buffer` … for an instance of a named class.
function kindOf(value: object): string {
  let name: unknown;
  try {
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto === null || proto === Object.prototype) return 'an object';
    name = (proto as { constructor?: { name?: unknown } }).constructor?.name;
  } catch {
    return 'an object'; // a Proxy whose trap throws
  }
  if (typeof name !== 'string' || name === '' || name.length > MAX_SHOWN) return 'an object';
  // `an Error`, `an ArrayBuffer`, but `a Uint8Array`, `a URL`: a leading U is said "you".
  return `${'AEIO'.includes(name.charAt(0)) ? 'an' : 'a'} ${name}`;
}
