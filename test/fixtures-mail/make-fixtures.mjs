// Generates the sample messages of test/mail.test.ts (run from the repository root:
// `node test/fixtures-mail/make-fixtures.mjs`). The outputs are committed; this script is how they were made.
// Every message is written for irilink's tests (no outside text); legacy charsets are encoded with iconv-lite.
import { writeFileSync } from 'node:fs';
import iconv from 'iconv-lite';
import { iso2022jp } from '../support/iso2022jp-encode.mjs';

const crlf = (lines) => lines.join('\r\n');
const write = (name, data) => writeFileSync(new URL(`./${name}`, import.meta.url), data);

// RFC 2047 B encoded word of `text` in `charset`.
const bword = (bytes, charset) => `=?${charset}?B?${Buffer.from(bytes).toString('base64')}?=`;

// 1. ISO-2022-JP: the usual charset of Japanese mail. Line by line so that every line ends in ASCII.
const jaBody = [
  '田中様',
  '',
  '詳細は「https://ja.wikipedia.org/wiki/東京」をご覧ください。',
  '会場の地図：http://例え.テスト/地図?階=3',
  '',
];
write(
  'iso2022jp.eml',
  Buffer.concat([
    Buffer.from(
      crlf([
        'From: Aiko <aiko@example.jp>',
        `Subject: ${bword(iso2022jp('会議の資料'), 'ISO-2022-JP')}`,
        'Message-ID: <ja-1@example.jp>',
        'Date: Sat, 21 Nov 2026 10:00:00 +0900',
        'MIME-Version: 1.0',
        'Content-Type: text/plain; charset=ISO-2022-JP',
        'Content-Transfer-Encoding: 7bit',
        '',
        '',
      ]),
      'latin1',
    ),
    Buffer.concat(jaBody.map((l) => Buffer.concat([iso2022jp(l), Buffer.from('\r\n')]))),
  ]),
);

// 2. Shift_JIS, 8bit: the query of an http link is percent-encoded in the document charset (3987bis §3.5).
write(
  'shift_jis.eml',
  Buffer.concat([
    Buffer.from(
      crlf([
        'From: Ken <ken@example.jp>',
        `Subject: ${bword(iconv.encode('検索の例', 'shift_jis'), 'Shift_JIS')}`,
        'Message-ID: <sjis-1@example.jp>',
        'MIME-Version: 1.0',
        'Content-Type: text/plain; charset=Shift_JIS',
        'Content-Transfer-Encoding: 8bit',
        '',
        '',
      ]),
      'latin1',
    ),
    iconv.encode(crlf(['検索：http://example.jp/検索?q=東京&n=1', '連絡先（aiko@example.jp）まで。', '']), 'shift_jis'),
  ]),
);

// 3. format=flowed, DelSp=yes (RFC 3676 §4.2): a long IRI split by a soft break (space + CRLF, the space
// deleted), a quoted flowed paragraph (§4.5), space-stuffing (§4.4) and a signature separator (§4.3).
write(
  'flowed.eml',
  crlf([
    'From: Ana <ana@example.org>',
    'Subject: flowed',
    'Message-ID: <flowed-1@example.org>',
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=UTF-8; format=flowed; delsp=yes',
    'Content-Transfer-Encoding: 8bit',
    '',
    'The article is at  ', // DelSp=yes: the sender doubles the space it breaks after
    'https://de.wikipedia.org/wiki/Gr%C3%B6%C3%9Fte_St%C3%A4dte_der_Welt_nach_Einwoh ',
    'nerzahl_und_Fl%C3%A4che and here.',
    '> Did you see https://例え.jp/とても/長い/パス/の/例/です/ ',
    '> から/続き? It was long.',
    ' From the team, see https://example.org/a',
    '-- ',
    'Ana',
    '',
  ]),
);

// 4. quoted-printable, windows-1252: a soft line break (`=` CRLF, RFC 2045 §6.7 rule 5) inside a URL, `=3D`,
// and an 8-bit character in the path and the query.
write(
  'quoted-printable.eml',
  crlf([
    'From: Zoe <zoe@example.com>',
    'Subject: =?windows-1252?Q?caf=E9?=',
    'Message-ID: <qp-1@example.com>',
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=windows-1252',
    'Content-Transfer-Encoding: quoted-printable',
    '',
    'Menu: https://example.com/caf=E9/menu?plat=3Dcr=E8me&x=3D1 (today)',
    'Long: https://example.com/a/very/long/path/that/the/mailer/broke/with/a/so=',
    'ft/line/break.html.',
    '',
  ]),
);

// 5. multipart/mixed > multipart/alternative (text/plain + text/html) + a PDF attachment + a text attachment.
// Only the plain alternative is scanned; attachments never are.
write(
  'alternative.eml',
  crlf([
    'From: Bo <bo@example.net>',
    'Subject: alternative',
    'Message-ID: <alt-1@example.net>',
    'MIME-Version: 1.0',
    'Content-Type: multipart/mixed; boundary="outer"',
    '',
    'This is a multi-part message in MIME format.',
    '--outer',
    'Content-Type: multipart/alternative; boundary="inner"',
    '',
    '--inner',
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: base64',
    '',
    Buffer.from('Plain: see https://example.net/ünï and www.example.net.\r\n').toString('base64'),
    '--inner',
    'Content-Type: text/html; charset=utf-8',
    '',
    '<p>Plain: see <a href="https://example.net/%C3%BCn%C3%AF">https://example.net/ünï</a></p>',
    '--inner--',
    '--outer',
    'Content-Type: application/pdf; name="a.pdf"',
    'Content-Disposition: attachment; filename="a.pdf"',
    'Content-Transfer-Encoding: base64',
    '',
    Buffer.from('%PDF-1.4 https://attachment.example/never').toString('base64'),
    '--outer',
    'Content-Type: text/plain; name="notes.txt"',
    'Content-Disposition: attachment; filename="notes.txt"',
    '',
    'https://attachment.example/not-scanned',
    '--outer',
    'Content-Type: text/html; charset=utf-8',
    '',
    '<p>Only HTML: <a href="https://html-only.example/x">here</a></p>',
    '--outer--',
    '',
  ]),
);

// 6. A reply with quoted lines: an RFC 3986 Appendix C link wrapped across `> ` lines, nested quotes.
write(
  'quoted.eml',
  crlf([
    'From: Cy <cy@example.org>',
    'Subject: Re: links',
    'Message-ID: <quoted-1@example.org>',
    'In-Reply-To: <orig@example.org>',
    'Content-Type: text/plain; charset=utf-8',
    '',
    'Cy wrote:',
    '> The spec is at <https://www.rfc-editor.org/rfc/rfc3986.html#appendix-',
    '> C> and the IRI one at',
    '> > <URL:https://例え.jp/とても長い/',
    '> >   パス/です> (wrapped twice).',
    '> Bare: https://example.org/x.',
    'Thanks.',
    '',
  ]),
);

// 7. An mbox of three messages (RFC 4155), mboxrd-quoted: a body line `From here…` was written `>From here…`,
// and a line that was `>From` in the message is `>>From` in the file.
write(
  'three.mbox',
  [
    'From alice@example.org Sat Nov 21 10:00:00 2026',
    'From: alice@example.org',
    'Subject: one',
    'Message-ID: <m1@example.org>',
    '',
    'First: https://example.org/1',
    '>From here on, see http://例え.jp/二',
    '',
    'From bob@example.org Sat Nov 21 11:00:00 2026',
    'From: bob@example.org',
    'Subject: two',
    'Message-ID: <m2@example.org>',
    '',
    '>>From the quote: mailto:bob@example.org',
    '',
    'From carol@example.org Sat Nov 21 12:00:00 2026',
    'From: carol@example.org',
    'Subject: three',
    'Message-ID: <m3@example.org>',
    '',
    'No links here.',
    '',
  ].join('\n'),
);
