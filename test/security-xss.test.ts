// Issue 7 "HTML safety" over real detector output: every payload of test/browser/payloads.ts goes through
// linkify → toHtml and the result is parsed with parse5. The tree may hold only text, <a>, <span> and <br> with
// the renderer's own attributes; an href only with a DEFAULT_LINK_SCHEMES scheme and printable ASCII; the text is
// the input. The same pages are opened in Chromium by test/browser/xss.chromium.ts (npm run test:browser).
import { expect } from 'chai';
import { parse } from 'parse5';
import { linkify, toHtml } from '../src/index.js';
import { checkHtml, checkNode, parsedText, type Node5 } from './support/html-safety.js';
import { OPTION_SETS, PAYLOAD_SETS, pageFor, renderSet } from './browser/payloads.js';

describe('security: XSS payloads through linkify → toHtml, parsed with parse5', () => {
  for (const set of PAYLOAD_SETS) {
    for (const options of OPTION_SETS) {
      it(`${set.name} ${JSON.stringify(options)}: only text, <a>, <span>, <br>; safe hrefs; the text is the input`, () => {
        for (const line of set.lines) {
          const html = toHtml(linkify(line), options);
          const seen = checkHtml(html);
          if (options.display === undefined) expect(seen.text, JSON.stringify(line)).to.equal(parsedText(line));
          for (const href of seen.hrefs) expect(href.toLowerCase(), JSON.stringify(line)).to.not.match(/^(javascript|vbscript|data):/);
        }
      });
    }
  }

  it('the whole pages the browser test opens hold no element but the skeleton, the <div>, <a>, <span>, <br>', () => {
    for (const set of PAYLOAD_SETS) {
      for (const options of OPTION_SETS) {
        const doc = parse(pageFor(set, options)) as unknown as Node5;
        const html = doc.childNodes!.find((n) => n.nodeName === 'html')!;
        const body = html.childNodes!.find((n) => n.nodeName === 'body')!;
        expect(body.childNodes!.filter((n) => !(n.nodeName === '#text' && /^\s*$/.test(n.value!))).map((n) => n.nodeName)).to.deep.equal(['div']);
        const seen = checkNode(body.childNodes![0]!);
        expect(seen.text.length).to.be.greaterThan(0);
        expect(renderSet(set, options)).to.not.match(/<(script|img|svg|iframe|style|body|input|details|math)\b/i);
      }
    }
  });

  it('the payloads do meet the detector: links are found and some are clickable', () => {
    let links = 0;
    let hrefs = 0;
    for (const set of PAYLOAD_SETS) {
      for (const line of set.lines) {
        links += linkify(line).filter((c) => c.type === 'link').length;
        hrefs += (toHtml(linkify(line)).match(/<a href=/g) ?? []).length;
      }
    }
    expect(links).to.be.at.least(15);
    expect(hrefs).to.be.at.least(10);
  });
});
