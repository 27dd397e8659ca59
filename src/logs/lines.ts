// Link detection in one log line with the log rules of view.ts.
import { badArgument, badOption, isOptionsObject } from '../errors.js';
import { createScanner, markEmbeddedLinks } from '../detect/index.js';
import { checkOptionNames } from '../detect/options.js';
import type { LinkOptions, Scanner } from '../detect/index.js';
import type { Chunk, Link } from '../types.js';
import { LongLineScanner } from './long.js';
import { isLogSyntax, logView, toLine } from './view.js';

/** Options of the log functions: the detector's, plus whether the log rules apply. */
export interface LogOptions extends LinkOptions {
  /** Apply the log rules (JSON unescaping, `"` and `|` as delimiters, `key=`, paths, syslog) — default true. */
  logRules?: boolean;
}

/** The log functions' own option, besides the detector's. */
export const LOG_OPTION_NAMES: readonly string[] = ['logRules'];

/**
 * For the log and record functions: a TypeError naming `fn` unless `options` is an object or undefined (an array,
 * a number or null is refused), and a TypeError for an option name that is neither one of `own` nor the
 * detector's, listing both (so the message names what `fn` takes).
 */
export function checkLogOptions(fn: string, options: unknown, own: readonly string[]): void {
  if (options === undefined) return;
  if (!isOptionsObject(options)) {
    throw badArgument(fn, 'options', 'an object or undefined', options);
  }
  checkOptionNames(options, own);
}

/** Splits LogOptions (checked by checkLogOptions) into the detector's options and the log ones. */
// `link` is undefined when no detector option is given, so the detector's resolved defaults are shared.
export function splitLogOptions(
  options: object | undefined,
  extra: readonly string[] = [],
): { link: LinkOptions | undefined; logRules: boolean } {
  if (options === undefined) return { link: undefined, logRules: true };
  const link: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(options)) if (key !== 'logRules' && !extra.includes(key)) link[key] = value;
  const given = (options as LogOptions).logRules;
  const logRules = given === undefined ? true : given; // not `??`: null is no boolean
  if (typeof logRules !== 'boolean') throw badOption('logRules', 'a boolean', logRules);
  return { link: Object.keys(link).length === 0 ? undefined : (link as LinkOptions), logRules };
}

/** Finds the links of log lines, one line at a time; options are validated once. */
export class LogLineLinker {
  private readonly scanner: Scanner;
  private readonly logRules: boolean;

  constructor(options?: LogOptions) {
    checkLogOptions('LogLineLinker', options, LOG_OPTION_NAMES);
    const { link, logRules } = splitLogOptions(options);
    this.scanner = createScanner(link);
    this.logRules = logRules;
  }

  /**
   * A scanner for one line too long to hold whole, given as bytes in the charset `encoding` (UTF-8 when
   * undefined): the same links as links() gives for the whole line (see src/logs/long.ts). `first`: the line is
   * the input's first, where a UTF-8 BOM is the input's and is dropped (src/logs/decode.ts).
   * The log and record streams' machinery, left out of the published types.
   * @internal
   */
  longLine(encoding: string | undefined, first = false): LongLineScanner {
    if (encoding !== undefined && typeof encoding !== 'string') throw badArgument('LogLineLinker.longLine', 'encoding', 'a charset name or undefined', encoding);
    if (typeof first !== 'boolean') throw badArgument('LogLineLinker.longLine', 'first', 'a boolean', first);
    return new LongLineScanner(this.scanner, this.logRules, encoding, first);
  }

  /** The links of one line (offsets into `line`; `text` is the line's slice). */
  links(line: string): Link[] {
    if (typeof line !== 'string') throw badArgument('LogLineLinker.links', 'line', 'a string', line);
    if (!this.logRules) return embedded(line, this.scanner.scan(line, 0, true, 0).links);
    const view = logView(line);
    const found = this.scanner.scan(view.text, 0, true, 0).links;
    // bidi-embedded is judged on both texts: the view (a JSON value unescaped, `\u202e` an override, as a program
    // that shows the value sees it) and the line as written (where an escaped `\n` in the value is no line end).
    if (view.text !== line && found.length > 0) markEmbeddedLinks(view.text, found);
    const out: Link[] = [];
    for (const link of found) {
      if (link.kind === 'url' && link.schemeInferred && isLogSyntax(view.unmasked, link.start, link.end)) continue;
      if (view.text !== line) {
        link.start = toLine(view, link.start);
        link.end = toLine(view, link.end);
        link.text = line.slice(link.start, link.end);
      }
      out.push(link);
    }
    return embedded(line, out);
  }
}

/** `bidi-embedded` (UAX #9 X1–X8), as linkify() gives it: the scanner alone does not track openers. */
function embedded(line: string, links: Link[]): Link[] {
  if (links.length > 0) markEmbeddedLinks(line, links);
  return links;
}

/**
 * The links of one log line with the log rules (see src/logs/view.ts).
 * @example findLogLinks('user=alice@example.com {"url":"https:\\/\\/example.com\\/a"}') // alice@example.com, https://example.com/a
 * (a JSON value is unescaped from the line's first `{"` on; `url="https:\\/\\/…"` outside JSON is no link)
 */
export function findLogLinks(line: string, options?: LogOptions): Link[] {
  if (typeof line !== 'string') throw badArgument('findLogLinks', 'line', 'a string', line);
  checkLogOptions('findLogLinks', options, LOG_OPTION_NAMES);
  return new LogLineLinker(options).links(line);
}

/** Text and link chunks covering one log line exactly (the log rules applied). */
export function linkifyLogLine(line: string, options?: LogOptions): Chunk[] {
  if (typeof line !== 'string') throw badArgument('linkifyLogLine', 'line', 'a string', line);
  checkLogOptions('linkifyLogLine', options, LOG_OPTION_NAMES);
  const links = new LogLineLinker(options).links(line);
  const chunks: Chunk[] = [];
  let pos = 0;
  for (const link of links) {
    if (link.start > pos) chunks.push({ type: 'text', text: line.slice(pos, link.start), start: pos, end: link.start });
    chunks.push({ type: 'link', ...link });
    pos = link.end;
  }
  if (pos < line.length) chunks.push({ type: 'text', text: line.slice(pos), start: pos, end: line.length });
  return chunks;
}
