// Links in logs: realistic JSON-lines, key=value, Apache/nginx and syslog lines, with the plain detector and
// with the log rules (src/logs/view.ts); the hand-checked corpora/samples/log.txt; and the stream's
// `--links` JSON Lines (line numbers, byteStart/byteEnd) over a log split at every byte.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { parseLinksTsv } from '../bench/lib/links-tsv.js';
import { samplesDir } from '../bench/lib/paths.js';
import { findLinks } from '../src/detect/index.js';
import { createLogLinkStream, findLogLinks, linkifyLogLine, logView, LogLineLinker } from '../src/logs/index.js';
import iconv from 'iconv-lite';
import { toJsonl } from '../src/render/index.js';
import { createLinkStream } from '../src/stream/transform.js';
import type { Chunk, Link } from '../src/types.js';

/** `line` with ⸠ ⸡ around each link. */
function marked(line: string, links: readonly Link[]): string {
  let out = '';
  let at = 0;
  for (const l of links) {
    expect(line.slice(l.start, l.end)).to.equal(l.text);
    out += line.slice(at, l.start) + '⸠' + l.text + '⸡';
    at = l.end;
  }
  return out + line.slice(at);
}
const plain = (line: string): string => marked(line, findLinks(line));
const logs = (line: string): string => marked(line, findLogLinks(line));
/** Strips the markers: the expectation must be the line itself. */
const unmark = (s: string): string => s.replace(/[⸠⸡]/g, '');

/**
 * Checks `expected` (a marked line) with the log rules, bare and with text around it (the rules must not
 * depend on where the line sits), and returns the links.
 */
function expectLog(expected: string): Link[] {
  const line = unmark(expected);
  expect(logs(line)).to.equal(expected);
  expect(logs('  ' + line + '  ')).to.equal('  ' + expected + '  ');
  return findLogLinks(line);
}

/** The same links through the long-line scanner (src/logs/long.ts), the line's bytes written `step` at a time. */
function expectLongLine(expected: string, steps: number[]): void {
  const line = unmark(expected);
  const bytes = Buffer.from(line);
  for (const step of [...steps, bytes.length]) {
    const scanner = new LogLineLinker().longLine(undefined);
    const long = [];
    for (let i = 0; i < bytes.length; i += step) long.push(...scanner.write(bytes.subarray(i, i + step)));
    long.push(...scanner.end());
    expect(marked(line, long.map((l) => l.link)), `long line, ${step}-byte writes`).to.equal(expected);
  }
}

describe('logs: what the plain detector already gets right', () => {
  it('JSON lines: P6 ends a link that starts right after `"` at the closing `"`', () => {
    const expected =
      '{"ts":"2026-03-14T09:26:53Z","url":"⸠https://api.example.com/v1/items?id=42⸡","status":200,"ref":"⸠https://例え.jp/商品?q=テスト⸡"}';
    expect(plain(unmark(expected))).to.equal(expected);
    expectLog(expected);
  });

  it('key=value: unquoted and quoted values', () => {
    const expected = 'ts=2026-03-14T09:27:07Z level=warn url=⸠https://x.example/a?b=c⸡ status=200 referer="⸠https://ref.example/p?q=1⸡" path=/index.html';
    expect(plain(unmark(expected))).to.equal(expected);
    expectLog(expected);
  });

  it('Apache combined: the request path is not a link, the Referer and the bot URL in the user agent are', () => {
    const expected =
      '66.249.66.1 - - [14/Mar/2026:09:27:01 +0000] "GET /wiki/東京?x=1 HTTP/1.1" 200 5120 "⸠https://www.example.org/search?q=irilink&lang=ja⸡" ' +
      '"Mozilla/5.0 (compatible; Googlebot/2.1; +⸠http://www.google.com/bot.html⸡)"';
    expect(plain(unmark(expected))).to.equal(expected);
    expectLog(expected);
  });

  it('Apache combined: a forward proxy logs the absolute URL (RFC 9112 §3.2.2 absolute-form), which is a link', () => {
    expectLog('203.0.113.9 - bob [14/Mar/2026:09:27:03 +0000] "GET ⸠http://proxy.example.net/a⸡ HTTP/1.1" 200 12 "-" "Wget/1.21"');
  });

  it('nginx error log: upstream, host and referrer', () => {
    expectLog(
      '2026/03/14 09:27:05 [error] 812#812: *9 upstream timed out, client: 192.0.2.1, server: ⸠example.com⸡, request: "GET /api HTTP/1.1", ' +
        'upstream: "⸠http://127.0.0.1:8080/api⸡", host: "⸠example.com⸡", referrer: "⸠https://example.com/start⸡"',
    );
  });

  it('syslog (RFC 3164 and RFC 5424 lines)', () => {
    expectLog('Mar 14 09:27:05 web01 postfix/smtp[2211]: 4F2A31C0: to=<⸠alice@example.com⸡>, relay=⸠mx.example.com⸡[198.51.100.25]:25, status=sent');
    expectLog('<165>1 2026-03-14T09:27:10Z host app - - [exampleSDID@32473 iut="3" eventSource="Application"] see ⸠https://status.example.com/⸡');
  });
});

describe('logs: the log rules', () => {
  it('JSON: a link in the middle of a string value ends at the closing quote', () => {
    const expected = '{"msg":"see ⸠https://example.com/docs⸡.","nested":{"href":"⸠http://例え.jp/パス⸡"}}';
    // The plain detector ends there too here: `,"` starts the next field (terminate.ts; P6 covers only a link right
    // after the quote).
    expect(plain(unmark(expected))).to.equal(expected);
    expectLog(expected);
  });

  it('JSON: escaped slashes (`\\/`) and \\u escapes are unescaped for the uri, the text stays as written', () => {
    const links = expectLog(String.raw`{"url":"⸠https:\/\/example.com\/a\/b?c=d⸡","ref":"⸠https://\u4f8b\u3048.jp/\u30d1\u30b9⸡","n":1}`);
    expect(links.map((l) => l.uri)).to.deep.equal(['https://example.com/a/b?c=d', 'https://xn--r8jz45g.jp/%E3%83%91%E3%82%B9']);
    expect(links[1]!.iri).to.equal('https://例え.jp/パス');
  });

  it('JSON after a timestamp and a level (from the first `{"` on)', () => {
    const links = expectLog(String.raw`2026-03-14T09:26:53.589Z INFO request {"url":"⸠https:\/\/api.example.com\/v1?id=42⸡","ok":true}`);
    expect(links[0]!.uri).to.equal('https://api.example.com/v1?id=42');
    // Before the `{"` the log view unescapes nothing; the detector reads a URL whose `//` is `\/\/` itself.
    expectLog(String.raw`pre ⸠https:\/\/example.com\/a⸡ {"a":1}`);
  });

  it('JSON: a \\" inside a value is a delimiter, a \\n a line break; a surrogate pair escape is one character', () => {
    expectLog(String.raw`{"msg":"he said \"⸠https://example.org/q⸡\" then\n⸠www.example.net⸡"}`);
    const links = expectLog(String.raw`{"u":"⸠https://example.org/\ud83d\ude00⸡"}`);
    expect(links[0]!.uri).to.equal('https://example.org/%F0%9F%98%80');
  });

  it('a `\\"` (Apache, logfmt, RFC 5424 SD-PARAM; also a logfmt line in a JSON string) ends a link before its `\\`, on short and long lines', () => {
    const cases = [
      '203.0.113.5 - - [10/Oct/2025:13:55:36 +0000] "GET / HTTP/1.1" 200 612 "⸠http://example.com/a⸡\\"b" "curl/8.0"',
      'ts=2025-10-10T13:55:36Z level=error err="Get \\"⸠https://example.com/metrics⸡\\": dial tcp: lookup ⸠example.com⸡: no such host"',
      '<165>1 2025-10-10T13:55:36Z host app - - [ex@32473 note="see \\"⸠https://example.net/q⸡\\""] msg',
      // A logrus line in a Docker json-file log: the `\\\"` of the JSON string is the logfmt value's `\"`.
      '{"log":"level=error msg=\\"Get \\\\\\"⸠https://example.com/metrics⸡\\\\\\": i/o timeout\\"\\n","stream":"stderr"}',
    ];
    for (const expected of cases) {
      const links = expectLog(expected);
      expect(links.map((l) => l.uri).join(' ')).to.not.contain('%5C');
      expectLongLine(expected, [1, 5]);
    }
    // A `\` elsewhere is left to the detector (a Windows path, a backslash inside a link).
    expectLog('see ⸠https://example.com/a\\b⸡ and C:\\sites\\x');
  });

  it('key=: the key is not part of an email, also after a comma-space', () => {
    const expected = 'Apr 23 21:59:01 dns2 imapd: LOGIN FAILED, user=⸠sales@example.com⸡, ip=[::ffff:1.2.3.4]';
    expect(plain(unmark(expected))).to.contain('user=⸠sales@example.com⸡'); // plain detection reads the key too now
    expectLog(expected);
    expectLog('2013-06-10 18:33:32 [10099] H=(⸠yakult.com.tw⸡) [202.132.70.178]:3755 F=⸠menacedsj04@listserv.example.org⸡ rejected');
  });

  it('key=: after a bracket that opens a token too (Java Map.toString), but not inside a URL (OData keys)', () => {
    expectLog('params {email=⸠bob@example.com⸡, name=Bob}');
    expectLog('[user=⸠bob@example.com⸡] 535 Incorrect authentication data (set_id=⸠eve@example.org⸡)'); // exim
    expectLog('{"msg":"{email=⸠bob@example.com⸡}"}');
    expectLog('GET ⸠https://services.example.com/V4/Products(ProductID=1)⸡ and ⸠https://example.com/a[id=2]/b⸡');
  });

  it('key=: a dotted key whose last label is a TLD is no host (`mail.to=`, `app.kubernetes.io=`), on short and long lines', () => {
    const cases = [
      'level=info mail.to=⸠bob@example.com⸡ app.kubernetes.io=api msg=sent',
      '{"msg":"x"} [mail.to=⸠bob@example.com⸡]',
      // At a token start a name is a key wherever it could be a host; an `=` without a value is no key's.
      'a example.com=1 (mail.to=ok) see ⸠example.org⸡= or ⸠example.net⸡==x',
    ];
    expect(plain(unmark(cases[0]!))).to.contain('⸠app.kubernetes.io⸡');
    for (const expected of cases) {
      expectLog(expected);
      expectLongLine(expected, [1, 3]);
    }
  });

  it('key=: `=` inside a URL query is untouched', () => {
    expectLog('from=⸠https://example.com/login;jsessionid=AB12?a=b&c==d⸡ ok=1');
  });

  it('`|` separates fields (Drupal watchdog via syslog)', () => {
    const expected =
      'Apr 26 13:19:08 webserver ⸠example.com⸡: ⸠https://example.com⸡|1430068748|user|1.2.3.4|⸠https://example.com/user⸡|⸠https://example.com/user⸡|1||Session opened';
    // (The plain detector ends a path at `|` too, terminate.ts.)
    expect(plain(unmark(expected))).to.equal(expected);
    expectLog(expected);
  });

  it('a schemeless name right after `/` or `\\` is a path segment', () => {
    // After a single `/` or any `\` the detector itself leaves it (a path segment or a UNC path's server,
    // src/detect/domains.ts).
    const expected = '2.5.2.5 - tomcat [12/Dec/2014:22:59:02 +0100] "GET /cgi-bin/tools/tools.pl HTTP/1.1" 404 162 "-" "-" "-"';
    expect(plain(expected)).to.equal(expected);
    expectLog(expected);
    const windows = '"GET /openhab.app?sitemap=default HTTP/1.1" 200 92 from C:\\sites\\example.com\\x and ⸠example.com⸡';
    expect(plain(unmark(windows))).to.equal(windows);
    expectLog(windows);
    const unc = '"GET /openhab.app?sitemap=default HTTP/1.1" 200 92 from \\\\fileserver.example.com\\x and ⸠example.com⸡';
    expect(plain(unmark(unc))).to.equal(unc);
    expectLog(unc);
    // With a scheme it is a link wherever it stands.
    expectLog('failure/usr/lib/⸠https://example.com/x⸡');
  });

  it('`<facility.severity>` of BSD syslog is not a domain; other names in <> are', () => {
    const expected = 'Mar 19 23:50:03 <auth.info> pancake sshd[55604]: Invalid user from <⸠host.info⸡>';
    // (Plain text reads `auth.info` as a selector too: P7's syslog facilities.)
    expect(plain(unmark(expected))).to.equal(expected);
    expectLog(expected);
    expectLog('<local7.warning> <mail.err> <⸠auth.example.com⸡>');
  });

  it('logRules: false is the plain detector', () => {
    const line = 'user=sales@example.com "GET /tools.pl HTTP/1.1"';
    expect(marked(line, findLogLinks(line, { logRules: false }))).to.equal(plain(line));
    expect(() => findLogLinks(line, { logRules: 'yes' as unknown as boolean })).to.throw(TypeError);
    expect(() => new LogLineLinker({ schemez: [] } as object)).to.throw(TypeError);
  });

  it('logView: same length except for JSON escapes; quotes and pipes become U+0000', () => {
    expect(logView('a "b" c|d x=1').text).to.equal('a \0b\0 c\0d x 1');
    expect(logView('a "b" c|d x=1').map).to.equal(null);
    const v = logView(String.raw`{"a":"\/x"}`);
    expect(v.text).to.equal('{\0a\0:\0/x\0}');
    expect([...v.map!]).to.deep.equal([0, 1, 2, 3, 4, 5, 6, 8, 9, 10, 11]);
  });

  it('linkifyLogLine: chunks cover the line exactly', () => {
    const line = String.raw`{"u":"https:\/\/a.example\/b","v":"x"}`;
    const chunks = linkifyLogLine(line);
    expect(chunks.map((c) => c.text).join('')).to.equal(line);
    expect(chunks.filter((c) => c.type === 'link').map((c) => c.text)).to.deep.equal([String.raw`https:\/\/a.example\/b`]);
  });
});

describe('logs: bidi-embedded on short lines, as linkify() gives it (UAX #9 X1–X8)', () => {
  const RLO = '\u202E';
  const PDF = '\u202C';
  const flags = (line: string, options?: { logRules?: boolean }): string[][] => findLogLinks(line, options).map((l) => l.diagnostics);

  it('a link after an override left open on the line is flagged, with and without the log rules', () => {
    for (const logRules of [true, false]) {
      expect(flags(`msg="${RLO}x https://evil.example/moc.elgoog" url=https://b.example/`, { logRules })).to.deep.equal([['bidi-embedded'], ['bidi-embedded']]);
      expect(findLogLinks(`${RLO}x https://evil.example/a`, { logRules }).map((l) => l.diagnostics)).to.deep.equal(
        findLinks(`${RLO}x https://evil.example/a`).map((l) => l.diagnostics),
      );
    }
  });

  it('closed by PDF before the link, or no opener: not flagged', () => {
    expect(flags(`${RLO}x${PDF} see https://a.example/`)).to.deep.equal([[]]);
    expect(flags('see https://a.example/ and https://b.example/')).to.deep.equal([[], []]);
  });

  it('linkifyLogLine and LogLineLinker give the same flag', () => {
    const line = `user=${RLO}bob email=alice@example.com`;
    const link = linkifyLogLine(line).find((c) => c.type === 'link');
    expect(link?.type === 'link' ? link.diagnostics : null).to.deep.equal(['bidi-embedded']);
    expect(new LogLineLinker().links(line).map((l) => l.diagnostics)).to.deep.equal([['bidi-embedded']]);
  });
});

describe('logs: bidi-embedded judged on the JSON view and on the line as written (short and long lines)', () => {
  // The view unescapes `\u202e` into an override (a program showing the value shows it); the line as written keeps
  // an escaped `\n` as two characters, so an override before it still reverses the link on the written line.
  const CASES: readonly [string, string[][]][] = [
    [String.raw`{"msg":"\u202e x https:\/\/evil.example\/moc.elgoog\/\/:sptth"}`, [['bidi-embedded']]],
    [String.raw`{"msg":"\u202E x","url":"https://evil.example/moc.elgoog"}`, [['bidi-embedded']]],
    ['{"msg":"\u202e x\\n https://evil.example/moc.elgoog"}', [['bidi-embedded']]],
    [String.raw`{"msg":"\u202e x\u202c https://ok.example/"}`, [[]]],
    [String.raw`{"msg":"x https://ok.example/ \u202e"}`, [[]]],
  ];

  for (const [line, expected] of CASES) {
    it(line, () => {
      expect(findLogLinks(line).map((l) => l.diagnostics)).to.deep.equal(expected);
      for (const step of [1, 7, line.length]) {
        const scanner = new LogLineLinker().longLine(undefined);
        const bytes = Buffer.from(line);
        const links = [];
        for (let i = 0; i < bytes.length; i += step) links.push(...scanner.write(bytes.subarray(i, i + step)));
        links.push(...scanner.end());
        expect(links.map((l) => l.link.diagnostics), `long line, ${step}-byte writes`).to.deep.equal(expected);
      }
    });
  }
});

describe('logs: option checks', () => {
  const detector = 'schemes, anyScheme, schemeless, email, defaultScheme, tlds, maxLinkLength, documentCharset';
  const loose = (f: unknown): ((...args: unknown[]) => unknown) => f as (...args: unknown[]) => unknown;

  it('findLogLinks, linkifyLogLine and LogLineLinker list logRules with the detector\'s options', () => {
    const message = `irilink: unknown option "logrules"; the known options are logRules, ${detector}`;
    expect(() => findLogLinks('x', { logrules: false } as object)).to.throw(TypeError, message);
    expect(() => linkifyLogLine('x', { logrules: false } as object)).to.throw(TypeError, message);
    expect(() => new LogLineLinker({ logrules: false } as object)).to.throw(TypeError, message);
    expect(() => findLogLinks('x', { encoding: 'utf-8' } as object)).to.throw(TypeError, /unknown option "encoding"/);
    expect(findLogLinks('a="x https://example.org/q"b', { logRules: false, email: true }).map((l) => l.text)).to.deep.equal(['https://example.org/q"b']);
  });

  it('they refuse options that are not an object, naming the function', () => {
    for (const bad of [[], 42, null, 'logRules']) {
      const what = JSON.stringify(bad);
      expect(() => loose(findLogLinks)('x', bad), what).to.throw(TypeError, /^irilink: findLogLinks\(\): options must be an object or undefined, got /);
      expect(() => loose(linkifyLogLine)('x', bad), what).to.throw(TypeError, /^irilink: linkifyLogLine\(\): options must be an object or undefined/);
      expect(() => new LogLineLinker(bad as object), what).to.throw(TypeError, /^irilink: LogLineLinker\(\): options must be an object or undefined/);
    }
    expect(findLogLinks('see https://a.example/', undefined)).to.have.length(1);
  });
});

describe('logs: corpora/samples/log.txt (hand-checked links)', () => {
  it('findLogLinks on each line finds exactly the expected links', () => {
    const text = readFileSync(path.join(samplesDir, 'log.txt'), 'utf8');
    const rows = parseLinksTsv(path.join(samplesDir, 'log.links.tsv'));
    const found: { start: number; end: number; kind: string; text: string; uri: string }[] = [];
    let offset = 0;
    for (const line of text.split('\n')) {
      for (const l of findLogLinks(line)) found.push({ start: offset + l.start, end: offset + l.end, kind: l.kind, text: l.text, uri: l.uri });
      offset += line.length + 1;
    }
    expect(found).to.deep.equal(rows.map((r) => ({ start: r.start, end: r.end, kind: r.kind, text: r.text, uri: r.uri })));
  });
});

describe('logs: --links through the stream (line numbers and byte offsets)', () => {
  const log = Buffer.from(
    [
      '{"msg":"ok","url":"https://例え.jp/商品/42","ms":12}',
      '203.0.113.7 - - [14/Mar/2026:09:27:01 +0000] "GET /index.html HTTP/1.1" 200 5120 "https://www.example.org/?q=東京" "curl/8.5.0"',
      '',
      'Mar 14 09:27:05 web01 postfix/smtp[2211]: to=<alice@例え.jp>, status=sent 😀 https://example.com/😀',
      'level=info msg="see https://status.example.com/incidents/17 for details"',
    ].join('\r\n') + '\n',
  );

  async function linksThroughStream(pieces: Buffer[]): Promise<Record<string, unknown>[]> {
    const chunks: Chunk[] = [];
    for await (const c of Readable.from(pieces).pipe(createLinkStream())) chunks.push(c as Chunk);
    return toJsonl(chunks, { links: true })
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  }

  it('every link: bytes [byteStart, byteEnd) of the input are its text, `line` is its line (CRLF counted once)', async () => {
    const rows = await linksThroughStream([log]);
    expect(rows.map((r) => [r.line, r.text])).to.deep.equal([
      [1, 'https://例え.jp/商品/42'],
      [2, 'https://www.example.org/?q=東京'],
      [4, 'alice@例え.jp'],
      [4, 'https://example.com/😀'],
      [5, 'https://status.example.com/incidents/17'],
    ]);
    const lineStarts = [0];
    for (let i = 0; i < log.length; i++) if (log[i] === 0x0a) lineStarts.push(i + 1);
    for (const r of rows) {
      expect(log.toString('utf8', r.byteStart as number, r.byteEnd as number)).to.equal(r.text);
      // The byte offset lies on the reported line.
      const line = r.line as number;
      expect(r.byteStart as number).to.be.at.least(lineStarts[line - 1]!).and.below(lineStarts[line]!);
    }
  });

  async function logLinkRows(pieces: Buffer[], options?: Parameters<typeof createLogLinkStream>[0]): Promise<Record<string, unknown>[]> {
    let out = '';
    for await (const b of Readable.from(pieces).pipe(createLogLinkStream(options))) out += (b as Buffer).toString('utf8');
    return out === '' ? [] : out.trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
  }

  it('createLogLinkStream (log rules, line by line) writes the same rows as the link stream where the rules agree', async () => {
    expect(await logLinkRows([log])).to.deep.equal(await linksThroughStream([log]));
    for (let cut = 1; cut < log.length; cut += 5) {
      expect(await logLinkRows([log.subarray(0, cut), log.subarray(cut)])).to.deep.equal(await linksThroughStream([log]));
    }
    // With a BOM, and in Shift_JIS (the link stream's legacy decoding and byte counting).
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), log]);
    expect(await logLinkRows([bom])).to.deep.equal(await linksThroughStream([bom]));
    const sjisText = '検索 http://example.jp/検索?q=東京\r\n連絡先 aiko@example.jp\n\nhttps://例え.jp/パス';
    const sjis = iconv.encode(sjisText, 'shift_jis');
    const chunks: Chunk[] = [];
    for await (const c of Readable.from([sjis]).pipe(createLinkStream({ encoding: 'shift_jis' }))) chunks.push(c as Chunk);
    const expected = toJsonl(chunks, { links: true }).trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(expected).to.have.length(3);
    expect(await logLinkRows([sjis], { encoding: 'shift_jis' })).to.deep.equal(expected);
  });

  it('createLogLinkStream numbers lines as jsonl does: a lone CR is a line break (every split point)', async () => {
    const input = Buffer.from('a\rb https://a.example/\r\nc\n\rd https://例え.jp/\rhttps://e.example/x');
    const expected = await linksThroughStream([input]);
    expect(expected.map((r) => [r.line, r.column, r.text])).to.deep.equal([
      [2, 3, 'https://a.example/'],
      [5, 3, 'https://例え.jp/'],
      [6, 1, 'https://e.example/x'],
    ]);
    for (let cut = 0; cut <= input.length; cut++) {
      expect(await logLinkRows([input.subarray(0, cut), input.subarray(cut)])).to.deep.equal(expected);
    }
  });

  it('createLogLinkStream: a U+FEFF at the start of a later line counts as the link stream counts it (whole lines and pieces)', async () => {
    const input = Buffer.from('a\n\xef\xbb\xbfx \xff https://a.example/\n\xef\xbb\xbfb https://b.example/\n', 'latin1');
    const expected = await linksThroughStream([input]);
    expect(expected.map((r) => [r.start, r.line, r.column, r.byteStart])).to.deep.equal([
      [7, 2, 6, 9],
      [29, 3, 4, 33],
    ]);
    for (const maxRecordBytes of [undefined, 1, 4, 16]) {
      expect(await logLinkRows([input], { maxRecordBytes, logRules: false })).to.deep.equal(expected);
      expect(await logLinkRows([input], { maxRecordBytes })).to.deep.equal(expected);
    }
  });

  it('createLogLinkStream applies the log rules; a line longer than maxRecordBytes loses no link; offsets stay exact', async () => {
    const input = Buffer.from('user=alice@example.com "GET /tools.pl HTTP/1.1"\n' + 'x'.repeat(100) + ' https://cut.example/\nsee https://例え.jp/\n');
    const rows = await logLinkRows([input], { maxRecordBytes: 64 });
    expect(rows.map((r) => [r.line, r.column, r.text])).to.deep.equal([
      [1, 1 + 5, 'alice@example.com'],
      [2, 1 + 101, 'https://cut.example/'],
      [3, 1 + 4, 'https://例え.jp/'],
    ]);
    expect(await logLinkRows([input])).to.deep.equal(rows);
    for (const r of rows) expect(input.toString('utf8', r.byteStart as number, r.byteEnd as number)).to.equal(r.text);
    const text = input.toString('utf8');
    for (const r of rows) expect(text.slice(r.start as number, r.end as number)).to.equal(r.text);
  });

  it('by default a line longer than 256 KiB is not held whole: its rows are readable before the line ends', async () => {
    const dense = 'see https://例え.jp/パス and www.example.com, '.repeat(6000); // 318 KB, 12,000 links
    const stream = createLogLinkStream();
    const written = new Promise<string>((resolve) => stream.write(Buffer.from(dense), () => resolve('written')));
    const readable = new Promise<string>((resolve) => stream.once('readable', () => resolve('readable')));
    expect(await Promise.race([readable, written])).to.equal('readable');
    const first = (stream.read() as Buffer).toString('utf8');
    expect(JSON.parse(first.slice(0, first.indexOf('\n')))).to.deep.include({ line: 1, column: 5, text: 'https://例え.jp/パス' });
    const rest: Buffer[] = [];
    stream.on('data', (b: Buffer) => rest.push(b));
    stream.end('\n');
    await new Promise((resolve) => stream.on('end', resolve));
    // The same rows as the line held whole.
    expect(first + Buffer.concat(rest).toString('utf8')).to.equal(
      (await logLinkRows([Buffer.from(dense + '\n')], { maxRecordBytes: 1 << 20 })).map((r) => JSON.stringify(r) + '\n').join(''),
    );
  });

  it('the same rows however the bytes are split (every split point, inside UTF-8 sequences and CRLF too)', async () => {
    const whole = await linksThroughStream([log]);
    for (let cut = 1; cut < log.length; cut++) {
      expect(await linksThroughStream([log.subarray(0, cut), log.subarray(cut)])).to.deep.equal(whole);
    }
  });
});
