// Issue 7 "HTML safety" in a real browser: each payload set of ./payloads.ts, rendered by linkify → toHtml into one
// page, is served on 127.0.0.1 by a tiny node:http server and opened in Debian's Chromium through
// playwright-core. No script may run: the payloads set `window.__xss` or call alert (a dialog), and the page has
// no script of its own. Every link is hovered, focused and clicked; none may run script or go anywhere but an
// allowed scheme.
//
// Not part of `npm test` (a fresh machine has no Chromium): `npm run test:browser` runs
// scripts/install-chromium.sh and then this file.
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { DEFAULT_LINK_SCHEMES } from '../../src/index.js';
import { OPTION_SETS, PAYLOAD_SETS, pageFor } from './payloads.js';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

interface Watch {
  dialogs: string[];
  errors: string[];
  console: string[];
  requests: string[];
}

describe('security: XSS payloads in headless Chromium (linkify → toHtml)', function () {
  this.timeout(120_000);

  let server: Server;
  let origin = '';
  let context: BrowserContext;
  let userDataDir = '';
  const pages = new Map<string, string>();

  before(async () => {
    PAYLOAD_SETS.forEach((set, i) => OPTION_SETS.forEach((options, j) => pages.set(`/set/${i}/${j}`, pageFor(set, options))));
    server = createServer((req, res) => {
      const body = pages.get(req.url ?? '');
      if (body === undefined) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        return;
      }
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    userDataDir = mkdtempSync(join(tmpdir(), 'irilink-chromium-'));
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM,
      headless: true,
      args: ARGS,
      javaScriptEnabled: true,
    });
  });

  after(async () => {
    await context?.close();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
  });

  /** A fresh page on `path`, every request but our own aborted and recorded, dialogs and errors recorded. */
  async function open(path: string): Promise<{ page: Page; watch: Watch }> {
    const watch: Watch = { dialogs: [], errors: [], console: [], requests: [] };
    const page = await context.newPage();
    page.on('dialog', (dialog) => {
      watch.dialogs.push(`${dialog.type()}: ${dialog.message()}`);
      void dialog.dismiss().catch(() => undefined);
    });
    page.on('pageerror', (err) => watch.errors.push(String(err)));
    page.on('console', (msg) => watch.console.push(msg.text()));
    await page.route('**/*', (route) => {
      const url = route.request().url();
      watch.requests.push(url);
      return url.startsWith(origin + '/') ? route.continue() : route.abort();
    });
    await page.goto(origin + path, { waitUntil: 'load' });
    return { page, watch };
  }

  /** `window.__xss` of the page, or 'gone' when the page has navigated away (an error page has none). */
  async function sentinel(page: Page): Promise<unknown> {
    try {
      return await page.evaluate('window.__xss ?? null');
    } catch {
      return 'gone';
    }
  }

  function expectQuiet(watch: Watch, where: string): void {
    expect(watch.dialogs, `dialogs on ${where}`).to.deep.equal([]);
    expect(watch.errors, `page errors on ${where}`).to.deep.equal([]);
    expect(watch.console, `console on ${where}`).to.deep.equal([]);
    for (const url of watch.requests) {
      expect(url.toLowerCase(), `request from ${where}`).to.not.match(/^(javascript|vbscript|data):/);
    }
  }

  PAYLOAD_SETS.forEach((set, i) => {
    OPTION_SETS.forEach((options, j) => {
      const path = `/set/${i}/${j}`;
      it(`${set.name} ${JSON.stringify(options)}: no script runs on load, hover or focus; no script element or handler`, async () => {
        const { page, watch } = await open(path);
        try {
          // The page functions are strings: this file is type-checked without the DOM library.
          const dom = (await page.evaluate(`(() => {
            const all = Array.from(document.querySelectorAll('*'));
            return {
              tags: [...new Set(all.map((e) => e.tagName.toLowerCase()))].sort(),
              handlers: all.flatMap((e) => Array.from(e.attributes).filter((a) => a.name.startsWith('on')).map((a) => e.tagName + '.' + a.name)),
              hrefs: Array.from(document.querySelectorAll('a')).map((a) => a.getAttribute('href') ?? ''),
              text: document.getElementById('out')?.textContent ?? '',
            };
          })()`)) as { tags: string[]; handlers: string[]; hrefs: string[]; text: string };
          expect(dom.handlers).to.deep.equal([]);
          expect(dom.tags.filter((t) => !['html', 'head', 'meta', 'title', 'body', 'div', 'a', 'span', 'br'].includes(t))).to.deep.equal([]);
          for (const href of dom.hrefs) {
            const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(href)?.[1]?.toLowerCase() ?? '';
            expect(DEFAULT_LINK_SCHEMES, href).to.include(scheme);
          }
          expect(dom.text).to.include('__xss'); // the payloads are there, as text
          for (const selector of ['a', 'span']) {
            const count = await page.locator(selector).count();
            for (let k = 0; k < count; k++) {
              await page.locator(selector).nth(k).hover({ timeout: 2000, force: true });
              await page.locator(selector).nth(k).focus({ timeout: 2000 });
            }
          }
          await page.waitForTimeout(50);
          expect(await sentinel(page), 'window.__xss').to.equal(null);
          expectQuiet(watch, path);
        } finally {
          await page.close();
        }
      });

      it(`${set.name} ${JSON.stringify(options)}: clicking every link runs no script`, async () => {
        const first = await open(path);
        const count = await first.page.locator('a').count();
        await first.page.close();
        for (let k = 0; k < count; k++) {
          const { page, watch } = await open(path);
          try {
            const href = (await page.locator('a').nth(k).getAttribute('href')) ?? '';
            await page.locator('a').nth(k).click({ timeout: 2000 });
            await page.waitForTimeout(100);
            const where = `${path} link ${k} ${JSON.stringify(href)}`;
            const value = await sentinel(page);
            expect(value === null || value === 'gone', `window.__xss after clicking ${where}`).to.equal(true);
            expect(page.url().toLowerCase(), where).to.not.match(/^(javascript|vbscript|data):/);
            expectQuiet(watch, where);
          } finally {
            await page.close();
          }
        }
      });
    });
  });

  it('the harness itself would see a script that runs (a control page with one payload unescaped)', async () => {
    pages.set('/control', '<!doctype html><body><img src="x" onerror="window.__xss=1"><a href="javascript:alert(1)">x</a></body>');
    const { page, watch } = await open('/control');
    try {
      await page.waitForFunction('window.__xss === 1', undefined, { timeout: 5000 });
      await page.locator('a').click({ timeout: 2000 });
      await page.waitForTimeout(100);
      expect(watch.dialogs).to.deep.equal(['alert: 1']);
    } finally {
      await page.close();
    }
  });
});
