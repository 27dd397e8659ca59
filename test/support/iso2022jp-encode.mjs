// An ISO-2022-JP encoder for the test fixtures (iconv-lite has none), shared by test/fixtures/make-fixtures.mjs
// and test/fixtures-mail/make-fixtures.mjs. RFC 1468: ASCII after ESC ( B, JIS X 0208 after ESC $ B as 7-bit
// pairs. JIS X 0208 is EUC-JP's two-byte set with the high bit cleared, so iconv-lite's EUC-JP encoder supplies
// the pairs.
import iconv from 'iconv-lite';

export function iso2022jp(text) {
  const parts = [];
  let jis = false;
  for (const ch of text) {
    const ascii = ch.charCodeAt(0) < 0x80;
    if (ascii === jis) {
      parts.push(Buffer.from(ascii ? '\x1b(B' : '\x1b$B', 'latin1'));
      jis = !ascii;
    }
    parts.push(ascii ? Buffer.from(ch, 'latin1') : Buffer.from(iconv.encode(ch, 'euc-jp').map((b) => b & 0x7f)));
  }
  if (jis) parts.push(Buffer.from('\x1b(B', 'latin1'));
  return Buffer.concat(parts);
}
