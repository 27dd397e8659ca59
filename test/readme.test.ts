// README.md read as a user reads it, against the code: what it says one can call, type and expect is what the
// package does. Every value the package entry exports is named in it; the command's option table names exactly the
// options of `irilink --help`; the quick start prints the block shown under it, and each `$ node bin/irilink.js …`
// example with its output line prints that line; each inline example `f(…) // result` evaluates to its result; each
// ⸠…⸡ example is what findLinks finds. An edit of the README or of the code that breaks one of these fails here.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { inspect } from 'node:util';
import * as irilink from '../src/index.js';
import { ensureBuilt, irilink as run } from './support/cli.js';
import { repoRoot } from './support/shared.js';

const readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
const lines = readme.split('\n');

/** The text of the `## title` section, up to the next `## ` heading. */
function section(title: string): string {
  const start = lines.findIndex((l) => l.startsWith(`## ${title}`));
  if (start < 0) throw new Error(`README.md has no section "## ${title}"`);
  let end = start + 1;
  while (end < lines.length && !lines[end]!.startsWith('## ')) end++;
  return lines.slice(start, end).join('\n');
}

/** The inline code spans of the README outside fenced blocks, and the lines inside fenced blocks, with line numbers. */
function codeSpans(): { code: string; line: number }[] {
  const out: { code: string; line: number }[] = [];
  let fenced = false;
  lines.forEach((l, i) => {
    if (/^\s*```/.test(l)) {
      fenced = !fenced;
      return;
    }
    if (fenced) {
      out.push({ code: l, line: i + 1 });
      return;
    }
    // `code` or ``code with a ` in it`` (CommonMark §6.1: a run of n backquotes closes a run of n).
    for (const m of l.matchAll(/(`+)(.+?)(?<!`)\1(?!`)/g)) out.push({ code: m[2]!.trim(), line: i + 1 });
  });
  return out;
}

/** `\u202E` written in an example stands for the character; `↵` for a line break. */
function unescape(s: string): string {
  return s.replace(/\\u([0-9A-Fa-f]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))).replace(/↵/g, '\n');
}

describe('README.md against the code', function () {
  this.timeout(120_000);

  describe('the API it documents', () => {
    it('the package entry loads by its name with import and with require (Node 20.19+ requires an ES module)', () => {
      const script = "import('irilink').then((m) => console.log(typeof m.findLinks, typeof require('irilink').findLinks))";
      const r = spawnSync(process.execPath, ['-e', script], { cwd: repoRoot, encoding: 'utf8' });
      expect(r.stdout.trim(), r.stderr).to.equal('function function');
    });

    it('names every value the package entry exports', () => {
      const missing = Object.keys(irilink).filter((name) => !new RegExp(`\\b${name}\\b`).test(readme));
      expect(missing, 'exports the README does not mention').to.deep.equal([]);
    });

    // `isIri('http://www.example.org/résumé.html') // true`, `skeleton('раураl') === skeleton('paypal')`.
    const examples = [...readme.matchAll(/`([A-Za-z]+\([^`]*\)) (\/\/|===) ([^`]+)`/g)].map((m) => ({
      expr: m[1]!,
      op: m[2]!,
      want: m[3]!.trim(),
    }));
    const names = Object.keys(irilink);
    const values = names.map((n) => (irilink as Record<string, unknown>)[n]);
    const evaluate = (source: string): unknown => new Function(...names, `return (${source});`)(...values) as unknown;

    it('has inline examples to check', () => expect(examples.length).to.be.greaterThan(8));
    for (const { expr, op, want } of examples) {
      it(`${expr} ${op} ${want}`, () => {
        if (op === '===') {
          expect(evaluate(`${expr} === ${want}`)).to.equal(true);
          return;
        }
        const got = inspect(evaluate(expr), { depth: 6, breakLength: Infinity });
        expect(got.replace(/\s+/g, '')).to.equal(want.replace(/\s+/g, ''));
      });
    }
  });

  describe('its ⸠…⸡ examples', () => {
    // A span holding as many ⸠ as ⸡; the P3 example, whose ⸠ and ⸡ lie in two spans around a ↵, is checked below.
    const marked = codeSpans().filter(({ code }) => code.includes('⸠') && code.split('⸠').length === code.split('⸡').length);
    it('has marked examples to check', () => expect(marked.length).to.be.greaterThan(50));
    for (const { code, line } of marked) {
      it(`line ${line}: ${code}`, () => {
        let text = '';
        const want: string[] = [];
        let open = -1;
        for (const ch of unescape(code)) {
          if (ch === '⸠') open = text.length;
          else if (ch === '⸡') want.push(`${open}–${text.length}`);
          else text += ch;
        }
        expect(irilink.findLinks(text).map((l) => `${l.start}–${l.end}`)).to.deep.equal(want);
      });
    }
    it('P3: `<URL:⸠http://example.com/a/very/long`↵`   /path⸡>`', () => {
      const row = lines.find((l) => l.startsWith('| P3 |'));
      expect(row).to.include('`<URL:⸠http://example.com/a/very/long`↵`   /path⸡>`');
      const links = irilink.findLinks('<URL:http://example.com/a/very/long\n   /path>');
      expect(links.map((l) => [l.text, l.uri, l.diagnostics])).to.deep.equal([
        ['http://example.com/a/very/long\n   /path', 'http://example.com/a/very/long/path', ['wrapped']],
      ]);
    });
  });

  describe('the command', () => {
    before(() => ensureBuilt());

    it('its option table names exactly the options of --help', () => {
      const help = run(['--help']);
      expect(help.status, help.stderr).to.equal(0);
      const flags = (text: string): string[] => [...new Set(text.match(/--[a-z][a-z-]*/g) ?? [])].sort();
      // --help: the lines that define an option (`  -f, --format FORMAT …`, `      --no-email …`).
      const helpFlags = flags(help.stdout.split('\n').filter((l) => /^ {2}(-[A-Za-z], )?--| {6}--/.test(l)).map((l) => l.trim().split(/\s{2,}/)[0]).join(' '));
      // README: the first cell of each row of the option table.
      const table = section('The command').split('\n').filter((l) => l.startsWith('| `-'));
      const readmeFlags = flags(table.map((l) => l.split(' | ')[0]).join(' '));
      expect(readmeFlags).to.deep.equal(helpFlags);
    });

    it('--encoding takes WHATWG labels iconv-lite lacks and refuses UTF-7, base64 and hex, as --help and the table say', () => {
      const help = run(['--help']).stdout;
      expect(help).to.include("labels and iconv-lite's charsets; not utf-7, base64 or hex");
      // x-mac-roman and koi8-ru are WHATWG labels only; cp437 is iconv-lite's only.
      for (const label of ['x-mac-roman', 'koi8-ru', 'cp437']) {
        const r = run(['-e', label], Buffer.from('see https://example.com/a\n', 'latin1'));
        expect([label, r.status, r.stdout], r.stderr).to.deep.equal([label, 0, 'https://example.com/a\n']);
      }
      for (const label of ['utf-7', 'base64', 'hex']) {
        const r = run(['-e', label], 'see https://example.com/a\n');
        expect([label, r.status], r.stdout).to.deep.equal([label, 2]);
        expect(r.stderr).to.match(/^irilink: --encoding must be /);
      }
    });

    it('the quick start prints the block shown under it', () => {
      const at = lines.findIndex((l) => l.startsWith('The first command prints'));
      const open = lines.indexOf('```', at);
      const close = lines.indexOf('```', open + 1);
      const r = run(['examples/sample.txt']);
      expect(r.status, r.stderr).to.equal(0);
      expect(r.stdout).to.equal(lines.slice(open + 1, close).join('\n') + '\n');
    });

    // `$ node bin/irilink.js ARGS | sed -n Np` or `$ printf 'TEXT\n' | node bin/irilink.js ARGS`, then the output line.
    const shown = lines
      .map((l, i) => ({ command: l, output: lines[i + 1] ?? '' }))
      .filter(({ command, output }) => command.startsWith('$ ') && command.includes('node bin/irilink.js') && !output.startsWith('$ '));
    it('has command examples with their output', () => expect(shown.length).to.be.greaterThan(1));
    for (const { command, output } of shown) {
      it(command, () => {
        let input: string | undefined;
        let args: string[] = [];
        let pick: number | undefined;
        for (const stage of command.slice(2).split(' | ')) {
          const printf = /^printf '(.*)'$/.exec(stage);
          const sed = /^sed -n (\d+)p$/.exec(stage);
          if (printf) input = printf[1]!.replace(/\\n/g, '\n');
          else if (sed) pick = Number(sed[1]);
          else if (stage.startsWith('node bin/irilink.js')) args = stage.split(' ').slice(2);
          else throw new Error(`unknown stage: ${stage}`);
        }
        const r = run(args, input);
        expect(r.status, r.stderr).to.equal(0);
        const out = r.stdout.split('\n');
        expect(pick === undefined ? out[0] : out[pick - 1]).to.equal(output);
      });
    }
  });
});
