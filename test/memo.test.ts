// src/memo.ts: the bounded memo behind the IDNA, UTS #39 and link-conversion memos. What it must guarantee is
// memory: bounded entries, and keys that do not keep the text they were sliced from alive (a regression once made
// the stream's retained heap grow with the input: 11 MiB after 20 MB of en-mixed, 43 MiB after 216 MB).
import { expect } from 'chai';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { BoundedMemo, detached } from '../src/memo.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

describe('BoundedMemo', () => {
  it('remembers, forgets keys longer than its limit, and is cleared when full', () => {
    const memo = new BoundedMemo<number>(3, 5);
    memo.set('a', 1);
    memo.set('toolong', 2);
    expect(memo.get('a')).to.equal(1);
    expect(memo.get('toolong')).to.equal(undefined);
    memo.set('b', 2);
    memo.set('c', 3);
    expect([memo.get('a'), memo.get('b'), memo.get('c')]).to.deep.equal([1, 2, 3]);
    memo.set('d', 4); // full: cleared first
    expect([memo.get('a'), memo.get('d')]).to.deep.equal([undefined, 4]);
  });

  it('detached() keeps the value', () => {
    for (const s of ['', 'short', 'https://例え.jp/パス/long enough', 'x'.repeat(1000)]) expect(detached(s)).to.equal(s);
  });

  it('a key sliced from a large string does not keep that string alive', () => {
    const memo = new BoundedMemo<number>(1000, 256);
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < 200; i++) {
      // 200 distinct two-byte strings of 512 Ki units (1 MiB each), each remembered only through a 40-unit slice.
      const big = [String(i).padStart(4, '0'), 'パス', 'é'.repeat(1 << 19)].join('');
      memo.set(big.slice(0, 40), i);
    }
    gc();
    const grown = (process.memoryUsage().heapUsed - before) / 1048576;
    expect(grown, `heap grew by ${grown.toFixed(1)} MiB`).to.be.below(20);
    expect(memo.get(`0007パス${'é'.repeat(34)}`)).to.equal(7);
  });
});
