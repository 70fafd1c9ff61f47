/**
 * A small typed client of Zebra Browser Print, the printer's local service on the nurse's
 * computer (http://127.0.0.1:9100): the default printer, a raw write and a read of the answer.
 * Bodies go as text/plain JSON, as Zebra's own library sends them, so that the browser makes
 * a simple request without a CORS preflight.
 */
export const BROWSER_PRINT_URL = 'http://127.0.0.1:9100';

/** A printer as Browser Print describes it (only `uid` and `name` are relied on). */
export interface BrowserPrintDevice {
  name: string;
  uid: string;
  connection?: string;
  deviceType?: string;
  provider?: string;
  manufacturer?: string;
}

/** Why printing stopped, mapped to the printer alerts (docs/product-rules.md "Labels"). */
export type PrintFailure =
  /** The service cannot be reached or answers nonsense: "Błąd podczas inicjalizacji wydruku". */
  | { kind: 'init' }
  /** No default printer: "(#104)". */
  | { kind: 'no_printer' }
  /** The status query failed or could not be read: "(#204)". */
  | { kind: 'status' }
  /** The printer reports errors: "(#304)" with the reasons. */
  | { kind: 'not_ready'; reasons: PrinterReason[] };

export class BrowserPrintError extends Error {
  constructor(readonly failure: PrintFailure) {
    super(failure.kind);
    this.name = 'BrowserPrintError';
  }
}

export type PrinterReason =
  | 'paper_out'
  | 'ribbon_out'
  | 'head_open'
  | 'cutter_fault'
  | 'head_too_hot'
  | 'motor_too_hot'
  | 'bad_printhead'
  | 'printhead_missing'
  | 'invalid_firmware'
  | 'thermistor_open'
  | 'paused'
  | 'other';

/**
 * The error flags of a ~HQES answer, group 1, as bit masks of its last eight hex digits
 * (ZPL programming guide, "~HQ Host Query", ES).
 */
const ERROR_BITS: [number, PrinterReason][] = [
  [0x00000001, 'paper_out'],
  [0x00000002, 'ribbon_out'],
  [0x00000004, 'head_open'],
  [0x00000008, 'cutter_fault'],
  [0x00000010, 'head_too_hot'],
  [0x00000020, 'motor_too_hot'],
  [0x00000040, 'bad_printhead'],
  [0x00000080, 'printhead_missing'],
  [0x00000100, 'invalid_firmware'],
  [0x00000200, 'thermistor_open'],
  [0x00010000, 'paused'],
];

export interface PrinterStatus {
  ready: boolean;
  reasons: PrinterReason[];
}

/**
 * Reads a ~HQES answer:
 *
 *     PRINTER STATUS
 *        ERRORS:         1 00000000 00000005
 *        WARNINGS:       0 00000000 00000000
 *
 * The first digit says whether any error is present; the last group holds the flags. An error
 * flag with no known bit still means "not ready" (reason `other`). Null when there is no
 * ERRORS line: the answer is not a status at all.
 */
export function parseHostStatus(text: string): PrinterStatus | null {
  const match = /ERRORS:\s*([01])\s+([0-9A-Fa-f]{8})\s+([0-9A-Fa-f]{8})/.exec(text);
  if (!match) return null;
  const flagged = match[1] === '1';
  const group1 = Number.parseInt(match[3]!, 16);
  const reasons = ERROR_BITS.filter(([bit]) => (group1 & bit) !== 0).map(([, reason]) => reason);
  const known = ERROR_BITS.reduce((mask, [bit]) => mask | bit, 0);
  const unknownBits = (group1 & ~known) !== 0 || Number.parseInt(match[2]!, 16) !== 0;
  if (unknownBits || (flagged && reasons.length === 0)) reasons.push('other');
  return { ready: !flagged && reasons.length === 0, reasons };
}

async function call(path: string, init?: RequestInit): Promise<Response> {
  return fetch(`${BROWSER_PRINT_URL}${path}`, init);
}

function postJson(path: string, body: unknown): Promise<Response> {
  return call(path, {
    method: 'POST',
    headers: { 'Content-Type': 'text/plain;charset=UTF-8' },
    body: JSON.stringify(body),
  });
}

/** GET /default?type=printer; an empty answer means there is no default printer (#104). */
export async function defaultPrinter(): Promise<BrowserPrintDevice> {
  let text: string;
  try {
    const res = await call('/default?type=printer');
    if (!res.ok) throw new Error(String(res.status));
    text = (await res.text()).trim();
  } catch {
    throw new BrowserPrintError({ kind: 'init' });
  }
  if (!text || text === 'null') throw new BrowserPrintError({ kind: 'no_printer' });
  let device: Partial<BrowserPrintDevice>;
  try {
    device = JSON.parse(text) as Partial<BrowserPrintDevice>;
  } catch {
    throw new BrowserPrintError({ kind: 'init' });
  }
  if (!device || typeof device !== 'object' || !device.uid) {
    throw new BrowserPrintError({ kind: 'no_printer' });
  }
  return device as BrowserPrintDevice;
}

/** POST /write: raw data to the printer. */
export async function writeToPrinter(device: BrowserPrintDevice, data: string): Promise<void> {
  const res = await postJson('/write', { device, data });
  if (!res.ok) throw new Error(`write answered ${res.status}`);
}

/** POST /read: what the printer answered since the last write. */
export async function readFromPrinter(device: BrowserPrintDevice): Promise<string> {
  const res = await postJson('/read', { device });
  if (!res.ok) throw new Error(`read answered ${res.status}`);
  return res.text();
}

/** Asks for the host status (~HQES); any failure to ask or to read it is #204. */
export async function printerStatus(device: BrowserPrintDevice): Promise<PrinterStatus> {
  try {
    await writeToPrinter(device, '~HQES');
    const status = parseHostStatus(await readFromPrinter(device));
    if (status) return status;
  } catch {
    // Falls through to the status failure below.
  }
  throw new BrowserPrintError({ kind: 'status' });
}

/**
 * The whole print: default printer, status check, then the ZPL that `loadZpl` fetches (from the
 * API, with the amount) written to the printer. A failed write after a good status means the
 * job could not start: the initialisation alert.
 */
export async function printZpl(loadZpl: () => Promise<string>): Promise<BrowserPrintDevice> {
  const device = await defaultPrinter();
  const status = await printerStatus(device);
  if (!status.ready) throw new BrowserPrintError({ kind: 'not_ready', reasons: status.reasons });
  const zpl = await loadZpl();
  try {
    await writeToPrinter(device, zpl);
  } catch {
    throw new BrowserPrintError({ kind: 'init' });
  }
  return device;
}
