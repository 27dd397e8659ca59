// The peer comparison (issue 3): the same short inputs through irilink and every peer, one per behaviour
// where linkifiers differ, each with the answer DESIGN.md and UTS #58 give (marker format: ⸠link⸡).
// Writes bench/results/differences.md, the source of the README section "How irilink differs from the
// peers and why". Run alone with `tsx bench/compare-peers.ts`, or as part of `npm run eval`.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadContenders, type Contender } from './lib/contenders.js';
import { ensureDir, resultsDir } from './lib/paths.js';

export interface Probe {
  topic: string;
  /** The input with the expected links marked ⸠…⸡. */
  marked: string;
  /** Why this is the answer (the rule, with its source). */
  why: string;
}

export const probes: Probe[] = [
  {
    topic: 'IRI with a non-ASCII path',
    marked: 'see ⸠https://ja.wikipedia.org/wiki/フィンセント・ファン・ゴッホ⸡ now',
    why: 'RFC 3987 §7.3: a non-ASCII character never, by itself, ends a link.',
  },
  { topic: 'IDN host with an explicit scheme', marked: 'visit ⸠http://例え.テスト/パス⸡ today', why: 'After a scheme the host is taken as written (DESIGN.md Hosts); UTS #46 gives its ASCII form.' },
  { topic: 'Schemeless IDN with an IDN TLD', marked: 'сайт ⸠пример.рф/путь⸡ работает', why: 'UTS #58 §4 (TLD-anchored start); `.рф` is an IANA TLD (xn--p1ai).' },
  { topic: 'IRI before a CJK full stop', marked: '詳しくは ⸠https://ja.wikipedia.org/wiki/東京⸡。', why: 'UTS #58 §3.5.1: `。` is Soft and is dropped at the end of a link.' },
  { topic: 'Scheme glued to CJK text', marked: '詳細は⸠https://example.jp/設定⸡ を参照', why: 'DESIGN.md P4: CJK is written without spaces, so a scheme glued to it starts a link.' },
  { topic: 'Arabic comma after an IRI', marked: 'انظر ⸠https://ar.wikipedia.org/wiki/مصر⸡، ثم', why: 'UTS #58: `،` (U+060C) is Soft.' },
  { topic: 'Devanagari danda after an IRI', marked: 'देखें ⸠https://hi.wikipedia.org/wiki/भारत⸡। धन्यवाद', why: 'UTS #58: `।` (U+0964) is Soft.' },
  { topic: 'Full-width exclamation mark', marked: 'ここ ⸠https://example.jp/ページ⸡！', why: 'UTS #58: `！` (U+FF01) is Soft.' },
  { topic: 'Full-width parentheses', marked: '資料（⸠https://example.com/資料⸡）を参照', why: 'UTS #58: `）` closes nothing opened inside the link, so it ends it (Link_Bracket).' },
  { topic: 'Corner brackets', marked: '「⸠https://example.com/パス⸡」と書く', why: 'UTS #58: `」` is a Close character with no matching opener in the link.' },
  { topic: 'Balanced parentheses inside a URL', marked: 'see ⸠https://en.wikipedia.org/wiki/Mercury_(planet)⸡.', why: 'UTS #58 §3.5.1 bracket stack: a matched `)` stays in the link.' },
  { topic: 'Parenthesised sentence', marked: '(see ⸠https://example.com/a⸡)', why: 'An unmatched `)` ends the link.' },
  { topic: 'JSON log field', marked: '{"url":"⸠https://example.com/a⸡","ok":true}', why: 'DESIGN.md P6: a link that starts after `"` ends before the matching `"` (UTS #58 alone treats `"` as Soft).' },
  { topic: 'Curly quotes', marked: '“⸠https://example.net/c⸡”', why: 'DESIGN.md P6, and `”` is Soft.' },
  { topic: 'Email with a Greek local part', marked: 'write to ⸠σωκράτης@example.com⸡.', why: 'UTS #58 §5 (Link_Email): local parts in any script.' },
  { topic: 'Email with a Japanese local part', marked: '連絡先：⸠アルベルト.アルベルト@example.com⸡', why: 'UTS #58 §5; `：` is not Link_Email.' },
  { topic: 'Email with an IDN domain', marked: 'mail ⸠info@例え.jp⸡ please', why: 'UTS #58 §4.3 and UTS #46 for the domain.' },
  { topic: 'Email followed by a port-like suffix', marked: 'See ⸠john.doe@example.com⸡:1234/forum', why: 'UTS #58 test file: an email never takes a port or path.' },
  { topic: 'Bidi override (spoofing)', marked: 'open ⸠https://example.com/invoice⸡\u202Efdp.exe', why: 'DESIGN.md P1 / RFC 3987 §4.1: bidi controls never appear inside a link.' },
  { topic: 'javascript: is never a link', marked: 'click javascript:alert(1) now', why: 'DESIGN.md P2 (security).' },
  { topic: 'File names are not links', marked: 'edit README.md and setup.py first', why: 'DESIGN.md P7: a bare two-label name whose TLD is a common file extension.' },
  { topic: 'New scheme after CJK punctuation', marked: '⸠https://a.jp/日本⸡、⸠https://b.jp/東京⸡', why: 'DESIGN.md P8: a Soft run followed by `scheme://` ends the link.' },
  { topic: 'Soft punctuation followed by text', marked: '看这个：⸠https://zh.wikipedia.org/wiki/北京，很有意思⸡', why: 'UTS #58 §3.5.1: a Soft character is kept when an Include character follows; write a space after an IRI.' },
  { topic: 'Userinfo with an explicit scheme', marked: 'clone ⸠ssh://git@git.example.net:2222/repo.git⸡ now', why: 'DESIGN.md P2 (ssh) and P5 (userinfo is part of the URL, flagged).' },
  { topic: 'IP address host with a Vietnamese path', marked: 'tải ⸠http://192.168.1.2/đường_dẫn/tập_tin⸡ rồi', why: 'DESIGN.md Hosts: IP literals after an explicit scheme.' },
  { topic: 'Full-width host', marked: 'see ⸠https://ｅｘａｍｐｌｅ．ｃｏｍ/パス⸡ now', why: 'DESIGN.md Hosts: judged after UTS #46 mapping, so this is example.com.' },
  { topic: 'Other schemes', marked: 'get ⸠ftp://ftp.example.org/pub/файл.txt⸡ or join ⸠irc://irc.example.net/チャンネル⸡', why: 'DESIGN.md P2.' },
  {
    topic: 'Markdown link: IRI text, encoded href',
    marked: '[⸠https://taro-docs.jd.com/docs/hybrid#使用原生组件⸡](⸠https://taro-docs.jd.com/docs/hybrid#%E4%BD%BF%E7%94%A8%E5%8E%9F%E7%94%9F%E7%BB%84%E4%BB%B6⸡)',
    why: 'The unmatched `]` and `)` end each link.',
  },
  { topic: 'Emoji in a path', marked: 'party ⸠https://example.com/🍣/今夜⸡ tonight', why: 'Emoji are Include (UTS #58).' },
  {
    topic: 'Link wrapped across lines in <…>',
    marked: 'see <⸠http://example.com/a/very/long\n    /path⸡> here',
    why: 'DESIGN.md P3 (RFC 3986 Appendix C): one link across the line break; the uri drops the whitespace.',
  },
  {
    topic: 'mailto: link wrapped across lines in <…>',
    marked: 'write <⸠mailto:news@example.ie?subject=Send%20me%20the%\n20text%20version⸡>',
    why: 'DESIGN.md P3: a mailto: link is a URI; cut at the line break its subject ends in a broken escape.',
  },
  {
    topic: 'Strikethrough around a link',
    marked: 'moved: ~~⸠https://example.com/v1⸡~~ ⸠https://example.com/v2⸡',
    why: 'GFM strikethrough (and chat\'s `~struck~`) is markup around the link, as `*` and `_` are; GFM\'s own autolinks drop a trailing `~`.',
  },
];

export function unmark(marked: string): { text: string; spans: { start: number; end: number }[] } {
  let text = '';
  const spans: { start: number; end: number }[] = [];
  let open = -1;
  for (const ch of marked) {
    if (ch === '⸠') open = text.length;
    else if (ch === '⸡') spans.push({ start: open, end: text.length });
    else text += ch;
  }
  return { text, spans };
}

export function mark(text: string, spans: { start: number; end: number }[]): string {
  let out = '';
  let at = 0;
  for (const s of [...spans].sort((a, b) => a.start - b.start)) {
    if (s.start < at) continue; // overlapping output (should not happen): show the first
    out += text.slice(at, s.start) + '⸠' + text.slice(s.start, s.end) + '⸡';
    at = s.end;
  }
  return out + text.slice(at);
}

/** For display: invisible and line-breaking characters as visible escapes, `|` escaped for tables. */
function show(s: string): string {
  return s
    .replace(/[\u200B-\u200F\u202A-\u202E\u2066-\u2069\u061C\uFEFF]/g, (c) => `⟨U+${c.charCodeAt(0).toString(16).toUpperCase()}⟩`)
    .replace(/\n/g, '⏎')
    .replace(/\|/g, '\\|');
}

export function writeDifferences(contenders: Contender[]): string {
  const lines: string[] = [];
  lines.push('# How irilink differs from the peers, by example', '');
  lines.push(`Generated by \`bench/compare-peers.ts\` (${new Date().toISOString().slice(0, 10)}): ${contenders.map((c) => `${c.name} ${c.version}`).join(', ')}.`);
  lines.push('Each input is shown with the expected links marked ⸠…⸡ and the rule that decides it; ✓ means the tool found exactly those spans.', '');
  const right = new Map<string, number>(contenders.map((c) => [c.name, 0]));
  const summary: string[] = ['| # | behaviour | ' + contenders.map((c) => c.name).join(' | ') + ' |', '|---|---|' + contenders.map(() => ':---:').join('|') + '|'];
  const details: string[] = [];
  probes.forEach((p, i) => {
    const { text, spans } = unmark(p.marked);
    const expected = mark(text, spans);
    const cells: string[] = [];
    details.push(`### ${i + 1}. ${p.topic}`, '', `Expected: \`${show(expected)}\` — ${p.why}`, '');
    const wrong: string[] = [];
    for (const c of contenders) {
      let got: string;
      try {
        got = mark(text, c.find(text));
      } catch (e) {
        got = `threw: ${e instanceof Error ? e.message : String(e)}`;
      }
      const ok = got === expected;
      if (ok) right.set(c.name, right.get(c.name)! + 1);
      cells.push(ok ? '✓' : '✗');
      if (!ok) wrong.push(`- ${c.name}: \`${show(got)}\``);
    }
    details.push(...(wrong.length > 0 ? wrong : ['- every tool agrees']), '');
    summary.push(`| ${i + 1} | ${p.topic} | ${cells.join(' | ')} |`);
  });
  summary.push(`| | **right** | ${contenders.map((c) => `**${right.get(c.name)}/${probes.length}**`).join(' | ')} |`);
  lines.push(...summary, '', '## Details', '', ...details);
  lines.push(
    '## What each tool hands back as the href',
    '',
    'For an IRI the href must be ASCII to be fetched everywhere (RFC 3987 §3.1: UTF-8 percent-encoding; UTS #46 for the host).',
    '',
    '| input | ' + contenders.filter((c) => c.givesUri).map((c) => c.name).join(' | ') + ' |',
    '|---|' + contenders.filter((c) => c.givesUri).map(() => '---').join('|') + '|',
  );
  for (const input of ['http://例え.テスト/パス', 'https://ja.wikipedia.org/wiki/東京', 'σωκράτης@example.com', 'www.пример.рф/путь']) {
    const cells = contenders
      .filter((c) => c.givesUri)
      .map((c) => {
        const f = c.find(input);
        return f.length === 1 && f[0]!.start === 0 && f[0]!.end === input.length ? `\`${show(f[0]!.uri ?? '')}\`` : '(not found whole)';
      });
    lines.push(`| \`${input}\` | ${cells.join(' | ')} |`);
  }
  lines.push('');
  ensureDir(resultsDir);
  const file = path.join(resultsDir, 'differences.md');
  writeFileSync(file, lines.join('\n'));
  return file;
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { contenders, notes } = await loadContenders();
  for (const n of notes) console.error(`NOTE: ${n}`);
  console.log(writeDifferences(contenders));
}
