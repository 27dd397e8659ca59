// DESIGN.md P2: the schemes detection knows by name and the ones it never links, shared by detection
// (src/detect/options.ts) and the renderers (src/render/common.ts), so that the two cannot disagree.

/** P2: the explicit schemes linked by default; the renderers make the same ones clickable. */
export const DEFAULT_SCHEMES: readonly string[] = Object.freeze([
  'http', 'https', 'mailto', 'ftp', 'ftps', 'sftp', 'ssh', 'git', 'file', 'ws', 'wss', 'irc', 'ircs', 'xmpp',
  'sip', 'sips', 'tel', 'news', 'nntp', 'urn', 'magnet', 'geo',
]);

/** P2: never linked, whatever the options or a chunk say (script execution and inline payloads). */
export const NEVER_SCHEMES: readonly string[] = Object.freeze(['javascript', 'vbscript', 'data']);

/** RFC 3986 §3.1: scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ); at most 32 characters (the scanner's bound). */
export function isSchemeName(s: string): boolean {
  if (s.length === 0 || s.length > 32) return false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const alpha = (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
    if (i === 0 ? !alpha : !(alpha || (c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d || c === 0x2e)) return false;
  }
  return true;
}
