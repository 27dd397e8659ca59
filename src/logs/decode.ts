// The decoder of one line of a record stream (src/logs/records.ts, src/logs/long.ts).
//
// The stream's decoders (src/stream/decode.ts) follow WHATWG Encoding "decode": a UTF-8 BOM at the start of their
// input is dropped (its 3 bytes still count in byte offsets). A record stream decodes each line by itself, but only
// its first line starts the input: a U+FEFF at the start of a later line is a character of that line (ZERO WIDTH
// NO-BREAK SPACE), as createLinkStream reads the same bytes, and it counts one UTF-16 unit. So the decoder of a
// later line is given a BOM of its own first, which it drops (its BOM sniffing is then over), and the 3 bytes that
// BOM adds before the line are taken off every byte offset. Legacy charsets drop nothing and need no such step.
import { Buffer } from 'node:buffer';
import { createDecoder } from '../stream/decode.js';
import type { Decoder } from '../stream/decode.js';
import type { Chunk, DiagnosticCode } from '../types.js';

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

export class LineDecoder {
  private readonly decoder: Decoder;
  /** Bytes fed before the line (the BOM given to a later line's UTF-8 decoder). */
  private readonly shift: number;

  /** `first`: the line is the input's first (a BOM at its start is the input's and is dropped). */
  constructor(encoding: string | undefined, first: boolean) {
    this.decoder = createDecoder(encoding);
    this.shift = 0;
    if (!first && this.decoder.byteMap.counting === 'utf8') {
      this.decoder.write(BOM); // dropped as the input's BOM: returns '' and records a 3-byte gap at unit 0
      this.shift = BOM.length;
    }
  }

  /** UTF-8 input whose bytes so far held some that are not UTF-8 (each read as U+FFFD). */
  get invalidUtf8(): boolean {
    return this.decoder.byteMap.replaced && this.decoder.byteMap.counting === 'utf8';
  }

  /** Decodes the next bytes of the line; returns the text now complete. */
  write(bytes: Uint8Array): string {
    return this.decoder.write(bytes);
  }

  /** The line's last text (an incomplete sequence becomes U+FFFD). */
  end(): string {
    return this.decoder.end();
  }

  /** Puts byteStart/byteEnd (bytes of the line) on the next chunk of its text; chunks are given in order. */
  annotate(chunk: Chunk): void {
    this.decoder.byteMap.annotate(chunk);
    if (this.shift !== 0) {
      chunk.byteStart = chunk.byteStart! - this.shift;
      chunk.byteEnd = chunk.byteEnd! - this.shift;
    }
  }
}

/** What the decoder says about the bytes of a span: they held bytes it replaced with U+FFFD. */
const DECODE_DIAGNOSTICS: readonly DiagnosticCode[] = ['invalid-utf8', 'invalid-bytes'];

/**
 * A link's diagnostics with the decoder's diagnostics of its span added (the stream's chunks carry them; a record's
 * link is found in the decoded line, so it gets them from the byte map's span). A new array when one is added.
 */
export function withDecodeDiagnostics(diagnostics: DiagnosticCode[], span: Chunk): DiagnosticCode[] {
  let out = diagnostics;
  for (const code of DECODE_DIAGNOSTICS) {
    if (span.diagnostics?.includes(code) && !out.includes(code)) out = [...out, code];
  }
  return out;
}
