// The bench's child processes (bench/child.ts): one per contender and input, kept alive between runs so that the
// runs of all contenders on an input can be interleaved (runJob). Used by bench/run.ts.
//
// The protocol, one JSON object per line on the child's stdout:
//   child: {"ready":true}                      after loading the contender and the untimed warm-up runs
//   parent: run            child: {"run":i,"ms":…,"links":…}
//   parent: end            child: {"done":true,"maxRssKiB":…}, then it exits with code 0
//   child, at any time: {"error":"…"} and exit code 1
// Anything else — a line that is not a JSON object, a reply of the wrong kind — is a protocol error: the child is
// killed, so that a confused child can neither be paired with the wrong run nor keep running while another
// contender is timed.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';
import { repoRoot } from './paths.js';

const MB = 1e6;
const CHILD = path.join(repoRoot, 'bench', 'child.ts');

export type Status = 'ok' | 'timeout' | 'error';

/** The untimed warm-up runs of each contender before its timed ones: `runs` runs on the first `bytes` bytes. */
export interface Warmup {
  bytes: number;
  runs: number;
}

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
  /** Why the status is not ok. */
  error?: string;
  /** With status ok: something that went wrong after the last run (no peak RSS then). */
  note?: string;
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

/** What a child that has stopped said last: exit code or signal, and the first error line of its stderr. */
function describeExit(code: number | null, signal: NodeJS.Signals | null, stderr: string): string {
  const how = signal !== null ? `killed by ${signal}` : `exit ${code}`;
  const lines = stderr.split('\n').map((l) => l.trim());
  // Node prints an uncaught error as its source line, a caret, then `TypeError: …`; V8 as `FATAL ERROR: …`.
  const error =
    lines.find((l) => /^(?:[A-Z]\w*Error\b|FATAL ERROR\b)/.test(l)) ?? lines.find((l) => /\bError:/.test(l)) ?? lines.filter((l) => l !== '').pop();
  return error === undefined ? how : `${how}: ${error.slice(0, 200)}`;
}

/**
 * V8's memory reducer runs garbage collections in a process some seconds after it went idle: in an idle child,
 * that is while another contender is being timed (10–100 ms of CPU per idle period, seen with --trace-gc). A process
 * that links without pauses does not idle, so the children run without it.
 */
const NODE_FLAGS = ['--no-memory-reducer'];

/**
 * One contender on one input in its own child process, kept alive between runs so that the parent can interleave
 * the runs of all contenders. Every wait has a time limit; past it the child is killed.
 */
class ContenderProcess {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly messages: ChildMessage[] = [];
  private wake: (() => void) | undefined;
  /** The child has exited and its output is read (or it has been gone for a while: a grandchild may hold the pipe). */
  private gone = false;
  private exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  private stderr = '';
  readonly runsMs: number[] = [];
  readonly links: number[] = [];
  maxRssKiB: number | undefined;
  /** Why the process stopped before its last run (timeout or error). */
  failure: { status: 'timeout' | 'error'; error: string } | undefined;
  /** What went wrong after the last run (the runs stand). */
  note: string | undefined;

  constructor(
    readonly contender: string,
    file: string,
    bytes: number,
    warmup: Warmup,
    script: string,
  ) {
    const args = { contender, file, bytes, warmupBytes: warmup.bytes, warmupRuns: warmup.runs };
    this.child = spawn(process.execPath, [...NODE_FLAGS, '--import', 'tsx', script, JSON.stringify(args)], {
      cwd: repoRoot, // `--import tsx` is resolved from here
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let buffered = '';
    this.child.stdout.on('data', (d: Buffer) => {
      buffered += d.toString();
      let nl: number;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        this.messages.push(parseMessage(line));
      }
      this.wake?.();
    });
    this.child.stderr.on('data', (d: Buffer) => {
      this.stderr = (this.stderr + d.toString()).slice(-65536); // the end is where a fatal error is
    });
    this.child.stdin.on('error', () => {}); // the child died: its exit is what reports it
    this.child.on('error', (err) => {
      // The spawn failed (or a kill did): nothing more will come from this child.
      this.fail('error', `could not run the child: ${err.message}`);
      this.gone = true;
      this.wake?.();
    });
    this.child.on('exit', (code, signal) => {
      this.exit = { code, signal };
      // Its output ends with 'close'; if something else keeps the pipes open, stop waiting after a second.
      setTimeout(() => {
        this.gone = true;
        this.wake?.();
      }, 1000).unref();
    });
    this.child.on('close', () => {
      this.gone = true;
      this.wake?.();
    });
  }

  /**
   * The next message of the kind `expected` wants, or undefined after a failure: the child sent an error, something
   * else, or nothing before it exited or `timeoutS` passed. Each failure kills the child.
   */
  private async next(expected: (m: ChildMessage) => boolean, timeoutS: number, what: string): Promise<ChildMessage | undefined> {
    const deadline = Date.now() + timeoutS * 1000;
    for (;;) {
      if (this.failure !== undefined) return undefined;
      const m = this.messages.shift();
      if (m !== undefined) {
        if (m.error !== undefined) this.fail('error', m.error);
        else if (!expected(m)) this.fail('error', `protocol: waiting for ${what}, got ${JSON.stringify(m).slice(0, 200)}`);
        else return m;
        return undefined;
      }
      if (this.gone) {
        const exit = this.exit ?? { code: null, signal: null };
        this.fail('error', `the child stopped during ${what} (${describeExit(exit.code, exit.signal, this.stderr)})`);
        return undefined;
      }
      const timedOut = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(true), Math.max(0, deadline - Date.now()));
        this.wake = () => {
          clearTimeout(timer);
          resolve(false);
        };
      });
      this.wake = undefined;
      if (timedOut && this.messages.length === 0 && !this.gone) {
        this.fail('timeout', `${what} took more than ${timeoutS} s`);
        return undefined;
      }
    }
  }

  private fail(status: 'timeout' | 'error', error: string): void {
    this.failure ??= { status, error };
    if (this.exit === undefined) this.child.kill('SIGKILL');
  }

  /** Waits for the start and the warm-up, given 3 × the run limit (three untimed runs of a prefix). */
  async ready(timeoutS: number): Promise<boolean> {
    return (await this.next((m) => m.ready === true, timeoutS * 3, 'the warm-up')) !== undefined;
  }

  /** One timed run; false when it failed or timed out (the process is then gone). */
  async run(timeoutS: number): Promise<boolean> {
    if (this.failure !== undefined) return false;
    // Between runs the child has nothing to say: a message now (a second reply to the last run, say) means it is
    // out of step, and may still be working.
    const early = this.messages.shift();
    if (early !== undefined) {
      this.fail('error', early.error ?? `protocol: a message between runs: ${JSON.stringify(early).slice(0, 200)}`);
      return false;
    }
    this.child.stdin.write('run\n');
    const n = this.runsMs.length;
    const m = await this.next((x) => x.run === n && typeof x.ms === 'number' && x.ms >= 0, timeoutS, `run ${n + 1}`);
    if (m === undefined) return false;
    this.runsMs.push(m.ms!);
    this.links.push(typeof m.links === 'number' ? m.links : -1);
    return true;
  }

  /**
   * Ends the child and collects its peak RSS. A failure here (no answer, no RSS, an exit code other than 0) leaves
   * the runs standing, with a note.
   */
  async finish(timeoutS: number): Promise<void> {
    if (this.failure !== undefined) return this.stop();
    const deadline = Date.now() + timeoutS * 1000;
    this.child.stdin.end('end\n');
    const m = await this.next((x) => x.done === true, timeoutS, 'the exit');
    if (m !== undefined) {
      const exited = await this.exited(Math.max(0, (deadline - Date.now()) / 1000));
      if (typeof m.maxRssKiB !== 'number') this.note = 'the child reported no peak RSS';
      else if (!exited) this.note = `the child did not exit within ${timeoutS} s after its last run (its peak RSS is left out)`;
      else if (this.exit?.code !== 0) this.note = `the child ended badly after its last run (${describeExit(this.exit!.code, this.exit!.signal, this.stderr)})`;
      else this.maxRssKiB = m.maxRssKiB;
    }
    const failed = this.failure as ContenderProcess['failure']; // set by next() meanwhile
    if (failed !== undefined) {
      this.note = `after the last run: ${failed.error}`;
      this.failure = undefined;
    }
    await this.stop();
  }

  /**
   * Kills the child if it still runs, and waits until it has exited (Node reaps it before 'exit'), at most 5 s: when
   * the job returns, none of its children is left, not even for a moment after a kill.
   */
  private async stop(): Promise<void> {
    if (this.exit === undefined) this.child.kill('SIGKILL');
    if (this.child.pid !== undefined) await this.exited(5);
  }

  /** Whether the child exits within `timeoutS`. */
  private async exited(timeoutS: number): Promise<boolean> {
    const deadline = Date.now() + timeoutS * 1000;
    while (this.exit === undefined && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(0, deadline - Date.now()));
        this.child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.exit !== undefined;
  }

  /** This contender's result (all runs done). */
  result(bytes: number, runs: number): ContenderResult {
    const base = { bytes, contender: this.contender, runsMs: this.runsMs };
    if (this.failure !== undefined) return { ...base, ...this.failure };
    if (this.runsMs.length < runs) return { ...base, status: 'error', error: `${this.runsMs.length} of ${runs} runs reported` };
    if (new Set(this.links).size !== 1 || this.links[0]! < 0) {
      return { ...base, status: 'error', error: `link counts missing or different between runs: ${this.links.join(', ')}` };
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
      ...(this.note === undefined ? {} : { note: this.note }),
    };
  }
}

/** A line of the child's stdout as a message; a line that is not a JSON object becomes an error message. */
function parseMessage(line: string): ChildMessage {
  try {
    const m = JSON.parse(line) as unknown;
    if (m !== null && typeof m === 'object' && !Array.isArray(m)) return m as ChildMessage;
  } catch {
    // not JSON: below
  }
  return { error: `protocol: unexpected output ${JSON.stringify(line.slice(0, 120))}` };
}

/**
 * All contenders on one input: each started and warmed up in its own process (one at a time), then their timed
 * runs interleaved — run 1 of every contender, then run 2 (in reverse order), … — so that a contender and the
 * contenders it is compared with are measured in the same minutes, not one after the other: the machine's speed
 * drifts with other work on it, and the ratios are what the targets judge. `script` is the child's script
 * (bench/child.ts; tests pass a stand-in).
 */
export async function runJob(
  contenders: string[],
  file: string,
  bytes: number,
  runs: number,
  warmup: Warmup,
  timeoutS: number,
  log?: (line: string) => void,
  script: string = CHILD,
): Promise<ContenderResult[]> {
  const procs: ContenderProcess[] = [];
  for (const c of contenders) {
    const p = new ContenderProcess(c, file, bytes, warmup, script);
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
