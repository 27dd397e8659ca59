// A stand-in for bench/child.ts (test/bench-processes.test.ts): speaks the same line protocol (bench/lib/processes.ts)
// without measuring anything, and misbehaves as its contender name says, so that every way a child can fail is
// tried in milliseconds.
//   good          ready; every run {"run","ms","links"}; done at end
//   nonjson       prints a line that is not JSON in reply to run 2
//   slow          run 2 never answers (sleeps)
//   dies          exits after answering run 1
//   wrong-reply   answers run 2 with {"ready":true}
//   fails         answers run 2 with {"error":"…"} and exits 1
//   no-done       never answers end (stays alive)
//   done-exit-3   answers end, then exits with code 3
//   no-rss        answers end without maxRssKiB
import { createInterface } from 'node:readline';

const { contender } = JSON.parse(process.argv[2] ?? '{}');
const send = (m) => process.stdout.write(JSON.stringify(m) + '\n');

send({ ready: true });
let i = 0;
for await (const line of createInterface({ input: process.stdin })) {
  if (line === 'end') {
    if (contender === 'no-done') {
      setInterval(() => {}, 1000); // alive, silent
      continue;
    }
    if (contender === 'no-rss') send({ done: true });
    else send({ done: true, maxRssKiB: 50_000 });
    if (contender === 'done-exit-3') process.exit(3);
    process.exit(0);
  }
  i++;
  if (i === 2 && contender === 'nonjson') process.stdout.write('hello from a library\n');
  else if (i === 2 && contender === 'slow') await new Promise((resolve) => setTimeout(resolve, 60_000));
  else if (i === 2 && contender === 'wrong-reply') send({ ready: true });
  else if (i === 2 && contender === 'fails') {
    send({ error: 'the contender threw' });
    process.exit(1);
  } else send({ run: i - 1, ms: 5, links: 3 });
  if (i === 1 && contender === 'dies') process.exit(0);
}
