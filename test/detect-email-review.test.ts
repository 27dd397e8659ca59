// Email addresses: what a review of the detector against RFC 5322/6068 and the peers found (each case failed before
// its fix): addresses joined by `|`, hyphens glued to a TLD (in addresses, names and hosts after a scheme), a clause
// of a script written without spaces glued before one, `|` at a table cell's edge, and the characters of a bare
// address that its mailto URI must encode. (Still open: an address glued to the one before by other atext,
// `a@x.org/b@y.org`, is not found: the floor check of email.ts.)
import { expect } from 'chai';
import { findLinks } from '../src/index.js';
import { itMarks, streamLinks } from './detect-support.js';

const brief = (text: string): [string, string][] => findLinks(text).map((l) => [l.text, l.uri]);

/** The same links through the scanner in pieces, at every split. */
function sameInPieces(text: string): void {
  const whole = findLinks(text).map((l) => [l.start, l.text, l.uri]);
  for (let k = 0; k <= text.length; k++) {
    expect(streamLinks([text.slice(0, k), text.slice(k)]).map((l) => [l.start, l.text, l.uri]), `${JSON.stringify(text)} at ${k}`).to.deep.equal(whole);
  }
}

describe('detect: email addresses (found in review)', () => {
  // an scp-style remote `user@host:path` is no mailbox (found in review: 32 links of en-mixed)
  itMarks([
    'git clone git@github.com:Perl/perl5.git perl and git@gitlab.com:/group/x.git',
    'export CVSROOT=:pserver:anoncvs@subversions.gnu.org:/cvsroot/w3 or scp foo username@remote.host:~/foo',
    'but ⸠john.doe@example.com⸡:1234/forum, ⸠a@example.com⸡: thanks, ⸠mailto:a@example.com⸡:x and ⸠b@example.com⸡:',
  ]);
  // a local part that closes before the `@` the quote or brace it opened is a template or a quoted user name, no
  // address (it was `a}@example.com`); around the whole address they are its delimiters
  itMarks([
    "GRANT ALL ON db.* TO 'root'@'localhost'; mail {user}@example.com or 'a'@example.com",
    "but '⸠john@example.com⸡' and {⸠a@example.com⸡} and ⸠o'neil'@example.com⸡ and '⸠o'neil@example.com⸡'",
    // a brace inside is a group's too: LaTeX's `\\thanks{…}` linked `hanks{bob@…`, `{alice,bob}@…` linked `bob}@…`
    '\\thanks{⸠bob@example.edu⸡} \\email{⸠carol@example.edu⸡} a{⸠b@x.com⸡ but {alice,bob}@cs.example.edu',
    '${user}@example.com #{user}@example.com {a}b@example.com (a template\'s placeholder)',
  ]);
  // a fediverse handle is no mailbox (found in review: `@alice@mastodon.social` linked mailto:alice@…)
  itMarks(['Follow me: @alice@mastodon.social and @bob@mstdn.jp さん but ⸠carol@example.org⸡ and (⸠dave@example.org⸡)']);
  // nor is an IRC user's mask whose ident starts with `~`; a `~` or `!` elsewhere in a local part, or after `mailto:`, stays
  itMarks([
    ':nick!~user@host.example.com PRIVMSG #chan :hi and * dave (~dave@pool-71-1.example.net) has joined #chan',
    '⸠a~b@example.com⸡ <⸠rtech!daveb@sun.com⸡> ⸠mailto:~x@example.com⸡ ⸠mailto:n!~u@example.com⸡',
  ]);
  // nor is the user an ident server reported, as Sendmail writes it in a Received field (RFC 1413)
  itMarks(['from ⸠relay.example.com⸡ (IDENT:zbCsu2qv/1BoVz7@dial.example.net [192.0.2.1]) ident:x@example.com myident:⸠y@example.com⸡']);
  // a key and its `=` (and an option's dashes) before an address are the key's; VERP and SRS addresses, several `=` or
  // a domain after the `=`, stay whole (found in review: `mailto:--author%3Dyou@…`)
  itMarks([
    'git rev-list --author=⸠you@example.com⸡ and EMAIL=⸠admin@example.com⸡ mail.from=⸠noreply@example.com⸡ F=⸠w@example.org⸡',
    '[email=⸠sales@example.com⸡]Sales[/email] ATTENDEE;CN=⸠bob@example.org⸡;RSVP=TRUE user=⸠jane.doe@example.com⸡',
    '⸠sentto-2242572-1-zzzz=spamassassin.taint.org@returns.groups.yahoo.com⸡ ⸠SRS0=HHH=TT=example.com=user@fwd.example.org⸡',
    '⸠1=x@example.com⸡ ⸠a+b=c@example.com⸡ ⸠mailto:k=v@example.com⸡',
    // a key with no value holds no local part: DKIM's and Authentication-Results' `i=` (it was `mailto:i%3D@…`)
    'DKIM-Signature: v=1; d=⸠example.com⸡; i=@example.com; s=sel; header.i=@example.com smtp.mailfrom=⸠bob@example.com⸡',
  ]);
  // without a key, a local part that starts with `-` or `+` is no address: a diff's line, an ident, the tail of one
  // a line break split (`123⏎-done@bugs.debian.org`, whose `done@` is another mailbox)
  itMarks(['-old@example.com\n+new@example.com\n(IDENT:+Bh7@jump.example.com) 123\n-done@bugs.debian.org ⸠a-b@example.com⸡ key=-x@example.com']);
  // after an explicit mailto: the local part is the author's, whole (it was `taro@example.jp`, another mailbox)
  itMarks([
    '⸠mailto:東京taro@example.jp⸡ and ⸠MAILTO:用户abc@example.cn⸡ but 请发送到⸠taro@example.jp⸡',
  ]);
  it('`|` ends a local part: a table cell\'s edge or a separator (the next addresses were lost)', () => {
    const chain = Array.from({ length: 50 }, (_, i) => `user${i}@example.com`).join('|');
    expect(findLinks(chain)).to.have.length(50);
    expect(brief('|Ann|ann@example.com| and a@x.org|b@y.org|c@z.org')).to.deep.equal([
      ['ann@example.com', 'mailto:ann@example.com'],
      ['a@x.org', 'mailto:a@x.org'],
      ['b@y.org', 'mailto:b@y.org'],
      ['c@z.org', 'mailto:c@z.org'],
    ]);
    sameInPieces('|Ann|ann@example.com|x|b@y.org|');
  });

  it('a long clause of Han or Thai glued before an ASCII address does not count against the 64 units of its local part', () => {
    const zh = '请将您的简历和求职信以及相关的证明材料一起发送到我们的邮箱';
    expect(brief(zh.repeat(3) + 'hr@example.com，谢谢。')).to.deep.equal([['hr@example.com', 'mailto:hr@example.com']]);
    expect(brief('ติดต่อเราได้ที่'.repeat(8) + 'support@example.co.th')).to.deep.equal([['support@example.co.th', 'mailto:support@example.co.th']]);
    // A local part of 65 units is still none, nor is one of 65 Han characters (RFC 6531 local parts stay whole).
    expect(findLinks('x'.repeat(65) + '@example.com')).to.deep.equal([]);
    expect(findLinks('用'.repeat(65) + '@example.com')).to.deep.equal([]);
    expect(brief('x'.repeat(64) + '@example.com')).to.have.length(1);
    sameInPieces('邮箱'.repeat(40) + 'hr@example.com');
  });

  it('an ASCII TLD glued to an emoji, a symbol or `・` ends there (it linked nothing), as before a letter of Han or Thai', () => {
    for (const after of ['😀', '👍', '™', '®', '★', '・', '·']) {
      expect(brief(`mail john@example.com${after} or see example.org${after} and https://example.net${after}`), after).to.deep.equal([
        ['john@example.com', 'mailto:john@example.com'],
        ['example.org', 'https://example.org'],
        ['https://example.net', 'https://example.net'],
      ]);
    }
    // A letter of a script written with spaces, a mark or a digit runs on: no TLD.
    for (const after of ['é', 'ж', '\u0301', '٣']) expect(findLinks(`see example.org${after} now`), after).to.deep.equal([]);
    // Inside a label an emoji stays a host character.
    expect(brief('see ☃.net and i❤.ws')).to.deep.equal([['☃.net', 'https://xn--n3h.net'], ['i❤.ws', 'https://xn--i-7iq.ws']]);
    sameInPieces('john@example.com😀 example.org★');
  });

  it('hyphens that end the label after an ASCII TLD are not the TLD\'s (no label ends in `-`); a label that goes on is no TLD', () => {
    expect(brief('Trade Links - walter@profits2you.com------------------\nsee example.org--- ok')).to.deep.equal([
      ['walter@profits2you.com', 'mailto:walter@profits2you.com'],
      ['example.org', 'https://example.org'],
    ]);
    for (const text of ['user@example.com-or call', 'example.com-based', 'see example.co-op ok']) expect(findLinks(text), text).to.deep.equal([]);
    sameInPieces('a@example.com---- and example.org--');
  });

  it('after a scheme too: hyphens that end the host after an ASCII TLD end the link (nothing was linked)', () => {
    expect(brief('see https://example.com----- now, (https://www.example.org---) or https://例え.jp--/x')).to.deep.equal([
      ['https://example.com', 'https://example.com'],
      ['https://www.example.org', 'https://www.example.org'],
      ['https://例え.jp', 'https://xn--r8jz45g.jp'],
    ]);
    // A host taken as written after a scheme keeps a label that goes on; a last label that is no TLD is no host.
    expect(brief('https://example.com-based and https://intranet-- and https://example.co-op--')).to.deep.equal([
      ['https://example.com-based', 'https://example.com-based'],
    ]);
    sameInPieces('x https://example.com---- and https://a.example.org--');
  });

  it('a `\'` after a key\'s `=` opens the address, as one at its start does (the key was taken into the local part)', () => {
    expect(brief("setup(author_email='tarek@example.org', maintainer_email='a.b@example.net')")).to.deep.equal([
      ['tarek@example.org', 'mailto:tarek@example.org'],
      ['a.b@example.net', 'mailto:a.b@example.net'],
    ]);
    // An apostrophe elsewhere is the name's, and `=` without one stays atext (but for a key's: detect-email-review).
    expect(brief("o'brien@example.com and 'o'neil@example.com' and a=b=c@example.com").map(([t]) => t)).to.deep.equal([
      "o'brien@example.com",
      "o'neil@example.com",
      'a=b=c@example.com',
    ]);
    // …and the key does not count against the 64 units of the local part (found in review)
    expect(brief("spring_mail_properties_notification_sender_default_address='ops.team@example.org'")).to.deep.equal([
      ['ops.team@example.org', 'mailto:ops.team@example.org'],
    ]);
    sameInPieces("x author_email='tarek@example.org' y");
  });

  it('after an `@` a `。` is the domain\'s host dot, not a sentence stop (the address was not linked)', () => {
    expect(brief('mailto:john@例え。jp and john@例え。jp')).to.deep.equal([
      ['mailto:john@例え。jp', 'mailto:john@xn--r8jz45g.jp'],
      ['john@例え。jp', 'mailto:john@xn--r8jz45g.jp'],
    ]);
    // Without the `@` it still ends a sentence (`man`, `Windows` are TLDs).
    expect(findLinks('にも影響を与えます。man')).to.deep.equal([]);
  });

  it('a mailto: list written with `@` is one link with its hfields (RFC 6068 §2 `to`; it was two links, the hfields lost)', () => {
    expect(brief('URI.parse("mailto:alpha@example.com,bravo@example.org?subject=SUBSCRIBE&body=Sign%20me%20up!")')).to.deep.equal([
      ['mailto:alpha@example.com,bravo@example.org?subject=SUBSCRIBE&body=Sign%20me%20up', 'mailto:alpha@example.com,bravo@example.org?subject=SUBSCRIBE&body=Sign%20me%20up'],
    ]);
    expect(brief('<mailto:a@example.com,b@example.net,c@example.org>')).to.deep.equal([
      ['mailto:a@example.com,b@example.net,c@example.org', 'mailto:a@example.com,b@example.net,c@example.org'],
    ]);
    // Not a list: a space after the comma, no second address, or one that runs on into another `@`.
    expect(brief('mailto:a@example.com, b@example.org')).to.deep.equal([
      ['mailto:a@example.com', 'mailto:a@example.com'],
      ['b@example.org', 'mailto:b@example.org'],
    ]);
    expect(brief('mailto:a@example.com,b@c and mailto:a@b.com,c@d.com@e.com')).to.deep.equal([
      ['mailto:a@example.com', 'mailto:a@example.com'],
      ['mailto:a@b.com', 'mailto:a@b.com'],
      ['c@d.com', 'mailto:c@d.com'],
    ]);
    sameInPieces('see mailto:a@example.com,b@example.org?subject=x&body=y now');
  });

  it('the uri of a bare address encodes `% & = / ? #` of its local part (RFC 6068 §2 item 1): `%` is a character, not an escape', () => {
    expect(brief('Delivered-To: fallingrock.net%david@fallingrock.net')).to.deep.equal([
      ['fallingrock.net%david@fallingrock.net', 'mailto:fallingrock.net%25david@fallingrock.net'],
    ]);
    const [l] = findLinks('john%41lice@example.com');
    expect([l!.uri, l!.iri]).to.deep.equal(['mailto:john%2541lice@example.com', 'mailto:john%2541lice@example.com']);
    expect(brief('a&b=c@example.com a%b@example.com')).to.deep.equal([
      ['a&b=c@example.com', 'mailto:a%26b%3Dc@example.com'],
      ['a%b@example.com', 'mailto:a%25b@example.com'],
    ]);
    // Written as a mailto URI, the escapes are the author's.
    expect(findLinks('mailto:a%41b@example.com')[0]!.uri).to.equal('mailto:a%41b@example.com');
  });
});
