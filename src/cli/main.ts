// The `irilink` command: irilink [options] [file…] (DESIGN.md "Public API", CLI line).
//
//   file / stdin ─ createLinkStream ─ CliStage (--unique, --stats) ─ createRenderStream(format) ─ stdout
//
// Modes (issue 6): --markdown (createLinkStream({ markdown: true }), Markdown source kept by --format markdown),
// --mail (src/mail linkifyMail, per file, message numbers continuing across files), --records (src/logs createRecordStream, over all inputs joined), --logs
// (the log rules: createLogLinkStream's rows, createRecordStream's records with --records, or the link list; all three
// through src/logs createCliLogStream, which also leaves out the links --schemes/--no-email do not keep).
//
// Exit codes: 0 ok; 1 an input could not be read (the other inputs are still processed); 2 usage error; 70 an
// internal error (bin/irilink.js).
// A closed stdout (`irilink big.txt | head`) ends the process quietly.
import { createReadStream, fstatSync, readFileSync, statSync } from 'node:fs';
import { isatty } from 'node:tty';
import { Buffer } from 'node:buffer';
import { once } from 'node:events';
import { Transform } from 'node:stream';
import type { Readable, TransformCallback, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import type { Chunk } from '../types.js';
import { createRenderer, DEFAULT_LINK_SCHEMES, RENDER_FORMATS } from '../render/index.js';
import type { RenderFormat } from '../render/index.js';
import type { ChunkRenderer } from '../render/common.js';
import { createMarkdownSourceRenderer } from '../markdown/source.js';
import { createLogLinkStream, createRecordStream } from '../logs/index.js';
import { createCliLogStream, utf16InputError } from '../logs/records.js';
import { createDecoder, startsWithUtf16Bom } from '../stream/decode.js';
import { jsonlText } from '../render/jsonl.js';
import { createLinkStream } from '../stream/transform.js';
import type { StreamOptions } from '../stream/transform.js';
import { createProgress, stopProgress } from './progress.js';
import type { Progress } from './progress.js';
import { DistinctLinks } from './unique.js';
import { detached } from '../memo.js';
import { asText, linkChoice } from './filter.js';
import { DEFAULT_MAX_LINK_LENGTH, DEFAULT_SCHEMES, isSchemeName, MAX_MAX_LINK_LENGTH, MIN_MAX_LINK_LENGTH, NEVER_SCHEMES } from '../detect/options.js';
import type { LinkChoice } from './filter.js';

const HELP = `Usage: irilink [options] [file…]

Finds URLs, IRIs and email addresses in text (UTS #58, RFC 3987) and prints them.
Reads the files in order, or standard input when there is none or the file is "-".
With --format jsonl (and --mail's jsonl) and several files, each row starts with "file",
the file's name (--mail numbers messages across the files as well; --records numbers lines
across the files instead).

Without --format, prints the links found, one per line (their ASCII URI; see --display).
With --format, renders the whole text; add --links to render only the links.

Options:
  -f, --format FORMAT   html | markdown | ansi | jsonl | text
                          html      text escaped, links as <a href>
                          markdown  links as <uri> autolinks or [text](uri)
                          ansi      OSC 8 terminal hyperlinks
                          jsonl     one JSON object per chunk (with --links: per link, with
                                    line column start end byteStart byteEnd text uri iri kind
                                    scheme schemeInferred diagnostics)
                          text      the text as read, in UTF-8 (links written as --display says)
  -l, --links           only the links, one per line (with -f jsonl, one object per link)
  -d, --display FORM    how a link is written: text (as found) | iri (readable) | uri (ASCII).
                        In the link list, the link's iri with its scheme (https://www.example.com,
                        mailto:aiko@example.jp, as jsonl's iri); rendering the whole text, an
                        inferred https:// or mailto: is left off (the text never had it).
                        Not with jsonl output (-f jsonl, --mail's default, --records), whose
                        objects carry all three, nor with --markdown -f markdown (the link's
                        text as written)
  -e, --encoding NAME   input charset (default utf-8): shift_jis, euc-jp, iso-2022-jp, gb18030,
                        big5, euc-kr, windows-1252, koi8-r, … (the WHATWG Encoding Standard's
                        labels and iconv-lite's charsets; not utf-7, base64 or hex)
      --schemes LIST    links with a scheme only for these schemes (comma-separated), mailto:
                        included, e.g. https,mailto,ftp; bare emails follow --no-email. With
                        --markdown also the links the author wrote (relative ones stay).
                        +name,+name: these besides the default ones, nothing narrowed
                        (+matrix,+spotify). html, markdown and ansi make these schemes
                        clickable too
      --no-schemeless   do not detect links without a scheme (example.com)
      --no-email        do not detect bare email addresses (alice@example.com); mailto: links
                        and Markdown's <alice@example.com> follow --schemes
      --max-link-length N
                        cut a link longer than N characters (UTF-16 units; default 8192, from 64
                        to 268435456) and flag it link-too-long; the rest follows as text, and a
                        note on standard error says how many links were cut (not with --records
                        or --mail, whose rows carry the flag; with --logs, N counts the link as
                        read, a JSON string's escapes undone)
  -u, --unique          each distinct link once (RFC 3987 §5.3.2 syntax-based comparison; not
                        with --logs, --records or --mail)
      --stats           counts to standard error at the end (not with --logs or --records)
      --no-progress     no progress bar (one is shown on standard error for a file of 16 MiB
                        or more when standard error is a terminal and standard output is not)

Modes (at most one of --markdown, --mail, --records):
      --markdown        the input is Markdown (CommonMark + GFM): nothing is linked in code spans,
                        code blocks or HTML blocks; links, images, definitions and <autolinks> the
                        author wrote are reported with their destination (jsonl: "construct").
                        --format markdown keeps the Markdown source and makes bare links links
      --no-gfm          with --markdown: CommonMark only (no GFM tables/strikethrough)
      --mail            the input is an mbox or one RFC 5322 message: each text part is read in
                        its declared charset (--encoding is not used, though an unknown name
                        is still a usage error), format=flowed joined,
                        quoted lines unwrapped. --format jsonl (default): one object per link
                        with its message; --format html: one HTML section per message.
                        Messages are numbered across the files; one over the MIME limits
                        (a header over 1 MiB, 1000 parts) is named on standard error and
                        skipped (html: its section says why)
      --records         record filter: one JSON line {"line":n,"links":[…]} per input line, also
                        for lines without links; a line ends at LF, CR LF or a lone CR (as jsonl
                        counts lines); line numbers continue across the files (a file not ending
                        in a line break ends its last record there)
      --logs            apply the log rules (JSON-lines, key=value, access logs, syslog: quotes,
                        | and request paths are not parts of links); with --records, with
                        --format jsonl --links, or with the link list (no --format, or
                        --format text --links)
  -h, --help            this help
  -V, --version         the version

An option given twice counts once, with the last value given.

Exit status: 0 ok, 1 an input could not be read or the output could not be written, 2 usage error,
70 internal error (a bug: its stack is on standard error).
`;

const OPTIONS = {
  format: { type: 'string', short: 'f' },
  links: { type: 'boolean', short: 'l' },
  display: { type: 'string', short: 'd' },
  encoding: { type: 'string', short: 'e' },
  schemes: { type: 'string' },
  'no-schemeless': { type: 'boolean' },
  'no-email': { type: 'boolean' },
  'max-link-length': { type: 'string' },
  unique: { type: 'boolean', short: 'u' },
  stats: { type: 'boolean' },
  'no-progress': { type: 'boolean' },
  markdown: { type: 'boolean' },
  'no-gfm': { type: 'boolean' },
  mail: { type: 'boolean' },
  records: { type: 'boolean' },
  logs: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'V' },
} as const;

/** Files at least this large get a progress bar when standard error is a terminal. */
const PROGRESS_MIN_BYTES = 16 * 1024 * 1024;

class UsageError extends Error {}

type Mode = 'text' | 'markdown' | 'mail' | 'records' | 'logs';

interface Settings {
  mode: Mode;
  format: RenderFormat;
  /** --format was given (else: the link list). */
  explicitFormat: boolean;
  links: boolean;
  display: string;
  /** --logs: the log rules of src/logs. */
  logRules: boolean;
  renderOptions: Record<string, unknown>;
  streamOptions: StreamOptions;
  /** --schemes / --no-email beyond the detector's options (src/cli/filter.ts); null: keep every link. */
  keep: LinkChoice['keep'];
  unique: boolean;
  stats: boolean;
  progress: boolean;
  files: string[];
}

export interface CliIo {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable & { isTTY?: boolean };
}

/** The mode flags given, in the order they are named in messages. */
function chosenModes(values: Record<string, string | boolean | undefined>): string[] {
  return ['markdown', 'mail', 'records'].filter((m) => values[m] === true);
}

function parse(argv: string[]): Settings | 'help' | 'version' {
  // Not strict: Node's own messages for these mistakes are several lines long (one quotes a suggestion it never
  // closes); each is said here in one line naming the option as it was written.
  // `-l=1`, `-f=jsonl`: parseArgs reads a group of short options `-l` `-=` `-1` and the message named `-=`, which
  // nobody wrote (found in review).
  for (const arg of argv) {
    if (arg === '--') break;
    if (/^-[^-]=/.test(arg)) throw new UsageError(`'${arg}': a short option takes its value after a space (-f jsonl), not after '='`);
  }
  const { values, positionals, tokens } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: false, tokens: true });
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    const type = (OPTIONS as Record<string, { type: string } | undefined>)[token.name]?.type;
    if (type === undefined) throw new UsageError(`unknown option ${token.rawName}`);
    if (type === 'boolean' && token.value !== undefined) throw new UsageError(`${token.rawName} takes no value, got '${token.value}'`);
    // `--format --links`: the next word is an option, not the value that was forgotten (`--format=-x` is a value).
    if (type === 'string' && (token.value === undefined || (!token.inlineValue && token.value.length > 1 && token.value.startsWith('-')))) {
      throw new UsageError(`${token.rawName} needs a value` + (token.value === undefined ? '' : `, got the option '${token.value}'`));
    }
  }
  if (values.help) return 'help';
  if (values.version) return 'version';
  const explicitFormat = values.format as string | undefined;
  if (explicitFormat !== undefined && !(RENDER_FORMATS as readonly string[]).includes(explicitFormat)) {
    throw new UsageError(`--format must be one of ${RENDER_FORMATS.join(', ')}, got '${explicitFormat}'`);
  }
  const format = (explicitFormat ?? 'text') as RenderFormat;
  // No --format: list the links (the common use), as --format text --links does; --format renders the whole text
  // unless --links. A link list writes each link's uri unless --display says otherwise.
  const links = explicitFormat === undefined ? true : values.links === true;
  const display = (values.display as string | undefined) ?? (format === 'text' && links ? 'uri' : undefined);
  if (display !== undefined && display !== 'text' && display !== 'iri' && display !== 'uri') {
    throw new UsageError(`--display must be text, iri or uri, got '${display}'`);
  }
  const renderOptions: Record<string, unknown> = { links };
  // The jsonl renderer takes no `display` (its objects carry text, uri and iri); -d with jsonl is refused below.
  if (display !== undefined && format !== 'jsonl') renderOptions.display = display;

  // Modes: which combinations make sense.
  const modes = chosenModes(values);
  if (modes.length > 1) throw new UsageError(`--${modes[0]} and --${modes[1]} cannot be used together`);
  let mode: Mode = (modes[0] as Mode | undefined) ?? 'text';
  if (values['no-gfm'] && mode !== 'markdown') throw new UsageError(`--no-gfm is an option of --markdown`);
  const noCounting = (what: string): void => {
    for (const flag of ['unique', 'stats'] as const) {
      if (values[flag]) throw new UsageError(`--${flag} cannot be used with ${what}`);
    }
  };
  if (values.logs) {
    if (mode === 'markdown' || mode === 'mail') throw new UsageError(`--logs cannot be used with --${mode}`);
    if (mode !== 'records') {
      // (`--format text --links` is the link list, as without --format: found in review, it was refused.)
      if (explicitFormat !== undefined && !((explicitFormat === 'jsonl' || explicitFormat === 'text') && links)) {
        throw new UsageError(`--logs works with --records, with --format jsonl --links, or without --format (the link list)`);
      }
      mode = 'logs';
    }
    noCounting('--logs');
  }
  if (mode === 'mail') {
    if (explicitFormat !== undefined && explicitFormat !== 'html' && explicitFormat !== 'jsonl') {
      throw new UsageError(`--mail writes --format jsonl (one object per link) or --format html, not ${explicitFormat}`);
    }
    if (explicitFormat === 'html' && values.links) throw new UsageError(`--mail --format html renders whole messages; --links goes with jsonl`);
    if (values.unique) throw new UsageError(`--unique cannot be used with --mail`);
  }
  if (mode === 'records') {
    if (explicitFormat !== undefined && explicitFormat !== 'jsonl') {
      throw new UsageError(`--records writes JSON lines; --format ${explicitFormat} cannot be used with it`);
    }
    if (values.display !== undefined) throw new UsageError(`--display cannot be used with --records (records carry text, uri and iri)`);
    if (values.links) throw new UsageError(`--links cannot be used with --records (a record holds only its line's links)`);
    noCounting('--records');
  }
  // JSON output (--format jsonl, and --mail, whose default is jsonl) carries text, uri and iri in every object:
  // there is nothing for --display to choose.
  const jsonOutput = explicitFormat === 'jsonl' || (mode === 'mail' && explicitFormat !== 'html');
  if (values.display !== undefined && jsonOutput) {
    const flags = mode === 'logs' ? '--logs --format jsonl' : mode === 'mail' && explicitFormat === undefined ? '--mail, whose output is --format jsonl by default' : '--format jsonl';
    throw new UsageError(`--display cannot be used with ${flags}: the objects carry text, uri and iri`);
  }

  // --markdown --format markdown writes the Markdown back as it was, each bare link in `[text](<uri>)` with the text
  // as found: there is nothing for --display to choose either.
  if (values.display !== undefined && mode === 'markdown' && format === 'markdown' && !links) {
    throw new UsageError(`--display cannot be used with --markdown --format markdown: the Markdown keeps each link's text as written`);
  }

  const streamOptions: Record<string, unknown> = {};
  if (values.encoding !== undefined) streamOptions.encoding = values.encoding;
  if (values.schemes !== undefined) {
    const entries = (values.schemes as string).split(',').map((s) => s.trim());
    // `+name`: these besides the default ones, every `scheme://` still linked (nothing narrowed); else only these.
    const more = entries.filter((s) => s.startsWith('+')).length;
    if (more > 0 && more < entries.length) {
      throw new UsageError(`--schemes: either only these schemes (https,mailto) or more besides the default ones (+matrix,+spotify), not both`);
    }
    const schemes = more > 0 ? entries.map((s) => s.slice(1).trim()) : entries;
    // An empty entry (`https,,mailto`, a trailing comma) is a slip in the list, not a scheme.
    if (schemes.some((s) => s === '')) throw new UsageError(`--schemes needs a comma-separated list of schemes, without empty entries`);
    const bad = schemes.find((s) => !isSchemeName(s));
    if (bad !== undefined) {
      throw new UsageError(`--schemes: '${bad}' is not a scheme name (RFC 3986 §3.1: a letter, then letters, digits, +, - or .; at most 32 characters)`);
    }
    const never = schemes.find((s) => NEVER_SCHEMES.includes(s.toLowerCase()));
    if (never !== undefined) throw new UsageError(`--schemes: '${never}' is never linked (javascript, vbscript and data are refused)`);
    // Only these: without anyScheme:false the scanner would still link any `scheme://` (DESIGN.md P2).
    streamOptions.schemes = more > 0 ? [...DEFAULT_SCHEMES, ...schemes] : schemes;
    if (more === 0) streamOptions.anyScheme = false;
    // The renderers give an href only to the schemes they know (DEFAULT_LINK_SCHEMES): the ones asked for here are
    // known too, or `--schemes spotify --format html` would show each of its links as an unsafe span.
    if (format === 'html' || format === 'markdown' || format === 'ansi') renderOptions.schemes = [...DEFAULT_LINK_SCHEMES, ...schemes];
  }
  if (values['no-schemeless']) streamOptions.schemeless = false;
  if (values['max-link-length'] !== undefined) {
    const n = values['max-link-length'] as string;
    if (!/^[0-9]+$/.test(n) || Number(n) < MIN_MAX_LINK_LENGTH || Number(n) > MAX_MAX_LINK_LENGTH) {
      throw new UsageError(`--max-link-length must be a whole number from ${MIN_MAX_LINK_LENGTH} to ${MAX_MAX_LINK_LENGTH}, got '${n}'`);
    }
    streamOptions.maxLinkLength = Number(n);
  }
  // --schemes and --no-email: the detector finds emails when either kind is wanted; choice.keep drops the other.
  const narrowed = streamOptions.anyScheme === false ? (streamOptions.schemes as string[]) : undefined;
  const choice = linkChoice(narrowed, values['no-email'] === true, mode === 'markdown');
  if (!choice.detectEmail) streamOptions.email = false;
  if (mode === 'markdown') {
    streamOptions.markdown = true;
    if (values['no-gfm']) streamOptions.gfm = false;
  }
  return {
    mode,
    format,
    explicitFormat: explicitFormat !== undefined && !(mode === 'logs' && explicitFormat === 'text'),
    links,
    display: display ?? 'text',
    logRules: values.logs === true,
    renderOptions,
    streamOptions: streamOptions as StreamOptions,
    keep: choice.keep,
    unique: values.unique === true,
    stats: values.stats === true,
    progress: values['no-progress'] !== true,
    files: positionals.length === 0 ? ['-'] : positionals,
  };
}

function version(): string {
  // dist/cli/main.js and src/cli/main.ts both sit two folders below package.json.
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

/** Counts for --stats. */
class Stats {
  inputs = 0;
  unreadable = 0;
  bytes = 0;
  chars = 0;
  links = 0;
  distinct = 0;
  readonly kinds = new Map<string, number>();
  readonly schemes = new Map<string, number>();
  readonly diagnostics = new Map<string, number>();

  format(seconds: number): string {
    const list = (m: Map<string, number>): string =>
      [...m].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([k, n]) => `${k} ${n}`).join(', ') || 'none';
    const lines = [
      `irilink: ${this.inputs} input${this.inputs === 1 ? '' : 's'}` +
        (this.unreadable > 0 ? ` (${this.unreadable} unreadable)` : '') +
        `, ${this.bytes} byte${this.bytes === 1 ? '' : 's'}, ${this.chars} character${this.chars === 1 ? '' : 's'} (UTF-16), ${seconds.toFixed(2)} s`,
      `irilink: ${this.links} link${this.links === 1 ? '' : 's'} (${list(this.kinds)}), ${this.distinct} distinct`,
      `irilink: schemes: ${list(this.schemes)}`,
      `irilink: diagnostics: ${list(this.diagnostics)}`,
    ];
    return lines.join('\n') + '\n';
  }
}

/** Counts `key` in `m`; a new key is stored detached (a scheme may be a slice of the text: see DistinctLinks). */
function bump(m: Map<string, number>, key: string): void {
  const n = m.get(key);
  if (n === undefined) m.set(detached(key), 1);
  else m.set(key, n + 1);
}

/**
 * Between the link stream and the renderer: counts for --stats, and for --unique turns a link already
 * seen into plain text (so that renderers that count lines still see every character).
 */
class CliStage extends Transform {
  /** A chunk was flagged invalid-utf8 (UTF-8 input with bytes that are not). */
  invalidUtf8 = false;
  /** Links written that were cut at the longest link (link-too-long). */
  cut = 0;
  private readonly seen: DistinctLinks | null;
  private readonly unique: boolean;
  private readonly stats: Stats;
  private lastEnd = 0;

  private readonly keep: LinkChoice['keep'];

  constructor(seen: DistinctLinks | null, unique: boolean, stats: Stats, keep: LinkChoice['keep']) {
    super({ objectMode: true, highWaterMark: 16 });
    this.keep = keep;
    this.seen = seen;
    this.unique = unique;
    this.stats = stats;
  }

  override _transform(chunk: Chunk, _encoding: BufferEncoding, callback: TransformCallback): void {
    // An exception here would be thrown into the stream that wrote the chunk (uncaught): it fails the pipeline.
    try {
      this.pass(chunk, callback);
    } catch (error) {
      callback(error as Error);
    }
  }

  private pass(chunk: Chunk, callback: TransformCallback): void {
    this.lastEnd = chunk.end;
    if (!this.invalidUtf8 && chunk.diagnostics !== undefined && chunk.diagnostics.includes('invalid-utf8')) this.invalidUtf8 = true;
    if (chunk.type === 'link' && this.keep !== null && !this.keep(chunk)) chunk = asText(chunk);
    if (chunk.type === 'link') {
      if (chunk.diagnostics.includes('link-too-long')) this.cut++;
      const fresh = this.seen === null || this.seen.add(chunk);
      if (fresh) {
        this.stats.distinct++;
      }
      this.stats.links++;
      bump(this.stats.kinds, chunk.kind);
      bump(this.stats.schemes, chunk.scheme);
      for (const d of chunk.diagnostics) bump(this.stats.diagnostics, d);
      if (!fresh && this.unique) {
        callback(null, asText(chunk));
        return;
      }
    }
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    this.stats.chars += this.lastEnd;
    callback();
  }
}

function isEpipe(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | null)?.code === 'EPIPE';
}

/**
 * Whether an error is about the input rather than a bug: a system error of reading it (no such file, a directory,
 * EIO: it names the failing call) or the refusal of a UTF-16 file where lines are read as bytes (`utf16-input`).
 * Anything else that fails while a file is linked is an internal error: main() rejects with it, and bin/irilink.js
 * writes its stack and exits with status 70.
 */
function isInputError(error: unknown): boolean {
  const e = error as NodeJS.ErrnoException | null;
  return e !== null && typeof e === 'object' && (typeof e.syscall === 'string' || e.code === 'utf16-input');
}

/** Why an input could not be read, in words (the errno name for the common cases). */
function readReason(error: unknown): string {
  switch ((error as NodeJS.ErrnoException | null)?.code) {
    case 'ENOENT': return 'no such file';
    case 'EISDIR': return 'is a directory';
    case 'EACCES': return 'permission denied';
    default: return (error as Error).message.replace(/^irilink: /, '');
  }
}

/** Writes everything the renderer produces to `out`, waiting for 'drain' when it is full. */
function writer(out: Writable, map?: (piece: string) => string) {
  return async function (source: AsyncIterable<Buffer | string>): Promise<void> {
    for await (const piece of source) {
      if (!out.write(map === undefined ? piece : map(String(piece)))) await once(out, 'drain');
    }
  };
}

/**
 * JSON Lines rows of one of several files, each with the file's name (as given; `-` for standard input) as its first
 * field: `{"file":"a.txt","line":1,…}`. Every row starts with `{` at the start of a line, however the rendered text
 * is cut into pieces.
 */
function withFileField(file: string): (piece: string) => string {
  const field = `{"file":${jsonlText([file]).slice(1, -1)},`;
  let lineStart = true;
  return (piece) => {
    let out = '';
    let at = 0;
    for (let i = 0; i < piece.length; i++) {
      const c = piece.charCodeAt(i);
      if (lineStart && c === 0x7b) {
        out += piece.slice(at, i) + field;
        at = i + 1;
      }
      lineStart = c === 0x0a;
    }
    return at === 0 ? piece : out + piece.slice(at);
  };
}

/** A renderer as an object-mode stage (as src/render's createRenderStream), a surrogate pair never split. */
function rendererStage(renderer: ChunkRenderer): Transform {
  let held = '';
  const emit = (stream: Transform, rendered: string): void => {
    let out = held + rendered;
    held = '';
    const last = out.length > 0 ? out.charCodeAt(out.length - 1) : 0;
    if (last >= 0xd800 && last <= 0xdbff) {
      held = out.slice(-1);
      out = out.slice(0, -1);
    }
    if (out.length > 0) stream.push(out);
  };
  return new Transform({
    writableObjectMode: true,
    transform(chunk: Chunk, _encoding, callback) {
      try {
        emit(this, renderer.chunk(chunk));
      } catch (error) {
        callback(error as Error);
        return;
      }
      callback();
    },
    flush(callback) {
      emit(this, renderer.end());
      if (held !== '') this.push(held);
      callback();
    },
  });
}

/** The jsonl renderer plus, for the Markdown mode, the link's `construct` (inline, image, autolink, bare, …). */
function withConstruct(renderer: ChunkRenderer): ChunkRenderer {
  return {
    chunk(chunk: Chunk): string {
      const out = renderer.chunk(chunk);
      const construct = (chunk as { construct?: unknown }).construct;
      // The renderer writes `{…}\n` per link; the field goes in before the closing brace.
      if (chunk.type !== 'link' || typeof construct !== 'string' || !out.endsWith('}\n')) return out;
      return out.slice(0, -2) + ',' + jsonlText({ construct }).slice(1) + '\n';
    },
    end: () => renderer.end(),
  };
}

/**
 * The link list (no --format, or --format text --links): each link's `text`, `iri` or `uri` field as --display
 * says, one per line. These are the link's own forms, so `iri` keeps an inferred scheme (`https://www.example.com`,
 * `mailto:aiko@example.jp`, as jsonl's `iri`); the renderers leave it off where a link is shown inside its text.
 */
function linkListRenderer(display: string): ChunkRenderer {
  const field = linkField(display);
  return {
    chunk: (chunk: Chunk): string => (chunk.type === 'link' ? (chunk[field] || chunk.text) + '\n' : ''),
    end: () => '',
  };
}

/** The field of a link that --display names in the link list. */
function linkField(display: string): 'text' | 'iri' | 'uri' {
  return display === 'iri' ? 'iri' : display === 'text' ? 'text' : 'uri';
}

/** The render stage of the text and Markdown modes. */
function renderStage(settings: Settings): Transform {
  if (settings.mode === 'markdown' && settings.format === 'markdown' && !settings.links) {
    const schemes = settings.renderOptions.schemes as string[] | undefined;
    return rendererStage(createMarkdownSourceRenderer(schemes === undefined ? {} : { schemes }));
  }
  const renderer = createRenderer(settings.format, settings.renderOptions); // checks --display too
  if (settings.format === 'text' && settings.links) return rendererStage(linkListRenderer(settings.display));
  return rendererStage(settings.mode === 'markdown' && settings.format === 'jsonl' ? withConstruct(renderer) : renderer);
}

/** The detector's options out of the stream options (no charset, no Markdown). */
function detectorOptions(settings: Settings): Record<string, unknown> {
  const { encoding: _e, markdown: _m, gfm: _g, ...rest } = settings.streamOptions as Record<string, unknown>;
  return rest;
}

function recordOptions(settings: Settings, logRules: boolean): Record<string, unknown> {
  const options: Record<string, unknown> = { ...detectorOptions(settings), logRules };
  const encoding = (settings.streamOptions as { encoding?: string }).encoding;
  if (encoding !== undefined) options.encoding = encoding;
  return options;
}

/** Checks the options (TypeError) before any data flows: a bad --encoding or --schemes is a usage error. */
function checkOptions(settings: Settings): void {
  createLinkStream(settings.streamOptions).destroy();
  if (settings.mode === 'records') createRecordStream(recordOptions(settings, true)).destroy();
  else if (settings.mode === 'logs') {
    createLogLinkStream(recordOptions(settings, true)).destroy();
    // The link list picks a field by --display: the text renderer checks the value as everywhere else.
    if (!settings.explicitFormat) createRenderer('text', { links: true, display: settings.display });
  }
  else if (settings.mode === 'text' || settings.mode === 'markdown') renderStage(settings).destroy();
  else if (settings.mode === 'mail' && settings.format === 'html') createRenderer('html', mailRenderOptions(settings));
}

/** The HTML options of --mail --format html: --display and the schemes --schemes makes clickable. */
function mailRenderOptions(settings: Settings): Record<string, unknown> {
  const { display, schemes } = settings.renderOptions;
  return {
    ...(display !== undefined && settings.explicitFormat ? { display } : {}),
    ...(schemes !== undefined ? { schemes } : {}),
  };
}

/**
 * --mail over one input: runMail's loop over linkifyMail, with
 * - the message numbers continuing across the inputs (`totals.messages` messages came before), so that the rows of
 *   two files differ (as --records' line numbers continue); `totals` is counted up message by message;
 * - a message with an `error` (over the MIME parser's limits, a part that cannot be linked) reported through
 *   `report` and the next message read, never the rest of the input lost;
 * - with --schemes / --no-email (`keep`), the links they leave out made text in each part (src/cli/filter.ts);
 * - the output written in pieces (mailJsonlPieces / mailHtmlPieces), never one string per message.
 */
async function mailInput(
  mail: typeof import('../mail/index.js'),
  input: AsyncIterable<Buffer>,
  out: Writable,
  format: 'html' | 'jsonl',
  options: import('../mail/index.js').LinkifyMailOptions,
  render: Record<string, unknown>,
  keep: LinkChoice['keep'],
  totals: { messages: number; links: number; failed: number },
  report: (message: import('../mail/index.js').MailMessage) => void,
  map?: (piece: string) => string,
): Promise<void> {
  for await (const message of mail.linkifyMail(input, options)) {
    message.index = totals.messages++; // the file's message.index-th message, numbered across the inputs
    if (message.error !== undefined) {
      totals.failed++;
      report(message);
    }
    for (const part of message.parts) {
      if (keep !== null) {
        part.links = part.links.filter(keep);
        part.chunks = part.chunks.map((c) => (c.type === 'link' && !keep(c) ? asText(c) : c));
      }
      totals.links += part.links.length;
    }
    const pieces = format === 'html' ? mail.mailHtmlPieces(message, render) : mail.mailJsonlPieces(message);
    for (const piece of pieces) if (!out.write(map === undefined ? piece : map(piece))) await once(out, 'drain');
  }
}

/** A source for one input: the file, or standard input for "-". */
function open(file: string, stdin: Readable): Readable {
  if (file !== '-') return createReadStream(file, { highWaterMark: 64 * 1024 });
  return stdin === process.stdin ? processStdin() : stdin;
}

/**
 * The process's standard input. Where it is a file, a directory or a device, Node's process.stdin ends, without an
 * error, at a read that fails (`irilink < somedir`: EISDIR; an I/O error): such an input is read here as a named
 * file is, from file descriptor 0 (left open), so that the failure is said and the exit status is 1. A pipe or a
 * terminal stays process.stdin.
 */
function processStdin(): Readable {
  let stat;
  try {
    stat = fstatSync(0);
  } catch {
    return process.stdin;
  }
  const file = stat.isFile() || stat.isDirectory() || stat.isBlockDevice() || (stat.isCharacterDevice() && !isatty(0));
  if (!file) return process.stdin;
  return createReadStream('', { fd: 0, autoClose: false, highWaterMark: 64 * 1024 });
}

function inputName(file: string): string {
  return file === '-' ? 'standard input' : file;
}

/**
 * --records: the inputs as one byte stream, so that line numbers continue across files. A file whose last byte
 * is not a LF gets one (its last line is a record of its own; after a final CR the LF makes a CR LF, one break,
 * so that a LF starting the next file is not taken into that break). An input that cannot be read is reported
 * through `failed` and skipped, and so is one that starts with a UTF-16 byte order mark when `utf8` (the record
 * stream refuses it only at the start of the whole input: src/logs/records.ts refuseUtf16).
 */
async function* joined(files: string[], stdin: Readable, failed: (file: string, error: unknown) => void, utf8: boolean): AsyncGenerator<Buffer> {
  let last = 0x0a;
  for (const file of files) {
    try {
      const source = open(file, stdin);
      for await (const bytes of utf8 ? refusingUtf16(source) : bytesOf(source)) {
        if (bytes.length === 0) continue;
        last = bytes[bytes.length - 1]!;
        yield bytes;
      }
    } catch (error) {
      failed(file, error);
    }
    if (last !== 0x0a) {
      last = 0x0a;
      yield Buffer.from('\n');
    }
  }
}

async function* bytesOf(source: Readable): AsyncGenerator<Buffer> {
  for await (const data of source) yield typeof data === 'string' ? Buffer.from(data) : (data as Buffer);
}

/**
 * The bytes of `source`, failing with utf16InputError (`utf16-input`) when the first two are a UTF-16 byte order
 * mark, for the modes that read lines as bytes (--records, --logs with UTF-8, --mail). A first byte that comes
 * alone is held until the second shows what the two are.
 */
async function* refusingUtf16(source: Readable): AsyncGenerator<Buffer> {
  let head: Buffer | null = Buffer.alloc(0);
  for await (let bytes of bytesOf(source)) {
    if (head !== null) {
      bytes = head.length === 0 ? bytes : Buffer.concat([head, bytes]);
      if (bytes.length < 2) {
        head = Buffer.from(bytes);
        continue;
      }
      head = null;
      if (startsWithUtf16Bom(bytes)) throw utf16InputError(bytes);
    }
    yield bytes;
  }
  if (head !== null && head.length > 0) yield head;
}

/** Runs the command; resolves to the exit code. */
export async function main(argv: string[], io: CliIo = process as unknown as CliIo): Promise<number> {
  const { stdin, stdout, stderr } = io;
  let settings: Settings | 'help' | 'version';
  try {
    settings = parse(argv);
    if (settings !== 'help' && settings !== 'version') checkOptions(settings);
  } catch (error) {
    if (!(error instanceof UsageError) && !(error instanceof TypeError)) throw error;
    // The library's option checks name its option; the one a flag sets is said as the flag.
    const message = error.message.replace(/^irilink: /, '').replace(/^option encoding /, '--encoding ');
    stderr.write(`irilink: ${message}\nTry 'irilink --help' for more information.\n`);
    return 2;
  }
  // `irilink big.txt | head`: the reader went away; stop quietly. Any other write error (a full disk, a
  // standard output that is not open for writing) is said once, with exit status 1, for --help and --version too.
  stdout.on('error', (error) => {
    if (isEpipe(error)) process.exit(0);
    stopProgress(); // (the message was glued to the bar's line)
    stderr.write(`irilink: cannot write output: ${(error as Error).message}\n`);
    process.exit(1);
  });
  // Standard error closed early (`2> >(head -c1)`): its messages are lost, and the run goes on, every input read
  // (an EPIPE there was an uncaught error, exit status 1, the inputs after it not read; found in review).
  stderr.on('error', () => undefined);

  if (settings === 'help') {
    stdout.write(HELP);
    return 0;
  }
  if (settings === 'version') {
    stdout.write(`irilink ${version()}\n`);
    return 0;
  }

  const started = process.hrtime.bigint();
  const stats = new Stats();
  let code = 0;
  // Read as UTF-8, a file in another charset links through U+FFFD to addresses that are not the text's
  // (`caf\xe9.html` → `caf%EF%BF%BD.html`): said once per input (with the first such line where lines are records),
  // as only jsonl shows the diagnostic.
  const invalidUtf8Note = (name: string, line?: number): void => {
    const where = line === undefined ? '' : ` from line ${line}`;
    stopProgress(); // each message on a line of its own, not glued to the bar's
    stderr.write(`irilink: ${name}: not valid UTF-8${where} (bytes read as U+FFFD, links through them flagged invalid-utf8); name its charset with --encoding\n`);
  };
  // A link longer than the longest link is cut there (the rest follows as text): the link list and the rendered
  // formats would show the shorter link as if it were the whole one (only jsonl carries the flag).
  const cutNote = (name: string, count: number, max: number): void => {
    const links = count === 1 ? '1 link was' : `${count} links were`;
    stopProgress();
    stderr.write(`irilink: ${name}: ${links} longer than ${max} characters and cut there (link-too-long; the rest follows as text); raise the limit with --max-link-length\n`);
  };
  const failed = (file: string, error: unknown): void => {
    if (isEpipe(error)) process.exit(0);
    stopProgress();
    stderr.write(`irilink: cannot read ${inputName(file)}: ${readReason(error)}\n`);
    stats.unreadable++;
    code = 1;
  };

  if (settings.mode === 'records') {
    try {
      // The links --schemes/--no-email leave out are left out by the stream itself (no JSON parsed again).
      const records = createCliLogStream(recordOptions(settings, settings.logRules), 'records', settings.keep);
      const encoding = (settings.streamOptions as { encoding?: string }).encoding;
      const utf8 = encoding === undefined || createDecoder(encoding).byteMap.counting === 'utf8';
      await pipeline(joined(settings.files, stdin, failed, utf8), records, writer(stdout));
      // The inputs are one stream of lines here: the note names the first line (as the records number them).
      const name = settings.files.length === 1 ? inputName(settings.files[0]!) : 'the input';
      if (records.firstInvalidUtf8Line > 0) invalidUtf8Note(name, records.firstInvalidUtf8Line);
    } catch (error) {
      // Read errors are reported (and skipped) inside joined(); what reaches here is the stream or the output.
      if (isEpipe(error)) process.exit(0);
      if (!isInputError(error)) throw error;
      stderr.write(`irilink: ${(error as Error).message.replace(/^irilink: /, '')}\n`);
      code = 1;
    }
    return code;
  }

  if (settings.mode === 'mail') {
    // Loaded only for --mail (the mail parser is not needed otherwise).
    const mail = await import('../mail/index.js');
    const renderOptions = mailRenderOptions(settings);
    const totals = { messages: 0, links: 0, failed: 0 };
    for (const file of settings.files) {
      stats.inputs++;
      const source = open(file, stdin);
      let readError: Error | null = null;
      source.once('error', (error: Error) => {
        readError = error;
      });
      // A message the parser cannot read is said on standard error; the exit status stays 0 (the input was read).
      const report = (message: import('../mail/index.js').MailMessage): void => {
        const error = message.error!;
        const what = error.code === 'part-failed' ? 'partly linked' : 'not linked';
        stderr.write(`irilink: ${inputName(file)}: message ${message.index} ${what}: ${error.message} (${error.code})\n`);
      };
      try {
        const format = settings.format === 'html' ? 'html' : 'jsonl';
        const options = { ...detectorOptions(settings), mbox: 'auto' as const, html: 'alternative' as const };
        // RFC 5322 text is ASCII-based: a UTF-16 file would be read as windows-1252 with a NUL in every other byte.
        // With several files each jsonl row also says which it came from, as plain jsonl rows do.
        const map = format === 'jsonl' && settings.files.length > 1 ? withFileField(file) : undefined;
        await mailInput(mail, refusingUtf16(source), stdout, format, options, renderOptions, settings.keep, totals, report, map);
      } catch (error) {
        // A message the parser cannot read is no exception (report() above): anything else is a bug.
        const cause = readError ?? error;
        if (!isInputError(cause) && !isEpipe(cause)) throw cause;
        failed(file, cause);
      }
    }
    if (settings.stats) {
      const { messages, links, failed: unlinked } = totals;
      stderr.write(
        `irilink: ${stats.inputs} input${stats.inputs === 1 ? '' : 's'}` +
          (stats.unreadable > 0 ? ` (${stats.unreadable} unreadable)` : '') +
          `, ${messages} message${messages === 1 ? '' : 's'}` +
          (unlinked > 0 ? ` (${unlinked} with an error)` : '') +
          `, ${links} link${links === 1 ? '' : 's'}\n`,
      );
    }
    return code;
  }

  const seen = settings.unique || settings.stats ? new DistinctLinks() : null;
  // Lines, columns and offsets count from each file's start: with several files, each JSON row says which it is.
  const named = settings.format === 'jsonl' && settings.files.length > 1;
  for (const file of settings.files) {
    stats.inputs++;
    const isStdin = file === '-';
    const source = open(file, stdin);
    let progress: Progress | null = null;
    // Not when standard output is that terminal too: the bar would be drawn into the output's lines (found in review).
    if (!isStdin && settings.progress && stderr.isTTY === true && (stdout as { isTTY?: boolean }).isTTY !== true && settings.mode !== 'logs') {
      let size = 0;
      try {
        size = statSync(file).size;
      } catch {
        size = 0; // the read below reports the problem
      }
      if (size >= PROGRESS_MIN_BYTES) progress = createProgress(stderr, file, size);
    }
    let readError: Error | null = null;
    source.once('error', (error: Error) => {
      readError = error;
    });
    if (progress !== null) {
      const bar = progress;
      source.on('data', (data: Buffer) => bar.advance(data.length));
    }
    // --stats counts the bytes read, also those that give no text (a byte order mark, an ISO-2022 escape).
    if (settings.stats) source.on('data', (data: Buffer) => (stats.bytes += data.length));
    try {
      if (settings.mode === 'logs') {
        // With --format jsonl --links the rows; without --format the link list, written as such (not rows read back).
        const output = settings.explicitFormat ? 'links' : linkField(settings.display);
        const logs = createCliLogStream(recordOptions(settings, true), output, settings.keep);
        await pipeline(source, logs, writer(stdout, named ? withFileField(file) : undefined));
        if (logs.firstInvalidUtf8Line > 0) invalidUtf8Note(inputName(file), logs.firstInvalidUtf8Line);
        if (logs.cut > 0) cutNote(inputName(file), logs.cut, settings.streamOptions.maxLinkLength ?? DEFAULT_MAX_LINK_LENGTH);
      } else {
        const stage = new CliStage(seen, settings.unique, stats, settings.keep);
        await pipeline(
          source,
          createLinkStream(settings.streamOptions),
          stage,
          renderStage(settings),
          writer(stdout, named ? withFileField(file) : undefined),
        );
        if (stage.invalidUtf8) invalidUtf8Note(inputName(file));
        if (stage.cut > 0) cutNote(inputName(file), stage.cut, settings.streamOptions.maxLinkLength ?? DEFAULT_MAX_LINK_LENGTH);
      }
    } catch (error) {
      // The pipeline may destroy the source with a later stage's error: only an input error is a read error.
      const cause = readError ?? error;
      if (!isInputError(cause) && !isEpipe(cause)) throw cause;
      failed(file, cause);
    } finally {
      progress?.stop();
    }
  }
  if (settings.stats) {
    stderr.write(stats.format(Number(process.hrtime.bigint() - started) / 1e9));
  }
  return code;
}
