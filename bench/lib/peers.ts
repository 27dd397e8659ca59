// The peers irilink is compared with, behind one small interface: `find(text)` returns the links a peer
// reports in `text`, as UTF-16 spans plus the href it would write (`uri`) when it gives one. The bench
// and the accuracy evaluation call exactly the same functions, so the speed measured is the speed of
// the results evaluated. Each peer runs with its documented defaults, emails on, phone/hashtag/mention off.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { LinkifyIt } from 'linkify-it';
import * as linkifyjs from 'linkifyjs';
import { Autolinker } from 'autolinker';
import MarkdownIt from 'markdown-it';
import urlRegexSafe from 'url-regex-safe';

export interface FoundLink {
  start: number;
  end: number;
  text: string;
  /** The href the tool would produce; undefined when the tool gives none (url-regex-safe). */
  uri?: string;
}

export interface Peer {
  name: string;
  /** Package whose version is reported. */
  pkg: string;
  /** One line: what is called. */
  how: string;
  find(text: string): FoundLink[];
}

const require = createRequire(import.meta.url);

export function packageVersion(pkg: string): string {
  const file = require.resolve(`${pkg}/package.json`);
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
}

function linkifyItPeer(): Peer {
  const li = new LinkifyIt();
  return {
    name: 'linkify-it',
    pkg: 'linkify-it',
    how: 'new LinkifyIt().match(text) (defaults: fuzzyLink off, so no names without a scheme, not even www.; fuzzyEmail on)',
    find(text) {
      const ms = li.match(text);
      if (ms === null) return [];
      return ms.map((m) => ({ start: m.index, end: m.lastIndex, text: m.raw, uri: m.url }));
    },
  };
}

function linkifyjsPeer(): Peer {
  return {
    name: 'linkifyjs',
    pkg: 'linkifyjs',
    how: "linkify.find(text) (defaults; href = the tool's href)",
    find(text) {
      return linkifyjs.find(text).map((m) => ({ start: m.start, end: m.end, text: m.value, uri: m.href }));
    },
  };
}

function autolinkerPeer(): Peer {
  // One instance, reused: Autolinker.parse() would build a new one per call.
  const al = new Autolinker({
    urls: { schemeMatches: true, tldMatches: true, ipV4Matches: true },
    email: true,
    phone: false,
    mention: false,
    hashtag: false,
    stripPrefix: false,
    stripTrailingSlash: false,
    decodePercentEncoding: false,
  });
  return {
    name: 'autolinker',
    pkg: 'autolinker',
    how: 'new Autolinker({urls, email; no phone/mention/hashtag}).parse(text)',
    find(text) {
      return al.parse(text).map((m) => {
        const start = m.getOffset();
        const matched = m.getMatchedText();
        return { start, end: start + matched.length, text: matched, uri: m.getAnchorHref() };
      });
    },
  };
}

function markdownItPeer(): Peer {
  // markdown-it's linkify: its linkify-it instance, its link validation (no javascript:/vbscript:/data:) and
  // the href it writes (normalizeLink: percent-encoding and punycode hosts). Markdown block parsing is left
  // out: the corpora are not all Markdown, and parsing them as such would measure something else.
  const md = new MarkdownIt({ linkify: true });
  return {
    name: 'markdown-it',
    pkg: 'markdown-it',
    how: 'md.linkify.match(text) + md.validateLink + md.normalizeLink (the href markdown-it writes)',
    find(text) {
      const ms = md.linkify.match(text);
      if (ms === null) return [];
      const out: FoundLink[] = [];
      for (const m of ms) {
        if (!md.validateLink(m.url)) continue;
        out.push({ start: m.index, end: m.lastIndex, text: m.raw, uri: md.normalizeLink(m.url) });
      }
      return out;
    },
  };
}

function urlRegexSafePeer(): Peer {
  const re = urlRegexSafe();
  return {
    name: 'url-regex-safe',
    pkg: 'url-regex-safe',
    how: 'text.matchAll(urlRegexSafe()) (defaults; gives no href)',
    find(text) {
      const out: FoundLink[] = [];
      re.lastIndex = 0;
      for (let m = re.exec(text); m !== null; m = re.exec(text)) {
        out.push({ start: m.index, end: m.index + m[0].length, text: m[0] });
        if (m[0].length === 0) re.lastIndex++;
      }
      return out;
    },
  };
}

export const peerNames = ['linkify-it', 'linkifyjs', 'autolinker', 'markdown-it', 'url-regex-safe'] as const;
export type PeerName = (typeof peerNames)[number];

export function makePeer(name: PeerName): Peer {
  switch (name) {
    case 'linkify-it':
      return linkifyItPeer();
    case 'linkifyjs':
      return linkifyjsPeer();
    case 'autolinker':
      return autolinkerPeer();
    case 'markdown-it':
      return markdownItPeer();
    case 'url-regex-safe':
      return urlRegexSafePeer();
  }
}
