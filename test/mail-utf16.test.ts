// Mail parts declared UTF-16 or UTF-32: RFC 2781 §4.3 (charset=utf-16: a BOM, else big-endian; likewise utf-32,
// Unicode §3.10 D101), and the labels the WHATWG Encoding Standard (§4.2) gives UTF-16LE/BE, which iconv-lite mostly
// does not know (they fell back to the UTF-8 / windows-1252 guess), a BOM first (WHATWG Encoding §6 "decode").
import { expect } from 'chai';
import { linkifyMessage, type MailPart } from '../src/mail/index.js';

const text = '日本語の文章です see http://x.jp/パス\n';
const utf16le = (bom: boolean): Buffer => Buffer.concat([Buffer.from(bom ? [0xff, 0xfe] : []), Buffer.from(text, 'utf16le')]);
const utf16be = (bom: boolean): Buffer => Buffer.concat([Buffer.from(bom ? [0xfe, 0xff] : []), Buffer.from(text, 'utf16le').swap16()]);
function utf32(bigEndian: boolean, bom: boolean): Buffer {
  const chars = [...(bom ? ['\uFEFF'] : []), ...text];
  const out = Buffer.alloc(chars.length * 4);
  chars.forEach((c, k) => (bigEndian ? out.writeUInt32BE(c.codePointAt(0)!, k * 4) : out.writeUInt32LE(c.codePointAt(0)!, k * 4)));
  return out;
}

/** A message of one text/plain part declaring `charset`, its body `body` in base64. */
async function part(charset: string, body: Buffer): Promise<MailPart> {
  const head = `Subject: t\r\nContent-Type: text/plain; charset=${charset}\r\nContent-Transfer-Encoding: base64\r\n\r\n`;
  const message = await linkifyMessage(Buffer.from(head + body.toString('base64').replace(/.{76}/g, '$&\r\n') + '\r\n'));
  return message.parts[0]!;
}

/** The part's text with ⸠ ⸡ around each link, and the charset it was read in. */
const marked = (p: MailPart): [string, string] => [p.chunks.map((c) => (c.type === 'link' ? `⸠${c.text}⸡` : c.text)).join(''), p.charset];
const linked = '日本語の文章です see ⸠http://x.jp/パス⸡\n';

describe('mail: charset=utf-16 is big-endian without a BOM (RFC 2781 §4.3)', () => {
  it('big-endian, no BOM, kanji first: read big-endian', async () => {
    expect(marked(await part('utf-16', utf16be(false)))).to.deep.equal([linked, 'utf-16be']);
  });

  it('a BOM decides: FE FF big-endian, FF FE little-endian (the BOM is no text)', async () => {
    expect(marked(await part('UTF-16', utf16be(true)))).to.deep.equal([linked, 'utf-16be']);
    expect(marked(await part('"utf-16"', utf16le(true)))).to.deep.equal([linked, 'utf-16le']);
  });

  it('little-endian without a BOM is read big-endian, as the RFC says: no link', async () => {
    const p = await part('utf-16', utf16le(false));
    expect([p.charset, p.links.length]).to.deep.equal(['utf-16be', 0]);
  });

  it('charset=utf-32 likewise (Unicode §3.10 D101): big-endian without a BOM, a BOM decides', async () => {
    expect(marked(await part('utf-32', utf32(true, false)))).to.deep.equal([linked, 'utf-32be']);
    expect(marked(await part('utf-32', utf32(false, true)))).to.deep.equal([linked, 'utf-32le']);
  });
});

describe('mail: the WHATWG Encoding labels of UTF-16LE and UTF-16BE (§4.2)', () => {
  for (const label of ['unicode', 'csunicode', 'iso-10646-ucs-2', 'ucs-2', 'unicodefeff', 'Unicode']) {
    it(`${label}: UTF-16LE`, async () => {
      expect(marked(await part(label, utf16le(false)))).to.deep.equal([linked, 'utf-16le']);
    });
  }

  it('unicodefffe: UTF-16BE', async () => {
    expect(marked(await part('unicodeFFFE', utf16be(false)))).to.deep.equal([linked, 'utf-16be']);
  });

  it('a BOM comes before the label (WHATWG Encoding §6 "decode"): unicode with FE FF is big-endian', async () => {
    expect(marked(await part('unicode', utf16be(true)))).to.deep.equal([linked, 'utf-16be']);
    expect(marked(await part('unicodefffe', utf16le(true)))).to.deep.equal([linked, 'utf-16le']);
  });

  it('the declared charset is kept as declared', async () => {
    expect((await part('csUnicode', utf16le(false))).declaredCharset).to.equal('csUnicode');
  });
});
