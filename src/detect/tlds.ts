// The top-level domains of schemeless links and emails: IANA's root zone list, from the `tlds` package.
// UTS #58 §4.2 (NOTES §4.2): IDN TLDs are accepted both as A-labels (`xn--mgbah1a3hjkrd`) and U-labels (`موريتانيا`).

import { createRequire } from 'node:module';
import { buildTrie } from './trie.js';

const require = createRequire(import.meta.url);
const IANA_TLDS = require('tlds') as readonly string[];
// RFC 3492; the userland package (trailing slash), not Node's deprecated built-in.
const punycode = require('punycode/') as { toUnicode(s: string): string; toASCII(s: string): string };

/**
 * A set of lower-cased TLDs holding, for each IDN TLD, both its A-label and its U-label.
 * Deviation (UTS #58 §4.1): the reference matches TLDs case-sensitively (only all-lower or all-upper), so it
 * misses `example.Com`; we compare lower-cased, as DNS does (RFC 4343).
 */
export function buildTldSet(list: readonly string[]): ReadonlySet<string> {
  const set = new Set<string>();
  for (const raw of list) {
    const t = raw.toLowerCase();
    set.add(t);
    try {
      if (t.startsWith('xn--')) set.add(punycode.toUnicode(t).toLowerCase());
      else if (/[^\x00-\x7f]/.test(t)) set.add(punycode.toASCII(t));
    } catch {
      // A malformed A-label stays in its written form only.
    }
  }
  return set;
}

/** The default set, built once. */
export const DEFAULT_TLDS: ReadonlySet<string> = buildTldSet(IANA_TLDS);

/**
 * P7: TLDs that are also common file extensions. A bare two-label name ending in one (`README.md`, `setup.py`,
 * `main.rs`, `notes.zip`) is read as a file name, not a link. The second row was measured over the corpora
 * (en-mixed, multilingual, mail, markdown: every bare two-label name with that TLD read by hand): systemd units
 * (`multi-user.target`), SSH keys (`id_rsa.pub`), Postfix and sendmail configuration (`main.cf`), PID files,
 * `System.map`, autotools (`configure.ac`, `Makefile.am`), PostScript, include files and tables, shared objects
 * (`ld.so`, `libfoo.so`, `sudoers.so`: 330 links of 68 names, every one a file), Java sources (`HelloWorld.java`,
 * `MainApplication.java`: 16 links of 8 names; a stack trace's `at x.main(App.java:10)` linked `https://app.java:10`)
 * — none of them a host in the corpora.
 * The trade-off: written bare, real hosts under those country codes are not linked either (`news.am`, `wafa.ps`,
 * `notion.so`; with a scheme, `www.` or a path they are). Left out: `in` and `pl`, country codes with many two-label
 * hosts (`wttr.in`, `Aviary.pl` in the corpora, beside `Makefile.in` and Perl scripts), `info` (`Korben.info`
 * beside `mail.info`), and `cc` (60 links of C++ sources such as `addon.cc`, but also the host `largeinfo.cc`).
 */
export const FILE_EXTENSION_TLDS: ReadonlySet<string> = new Set([
  'md', 'py', 'rs', 'zip', 'sh', 'mov', 'pm', 'mk', 'tf',
  'target', 'pub', 'cf', 'pid', 'map', 'ac', 'am', 'ps', 'inc', 'tab', 'so', 'java',
  // (2026-11-24, the same reading, none a host: `Makefile.win`, Graphviz `.dot`, linker scripts `vmlinux.lds`,
  // gettext catalogs `libc.mo`, troff sources `foo.man`, CoffeeScript `main.coffee`; 158 links of 50 names)
  'win', 'dot', 'lds', 'mo', 'man', 'coffee',
  // (2026-11-24, a review of en-mixed: C++ sources `addon.cc`, `genpkglist.cc`, `csb.cc = …`; 61 links of 15 names
  // over the corpora, none a host)
  'cc',
]);

/**
 * P7 (irilink's extension): first labels that make a bare two-label name a file name under any TLD, generic too: the
 * build files whose names autotools and Python packaging give templates and variants (`Makefile.in`, `configure.in`,
 * `MANIFEST.in`, `Makefile.win`, Perl's VMS `configure.com`). Over the corpora 161 links of 7 names, none a host.
 */
export const FILE_BASENAMES: ReadonlySet<string> = new Set(['makefile', 'gnumakefile', 'configure', 'manifest']);

/**
 * P7 (irilink's extension): syslog facilities (RFC 5424 §6.2.1 and the keywords of syslog.conf). With `info`, the one
 * priority that is also a TLD, a bare two-label name is a selector (`kern.info`, `mail.info`, `logger -p news.info`):
 * over the corpora 137 links of 7 names, all selectors.
 */
export const SYSLOG_FACILITIES: ReadonlySet<string> = new Set([
  'kern', 'user', 'mail', 'daemon', 'auth', 'syslog', 'lpr', 'news', 'uucp', 'cron', 'authpriv', 'ftp',
  'local0', 'local1', 'local2', 'local3', 'local4', 'local5', 'local6', 'local7',
]);

/**
 * P7 (irilink's extension): TLDs that are also common member names in code. A bare two-label name under one
 * (`user.name`, `response.data`, `os.open`, `datetime.date`, `subprocess.run`, `re.search`, `i18n.show`) is a field
 * or a method, not a host, and is treated like a file name. Measured over the corpora (every bare two-label name
 * with that TLD read): 1,551 links of some 370 names, all code or configuration keys (`clawdbot.channel`, SQL
 * `openprose.run`). The trade-off is P7's: written bare, a host under one is not linked (`example.store`; with a
 * scheme, `www.` or a path it is). Left out: `id` (Indonesia, with two-label hosts such as `kompas.id`) and `new`
 * (`docs.new`), though every such name in the corpora was code (`t.id`, `file.new`), and `info` (`Korben.info`).
 */
export const MEMBER_NAME_TLDS: ReadonlySet<string> = new Set([
  'name', 'data', 'date', 'email', 'host', 'link', 'channel', 'events', 'store',
  'run', 'open', 'read', 'next', 'search', 'select', 'show', 'click', 'help',
  // (2026-11-24, the same reading, no host: under `group` 145 links of 9 names (quota files, `user.group`,
  // `Match.group`), `safe.directory` (git, 33), `exec.security` and `alt.security` (a newsgroup, 19), Python's
  // `collections.abc` and two more under `abc` (48))
  'group', 'directory', 'security', 'abc',
  // (and `fs.watch`, `options.watch`; `foo` the placeholder: `bar.foo`, `err.foo`, `globalThis.foo`; 82 links of 37
  // names)
  'watch', 'foo',
  // (2026-11-24, a review of en-mixed: `id` the most common field of all, `SELECT t.id … WHERE a.id = b.id`,
  // `worker.id`; 291 links of 78 names over the corpora (226 in en-mixed), none a host: Indonesian
  // hosts are written `x.co.id`, `x.go.id`, which a longer name keeps)
  'id',
  // (and `bar`, after `foo` the placeholder of code: `foo.bar`, `pkg.subpkg.bar`, `manager.bar`; 84 links of the
  // corpora, none a host)
  'bar',
  // (2026-11-24, from a review of code and chat samples: `el.style`, `order.total`, `state.page`, `weather.city`,
  // `user.phone`; over the corpora 35 links of 15 names, none a host. Not `top`, `one`, `app` or `dev`, under which
  // the corpora hold hosts: `huiyex.top`, `exe.dev`, `bluebubbles.app`)
  'style', 'total', 'page', 'city', 'phone',
]);

// The trie's alphabet: LDH (RFC 5890 §2.3.1), ASCII upper case folded onto lower case.
export const TRIE_SYMBOLS = 37;
export const TRIE_SYMBOL = new Int8Array(128).fill(-1);
for (let c = 0x61; c <= 0x7a; c++) TRIE_SYMBOL[c] = TRIE_SYMBOL[c - 0x20] = c - 0x61;
for (let c = 0x30; c <= 0x39; c++) TRIE_SYMBOL[c] = 26 + c - 0x30;
TRIE_SYMBOL[0x2d] = 36;

export interface TldTrie {
  /** next[node * TRIE_SYMBOLS + symbol]: the child node, 0 for none (node 0 is the root, never a child). */
  readonly next: Int32Array;
  /** 1 where a TLD of the list ends. */
  readonly terminal: Uint8Array;
}

/** One trie per TLD set, built when a scanner for it is made (ScanState.tldTrie); the answer never depends on it. */
const TLD_TRIES = new WeakMap<ReadonlySet<string>, TldTrie | null>();

/**
 * The trie of the ASCII TLDs of `tlds`, or null when one of them holds an ASCII character outside LDH (a custom
 * list): then every lookup takes the general path.
 */
export function tldTrieOf(tlds: ReadonlySet<string>): TldTrie | null {
  let trie = TLD_TRIES.get(tlds);
  if (trie !== undefined) return trie;
  const ascii: string[] = [];
  let usable = true;
  for (const t of tlds) {
    let isAscii = true;
    for (let i = 0; i < t.length; i++) {
      const c = t.charCodeAt(i);
      if (c >= 128) isAscii = false;
      else if (TRIE_SYMBOL[c]! < 0 || (c >= 0x41 && c <= 0x5a)) usable = false; // the set is lower-cased
    }
    if (isAscii) ascii.push(t);
  }
  if (!usable) {
    TLD_TRIES.set(tlds, null);
    return null;
  }
  const built = buildTrie(ascii, TRIE_SYMBOLS, TRIE_SYMBOL);
  const terminal = new Uint8Array(built.nodes);
  for (const end of built.ends) terminal[end] = 1;
  trie = { next: built.next, terminal };
  TLD_TRIES.set(tlds, trie);
  return trie;
}
