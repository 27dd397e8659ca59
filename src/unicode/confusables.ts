// UTS #39 "Unicode Security Mechanisms" §4 Confusable Detection, for host names.
// https://www.unicode.org/reports/tr39/#Confusable_Detection
//
// skeleton() is the §4 skeleton transform over the generated confusables.txt prototypes.
// confusableHost() answers one question for the detector's `confusable-host` diagnostic: does this host only
// look like another host? Two rules, both on the host after UTS #46 mapping (what it really resolves to):
//   1. it has the skeleton of a WELL_KNOWN_DOMAINS entry (or of its subdomain's registrable part) without being
//      that domain: `раураl.com` (Cyrillic р а у) → `paypal.com`;
//   2. some label holds non-ASCII characters yet looks exactly like an ASCII label — each non-ASCII character's
//      prototype is ASCII and the result is a letter-digit-hyphen label: the whole-script confusable `аррӏе.com`
//      (all Cyrillic) → `apple.com`, and likewise Latin look-alikes such as `ɡoogle.example` (U+0261).
// Rule 2 leaves alone a single-script label in a script native to the TLD (Cyrillic under .ru, Greek under .gr)
// and hosts whose TLD is not ASCII (`пример.рф` can be no ASCII host): there, such labels are ordinary words.
import { badArgument } from '../errors.js';
import { CONFUSABLE_SOURCES, CONFUSABLE_TARGET_INDEX, CONFUSABLE_TARGETS } from './confusables.generated.js';
import { domainToUnicode } from '../iri/idna.js';
import { asciiLower } from '../iri/chars.js';
import { SCRIPT_EXTENSIONS_SETS, SCRIPT_NAMES, isLetter, scriptExtensionsIndex } from './index.js';

export { CONFUSABLES_VERSION, CONFUSABLES_SOURCE } from './confusables.generated.js';

// ------------------------------------------------------------------------------------------------- the table

function decodeList(s: string): number[] {
  const out: number[] = [];
  let start = 0;
  for (let i = 0; i <= s.length; i++) {
    if (i === s.length || s.charCodeAt(i) === 0x2c) {
      out.push(parseInt(s.slice(start, i), 36));
      start = i + 1;
    }
  }
  return out;
}

const SOURCES: Uint32Array = (() => {
  const deltas = decodeList(CONFUSABLE_SOURCES);
  const out = new Uint32Array(deltas.length);
  let cp = 0;
  for (let i = 0; i < deltas.length; i++) out[i] = cp += deltas[i]!;
  return out;
})();
const TARGET_INDEX = Uint16Array.from(decodeList(CONFUSABLE_TARGET_INDEX));

/** The confusables.txt prototype of `cp`, or undefined when `cp` is its own prototype. Binary search. */
export function confusablePrototype(cp: number): string | undefined {
  if (!Number.isInteger(cp) || cp < 0 || cp > 0x10ffff) {
    throw badArgument('confusablePrototype', 'cp', 'a code point (an integer from 0 to 0x10FFFF)', cp);
  }
  let lo = 0;
  let hi = SOURCES.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = SOURCES[mid]!;
    if (v < cp) lo = mid + 1;
    else if (v > cp) hi = mid - 1;
    else return CONFUSABLE_TARGETS[TARGET_INDEX[mid]!];
  }
  return undefined;
}

// UTS #39 §4 "skeleton(X)": 1. convert X to NFD; 2. replace each character by its prototype
// (confusables.txt); 3. reapply NFD. Two strings are confusable when their skeletons are equal.
/**
 * UTS #39 §4 skeleton of `s`: NFD, each code point replaced by its confusables.txt prototype, NFD again.
 * @example skeleton('раураl') === skeleton('paypal') // Cyrillic р а у
 */
export function skeleton(s: string): string {
  if (typeof s !== 'string') throw badArgument('skeleton', 's', 'a string', s);
  const d = s.normalize('NFD');
  let out = '';
  let last = 0;
  for (let i = 0; i < d.length; i++) {
    let cp = d.charCodeAt(i);
    const at = i;
    if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < d.length) {
      const lo = d.charCodeAt(i + 1);
      if (lo >= 0xdc00 && lo <= 0xdfff) {
        cp = (cp - 0xd800) * 0x400 + (lo - 0xdc00) + 0x10000;
        i++;
      }
    }
    const proto = confusablePrototype(cp);
    if (proto === undefined) continue;
    out += d.slice(last, at) + proto;
    last = i + 1;
  }
  return last === 0 ? d : (out + d.slice(last)).normalize('NFD');
}

// ---------------------------------------------------------------------------------------- well-known domains

/**
 * Domains that phishing most often imitates. Chosen by hand (not taken from a ranking list): global brands
 * people log in to or pay through — banks and payment services, mail and messaging, social networks, big
 * shops and marketplaces, cloud, developer and crypto services, and the best-known news and reference sites —
 * 225 names, registrable domains only (a subdomain of one is judged by its registrable part).
 * It is a heuristic, not a registry: a look-alike of a domain not listed is caught only by rule 2.
 */
export const WELL_KNOWN_DOMAINS: readonly string[] = Object.freeze([
  // payments and banks
  'paypal.com', 'paypal.me', 'stripe.com', 'squareup.com', 'wise.com', 'revolut.com', 'venmo.com', 'cash.app',
  'klarna.com', 'payoneer.com', 'skrill.com', 'westernunion.com', 'moneygram.com', 'visa.com', 'mastercard.com',
  'americanexpress.com', 'discover.com', 'chase.com', 'bankofamerica.com', 'wellsfargo.com', 'citi.com',
  'citibank.com', 'capitalone.com', 'usbank.com', 'pnc.com', 'tdbank.com', 'hsbc.com', 'hsbc.co.uk',
  'barclays.co.uk', 'lloydsbank.com', 'natwest.com', 'santander.com', 'santander.co.uk', 'bbva.com',
  'ing.com', 'deutsche-bank.de', 'commerzbank.de', 'sparkasse.de', 'bnpparibas.com', 'credit-agricole.fr',
  'societegenerale.com', 'ubs.com', 'credit-suisse.com', 'rbc.com', 'td.com', 'scotiabank.com', 'bmo.com',
  'commbank.com.au', 'westpac.com.au', 'anz.com', 'nab.com.au', 'mufg.jp', 'smbc.co.jp', 'mizuhobank.co.jp',
  'sberbank.ru', 'alipay.com', 'icicibank.com', 'hdfcbank.com', 'sbi.co.in', 'paytm.com', 'nubank.com.br',
  'mercadopago.com', 'schwab.com', 'fidelity.com', 'vanguard.com', 'robinhood.com', 'etrade.com',
  // crypto
  'coinbase.com', 'binance.com', 'kraken.com', 'crypto.com', 'blockchain.com', 'metamask.io', 'ledger.com',
  'bitfinex.com', 'kucoin.com', 'okx.com', 'bybit.com', 'gemini.com', 'trezor.io', 'opensea.io',
  // mail, messaging, identity
  'google.com', 'gmail.com', 'youtube.com', 'microsoft.com', 'live.com', 'outlook.com', 'office.com',
  'microsoftonline.com', 'hotmail.com', 'apple.com', 'icloud.com', 'yahoo.com', 'aol.com', 'proton.me',
  'protonmail.com', 'zoho.com', 'gmx.net', 'web.de', 'mail.ru', 'yandex.ru', 'yandex.com', 'whatsapp.com',
  'telegram.org', 't.me', 'signal.org', 'messenger.com', 'skype.com', 'zoom.us', 'slack.com', 'discord.com',
  'okta.com', 'duo.com', 'auth0.com', 'login.gov', 'docusign.com', 'adobe.com', 'dropbox.com', 'box.com',
  'wetransfer.com', 'onedrive.com', 'sharepoint.com',
  // social
  'facebook.com', 'instagram.com', 'twitter.com', 'x.com', 'linkedin.com', 'tiktok.com', 'snapchat.com',
  'pinterest.com', 'reddit.com', 'tumblr.com', 'twitch.tv', 'vk.com', 'weibo.com', 'qq.com', 'wechat.com',
  'line.me', 'kakao.com', 'naver.com', 'threads.net', 'bsky.app', 'mastodon.social', 'quora.com',
  // shopping and services
  'amazon.com', 'amazon.co.uk', 'amazon.de', 'amazon.co.jp', 'amazon.fr', 'amazon.in', 'ebay.com', 'ebay.de',
  'aliexpress.com', 'alibaba.com', 'taobao.com', 'jd.com', 'rakuten.co.jp', 'walmart.com', 'target.com',
  'bestbuy.com', 'costco.com', 'ikea.com', 'etsy.com', 'shopify.com', 'temu.com', 'shein.com',
  'mercadolibre.com', 'booking.com', 'airbnb.com', 'expedia.com', 'tripadvisor.com', 'uber.com', 'lyft.com',
  'doordash.com', 'netflix.com', 'spotify.com', 'disneyplus.com', 'hulu.com', 'steampowered.com',
  'steamcommunity.com', 'epicgames.com', 'playstation.com', 'xbox.com', 'nintendo.com', 'roblox.com',
  'dhl.com', 'fedex.com', 'ups.com', 'usps.com', 'royalmail.com',
  // cloud and developers
  'github.com', 'gitlab.com', 'bitbucket.org', 'stackoverflow.com', 'aws.amazon.com',
  'amazonaws.com', 'azure.com', 'cloudflare.com', 'digitalocean.com', 'heroku.com', 'vercel.com',
  'netlify.com', 'godaddy.com', 'namecheap.com', 'salesforce.com', 'oracle.com', 'ibm.com', 'atlassian.com',
  'notion.so', 'openai.com', 'chatgpt.com', 'anthropic.com', 'mozilla.org', 'wordpress.com', 'wix.com',
  // news and reference
  'wikipedia.org', 'bbc.co.uk', 'bbc.com', 'cnn.com', 'nytimes.com', 'theguardian.com', 'reuters.com',
  'bloomberg.com', 'irs.gov', 'gov.uk',
]);

// ------------------------------------------------------------------------------------------------- hosts

/** The comparison key of a label: its skeleton with ASCII letters lower-cased (`0` → `O` → `o`). */
function labelKey(label: string): string {
  return asciiLower(skeleton(label));
}

/**
 * The key rule 1 compares: the label key with `l` folded to `i`.
 * Deviation (UTS #39 §4): confusables.txt gives U+04CF CYRILLIC SMALL LETTER PALOCHKA the prototype `i`, yet most
 * fonts draw it like `l`, which is how `аррӏе` passes for `apple`; against the short well-known list, folding the
 * two costs nothing (the hosts compared hold non-ASCII characters and no listed domain differs from another by it).
 */
function wellKnownKey(label: string): string {
  return labelKey(label).replace(/l/g, 'i');
}

const WELL_KNOWN_BY_KEY: ReadonlyMap<string, string> = new Map(
  WELL_KNOWN_DOMAINS.map((domain) => [domain.split('.').map(wellKnownKey).join('.'), domain]),
);
const MAX_WELL_KNOWN_LABELS = Math.max(...WELL_KNOWN_DOMAINS.map((d) => d.split('.').length));

function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) >= 0x80) return false;
  return true;
}

// RFC 5890 §2.3.1 LDH label: ASCII letters, digits and hyphens (the shape an ASCII host label has).
function isLdhWithLetter(s: string): boolean {
  let letter = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x61 && c <= 0x7a) letter = true;
    else if (!((c >= 0x30 && c <= 0x39) || c === 0x2d)) return false;
  }
  return letter;
}

/**
 * The ASCII label a non-ASCII label imitates (rule 2), or null: ASCII characters kept (lower-cased), each
 * other character of the NFD form replaced by its prototype, which must be ASCII; the result must be an LDH label.
 */
/** Whether every non-ASCII letter of `label` (decomposed) is of Latin-1 or Latin Extended-A (U+00C0–U+017F). */
function isOrthographicLatin(label: string): boolean {
  const d = label.normalize('NFD');
  for (let i = 0; i < d.length; i++) {
    const c = d.charCodeAt(i);
    if (c < 0x80 || (c >= 0x0300 && c <= 0x036f)) continue; // ASCII, combining diacritical marks
    if (c < 0xc0 || c > 0x17f) return false;
  }
  return true;
}

function asciiImitation(label: string): string | null {
  const d = label.normalize('NFD');
  let out = '';
  for (let i = 0; i < d.length; i++) {
    const c = d.charCodeAt(i);
    if (c < 0x80) {
      out += c >= 0x41 && c <= 0x5a ? String.fromCharCode(c | 0x20) : d[i];
      continue;
    }
    const cp = d.codePointAt(i)!;
    if (cp > 0xffff) i++;
    const proto = confusablePrototype(cp);
    if (proto === undefined || !isAscii(proto)) return null;
    out += asciiLower(proto);
  }
  return isLdhWithLetter(out) ? out : null;
}

const LATIN = SCRIPT_NAMES.indexOf('Latin');
const CYRILLIC = SCRIPT_NAMES.indexOf('Cyrillic');
const GREEK = SCRIPT_NAMES.indexOf('Greek');
// Country-code TLDs where a label in that script is the local language, not a disguise (the spirit of the
// TLD-script pairing browsers use for IDN display).
const NATIVE_TLDS: ReadonlyMap<number, ReadonlySet<string>> = new Map([
  [CYRILLIC, new Set(['ru', 'su', 'ua', 'by', 'kz', 'bg', 'rs', 'mk', 'mn', 'kg', 'tj', 'uz', 'ba', 'me'])],
  [GREEK, new Set(['gr', 'cy'])],
]);

/** The one script all letters of `label` belong to (Script_Extensions, UAX #24), or -1 (none, or several). */
function singleScript(label: string): number {
  let found = -1;
  for (let i = 0; i < label.length; i++) {
    const cp = label.codePointAt(i)!;
    if (cp > 0xffff) i++;
    if (!isLetter(cp)) continue;
    const scx = SCRIPT_EXTENSIONS_SETS[scriptExtensionsIndex(cp)]!;
    if (scx.length !== 1) continue; // shared by several scripts: fits any
    if (found === -1) found = scx[0]!;
    else if (found !== scx[0]) return -1;
  }
  return found;
}

// UTS #46 §4 label separators: U+002E, U+FF0E, U+3002, U+FF61 (all mapped to U+002E by UTS #46).
function splitLabels(host: string): string[] {
  const labels: string[] = [];
  let start = 0;
  for (let i = 0; i <= host.length; i++) {
    const c = i < host.length ? host.charCodeAt(i) : 0x2e;
    if (c === 0x2e || c === 0xff0e || c === 0x3002 || c === 0xff61) {
      labels.push(host.slice(start, i));
      start = i + 1;
    }
  }
  if (labels.length > 1 && labels[labels.length - 1] === '') labels.pop(); // a trailing root dot
  return labels;
}

/** True when `host` is ASCII without an ACE (`xn--`) label: nothing to imitate with. */
function isPlainAsciiHost(host: string): boolean {
  for (let i = 0; i < host.length; i++) {
    const c = host.charCodeAt(i);
    if (c >= 0x80) return false;
    // `xn--` at a label start (ASCII case-insensitive)
    if ((i === 0 || host.charCodeAt(i - 1) === 0x2e) && (c | 0x20) === 0x78 && (host.charCodeAt(i + 1) | 0x20) === 0x6e &&
      host.charCodeAt(i + 2) === 0x2d && host.charCodeAt(i + 3) === 0x2d) return false;
  }
  return true;
}

/**
 * UTS #39 §4: the host that `host` only imitates through confusable characters, or null.
 * `host` is a host as written in a link (Unicode, ACE `xn--` labels, full-width dots …); it is judged after
 * UTS #46 mapping. A plain ASCII host returns null (it imitates nothing; ASCII look-alikes such as `paypa1.com`
 * are out of scope), and so does a host that is a well-known domain or one of its subdomains.
 * @example confusableHost('раураl.com') // 'paypal.com' (Cyrillic р а у)
 * @example confusableHost('аррӏе.com')  // 'apple.com' (all Cyrillic: a whole-script confusable)
 * @example confusableHost('例え.jp')     // null
 */
export function confusableHost(host: string): string | null {
  if (typeof host !== 'string') throw badArgument('confusableHost', 'host', 'a string', host);
  if (isPlainAsciiHost(host)) return null;
  const labels = splitLabels(domainToUnicode(host).domain);
  if (labels.length < 2 || labels.every(isAscii)) return null;

  // Rule 1: the registrable part (the last 2 or 3 labels) has the skeleton of a well-known domain.
  const keys = labels.map(wellKnownKey);
  for (let n = Math.min(MAX_WELL_KNOWN_LABELS, labels.length); n >= 2; n--) {
    const from = labels.length - n;
    const known = WELL_KNOWN_BY_KEY.get(keys.slice(from).join('.'));
    if (known !== undefined && labels.slice(from).join('.') !== known) return known;
  }

  // Rule 2: a non-ASCII label that looks exactly like an ASCII one.
  const tld = labels[labels.length - 1]!;
  const tldImitation = isAscii(tld) ? tld : asciiImitation(tld);
  if (tldImitation === null) return null; // a non-ASCII TLD: the host cannot pass for an ASCII one
  let changed = false;
  const imitated = labels.map((label, i) => {
    if (isAscii(label)) return asciiLower(label);
    const ascii = asciiImitation(label);
    if (ascii === null) return label;
    const script = singleScript(label);
    // A Latin label spelt with the letters of European orthographies (Danish æ, French œ, Turkish ı: Latin-1 and
    // Latin Extended-A) is a word, not a disguise: UTS #39 whole-script confusables are about a label of another
    // script passing for a Latin one. Phonetic and technical Latin letters are no spelling of a word, and UTS #39
    // leaves them out of identifiers (Identifier_Type Technical, Uncommon_Use, Obsolete): a label that imitates ASCII
    // with them is a disguise (`exɑmple` with U+0251, `exampǀe` with U+01C0, `ꜱcope` with U+A731; found in review).
    if (script === LATIN && isOrthographicLatin(label)) return label;
    if (i < labels.length - 1 && NATIVE_TLDS.get(script)?.has(asciiLower(tld))) return label;
    changed = true;
    return ascii;
  });
  return changed && imitated.every(isAscii) ? imitated.join('.') : null;
}
