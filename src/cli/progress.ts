// A progress bar on standard error for large files (only when it is a terminal), through cli-progress.
//
// The bar hides the cursor and turns line wrap off while it runs; every way the command ends puts them back: the
// bar's stop() at a file's end, and, for the ways that skip it (`irilink big.txt | head` ends through
// process.exit, Ctrl-C, a write error), the process's 'exit' event and a SIGINT handler while a bar is shown.
import type CliProgress from 'cli-progress';
import { lazyRequire } from '../lazy.js';
import type { Writable } from 'node:stream';

const loadCliProgress = lazyRequire<typeof CliProgress>('cli-progress');

export interface Progress {
  advance(bytes: number): void;
  /** Ends the bar: clears its line and shows the cursor again. Safe to call more than once. */
  stop(): void;
}

/** The bar being shown, if any (one file at a time). */
let shown: Progress | null = null;

/** Stops the bar being shown, if any: before a message on standard error, or an exit that skips its stop(). */
export function stopProgress(): void {
  shown?.stop();
}

// Ctrl-C while a bar is shown: the terminal is put back, then the command ends as SIGINT ends it (status 130).
function onSigint(): void {
  stopProgress();
  process.exit(130);
}

export function createProgress(stream: Writable, name: string, total: number): Progress {
  const cliProgress = loadCliProgress();
  const bar = new cliProgress.SingleBar(
    {
      stream: stream as unknown as NodeJS.WritableStream,
      format: `${name.length > 30 ? '…' + name.slice(-29) : name} [{bar}] {percentage}% | {value}/{total} MiB | ETA {eta_formatted}`,
      hideCursor: true,
      clearOnComplete: true,
      etaBuffer: 50,
      fps: 10,
      formatValue: (value: number, _options: unknown, type: string) =>
        type === 'value' || type === 'total' ? (value / 1048576).toFixed(1) : String(value),
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total, 0);
  let done = 0;
  let stopped = false;
  const progress: Progress = {
    advance(bytes: number): void {
      if (stopped) return;
      done += bytes;
      bar.update(done);
    },
    stop(): void {
      if (stopped) return;
      stopped = true;
      bar.stop();
      if (shown === progress) shown = null;
      process.removeListener('exit', stopProgress);
      process.removeListener('SIGINT', onSigint);
    },
  };
  shown = progress;
  process.once('exit', stopProgress);
  process.once('SIGINT', onSigint);
  return progress;
}
