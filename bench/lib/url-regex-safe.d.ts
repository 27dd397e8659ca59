// url-regex-safe ships no type declarations; this is the part of its API the bench uses.
declare module 'url-regex-safe' {
  interface UrlRegexSafeOptions {
    exact?: boolean;
    strict?: boolean;
    auth?: boolean;
    localhost?: boolean;
    parens?: boolean;
    apostrophes?: boolean;
    trailingPeriod?: boolean;
    ipv4?: boolean;
    ipv6?: boolean;
    tlds?: string[];
    returnString?: boolean;
  }
  export default function urlRegexSafe(options?: UrlRegexSafeOptions): RegExp;
}
