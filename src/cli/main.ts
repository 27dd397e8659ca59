// The `irilink` command: irilink [options] [file…] (DESIGN.md "Public API", CLI line).
//
//   file / stdin ─ createLinkStream ─ CliStage (--unique, --stats) ─ createRenderStream(format) ─ stdout
//
// Exit codes: 0 ok; 1 an input could not be read (the other inputs are still processed); 2 usage error.
// A closed stdout (`irilink big.txt | head`) ends the process quietly.
import { createReadStream, readFileSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { Transform } from 'node:stream';
import type { Readable, TransformCallback, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import type { Chunk, TextChunk } from '../types.js';
import { createRenderStream, RENDER_FORMATS } from '../render/index.js';
import type { RenderFormat } from '../render/index.js';
import { createLinkStream } from '../stream/transform.js';
import type { StreamOptions } from '../stream/transform.js';
import { createProgress } from './progress.js';
import type { Progress } from './progress.js';
import { uniqueKey } from './unique.js';

const HELP = `Usage: irilink [options] [file…]

Finds URLs, IRIs and email addresses in text (UTS #58, RFC 3987) and prints them.
Reads the files in order, or standard input when there is none or the file is "-".

Without --format, prints the links found, one per line (their ASCII URI; see --display).
With --format, renders the whole text; add --links to render only the links.

Options:
  -f, --format FORMAT   html | markdown | ansi | jsonl | text
                          html      text escaped, links as <a href>
                          markdown  links as <uri> autolinks or [text](uri)
                          ansi      OSC 8 terminal hyperlinks
                          jsonl     one JSON object per chunk (with --links: per link, with
                                    start end byteStart byteEnd line column text uri iri kind
                                    scheme schemeInferred diagnostics)
                          text      the input unchanged (links written as --display says)
  -l, --links           only the links, one per line
  -d, --display FORM    how a link is written: text (as found) | iri (readable) | uri (ASCII);
                        html/markdown/ansi take text or iri
  -e, --encoding NAME   input charset (default utf-8): shift_jis, euc-jp, iso-2022-jp, gb18030,
                        big5, euc-kr, windows-1252, koi8-r, … (anything iconv-lite knows)
      --schemes LIST    detect only these schemes (comma-separated), e.g. https,mailto,ftp
      --no-schemeless   do not detect links without a scheme (example.com)
      --no-email        do not detect email addresses
  -u, --unique          each distinct link once (RFC 3987 §5.3 syntax-based comparison)
      --stats           counts to standard error at the end
      --no-progress     no progress bar (one is shown on a terminal for large files)
  -h, --help            this help
  -V, --version         the version

Exit status: 0 ok, 1 an input could not be read, 2 usage error.
`;

const OPTIONS = {
  format: { type: 'string', short: 'f' },
  links: { type: 'boolean', short: 'l' },
  display: { type: 'string', short: 'd' },
  encoding: { type: 'string', short: 'e' },
  schemes: { type: 'string' },
  'no-schemeless': { type: 'boolean' },
  'no-email': { type: 'boolean' },
  unique: { type: 'boolean', short: 'u' },
  stats: { type: 'boolean' },
  'no-progress': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'V' },
} as const;

/** Files at least this large get a progress bar when standard error is a terminal. */
const PROGRESS_MIN_BYTES = 16 * 1024 * 1024;

class UsageError extends Error {}

interface Settings {
  format: RenderFormat;
  renderOptions: Record<string, unknown>;
  streamOptions: StreamOptions;
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

function parse(argv: string[]): Settings | 'help' | 'version' {
  let values: Record<string, string | boolean | undefined>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help) return 'help';
  if (values.version) return 'version';
  const explicitFormat = values.format as string | undefined;
  if (explicitFormat !== undefined && !(RENDER_FORMATS as readonly string[]).includes(explicitFormat)) {
    throw new UsageError(`--format must be one of ${RENDER_FORMATS.join(', ')}, got '${explicitFormat}'`);
  }
  const format = (explicitFormat ?? 'text') as RenderFormat;
  // No --format: list the links (the common use); --format renders the whole text unless --links.
  const links = explicitFormat === undefined ? true : values.links === true;
  const display = (values.display as string | undefined) ?? (explicitFormat === undefined ? 'uri' : undefined);
  const renderOptions: Record<string, unknown> = { links };
  if (display !== undefined) renderOptions.display = display;

  const streamOptions: Record<string, unknown> = {};
  if (values.encoding !== undefined) streamOptions.encoding = values.encoding;
  if (values.schemes !== undefined) {
    const schemes = (values.schemes as string).split(',').map((s) => s.trim()).filter((s) => s !== '');
    if (schemes.length === 0) throw new UsageError(`--schemes needs a comma-separated list of schemes`);
    // Only these: without anyScheme:false the scanner would still link any `scheme://` (DESIGN.md P2).
    streamOptions.schemes = schemes;
    streamOptions.anyScheme = false;
  }
  if (values['no-schemeless']) streamOptions.schemeless = false;
  if (values['no-email']) streamOptions.email = false;
  return {
    format,
    renderOptions,
    streamOptions: streamOptions as StreamOptions,
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
        `, ${this.bytes} bytes, ${this.chars} characters (UTF-16), ${seconds.toFixed(2)} s`,
      `irilink: ${this.links} links (${list(this.kinds)}), ${this.distinct} distinct`,
      `irilink: schemes: ${list(this.schemes)}`,
      `irilink: diagnostics: ${list(this.diagnostics)}`,
    ];
    return lines.join('\n') + '\n';
  }
}

function bump(m: Map<string, number>, key: string): void {
  m.set(key, (m.get(key) ?? 0) + 1);
}

/**
 * Between the link stream and the renderer: counts for --stats, and for --unique turns a link already
 * seen into plain text (so that renderers that count lines still see every character).
 */
class CliStage extends Transform {
  private readonly seen: Set<string> | null;
  private readonly unique: boolean;
  private readonly stats: Stats;
  private lastEnd = 0;
  private lastByteEnd = 0;

  constructor(seen: Set<string> | null, unique: boolean, stats: Stats) {
    super({ objectMode: true, highWaterMark: 16 });
    this.seen = seen;
    this.unique = unique;
    this.stats = stats;
  }

  override _transform(chunk: Chunk, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.lastEnd = chunk.end;
    if (chunk.byteEnd !== undefined) this.lastByteEnd = chunk.byteEnd;
    if (chunk.type === 'link') {
      const key = uniqueKey(chunk);
      const fresh = this.seen === null || !this.seen.has(key);
      if (this.seen !== null && fresh) this.seen.add(key);
      if (fresh) {
        this.stats.distinct++;
      }
      this.stats.links++;
      bump(this.stats.kinds, chunk.kind);
      bump(this.stats.schemes, chunk.scheme);
      for (const d of chunk.diagnostics) bump(this.stats.diagnostics, d);
      if (!fresh && this.unique) {
        const text: TextChunk = { type: 'text', text: chunk.text, start: chunk.start, end: chunk.end };
        if (chunk.byteStart !== undefined) {
          text.byteStart = chunk.byteStart;
          text.byteEnd = chunk.byteEnd;
        }
        callback(null, text);
        return;
      }
    }
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    this.stats.chars += this.lastEnd;
    this.stats.bytes += this.lastByteEnd;
    callback();
  }
}

function isEpipe(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | null)?.code === 'EPIPE';
}

/** Writes everything the renderer produces to `out`, waiting for 'drain' when it is full. */
function writer(out: Writable) {
  return async function (source: AsyncIterable<Buffer | string>): Promise<void> {
    for await (const piece of source) {
      if (!out.write(piece)) await once(out, 'drain');
    }
  };
}

/** Runs the command; resolves to the exit code. */
export async function main(argv: string[], io: CliIo = process as unknown as CliIo): Promise<number> {
  const { stdin, stdout, stderr } = io;
  let settings: Settings | 'help' | 'version';
  try {
    settings = parse(argv);
    if (settings !== 'help' && settings !== 'version') {
      // Options are checked (TypeError) before any data flows: a bad --encoding or --schemes is a usage error.
      createLinkStream(settings.streamOptions).destroy();
      createRenderStream(settings.format, settings.renderOptions).destroy();
    }
  } catch (error) {
    if (!(error instanceof UsageError) && !(error instanceof TypeError)) throw error;
    const message = error.message.replace(/^irilink: /, '');
    stderr.write(`irilink: ${message}\nTry 'irilink --help' for more information.\n`);
    return 2;
  }
  if (settings === 'help') {
    stdout.write(HELP);
    return 0;
  }
  if (settings === 'version') {
    stdout.write(`irilink ${version()}\n`);
    return 0;
  }

  // `irilink big.txt | head`: the reader went away; stop quietly.
  stdout.on('error', (error) => {
    if (isEpipe(error)) process.exit(0);
    stderr.write(`irilink: cannot write output: ${(error as Error).message}\n`);
    process.exit(1);
  });

  const started = process.hrtime.bigint();
  const stats = new Stats();
  const seen = settings.unique || settings.stats ? new Set<string>() : null;
  let code = 0;
  for (const file of settings.files) {
    stats.inputs++;
    const isStdin = file === '-';
    let source: Readable;
    let progress: Progress | null = null;
    if (isStdin) source = stdin;
    else {
      source = createReadStream(file, { highWaterMark: 64 * 1024 });
      if (settings.progress && stderr.isTTY === true) {
        let size = 0;
        try {
          size = statSync(file).size;
        } catch {
          size = 0; // the read below reports the problem
        }
        if (size >= PROGRESS_MIN_BYTES) progress = createProgress(stderr, file, size);
      }
    }
    let readError: Error | null = null;
    source.once('error', (error: Error) => {
      readError = error;
    });
    if (progress !== null) {
      const bar = progress;
      source.on('data', (data: Buffer) => bar.advance(data.length));
    }
    try {
      await pipeline(
        source,
        createLinkStream(settings.streamOptions),
        new CliStage(seen, settings.unique, stats),
        createRenderStream(settings.format, settings.renderOptions),
        writer(stdout),
      );
    } catch (error) {
      if (isEpipe(error)) process.exit(0);
      const cause = readError ?? error;
      const reason = (cause as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (cause as Error).message;
      stderr.write(`irilink: cannot read ${isStdin ? 'standard input' : file}: ${reason}\n`);
      stats.unreadable++;
      code = 1;
    } finally {
      progress?.stop();
    }
  }
  if (settings.stats) {
    stderr.write(stats.format(Number(process.hrtime.bigint() - started) / 1e9));
  }
  return code;
}
