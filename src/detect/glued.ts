// Deviation (UTS #58 §3.5.1): words of the sentence glued to the end of a link's path. UTS #58 reads every letter as
// Include, so a link runs on into what is written right after it without a space; RFC 3987 §7.3 wants that for a
// non-ASCII character as such. But some words that follow an ASCII path are the sentence's by their kind, not by
// their script, and a reader never takes them for the link:
//
//     https://ftp-master.debian.org/REJECT-FAQ.htmlを参照してください   (the file name ends at its extension)
//     http://www.apache.org/에서 다운로드                              (a Korean particle after the word it follows)
//
// The detector (terminate.ts) ends a bare link before such a word; displayIri and formatUrl write it
// percent-encoded, so that what they write is found whole. The same predicates serve the three, each over its own
// form of the link (the text, the iri, formatUrl's tokens written out); they read ASCII and Hangul syllables only.

import { A_ALPHA, A_DIGIT, ASCII_FLAGS } from './chars.js';

const SLASH = 0x2f;
const DOT = 0x2e;

/**
 * File name extensions of the web and of downloads, lower case (compared without case). Not `js`, `net` or `io`,
 * which end the names of things a title may go on after (`https://ja.wikipedia.org/wiki/Node.jsの歴史`).
 */
const FILE_EXTENSIONS: ReadonlySet<string> = new Set([
  'htm', 'html', 'shtml', 'xhtml', 'php', 'cgi', 'asp', 'aspx', 'jsp', 'txt', 'pdf', 'xml', 'json', 'csv',
  'gif', 'png', 'jpg', 'jpeg', 'svg', 'webp', 'zip', 'gz', 'tgz', 'bz2', 'xz', 'tar', 'exe', 'msi', 'deb', 'rpm',
  'iso', 'doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx', 'md', 'mp3', 'mp4', 'patch', 'diff',
]);
const LONGEST_EXTENSION = 5;

/**
 * Korean particles (조사). The Korean spelling rules (한글 맞춤법, 1988, Article 41) write a particle attached to the
 * word before it, so one follows a link with no space: `http://www.apache.org/에서`, `…/two.html으로`,
 * `https://www.gnu.org/software/hurd를`. The common particles and their usual combinations, up to four syllables.
 */
const KOREAN_PARTICLES: ReadonlySet<string> = new Set([
  '이', '가', '을', '를', '은', '는', '에', '에서', '에게', '께', '한테', '의', '와', '과', '로', '으로', '도', '만',
  '까지', '부터', '처럼', '보다', '이나', '나', '이다', '입니다', '이며', '이고', '인', '이란', '란', '이라는', '라는',
  '에서도', '에서는', '에서의', '에는', '에도', '에의', '으로는', '로는', '으로도', '로도', '으로의', '로의', '와는',
  '과는', '와의', '과의', '로부터', '으로부터', '에서부터', '에게서', '께서', '마다', '라고', '이라고', '에요', '이에요',
  '랑', '이랑', '하고',
]);
/**
 * Particles that are also words of their own or the end of one (은 silver, 이 a family name, 도 a province or a degree,
 * 가 a street section, 인 phosphorus or a person, …): after a `/` they may be a page's name
 * (`https://ko.wikipedia.org/wiki/은`), after a digit or `_` the end of one (`…/wiki/종로1가`, `…/북위_38도`, `…/1인`),
 * so only after an ASCII letter do they end a link.
 */
const KOREAN_NOUN_PARTICLES: ReadonlySet<string> = new Set(['이', '가', '은', '도', '만', '의', '와', '과', '로', '나', '인', '께', '란']);
/** The longest particle, in syllables. */
export const MAX_PARTICLE = 4;

export const isHangulSyllable = (cp: number): boolean => cp >= 0xac00 && cp <= 0xd7a3;
const isAsciiAlnum = (c: number): boolean => c < 128 && (ASCII_FLAGS[c]! & (A_ALPHA | A_DIGIT)) !== 0;

/**
 * After a file name's extension (`.html`, `.cgi`, `.pdf`: FILE_EXTENSIONS) any character starts the next word: no file
 * name goes on after its extension. Is there one right before `i`, which follows an ASCII character of a path after a
 * host (`from`: the index of the path's first `/`, the least index read)? Reads at most LONGEST_EXTENSION + 2 back.
 */
export function afterFileExtension(text: string, i: number, from: number): boolean {
  // ASCII letters and digits back to a `.` that has a name before it.
  let k = i - 1;
  while (k > from && i - k <= LONGEST_EXTENSION + 1 && isAsciiAlnum(text.charCodeAt(k))) k--;
  if (k === i - 1 || i - 1 - k > LONGEST_EXTENSION || k <= from + 1 || text.charCodeAt(k) !== DOT) return false;
  const before = text.charCodeAt(k - 1);
  if (before === SLASH || before === DOT) return false;
  return FILE_EXTENSIONS.has(text.slice(k + 1, i).toLowerCase());
}

/** Is text[a, b) a Korean particle (KOREAN_PARTICLES), whatever comes before it? */
export function isKoreanParticle(text: string, a: number, b: number): boolean {
  if (b <= a || b - a > MAX_PARTICLE) return false;
  for (let j = a; j < b; j++) if (!isHangulSyllable(text.charCodeAt(j))) return false;
  return KOREAN_PARTICLES.has(text.slice(a, b));
}

/**
 * Is [i, end) a Korean particle (KOREAN_PARTICLES) — `end` the end of the link, `i` right after an ASCII character of
 * a path after a host, `before` that character? One that is also a word of its own (KOREAN_NOUN_PARTICLES) only after
 * an ASCII letter. Reads at most MAX_PARTICLE characters.
 *
 * A particle ends a link only at the link's end, as UTS #58 finds it: inside, it may be a page's name going on
 * (`https://ko.wikipedia.org/wiki/X의_역사`). Everything else glued to the path stays the link's
 * (`https://ja.wikipedia.org/wiki/IPアドレス`, `…/wiki/C언어`, `…/Node.jsの歴史`): Japanese and Chinese write their
 * particles and words without spaces, so no such test tells `https://db.debian.org/にあります` from
 * `/wiki/となりのトトロ` (left as UTS #58 has it).
 */
export function isGluedParticle(text: string, i: number, end: number, before: number): boolean {
  if (!isKoreanParticle(text, i, end)) return false;
  const word = text.slice(i, end);
  return !KOREAN_NOUN_PARTICLES.has(word) || (before < 128 && (ASCII_FLAGS[before]! & A_ALPHA) !== 0);
}
