// Line breaks, one rule wherever irilink numbers lines: CR LF, a lone LF and a lone CR are one break each, so
// CRLF, LF and old-Mac (CR) files number alike, also when a CR LF is split between two writes. The jsonl
// renderer's `line` and the HTML renderer's `breaks` use startsLineBreak; --records and --logs split their lines with LineBreakFinder.
// (Hadoop's LineRecordReader and Scala's getLines, the usual drivers of a record filter, split on the same three.)

export const LF = 0x0a;
export const CR = 0x0d;

/**
 * Whether the code unit (or byte) `c` starts a line break, `afterCr` telling whether the unit before it was a CR
 * (a LF right after a CR belongs to the CR's break).
 */
export function startsLineBreak(c: number, afterCr: boolean): boolean {
  return c === CR || (c === LF && !afterCr);
}

/**
 * The line breaks of one buffer, in order: next(from) is where the first break at or after `from` starts (a CR or
 * a LF), or -1; length(at) how many bytes it takes (2 for CR LF). A CR that is the buffer's last byte has length 1:
 * a LF at the start of the next buffer belongs to it (skip it when `afterCr`, see startsLineBreak). Each byte is
 * looked at once (the next CR and the next LF are remembered), so a buffer costs two memchr passes.
 */
export class LineBreakFinder {
  private readonly bytes: Uint8Array;
  private nextCr: number;
  private nextLf: number;

  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
    this.nextCr = bytes.indexOf(CR);
    this.nextLf = bytes.indexOf(LF);
  }

  next(from: number): number {
    if (this.nextCr >= 0 && this.nextCr < from) this.nextCr = this.bytes.indexOf(CR, from);
    if (this.nextLf >= 0 && this.nextLf < from) this.nextLf = this.bytes.indexOf(LF, from);
    if (this.nextCr < 0) return this.nextLf;
    if (this.nextLf < 0) return this.nextCr;
    return Math.min(this.nextCr, this.nextLf);
  }

  length(at: number): number {
    return this.bytes[at] === CR && at + 1 < this.bytes.length && this.bytes[at + 1] === LF ? 2 : 1;
  }
}
