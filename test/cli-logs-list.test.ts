// The log modes of the command write what the library's log streams give, without a JSON round trip:
// - `--logs` without --format is the link list: each row of createLogLinkStream, its --display field on a line;
// - --schemes / --no-email leave links out of --logs (list and -f jsonl -l) and --records exactly as filtering
//   the library's rows or records would.
// The expected text is computed here from the library's rows (not a stored copy of an earlier output), for the
// access-log fixture and for a generated log with CRLF lines, JSON escapes, key=value pairs and a line longer than
// the 256 KiB a line is held whole (so its links are written as they are found).
import { expect } from 'chai';
import { Buffer } from 'node:buffer';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { createLogLinkStream, linkRecords } from '../src/logs/index.js';
import type { LinkRecord } from '../src/logs/index.js';
import { jsonlText, type LinkFields } from '../src/render/jsonl.js';
import { ensureBuilt, fixture, irilink } from './support/cli.js';

type Row = Pick<LinkFields, 'text' | 'uri' | 'iri' | 'kind' | 'scheme' | 'schemeInferred'>;

async function logRows(input: Buffer): Promise<Row[]> {
  const pieces: Buffer[] = [];
  for await (const b of Readable.from([input]).pipe(createLogLinkStream())) pieces.push(b as Buffer);
  const out = Buffer.concat(pieces).toString('utf8');
  return out === '' ? [] : out.slice(0, -1).split('\n').map((l) => JSON.parse(l) as Row);
}

// What --schemes LIST and --no-email keep (src/cli/filter.ts): a link with a written scheme only for a listed
// scheme (`mailto:` included), a bare email unless --no-email.
function keeper(schemes: string[] | null, noEmail: boolean): (r: Pick<Row, 'kind' | 'scheme' | 'schemeInferred'>) => boolean {
  return (r) => {
    if (r.kind === 'email' && r.schemeInferred) return !noEmail;
    return schemes === null || r.schemeInferred || schemes.includes(r.scheme);
  };
}

/** A generated log: every kind of line the log rules read, CRLF and LF, and one line of about 300 KB. */
function generatedLog(): string {
  const lines: string[] = [];
  for (let i = 0; i < 200; i++) {
    lines.push(`2026-11-22T04:00:${String(i % 60).padStart(2, '0')}Z INFO {"url":"https:\\/\\/例え.jp\\/パス\\/${i}","ref":"http://ref.example/a?b=${i}","to":"mailto:aiko@example.jp"}`);
    lines.push(`10.0.0.${i % 255} - - "GET /cgi-bin/tools.pl?x=${i} HTTP/1.1" 200 "ftp://files.example/f${i}.zip" "Mozilla/5.0"`);
    lines.push(`user=u${i}@example.org url=https://kv.example/c/${i}\u2028 see www.example.net/p${i} | ssh://git.example/r${i}`);
  }
  let long = '';
  for (let i = 0; long.length < 300_000; i++) long += `https://long.example/${i} ftp://f.example/${i} u${i}@example.com www.w${i}.example.com lorem ipsum `;
  lines.splice(300, 0, long);
  return lines.map((l, i) => l + (i % 3 === 0 ? '\r\n' : '\n')).join('');
}

describe('the command\'s log modes write the library\'s rows without a JSON round trip', () => {
  let dir = '';
  let generated = '';
  before(() => {
    ensureBuilt();
    dir = mkdtempSync(path.join(tmpdir(), 'irilink-logs-list-'));
    generated = path.join(dir, 'generated.log');
    writeFileSync(generated, generatedLog());
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const inputs = (): [string, string][] => [
    ['the access-log fixture', fixture('access.log')],
    ['a generated log', generated],
  ];

  it('--logs without --format: each link\'s --display field on a line (uri by default, iri, text)', async () => {
    for (const [name, file] of inputs()) {
      const rows = await logRows(readFileSync(file));
      expect(rows.length, name).to.be.above(4);
      for (const display of [undefined, 'iri', 'text'] as const) {
        const args = display === undefined ? ['--logs', file] : ['--logs', '-d', display, file];
        const r = irilink(args);
        expect(r.status, r.stderr).to.equal(0);
        expect(r.stdout, `${name} ${args.join(' ')}`).to.equal(rows.map((o) => o[display ?? 'uri'] + '\n').join(''));
      }
      // `--format text --links` is that list too, as without --logs (found in review: it was refused).
      const list = irilink(['--logs', '--format', 'text', '--links', '-d', 'iri', file]);
      expect(list.status, list.stderr).to.equal(0);
      expect(list.stdout, name).to.equal(rows.map((o) => o.iri + '\n').join(''));
    }
  });

  it('--schemes and --no-email: --logs (the list and -f jsonl -l) leaves out what filtering the rows would', async () => {
    const file = generated;
    const rows = await logRows(readFileSync(file));
    const all = irilink(['--logs', '-f', 'jsonl', '-l', file]).stdout.split('\n').slice(0, -1);
    expect(all.length).to.equal(rows.length);
    for (const [flags, keep] of [
      [['--schemes', 'https'], keeper(['https'], false)],
      [['--schemes', 'ftp,mailto'], keeper(['ftp', 'mailto'], false)],
      [['--no-email'], keeper(null, true)],
    ] as const) {
      const kept = rows.filter(keep);
      expect(kept.length, flags.join(' ')).to.be.within(1, rows.length - 1);
      expect(irilink(['--logs', ...flags, file]).stdout, flags.join(' ')).to.equal(kept.map((o) => o.uri + '\n').join(''));
      const jsonl = irilink(['--logs', '-f', 'jsonl', '-l', ...flags, file]).stdout;
      expect(jsonl, flags.join(' ')).to.equal(all.filter((_, i) => keep(rows[i]!)).map((l) => l + '\n').join(''));
    }
  });

  it('--records (with and without --logs) and --schemes / --no-email: each record\'s links filtered, one line a record', () => {
    const input = readFileSync(generated);
    for (const logRules of [false, true]) {
      const records = linkRecords(input, { logRules });
      expect(records.length).to.equal(601);
      for (const [flags, keep] of [
        [['--schemes', 'https'], keeper(['https'], false)],
        [['--no-email'], keeper(null, true)],
      ] as const) {
        const args = ['--records', ...(logRules ? ['--logs'] : []), ...flags, generated];
        const expected = records.map((r): LinkRecord => ({ line: r.line, links: r.links.filter(keep) }));
        expect(expected[300]!.links.length, 'the long line keeps links').to.be.above(100);
        const r = irilink(args);
        expect(r.status, r.stderr).to.equal(0);
        expect(r.stdout, args.join(' ')).to.equal(expected.map((o) => jsonlText(o) + '\n').join(''));
      }
    }
  });
});
