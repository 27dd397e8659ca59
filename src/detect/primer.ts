// Performance: sample text the scanner links once per process, after its first 4 Mi code units (scanner.ts).
//
// V8 optimises a function for the paths its type feedback has seen; the first time the optimised code meets a path
// that never ran, it throws the code away ("insufficient type feedback") and compiles the function again later, with
// all it inlines. Over 200 MB of en-mixed the scanner met such paths 116 times, spread over the whole text (rare
// shapes: an IPv6 host, a percent-encoded host, a second `#`, …), and each cost about 12–15 ms of CPU: TurboFan's
// compile time alone came to 2.3 s, scan() compiled 17 times at about 26 ms, quickLink() 10 times at about 27 ms.
// Linking these samples gives those paths their feedback in one go, so that the functions are compiled again once.
//
// The samples are test examples of this project and lines written for the paths the corpora take and the tests
// missed, picked greedily by V8 block coverage (each adds blocks of the scanner that real text reaches). Measured,
// whole process, CPU ms, median of 5, en-mixed through createLinkStream (2-core Xeon): 200 MB −19 % (3.6 → 2.9 s),
// 50 MB −19 %, 20 MB −6 %; 5 and 10 MB +16 % and +11 % (about +70 ms: linking the samples cold and compiling again
// the code already optimised). A process that scans less than 4 Mi code units never links them. They hold IDNs, so
// linking them loads tr46.
//
// A sample may be any text; changing them changes no result (test/primer.test.ts), only which paths are warm.

/** The primer's samples (joined with line breaks into one text). */
export const PRIMER_SAMPLES: readonly string[] = [
  'https://ex\u00ADample.com https://example.com。jp/a https://pаypal.com/ https://gооgle.com https://αβγ.com https://例えexample.jp',
  'mailto:a/b@example.com mailto:a?b@example.com mailto:user@example.com?cc=x@y.org&subject=a%20b#frag mailto:a@b mailto:%E4%BD%A0@example.com',
  '<https://example.com/a<b>c> <https://example.com/a<b>> <https://example.com/a.<b> <https://example.com/a<b>.',
  'www.ヤフーjapan.co.jp and www.日本abc.jp and x.東京-abc.com and user@mail.日本abc.jp (a later label that begins with CJK text is a label)',
  '“see http://例え.jp/😀/é” or 𠮷@x.jp\n',
  'http://localhost:3000/api http://192.168.0.1/admin http://[::1]:8080/x http://[2001:db8::7]/c=GB?objectClass?one',
  'http://xn--4dbrk0ce.il/',
  'x-http://example.com 1http://example.com _http://a.com http2://example.com view-source:https://example.com/ web+app://x',
  'http://1.2.3.4.5网关 http://1.2.3.256网关 http://1.2.3.4é http://192.168.1.1:8080/a路由器',
  'https://ja.wikipedia.org/wiki/ゴッホ。東京https://例え.jp/a',
  'tel:+1-201-555-0123;ext=22 tel:+1-201-555-0123;isub=a1;x=y tel:*21;phone-context=+1',
  '>>> Color(1)\n<Color.RED: 1> and <example.com at home> and <tim.example.org at comcast.net>',
  'http://%65xample.com/ and http://ex%41mple.com/a and https://a%2eb.example/c and http://ex%zzample.com/',
  'mailto:a@b.com?subject=Hi，there https://example.com/?q=a，b https://example.com/p，b',
  'see <URL:http://www.example.com/a\n\t/b?c=d>',
  'https://en.wikipedia.org/wiki/Links_(web_browser)（纯文本） https://example.com/a（b）。 https://example.com/a（b',
  'https://xn--a.example/ https://a-.example.com/ https://ex_ample.com/ http://xn--ls8h.la/ https://-a.example.com/ https://xn--zz-.example/',
  '2.0.9-sf.net/x then example.com',
  'https://example.com/100%/a%zz%4 and https://example.com/%%41 and https://example.com/a%',
  'example.comhttps://example.org and www.example.orgftp://example.net/a and mail.example.commailto:a@b.com',
  'ｅｘａｍｐｌｅ。ｃｏｍ',
  'https://ехаmple.com/',
  'https://example.com/%c0%af/%ed%a0%80/%f4%90%80%80/%e0%80%80/%f0%80%80%80/%ff/%c3 and https://example.com/%e4%bd%20',
  'ftp://user:pass@ftp.example.com/x and https://user:pa%40ss@example.com/ and https://a@b@example.com/',
  'auf http://www.http://www.sane-project.org/bugs.html.',
  '这是www.example。com',
  'https://example.com/abc/שלום123/def https://مثال.example/path https://example.com/?q=שלום&r=abc#א1 https://example.com/a/مرحبا-abc/b',
  'href="https://example.com/a<b" [x](https://example.com/a<b) ‘https://example.com/a<b’',
  'write to MAILTO:Press%40Debian.ORG.',
  'http://[::ffff:1.2.3.4]/ http://[v1.fe80::a+en1]/ http://[1:2:3:4:5:6:7:8]/ http://[::1::2]/ http://[12345::]/ http://[fe80::1%25en0]/',
  'https://example.com/page#:~:text=hello%20world and https://example.com/a#b#c and https://example.com/@user/a@b',
  'in _example.com_ and __example.com__ (Markdown emphasis)',
  'but docs.example.md#a, www.x.md#a, x.md/page#a and example.com#x',
  'a..b@example.com .a@example.com a.@example.com a@-example.com a@example..com x@y.z \'quoted\'@example.com {a}@example.com',
  '詳しくはexample.jp。 链接example.cn/a ดูที่example.co.th',
  'https://example.com/a（b）(c)d https://example.com/a(（b）)c https://example.com/a（c）<b>',
  'urn:isbn:0451450523 magnet:?xt=urn:btih:c12fe1c06bba254a9dc9f519b335aa7c1367a88a',
  'but Example.Com and Sun.COM and WEB.DE and example.Com and abc.XN--11B4C3D',
  'but //example.com/x and https://a.example/b and a.example.com/b.example.com and (example.net)/x.org',
  'https://example.com/🎉/😀?q=👍#🔥',
  '使用kernel.org电子邮件帐户执行的任何活动必须遵循为kernel.org发布的行为',
  'https://example.com/\uE000 and https://example.com/?q=\uE000 and https://\uE000.example.com/',
  'foo.bar.baz() os.path.join this.state.value README.md setup.py index.html obj.method(arg) someObject.getValue MyClass.myMethod',
  'ws://example.com/socket wss://example.com/socket',
  'spotify://track/6rqhFgbbKwnb9MLmUQDhG6 git+ssh://example.com/x com.example.app://open/a',
  'see <example.com/a\n  /b>',
  'but https://example.com/a() and https://example.com/a(b) and https://example.com/<org> and https://example.com/a[1]',
  'https://a.jp/ゴッホ。東京、大阪https://b.jp',
  'https://ja.wikipedia.org/wiki/Category:日本,https://b.jp',
  'Books <http://www.example.comhttp://www.example.com/Stories>',
  'http://www.example.xyzzyhttp://example.com/',
  'tim.one@comcast.net',
  'http://packages.debian.org/amavis-postfix、メールトランスポート',
  '请访问 example.com。谢谢',
  '{"ts":"2026-03-14T09:26:53Z","url":"https://api.example.com/v1/items?id=42","status":200,"ref":"https://例え.jp/商品?q=テスト"}',
  'https://ex.example/p\uFFFD',
  'http://example.com/a https://example.com/b HTTPS://EXAMPLE.COM/C',
  'http:example.com/x (http: without // is not the scheme of the domain)',
  'not across another < <http://example.com/a <b>',
  'with a scheme, as before: <https://example.com/a\n  /b> and <https://example.com\n>',
  '<a href="http://example.com/p">http://example.com/p</a>',
  'but notion.so, www.notion.so and a.example.so (`so` is left out: shared objects are mostly `pam_unix.so`)',
  'https://example.com/a%20b%2Ec',
  'http://example.com。次へ',
  'mailto:jürgen%40example.de (an IRI: the local part as written)',
  '188.209-65-87.adsl-dyn.isp.belgacom.be and 1.0-25.2.0.192.in-addr.arpa',
  '- 访问http://127.0.0.1服务时，不加jwt头，避免产生跨域问题',
  '詳しくはこちら。example.comを参照',
  '将补丁发送到stable@vger.kernel.org メールはinfo@example.jpまで',
  'http://a..b/',
  'go to gооgle.com today',
  'news:comp.lang.javascript sip:alice@example.com data:text/plain,hi tel:+1-201-555-0123 geo:37.786971,-122.399677 urn:ietf:rfc:3986',
  'http://example.com:/a http://example.com:99999/ http://example.com.:80/ http://example.com./a www.example.com:8080/path example.com:443',
];
