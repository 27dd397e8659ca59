// leiriToIri beyond the vectors (3987bis §6.2/§6.3).
import { expect } from 'chai';
import { IriError } from '../src/errors.js';
import { leiriToIri } from '../src/iri/leiri.js';
import { isIri } from '../src/iri/parse.js';

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (e) {
    if (e instanceof IriError) return e.code;
    throw e;
  }
  return undefined;
}

describe('leiriToIri', () => {
  it('encodes the §6.3 characters and keeps what an IRI allows', () => {
    expect(leiriToIri('http://ex.org/ré sumé?q=a|b#f{}')).to.equal('http://ex.org/ré%20sumé?q=a%7Cb#f%7B%7D');
    expect(leiriToIri('http://ex.org/%C3%A9%zz%')).to.equal('http://ex.org/%C3%A9%zz%');
    expect(leiriToIri('')).to.equal('');
  });

  it('private use and tags are kept in the query only (3987bis iprivate)', () => {
    expect(leiriToIri('http://ex.org/\ue000?\ue000\u{e0041}#\ue000\u{e0041}')).to.equal(
      'http://ex.org/%EE%80%80?\ue000\u{e0041}#%EE%80%80%F3%A0%81%81',
    );
  });

  it('encodes the isolates and ALM as bidi formatting characters (labelled deviation)', () => {
    expect(leiriToIri('http://ex.org/\u2066x\u2069\u061c')).to.equal('http://ex.org/%E2%81%A6x%E2%81%A9%D8%9C');
  });

  it('its result is an IRI when the LEIRI had no stray "%", "#" or brackets', () => {
    const leiri = 'http://ex.org/a b\u0001\u0085\u202e\ufff0\ufdd0\u{1fffe}\ue000<>"{}|\\^`?\ue000 #x y';
    const iri = leiriToIri(leiri);
    expect(isIri(iri)).to.equal(true);
  });

  it('fails on lone surrogates and on U+FFFE / U+FFFF (§6.3)', () => {
    expect(codeOf(() => leiriToIri('a\udc00'))).to.equal('lone-surrogate');
    expect(codeOf(() => leiriToIri('\ud800'))).to.equal('lone-surrogate');
    expect(codeOf(() => leiriToIri('http://h/\uffff'))).to.equal('noncharacter');
    expect(codeOf(() => leiriToIri('http://h/?\ufffe'))).to.equal('noncharacter');
    expect(leiriToIri('http://h/\u{10ffff}')).to.equal('http://h/%F4%8F%BF%BF');
  });

  it('bad arguments are TypeErrors; 5 MB inputs are fine', () => {
    expect(() => leiriToIri(null as unknown as string)).to.throw(TypeError, /leiriToIri\(\): leiri must be a string/);
    const big = 'http://h/' + 'a b'.repeat(2 * 1024 * 1024);
    expect(leiriToIri(big)).to.equal('http://h/' + 'a%20b'.repeat(2 * 1024 * 1024));
  });
});
