// DESIGN.md "Detection policy" P1–P8 and "Hosts", in the marker style of UTS #58's LinkDetectionTest.txt:
// ⸠…⸡ marks each expected link. Every case runs bare, in a sentence and between newlines.
import { expect } from 'chai';
import { findLinks } from '../src/detect/index.js';
import { formatUrl } from '../src/format/format-url.js';
import { linkifyMarkdown, toMarkdownSource } from '../src/markdown/index.js';
import { itMarks } from './detect-support.js';

describe('detect: P1 — bidi controls end a link (RFC 3987 §4.1)', () => {
  itMarks([
    'see ⸠https://example.com/abc⸡\u202Edef',
    'see ⸠https://example.com/a⸡\u200Fb',
    'see ⸠https://example.com/a⸡\u2066b\u2069',
    'see ⸠https://example.com/a⸡\u061Cb',
    'see ⸠https://example.com/a⸡\u200E',
    'invoice\u202E⸠gnp.com⸡',
    'see ⸠https://exa⸡\u202E⸠mple.com⸡ (a new domain after the control)',
  ]);
  it('carries the bidi-control diagnostic, also when the control comes first', () => {
    expect(findLinks('https://example.com/abc\u202Edef')[0]!.diagnostics).to.include('bidi-control');
    expect(findLinks('x\u202Egnp.com y')[0]!.diagnostics).to.include('bidi-control');
    expect(findLinks('https://example.com/abc def')[0]!.diagnostics).to.not.include('bidi-control');
  });
  it('keeps ZWJ and ZWNJ, which are not bidi controls', () => {
    expect(findLinks('https://fa.wikipedia.org/wiki/ویکی\u200Cپدیا')[0]!.text).to.equal('https://fa.wikipedia.org/wiki/ویکی\u200Cپدیا');
  });
});

describe('detect: P2 — schemes', () => {
  itMarks([
    '⸠http://example.com/a⸡ ⸠https://example.com/b⸡ ⸠HTTPS://EXAMPLE.COM/C⸡',
    '⸠ftp://example.com/pub/file.txt⸡ ⸠ftps://example.com/x⸡ ⸠sftp://example.com/x⸡',
    '⸠ssh://git@github.com/user/repo.git⸡ ⸠git://example.com/repo.git⸡',
    '⸠file:///etc/hosts⸡ ⸠file://server/share/doc.txt⸡',
    // a drive letter after `file://` (RFC 8089 Appendix E.2, `|` E.2.2) starts the path (it linked `file://c`)
    '"⸠file://c|/autoexec.bat⸡" ⸠file://C:/Temp/x.txt⸡ ⸠file:///d|/a⸡ but ⸠file://c/x⸡ (a host named c)',
    // RFC 8089 §2 local-path (Java's File.toURI(), SQLite, apt): one `/` and a segment, not an empty one
    'see ⸠file:/etc/hosts⸡. and (⸠file:/cdrom/debian/⸡) "⸠FILE:/tmp/é.txt⸡" jar:⸠file:/a.jar!/META-INF/x⸡ but file:/ file:/ x',
    '⸠file:/home/fred/data.db?vfs=unix-dotfile⸡, and not http:/example.com/x nor tel:/x nor urn:/x',
    // A host that goes on past a variable or a `(` is not known: no link to a part of it (found in review)
    'https://www.$type.com/room/$id and https://api.$region.example.com/x and https://www.{domain}.com/ and http://smarta(S).blogspot.com/',
    'https://api.${REGION}x.example.com/x and http://host(1)name.example.com/path and https://www.{a}b.com/ (nothing of it)',
    // …nor past a regex's escaped dot, a variable port or a format string's verb (found in review: `https://api`,
    // `http://localhost`, `s.execute-api.…`)
    're.match(r"https://api\\.example\\.com/v(\\d+)/", s) and "^https://docs\\.python\\.org/3/" and http://localhost:$PORT/health',
    'http://localhost:%d/health and http://h.example.com:${PORT}/x and http://localhost:{port}/x and http://a.com:<port>/x',
    'fmt.Sprintf("https://%s.execute-api.us-east-1.amazonaws.com/prod") and "https://%d.example.com" and "https://%(host)s.example.com/x"',
    'but ⸠http://localhost:8080/ok⸡ and ⸠http://example.com⸡\\ and ⸠s.example.com⸡ and %⸠cambridge.redhat.com⸡',
    '<p>from ⸠http://example.com⸡:</p> and ⸠http://h.example.com⸡:%20/x (no placeholder: an end tag, an escape)',
    'but ⸠http://other.example.com⸡$1.jpg and ⸠https://example.com⸡$1 [R=301] and ⸠http://Amazon.com⸡(NASDAQ) and ⸠http://example.com⸡(see x.y z)',
    'and ⸠https://example.com⸡(i.e. our site) and ⸠https://example.com⸡(e.g.) and ⸠http://Amazon.com⸡(NASDAQ:AMZN.O) (an aside)',
    // A host that is `www.` and no more is a name left unfinished: a template, a regex, a name typed twice
    'RewriteRule "http://www.%{HTTP_HOST}/$1" and "^http://www\\.example\\.com/" and =HYPERLINK("http://www.";"x") and HTTPS://WWW./x',
    'see http://www. for it, http://www.<yourdomain>.com/ and http://www.⸠http://x.example/⸡ and http://www, but ⸠http://www/x⸡ ⸠http://www:8080⸡ ⸠http://wwww⸡.',
    'and see http://www: it (no port after the colon)',
    '⸠ws://example.com/socket⸡ ⸠wss://example.com/socket⸡',
    '⸠irc://irc.libera.chat/#channel⸡ ⸠ircs://irc.libera.chat:6697/x⸡',
    '⸠xmpp:romeo@montague.net⸡ ⸠sip:alice@atlanta.example.com⸡ ⸠sips:bob@biloxi.example.com⸡',
    'call ⸠tel:+1-201-555-0123⸡ now',
    // RFC 8141 §2: a bare urn: names an NID and an NSS (found in review: `urn:uuid` in prose was linked)
    '* urn:uuid [RFC 4122], urn:isbn here, urn:a:b and urn:-x:y but ⸠urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6⸡ <⸠urn:uuid⸡>',
    '⸠news:comp.infosystems.www.servers.unix⸡ ⸠nntp://news.example.com/comp.lang⸡',
    '⸠urn:isbn:0451450523⸡ ⸠magnet:?xt=urn:btih:c12fe1c06bba254a9dc9f519b335aa7c1367a88a⸡',
    'at ⸠geo:37.786971,-122.399677⸡ today',
    '⸠spotify://track/6rqhFgbbKwnb9MLmUQDhG6⸡ ⸠git+ssh://example.com/x⸡ ⸠com.example.app://open/a⸡',
    '⸠http://localhost:3000/api⸡ ⸠http://192.168.0.1/admin⸡ ⸠http://[::1]:8080/x⸡ ⸠http://[2001:db8::7]/c=GB?objectClass?one⸡',
    '⸠https://例え.テスト/パス⸡ (an undelegated IDN TLD after a scheme)',
    '⸠https://ｅｘａｍｐｌｅ．ｃｏｍ/パス⸡ (full-width, mapped by UTS #46)',
  ]);
  itMarks([
    'javascript:alert(1)',
    'JavaScript:alert(document.cookie)',
    'JAVASCRIPT:alert(1) jAvAsCrIpT://x.com/%0a VBScript:x VBSCRIPT:x Data:text/html,x DATA:,x',
    '(javascript:void(0)) "javascript:x" <javascript:x> 詳細はjavascript:alert(1)',
    'vbscript:msgbox("x")',
    'data:text/html,<script>alert(1)</script>',
    'javascript://example.com/%0Aalert(1)',
    'x.javascript://example.com/%0Aalert(1)',
    'Note: this is prose, and news: is not a link, nor tel: alone.',
    'http:⸠example.com/x⸡ (http: without // is not the scheme of the domain)',
  ]);
  it('never links javascript:, vbscript: or data:, whatever the options', () => {
    for (const text of ['javascript:alert(1)', 'javascript://x.com/%0a', 'data:text/html,x', 'vbscript:x']) {
      const links = findLinks(text, { anyScheme: true, schemes: ['http', 'tel', 'foo'] });
      expect(links.every((l) => !/^(javascript|vbscript|data):/i.test(l.uri)), text).to.equal(true);
    }
  });
  it('with anyScheme false, an unknown scheme:// is not linked (nor its host alone)', () => {
    expect(findLinks('spotify://track/x', { anyScheme: false })).to.deep.equal([]);
    expect(findLinks('spotify://track.com/x', { anyScheme: false })).to.deep.equal([]);
  });
});

describe('detect: P3 — RFC 3986 Appendix C wrapped links', () => {
  itMarks([
    // an authority wraps on its line only after a host dot; a space after a name starts a label (found in review)
    'Haddock: <⸠http://example.com⸡ Example site> but <⸠http://www.debian. org/ports/⸡> and <⸠http://www.debian.\norg/⸡>',
    'see <⸠http://example.com/a/very/long\n   /path⸡> ok',
    'see <URL:⸠http://www.w3.org/Addressing/⸡> ok',
    'see <URL:⸠http://www.example.com/a\n\t/b?c=d⸡>',
    'see <⸠https://example.com/x⸡> and <⸠https://example.com/y⸡>.',
    'see <⸠example.com/a\n  /b⸡>',
    'no closing <⸠http://example.com/a⸡\n  /b and more',
    'not across a paragraph mark <⸠http://example.com/a⸡\u2029/b>',
    'not across a `<` the delimiter does not follow <⸠http://example.com/a⸡ <b>',
    'but across a pair it follows <⸠http://example.com/a <b> c⸡>',
    // a `<…>` pair on the way stays, as on one line, if it closes before whitespace
    'see <URL:⸠https://example.com/\n<org>/c⸡> and <URL:⸠https://example.com/a\n/b<org>/c⸡>',
    'but <⸠https://example.com/a⸡\n<b c> and <⸠https://example.com/a⸡\n<b>',
    'mail <⸠john@example.com⸡>',
  ]);
  // RFC 3986 §3.2: what a link takes on while still in its authority is authority characters or whitespace, with a
  // port of digits after its last `:`; glued to anything else the rest is not taken on.
  itMarks([
    '<⸠http://example.com⸡"onmouseover=alert(1)> and <⸠http://example.com:80⸡"x> and <⸠http://example.com⸡{x}/a>',
    '<⸠http://example.com:8⸡o80/> and <⸠http://[::1]:80⸡x/> and <⸠ws://host⸡:port> (as outside `<…>`)',
    '<⸠http://www.debian. org/ports/⸡> and <⸠http://u:p@b.com:80\n80/a⸡> (whitespace wraps an authority)',
    '<⸠ftp://a@b@b.io/x⸡> and <⸠http://a:b@c.com:1/x⸡> and <⸠http://example.com!x⸡> (userinfo and sub-delims)',
    '<⸠http://example.com/a"b⸡> (in the path the rest is taken on, as before)',
  ]);
  // A link without a scheme wraps only once its path has begun (deviation from RFC 3986 Appendix C, which delimits
  // URIs): a bare name in `<…>` followed by more words is markup or a repr.
  itMarks([
    'see <⸠www.example.gov/NCES/\npubs/96323.html⸡>',
    '<Button.Group style={styles.btn}> and <Radio.Group\n  value={v}\n>',
    '>>> Color(1)\n<Color.RED: 1> (a constant: P7) and <⸠example.com⸡ at home> and <⸠tim.example.org⸡ at ⸠comcast.net⸡>',
    '<⸠example.com⸡ style={x}> and <⸠www.example.org⸡\n  lang=en> (no path yet: no wrap)',
    'with a scheme, as before: <⸠https://example.com/a\n  /b⸡> and <⸠https://example.com⸡\n>',
  ]);
  // A `mailto:` link is a URI and wraps as one, at line breaks; a bare address (RFC 5322 angle-addr, not a URI) only
  // where a line break splits its domain and the last label, joined, is a TLD (it was linked with the cut domain:
  // `DeepEddy.Co`).
  itMarks([
    '<⸠mailto:news@example.ie?subject=Please%20send%20me%20this%\n20newsletter%20in%20TEXT%20format.⸡> and <⸠mailto:a@example.co\nm⸡>',
    'Message <⸠cwg-dated-1030804078.e8b0d5@DeepEddy.Co\nm⸡> and <⸠a@例え。co\n m⸡> (a host dot of UTS #46 too)',
    // the break falls inside the last label: after it no dot (found in review)
    'but <⸠a@example.com⸡\n⸠foo.org⸡> and <⸠a@example.co⸡\n  ⸠m.au⸡>',
    // Spaces on one line are no wrap there: HTML writes a subject so (Appendix C would join its words).
    'but <⸠mailto:tony@example.com?subject=Penguin⸡ Shell - Donate Web Space> and <⸠mailto:a@example.com?subject=A%20⸡\n B C> (nor at all)',
    'but <⸠a@example.com⸡ and ⸠b@example.org⸡> <⸠a@example.co⸡ m> <⸠a@example.com⸡\nfoo> <⸠a@example.co⸡\n  m x> <⸠a@example.com⸡\n> wrote',
  ]);
  it('drops the whitespace from the uri and flags it', () => {
    expect(findLinks('<user@DeepEddy.Co\r\n m>').map((l) => [l.uri, l.diagnostics])).to.deep.equal([['mailto:user@deepeddy.com', ['wrapped']]]);
    const [link] = findLinks('<URL:http://example.com/a/very/long\r\n    /path?q=1>');
    expect(link!.text).to.equal('http://example.com/a/very/long\r\n    /path?q=1');
    expect(link!.uri).to.equal('http://example.com/a/very/long/path?q=1');
    expect(link!.diagnostics).to.include('wrapped');
  });
  it('an angle-bracketed link without whitespace is not flagged', () => {
    expect(findLinks('<http://example.com/a>')[0]!.diagnostics).to.deep.equal([]);
  });
});

describe('detect: P4 — left context of a scheme', () => {
  itMarks([
    'seehttp://example.com',
    'смотриhttps://example.com/путь',
    'δέστεhttps://example.com',
    '2https://example.com',
    '詳細は⸠https://example.com/a⸡',
    'リンク⸠https://例え.jp/パス⸡。',
    '链接⸠https://example.cn/路径⸡。',
    '链接⸠https://example.cn/路径，谢谢⸡ (UTS #58: a Soft comma followed by Include text continues)',
    '링크⸠https://example.kr/경로⸡',
    'ดูที่⸠https://example.co.th/หน้า⸡ ครับ',
    'Re:⸠https://example.org/x⸡',
    'end of sentence.⸠https://example.org/x⸡',
    '(⸠https://example.org/x⸡)',
    'seemailto:⸠a@example.com⸡ (the address is still one)',
    'メール⸠mailto:a@example.com⸡',
    // the letter of an escape written out in a string or a JSON log (`\n`, `\r`, `\t`) separates, as what it stands
    // for does (found in review: P4 read the `n` as a word, and an address took it: `njohn@…`); a bare name after it
    // is not linked, as after a backslash path's `\` (`…\news.example.org`: which, the text does not say)
    '"see\\n⸠https://example.com/a⸡" and "a\\r\\n⸠http://x.org/⸡" {"m":"a\\t⸠john@example.com⸡\\nwww.example.com"} x\\n⸠mailto:a@b.com⸡',
    '"a\\\\nexample.com" and \\\\nhttp://x.org (an even run of backslashes: the letter is the word\'s, a name after `\\` a path\'s)',
    // …and one after a link ends it (it took `\n`, uri `…/x%5Cn`); a `\` before another letter stays
    'printf("see ⸠http://example.com/x⸡\\n"); "⸠https://example.com/docs⸡\\tor" {"u":"⸠https://x.com/a⸡\\"} ⸠http://x.com/a\\b⸡ ⸠http://x.com/a\\\\n⸡',
    // …but not in a file: link or a path whose separator is `\\`, and a name after a `\\` is a path's segment (found in
    // review: `C:\\…\\test.example.com` linked `est.example.com`)
    '⸠file:///C:\\temp\\report.txt⸡ ⸠https://example.com/a\\b\\tools⸡ C:\\inetpub\\sites\\test.example.com\\web.config \\\\nas01\\web\\news.example.org\\x',
    // roff's font and colour escapes in a man page's source, before and after a link (found in review: nothing was
    // linked after `\\fB`, an address took `fI`, a URL `\\m[]`); `\\fi` is no font's, `\\file:` AsciiDoc's escaped link
    'See \\fB⸠https://curl.se/docs/manpage.html⸡\\fR, (\\fI\\%⸠https://perldoc.perl.org/perlpod.html⸡\\fP), \\fI⸠bug-coreutils@gnu.org⸡\\fR',
    // (`\\f(` before letters that are no font's name: C's form feed and a parenthesis; found in review)
    'printf("\\f(⸠https://example.com⸡)") \\f(⸠john@example.com⸡)',
    '\\m[blue]⸠https://x.org/a.html⸡\\m[] \\f(CW⸠https://x.org/b⸡\\fP \\f[BI]⸠https://x.org/c⸡\\f[] \\⸠file:///path/x.git/⸡ ⸠https://x.org/a\\foo⸡',
  ]);
});

describe('detect: an ellipsis is Soft (deviation from UTS #58 §2.1; found in review)', () => {
  itMarks([
    'More at ⸠https://example.com/news⸡… and ⸠https://example.ru/страница⸡…, ⸠https://example.com/a…b⸡ ⸠https://example.com/c‥d⸡‥',
    'see urn:ietf:… and ⸠example.com⸡… 更多：⸠https://example.com/a⸡……',
  ]);
});

describe('detect: a terminal control sequence glued before a link is not part of it (ECMA-48 §5.4; found in review)', () => {
  itMarks([
    '\x1b[4m⸠https://app.vercel.app⸡\x1b[0m and \x1b[01;31m\x1b[K⸠https://example.com/grep⸡\x1b[m\x1b[K:12:',
    '\x1b[38;5;208m⸠www.example.org⸡\x1b[0m \x1b[1m⸠example.com⸡\x1b[0m x \x1b[34m⸠ops@example.com⸡\x1b[0m \x1b[1;34m⸠jo@example.com⸡',
    // without the ESC the letters are a word's: P4 for a scheme, the local part's for an address
    '[4mhttps://example.com [⸠34mops@example.com⸡',
  ]);
});

describe('detect: a URL in a JSON string that escapes `/` (RFC 8259 §7; PHP json_encode)', () => {
  itMarks([
    '{"url":"⸠https:\\/\\/example.com\\/a\\/b?x=1\\u0026y=2⸡","n":2} and "⸠https:\\/\\/x.com\\/⸡"',
    // other escapes end the link, as what they stand for would: `\n`, `\"`, a `\u` of a space; so does the string's end
    '"⸠https:\\/\\/x.com\\/a⸡\\nb" "⸠https:\\/\\/x.com\\/a⸡\\"b" "⸠https:\\/\\/x.com\\/a⸡\\u0020b" ⸠http:\\/\\/x.com⸡',
    // …and a `\\u` of a bracket or punctuation, which the walk does not judge as the character (found in review)
    '"⸠https:\\/\\/x.com\\/a⸡\\u005b1\\u005d" "⸠https:\\/\\/x.com\\/aa⸡\\u002c"',
    // not after one slash; after a plain `//` a `\` stays in the path, as any backslash does
    'https:\\/x.com ⸠https://x.com/a\\/b⸡',
  ]);
  // …and one whose colon a .properties file or a vCard escapes (found in review: Gradle wrappers' distributionUrl)
  itMarks(['distributionUrl=⸠https\\://services.gradle.org/distributions/gradle-8.5-bin.zip⸡ URL;type=pref:⸠http\\://www.example.com⸡ but a\\:b https\\:/x']);
  it('an escaped colon: the uri and iri drop its `\\`', () => {
    const [link] = findLinks('distributionUrl=https\\://services.gradle.org/distributions/gradle-8.5-bin.zip');
    expect([link!.text, link!.uri, link!.iri]).to.deep.equal([
      'https\\://services.gradle.org/distributions/gradle-8.5-bin.zip',
      'https://services.gradle.org/distributions/gradle-8.5-bin.zip',
      'https://services.gradle.org/distributions/gradle-8.5-bin.zip',
    ]);
  });
  it('the uri and iri are the URL the JSON string holds; the text is as written', () => {
    const text = '{"u":"https:\\/\\/ja.wikipedia.org\\/wiki\\/\\u6771\\u4eac?a=1\\u0026b=\\\\"}';
    const links = findLinks(text);
    expect(links.map((l) => [l.text, l.uri, l.iri])).to.deep.equal([
      [
        'https:\\/\\/ja.wikipedia.org\\/wiki\\/\\u6771\\u4eac?a=1\\u0026b=\\\\',
        'https://ja.wikipedia.org/wiki/%E6%9D%B1%E4%BA%AC?a=1&b=%5C',
        'https://ja.wikipedia.org/wiki/東京?a=1&b=%5C',
      ],
    ]);
  });
});

describe('detect: P5 — userinfo', () => {
  itMarks([
    '⸠https://user:pass@example.com/a⸡',
    '⸠ssh://git@github.com/a/b.git⸡',
    '⸠ftp://anonymous@ftp.example.com/pub⸡',
    'http://john.smith@example.com',
    'mail ⸠john.smith@example.com⸡ now',
    "'⸠john@example.com⸡' and `⸠a@example.com⸡` and {⸠b@example.com⸡} and ⸠o'brien@example.ie⸡",
  ]);
  it('flags userinfo', () => {
    expect(findLinks('https://user:pass@example.com/a')[0]!.diagnostics).to.include('userinfo');
    expect(findLinks('ssh://git@github.com/a')[0]!.diagnostics).to.include('userinfo');
  });
  it('reads name@host as an email, with mailto', () => {
    const [link] = findLinks('name@example.com');
    expect(link).to.include({ kind: 'email', scheme: 'mailto', schemeInferred: true, uri: 'mailto:name@example.com' });
  });
});

describe('detect: P6 — quotes', () => {
  // a closing mark a string literal escapes is the string's and the link's (found in review); an even run is not
  itMarks([
    "x = '⸠https://en.wikipedia.org/wiki/Ender\\'s_Game⸡' and \"⸠https://img.shields.io/x?query=workflow%3A\\\"test\\\"⸡\" and '⸠https://x.org/a⸡\\\\'",
  ]);
  it('an escaped closing mark: the uri and iri drop its `\\`, which only inside the string is an escape', () => {
    const links = findLinks("'https://en.wikipedia.org/wiki/Ender\\'s_Game' https://x.org/a\\'b");
    expect(links.map((l) => [l.text, l.uri])).to.deep.equal([
      ["https://en.wikipedia.org/wiki/Ender\\'s_Game", "https://en.wikipedia.org/wiki/Ender's_Game"],
      ["https://x.org/a\\'b", "https://x.org/a%5C'b"],
    ]);
  });
  itMarks([
    '{"url":"⸠https://example.com/a⸡","ok":true}',
    "{'url':'⸠https://example.com/a⸡','ok':true}",
    '“⸠https://example.net/c⸡”',
    '‘⸠https://example.net/c⸡’',
    '«⸠https://example.fr/a⸡»',
    '«⸠example.com/a⸡»',
    '‹⸠https://example.ch/a⸡›',
    '「⸠https://example.jp/パス⸡」です',
    '『⸠https://example.jp/本⸡』',
    '„⸠https://example.de/a⸡“',
    // the marks of other languages, and an opening mark with two closing marks (found in review: the link ran on)
    'Zob. „⸠https://example.pl/strona⸡”,potem and Vaata „⸠https://example.ee/a⸡”-lehte and „⸠user@example.pl⸡”,b',
    '‚⸠https://example.de/a⸡‘, ‚⸠https://example.de/b⸡’, Se ”⸠https://example.fi/a⸡”, sitten',
    '〝⸠https://example.com/a⸡〟を参照 and 〝⸠https://example.com/b⸡〞を参照 and 詳細は＜⸠https://example.com/a⸡＞を参照',
    'href="⸠https://example.com/a?b=c⸡">',
    '⸠https://nap.wikipedia.org/wiki/Lista_d"e_vvoce⸡ (no quote before it: UTS #58 as is)',
    // a quotation mark whose closing mark does not end the link delimits nothing: the link is a bare one, and the rules
    // for bare links in prose apply (found in review: the word glued after it, CJK punctuation after ASCII)
    '"⸠https://a.example/x.html⸡を参照してください and "⸠https://www.gnu.org/software/hurd⸡를 참조 and “⸠https://a.example/a⸡，b',
    '“⸠https://a.example/a⸡” and “⸠https://a.example/b⸡，c and \'tel:10086 x (a bare tel: needs RFC 3966 form)',
    // closed where the link ends, it stands as written
    '"⸠https://a.example/x.htmlを⸡" and “⸠https://a.example/a，b⸡” and \'⸠tel:10086⸡\'',
    // an apostrophe between letters, digits or `_` is no closing mark (found in review: the link ended at `Ender`)
    '‘⸠https://en.wikipedia.org/wiki/Ender’s_Game⸡’ and \'⸠https://en.wikipedia.org/wiki/Rock_\'n\'_roll⸡\' and “⸠https://fr.wikipedia.org/wiki/L’été⸡”',
    '＇⸠https://example.jp/it＇s⸡＇ and ‘⸠https://example.com/c_⸡’. but \'⸠https://example.com/a\'s⸡ (no closing mark: bare, as UTS #58 has it)',
  ]);
  // a `"` that closes one opened inside the link is the link's (deviation from UTS #58 §3.5.1, found in review: the
  // uri of GitHub's badge links ended in an unbalanced `%22test`); an empty pair is not (a docstring's end)
  itMarks([
    'see ⸠https://github.com/o/r/actions?query=workflow%3A"test"⸡ now and ⸠https://x.org/?a="b"&c="d"⸡. then',
    'at ⸠https://forum.example.org/viewtopic.php?p=286213⸡""" and ⸠https://x.org/?q="a⸡ b" and ⸠https://x.org/a⸡"',
    // …and one right after a `,` starts a CSV field (found in review: the link took `,"Prefers`)
    '1,"Smith, John",⸠john@example.com⸡,⸠https://example.com/john⸡,"Prefers email" and ⸠https://example.com/a⸡,"b",c but ⸠https://x.org/?q="a,b"⸡',
    // …not inside brackets or a quoted value (found in review: JSON in a query was cut)
    'GET ⸠https://api.example.com/v1/items?where={"status":"open","owner":"me"}⸡ and ⸠https://example.com/api?ids=["a","b"]⸡',
  ]);
  // a `|` ends a path, not a query; a drive letter's stays (found in review: Slack's labels, MediaWiki, `|bash`)
  itMarks([
    'see <⸠https://github.com/acme/api/pull/4312⸡|PR #4312>? {{cite web|url=⸠https://example.com/report.pdf⸡|title=Report}}',
    'wget -qO- ⸠https://example.com/install.sh⸡|bash ||⸠https://example.com/spoiler⸡|| but ⸠https://fonts.googleapis.com/css?family=Roboto|Open+Sans⸡ and ⸠file:///d|/a⸡',
    '<⸠https://example.com/a?x=1⸡|label> (inside `<…>` in a query too)',
  ]);
  // a CJK full stop ends a fragment before more text written without spaces, but in a text directive (found in review)
  itMarks([
    'see ⸠https://x.jp/#東京⸡。大阪 and ⸠https://x.jp/#:~:text=東京。大阪⸡ and ⸠https://x.jp/?q=東京。大阪⸡ and ⸠https://x.jp/#a。b⸡ ok',
  ]);
  // a chat's emoji shortcode glued to a link is the message's (found in review: the link took `:smile`)
  itMarks([
    '⸠https://example.com/image.png⸡:smile: and ⸠https://github.com/a/b/pull/1⸡:white_check_mark: and ⸠https://x.org/a⸡:+1:.',
    'but ⸠https://x.org/wiki/Special:Search⸡: and ⸠urn:isbn:0451450523⸡: and ⸠mailto:a@b.com?subject=hi:there⸡: and ⸠https://x.org/a:b:c⸡',
  ]);
  // an HTML character reference to a delimiter ends a link (escaped HTML written as text; found in review: the link
  // took `&quot;&gt;link&lt;/a&gt`); `&amp;` is the query's `&`
  itMarks([
    '&lt;a href=&quot;⸠https://example.com/a⸡&quot;&gt;link&lt;/a&gt; &lt;p&gt;Read ⸠https://example.com/g⸡&lt;/p&gt;',
    'see ⸠https://example.com/d⸡&nbsp;now ⸠https://x.org/a⸡&#34;b ⸠https://x.org/b⸡&#X3E; but ⸠https://example.com/s?q=foo&amp;page=2⸡ ⸠https://x.org/?a=1&ltd=2⸡',
    // any numeric form, and the curly quotation marks (found in review: PHP writes `&#039;`)
    '&lt;a href=&#039;⸠https://example.com/a⸡&#039;&gt; ⸠https://example.com/b⸡&#8221; ⸠https://x.org/c⸡&rdquo; ⸠https://x.org/d⸡&#x000A0;e but ⸠https://x.org/?a=1&#38;b=2⸡',
  ]);
  // …and emphasis marks written around a link (deviation from UTS #58 §3.5.1, where `*`, `_` and `~` are Include)
  itMarks([
    'see *⸠https://example.com/a⸡* now and **⸠https://example.com/getting-started⸡** and ~~⸠https://example.com/a⸡~~',
    'struck ~⸠https://example.com/a⸡~ or ~~⸠a@example.com⸡~~ or ~~⸠example.com/x⸡~~. but ⸠https://example.com/~user~⸡',
    'and ~~**⸠https://example.com/a⸡**~~ and **~~⸠a@example.com⸡~~** but ⸠https://example.com/a~~b⸡ and a ⸠~~b@example.com⸡',
    'mail *⸠mp_html@126.com⸡* or _⸠john@example.com⸡_ or __⸠a_b@example.com⸡__ and *⸠example.com/a⸡* and _⸠example.com/a⸡_',
    'but ⸠https://example.com/a*b*⸡ and ⸠https://example.com/*⸡ and *⸠https://x.com/a**⸡ and ⸠*@example.com⸡* (no matching run)',
    'end *⸠https://example.com/a⸡.* and _⸠example.com/a⸡?_ and **⸠https://example.com/b⸡!,** (Soft before the run goes with it)',
    'mail *⸠a@example.com⸡.* or _⸠b@example.com⸡._ or **⸠c@example.com⸡!,** (an address alike) but *⸠d@example.com⸡*.',
    // emphasis nested in emphasis of the other mark, closed in reverse order
    'see *_⸠https://example.com/a⸡_* and _*⸠https://example.com/a⸡*_ and **_⸠https://example.com/a⸡_** and _**⸠https://example.com/a⸡**_',
    'and *__⸠https://example.com/a⸡__* and *_⸠https://example.com/a⸡._* and *_⸠example.com/x⸡_* and _*⸠example.com/x⸡*_',
    'mail *_⸠a@example.com⸡_* or _*⸠b@example.com⸡*_ or **_⸠c@example.com⸡._** and *_⸠example.com⸡_*',
    'but not in the same order: _*⸠https://example.com/a_⸡* and *_⸠https://example.com/a*⸡_ and *⸠_a@example.com⸡*_',
  ]);
});

describe('detect: code and markup in running text (deviations from UTS #58 §2.1 and §3.5.1)', () => {
  // The backquote is Include in Link_Term; no URI or IRI holds one, and in text it delimits code.
  itMarks([
    'start `⸠http://localhost:3000/⸡`.',
    'run `curl ⸠https://example.com/install.sh⸡` first',
    '`⸠https://example.com/a⸡`b (a link never holds a backquote, not even inside)',
    '`⸠example.com/path⸡` and `⸠john@example.com⸡`',
    // A backslash is Soft (deviation from UTS #58 §2.1, where it is Include): never at a link's end, inside it stays
    'xsltproc ⸠http://example.com/manpages/docbook.xsl⸡\\\n  x.xml and ⸠https://example.com/n1256.pdf⸡\\ . and ⸠https://example.com/a\\b⸡',
    '访问 ⸠http://echarts.baidu.com/⸡`中`文档',
    '后面的`⸠admin@example.org⸡ (no scan crosses a backquote: the text before it is not a local part)',
    'a`⸠b@example.com⸡',
  ]);
  // `<` is Open in Link_Term (so `<placeholder>` paths stay whole), but `</` begins an HTML end tag.
  itMarks([
    '<a href="⸠http://example.com/p⸡">⸠http://example.com/p⸡</a>',
    '⸠http://example.com/p?q=1⸡</A> ⸠http://example.com/p#f⸡</td>',
    '⸠https://git.example.org/~<user>/⸡ and ⸠https://example.com/<org>/<repo>⸡',
    '⸠http://example.com/a<b>c⸡</b>',
    '⸠http://example.com/p⸡</',
    // a placeholder names something: an arrow or empty brackets are not one (found in review)
    'VU2RGU<->⸠http://gnuhead.dyndns.org/⸡<->GPG and ⸠http://example.com/a⸡<<>>b but ⸠http://example.com/a<1>⸡ ⸠https://example.com/2021/<省>.html⸡',
  ]);
  // An Open bracket that nothing follows is not part of the link (the reference counts it safe): AsciiDoc labels.
  itMarks([
    'the ⸠https://lore.kernel.org/git/⸡[`mailing list`]',
    'like ⸠https://github.com/newren/git-filter-repo⸡[`filter-repo`].',
    'see ⸠https://example.com/a⸡( and ⸠https://example.com/a⸡{ and ⸠example.com/b⸡[.',
    'but ⸠https://example.com/a()⸡ and ⸠https://example.com/a(b)⸡ and ⸠https://example.com/<org>⸡ and ⸠https://example.com/a[1]b⸡',
  ]);
  // A `[` right after an ASCII character of a path, or of a fragment before any text directive, opens an aside: the
  // pair is the link's only if the link goes on past its `]` (RFC 3986 §3.3 allows no `[` there). AsciiDoc labels
  // and footnote marks (en-mixed), placeholders, queries, non-ASCII before it, delimited links.
  itMarks([
    'The ⸠https://lore.kernel.org/git⸡[archive] of this, ⸠https://github.com/git/git⸡[GitHub mirror] and',
    'tree ⸠http://repo.or.cz/w/git.git/tree/HEAD:/gitweb/⸡[] and ⸠https://web.libera.chat/#git-devel⸡[#git-devel]',
    'see ⸠http://www.debian.org/security/CVE-certificate.jpg⸡[46] in ⸠https://github.com/x/y⸡[label].',
    '⸠https://github.com/andreyvit/cvsps⸡[⸠https://github.com/andreyvit/cvsps⸡] and ⸠https://example.com/a⸡[b][c].',
    'set ⸠imaps://imap.gmail.com/[Gmail]/Sent⸡ Mail, ⸠http://localhost:3000/[prefix]/[your_path]⸡ ⸠https://example.com/a[b][c]/d⸡',
    // (a later pair after letters, `_` or `-`, which the walk's fast run passes; found in review)
    'see ⸠https://example.com/v[major]_[minor]⸡ now ⸠https://example.com/[a]-[b]⸡ ⸠https://example.com/a[b]c[d]⸡',
    '⸠https://example.com/?foo[1]=a⸡ ⸠https://example.com/?tags[]⸡ ⸠https://example.jp/パ[1]⸡ ⸠https://example.com/#:~:text=[a]⸡',
    '"⸠https://example.com/a[1]⸡" <⸠https://example.com/a[1]⸡> [x](⸠https://example.com/a[1]⸡)',
    // Perl POD's escape `E<…>` glued to a name, an address or a URL is not part of it (found in review: 161 addresses
    // of en-mixed were not linked, `comE` being no TLD)
    'Gurusamy Sarathy E<lt>⸠gsar@activestate.com⸡E<gt> and C<LE<lt>⸠http://www.perl.com⸡E<gt>> and C<LE<lt>⸠http://www.perl.org/⸡E<gt>>',
    'Gary Ng E<lt>⸠71564.1743@CompuServe.COM⸡E<gt>, ⸠www.perl.com⸡E<gt> ⸠https://x.org/a/⸡E<0x201E> but ⸠https://x.org/E<a-b>⸡',
    // …only POD's own escapes, not after a capital, and in a host only where a TLD is left (found in review)
    'Visit ⸠HTTP://WWW.EXAMPLE.DE⸡<br> ⸠https://example.com/TYPE<id>/x⸡ ⸠WWW.EXAMPLE.WINE⸡<br> ⸠https://x.org/NODE<gt>⸡',
    // BBCode's end tag `[/` ends a link, as `</` does, after a non-ASCII character and in a query too (found in review)
    '[url]⸠https://example.com/view.php?id=5⸡[/url] [url]⸠https://ru.wikipedia.org/wiki/Москва⸡[/url] [url=⸠https://x.com/a⸡]l[/url]',
    // a mismatched Close, a separator or HELD_LOOKAHEAD before its `]` leave it out
    '⸠https://example.com/a⸡[(b]) ⸠mc://dar1:12346/mnt/⸡[^/]*/ ⸠https://example.com/a⸡[' + 'x'.repeat(70) + ']/b',
  ]);
});

describe('detect: P7 — file names', () => {
  itMarks([
    // a two-label name in capitals with a digit or a long TLD (found in review); two capitals after letters stay
    'C3.AF 8B.56 and CR0.PG, FOR CONFIDENTIAL PURPOSE.BEST REGARDS, COLOR.RED and 1.TO PROVIDE but SEE ⸠3M.DE⸡. ⸠9GAG.TV⸡',
    // BIND's `name/TYPE/CLASS` (found in review: the link took `/NS/IN`)
    "query '⸠ricreig.com⸡/NS/IN' denied, '⸠openquery.eu⸡/AXFR/IN' but ⸠example.com/a/IN⸡ ⸠example.com/NS/INX⸡ ⸠example.com/NS/IN/x⸡",
    'but ⸠Z.AI⸡ ⸠WEB.DE⸡ ⸠AMAZON.COM⸡ ⸠EXAMPLE.INFO⸡ ⸠NS2.NIC.FR⸡ ⸠www.EXAMPLE.BEST⸡ ⸠EXAMPLE.BEST/x⸡',
    'edit README.md and setup.py, then main.rs; unzip notes.zip',
    'run build.sh or install.pm',
    'see ⸠www.setup.py⸡ and ⸠docs.example.md⸡ and ⸠example.md/page⸡',
    'open ⸠https://setup.py⸡ and ⸠bun.sh/docs⸡',
    'at main.rs:42 the bug',
  ]);
  // irilink's extension: a bare two-label name followed directly by `(` is code (a call, a man page section)
  // Measured over the corpora (tlds.ts): shared objects, systemd units, SSH keys, configuration files, autotools.
  itMarks([
    'edit main.cf and master.cf, enable multi-user.target, copy id_rsa.pub',
    'see System.map, httpd.pid, configure.ac, Makefile.am, out.ps, foo.inc, zone.tab, ld.so and libasound.so',
    '\tat com.example.App.main(App.java:10) and HelloWorld.java, but ⸠www.example.java⸡ and ⸠example.java/x⸡',
    // C++ sources (found in review: 57 links of the corpora, one host beside them, `largeinfo.cc`, which is now kept
    // with a scheme, `www.` or a path only, as `notion.so` is)
    'compile addon.cc and hello.cc; genpkglist.cc:586: error; csb.cc = CSB_CC_FAULT_ADDRESS;',
    'but ⸠www.largeinfo.cc⸡, ⸠tiny.cc/x⸡, ⸠https://largeinfo.cc⸡ and ⸠linuxsearch.largeinfo.cc⸡',
    'but ⸠www.notion.so⸡, ⸠notion.so/x⸡ and ⸠a.example.so⸡ (shared objects are two-label names: `notion.so` alone is not linked)',
    'but ⸠www.news.am⸡, ⸠news.am/x⸡ and ⸠https://wafa.ps⸡ (a scheme, `www.` or a path: a host)',
    'and still ⸠wttr.in⸡ and ⸠aviary.pl⸡ (country codes with many two-label hosts: not in the list)',
    // a longer name whose label under the extension is a version, a locale or another file type (found in review)
    'see libc-2.2.5.so, libpthread-0.9.so, Mail-SpamAssassin-2.40.zip, README.zh-CN.md, x.en_US.md, a.zh-Hans.md',
    'and babel.min.js.map, map-file-comment.css.map, Resume.doc.zip, Clawdbot-X.Y.Z.dSYM.zip, mymodule.abi3.so',
    // a macOS application bundle: a capitalised name and `.app` (found in review)
    'grant Messages.app access, open Postgres.app or LibreOffice.app, but ⸠bluebubbles.app⸡ ⸠Messages.app/x⸡ ⸠www.Messages.app⸡',
    // …and a longer name under a member name is a chain of members (found in review), but under `name` and `store`
    'see error.response.data, Array.prototype.map, tools.exec.host, lxc.net.0.link, worker.process.pid, re.Match.group',
    'but ⸠monica.smith.name⸡ ⸠shop.brand.store⸡ ⸠www.foo⸡ ⸠www.foo.data⸡ ⸠a.b.data/x⸡ ⸠https://a.b.data⸡',
    'but ⸠web.tb.tf⸡ ⸠sigob2.rla2000.org.py⸡ ⸠p.prose.md⸡ ⸠www.foo-2.5.so⸡ ⸠libdb-4.3.so/x⸡ ⸠a.b.en.md⸡ ⸠a.zh-cn.md⸡ ⸠a.2.5.com⸡',
    // build files under any TLD, generic too, and syslog selectors
    'see Makefile.in, configure.in, MANIFEST.in, Makefile.win, GNUmakefile.vc and configure.com, log to kern.info or LOCAL0.INFO',
    // a template under `in` whose label under it is a file type (found in review)
    'see config.h.in, config.mak.in, git.spec.in, Makefile.pre.in and foo.service.in',
    'but ⸠mail.escorts.co.in⸡ ⸠grains.nic.in⸡ ⸠passerv.my.doma.in⸡ ⸠www.config.h.in⸡ ⸠config.h.in/x⸡ ⸠http://config.h.in⸡',
    'but ⸠www.Makefile.in⸡, ⸠configure.in/x⸡, ⸠Korben.info⸡, ⸠mail.info/x⸡, ⸠a.mail.info⸡ and ⸠kern.com⸡',
  ]);
  // …and a bare two-label name whose TLD is a common member name in code is code (measured likewise, tlds.ts)
  itMarks([
    'user.name = x; os.open(f) and response.data, datetime.date, subprocess.run, re.search, i18n.show, SortKey.NAME',
    // `id`, the most common field (found in review: 226 links of en-mixed, none a host)
    'SELECT t.id, t.link FROM tree t WHERE a.id = b.id; println!("{}", worker.id); panel.id',
    "logging.getLogger('foo.bar'), self.bar and x.foo.bar, but ⸠www.foo.bar⸡ ⸠foo.bar/x⸡ ⸠https://foo.bar⸡",
    'order.total + tax; el.style; state.page; weather.city; user.phone, but ⸠https://x.page⸡ and ⸠www.example.city⸡',
    'options.name?.length and errors.md#x and col.show',
    'edquota: aquota.group, user.group, m.group(1), git config safe.directory, exec.security and collections.abc',
    'fs.watch(dir) or options.watch, minimatch(bar.foo), and files vmlinux.lds, libc.mo, wip.dot, foo.man, main.coffee',
    // a reverse domain name: an identifier (Java, Android, D-Bus), not a host
    'package com.example.app; import com.sun.star.beans.Property; org.freedesktop.DBus.Properties and COM.MICROSOFT.QUARTILE.INC',
    'but ⸠edu.tencent.com⸡, ⸠org.gnu.de⸡, ⸠com.example.app/x⸡, ⸠https://com.example.app⸡, ⸠www.com.example.app⸡ and ⸠gov.uk⸡',
    'and after a colon a line number (a log): INFO com.example.demo.App:23 - Started',
    'but ⸠www.example.store⸡, ⸠example.store/x⸡, ⸠https://example.name⸡ and ⸠a.example.name⸡ (but a.example.email: a longer name under a member name is code)',
    'and still ⸠docs.new⸡ (left out: hosts under it in chat) and ⸠example.shop⸡',
    // under `id` a longer name is a host (Indonesia's second levels: `x.co.id`, `x.go.id`), and a bare one with a
    // scheme, `www.` or a path
    'but ⸠indonesia.go.id⸡ ⸠kompas.co.id⸡ ⸠mail.identity.id⸡ ⸠www.kompas.id⸡ ⸠kompas.id/x⸡ ⸠https://t.id⸡',
  ]);
  // …also with nothing but a fragment or a query after it: a relative link to a document
  itMarks([
    'see [errors](errors.md#class-error), CHANGELOG.md#v2 and run.sh?x=1',
    // nothing inside the fragment or query is linked on its own
    'run.sh?host=example.com and errors.md#err.network and ' + 'x.md?'.repeat(50),
    'but ⸠docs.example.md#a⸡, ⸠www.x.md#a⸡, ⸠x.md/page#a⸡ and ⸠example.com#x⸡',
  ]);
  // A TLD in mixed case on a bare name is not matched, as in UTS #58's reference (§4.1 step 2)
  itMarks([
    'const RadioGroup = Radio.Group; vProp.Name = 1; From: "Craig R.Hughes"; in reply.You will',
    // also when the TLD starts with a small letter
    'at REPLServer.onLine (node:repl:902:10) and HM.cK will match and 4Vj.fO, but ⸠example.cOm⸡ (a generic TLD)',
    'but ⸠Example.Com⸡ and ⸠Sun.COM⸡ and ⸠WEB.DE⸡ and ⸠example.Com⸡ and ⸠abc.XN--11B4C3D⸡',
    'and a TLD in capitals: ⸠Socket.IO⸡, ⸠Last.FM⸡, ⸠Twitch.TV⸡, ⸠amazon.DE⸡, ⸠EXAMPLE.INFO⸡, ⸠Sun.COM⸡',
    // …but a word in capitals after a name with a small letter is a constant in code, `PL` a Perl build file (corpora)
    'logging.INFO, Color.RED, Shape.CIRCLE, HTTPMethod.POST, SortKey.NFL, perl Makefile.PL and Build.PL',
    'but ⸠www.Color.RED⸡, ⸠Color.RED/x⸡, ⸠a@Color.RED⸡, ⸠https://Color.RED⸡, ⸠Aviary.pl⸡ and ⸠sasakure.UK⸡ (COLOR.RED: below)',
    // …and two letters after a name of one small letter a product's name; `et.al` is Latin's `et al.`
    'NXP i.MX SoCs, the i.MX audio driver, Smith et.al. (2019) and Jones ET.AL',
    'but ⸠t.co⸡, ⸠I.MX⸡, ⸠ti.MX⸡, ⸠i.MX/x⸡, ⸠www.i.MX⸡, ⸠https://i.MX⸡, ⸠et.al/x⸡ and ⸠bet.al⸡',
    'and ⸠www.Libera.Chat⸡ and ⸠Libera.Chat/about⸡ and ⸠https://Libera.Chat⸡',
    // A longer bare name alike (found in review): mixed case, or a word in capitals after a small letter
    'System.Web.Security, ChannelMessage.Read.Group, P.S.Free POP3, P.O.Box 12, android.permission.CAMERA, callgrind.out.PID',
    'but ⸠www.Example.De⸡, ⸠Mail.Google.Com⸡, ⸠mail.example.DE⸡, ⸠x.y.Group/path⸡, ⸠https://System.Web.Security⸡, ⸠NEWS.BBC.CO.UK⸡',
  ]);
  itMarks([
    'call iter.next() or Date.now(), see systemd.network(5)',
    // longer names too: member chains of code
    'Object.prototype.toString.call(obj) and this.hooks.accelerate.call(x) and self.periph.read() and datetime.datetime.now()',
    'but ⸠example.com⸡ (see below), ⸠www.example.com⸡(x), ⸠a.example.com⸡(x) and ⸠https://example.com⸡(x)',
    'and by ⸠mail.yahoo.com⸡(1.2.3.4), ⸠mail.brasilink.com.br⸡([1.2.3.4]) and ⸠www.example.de⸡(x) (generic, `www.`)',
    '⸠Amazon.com⸡(NASDAQ) ⸠baidu.com⸡(百度) ⸠mit.edu⸡(x) ⸠example.net⸡( (RFC 1591 generic TLDs: hosts)',
    '⸠example.de:8080⸡(x) (a port: a host)',
    'and ⸠example.com/a(b)⸡',
  ]);
});

describe('detect: a TLD followed by `_` and a letter or digit is no TLD (deviation from UTS #58 §4.1)', () => {
  itMarks([
    'n.to_string() and locale.LC_ALL and blkio.io_serviced and x.com__init__',
    'in _⸠example.com⸡_ and __⸠example.com⸡__ (Markdown emphasis)',
    'write to ⸠a@example.com⸡______________Send posts (a rule line glued on)',
    'with ⸠https://n.to_string⸡ (an explicit scheme takes the host as written)',
    'write ⸠mailto:a@example.com⸡_x but not a@example.com_x',
  ]);
  // …and a domain right after a `_` is the rest of an identifier or a file name, or of an underscored DNS name
  itMarks([
    'auth required pam_unix.so and LoadModule mod_cache.so, file start_erl.data, debian-faq.zh_CN.ps',
    // nothing the name runs on to is linked on its own
    'foo_bar.example.com?next=example.org and my_site.com/go?u=www.example.net',
    'see CHANGELOG_V18.md#18.15.0 and ip6_tnl.net and x__y.example.com',
    // a letter of any script before the `_`
    'схема://имя_сервера.пример.рф/папка and назва_сервера.приклад.com/тека and 名前_例え.jp',
    // RFC 8552 underscored names, also at the start of a line or after another underscored label
    'host -t TXT _dmarc.gmail.com\n_sips._tcp.falcot.com. 86400 IN SRV and # _acme-challenge.example.com and _443._tcp.x.org',
    // Markdown emphasis, closed right after the link, stays; so do addresses
    'but _⸠example.com⸡_ and __⸠example.com⸡__ and _⸠example.com/a⸡_ and ⸠john_doe@example.com⸡ and ⸠_x@example.com⸡',
    'not _example.com and more_ (not closed right after the link), nor pam_unix.so_',
    // …or after sentence punctuation, by a `_` no letter or digit follows
    'but _⸠example.com⸡!_ and _⸠example.com⸡._ but not v=spf1 include:_spf.example.com,_dmarc.example.com nor _x.example.com._y',
    // …and one right after a `$` is the expansion of a variable
    'ssh $HOST.example.com and https://$HOST.example.com/x and RewriteRule "$1.css.br" and this.$refs.cri.search()',
    'but costs $5 at ⸠example.com⸡',
    // …and so is one right after the opener of a template or JSX expression
    'console.log(`${event.data.name} at ${this.data.id}`) and <td>{{row.name}}</td> and <View style={styles.menu}>',
    'but {⸠example.com⸡} and {⸠wombat.doc.ic.ac.uk⸡}, (⸠example.com⸡) and x=⸠example.com⸡ and $ ⸠example.com⸡',
    // …and one led by a receiver, `this.` or `self.`, unless its TLD is one of RFC 1591's generic seven
    'self.name = name and this.state.data and &self.data[i] and *this.show* and this.shop',
    'but ⸠self.com⸡ and ⸠this.org⸡ and ⸠thisx.shop⸡ and ⸠myself.shop⸡ and ⸠This.shop⸡',
  ]);
  // …and a domain right after a single `/` is a segment of a file path (deviation from UTS #58 §4.1 step 3)
  itMarks([
    'see /etc/letsencrypt/live/example.com/privkey.pem and docs/pipe.md#result and /var/www/example.com/index.html',
    'file "/etc/bind/db.example.com"; DocumentRoot /srv/www/www.example.org and src/Makefile.in',
    'but //⸠example.com/x⸡ and ⸠https://a.example/b⸡ and ⸠a.example.com/b.example.com⸡ and (⸠example.net⸡)/x.org',
    // …and so is one right after a `\\` (a Windows path), and a UNC path's server (a file share, no web site; found in
    // review: it linked `https://server.example.com`)
    'C:\\DOS\\COMMAND.COM and perl util\\mkfiles.pl and "{install}\\program\\soffice.com", and \\\\server.example.com\\share',
  ]);
});

describe('detect: P8 — a new scheme starts a new link', () => {
  itMarks([
    '⸠https://a.jp/日本⸡、⸠https://b.jp/東京⸡',
    '⸠https://a.example/x⸡,⸠https://b.example/y⸡',
    '⸠https://a.example/x⸡.⸠http://b.example/y⸡',
    '⸠https://a.example/x⸡;⸠ftp://b.example/y⸡',
    '⸠https://web.archive.org/web/2020/https://example.com/⸡ (no Soft run: one link)',
    // a name without a path too: the dot before the scheme is the sentence's (`f.org.http` was read as one name)
    '⸠f.org⸡.⸠http://y.example/⸡ ⸠www.debian.org⸡.⸠https://www.debian.org/x⸡ ⸠a@b.com⸡.⸠ftp://c.example/⸡',
    // …another host dot, and a host after a scheme (not a doubled scheme: the labels before it end in a TLD)
    '⸠f.org⸡。⸠http://y.example/⸡ ⸠http://f.org⸡.⸠http://y.example/⸡ ⸠http://a.f.org⸡。⸠https://y.example/⸡',
    // …or an IPv4 address before it
    '⸠http://1.2.3.4⸡.⸠http://y.example/⸡ but http://1.2.3.⸠http://y.example/⸡',
    // …but not a name without a TLD, nor a scheme without `//` (P8 is about `scheme://`), but for `mailto:`, whose
    // address starts a link as a scheme does
    'http://localhost.⸠http://y.example/⸡ and ⸠f.org⸡.⸠mailto:a@b.com⸡ and ⸠f.org⸡。⸠mailto:a@例え.jp⸡ but a.b.⸠mailto:x@y.org⸡ and f.org.mailto:/x',
  ]);
  it('toMarkdownSource of it reads back the same (it was not idempotent: found in review)', () => {
    for (const text of ['f.org.http://y.example/', 'f.org。http://y.example/', 'see http://f.org.http://y.example/ x', 'f.org.mailto:a@b.com', 'http://1.2.3.4.http://y.example/', 'see http://www.http://x.example/ ok']) {
      const once = toMarkdownSource(linkifyMarkdown(text));
      expect(toMarkdownSource(linkifyMarkdown(once)), text).to.equal(once);
    }
  });
});

describe('detect: P8 with P4 — Soft run, text of a script written without spaces, then a new scheme', () => {
  itMarks([
    // the link ends before the Soft run; the letters are text; the scheme glued to them starts a link (P4)
    '⸠https://ja.wikipedia.org/wiki/ゴッホ⸡。東京⸠https://例え.jp/a⸡',
    '⸠https://ja.wikipedia.org/wiki/東京⸡、詳しくは⸠https://example.jp/b⸡',
    '⸠https://zh.wikipedia.org/wiki/北京⸡。详见⸠https://例子.cn/a⸡',
    '⸠https://a.cn/路径⸡，链接⸠ftp://b.cn/x⸡',
    '⸠https://a.jp/?q=日本⸡！次は⸠https://b.jp/#c⸡',
    '⸠https://a.kr/경로⸡.링크⸠https://b.kr⸡',
    // the letters may have Soft punctuation of their script between them: the link ends at the first run
    '⸠https://a.jp/ゴッホ⸡。東京、大阪⸠https://b.jp⸡',
    '⸠https://a.jp/ゴッホ⸡。東京、大阪、⸠https://b.jp⸡',
    '⸠https://a.cn/路径⸡，北京，上海，广州⸠https://b.cn⸡',
    `⸠https://a.jp/東⸡${'、東'.repeat(200)}⸠https://b.jp⸡`,
    // ASCII Soft punctuation inside the path is the link's own (found in review)
    '⸠https://ja.wikipedia.org/wiki/Category:日本⸡,⸠https://b.jp⸡',
    '⸠https://a.jp/#!東京⸡,⸠https://b.jp⸡',
    // one link: no Soft run, no scheme after the letters, Latin letters in the run, a path separator
    '⸠https://a.jp/日本東京https://b.jp/x⸡',
    '⸠https://a.jp/?q=東京https://b.jp⸡',
    // (with `、`: a CJK full stop `。` in a path ends the link whatever follows, a deviation of its own)
    '⸠https://a.jp/日本、東京⸡',
    '⸠https://a.cn/北京，上海⸡',
    '⸠https://a.jp/日本、Tokyo東京https://b.jp/x⸡',
    '⸠https://a.jp/日本、東京www.example.jp⸡',
    '⸠https://a.jp/日本/東京https://b.jp/x⸡',
    '⸠https://a.jp/日本、東京・大阪https://b.jp⸡',
    `⸠https://a.jp/東${'、東'.repeat(200)}⸡`,
  ]);
});

describe('detect: P8 — a listed scheme glued to a TLD starts a new link (found comparing with the peers)', () => {
  itMarks([
    // `orghttp:` is no host and no port: the host ends at its TLD and the scheme starts the next link
    'see ⸠http://www.debian.org⸡⸠http://www.debian.org/doc/⸡ now',
    'Books <⸠http://www.example.com⸡⸠http://www.example.com/Stories⸡>',
    '⸠www.debian.org⸡⸠https://www.debian.org/doc/⸡',
    '⸠https://a.example.net⸡⸠ftp://b.example.net/x⸡',
    '⸠HTTP://WWW.EXAMPLE.COM⸡⸠HTTPS://EXAMPLE.COM/A⸡',
    // a doubled scheme: the URL meant is the second
    'Links: http://⸠http://www.example.org/products/furniture.htm⸡ x',
    'auf http://www.⸠http://www.sane-project.org/bugs.html⸡.',
    'página <http://⸠http://httpd.apache.org/download.cgi#A⸡> x',
    '[antd-style](https://⸠https://github.com/ant-design/antd-style⸡)',
    'HTTP://⸠HTTPS://EXAMPLE.COM/⸡',
    '⸠http://http⸡ and ⸠http://http:8080/⸡ (a host named like a scheme, without `//` after it)',
    // not a TLD before the scheme, no `//`, a scheme not listed, the scheme in the path: unchanged
    'seehttp://example.com',
    'x.seehttp://example.com',
    '⸠http://www.example.xyzzyhttp⸡://example.com/',
    '⸠http://www.example.comhttp:8080/⸡ (a port)',
    '⸠http://www.example.comfoo⸡://example.com/',
    '⸠https://www.orghttp.com/a⸡',
    '⸠https://a.jp/x/comhttps://b.jp/y⸡',
  ]);
});

describe('detect: a percent-encoded host is not linked, nor a domain inside `%XX` (deviation from UTS #58 §4.1)', () => {
  itMarks([
    // the host hides behind %XX (mail spam): nothing is linked, not `http://mbf`, not a name inside
    'Click http://mbf.%61%66%66%69%2e%63%6f%6d/fcard/ now',
    'Click http://%77%77%77%2E%65%78%61%6D%70%6C%65%2E%63%6F%6D/ now',
    'go http://w%77%77%2Eo%70%74%6F%72%69um.n%65t/remove.html now',
    'go http://%72.%6cycos.c%6fm|redir%25%36d%65gs.com%25%32f now',
    // …also after a first %XX that is no host character: `%40` (an `@`) before `%77%77%77%2E`
    'CLICK HERE <http://www.Remove_Me_777.com%40w%77%77%2E%74%65%72%72%61%2Ee%73/pe%72%73o/magno102/> and http://www.x.com%40w%77%77%2Eterra.es/a',
    // the tail of a %XX is no label: `40debian.org`, `2Fexample.com` are other hosts than the ones written
    'mail <⸠mailto:press%40debian.org⸡> or ⸠press@debian.org⸡ (the %40 after mailto: is an @, below)',
    'press%40debian.org and x%40example.com (no mailto: before them)',
    '?u=https%3A%2F%2Fexample.com%2Fx',
    // a %XX that is no host character ends the host as before; %XX in a path stays
    '⸠http://example.com⸡%20 and ⸠http://example.com⸡%2Fa and ⸠http://example.com⸡%20and%20more',
    '⸠https://example.com/a%20b%2Ec⸡',
    // a `%` not followed by two hex digits is prose; a non-ASCII octet's letters are a name (the percent hack, an AFS cell)
    '100%⸠example.com⸡ and 50%⸠www.example.com⸡',
    'joe%⸠barrera.org⸡ and "%⸠cambridge.redhat.com⸡:root.afs."',
    // …but a UTF-8 continuation octet after another %XX is the tail of a percent-encoded non-ASCII character
    "new URL('https://%CF%80.example.com/foo') and %C3%A9cole.fr and x%E2%82%AC.com",
  ]);
});

describe('detect: an email whose local part ends in a TLD (UTS #58 §5)', () => {
  itMarks([
    '⸠tim.one@comcast.net⸡',
    'mail ⸠first.name@example.com⸡ or ⸠a.de@b.com⸡ or ⸠James.Bond@UniversalExport.co.uk⸡',
    '⸠mailto:tim.one@comcast.net⸡',
    '⸠bounce-jm=jmason.org@returns.groups.yahoo.com⸡',
    // …or whose local part goes on after a name (RFC 5322 atext: the percent hack, a list suffix, SRS)
    '⸠fallingrock.net%david@fallingrock.net⸡ and ⸠evilgerald.com!-list@evilgerald.com⸡',
    'Return-Path: <⸠SRS0=aO/p=ON=bag.python.org=None@bounce2.pobox.com⸡>',
    // not a local part: nothing after `@`, a port, a path, a query
    '⸠example.com⸡@ now',
    '⸠x.com:80⸡@y',
    '⸠example.com/a@b⸡',
    '⸠medium.com/@user⸡ and ⸠example.com?a@b.org⸡ and ⸠example.com⸡!@ now',
  ]);
});

describe('detect: hosts', () => {
  itMarks([
    '⸠http://例え.テスト⸡ is linked after a scheme, 例え.テスト alone is not (no such TLD)',
    '⸠https://ｅｘａｍｐｌｅ．ｃｏｍ⸡',
    '⸠http://localhost⸡ ⸠http://intranet/x⸡',
    // RFC 3986 §3.2.3: an empty port, then a path (found in review: the host alone was linked)
    '(⸠ftp://netlib.att.com:/netlib/benchmark/whetstones.Z⸡) ⸠http://x.com:/⸡ but ⸠http://x.com⸡: and ⸠http://x.com⸡:x',
    '⸠http://example.com⸡。次へ',
    '⸠http://例え。テスト。jp/x⸡',
    '⸠普遍适用测试。我爱你⸡',
    '⸠example.Com⸡ (case-insensitive TLD)',
    '⸠example.com⸡を参照 ⸠https://example.com⸡を参照 ⸠https://www.example.co.jp⸡の記事',
    '詳しくは⸠example.jp⸡。 链接⸠example.cn/a⸡ ดูที่⸠example.co.th⸡',
    'a.comx and ⸠x.com/é⸡ and example.comé (a Latin letter glued to a TLD: not a TLD)',
    // the punctuation of text written with spaces is no host character (deviation from UTS #58 §4.1: UTS #46 NV8)
    'Sie können dann „⸠ftp.ipv6.debian.org⸡“ als and ‚⸠example.com⸡‘ and visit—⸠example.com⸡ and •⸠example.com⸡',
    '§⸠example.com⸡ ¿⸠example.com⸡? and see ⸠example.com⸡—and more, ⸠https://example.com⸡–or ⸠a@example.com⸡—b',
    'but ⸠l·l.cat⸡ (U+00B7, allowed in context by IDNA2008) and ⸠☃.net⸡ (a symbol, NV8) stay',
    // …in any script, and no math symbol, nor what UTS #46 maps to ASCII no label holds (`＂` → `"`, `／` → `/`)
    '请访问＂⸠example.com⸡＂。 〝⸠example.com⸡〟 ＊⸠example.com⸡＊ →⸠example.com⸡← ⸠example.com⸡〜⸠example.org⸡',
    '访问 ⸠example.com⸡／path and ⸠https://example.com⸡／a and x⑴⸠example.com⸡ and ⸠例え.jp⸡〃',
    'but ⸠ﾃｽﾄ･example.com⸡ (`･` maps to `・`, which IDNA2008 allows in context) and ⸠https://ｅｘａｍｐｌｅ．ｃｏｍ⸡ stay',
    // a hyphen (U+2010, U+2011) joins a word: no tail of it is linked
    'my‐site.com and x‑y.example.org and née‐example.fr, but ‐⸠example.com⸡',
    // two or more dots after a host are the sentence's (deviation from UTS #58 §4.1: the reference links nothing)
    '(snort, ⸠http://www.prelude-ids.org⸡...). and ⸠http://example.com⸡.. and ⸠ssh://git@example.com⸡... and ⸠http://例え.jp⸡...',
    '⸠http://example.com⸡. and ⸠http://example.com./x⸡ but not http://a..b.com or git://git..../proj.git (a host left out)',
  ]);
  it('gives schemeless links the default scheme', () => {
    expect(findLinks('example.com')[0]).to.include({ scheme: 'https', schemeInferred: true, uri: 'https://example.com' });
    expect(findLinks('example.com', { defaultScheme: 'http' })[0]).to.include({ scheme: 'http', uri: 'http://example.com' });
  });
});

describe('detect: a mailto: whose @ is percent-encoded (RFC 6068 §2)', () => {
  itMarks([
    'see ⸠mailto:x%40example.org⸡ now',
    'mail <⸠mailto:debian-l10n-xxxxx%40lists.debian.org⸡>',
    '(⸠mailto:press%40debian.org⸡).',
    'write to ⸠MAILTO:Press%40Debian.ORG⸡.',
    '⸠mailto:%22not%40me%22%40example.org⸡ (a quoted local part, encoded)',
    '⸠mailto:a%40example.org?subject=hi%20there⸡ then',
    '⸠mailto:jürgen%40example.de⸡ (an IRI: the local part as written)',
    '⸠mailto:a%40example.com⸡を参照',
    '⸠mailto:a%40example.org⸡。次へ',
    // no address: no %40, an empty or dotted local part, no TLD, a label running on, a non-ASCII domain
    'mailto:%20x mailto:.a%40example.org mailto:a.%40example.org mailto:a..b%40example.org',
    'mailto:%40example.org mailto:a%40example mailto:a%40example.coméx mailto:a%40-x.org',
    'mailto:a/b%40example.org mailto:a%40例え.jp',
  ]);
  it('keeps %40 in the uri and the iri (RFC 3987 §3.2: `@` is reserved)', () => {
    expect(findLinks('mailto:x%40example.org')[0]).to.include({
      kind: 'email',
      scheme: 'mailto',
      schemeInferred: false,
      uri: 'mailto:x%40example.org',
      iri: 'mailto:x%40example.org',
    });
    expect(findLinks('mailto:jürgen%40example.de')[0]).to.include({
      uri: 'mailto:j%C3%BCrgen%40example.de',
      iri: 'mailto:jürgen%40example.de',
    });
  });
  it('leaves the literal @ to the email rule', () => {
    expect(findLinks('mailto:a@example.org')[0]).to.include({ text: 'mailto:a@example.org', uri: 'mailto:a@example.org' });
  });
});

describe('detect: a version number glued to a name is no host (deviation from UTS #58 §4.1 step 4)', () => {
  itMarks([
    'X-Mailman-Version: 2.0.9-sf.net',
    'version 1.0.0-rc.1.com and 2.4.21-27.el.com',
    '2.0.9-sf.net/x then ⸠example.com⸡',
    // one label of digits before it (reverse DNS), more labels of digits, a letter first, an explicit scheme: hosts
    '⸠188.209-65-87.adsl-dyn.isp.belgacom.be⸡ and ⸠1.0-25.2.0.192.in-addr.arpa⸡',
    '⸠1.2.3.4.example.com⸡ ⸠v2.0.9-sf.net⸡ ⸠http://2.0.9-sf.net⸡ ⸠a@2.0.9-sf.net⸡',
  ]);
});

describe('detect: a tel: URI is a global number or has a phone-context (RFC 3966 §3)', () => {
  itMarks([
    'call ⸠tel:+1-201-555-0123⸡ now or ⸠TEL:+353-1-635-9760⸡',
    '⸠tel:+(1)-201-555-0123⸡ (visual separators before the first digit)',
    '⸠tel:7042;phone-context=example.com⸡ and ⸠tel:863-1234;phone-context=+1-914-555⸡',
    // a label before a phone number, not a URI: nothing is linked, not the first group of digits
    'Thema Ordi\nTel:27 83 6919246\nFax:852-27958189',
    'TEL:0031-623-787-971. and Tel:01 635 9760',
    'tel:10086 tel:+ tel:+-() tel:7042;context=x',
  ]);
});

describe('detect: the punctuation of a sentence without spaces after an ASCII link (deviation from UTS #58 §3.5.1)', () => {
  itMarks([
    '重启后，访问 ⸠http://localhost:8080/Test.html⸡，即可看到自己所做的组件。',
    '它位于 ⸠https://www.debian.org/doc⸡，包括了用户手册',
    '⸠http://packages.debian.org/amavis-postfix⸡、メールトランスポート',
    '请参见⸠https://lwn.net/Articles/689907/⸡；本文档包含',
    '下载地址：⸠http://www.tcpdump.org/⸡。先用',
    '⸠https://example.com/a?q=1#frag⸡！谢谢 and ⸠example.com/a⸡，谢谢',
    // after the host: the `。` is the sentence's, not a label separator, when the last label is an ASCII TLD
    '就像 ⸠https://www.debian.org⸡。你可以通过输入下列命令来阅读文档。',
    // unchanged: after a non-ASCII character (UTS #58 as is), before ASCII or a space, an IDN written with `。`
    '链接⸠https://example.cn/路径，谢谢⸡',
    '⸠https://example.com/a⸡，b ⸠https://example.com/a⸡， next ⸠http://ngrep.sourceforge.net/⸡，libpcap下载地址',
    '⸠https://ca.wikipedia.org/wiki/Col·legi⸡ ⸠https://example.com/(a)⸡ ⸠https://example.com/wiki/東京（都）⸡',
    '⸠https://git.kernel.org/？p=linux/kernel/git/next/linux-next.git⸡ (a `?` widened by a translation)',
    '⸠http://例え。テスト。jp/x⸡',
  ]);
});

describe('detect: a CJK full stop in the path after a host ends the link, whatever follows (deviation from UTS #58 §3.5.1)', () => {
  itMarks([
    '⸠https://ja.wikipedia.org/wiki/ゴッホ⸡。東京',
    '⸠https://zh.wikipedia.org/wiki/北京⸡。北京是中华人民共和国的首都。',
    // prose glued to a link ran on to the next space, sentences on (multilingual corpus, Debian's Japanese docs)
    '情報は⸠https://db.debian.org/にあります⸡。ここに情報を入力して、情報に変更があった際に',
    '⸠https://a.jp/東京⸡｡次 ⸠https://a.jp/a⸡。b ⸠普遍适用测试。我爱你/测试⸡。次',
    // unchanged: a query's or a text directive's text, an opaque path (a domain's dot there), a link the author
    // delimited, an IDN written with `。`, other punctuation
    '⸠https://a.example/?q=東京。大阪⸡ ⸠mailto:a@b.com?subject=你好。谢谢⸡',
    '⸠https://a.jp/x#:~:text=東京。大阪⸡ ⸠https://a.jp/x#東京⸡。大阪 (a fragment but a text directive ends before more such text)',
    '⸠xmpp:a@例え。jp⸡ ⸠sip:a@例え。jp⸡',
    '<⸠https://a.jp/東京。次⸡> "⸠https://a.jp/東京。次⸡"',
    '⸠http://例え。テスト。jp/x⸡ ⸠https://example.cn/路径，谢谢⸡',
  ]);
  it('the iri and formatUrl keep it percent-encoded, so that what they write is found whole', () => {
    const [link] = findLinks('<https://ja.wikipedia.org/wiki/モーニング娘。のメンバー>');
    expect(link!.iri).to.equal('https://ja.wikipedia.org/wiki/モーニング娘%E3%80%82のメンバー');
    expect(findLinks(`see ${link!.iri} now`).map((l) => l.text)).to.deep.equal([link!.iri]);
    expect(formatUrl('https://a.jp/一。二')).to.equal('https://a.jp/一%E3%80%82二');
    for (const kept of ['https://a.jp/x#:~:text=一。二', 'https://a.jp/?q=一。二', 'xmpp:a@例え。jp', 'mailto:a@例え。jp']) expect(formatUrl(kept)).to.equal(kept);
    expect(formatUrl('https://a.jp/x#一。二')).to.equal('https://a.jp/x#一%E3%80%82二');
    expect(findLinks('<https://a.jp/東京。次>')[0]!.iri).to.equal('https://a.jp/東京%E3%80%82次');
    // The host is no path: one that fails IDNA keeps its `。` as written, after ASCII too (found in review).
    const [odd] = findLinks('see https://a_b。例え。jp/x now');
    expect(odd!.iri).to.equal('https://a_b。例え。jp/x');
    expect(findLinks(`see ${odd!.iri} now`).map((l) => l.text)).to.deep.equal([odd!.iri]);
  });
});

describe('detect: a word of the sentence glued to an ASCII path ends the link (deviation from UTS #58 §3.5.1, glued.ts)', () => {
  itMarks([
    // after a file name's extension (multilingual corpus: Debian's and Apache's docs)
    '⸠https://ftp-master.debian.org/REJECT-FAQ.html⸡を参照してください',
    '⸠http://www.perl.com/CPAN/src/latest.tar.gz⸡处取得 ⸠https://a.example/b.PDF⸡의',
    '⸠http://httpd.apache.org/download.cgi⸡에서 ⸠https://qa.debian.org/developer.php⸡から利用できます',
    // …also after Soft punctuation, when it or the next character is not ASCII (found in review)
    '⸠https://example.com/page.html⸡،ثم ⸠https://example.com/page.html⸡।फिर ⸠https://example.com/page.html⸡,次 but ⸠https://example.com/a.html,b.html⸡',
    // a Korean particle (한글 맞춤법 Article 41: written attached to the word before it)
    '⸠http://www.apache.org/⸡에서 ⸠https://www.gnu.org/software/hurd⸡를 ⸠http://httpd.apache.org/⸡에서도.',
    '(⸠http://www.openssl.org/source/⸡에서) ⸠https://wiki.debian.org/ReleaseGoals/⸡에, ⸠http://a.example/x⸡은?',
    // unchanged: a title that goes on after a name (`.js` is no file extension here), a word that is not a
    // particle, a particle that goes on, one that is a word of its own right after `/`, a query or fragment,
    // an opaque path, a link the author delimited
    '⸠https://ja.wikipedia.org/wiki/Node.jsの歴史⸡ ⸠https://ja.wikipedia.org/wiki/IPアドレス⸡ ⸠https://ko.wikipedia.org/wiki/C언어⸡',
    '⸠https://ko.wikipedia.org/wiki/X의_역사⸡ ⸠https://a.example/x에서abc⸡ ⸠https://ko.wikipedia.org/wiki/은⸡ ⸠https://a.example/x/.html⸡',
    '⸠https://a.example/?q=a.html에서⸡ ⸠https://a.example/x#a.html을⸡ ⸠mailto:a@b.com?subject=x에서⸡',
    '<⸠https://a.example/a.html에서⸡> "⸠https://a.example/x를⸡"',
    // a particle before the Close of the link's own bracket stays; before one that closes nothing it ends the link
    '⸠https://a.example/(x에)⸡ (⸠https://a.example/x/⸡에서)',
    // found in review: a particle before an aside the link leaves out; four syllables; a particle that is also the end
    // of a name stays after a digit or `_` (street sections, degrees), as after a `/`
    '⸠https://a.example/x⸡를!（주） ⸠http://www.apache.org/⸡으로부터 ⸠https://a.example/hurd⸡가',
    '⸠https://ko.wikipedia.org/wiki/종로1가⸡ ⸠https://ko.wikipedia.org/wiki/북위_38도⸡ ⸠https://a.example/1인⸡',
    // colloquial particles (found in review)
    '⸠https://a.example/bar⸡랑 같이 ⸠https://a.example/x⸡이랑 ⸠https://a.example/y⸡하고',
  ]);
  it('the iri and formatUrl keep it percent-encoded, so that what they write is found whole', () => {
    for (const text of ['<https://a.example/a.html에서>', '"https://a.example/x으로"', '<https://a.example/x/를>', '<https://a.example/b.txtを参照>', '<https://a.example/b.html،ثم>', '<https://a.example/b.html,次>', '<https://a.example/a.html,،x>', '<https://a.example/a.html;«x»>']) {
      const [link] = findLinks(text);
      expect(link!.iri).to.not.equal(link!.text);
      expect(findLinks(`see ${link!.iri} now`).map((l) => l.text)).to.deep.equal([link!.iri]);
      const formatted = formatUrl(link!.uri);
      expect(findLinks(`see ${formatted} now`).map((l) => l.text)).to.deep.equal([formatted]);
    }
    expect(findLinks('<https://a.example/a.html에서>')[0]!.iri).to.equal('https://a.example/a.html%EC%97%90%EC%84%9C');
    // 으 encoded, the 로 after it is a particle after ASCII of its own
    expect(formatUrl('https://a.example/x%EC%9C%BC%EB%A1%9C')).to.equal('https://a.example/x%EC%9C%BC%EB%A1%9C');
    expect(formatUrl('https://a.example/Node.js%E3%81%AE')).to.equal('https://a.example/Node.jsの');
    for (const kept of ['https://a.example/x?q=a.html에서', 'https://ko.wikipedia.org/wiki/은']) expect(formatUrl(kept)).to.equal(kept);
  });
});

describe('detect: review — mailto with %40 (RFC 6068 §2)', () => {
  describe('`email: false` turns it off as it does mailto:a@b.com', () => {
    itMarks(['mailto:a@b.com mailto:a%40b.com mailto:a%40b.com,c%40d.com'], { email: false });
  });
  describe('`schemes` without mailto leaves it on, as for mailto:a@b.com (the email option decides)', () => {
    itMarks(['⸠mailto:a@b.com⸡ ⸠mailto:a%40b.com⸡ ⸠https://x.example⸡ ftp://x.example'], { schemes: ['https'], anyScheme: false });
  });
  describe('a literal @ after the %40 address: one address, whole (the domain rule)', () => {
    itMarks(['⸠mailto:a%40b.com@c.com⸡ and ⸠mailto:x%40example.org@example.net⸡.']);
  });
  describe('several addresses (to = addr-spec *("," addr-spec))', () => {
    itMarks([
      '⸠mailto:a%40b.com,c%40d.com⸡ ⸠mailto:a%40b.com,c@d.com⸡ ⸠mailto:a%40b.com,c%40d.com,e%40f.org?subject=x⸡',
      '⸠mailto:a%40b.com⸡, c and ⸠mailto:a%40b.com⸡,x%40nowhere',
    ]);
  });
  it('the iri shows an xn-- domain after %40 in Unicode, as after a literal @', () => {
    expect(findLinks('mailto:a%40xn--r8jz45g.jp')[0]).to.include({
      uri: 'mailto:a%40xn--r8jz45g.jp',
      iri: 'mailto:a%40例え.jp',
    });
    expect(findLinks('mailto:a@xn--r8jz45g.jp')[0]!.iri).to.equal('mailto:a@例え.jp');
  });
});

describe('detect: review — version numbers and hosts', () => {
  itMarks([
    // a dotted IPv4 address glued to a name (three labels of digits before `1-`), a non-ASCII TLD: hosts
    '⸠10.0.0.1-router.example.com⸡ ⸠1.2.3.4-deploy.sslip.io⸡ ⸠1.2.3-4.рф⸡',
    // x.y.z- with an ASCII name: a version
    'X-Mailman-Version: 2.0.9-sf.net and 1.0.0-foo.bar',
    // an IPv4 address masked with `x`, under the TLD `xxx` (found in review)
    'address xxx.xxx.xxx.xxx netmask 255.255.255.xxx, from 192.168.2.XXX or 6X.XXX.XXX.XXX [preauth]; 10.xxx.xxx.xxx/8',
    'but ⸠example.xxx⸡ ⸠x1.example.xxx⸡ ⸠xyz.xxx/a⸡ ⸠http://192.168.2.xxx/⸡',
  ]);
});

describe('detect: review — tel: (RFC 3966 §3) only when bare', () => {
  itMarks([
    // the author delimited it (<…>, <URL:…>, quotes, a Markdown destination): it stands, as in Markdown mode
    'call <⸠tel:911⸡> or href="⸠tel:10086⸡" or <URL:⸠tel:112⸡> or [me](⸠tel:911⸡)',
    // RFC 3986 Appendix C: wrapped in <…>; the name inside is no link of its own
    '<⸠tel:7042;phone-\n  context=example.com⸡>',
    // bare: the grammar decides — an empty or non-descriptor context, letters for digits, a context on a global number
    'tel:5551234;phone-context= x tel:hello;phone-context=+1 tel:5551234;phone-context=-x.com',
    'tel:+1-201-555-0123;phone-context=+1 tel:7042;phone-context=example.com;phone-context=example.org',
    'tel:+1;ext= tel:+1;isub= tel:+1;=x tel:12;phone-context=+',
    // valid: parameters, ext, isub, a domain or a global number as the context, hex and * in a local number
    '⸠tel:+1-201-555-0123;ext=22⸡ ⸠tel:+1-201-555-0123;isub=a1;x=y⸡ ⸠tel:*21;phone-context=+1⸡',
    '⸠tel:7042;phone-context=example.com⸡. ⸠tel:863-1234;phone-context=+1-914-555⸡ ⸠tel:0A12;Phone-Context=b.example⸡',
    '⸠tel:5551234;isub=1;phone-context=+1⸡ ⸠tel:7042;phone-context=例え.jp⸡ (an IDN in the IRI)',
    'tel:+1;phone-context=x tel:+1-201-555-0123x1234 tel:+4930123456,1234 tel:7042;phone-context=-例.jp',
  ]);
});

describe('detect: review — CJK punctuation', () => {
  itMarks([
    // `．` after an ASCII TLD ends the host as `。` and `｡` do
    'see ⸠https://www.debian.org⸡．你可以通过 and ⸠https://www.debian.org⸡｡你可以',
    // a delimited link (quotes, a Markdown destination, <…>) stands as written
    'href="⸠https://example.com/a，b⸡" [x](⸠https://example.com/a，b⸡) <⸠https://example.com/a、b⸡>',
    // a query's or fragment's text goes on (RFC 6068 hfields are text) unless a letter without spaces follows
    '⸠mailto:a@b.com?subject=Hi，there⸡ ⸠https://example.com/?q=a，b⸡ ⸠https://example.com/p⸡，b',
    '⸠https://example.com/?q=Python⸡，入门',
  ]);
});

describe('detect: a CJK or full-width opening bracket after an ASCII link (deviation from UTS #58 §3.5.1)', () => {
  itMarks([
    // real text (multilingual, markdown): the bracket pair is an aside of the sentence, glued to the link
    '至于这个设计的运作原理，请看 ⸠http://www.perl.com/CPAN⸡（最后头没有斜线）的说明。',
    'gittee 预览 demo 地址：⸠http://wangli66.gitee.io/vue3-leaflet/⸡（地址暂时无法访问）',
    '⸠https://example.com/docs⸡【公告】 ⸠https://example.com/a⸡「引用」と ⸠https://example.com/b⸡《书名》 ⸠example.com/c⸡［注］',
    '⸠https://en.wikipedia.org/wiki/Links_(web_browser)⸡（纯文本） ⸠https://example.com/a⸡（b）。 ⸠https://example.com/a⸡（b',
    // not closed before the link ends, or a separator inside it (which clears the bracket stack): left out
    '⸠https://example.com/a⸡（b c） ⸠https://example.com/a⸡（b/c）d ⸠https://example.com/a⸡（b）.',
    // the link goes on with ASCII after the pair: the pair is the link's, and one bracket after it may open an aside
    '⸠https://example.com/a【b】c⸡ ⸠https://example.com/v（1）/x⸡ ⸠https://example.com/a（b）c（d（e）f）g⸡ ⸠https://example.com/a（b）c⸡（d（e）f） ⸠https://example.com/a（b）c⸡（注）',
    // unchanged: the link's own bracket after a non-ASCII character (RFC 3987 §7.3), in a query or fragment, in a
    // link the author delimited, after the host (no path: the link ends there anyway), ASCII brackets
    '⸠https://ja.wikipedia.org/wiki/東京（都）⸡ ⸠https://example.com/路径【一】/x⸡',
    '⸠https://example.com/?q=a（b）⸡ ⸠https://example.com/#a（b）⸡ <⸠https://example.com/a（b）⸡> [x](⸠https://example.com/a（b）⸡)',
    '⸠https://example.com⸡（官网） ⸠https://example.com/a_(b)⸡',
  ]);
});

describe('detect: a `<` stays in a link only with its `>` (deviation from UTS #58 §3.5.1; RFC 3986 Appendix C)', () => {
  itMarks([
    // real text (en-mixed, mail): a placeholder with spaces, an arrow
    'all your branches here: `⸠https://github.com/⸡<Your GitHub handle>`',
    'pkg_add ⸠ftp://ftp.openbsd.org/pub/OpenBSD/4.2/packages/⸡<insert your architecture>/python',
    '---->>>>>⸠http://www.doubleplushosting.com/bizop2/⸡<<<-----',
    '⸠https://example.com/a⸡<b ⸠https://example.com/?q=a⸡<b ⸠https://example.com/#a⸡<b ⸠https://example.com/a⸡<b/c>',
    // unchanged: a placeholder closed in the link, nested or before more path; `</` ends it as before
    '⸠https://h.example/<org>⸡ ⸠https://h.example/<org>/<repo>⸡ ⸠https://h.example/<a<b>c>d⸡ ⸠http://x.cn/2021/<省>/<省>.html⸡',
    '<a href="x">⸠http://example.com/p⸡</a> ⸠https://example.com/a(b)⸡<c',
  ]);
});

describe('detect: a dotted IPv4 host glued to text of a script written without spaces (deviation from UTS #58 §4.1)', () => {
  itMarks([
    // real text (multilingual, markdown)
    '- 访问⸠http://127.0.0.1⸡服务时，不加jwt头，避免产生跨域问题',
    '⸠http://10.0.0.1⸡网关 ⸠http://192.168.1.1⸡にアクセス ⸠https://www.debian.org⸡服务时',
    // as after an ASCII TLD, the text after it may be a domain of its own
    '⸠http://1.2.3.4⸡⸠网关.cn⸡ ⸠http://example.com⸡⸠日本.jp⸡',
    // unchanged: not four dec-octets, a letter of a script written with spaces, a path (RFC 3987 §7.3)
    '⸠http://1.2.3.4.5网关⸡ ⸠http://1.2.3.256网关⸡ ⸠http://1.2.3.4é⸡ ⸠http://192.168.1.1:8080/a路由器⸡',
  ]);
});

describe('detect: an ASCII host without a dot glued to such text or to Hangul (deviation from UTS #58 §4.1)', () => {
  itMarks([
    // found in review: the reference reads one label (`xn--localhost-…`)
    '访问⸠http://localhost⸡即可 ⸠http://localhost⸡에서 확인 ⸠http://intranet⸡は ⸠http://localhost:8080⸡에서',
    // a host with a dot later is not cut (found in review)
    'see ⸠http://e家.cn⸡ now, ⸠http://pcデポ.jp/⸡ and ⸠http://sk텔레콤.kr⸡',
    // a Korean particle alone is no host (multilingual: "put http:// in front")
    '외부 링크 (http://를 앞에 붙여야 합니다) and http://에서 x and http://를. now',
    // unchanged: a letter of a script written with spaces, a host not in ASCII, a path
    '⸠http://münchen/x⸡ ⸠http://例え/x⸡ ⸠http://한국/x⸡ ⸠http://intranet/wiki/東京⸡',
  ]);
});
