// The Markdown mode on shapes that micromark parses in super-linear time (src/markdown/hostile.ts): such a stretch is
// read as plain text, so no parser sees it; everything else stays Markdown.
import { expect } from 'chai';
import fc from 'fast-check';
import { LIST_SPLIT, readStats } from '../src/markdown/extract.js';
import {
  MAX_EDITS, MAX_CONTAINERS, MAX_DELIMITER_RUNS, MAX_INLINE_MARKS, MAX_LAZY_LINES, MAX_QUOTED_ITEMS, MAX_UNCLOSED_HTML, tooCostlyToParse,
  tooManyEdits, tooManyLazyLines,
} from '../src/markdown/hostile.js';
import { linkifyMarkdown, type MarkdownChunk } from '../src/markdown/index.js';
import { parse, postprocess, preprocess } from 'micromark';
import { gfmTable } from 'micromark-extension-gfm-table';
import { streamed } from './support/markdown.js';

/** Links as `start:text:construct`. */
function links(chunks: MarkdownChunk[]): string[] {
  return chunks.filter((c) => c.type === 'link').map((c) => `${c.start}:${c.text}:${c.type === 'link' ? c.construct : ''}`);
}

describe('Markdown mode: hostile shapes (hostile.ts tooCostlyToParse)', () => {
  it('counts the containers a line opens: up to MAX_CONTAINERS is Markdown, one more is not', () => {
    for (const marker of ['- ', '* ', '+ ', '> ', '1. ', '12) ', '> - ']) {
      const per = marker === '> - ' ? 2 : 1;
      const atLimit = marker.repeat(MAX_CONTAINERS / per) + 'x';
      const over = marker.repeat(MAX_CONTAINERS / per + 1) + 'x';
      expect(tooCostlyToParse(atLimit), JSON.stringify(atLimit.slice(0, 8))).to.equal(false);
      expect(tooCostlyToParse(over), JSON.stringify(over.slice(0, 8))).to.equal(true);
      expect(tooCostlyToParse('para\n\n' + over + '\nmore'), 'on a later line').to.equal(true);
    }
    // Not markers: a `-` without a space after it, ten digits, a marker after text.
    expect(tooCostlyToParse('-'.repeat(1000) + 'x')).to.equal(false);
    expect(tooCostlyToParse('1234567890. '.repeat(100) + 'x')).to.equal(false);
    expect(tooCostlyToParse('x ' + '- '.repeat(100) + 'x')).to.equal(false);
  });

  it('counts the list items inside block quotes of a stretch: up to MAX_QUOTED_ITEMS is Markdown, one more is not', () => {
    for (const item of ['> - a\n', '>   - b\n', '> > 1. c\n', '- > * d\n']) {
      expect(tooCostlyToParse(item.repeat(MAX_QUOTED_ITEMS)), item).to.equal(false);
      expect(tooCostlyToParse(item.repeat(MAX_QUOTED_ITEMS + 1)), item).to.equal(true);
    }
    // Blank lines do not reset it (one parse pays for all of them); quote lines without an item do not count.
    expect(tooCostlyToParse('> - a\n\n'.repeat(MAX_QUOTED_ITEMS + 1))).to.equal(true);
    expect(tooCostlyToParse('> a\n>\n'.repeat(10_000) + '- x\n'.repeat(10_000))).to.equal(false);
  });

  it('counts the characters of a paragraph that may start an inline construct, and its lines: up to MAX_INLINE_MARKS is Markdown', () => {
    for (const mark of ['\\', '`', '[', ']', '!', '&', '<']) {
      // One line: the line counts one.
      const atLimit = ('a' + mark + ' ').repeat(MAX_INLINE_MARKS - 1);
      expect(tooCostlyToParse(atLimit), mark).to.equal(false);
      expect(tooCostlyToParse(atLimit + mark), mark).to.equal(true);
      expect(tooCostlyToParse(atLimit + '\n\n' + mark), mark).to.equal(false);
      // A line of one mark each: each counts two; lines without a mark do not count.
      const lines = ('a' + mark + '\n').repeat(MAX_INLINE_MARKS / 2);
      expect(tooCostlyToParse(lines), mark).to.equal(false);
      expect(tooCostlyToParse(lines + mark), mark).to.equal(true);
      expect(tooCostlyToParse(lines + 'a\n'.repeat(MAX_INLINE_MARKS)), mark).to.equal(false);
    }
    // micromark's text resolver was quadratic in them: such a paragraph reaches no parser, its links are found.
    readStats.plain = 0;
    const source = '[x]: |<div>&amp;c@d.example< '.repeat(4000) + 'https://a.example/\n';
    expect(linkifyMarkdown(source).filter((c) => c.type === 'link').map((c) => c.text)).to.include('https://a.example/');
    expect(readStats.plain).to.equal(source.length);
  });

  it('does not count a fenced code block sure to be one: on the first line, or in column 0 with nothing unsure before it', () => {
    // Three marks a line (`[`, `]` and the line): over MAX_INLINE_MARKS as a paragraph.
    const code = '  ["a", "b", "https://example.com/x"],\n'.repeat(MAX_INLINE_MARKS / 2);
    const hostile = 'a['.repeat(MAX_INLINE_MARKS) + '\n';
    expect(tooCostlyToParse(code), 'as a paragraph').to.equal(true);
    expect(tooCostlyToParse('```json\n' + code + '```\n')).to.equal(false);
    expect(tooCostlyToParse('   ~~~~\n' + code + '~~~~~  \n'), 'indented 3 on the first line, closed by a longer run').to.equal(false);
    expect(tooCostlyToParse('```\n' + hostile), 'never closed: all code').to.equal(false);
    expect(tooCostlyToParse('~~~~\n' + hostile + '~~~\n'), 'a shorter run does not close it').to.equal(false);
    expect(tooCostlyToParse('```json\n' + code + '```\n\n' + hostile), 'after the fence').to.equal(true);
    expect(tooCostlyToParse('    ```\n' + code + '```\n'), 'indented code').to.equal(true);
    expect(tooCostlyToParse('``` `x`\n' + code + '```\n'), 'a backtick in the info string: no fence').to.equal(true);
    // In column 0 it ends a paragraph, a block quote, a list item (no laziness for it) or indented code.
    for (const before of ['Example:\n', '> quoted\n', '- item\n', '    code\n', '```\nx\n```\n', '``` `x`\n']) {
      expect(tooCostlyToParse(before + '```\n' + code + '```\n'), JSON.stringify(before)).to.equal(false);
      expect(tooCostlyToParse(before + '```\n' + code + '```\n' + hostile), JSON.stringify(before) + ' then text').to.equal(true);
    }
    // Unsure from a line starting with `<` (an HTML block may hold the fence-like line: micromark reads `<div>⏎```⏎⏎`
    // as HTML to the blank line, then a paragraph) or a fence-like line indented 1–3 columns (`- a⏎  ```⏎b⏎```⏎`:
    // `b` ends the item and its fence, and is parsed inline).
    for (const before of ['<div>\n', 'a\n  <b>\n', '- a\n  ```\nb\n', 'a\n ~~~\n']) {
      expect(tooCostlyToParse(before + '```\n' + code + '```\n'), JSON.stringify(before)).to.equal(true);
    }
    expect(tooCostlyToParse('<div>\n```\n\n' + hostile)).to.equal(true);
    // tooManyEdits and tooManyLazyLines skip a fence on the first line only: its lines are no containers.
    const edits = '> x\n\n'.repeat(MAX_EDITS + 2);
    const lazy = '> a\n' + 'b\n'.repeat(MAX_LAZY_LINES + 1);
    expect([tooManyEdits(edits), tooManyLazyLines(lazy)]).to.deep.equal([true, true]);
    expect([tooManyEdits('```\n' + edits + '```\n'), tooManyLazyLines('~~~\n' + lazy)]).to.deep.equal([false, false]);
    expect([tooManyEdits('a\n```\n' + edits + '```\n'), tooManyLazyLines('a\n~~~\n' + lazy)]).to.deep.equal([true, true]);
  });

  it('does not count indented code sure to be one: after a blank line, with no container or HTML block before it', () => {
    const code = '    ["a", "b", "https://example.com/x"],\n'.repeat(MAX_INLINE_MARKS / 2);
    expect(tooCostlyToParse('Example:\n\n' + code)).to.equal(false);
    expect(tooCostlyToParse('\t' + code.trimStart()), 'a tab, on the first line').to.equal(false);
    expect(tooCostlyToParse('Example:\n\n' + code + '\n' + 'a['.repeat(MAX_INLINE_MARKS)), 'after the block').to.equal(true);
    // Not after a blank line: a paragraph's continuation. After a line that may open a container: maybe its content.
    expect(tooCostlyToParse('Example:\n' + code)).to.equal(true);
    for (const before of ['- item\n\n', '> quote\n\n', '1. item\n\n', '<div>\n\n', 'a\n  ```\nb\n\n']) {
      expect(tooCostlyToParse(before + code), JSON.stringify(before)).to.equal(true);
    }
    readStats.plain = 0;
    const source = 'Example https://a.example/:\n\n' + code;
    expect(linkifyMarkdown(source).filter((c) => c.type === 'link').map((c) => c.text)).to.deep.equal(['https://a.example/']);
    expect(readStats.plain).to.equal(0);
  });

  it("a README's long JSON example in a fence stays code: nothing in it is linked, however it is written", () => {
    const code = '```json\n[\n' + '  {"tags": ["a", "b"], "see": "https://example.com/item"},\n'.repeat(3000) + ']\n```\n';
    const source = 'See https://docs.example.com/ and `https://code.example/`.\n\n' + code + '\nAfter [it](https://after.example.com/), an example:\n' + code;
    readStats.plain = 0;
    const whole = linkifyMarkdown(source);
    expect(readStats.plain).to.equal(0);
    const expected = [`${source.indexOf('https://docs')}:https://docs.example.com/:bare`, `${source.indexOf('https://after')}:https://after.example.com/:link`];
    expect(links(whole)).to.deep.equal(expected);
    for (const size of [1, 700, 65_536]) expect(links(streamed(source, size)), String(size)).to.deep.equal(expected);
  });

  it('counts the rows of a GFM table one by one, only where micromark reads a table', () => {
    const rows = '| [pkg](https://example.com/p) | a *small* `thing` |\n'.repeat(MAX_DELIMITER_RUNS);
    const table = '| Name | About |\n| --- | :-: |\n' + rows;
    expect(tooCostlyToParse(table, 0, table.length, true)).to.equal(false);
    expect(tooCostlyToParse(table, 0, table.length, false), 'without GFM: a paragraph').to.equal(true);
    expect(tooCostlyToParse('| a *b* |\n'.repeat(MAX_DELIMITER_RUNS), 0, undefined, true), 'no delimiter row').to.equal(true);
    expect(tooCostlyToParse('| Name |\n| --- | --- |\n' + rows, 0, undefined, true), 'cell counts differ').to.equal(true);
    expect(tooCostlyToParse('para\n' + table, 0, undefined, true), 'after a paragraph line (micromark: a table)').to.equal(true);
    expect(tooCostlyToParse('<div>\n\n' + table, 0, undefined, true), 'after a line starting with <').to.equal(true);
    expect(tooCostlyToParse(table.replace(/^\| \[/gm, '  | ['), 0, undefined, true), 'rows indented').to.equal(true);
    // Without the leading `|`: rows may start with a letter (or `|`, or a non-ASCII character), not as a block does.
    const bare = 'Name | About\n--- | :-:\n' + rows.replace(/^\| /gm, 'x ');
    expect(tooCostlyToParse(bare, 0, bare.length, true)).to.equal(false);
    expect(tooCostlyToParse(bare.replace('--- |', '- |'), 0, undefined, true), '`- | :-:` is a list item').to.equal(true);
    expect(tooCostlyToParse(bare.replace(/^x /gm, '= '), 0, undefined, true), 'rows not sure to be rows: counted').to.equal(true);
    expect(tooCostlyToParse('Name\n---\n' + rows, 0, undefined, true), 'a setext heading: no `|`').to.equal(true);
    // A row is bounded as a paragraph is.
    const row = '| ' + 'a*'.repeat(MAX_DELIMITER_RUNS + 1) + ' |\n';
    expect(tooCostlyToParse('| h |\n| - |\n' + row, 0, undefined, true)).to.equal(true);
    readStats.plain = 0;
    const found = linkifyMarkdown('# List\n\n' + table).filter((c) => c.type === 'link');
    expect([found.length, readStats.plain]).to.deep.equal([MAX_DELIMITER_RUNS, 0]);
    expect(new Set(found.map((c) => (c.type === 'link' ? c.construct : '')))).to.deep.equal(new Set(['link']));
  });

  it('takes table rows and code blocks only where micromark reads them (random documents)', () => {
    const lines = [
      '| a | b |', '|a|', '| `x | y` | z |', '| a \\| b | c |', '|| x |', '| a |  ', '|', '| a | b', '| \\\\| c |',
      '| - | - |', '|---|:-:|', '| :- |', '| --- | --- | --- |', '|-|', '| - |\t', '| -- | x |', '|:|', '|\t-\t|\t-\t|', '| - - |',
      '| c | d |', '| e |', '| f | a*b* |', '', '', '> q', '>', '- item', '  | indented |', '    | code |', '```', '~~~', '<div>',
      '<!--', '-->', 'text', '# h', '---', '1. a', '\t| tab |', ' | one space |', '| x\\|', '> | a | b |', '| ```', '===',
      // A header row and a delimiter row that match, or almost.
      '| a | b |\n| - | - |', '|a|\n|-|', '| `x | y` |\n| - | - |', '| a \\| b |\n| --- |', '| a | b |\n| - |',
      '|| x |\n| - | - |', '| a |\n|:-:|\n| b |', '| a | b\n|-|-', '| a |\n| - |\t\n| b |',
      // Fences and indented code.
      '```js', ' ```', '   ~~~~', '````', '``` `x`', '    code', '\tcode', '  \tcode', '     ', '\t', '      more', '-', '* x',
      '2) b', '+', '  - i', '    - j', '<p>', '  <b>', '\n\n    code\n', '```\ncode\n```', '~~~\n\n    x\n~~~',
      // Tables without a leading `|`, and lines that only look like their rows.
      'a | b', 'a | b | c', '--- | ---', '- | -', ':-- | --:', '-|-', 'c | d', 'é | x', '1. c | d', '* e | f', 'a\\| b',
      '---', '-- | --', '-\t| -', 'a | b\n--- | ---', 'a | b\n- | -', 'x\n---', 'a | b\n:-|-:\nc', 'Ünïcode | x\n-|-',
      '[x] | y', '= | =', '[x]: /u', '[x]: /u | v', '! x', '\\- x', ': x', '(x) | y', '"x"',
    ];
    let withRows = 0;
    let withCode = 0;
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...lines), { minLength: 2, maxLength: 14 }), fc.constantFrom('\n', '\r\n'), (picked, eol) => {
        const text = picked.join(eol) + eol;
        const seen = { table: [] as number[], code: [] as number[] };
        tooCostlyToParse(text, 0, text.length, true, seen);
        if (seen.table.length === 0 && seen.code.length === 0) return;
        if (seen.table.length > 0) withRows++;
        if (seen.code.length > 0) withCode++;
        const starts = [0];
        for (let i = 0; i < text.length; i++) if (text[i] === '\n') starts.push(i + 1);
        const rows = new Set<number>();
        const code = new Set<number>();
        // A parser per document: micromark keeps per-document state in it (its map of lazy lines).
        const events = postprocess(parse({ extensions: [gfmTable()] }).document().write(preprocess()(text, undefined, true)));
        for (const [kind, token] of events) {
          if (kind !== 'enter') continue;
          if (token.type === 'tableRow' || token.type === 'tableDelimiterRow') rows.add(starts[token.start.line - 1]!);
          if (token.type === 'codeFenced' || token.type === 'codeIndented') {
            for (let line = token.start.line; line <= token.end.line; line++) code.add(starts[line - 1]!);
          }
        }
        for (const ls of seen.table) expect(rows.has(ls), `${JSON.stringify(text)}: the row at ${ls}`).to.equal(true);
        for (const ls of seen.code) expect(code.has(ls), `${JSON.stringify(text)}: the code line at ${ls}`).to.equal(true);
      }),
      { numRuns: 6000, seed: 117 },
    );
    expect([withRows, withCode].every((n) => n > 600), `${withRows} with rows, ${withCode} with code`).to.equal(true);
  });

  it('counts the lazy continuation lines of a paragraph in a container (tooManyLazyLines): up to MAX_LAZY_LINES is Markdown', () => {
    // The paragraph's first line, and a line that continues it lazily (without the `>` or the item's indentation).
    const shapes: [string, string][] = [
      ['> a\n', 'b\n'],
      ['> > a\n', '> b\n'],
      ['- a\n', 'b\n'],
      ['1.  a\n', '   b\n'],
      ['> - a\n', '>  b\n'],
      ['- a\n\n  b\n', 'c\n'],
      ['\t- a\n', '    b\n'],
      ['2. a\n', 'b\n'],
    ];
    for (const [first, line] of shapes) {
      const atLimit = first + line.repeat(MAX_LAZY_LINES);
      expect(tooManyLazyLines(atLimit), JSON.stringify(first + line)).to.equal(false);
      expect(tooManyLazyLines(atLimit + line), JSON.stringify(first + line)).to.equal(true);
      // A blank line, or an item that interrupts, ends the paragraph; the count starts again.
      expect(tooManyLazyLines(atLimit + '\n' + first + line), JSON.stringify(first + line)).to.equal(false);
      expect(tooManyLazyLines(atLimit + '- x\n' + line), JSON.stringify(first + line)).to.equal(false);
    }
    // Not lazy: lines with the container's `>` or indentation, and the lines of a paragraph in no container.
    for (const [first, line] of [['> a\n', '> b\n'], ['- a\n', '  b\n'], ['> - a\n', '>   b\n'], ['a\n', 'b\n'], ['a\n', '2. b\n']]) {
      expect(tooManyLazyLines(first + line.repeat(4 * MAX_LAZY_LINES)), JSON.stringify(first + line)).to.equal(false);
    }
    // micromark looked back through the paragraph's events for each lazy line (found by scripts/fuzz-cost.ts): such
    // a paragraph reaches no parser, its links are found.
    readStats.plain = 0;
    // (A list item in a block quote: the fast reader leaves it to micromark.)
    const source = '> - https://a.example/\r\n' + 'b .中国\r\n'.repeat(2 * MAX_LAZY_LINES);
    expect(linkifyMarkdown(source).filter((c) => c.type === 'link').map((c) => c.text)).to.include('https://a.example/');
    expect(readStats.plain).to.equal(source.length);
  });

  it('counts the containers a parse closes (tooManyEdits): container lines after a blank line or further left', () => {
    const shapes = ['  > a\n\n', '- a\n  - b\n', ' - a\n   - b\n', '> x\n\n'];
    for (const unit of shapes) {
      // The first container line closes nothing.
      expect(tooManyEdits(unit.repeat(MAX_EDITS + 1)), JSON.stringify(unit)).to.equal(false);
      expect(tooManyEdits(unit.repeat(MAX_EDITS + 2)), JSON.stringify(unit)).to.equal(true);
    }
    // Containers that go on close nothing: a long flat list, a long block quote, text between the markers.
    expect(tooManyEdits('- a\n'.repeat(10_000))).to.equal(false);
    expect(tooManyEdits('> a\n'.repeat(10_000))).to.equal(false);
    expect(tooManyEdits('- a\n  text\n'.repeat(10_000))).to.equal(false);
  });

  it('counts the setext headings of a parse (tooManyEdits): lines of `=` or `-` alone after a line with text', () => {
    for (const unit of ['a\n=\n', 'a\n---  \n', '> a\n> ==\n', 'a\n  -\n', 'a\r\n=\r\n']) {
      const atLimit = unit.repeat(MAX_EDITS);
      expect(tooManyEdits(atLimit), JSON.stringify(unit)).to.equal(false);
      expect(tooManyEdits(atLimit + unit), JSON.stringify(unit)).to.equal(true);
    }
    // After a blank line, or first in the part, such a line underlines nothing; nor does `=` among other text.
    for (const unit of ['\n=\n', '\n---\n', 'a\n= x\n', 'a\n-=\n']) {
      expect(tooManyEdits(unit.repeat(4 * MAX_EDITS)), JSON.stringify(unit)).to.equal(false);
    }
    expect(tooManyEdits('=\n')).to.equal(false);
    // micromark moved all the events of the parse for each heading (found by scripts/fuzz-cost.ts): such a part
    // reaches no parser, its links are found.
    readStats.plain = readStats.parsed = 0;
    // (`=` after a quoted paragraph, lazy or not: the fast reader leaves it to micromark.)
    const headings = '\r\n> a\r\n='.repeat(2 * MAX_EDITS);
    const source = 'https://a.example/\n' + headings;
    expect(linkifyMarkdown(source).filter((c) => c.type === 'link').map((c) => c.text)).to.deep.equal(['https://a.example/']);
    expect(readStats.parsed).to.equal(0);
    expect(readStats.plain).to.be.at.least(headings.length - 2);
  });

  it('a parse that would close too many containers is read as plain text, also where no split is possible', () => {
    for (const [name, source] of [
      // (A list in a quote, an inline comment: what the fast reader leaves to micromark. It reads quotes holding
      // paragraphs and headings and lists holding plain items itself, in linear time.)
      ['indented quotes', '  > - x https://a.example/ ~~\n\n'.repeat(1000)],
      ['one item holding a long nested list', '- top\n' + '  - a https://a.example/ <!--c-->\n    - b\n'.repeat(1000)],
      ['indented lists', ' - a https://a.example/ <!--c-->\n   - b\n'.repeat(1000)],
    ]) {
      readStats.plain = 0;
      const chunks = linkifyMarkdown(source!);
      expect(readStats.plain, name).to.be.above(0);
      expect(chunks.filter((c) => c.type === 'link').length, name).to.equal(1000);
      expect(chunks.map((c) => c.text).join(''), name).to.equal(source);
    }
  });

  it('a thematic break is no list: only its block quote markers count', () => {
    for (const rule of ['- ', '* ', '_ ']) expect(tooCostlyToParse(rule.repeat(10_000)), rule).to.equal(false);
    expect(tooCostlyToParse('> '.repeat(MAX_CONTAINERS + 1) + '- - -')).to.equal(true);
    // With text after it, `- - - … x` is nested lists.
    expect(tooCostlyToParse('- '.repeat(MAX_CONTAINERS + 1) + 'x')).to.equal(true);
  });

  it('counts the delimiter runs of a paragraph: up to MAX_DELIMITER_RUNS is Markdown, one more is not', () => {
    const unit: Record<string, string> = { '*': 'a*', '**': '**a', '~~': '~~a', '_': ' _a' };
    for (const [name, run] of Object.entries(unit)) {
      const atLimit = run.repeat(MAX_DELIMITER_RUNS);
      expect(tooCostlyToParse(atLimit), name).to.equal(false);
      expect(tooCostlyToParse(atLimit + run), name).to.equal(true);
    }
    // Over several lines of one paragraph (also with CR LF, also inside a block quote), but not across a paragraph end.
    const half = 'a*'.repeat(MAX_DELIMITER_RUNS / 2 + 1);
    for (const eol of ['\n', '\r\n', '\r']) {
      expect(tooCostlyToParse(half + eol + half), JSON.stringify(eol)).to.equal(true);
      expect(tooCostlyToParse('> ' + half + eol + '> ' + half), JSON.stringify(eol)).to.equal(true);
      expect(tooCostlyToParse(half + eol + eol + half), JSON.stringify(eol)).to.equal(false);
      expect(tooCostlyToParse('> ' + half + eol + '>' + eol + '> ' + half), JSON.stringify(eol)).to.equal(false);
      // A list item is a block of its own.
      expect(tooCostlyToParse('- ' + half + eol + '- ' + half), JSON.stringify(eol)).to.equal(false);
    }
    // `2. x` and an empty item cannot interrupt a paragraph (§5.2): they continue it, and the count goes on.
    const line = 'a* '.repeat(100);
    const lines = Math.ceil(MAX_DELIMITER_RUNS / 100) + 1;
    expect(tooCostlyToParse('x\n' + ('2. ' + line + '\n').repeat(lines)), '2. x').to.equal(true);
    expect(tooCostlyToParse((line + '\n+ \n').repeat(lines)), 'empty item').to.equal(true);
    expect(tooCostlyToParse(('1. ' + line + '\n').repeat(lines)), '1. x').to.equal(false);
    // `snake_case` cannot open or close emphasis: not counted.
    expect(tooCostlyToParse('a_b '.repeat(3 * MAX_DELIMITER_RUNS))).to.equal(false);
    expect(tooCostlyToParse('_a_ '.repeat(MAX_DELIMITER_RUNS))).to.equal(true);
  });

  it('counts the inline HTML openers of a paragraph left without a closer: up to MAX_UNCLOSED_HTML of a kind is Markdown', () => {
    const kinds: [string, string][] = [['<!-- ', '-->'], ['<? ', '?>'], ['<![CDATA[ ', ']]>'], ['<!X ', '>']];
    for (const [opener, closer] of kinds) {
      const atLimit = ('a ' + opener).repeat(MAX_UNCLOSED_HTML);
      expect(tooCostlyToParse(atLimit), opener).to.equal(false);
      expect(tooCostlyToParse(atLimit + opener), opener).to.equal(true);
      // Closed ones cost nothing more: each closer forgets the openers before it.
      expect(tooCostlyToParse((opener + 'x ' + closer + ' ').repeat(1_000)), opener + closer).to.equal(false);
      expect(tooCostlyToParse(atLimit + closer + atLimit), opener + closer).to.equal(false);
      // Across the lines of a paragraph (also past a `2.` line), not across a blank line.
      expect(tooCostlyToParse(atLimit + '\n2. ' + opener), opener).to.equal(true);
      expect(tooCostlyToParse(atLimit + '\n' + opener), opener).to.equal(true);
      expect(tooCostlyToParse(atLimit + '\n\n' + opener), opener).to.equal(false);
    }
    // Kinds are counted apart: a `>` does not close a comment.
    expect(tooCostlyToParse(('<!-- a > ').repeat(MAX_UNCLOSED_HTML + 1))).to.equal(true);
  });

  it('a hostile stretch goes to no parser and is read as plain text; the stretches around it stay Markdown', () => {
    const nested = '- '.repeat(2000) + 'see https://a.example/x and `https://b.example/` there';
    const emphasis = 'a*'.repeat(5000) + ' https://c.example/y';
    const source = '`https://code.example/` [t](https://d.example/)\n\n' + nested + '\n\n' + emphasis + '\n\nLast `https://e.example/` ok\n';
    readStats.parsed = 0;
    readStats.plain = 0;
    const chunks = linkifyMarkdown(source);
    expect(chunks.map((c) => c.text).join('')).to.equal(source);
    expect(readStats.plain).to.be.at.least(nested.length + emphasis.length);
    expect(readStats.parsed).to.be.below(source.length - nested.length - emphasis.length);
    const at = (s: string): number => source.indexOf(s);
    expect(links(chunks)).to.deep.equal([
      `${at('https://d.')}:https://d.example/:link`,
      // plain text: the code span's link is found too
      `${at('https://a.')}:https://a.example/x:bare`,
      `${at('https://b.')}:https://b.example/:bare`,
      `${at('https://c.')}:https://c.example/y:bare`,
    ]);
  });

  it('a long list whose items hold nested lists is parsed in parts of about LIST_SPLIT units (extract.ts)', () => {
    // micromark alone takes time quadratic in the length of such a list. The last: items whose first line holds
    // an empty item or one not numbered 1 (segment.ts startsItem), a place to split after another item's line.
    for (const item of ['- - x https://a.example/\n', '+ 1) a https://a.example/\n', '+ *\n- 2. https://a.example/\n', '2) + \n3. https://a.example/\n']) {
      const source = item.repeat(Math.ceil(64_000 / item.length));
      const splits = readStats.splits;
      const chunks = linkifyMarkdown(source);
      expect(readStats.splits - splits, JSON.stringify(item)).to.be.at.least(Math.floor(source.length / LIST_SPLIT) - 1);
      expect(chunks.filter((c) => c.type === 'link').length).to.equal(source.length / item.length);
    }
  });

  it('the stream gives the same chunks however the hostile text is written', () => {
    const source = 'intro https://a.example/\n\n' + '> '.repeat(300) + 'quoted https://b.example/q\n\n' +
      '**_'.repeat(1000) + ' https://c.example/\n\n`https://code.example/`\n';
    const whole = streamed(source, source.length);
    expect(links(whole)).to.deep.equal(
      ['https://a.example/', 'https://b.example/q', 'https://c.example/'].map((u) => `${source.indexOf(u)}:${u}:bare`),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 700 }), (size) => {
        const chunks = streamed(source, size);
        expect(chunks.map((c) => c.text).join('')).to.equal(source);
        expect(links(chunks)).to.deep.equal(links(whole));
      }),
      { numRuns: 30, seed: 58 },
    );
  });
});
