// XSS payloads for issue 7, run as plain text through linkify → toHtml. Every payload that could run script
// sets `window.__xss` (or calls alert, caught as a dialog), so a page that ran one is seen at once.
// Used by test/security-xss.test.ts (parse5, part of `npm test`) and test/browser/xss.chromium.ts (Chromium).
import { linkify, toHtml } from '../../src/index.js';
import type { HtmlOptions } from '../../src/index.js';

const X = 'window.__xss=1';

export interface PayloadSet {
  name: string;
  /** Lines of plain text; each is linkified and rendered as it would be in a chat or mail pipeline. */
  lines: readonly string[];
}

export const PAYLOAD_SETS: readonly PayloadSet[] = [
  {
    name: 'markup in text',
    lines: [
      `<script>${X}</script>`,
      `<script src="data:text/javascript,${X}"></script>`,
      `"><img src=x onerror="${X}">`,
      `'><svg onload=${X}>`,
      `<body onload=${X}>`,
      `<iframe srcdoc="&lt;script&gt;parent.__xss=1&lt;/script&gt;"></iframe>`,
      `<iframe src="javascript:parent.__xss=1"></iframe>`,
      `<a href="javascript:${X}">click</a>`,
      `<!--<script>${X}</script>-->`,
      `<![CDATA[<script>${X}</script>]]>`,
      `</span></a><script>${X}</script>`,
      `<style>@import 'javascript:${X}';</style>`,
      `<textarea><script>${X}</script></textarea>`,
      `\0<script>${X}</script>`,
      `<scr\0ipt>${X}</scr\0ipt>`,
      `<math><mtext><table><mglyph><style><img src=x onerror=${X}>`,
      `<details open ontoggle=${X}>`,
      `<input autofocus onfocus=${X}>`,
      `&lt;script&gt;${X}&lt;/script&gt;`,
      `&#60;script&#62;${X}&#60;/script&#62;`,
    ],
  },
  {
    name: 'javascript: in every disguise',
    lines: [
      `javascript:${X}`,
      `JaVaScRiPt:${X}`,
      `see javascript://example.com/%0A${X}`,
      `javascript://%0A${X}`,
      ` javascript:${X}`,
      `\tjavascript:${X}`,
      `java\tscript:${X}`,
      `java\nscript:${X}`,
      `java\0script:${X}`,
      `java&#x09;script:${X}`,
      `&#106;avascript:${X}`,
      `&#x6A;avascript:${X}`,
      `javascript&colon;${X}`,
      `javascript&#58;${X}`,
      `javascript%3A${X}`,
      `%0Ajavascript:${X}`,
      `ｊａｖａｓｃｒｉｐｔ:${X}`,
      `ｊａｖａｓｃｒｉｐｔ：${X}`,
      `jav&#x0A;ascript:${X}`,
      `javas\u00ADcript:${X}`,
      `javascript\u200B:${X}`,
      `<javascript:${X}>`,
      `<URL:javascript:${X}>`,
      `(javascript:${X})`,
      `"javascript:${X}"`,
      `https://example.com/#javascript:${X}`,
      `x:javascript:${X}`,
      `javascript:/*https://example.com*/${X}`,
    ],
  },
  {
    name: 'data: and vbscript:',
    lines: [
      `data:text/html,<script>parent.__xss=1</script>`,
      `data:text/html;base64,PHNjcmlwdD5wYXJlbnQuX194c3M9MTwvc2NyaXB0Pg==`,
      `DATA:text/html,<script>parent.__xss=1</script>`,
      ` data:text/html,x`,
      `data:image/svg+xml,<svg onload="parent.__xss=1"/>`,
      `vbscript:msgbox(1)`,
      `VBScript:msgbox(1)`,
      `livescript:${X}`,
      `mocha:${X}`,
    ],
  },
  {
    name: 'attribute break-outs and entities in links',
    lines: [
      `https://x.example/" onmouseover="${X}`,
      `https://x.example/' onmouseover='${X}`,
      `https://x.example/"><script>${X}</script>`,
      `https://x.example/"onclick="${X}"`,
      `https://x.example/?q=<img/src=x/onerror=${X}>`,
      `https://x.example/?a=&quot;onmouseover=&quot;${X}`,
      `https://x.example/&#34;onfocus=&#34;${X}`,
      `https://x.example/?a=&lt;script&gt;${X}&lt;/script&gt;&amp;b=1`,
      `https://x.example/\`onmouseover=${X}`,
      `https://例え.jp/"onmouseover="${X}"`,
      `<https://x.example/"onmouseover="${X}">`,
      `mailto:"onmouseover="${X}"@x.example`,
      `"onmouseover="${X}"@x.example`,
      `https://x.example/%22%20onmouseover=%22${X}`,
      `https://x.example/\u2028javascript:${X}`,
      `https://user:"onmouseover="${X}"@x.example/`,
      `www.x.example/"style="x:expression(${X})`,
      `https://x.example/#"><svg/onload=${X}>`,
    ],
  },
];

export const OPTION_SETS: readonly HtmlOptions[] = [{}, { display: 'iri', breaks: true, isolate: 'always' }];

/** The rendered body of one payload set: each line linkified, rendered, on its own line. */
export function renderSet(set: PayloadSet, options: HtmlOptions): string {
  return set.lines.map((line) => toHtml(linkify(`${line}\n`), { ...options, breaks: true })).join('');
}

/** A whole page for one payload set: the rendered text inside a <div>, nothing else that runs. */
export function pageFor(set: PayloadSet, options: HtmlOptions): string {
  return `<!doctype html>\n<html><head><meta charset="utf-8"><title>${set.name}</title></head>\n<body><div id="out">${renderSet(set, options)}</div></body></html>\n`;
}
