// Issue 7 "HTML safety": what a parse5 tree of the HTML renderer's output may hold — text, <a>, <span>, <br>,
// with the renderer's own attributes, an href only with a DEFAULT_LINK_SCHEMES scheme and printable ASCII.
// One checker for the renderer's tests and the XSS tests over real detector output.
import { parseFragment } from 'parse5';
import { DEFAULT_LINK_SCHEMES } from '../../src/render/index.js';

/** The parts of a parse5 node the checks read. */
export interface Node5 {
  nodeName: string;
  value?: string;
  attrs?: { name: string; value: string }[];
  childNodes?: Node5[];
}

const ALLOWED_ATTRS: Record<string, readonly string[]> = {
  a: ['href', 'class', 'rel', 'target', 'dir'],
  span: ['class', 'title', 'dir'],
  br: [],
};
const ALLOWED_SCHEMES = new Set(DEFAULT_LINK_SCHEMES);

/** What the walk saw: the text content and every href. */
export interface SeenHtml {
  text: string;
  hrefs: string[];
}

/**
 * Walks the children of `node`; throws on anything the renderer never writes. With `flat`, an <a> or <span>
 * inside another element is refused too (the renderer never nests them).
 */
export function checkNode(node: Node5, options: { flat?: boolean } = {}, where = ''): SeenHtml {
  const seen: SeenHtml = { text: '', hrefs: [] };
  const visit = (n: Node5, depth: number): void => {
    for (const child of n.childNodes ?? []) {
      if (child.nodeName === '#text') {
        seen.text += child.value;
        continue;
      }
      const allowed = ALLOWED_ATTRS[child.nodeName];
      if (!allowed) throw new Error(`element <${child.nodeName}>${where}`);
      if (options.flat && child.nodeName !== 'br' && depth > 0) throw new Error(`nested <${child.nodeName}>${where}`);
      for (const attr of child.attrs ?? []) {
        if (!allowed.includes(attr.name)) throw new Error(`attribute ${attr.name} on <${child.nodeName}>${where}`);
        if (attr.name === 'href') {
          // The href is used as written: it must begin with an allowed scheme and hold only printable ASCII.
          const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(attr.value)?.[1]?.toLowerCase();
          if (scheme === undefined || !ALLOWED_SCHEMES.has(scheme)) throw new Error(`href ${JSON.stringify(attr.value)}${where}`);
          if (!/^[\x21-\x7e]+$/.test(attr.value)) throw new Error(`href with non-printable ${JSON.stringify(attr.value)}${where}`);
          seen.hrefs.push(attr.value);
        }
      }
      visit(child, depth + 1);
    }
  };
  visit(node, 0);
  return seen;
}

/** Parses an HTML fragment and checks it (see checkNode); `flat` as there. */
export function checkHtml(html: string, options: { flat?: boolean } = {}): SeenHtml {
  return checkNode(parseFragment(html) as unknown as Node5, options, ` in ${JSON.stringify(html)}`);
}

/** What an HTML parser makes of text (HTML §13.2.3.5 newline normalisation, §13.2.6.4.7 U+0000 dropped). */
export function parsedText(s: string): string {
  return s.replace(/\r\n?/g, '\n').replace(/\0/g, '');
}
