// Mail mode over real mail: corpora/large/mail.txt (SpamAssassin public corpus + Python's email test messages +
// node-mbox fixtures, as an mbox; built by `npm run corpora`, see corpora/README.md) when it has been built,
// streamed message by message; otherwise the committed samples of test/fixtures-mail (the test says which).
// Invariants: no crash, one result per mbox message, every link's text is exactly its slice of its part, the
// chunks cover each part, offsets increase.
import { expect } from 'chai';
import { createReadStream, readFileSync, readdirSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { largeCorpusPath } from '../bench/lib/paths.js';
import { linkifyMail, type MailMessage } from '../src/mail/index.js';

const corpus = largeCorpusPath('mail.txt');
const fixturesDir = new URL('./fixtures-mail/', import.meta.url);

function checkMessage(m: MailMessage): number {
  let links = 0;
  for (const part of m.parts) {
    let pos = 0;
    for (const c of part.chunks) {
      if (c.start !== pos || part.text.slice(c.start, c.end) !== c.text) {
        throw new Error(`message ${m.index} part ${part.part}: chunk at ${c.start} does not match its text`);
      }
      pos = c.end;
    }
    if (pos !== part.text.length) throw new Error(`message ${m.index} part ${part.part}: chunks end at ${pos} of ${part.text.length}`);
    for (const l of part.links) {
      if (part.text.slice(l.start, l.end) !== l.text || l.text.length === 0) {
        throw new Error(`message ${m.index} part ${part.part}: link ${JSON.stringify(l.text)} is not its slice`);
      }
      links++;
    }
  }
  return links;
}

/** From_ lines (at the start or after an empty line), counted independently of splitMbox. */
async function countFromLines(file: string): Promise<number> {
  let count = 0;
  let previousEmpty = true;
  for await (const line of createInterface({ input: createReadStream(file, { encoding: 'latin1' }), crlfDelay: Infinity })) {
    if (previousEmpty && line.startsWith('From ')) count++;
    previousEmpty = line === '';
  }
  return count;
}

describe('mail corpus', () => {
  if (corpus !== undefined) {
    it('streams corpora/large/mail.txt message by message: every link is its slice of its part', async () => {
      const expected = await countFromLines(corpus);
      let messages = 0;
      let links = 0;
      let withParts = 0;
      for await (const m of linkifyMail(createReadStream(corpus))) {
        expect(m.index).to.equal(messages);
        messages++;
        if (m.parts.length > 0) withParts++;
        links += checkMessage(m);
      }
      expect(messages).to.equal(expected);
      // Nearly every message has a text part; REPORT.md counts ~34 000 rough links in the corpus.
      expect(withParts).to.be.greaterThan(messages * 0.95);
      expect(links).to.be.greaterThan(25_000);
    });
  } else {
    it('corpora/large/mail.txt is absent (run `npm run corpora`): checking the committed samples instead', async () => {
      console.log('      note: the large mail corpus corpora/large/mail.txt has not been built; only test/fixtures-mail is read');
      const files = readdirSync(fixturesDir).filter((f) => f.endsWith('.eml') || f.endsWith('.mbox'));
      expect(files.length).to.be.greaterThan(5);
      let links = 0;
      for (const f of files) {
        for await (const m of linkifyMail(readFileSync(new URL(f, fixturesDir)))) links += checkMessage(m);
      }
      expect(links).to.be.greaterThan(10);
    });
  }
});
