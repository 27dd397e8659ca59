import { expect } from 'chai';
import fc from 'fast-check';
import { toAnsi, type AnsiOptions } from '../src/render/index.js';
import type { Chunk } from '../src/types.js';
import { chunksOf, link } from './render-support.js';

const ESC = '\x1b';
const ST = ESC + '\\';
const open = (uri: string, st = ST): string => `${ESC}]8;;${uri}${st}`;
const close = (st = ST): string => `${ESC}]8;;${st}`;

describe('render: toAnsi OSC 8 framing', () => {
  it('wraps each clickable link in OSC 8 with ST = ESC \\', () => {
    const chunks = chunksOf('see ⸠https://例え.jp/パス⸡。', [{ uri: 'https://xn--r8jz45g.jp/%E3%83%91%E3%82%B9' }]);
    expect(toAnsi(chunks)).to.equal(`see ${open('https://xn--r8jz45g.jp/%E3%83%91%E3%82%B9')}https://例え.jp/パス${close()}。`);
  });

  it('terminator: "bel" ends both sequences with BEL', () => {
    expect(toAnsi(chunksOf('⸠https://a.example/⸡'), { terminator: 'bel' })).to.equal(
      `${open('https://a.example/', '\x07')}https://a.example/${close('\x07')}`,
    );
  });

  it('display "iri", underline and colour', () => {
    const chunks = chunksOf('⸠xn--r8jz45g.jp⸡', [{ uri: 'https://xn--r8jz45g.jp', iri: 'https://例え.jp', scheme: 'https', schemeInferred: true }]);
    expect(toAnsi(chunks, { display: 'iri', underline: true, color: 33 })).to.equal(
      `${open('https://xn--r8jz45g.jp')}${ESC}[4m${ESC}[38;5;33m例え.jp${ESC}[39m${ESC}[24m${close()}`,
    );
  });

  it('links that may not be clickable are plain text', () => {
    const chunks = chunksOf('⸠https://bank.example@evil.example/⸡ ⸠javascript:alert(1)⸡ ⸠https://a.example/\x07⸡', [{ diagnostics: ['userinfo'] }]);
    expect(toAnsi(chunks)).to.equal('https://bank.example@evil.example/ javascript:alert(1) https://a.example/␇');
  });

  it('links: true writes the links alone, one per line', () => {
    expect(toAnsi(chunksOf('a ⸠https://a.example/⸡ b ⸠ftp://b.example/⸡'), { links: true })).to.equal(
      `${open('https://a.example/')}https://a.example/${close()}\n${open('ftp://b.example/')}ftp://b.example/${close()}\n`,
    );
  });

  it('rejects bad options with a TypeError', () => {
    expect(() => toAnsi([], { terminator: 'esc' } as unknown as AnsiOptions)).to.throw(TypeError, /terminator/);
    expect(() => toAnsi([], { color: 256 })).to.throw(TypeError, /color/);
    expect(() => toAnsi([], { color: 1.5 })).to.throw(TypeError, /color/);
    expect(() => toAnsi([], { sgr: 'show' } as unknown as AnsiOptions)).to.throw(TypeError, /sgr/);
  });
});

describe('render: toAnsi control characters in the text', () => {
  it('keeps SGR colour sequences by default', () => {
    expect(toAnsi(chunksOf(`${ESC}[1;31mERROR${ESC}[0m ${ESC}[38:2::255:0:0mx${ESC}[m`))).to.equal(
      `${ESC}[1;31mERROR${ESC}[0m ${ESC}[38:2::255:0:0mx${ESC}[m`,
    );
  });

  it('sgr: "strip" removes them whole; sgr: "control" shows their ESC', () => {
    const chunks = chunksOf(`${ESC}[31mred${ESC}[0m`);
    expect(toAnsi(chunks, { sgr: 'strip' })).to.equal('red');
    expect(toAnsi(chunks, { sgr: 'control' })).to.equal('␛[31mred␛[0m');
    expect(toAnsi(chunks, { sgr: 'control', controls: 'strip' })).to.equal('[31mred[0m');
  });

  it('every other escape sequence loses its ESC: OSC (title, hyperlink, clipboard), cursor moves, DCS', () => {
    const text = `a${ESC}]0;title\x07b${ESC}]8;;https://evil.example/${ESC}\\fake${ESC}]8;;${ESC}\\c${ESC}]52;c;aGk=\x07d${ESC}[2J${ESC}[1A${ESC}Pq${ESC}\\`;
    expect(toAnsi(chunksOf(text))).to.equal('a␛]0;title␇b␛]8;;https://evil.example/␛\\fake␛]8;;␛\\c␛]52;c;aGk=␇d␛[2J␛[1A␛Pq␛\\');
    expect(toAnsi(chunksOf(text), { controls: 'strip' })).to.equal('a]0;titleb]8;;https://evil.example/\\fake]8;;\\c]52;c;aGk=d[2J[1APq\\');
  });

  it('C0 controls become Control Pictures, DEL ␡, C1 U+FFFD; TAB, LF and CR LF stay, a lone CR is ␍', () => {
    expect(toAnsi(chunksOf('\0\x07\b\t\n\v\f\r\x1a\x7f\x85\x9b31m\x9d\r\n'))).to.equal('␀␇␈\t\n␋␌␍␚␡\uFFFD\uFFFD31m\uFFFD\r\n');
    expect(toAnsi(chunksOf('a\b\x9bb'), { controls: 'strip' })).to.equal('ab');
  });

  it('a sequence split across text chunks is read as one; an unfinished one is shown at the end', () => {
    const split: Chunk[] = [
      { type: 'text', text: `x${ESC}`, start: 0, end: 2 },
      { type: 'text', text: '[3', start: 2, end: 4 },
      { type: 'text', text: '1mred', start: 4, end: 9 },
      { type: 'text', text: `${ESC}[0`, start: 9, end: 12 },
    ];
    expect(toAnsi(split)).to.equal(`x${ESC}[31mred␛[0`);
  });

  it('a pending sequence does not run into a link', () => {
    const chunks: Chunk[] = [{ type: 'text', text: `${ESC}[1`, start: 0, end: 3 }, link('https://a.example/', 3)];
    expect(toAnsi(chunks)).to.equal(`␛[1${open('https://a.example/')}https://a.example/${close()}`);
  });

  it('an overlong SGR-looking sequence is not let through', () => {
    const long = `${ESC}[${'1;'.repeat(40)}m`;
    expect(toAnsi(chunksOf(long))).to.equal('␛' + long.slice(1));
  });

  it('property: no ESC, BEL or C1 from the text survives except whole SGR sequences; framing is exact', () => {
    const piece = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 5 }),
      fc.constantFrom(ESC, '[', ']', '\\', '\x07', '\x9b', '\x9d', ';', '8', '31', 'm', '\r', '\n'),
    );
    const str = fc.array(piece, { maxLength: 10 }).map((p) => p.join(''));
    fc.assert(
      fc.property(str, str, str, fc.constantFrom<AnsiOptions['sgr']>('keep', 'strip', 'control'), (before, shown, after, sgr) => {
        const text = shown || 'x';
        const uri = 'https://a.example/';
        const chunks: Chunk[] = [
          { type: 'text', text: before, start: 0, end: before.length },
          link(text, before.length, { uri }),
          { type: 'text', text: after, start: before.length + text.length, end: before.length + text.length + after.length },
        ];
        const out = toAnsi(chunks, { sgr });
        // Take out our own framing (exactly one hyperlink, since the uri is clean) and the kept SGR sequences.
        const framed = out.split(open(uri));
        expect(framed.length, JSON.stringify(out)).to.equal(2);
        const [head, rest] = framed as [string, string];
        const closeAt = rest.lastIndexOf(close());
        expect(closeAt).to.be.greaterThan(-1);
        let remaining = head + rest.slice(0, closeAt) + rest.slice(closeAt + close().length);
        if (sgr === 'keep') remaining = remaining.replace(/\x1b\[[0-9;:]*m/g, '');
        expect(remaining).to.not.match(/[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]/);
      }),
      { numRuns: 1000 },
    );
  });
});
