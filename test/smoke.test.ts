import { expect } from 'chai';
import { IriError } from '../src/index.js';

describe('package entry', () => {
  it('exports IriError with a stable code', () => {
    const e = new IriError('lone-surrogate');
    expect(e).to.be.instanceOf(Error);
    expect(e.code).to.equal('lone-surrogate');
    expect(e.message).to.match(/lone surrogate/);
  });
});
