// A stand-in for bench/child.ts (test/bench-processes.test.ts): speaks the same line protocol (bench/lib/processes.ts)
// without measuring anything, and misbehaves as its contender name says, so that every way a child can fail is
// tried in milliseconds. Each child appends {"contender","pid","execArgv"} as a line to the file it is given, so
// that the test can check which Node flags it ran with and that it is gone afterwards.
//   good          ready; every run {"run","ms","links"}; done at end
//   nonjson       prints a line that is not JSON in reply to run 2
//   slow          run 2 never answers (sleeps)
//   dies          exits after answering run 1
//   wrong-reply   answers run 2 with {"ready":true}
//   double-reply  answers run 1 twice
//   fails         answers run 2 with {"error":"…"} and exits 1
//   throws        throws an uncaught error during run 2
//   grandchild    at run 2 starts a process that keeps its stdout open, then exits
//   no-done       never answers end (stays alive)
//   done-stays    answers end, then stays alive
//   done-exit-3   answers end, then exits with code 3
//   no-rss        answers end without maxRssKiB
import { appendFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const { contender, file } = JSON.parse(process.argv[2] ?? '{}');
appendFileSync(file, JSON.stringify({ contender, pid: process.pid, execArgv: process.execArgv }) + '\n');
const send = (m) => process.stdout.write(JSON.stringify(m) + '\n');
const stayAlive = () => setInterval(() => {}, 1000);

send({ ready: true });
let i = 0;
for await (const line of createInterface({ input: process.stdin })) {
  if (line === 'end') {
    if (contender === 'no-done') {
      stayAlive();
      continue;
    }
    if (contender === 'no-rss') send({ done: true });
    else send({ done: true, maxRssKiB: 50_000 });
    if (contender === 'done-stays') {
      stayAlive();
      continue;
    }
    process.exit(contender === 'done-exit-3' ? 3 : 0);
  }
  i++;
  const reply = { run: i - 1, ms: 5, links: 3 };
  if (i === 2 && contender === 'nonjson') process.stdout.write('hello from a library\n');
  else if (i === 2 && contender === 'slow') await new Promise((resolve) => setTimeout(resolve, 60_000));
  else if (i === 2 && contender === 'wrong-reply') send({ ready: true });
  else if (i === 2 && contender === 'fails') {
    send({ error: 'the contender threw' });
    process.exit(1);
  } else if (i === 2 && contender === 'throws') {
    setTimeout(() => {
      throw new TypeError('boom in the contender');
    }, 0);
  } else if (i === 2 && contender === 'grandchild') {
    spawn(process.execPath, ['-e', 'setTimeout(() => {}, 3000)'], { stdio: ['ignore', 'inherit', 'inherit'] }).unref();
    process.exit(0);
  } else {
    send(reply);
    if (i === 1 && contender === 'double-reply') send(reply);
  }
  if (i === 1 && contender === 'dies') process.exit(0);
}
