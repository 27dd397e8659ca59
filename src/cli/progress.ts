// A progress bar on standard error for large files (only when it is a terminal), through cli-progress.
import type CliProgress from 'cli-progress';
import { lazyRequire } from '../lazy.js';
import type { Writable } from 'node:stream';

const loadCliProgress = lazyRequire<typeof CliProgress>('cli-progress');

export interface Progress {
  advance(bytes: number): void;
  stop(): void;
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
  return {
    advance(bytes: number): void {
      done += bytes;
      bar.update(done);
    },
    stop(): void {
      bar.stop();
    },
  };
}
