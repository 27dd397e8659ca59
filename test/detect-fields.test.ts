// Identifiers in the header fields of a message pasted, quoted or forwarded as text (src/detect/fields.ts): a message
// identifier has an address's syntax and a list identifier a host name's, but they name a message and a mailing list.
// Each case linked before its fix.
import { expect } from 'chai';
import { findLinks } from '../src/index.js';
import { detectMarked, scanWhole, streamLinks, unmark } from './detect-support.js';

const brief = (text: string): [string, string][] => findLinks(text).map((l) => [l.text, l.uri]);

/** The same links through the scanner in pieces (exactly its declared left context), at every split. */
function sameInPieces(text: string): void {
  const whole = findLinks(text).map((l) => [l.start, l.text, l.uri]);
  for (let k = 0; k <= text.length; k++) {
    expect(streamLinks([text.slice(0, k), text.slice(k)]).map((l) => [l.start, l.text, l.uri]), `${JSON.stringify(text)} at ${k}`).to.deep.equal(whole);
  }
}

/**
 * itMarks for header fields, which start a line: each case bare, between newlines, after CRLF, and quoted (`> ` before
 * its first line), then split at every position through the scanner as the stream drives it. (itMarks' sentence
 * context would put a field's name in prose, where it is none.)
 */
function itFieldMarks(cases: readonly string[]): void {
  const contexts: [string, string, string][] = [
    ['bare', '', ''],
    ['between newlines', 'x\n', '\nx'],
    ['after CRLF', 'x\r\n', '\r\nx'],
    ['quoted', 'x\n> ', '\nx'],
  ];
  for (const marked of cases) {
    for (const [name, before, after] of contexts) {
      it(`${JSON.stringify(marked)} (${name})`, () => {
        const whole = before + marked + after;
        expect(detectMarked(whole)).to.equal(whole);
        const text = unmark(whole);
        const expected = JSON.stringify(scanWhole(text));
        for (let i = 0; i <= text.length; i++) {
          expect(JSON.stringify(streamLinks([text.slice(0, i), text.slice(i)])), `split at ${i}`).to.equal(expected);
        }
      });
    }
  }
}

describe('detect: message identifiers in Message-ID, In-Reply-To, References and their kin (RFC 5322 §3.6.4)', () => {
  // a message identifier (RFC 5322 §3.6.4) in the fields that list them is no mailbox, folded References included
  // (found in review: 8,790 linked `mailto:` in the mail corpus); the mailboxes around them stay
  itFieldMarks([
    'Message-Id: <13258.1030015585@munnari.OZ.AU>\nIn-Reply-To: <3D64E94E.8060301@ee.ed.ac.uk>; from ⸠ann@example.org⸡ on Tue',
    'References: <a@b.example.com> <c@d.example.org>,\n\t<e@f.example.net>\r\n <g@h.example.net>\nFrom: Ann <⸠ann@example.com⸡>',
    '> Message-ID:  <x@y.example.com>\nContent-ID: <part1.0203@example.com>\nSupersedes: <z@news.example.net>',
    'as Message-ID:<x@y.example.com> said, (Message-ID: <z@example.com>); mail <⸠x@y.example.com⸡> or References <⸠r@example.com⸡>',
    'see references: <⸠john@acme.com⸡> and _Message-ID: <⸠a@example.com⸡> xMessage-ID: <⸠b@example.com⸡>',
    // not a field that lists identifiers, not after a line that is not folded, not without its `<…>`
    'Maintainers:\n    <⸠john@x.com⸡>\n    <⸠jane@y.com⸡>\nX-Original-Message-ID: <⸠q@example.com⸡>\nReferences:\n<⸠a@b.example.com⸡>',
    'Message-ID: ⸠a@b.example.com⸡ and Message-ID: <⸠a@b.example.com⸡.> and Reply-To: <⸠list@example.org⸡>',
  ]);
  it('a message identifier is found within 512 units and 16 identifiers of its field\'s name, also in pieces', () => {
    const ids = (n: number): string => Array.from({ length: n }, (_, i) => `<id${i}@example.com>`).join('\n ');
    expect(findLinks(`References: ${ids(17)}`)).to.have.length(0);
    expect(brief(`References: ${ids(18)}`)).to.deep.equal([['id17@example.com', 'mailto:id17@example.com']]);
    const long = `<${'x'.repeat(60)}@example.com>`;
    const far = `References: ${Array(7).fill(long).join(' ')} <far@example.com>`;
    expect(far.indexOf('<far@') - far.indexOf(':')).to.be.above(500);
    expect(brief(far)).to.deep.equal([['far@example.com', 'mailto:far@example.com']]);
    sameInPieces(`Subject: x\nReferences: ${ids(3)}\nFrom: <a@example.org>\n`);
    // the field's name some 400 units back, with exactly the scanner's declared left context
    const near = `References: ${Array(5).fill(long).join('\n ')}\n <z@example.com> <y@example.com>`;
    expect(findLinks(near)).to.have.length(0);
    sameInPieces(near);
  });
  // a local part the address rules cut (a key's `=`, a `|`) is still the identifier's; an HTML tag is no item before
  // it, and a heading in prose is no field (found in review)
  itFieldMarks([
    'Message-ID: <CAHk-=wgfXyz+abc@mail.gmail.com>\nMessage-ID: <a|b@example.com> <Mail2L:2122738:fork@example.com>',
    '<b>References:</b> <⸠john@acme.com⸡> Message-ID:<br><⸠ann@example.com⸡>\nMy references: <⸠john.smith@acme.com⸡>',
  ]);
  // an old In-Reply-To field's phrase: an identifier after a quoted date; a mailbox after a name stays (found in
  // review: 109 links of the mail corpus)
  itFieldMarks([
    'In-Reply-To: Your message of\n    "Thu, 22 Aug 2002 18:42:33 BST."\n    <Pine.LNX.4.44.0208221841070@dunlop.example.ie>',
    'In-Reply-To: Message from UW Robot\n    <⸠robot@docserver.example.edu⸡> of\n    "Wed, 21 Aug 2002 16:20:17 PDT."\n    <20020821.g7L@docserver.example.edu>',
    'In-Reply-To: Message from ⸠fork-request@xent.com⸡ of "Wed, 21 Aug 2002 11:30:03 PDT." <2002082118.25673.Mailman@lair.xent.com>',
    'Subject: "hi" <⸠ann@example.com⸡>\nTo: "Ann: Smith" <⸠ann@example.com⸡>',
    // a quoted display name is no date (found when the rule took any quoted string: 24 mailboxes of the mail corpus)
    'In-Reply-To: Message from\n    "James Tauber"\n    <⸠jtauber@jtauber.com⸡> of\n    "Thu, 29 Aug 2002 10:58:35 GMT."\n    <id1@x.example.com>',
  ]);
  // announced by a word: a Received field's `id <…>` (RFC 5321 §4.4), a reply's `In message <…>` (found in review:
  // 209 links of the mail corpus); not another word, nor `id` glued to one
  itFieldMarks([
    'Received: from ⸠a.example.com⸡ by ⸠b.example.org⸡ with ESMTP id <T5cde81f6@mailgateway.example.com>; Tue',
    'Received: from x\n\tby ⸠y.example.com⸡ with SMTP id\n\t<20020921012620.ZEUU464@rwcrmhc52.example.net> for <⸠fork@example.com⸡>',
    'In message <200209111917.PAA02912@example.com>, Ann writes:\n> In article <E17v8Mw-00@pmenage.example.com> you write:',
    'mail <⸠john@example.com⸡>, valid <⸠x@example.com⸡>, Kid <⸠y@example.com⸡>, the message <⸠z@example.com⸡>',
  ]);
  // a name in a local part before an address literal (RFC 5321 §4.1.3) is not linked (it was, before `@[`)
  itFieldMarks(['id <20021004032325.JUOB22381.sccrmhc03.example.net@[192.0.2.1]> <x.example.com@[IPv6:::1]> ⸠example.com⸡@[a]']);
});

describe('detect: header fields read back from a `<`, with exactly the scanner\'s declared left context', () => {
  // (found in review: where the 512 units read back ended inside a field's name, a stream that had dropped the text
  // before it read the rest as the name, and linked otherwise than the whole text)
  it('a field\'s name cut by the limit is not known, split at every position', () => {
    for (let n = 496; n <= 512; n++) {
      for (const text of [
        `XList-Id: w${' '.repeat(n)}<fork.xent.com>`,
        `X-Original-Message-ID: ${' '.repeat(n - 10)}<x@example.com>`,
        `Resent-Message-ID: ${' '.repeat(n - 8)}<CAHk-=wgxyz@mail.example.com>`,
      ]) {
        sameInPieces(text);
      }
    }
  });
});

describe('detect: a list identifier in List-Id (RFC 2919 §2)', () => {
  // the name between `<` and `>` names the list, no host (found in review: some 3,050 links of the mail corpus)
  itFieldMarks([
    'List-Id: Discussion list for EXMH developers <exmh-workers.spamassassin.taint.org>\nList-Post: <⸠mailto:fork@xent.com⸡>',
    '> List-Id: <fork.xent.com>\nList-Id: Friends of\n Rohit Khare <fork.xent.com>',
    // a URL in the phrase stays, and so does a name in `<…>` elsewhere, one with a path, or one after a line not folded
    'List-Id: Discussion of sitescooper - see ⸠http://sitescooper.org/⸡',
    'List-Id: see ⸠http://sitescooper.org/⸡ <sitescooper-talk.lists.example.net>',
    'X-List: <⸠fork.xent.com⸡> List-Archive: <⸠xent.com⸡> List-Id: <⸠x.example.org/a⸡> <⸠www.example.org⸡>',
    'List-Id: x\n<⸠fork.xent.com⸡>',
    'List-Id: "Foo: bar" <foo.example.org>',
  ]);
  it('is found within 512 units of the field\'s name, also in pieces', () => {
    const phrase = 'word '.repeat(90);
    expect(findLinks(`List-Id: ${phrase}<fork.xent.com>`)).to.have.length(0);
    expect(brief(`List-Id: ${phrase}${'word '.repeat(20)}<fork.xent.com>`)).to.deep.equal([['fork.xent.com', 'https://fork.xent.com']]);
    sameInPieces(`Subject: x\nList-Id: ${phrase}<fork.xent.com>\nTo: <a.example.org>`);
  });
});
