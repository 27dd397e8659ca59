// Links in the world's scripts, the trailing punctuation of each, brackets of each kind, and what is not a link.
// Marker style (⸠…⸡), each case bare, in a sentence and between newlines.
import { itMarks } from './detect-support.js';

describe('detect: scripts', () => {
  itMarks([
    // CJK, kana, Korean
    '⸠https://ja.wikipedia.org/wiki/フィンセント・ファン・ゴッホ⸡',
    '⸠https://zh.wikipedia.org/wiki/中华人民共和国⸡',
    '⸠https://ko.wikipedia.org/wiki/위키백과:대문⸡',
    '⸠https://例え.jp/パス⸡',
    '⸠普遍適用測試.台灣⸡',
    // Arabic, Hebrew, Persian with ZWNJ
    '⸠https://ar.wikipedia.org/wiki/الصفحة_الرئيسية⸡',
    '⸠https://مثال.إختبار/مسار⸡',
    '⸠https://he.wikipedia.org/wiki/עמוד_ראשי⸡',
    '⸠מבחן-קבלה-אוניברסלי.קום⸡',
    '⸠https://fa.wikipedia.org/wiki/ویکی\u200Cپدیا:صفحه_اصلی⸡',
    // Cyrillic, Greek, Devanagari, Thai
    '⸠https://ru.wikipedia.org/wiki/Заглавная_страница⸡',
    '⸠универсальное-принятие-тест.москва⸡',
    '⸠https://el.wikipedia.org/wiki/Πύλη:Κύρια⸡',
    '⸠καθολική-αποδοχή-δοκιμή.ευ⸡',
    '⸠https://hi.wikipedia.org/wiki/मुखपृष्ठ⸡',
    '⸠सार्वभौमिक-स्वीकृति-परीक्षण.संगठन⸡',
    '⸠https://th.wikipedia.org/wiki/หน้าหลัก⸡',
    '⸠ยูเอทดสอบ.ไทย⸡',
    // emoji paths, full-width hosts
    '⸠https://example.com/🎉/😀?q=👍#🔥⸡',
    '⸠https://ｅｘａｍｐｌｅ．ｃｏｍ/ｐａｔｈ⸡',
  ]);
});

describe('detect: a CJK full stop before an ASCII word is the end of a sentence, not a host dot', () => {
  itMarks([
    // no link: the word after `。` is a TLD, but the stop follows a Japanese or Chinese sentence
    'にも影響を与えます。man ページ',
    '使用します。Windows では',
    'ありません。Windows レジストリ',
    'です。LV は VG の中',
    '取决于许可证条款或者厂商和软件包作者的私下约定。CD 厂商',
    '浏览器渲染完成后设置参数。new SliderBar',
    '克。PS 这菜',
    '直接忽略下面语句。而进行下一行匹配。next 语句',
    '例え。jp (an IDN under an ASCII TLD written with a CJK stop)',
    '東京。大阪。jp',
    // no link: the word before the stop is ASCII glued to the sentence (found in the multilingual corpus)
    '我用的是Mac。It works',
    '将大写I全部替换成小写i。vi 编辑器',
    '范围是从a到z和从A到Z。at 的缺省队列',
    '这是Vue-3。io 的文档',
    // the domain starts after the stop
    '詳しくはこちら。⸠example.com⸡を参照',
    '下载地址。⸠example.cn/download⸡',
    '説明です．⸠example.com⸡',
    '説明です｡⸠example.com⸡',
    '東京。⸠大阪.jp⸡',
    // unchanged: a non-ASCII TLD, a dot, a scheme, ASCII before the stop
    '⸠普遍适用测试。我爱你⸡',
    '⸠普遍適用測試。台灣⸡',
    '⸠ｅｘａｍｐｌｅ。ｃｏｍ⸡',
    '⸠例え.jp⸡',
    '⸠http://例え。jp/a⸡',
    '⸠example。com⸡',
    '访问 ⸠google。com⸡ 看看',
    '（⸠example。com⸡）',
    '这是⸠www.example。com⸡',
    // a stop after the TLD, before CJK text: the sentence ends there (found in the multilingual corpus)
    '请访问 ⸠example.com⸡。谢谢',
    '请发送至 ⸠bug-sed@gnu.org⸡。另外',
    '访问 ⸠www.debian.org⸡｡你可以',
    '⸠https://www.debian.org⸡。你可以',
    // a middle dot ends a host but between two `l` (RFC 5892 A.3): the Greek ano teleia, which NFC writes U+00B7
    'Είδατε το ⸠παράδειγμα.ελ⸡· μετά, ⸠https://παράδειγμα.ελ⸡· μετά, ⸠www.παράδειγμα.ελ⸡· but ⸠https://col·legi.cat/⸡ ⸠col·legi.cat⸡',
    // …and a host that goes on past it, or a name glued after it, is not known: nothing of it (found in review)
    'see http://a·l.com now, x·example.com, ·example.com, https://x·y.example/ and ⸠παράδειγμα.ελ⸡·x.com',
    // …after a TLD not in ASCII too (found in review: the name was lost)
    '详见 ⸠例子.中国⸡。然后 ⸠www.例子.中国⸡。然后 联系 ⸠用户@例子.中国⸡。然后 参见 ⸠例え.みんな⸡。次に ⸠https://例子.中国⸡。然后',
    // …but a TLD after it makes it a host dot (`.公司.香港` is a second level of `.香港`; found in review)
    '见 ⸠例子.公司。香港⸡ 网站 and ⸠例子。中国。香港⸡',
  ]);
});

describe('detect: an ASCII TLD glued to a long run of text written without spaces', () => {
  itMarks([
    '使用⸠kernel.org⸡电子邮件帐户执行的任何活动必须遵循为⸠kernel.org⸡发布的行为',
    '⸠bugzilla.kernel.org⸡是Linux内核开发者们用来跟踪内核相关的问题的系统',
    '⸠example.com⸡を参照してくださいこれは長い日本語の文章ですが途中に区切りがありません',
    'example.comxを参照してくださいこれは長い日本語の文章ですが途中に区切りがありません',
    'example.abcdefghijklmnopqrstuvwxyzabcdefghij',
  ]);
});

describe('detect: ASCII names glued after text written without spaces (found in the multilingual corpus)', () => {
  itMarks([
    '详情见⸠example.jp⸡ 詳しくは⸠example.jp⸡を参照',
    '产生⸠quota.org⸡文件 (the Chinese text and the ASCII word before it are no label of the domain)',
    '将补丁发送到⸠stable@vger.kernel.org⸡ メールは⸠info@example.jp⸡まで',
    // Tai Viet and Ahom are written without spaces too (found in review)
    'ꪀꪀ⸠example.com⸡ꪀꪀ 𑜀𑜀⸠example.com⸡𑜀𑜀',
    // …and after the mark such a script separates words with: `・`, the Tibetan tsheg (found in review)
    '連絡先・⸠user@example.jp⸡ ・⸠www.example.jp⸡ ལྟོས་⸠www.example.cn⸡། but ⸠ウィキ・ペディア.jp⸡',
    '⸠東京.example.com⸡ and ⸠用户@例子.中国⸡ (the CJK text is a label or a whole local part of its own)',
    // …and after Hebrew's one-letter prefixes and their hyphen (found in review: `mailto:%D7%9C-dana@…`); a word stays
    'כתבו ל-⸠dana@example.co.il⸡ היום, היכנסו ל-⸠www.example.co.il⸡ ובל-⸠example.com⸡ but ⸠שלום-a@example.com⸡ ⸠x-ray@example.com⸡',
    // …and after a symbol or an emoji (found in review: `👉example.com` linked `xn--example-ut94f.com`)
    'bio 👉⸠example.com/signup⸡ Visit🌐⸠example.org⸡ ©⸠acme.com⸡ ACME™⸠acme.com⸡ ✉️⸠jane@example.com⸡ €⸠example.com⸡',
    '⸠☃.net⸡ and ⸠i❤.ws⸡ (a label of its own, or after ASCII, stays)',
    // …whatever script the name is written in, and a keycap too (found in review)
    '👉⸠例え.jp⸡ ©⸠www.bücher.de⸡ 👉⸠www.例え.jp⸡ 1️⃣⸠example.com⸡ 👉⸠mañana.com⸡',
    '⸠www.ヤフーjapan.co.jp⸡ and ⸠www.日本abc.jp⸡ and ⸠x.東京-abc.com⸡ and ⸠user@mail.日本abc.jp⸡ (a later label that begins with CJK text is a label)',
    'tNIS服务器的名字.它从⸠auto.net⸡ (after more CJK text the dot was a full stop)',
    '都被认作"UNKNOWN".如果出现错误就给⸠samba-bugs@samba.org⸡发一个',
  ]);
});

describe('detect: trailing punctuation of each script', () => {
  itMarks([
    '⸠https://example.jp/パス⸡。',
    '⸠https://example.jp/パス⸡、',
    '⸠https://example.jp/パス⸡！',
    '⸠https://example.jp/パス⸡？',
    '⸠https://example.cn/路径⸡，',
    '⸠https://example.cn/路径⸡：',
    '⸠https://example.cn/路径⸡；',
    '「⸠https://example.jp/a⸡」',
    '『⸠https://example.jp/a⸡』',
    '« ⸠https://example.fr/a⸡ »',
    '‘⸠https://example.com/a⸡’',
    '“⸠https://example.com/a⸡”',
    '⸠https://example.com/مسار⸡،',
    '⸠https://example.com/مسار⸡؟',
    '⸠https://example.com/مسیر⸡۔',
    '⸠https://example.in/पथ⸡।',
    '⸠https://example.in/पथ⸡॥',
    '⸠https://example.et/መንገድ⸡።',
    '⸠https://example.com/a⸡...',
    '⸠https://example.com/a⸡?!',
    '⸠https://example.com/a⸡\'',
    '⸠example.com/a⸡:',
  ]);
});

describe('detect: brackets', () => {
  itMarks([
    '(⸠https://example.com/a⸡)',
    '[⸠https://example.com/a⸡]',
    '{⸠https://example.com/a⸡}',
    '<⸠https://example.com/a⸡>',
    '⸠https://en.wikipedia.org/wiki/Foo_(bar)⸡',
    '(see ⸠https://en.wikipedia.org/wiki/Foo_(bar)⸡)',
    '⸠https://example.com/a[1]b⸡',
    '⸠https://example.com/a⸡[1]',
    '⸠https://example.com/a{1}⸡',
    '（⸠https://example.jp/パス⸡）',
    '【⸠https://example.jp/パス⸡】',
    '〔⸠https://example.jp/パス⸡〕',
    '《⸠https://example.cn/路径⸡》',
    '〈⸠https://example.cn/路径⸡〉',
    '［⸠https://example.jp/a⸡］',
    // a pair after an ASCII character is the link's when ASCII of the link follows it; otherwise an aside of the
    // sentence (deviation from UTS #58 §3.5.1, test/detect-policy.test.ts), as after a non-ASCII character it is not
    '⸠https://example.jp/a⸡（b） ⸠https://example.jp/a【b】c⸡ ⸠https://example.jp/パ（b）⸡',
    '⸠https://example.com/a(b⸡]',
    '⸠https://example.com/a(b)⸡)',
  ]);
});

describe('detect: not links', () => {
  itMarks([
    'seehttp://example.com',
    'README.md setup.py main.rs notes.zip',
    'name@ and @name and name@host',
    '.com alone, and .fr too',
    'example.invalid and example.example and example.localhost',
    'example.😎 and @example.😎',
    'john..smith@example.com',
    'john.@example.com and .john@example.com',
    'http://-foo.example-.com and http://foo..example.com',
    'a.b.c.d e.f g.h',
    'version 1.2.3 and 3.14',
    'time 12:34:56 and ratio 1:2',
  ]);
});
