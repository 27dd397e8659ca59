// Failure is a value; exceptions are for misuse of the API (TypeError) and for the places where a
// specification says the operation fails (IriError with a stable `.code`). All messages live here.

export type IriErrorCode =
  | 'lone-surrogate' //        RFC 3987 §3.1: a lone surrogate has no UTF-8 form
  | 'noncharacter' //          bis §6.3: U+FFFE / U+FFFF cannot be held even by a LEIRI
  | 'disallowed-ascii' //      RFC 3987 §3.1: space < > " { } | \ ^ ` in an IRI (asciiDisallowed: 'fail')
  | 'idna-failed' //           UTS #46 ToASCII failed for the host (host: 'idna')
  | 'unknown-charset' //       bis §3.5: documentCharset is not an encoding iconv-lite knows
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
    super(detail ? `${MESSAGES[code]}: ${detail}` : MESSAGES[code]);
    this.name = 'IriError';
    this.code = code;
    this.index = index;
  }
}

/** A TypeError for a bad argument or option, worded the same way everywhere. */
export function badOption(name: string, expected: string, got: unknown): TypeError {
  return new TypeError(`irilink: option ${name} must be ${expected}, got ${describe(got)}`);
}

export function badArgument(fn: string, name: string, expected: string, got: unknown): TypeError {
  return new TypeError(`irilink: ${fn}(): ${name} must be ${expected}, got ${describe(got)}`);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? value.slice(0, 40) + '…' : value);
  if (typeof value === 'object') return Array.isArray(value) ? 'an array' : 'an object';
  return `${typeof value} ${String(value)}`;
}
