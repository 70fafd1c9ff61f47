import type { Page, Route } from '@playwright/test';

/**
 * A fake Zebra printer behind a fake Browser Print service, for the label specs (samples and kit
 * orders): what the real service answers, and every ZPL written to it.
 */

export const DEVICE = {
  name: 'Zebra ZD421 (e2e)',
  uid: 'ZD421-E2E',
  connection: 'usb',
  deviceType: 'printer',
  provider: 'com.zebra.ds.webdriver.desktop.provider.DefaultDeviceProvider',
  manufacturer: 'Zebra Technologies',
};
export const READY =
  'PRINTER STATUS\r\n   ERRORS:         0 00000000 00000000\r\n   WARNINGS:       0 00000000 00000000\r\n';
/** Paper out (bit 0x1) and paused (bit 0x10000) in ~HQES error group 1. */
export const PAUSED_NO_PAPER =
  'PRINTER STATUS\r\n   ERRORS:         1 00000000 00010001\r\n   WARNINGS:       0 00000000 00000000\r\n';

export interface FakePrinter {
  /** What GET /default answers: a device, or '' for no default printer. */
  defaultDevice: typeof DEVICE | '';
  /** What POST /read answers after ~HQES; null makes the read fail (500). */
  status: string | null;
  /** Every `data` written to the printer. */
  written: string[];
  /** The service is not running at all. */
  unreachable: boolean;
}

const CORS = { 'Access-Control-Allow-Origin': '*' };

/** A fake Zebra Browser Print service on 127.0.0.1:9100, answering as the real one does. */
export async function fakeBrowserPrint(page: Page, printer: FakePrinter) {
  await page.route('http://127.0.0.1:9100/**', async (route: Route) => {
    if (printer.unreachable) return route.abort('connectionrefused');
    const url = new URL(route.request().url());
    if (url.pathname === '/default') {
      const body = printer.defaultDevice ? JSON.stringify(printer.defaultDevice) : '';
      return route.fulfill({ status: 200, headers: CORS, contentType: 'application/json', body });
    }
    const payload = JSON.parse(route.request().postData() ?? '{}') as { data?: string };
    if (url.pathname === '/write') {
      printer.written.push(payload.data ?? '');
      return route.fulfill({ status: 200, headers: CORS, body: '' });
    }
    if (url.pathname === '/read') {
      if (printer.status === null) return route.fulfill({ status: 500, headers: CORS, body: '' });
      return route.fulfill({
        status: 200,
        headers: CORS,
        contentType: 'text/plain',
        body: printer.status,
      });
    }
    return route.fulfill({ status: 404, headers: CORS, body: '' });
  });
}
