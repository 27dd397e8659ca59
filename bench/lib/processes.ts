// The bench's child processes (bench/child.ts): one per contender and input, kept alive between runs so that the
// runs of all contenders on an input can be interleaved (runJob). Used by bench/run.ts.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const benchDir = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const MB = 1e6;

export type Status = 'ok' | 'timeout' | 'error';

/** One contender's result on one input. */
export interface ContenderResult {
  bytes: number;
  contender: string;
  status: Status;
  runsMs: number[];
  medianMs?: number;
  mbPerS?: number;
  msPerMb?: number;
  links?: number;
  maxRssMiB?: number;
  error?: string;
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

interface ChildMessage {
  ready?: boolean;
  run?: number;
  ms?: number;
  links?: number;
  done?: boolean;
  maxRssKiB?: number;
  error?: string;
}

/**
 * One contender on one input in its own child process (bench/child.ts), kept alive between runs so that the
 * parent can interleave the runs of all contenders. Every wait has a time limit; past it the child is killed.
 */
class ContenderProcess {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly messages: ChildMessage[] = [];
  private wake: (() => void) | undefined;
  private closed = false;
  private exitCode: number | null = null;
  private stderr = '';
  readonly runsMs: number[] = [];
  readonly links: number[] = [];
  maxRssKiB: number | undefined;
  /** Why the process stopped early (timeout or error), or undefined while all is well. */
  failure: { status: 'timeout' | 'error'; error: string } | undefined;

  constructor(readonly contender: string, file: string, bytes: number, warmupBytes: number) {
    this.child = spawn(process.execPath, ['--import', 'tsx', path.join(benchDir, 'child.ts'), JSON.stringify({ contender, file, bytes, warmupBytes })], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let buffered = '';
    this.child.stdout.on('data', (d: Buffer) => {
      buffered += d.toString();
      let nl: number;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        this.messages.push(JSON.parse(line) as ChildMessage);
      }
      this.wake?.();
    });
    this.child.stderr.on('data', (d: Buffer) => {
      this.stderr += d.toString();
    });
    this.child.stdin.on('error', () => {}); // a child that died: its close event reports it
    this.child.on('close', (code) => {
      this.closed = true;
      this.exitCode = code;
      this.wake?.();
    });
  }

  /** The next message, or undefined when the child exited or `timeoutS` passed first (then it is killed). */
  private async next(timeoutS: number, what: string): Promise<ChildMessage | undefined> {
    const deadline = Date.now() + timeoutS * 1000;
    for (;;) {
      const m = this.messages.shift();
      if (m !== undefined) {
        if (m.error === undefined) return m;
        this.fail('error', m.error);
        return undefined;
      }
      if (this.closed) {
        this.fail('error', this.stderr.trim().split('\n').slice(-3).join(' ') || `exit ${this.exitCode}`);
        return undefined;
      }
      const left = deadline - Date.now();
      const timedOut = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(true), Math.max(0, left));
        this.wake = () => {
          clearTimeout(timer);
          resolve(false);
        };
      });
      this.wake = undefined;
      if (timedOut) {
        this.fail('timeout', `${what} took more than ${timeoutS} s`);
        return undefined;
      }
    }
  }

  private fail(status: 'timeout' | 'error', error: string): void {
    this.failure ??= { status, error };
    if (!this.closed) this.child.kill('SIGKILL');
  }

  /** Waits for the warm-up to end (given the time of three runs of the prefix: 3 × the run limit). */
  async ready(timeoutS: number): Promise<boolean> {
    const m = await this.next(timeoutS * 3, 'the warm-up');
    return m?.ready === true;
  }

  /** One timed run; false when it failed or timed out (the process is then gone). */
  async run(timeoutS: number): Promise<boolean> {
    if (this.failure !== undefined) return false;
    this.child.stdin.write('run\n');
    const m = await this.next(timeoutS, 'a run');
    if (m?.ms === undefined) return false;
    this.runsMs.push(m.ms);
    this.links.push(m.links ?? 0);
    return true;
  }

  /** Ends the child and collects its peak RSS. */
  async finish(timeoutS: number): Promise<void> {
    if (this.failure !== undefined) return;
    this.child.stdin.end('end\n');
    const m = await this.next(timeoutS, 'the exit');
    if (m?.done === true) this.maxRssKiB = m.maxRssKiB;
  }

  /** The bench row of this contender (all runs done). */
  result(bytes: number, runs: number): ContenderResult {
    const base = { bytes, contender: this.contender, runsMs: this.runsMs };
    if (this.failure !== undefined) return { ...base, ...this.failure };
    if (this.runsMs.length < runs) return { ...base, status: 'error', error: `${this.runsMs.length} of ${runs} runs reported` };
    if (new Set(this.links).size !== 1) {
      return { ...base, status: 'error', error: `link counts differ between runs: ${this.links.join(', ')}` };
    }
    const med = median(this.runsMs);
    return {
      ...base,
      status: 'ok',
      medianMs: med,
      mbPerS: bytes / MB / (med / 1000),
      msPerMb: med / (bytes / MB),
      links: this.links[0],
      maxRssMiB: this.maxRssKiB === undefined ? undefined : this.maxRssKiB / 1024,
    };
  }
}

/**
 * All contenders on one input: each started and warmed up in its own process (one at a time), then their timed
 * runs interleaved — run 1 of every contender, then run 2 (in reverse order), … — so that a contender and the
 * contenders it is compared with are measured in the same minutes, not one after the other: the machine's speed
 * drifts with other work on it, and the ratios are what the targets judge.
 */
export async function runJob(
  contenders: string[],
  file: string,
  bytes: number,
  runs: number,
  warmupBytes: number,
  timeoutS: number,
  log?: (line: string) => void,
): Promise<ContenderResult[]> {
  const procs: ContenderProcess[] = [];
  for (const c of contenders) {
    const p = new ContenderProcess(c, file, bytes, warmupBytes);
    await p.ready(timeoutS);
    procs.push(p);
  }
  for (let r = 0; r < runs; r++) {
    for (const p of r % 2 === 0 ? procs : [...procs].reverse()) {
      if (await p.run(timeoutS)) log?.(`  run ${r + 1}/${runs} ${p.contender}: ${p.runsMs[p.runsMs.length - 1]!.toFixed(0)} ms`);
    }
  }
  for (const p of procs) await p.finish(timeoutS);
  return procs.map((p) => p.result(bytes, runs));
}

