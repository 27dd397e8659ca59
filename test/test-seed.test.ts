// The suite's fast-check seed (test/support/fast-check-seed.ts): properties without a seed of their own are
// reproducible unless IRILINK_FC_SEED=random asks otherwise.
import { expect } from 'chai';
import fc from 'fast-check';
import { DEFAULT_SEED } from './support/fast-check-seed.js';

describe('fast-check seed of the suite', () => {
  it('properties without a seed of their own draw the same values on every run', () => {
    const asked = process.env.IRILINK_FC_SEED;
    const seed = fc.readConfigureGlobal().seed;
    if (asked === 'random') {
      expect(seed).to.equal(undefined);
      return;
    }
    expect(seed).to.equal(asked === undefined || asked === '' ? DEFAULT_SEED : Number(asked));
    const draw = (): string[] => fc.sample(fc.string(), 20);
    expect(draw()).to.deep.equal(draw());
  });
});
