// src/markdown/convert.ts remembers the conversion of a destination (a performance memo): a remembered Link must be
// the Link a full conversion gives, whatever the destination, and a new object each time.
import { expect } from 'chai';
import { clearDestinationMemo, destinationLink } from '../src/markdown/convert.js';

const DESTINATIONS: [string, boolean][] = [
  ['https://example.com/a', false],
  ['HTTPS://Example.COM/%7e?x#y', false],
  ['https://例え.テスト/パス?q=ü#f', false],
  ['https://xn--r8jz45g.jp/', false],
  ['https://bank.example@evil.example/', false],
  ['https://a.example/\u202eb', false],
  ['http://[::1]:80/', false],
  ['https://pаypal.com/', false],
  ['https://%zz.example/%', false],
  ['mailto:Ü@例え.jp?subject=x', false],
  ['relative/path?q=ü', false],
  ['user@example.com', true],
  ['ユーザー@例え.jp', true],
];

type DestinationLink = ReturnType<typeof destinationLink>;

/** The Link of the destination written at place `k` (0 or 1) of a source that holds it twice. */
function at(k: number, destination: string, email: boolean, charset: string | undefined): DestinationLink {
  const source = `<${destination}> and <${destination}>`;
  const start = k === 0 ? 1 : destination.length + 8;
  return destinationLink(source, start, start + destination.length, 100, destination, email, charset);
}

/** The Links of both places, converted in turn. */
function twice(destination: string, email: boolean, charset: string | undefined): [DestinationLink, DestinationLink] {
  return [at(0, destination, email, charset), at(1, destination, email, charset)];
}

describe('Markdown destinations: a remembered conversion', () => {
  for (const charset of [undefined, 'iso-8859-1']) {
    it(`gives the Link a full conversion gives (document charset ${String(charset)})`, () => {
      for (const [destination, email] of DESTINATIONS) {
        clearDestinationMemo();
        const [first, again] = twice(destination, email, charset);
        clearDestinationMemo();
        const full = at(1, destination, email, charset);
        expect(again, destination).to.deep.equal(full);
        expect(again.start - first.start, destination).to.equal(destination.length + 7);
        expect({ ...again, start: first.start, end: first.end }, destination).to.deep.equal(first);
        // Each Link owns its diagnostics.
        expect(again.diagnostics).to.not.equal(first.diagnostics);
      }
    });
  }

  it('is not used under another document charset', () => {
    clearDestinationMemo();
    const [utf8] = twice('https://a.example/?q=ü', false, undefined);
    const [latin1] = twice('https://a.example/?q=ü', false, 'iso-8859-1');
    clearDestinationMemo();
    const full = at(0, 'https://a.example/?q=ü', false, 'iso-8859-1');
    expect(latin1).to.deep.equal(full);
    expect(latin1.uri).to.not.equal(utf8.uri);
  });

  it('is not changed by a change to a Link it gave', () => {
    clearDestinationMemo();
    const [first] = twice('https://bank.example@evil.example/', false, undefined);
    const expected = [...first.diagnostics];
    first.diagnostics.push('link-too-long');
    const [, again] = twice('https://bank.example@evil.example/', false, undefined);
    expect(again.diagnostics).to.deep.equal(expected);
    // An email autolink and a destination of the same text are remembered apart.
    clearDestinationMemo();
    const [asEmail] = twice('user@example.com', true, undefined);
    const [asPath] = twice('user@example.com', false, undefined);
    expect(asEmail.uri).to.equal('mailto:user@example.com');
    expect(asPath.uri).to.not.equal(asEmail.uri);
  });
});
