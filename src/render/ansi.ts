// ANSI renderer: OSC 8 terminal hyperlinks (the "Hyperlinks in terminal emulators" convention, egmontkob,
// as implemented by VTE, iTerm2, kitty, WezTerm, Windows Terminal …):
//   ESC ] 8 ; params ; URI ST  text  ESC ] 8 ; ; ST      with ST = ESC \ (ECMA-48 §8.3.143) or BEL.
//
// The text is other people's, so it must not drive the terminal: every control character except TAB, LF and a CR
// right before LF is neutralised — C0 controls and DEL shown as their Control Pictures (U+2400–U+2421, e.g. ESC
// as ␛), C1 controls (U+0080–U+009F, which include the 8-bit CSI and OSC) as U+FFFD, or removed with
// controls: 'strip'. A CR not followed by LF is a control like the others (shown ␍, as `less` shows it ^M): it
// moves the cursor back over the line, so the text after it would overwrite a hyperlink's cells and show, next to
// what is left of the link, a host the link does not go to (`https://xxxx.example/` CR `https://bank` reads
// `https://bank.example/` with `.example/` still a link to xxxx.example). BS is neutralised for the same reason.
// The explicit bidi formatting characters (embeddings and overrides U+202A–202E, isolates U+2066–2069) are shown as
// U+FFFD too: a terminal that implements bidi (VTE, mlterm, Konsole) would let one left open in the text reverse
// the link after it (`\u202E x https://evil.example/moc.elgoog//:sptth` reads `https://google.com/…`), and
// the others show nothing for them. The marks LRM, RLM, ALM (which open nothing) stay.
// One exception, on by default: SGR sequences (ESC [ digits ; : … m — colours and styles, what `less -R` lets
// through) may stay, because logs are full of them and they cannot move the cursor, write elsewhere, set a
// title, touch the clipboard or make a hyperlink.
import { badOption } from '../errors.js';
import type { Chunk, LinkChunk } from '../types.js';
import {
  COMMON_OPTION_NAMES,
  displayText,
  isExplicitBidiFormat,
  readBoolean,
  readChoice,
  readDisplay,
  readOptions,
  refusalsOf,
  renderAll,
  resolveSchemes,
  type ChunkRenderer,
  type CommonRenderOptions,
} from './common.js';

export interface AnsiOptions extends CommonRenderOptions {
  /** String Terminator of the OSC 8 sequences: `'st'` = ESC \ (default, the standard one) or `'bel'` = BEL. */
  terminator?: 'st' | 'bel';
  /**
   * SGR sequences in the text: `'keep'` (default), `'strip'` (removed whole), or `'control'` (not let through:
   * its ESC is handled like any other control character, see `controls`).
   */
  sgr?: 'keep' | 'strip' | 'control';
  /** Other control characters in the text: `'show'` as Control Pictures / U+FFFD (default) or `'strip'`. */
  controls?: 'show' | 'strip';
  /** Underline clickable links (SGR 4 … 24). Default false: terminals mark OSC 8 links themselves. */
  underline?: boolean;
  /** Colour clickable links with a 256-colour palette index 0–255 (SGR 38;5;n … 39). Default none. */
  color?: number;
}

const ANSI_OPTION_NAMES: readonly string[] = [
  ...COMMON_OPTION_NAMES, 'terminator', 'sgr', 'controls', 'underline', 'color',
];

const ESC = '\x1b';
const MAX_SGR = 64; // longest SGR sequence let through; a longer one is shown like any other control

// States of the control-sequence reader.
const PLAIN = 0;
const AFTER_ESC = 1; // ESC seen
const IN_CSI = 2; //    ESC [ and then parameter bytes 0–9 ; :

/** C0 except TAB and LF (CR is handled apart), DEL, C1, and the bidi embeddings, overrides and isolates. */
function isNeutralised(c: number): boolean {
  if (c < 0x20) return c !== 0x09 && c !== 0x0a;
  if (c < 0x7f) return false;
  return c <= 0x9f || isExplicitBidiFormat(c);
}

class AnsiRenderer implements ChunkRenderer {
  private readonly display;
  private readonly schemes;
  private readonly linksOnly: boolean;
  private readonly st: string;
  private readonly sgr: 'keep' | 'strip' | 'control';
  private readonly strip: boolean;
  private readonly styleOn: string;
  private readonly styleOff: string;
  private state = PLAIN;
  /** The control sequence read so far (starts with ESC) while state !== PLAIN. */
  private pending = '';
  /** The text so far ended with a CR not yet written: kept if an LF follows, neutralised otherwise. */
  private cr = false;

  /** `fn`: the function that options errors name (the plain function, createRenderer or createRenderStream). */
  constructor(options: unknown, fn = 'toAnsi') {
    const o = readOptions(fn, options, ANSI_OPTION_NAMES);
    this.display = readDisplay(o.display);
    this.schemes = resolveSchemes(o.schemes);
    this.linksOnly = readBoolean('links', o.links, false);
    this.st = readChoice('terminator', o.terminator, ['st', 'bel'] as const, 'st') === 'st' ? ESC + '\\' : '\x07';
    this.sgr = readChoice('sgr', o.sgr, ['keep', 'strip', 'control'] as const, 'keep');
    this.strip = readChoice('controls', o.controls, ['show', 'strip'] as const, 'show') === 'strip';
    const underline = readBoolean('underline', o.underline, false);
    const color = o.color;
    if (color !== undefined && !(Number.isInteger(color) && (color as number) >= 0 && (color as number) <= 255)) {
      throw badOption('color', 'an integer 0–255 (256-colour palette index)', color);
    }
    // ECMA-48 §8.3.117 SGR: 4 underline / 24 not underlined; 38;5;n palette colour / 39 default colour.
    this.styleOn = (underline ? ESC + '[4m' : '') + (color !== undefined ? `${ESC}[38;5;${color as number}m` : '');
    this.styleOff = (color !== undefined ? ESC + '[39m' : '') + (underline ? ESC + '[24m' : '');
  }

  chunk(chunk: Chunk): string {
    if (chunk.type === 'link') {
      const out = this.flush() + this.link(chunk);
      return this.linksOnly ? out + '\n' : out;
    }
    return this.linksOnly ? '' : this.text(chunk.text);
  }

  end(): string {
    return this.flush();
  }

  /** An unfinished control sequence can no longer become SGR, a held CR no longer CR LF: show (or strip) them. */
  private flush(): string {
    let out = '';
    if (this.cr) {
      this.cr = false;
      if (!this.strip) out = '\u240d';
    }
    if (this.state === PLAIN) return out;
    out += this.neutralised(this.pending);
    this.state = PLAIN;
    this.pending = '';
    return out;
  }

  // `seq` starts with ESC and holds printable ASCII after it: neutralise the ESC only.
  private neutralised(seq: string): string {
    return (this.strip ? '' : '\u241b') + seq.slice(1);
  }

  private text(s: string): string {
    let out = '';
    if (this.cr && s.length > 0) {
      // The CR held at the end of the last text: CR LF stays a line break.
      if (s.charCodeAt(0) === 0x0a) {
        this.cr = false;
        out = '\r';
      } else {
        out = this.flush();
      }
    }
    let last = 0; // s.slice(last, i) is plain text not yet copied to out
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (this.state !== PLAIN) {
        // ECMA-48 §5.4: CSI P…P I…I F; only parameter bytes 0–9 ; : and the final byte m make an SGR here.
        if (this.state === AFTER_ESC && c === 0x5b) {
          this.state = IN_CSI;
          this.pending += '[';
          last = i + 1;
          continue;
        }
        if (this.state === IN_CSI && ((c >= 0x30 && c <= 0x3b) || c === 0x6d) && this.pending.length < MAX_SGR) {
          last = i + 1;
          if (c !== 0x6d) {
            this.pending += s[i];
            continue;
          }
          const seq = this.pending + 'm';
          this.state = PLAIN;
          this.pending = '';
          out += this.sgr === 'keep' ? seq : this.sgr === 'strip' ? '' : this.neutralised(seq);
          continue;
        }
        // Not an SGR: the ESC is neutralised and this character is read again as plain text.
        out += this.flush();
        last = i;
      }
      if (c === 0x1b) {
        out += s.slice(last, i);
        this.state = AFTER_ESC;
        this.pending = ESC;
        last = i + 1;
        continue;
      }
      // CR: kept before LF; at the end of the text held until the next character is known.
      if (c === 0x0d) {
        if (i + 1 < s.length && s.charCodeAt(i + 1) === 0x0a) continue;
        out += s.slice(last, i);
        last = i + 1;
        if (i + 1 === s.length) this.cr = true;
        else if (!this.strip) out += '\u240d';
        continue;
      }
      if (isNeutralised(c)) {
        out += s.slice(last, i);
        if (!this.strip) out += c < 0x20 ? String.fromCharCode(0x2400 + c) : c === 0x7f ? '\u2421' : '\ufffd';
        last = i + 1;
      }
    }
    if (this.state !== PLAIN) return out;
    return last === 0 && out === '' ? s : out + s.slice(last);
  }

  private link(link: LinkChunk): string {
    const shown = displayText(link, this.display);
    let body = this.text(shown);
    body += this.flush(); // a control sequence cannot run past the end of the link text
    if (refusalsOf(link, this.schemes).length > 0) return body;
    // refusalsOf() left a uri of printable ASCII only (the bytes 32–126 OSC 8 allows), so it cannot end the OSC.
    const osc = ESC + ']8;;';
    return osc + link.uri + this.st + this.styleOn + body + this.styleOff + osc + this.st;
  }
}

/** A per-chunk ANSI renderer (used by createRenderStream). */
export function createAnsiRenderer(options?: AnsiOptions, fn = 'toAnsi'): ChunkRenderer {
  return new AnsiRenderer(options, fn);
}

/**
 * Render chunks for a terminal: each clickable link as an OSC 8 hyperlink
 * `ESC ]8;;{uri} ESC \ {text} ESC ]8;; ESC \`, text with its control characters neutralised (SGR kept).
 */
export function toAnsi(chunks: readonly Chunk[], options?: AnsiOptions): string {
  return renderAll('toAnsi', chunks, new AnsiRenderer(options));
}
