// A log line too long to hold whole (longer than the record stream's maxRecordBytes), scanned in pieces with the
// same answer as the whole line: the log view (view.ts) is built piece by piece, the detector runs over it through
// the stream's IncrementalLinkifier (which releases the text before the last possible link start and keeps only
// the scanner's left context), and each link found is mapped back to the line and to its bytes as soon as it is
// final. Memory holds what the linkifier holds (its undecided tail, bounded by the longest link) plus a few units
// of look-ahead; never the whole line.
//
//   bytes ─ decoder (charset, byte map) ─ line text ─ JSON view + field mask ─ IncrementalLinkifier ─ links
//
// The incremental view is exact because each rule of view.ts looks only a bounded distance around a position:
// - the JSON view (RFC 8259 §7) starts at the first `{"` and then reads one escape at a time (at most `\uXXXX`,
//   6 units): the last JSON_AHEAD units of the decoded text wait for more input;
// - the field mask (`"`, `|`, `key=`) looks back at most KEY_BACK units and one unit ahead;
// - isLogSyntax reads two units before a link and two after it (the `=` of a key and the unit after that).
import type { Buffer } from 'node:buffer';
import { LineDecoder, withDecodeDiagnostics } from './decode.js';
import { IncrementalLinkifier } from '../stream/incremental.js';
import type { Scanner } from '../detect/index.js';
import { EmbeddingReader } from '../detect/embedding.js';
import type { Chunk, Link, LinkChunk } from '../types.js';
import { isEscapedQuote, isKeyEquals, isLogSyntax, jsonRun } from './view.js';

/** Units of decoded text held back for the JSON view: a `\uXXXX` escape is 6 units, `{"` 2. */
const JSON_AHEAD = 6;
/** Pre-mask view units kept before the next unit to mask: isKeyEquals scans back 64 key units and two more. */
const KEY_BACK = 80;

const QUOTE = 0x22;
const PIPE = 0x7c;
const EQUALS = 0x3d;
const NUL = '\u0000';

/** A link of the line: offsets in UTF-16 units of the decoded line and in its bytes. */
export interface LongLineLink {
  link: Link;
  byteStart: number;
  byteEnd: number;
}

/** A stretch of the view and where it comes from in the line. */
interface Piece {
  /** View offset of the piece's first unit. */
  view: number;
  length: number;
  /** Line offset of the piece's first unit (when `map` is null the piece has the line's offsets from there on). */
  line: number;
  /** map[i]: line offset of view unit view + i (JSON escapes shorten the view). */
  map: Int32Array | null;
}

export class LongLineScanner {
  private readonly decoder: LineDecoder;

  /** The line's bytes so far held some that are not UTF-8 (UTF-8 input; each read as U+FFFD). */
  get invalidUtf8(): boolean {
    return this.decoder.invalidUtf8;
  }
  private readonly linkifier: IncrementalLinkifier;
  private readonly logRules: boolean;

  /** Decoded line text from line offset `textBase` on. */
  private text = '';
  private textBase = 0;
  /** Line offset of the next unit the view has not read. */
  private rawPos = 0;
  /** Line offset up to which the byte map has been consumed (annotate is called in order). */
  private annotated = 0;

  /** JSON view state (view.ts jsonView): a `{"` has been seen; inside a string. */
  private json = false;
  private inString = false;

  /** The view before the field mask, from view offset `viewBase` on; `viewEnd` units produced so far. */
  private view = '';
  private viewBase = 0;
  private viewEnd = 0;
  /** View offset up to which the view has been masked and given to the linkifier. */
  private pushed = 0;
  /** View offset where the linkifier's released chunks end. */
  private released = 0;
  private readonly pieces: Piece[] = [];
  /** Openers left open in the line as written, read up to `annotated` (the linkifier judges the view). */
  private readonly lineBidi = new EmbeddingReader(false);

  /** `first`: the line is the input's first (only there is a leading UTF-8 BOM dropped, see decode.ts). */
  constructor(scanner: Scanner, logRules: boolean, encoding: string | undefined, first: boolean) {
    this.decoder = new LineDecoder(encoding, first);
    this.linkifier = new IncrementalLinkifier(scanner);
    this.logRules = logRules;
  }

  /** UTF-16 units of the line decoded so far (all of it after end()). */
  get units(): number {
    return this.textBase + this.text.length;
  }

  /** UTF-16 units held (decoded text, view, the linkifier's tail), for callers and tests that watch memory. */
  get held(): number {
    return this.text.length + this.view.length + this.linkifier.pending;
  }

  /** The next bytes of the line; returns the links that are now final. */
  write(bytes: Buffer): LongLineLink[] {
    this.append(this.decoder.write(bytes));
    return this.advance(false);
  }

  /** The line has ended (its line break not included); returns the remaining links. */
  end(): LongLineLink[] {
    this.append(this.decoder.end());
    return this.advance(true);
  }

  private append(decoded: string): void {
    if (decoded.length > 0) this.text = this.text.length === 0 ? decoded : [this.text, decoded].join('');
  }

  private advance(final: boolean): LongLineLink[] {
    this.produceView(final);
    const out: LongLineLink[] = [];
    const end = final ? this.viewEnd : this.viewEnd - 1; // the mask of `=` reads one unit ahead
    if (end > this.pushed) {
      this.take(this.linkifier.push(this.mask(this.pushed, end)), out);
      this.pushed = end;
    }
    if (final) this.take(this.linkifier.end(), out);
    this.trim();
    return out;
  }

  // ---- the view (view.ts logView, one piece at a time) ----

  /** Reads the decoded text from rawPos on into the view, all but the last JSON_AHEAD units unless final. */
  private produceView(final: boolean): void {
    const textEnd = this.textBase + this.text.length;
    const limit = final ? textEnd : textEnd - JSON_AHEAD;
    if (!this.logRules) {
      if (limit > this.rawPos) this.addPiece(this.slice(this.rawPos, limit), this.rawPos, null);
      this.rawPos = Math.max(this.rawPos, limit);
      return;
    }
    while (limit > this.rawPos) {
      if (!this.json) {
        // The JSON view starts at the line's first `{"` (view.ts logView); before it the view is the line.
        const at = this.text.indexOf('{"', this.rawPos - this.textBase);
        const to = at < 0 || this.textBase + at >= limit ? limit : this.textBase + at;
        if (to > this.rawPos) this.addPiece(this.slice(this.rawPos, to), this.rawPos, null);
        this.rawPos = to;
        if (to === limit) return;
        this.json = true;
      }
      this.jsonPiece(limit, textEnd);
    }
  }

  /** The JSON view (view.ts jsonRun) of [rawPos, limit): quotes become U+0000, escapes inside strings their value. */
  private jsonPiece(limit: number, textEnd: number): void {
    const base = this.textBase;
    const run = jsonRun(this.text, this.rawPos - base, limit - base, textEnd - base, this.inString);
    this.inString = run.inString;
    let map: Int32Array | null = null;
    if (run.map !== null) {
      map = new Int32Array(run.map.length);
      for (let k = 0; k < run.map.length; k++) map[k] = run.map[k]! + base;
    }
    this.addPiece(run.text, this.rawPos, map);
    this.rawPos = run.end + base;
  }

  private addPiece(s: string, line: number, map: Int32Array | null): void {
    if (s.length === 0) return;
    this.pieces.push({ view: this.viewEnd, length: s.length, line, map });
    this.view = this.view.length === 0 ? s : [this.view, s].join('');
    this.viewEnd += s.length;
  }

  /** view.ts maskFields over view [from, to): `"`, `|` and the `\` of `\"` → U+0000, the `=` of a `key=` → space. */
  private mask(from: number, to: number): string {
    const v = this.view;
    const base = this.viewBase;
    if (!this.logRules) return v.slice(from - base, to - base);
    let out = '';
    let last = from - base;
    for (let k = from - base; k < to - base; k++) {
      const c = v.charCodeAt(k);
      // isEscapedQuote reads the unit after k: advance() masks up to one unit before the view's end (or the end).
      if (c === QUOTE || c === PIPE || isEscapedQuote(v, k, c)) {
        out += v.slice(last, k) + NUL;
        last = k + 1;
      } else if (c === EQUALS && isKeyEquals(v, k)) {
        // trim() keeps KEY_BACK units before `pushed`, so isKeyEquals's back-scan never reaches index 0 of the
        // buffer unless that is the line's start (viewBase 0), where it means what it means in view.ts.
        out += v.slice(last, k) + ' ';
        last = k + 1;
      }
    }
    return out + v.slice(last, to - base);
  }

  // ---- links ----

  /** Line offset of view offset `v`. */
  private toLine(v: number): number {
    if (v >= this.viewEnd) return this.rawPos;
    for (const p of this.pieces) {
      if (v < p.view + p.length) return p.map === null ? p.line + (v - p.view) : p.map[v - p.view]!;
    }
    return this.rawPos;
  }

  private take(chunks: Chunk[], out: LongLineLink[]): void {
    for (const chunk of chunks) {
      this.released = chunk.end;
      if (chunk.type !== 'link') continue;
      const link: Link = { ...(chunk as LinkChunk) };
      delete (link as Partial<LinkChunk>).type;
      // The log rules' filter (view.ts isLogSyntax) reads the view (before its mask) around the link.
      if (this.logRules && link.kind === 'url' && link.schemeInferred) {
        if (isLogSyntax(this.view, link.start - this.viewBase, link.end - this.viewBase)) continue;
      }
      const start = this.toLine(link.start);
      const end = this.toLine(link.end);
      link.start = start;
      link.end = end;
      link.text = this.slice(start, end);
      if (start > this.annotated) this.annotate(this.annotated, start);
      // bidi-embedded: the linkifier judged the view; the line as written is judged too (as LogLineLinker.links).
      if (this.lineBidi.open && !link.diagnostics.includes('bidi-embedded')) link.diagnostics = [...link.diagnostics, 'bidi-embedded'];
      const span = this.annotate(start, end);
      link.diagnostics = withDecodeDiagnostics(link.diagnostics, span);
      out.push({ link, byteStart: span.byteStart!, byteEnd: span.byteEnd! });
    }
  }

  /** The byte map's next span (line offsets [start, end), in order). */
  private annotate(start: number, end: number): Chunk {
    const chunk: Chunk = { type: 'text', text: this.slice(start, end), start, end };
    this.decoder.annotate(chunk);
    this.lineBidi.read(chunk.text);
    this.annotated = end;
    return chunk;
  }

  private slice(start: number, end: number): string {
    return this.text.slice(start - this.textBase, end - this.textBase);
  }

  /** Drops what no later step reads: text already annotated and read, view already released and masked. */
  private trim(): void {
    // Released text needs no link text or byte span any more: consume the byte map up to it.
    const releasedLine = this.toLine(this.released);
    if (releasedLine > this.annotated) this.annotate(this.annotated, releasedLine);
    const textFrom = Math.min(this.annotated, this.rawPos);
    if (textFrom - this.textBase > 4096) {
      this.text = this.text.slice(textFrom - this.textBase);
      this.textBase = textFrom;
    }
    // The view: two units before an unreleased link (isLogSyntax) and KEY_BACK units before the next unit to mask.
    const viewFrom = Math.max(0, Math.min(this.released - 2, this.pushed - KEY_BACK));
    if (viewFrom - this.viewBase > 4096) {
      this.view = this.view.slice(viewFrom - this.viewBase);
      this.viewBase = viewFrom;
    }
    while (this.pieces.length > 1 && this.pieces[0]!.view + this.pieces[0]!.length <= Math.min(this.released, viewFrom)) {
      this.pieces.shift();
    }
  }
}
