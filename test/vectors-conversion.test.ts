// Every vector of the conversion and syntax categories of the shared RFC 3987 / 3987bis vectors
// (../shared/vectors/iri-vectors.json), one `it` per vector, named by its id.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { IriError } from '../src/errors.js';
import { leiriToIri } from '../src/iri/leiri.js';
import { isIri, matchesIriAbnf, type IriProduction } from '../src/iri/parse.js';
import { toIri, type ToIriOptions } from '../src/iri/to-iri.js';
import { toUri, type ToUriOptions } from '../src/iri/to-uri.js';
import { sharedPath } from './support/shared.js';

interface Vector {
  id: string;
  category: string;
  input: string;
  expected: unknown;
  production?: IriProduction;
  options?: Record<string, unknown>;
  abnf_only_result?: boolean;
}

// JSON.parse keeps the one lone surrogate (LEI-17) as a UTF-16 code unit.
const file = JSON.parse(readFileSync(sharedPath('vectors', 'iri-vectors.json'), 'utf8')) as { vectors: Vector[] };
const byCategory = (category: string): Vector[] => file.vectors.filter((v) => v.category === category);

function isErrorExpected(expected: unknown): boolean {
  return typeof expected === 'object' && expected !== null && (expected as { error?: unknown }).error === true;
}

// The vectors' option names → the API's. `idna: 'uts46-nontransitional-std3'` names the profile
// that host: 'idna' always uses, so it maps to nothing.
function toUriOptions(o: Record<string, unknown> = {}): ToUriOptions {
  const out: ToUriOptions = {};
  for (const [k, v] of Object.entries(o)) {
    if (k === 'host') out.host = v as ToUriOptions['host'];
    else if (k === 'normalize') out.normalize = v as ToUriOptions['normalize'];
    else if (k === 'ascii_disallowed') out.asciiDisallowed = v as ToUriOptions['asciiDisallowed'];
    else if (k === 'document_charset') out.documentCharset = v as string;
    else if (k === 'idna') expect(v).to.equal('uts46-nontransitional-std3');
    else throw new Error(`unknown vector option ${k}`);
  }
  return out;
}

function toIriOptions(o: Record<string, unknown> = {}): ToIriOptions {
  const out: ToIriOptions = {};
  for (const [k, v] of Object.entries(o)) {
    if (k === 'to_unicode') out.toUnicode = v as boolean;
    else throw new Error(`unknown vector option ${k}`);
  }
  return out;
}

function expectConversion(run: () => string, v: Vector): void {
  if (isErrorExpected(v.expected)) {
    expect(run).to.throw(IriError);
  } else {
    expect(run()).to.equal(v.expected);
  }
}

describe('vectors: IRI syntax (RFC 3987 §2.2 + §4.1)', () => {
  for (const category of ['valid_iri', 'invalid_iri']) {
    const vectors = byCategory(category);
    it(`${category}: the file holds vectors`, () => expect(vectors.length).to.be.greaterThan(5));
    for (const v of vectors) {
      it(v.id, () => {
        expect(isIri(v.input, v.production ?? 'IRI')).to.equal(v.expected);
        // `abnf_only_result` is what a validator of the ABNF alone answers (the vectors' ABNF-only tools
        // disagree with `expected` only through the §4.1 bidi rule). matchesIriAbnf is that check.
        expect(matchesIriAbnf(v.input, v.production ?? 'IRI')).to.equal(v.abnf_only_result ?? v.expected);
      });
    }
  }
});

describe('vectors: IRI → URI (RFC 3987 §3.1, 3987bis §3)', () => {
  for (const category of ['iri_to_uri', 'iri_to_uri_idna']) {
    const vectors = byCategory(category);
    it(`${category}: the file holds vectors`, () => expect(vectors.length).to.be.greaterThan(5));
    for (const v of vectors) {
      it(v.id, () => {
        const opts = toUriOptions(v.options);
        if (category === 'iri_to_uri_idna') expect(opts.host).to.equal('idna');
        expectConversion(() => toUri(v.input, opts), v);
      });
    }
  }
});

describe('vectors: URI → IRI (RFC 3987 §3.2, 3987bis §4)', () => {
  const vectors = byCategory('uri_to_iri');
  it('uri_to_iri: the file holds vectors', () => expect(vectors.length).to.be.greaterThan(5));
  for (const v of vectors) {
    it(v.id, () => expectConversion(() => toIri(v.input, toIriOptions(v.options)), v));
  }
});

describe('vectors: LEIRI → IRI (3987bis §6.2)', () => {
  const vectors = byCategory('leiri_to_iri');
  it('leiri_to_iri: the file holds vectors', () => expect(vectors.length).to.be.greaterThan(5));
  for (const v of vectors) {
    it(v.id, () => expectConversion(() => leiriToIri(v.input), v));
  }
});
