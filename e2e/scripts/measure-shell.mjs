#!/usr/bin/env node
// Measures what the login route costs a first-time visitor, in Chromium rather than from file
// sizes: every byte the browser received on the wire (compressed, headers included, as DevTools'
// "transferred" column counts them) until the login form is shown and the network is idle.
//
//   node e2e/scripts/measure-shell.mjs http://127.0.0.1:3000
//
// Prints one JSON line (npm run bench reads it):
//   {"js_transferred_bytes":N,"css_transferred_bytes":N,"total_transferred_bytes":N,
//    "js_decoded_bytes":N,"requests":N,"js_files":[{"file","encoding","transferred_bytes",
//    "decoded_bytes"}]}
import { chromium } from '@playwright/test';
import { chromiumLaunchOptions } from '../chromium.mjs';

const baseUrl = (process.argv[2] ?? '').replace(/\/+$/, '');
if (!/^https?:\/\//.test(baseUrl)) {
  console.error('usage: node e2e/scripts/measure-shell.mjs <baseUrl>, e.g. http://127.0.0.1:3000');
  process.exit(2);
}

// No background traffic to count by mistake (chromium.mjs).
const browser = await chromium.launch(chromiumLaunchOptions);

try {
  // A fresh context: an empty cache, as a first visit after a deploy.
  const context = await browser.newContext({ locale: 'pl-PL' });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  /** @type {Map<string, {url: string, type: string, encoding: string, transferred: number, decoded: number, done: boolean}>} */
  const requests = new Map();
  const entry = (id) => {
    let found = requests.get(id);
    if (!found) {
      found = { url: '', type: 'Other', encoding: '', transferred: 0, decoded: 0, done: false };
      requests.set(id, found);
    }
    return found;
  };
  cdp.on('Network.requestWillBeSent', (e) => {
    entry(e.requestId).url = e.request.url;
  });
  cdp.on('Network.responseReceived', (e) => {
    const r = entry(e.requestId);
    r.url = e.response.url;
    r.type = e.type;
    const headers = Object.fromEntries(
      Object.entries(e.response.headers).map(([k, v]) => [k.toLowerCase(), String(v)]),
    );
    r.encoding = headers['content-encoding'] ?? 'identity';
  });
  cdp.on('Network.dataReceived', (e) => {
    entry(e.requestId).decoded += e.dataLength;
  });
  cdp.on('Network.loadingFinished', (e) => {
    const r = entry(e.requestId);
    r.transferred = e.encodedDataLength;
    r.done = true;
  });
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });

  await page.goto(`${baseUrl}/login`);
  // The login form is what the route shows; then whatever it still fetches counts too.
  await page.getByLabel('Login').waitFor({ state: 'visible', timeout: 30_000 });
  await page.waitForLoadState('networkidle');

  const finished = [...requests.values()].filter((r) => r.done);
  const sum = (list, key) => list.reduce((total, r) => total + r[key], 0);
  const js = finished.filter((r) => r.type === 'Script');
  const css = finished.filter((r) => r.type === 'Stylesheet');
  const result = {
    js_transferred_bytes: sum(js, 'transferred'),
    css_transferred_bytes: sum(css, 'transferred'),
    total_transferred_bytes: sum(finished, 'transferred'),
    js_decoded_bytes: sum(js, 'decoded'),
    requests: finished.length,
    js_files: js.map((r) => ({
      file: new URL(r.url).pathname,
      encoding: r.encoding,
      transferred_bytes: r.transferred,
      decoded_bytes: r.decoded,
    })),
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
} finally {
  await browser.close();
}
