import { XMLParser } from 'fast-xml-parser';
import { warsawInstant } from '@portal/shared';
import { TrackingError } from '../../lib/tracking-provider.js';
import type {
  TrackingEvent,
  TrackingProvider,
  TrackingQuery,
  TrackingResult,
} from '../../lib/tracking-provider.js';

/** Poczta Polska's public tracking web service (SOAP 1.1). */
export const POCZTA_POLSKA_URL = 'https://tt.poczta-polska.pl/Sledzenie/services/Sledzenie';
/** The published account for one-off queries (poczta-polska.pl, "system śledzenia WSDL/SOAP"). */
const PUBLIC_LOGIN = 'sledzeniepp';
const PUBLIC_PASSWORD = 'PPSA';
const NAMESPACE = 'http://sledzenie.pocztapolska.pl';
/**
 * The operation's SOAPAction as the service's WSDL (Axis2, `?wsdl`) binds it:
 * `<soap:operation soapAction="urn:sprawdzPrzesylke"/>`, sent quoted as SOAP 1.1 asks (ADR 038).
 */
export const SOAP_ACTION = '"urn:sprawdzPrzesylke"';
/** A fault's text kept as the kit's last error: short, one line. */
const MAX_FAULT_CHARS = 160;
/** An answer about one shipment is a few kilobytes; anything far larger is not one. */
const MAX_ANSWER_CHARS = 1_000_000;

/**
 * The answer's `status`: 0 found, 1 found (with other shipments), 2 found without events yet,
 * -1 not (yet) in the system, -2 not a valid number, -99 the service's own error.
 */
const FOUND = new Set([0, 1]);
const NOT_YET = new Set([2, -1]);

/**
 * A finishing event (`konczace`) that means the addressee has the shipment: delivery (`P_D…`:
 * Doręczenie), collection at a post office or a parcel machine (`P_OWU`, `P_ODB…`). Returns and
 * other finishing events are not deliveries: the kit keeps being asked about.
 */
const DELIVERY_CODE = /^P_(D|KWD|OWU|ODB|DOR)/i;
const DELIVERY_NAME = /^(doręczen|odebran|wydan\w* adresatowi)/i;

const parser = new XMLParser({
  ignoreAttributes: true,
  removeNSPrefix: true,
  // Entities stay text (no expansion, no external fetch): docs/stack-notes.md.
  processEntities: false,
  htmlEntities: false,
  parseTagValue: false,
  trimValues: true,
  isArray: (name) => name === 'zdarzenie',
});

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The request: WS-Security UsernameToken with the public account, then `sprawdzPrzesylke`. */
export function trackingEnvelope(
  trackingCode: string,
  login = PUBLIC_LOGIN,
  password = PUBLIC_PASSWORD,
): string {
  return (
    '<?xml version="1.0" encoding="UTF-8"?>' +
    `<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:sled="${NAMESPACE}">` +
    '<soapenv:Header>' +
    '<wsse:Security soapenv:mustUnderstand="1" xmlns:wsse="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd">' +
    '<wsse:UsernameToken>' +
    `<wsse:Username>${escapeXml(login)}</wsse:Username>` +
    `<wsse:Password Type="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-username-token-profile-1.0#PasswordText">${escapeXml(password)}</wsse:Password>` +
    '</wsse:UsernameToken></wsse:Security></soapenv:Header>' +
    `<soapenv:Body><sled:sprawdzPrzesylke><sled:numer>${escapeXml(trackingCode)}</sled:numer></sled:sprawdzPrzesylke></soapenv:Body>` +
    '</soapenv:Envelope>'
  );
}

/** The post writes times as Warsaw wall clock, `YYYY-MM-DD HH:mm[:ss]`. */
export function parseWarsawTime(text: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/.exec(text.trim());
  if (!m) return null;
  const instant = warsawInstant(+m[1]!, +m[2]!, +m[3]!, +m[4]!, +m[5]!, +(m[6] ?? 0));
  return Number.isNaN(instant.getTime()) ? null : instant;
}

type Node = Record<string, unknown>;
const isNode = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** The first text of a node that may be a string, a list of them, or an element around one. */
function firstText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return firstText(value[0]);
  if (isNode(value) && typeof value['#text'] === 'string') return value['#text'];
  return '';
}

/**
 * `service fault: <text>` from a SOAP 1.1 Fault (`faultstring`) or a SOAP 1.2 one
 * (`Reason/Text`). The text is the service's (a security or validation message; the request
 * carries only the waybill number and the public account, so no patient data can come back);
 * control characters are dropped and the length is bounded, so the kit's last error stays a line.
 */
export function faultMessage(fault: unknown): string {
  let reason = '';
  if (isNode(fault)) {
    reason = firstText(fault.faultstring);
    if (!reason && isNode(fault.Reason)) reason = firstText(fault.Reason.Text);
  }
  const clean = reason
    // eslint-disable-next-line no-control-regex -- control characters are what is removed
    .replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (!clean) return 'service fault';
  const short = clean.length > MAX_FAULT_CHARS ? `${clean.slice(0, MAX_FAULT_CHARS - 1)}…` : clean;
  return `service fault: ${short}`;
}

/** Reads a `sprawdzPrzesylke` answer; anything unexpected is a TrackingError. */
export function parseTrackingAnswer(xml: string): TrackingResult {
  // A DOCTYPE may declare entities (billion laughs, external files): refused outright.
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw new TrackingError('answer with a DOCTYPE refused');
  let doc: unknown;
  try {
    doc = parser.parse(xml, true);
  } catch {
    throw new TrackingError('unreadable answer');
  }
  const body = isNode(doc) && isNode(doc.Envelope) ? doc.Envelope.Body : undefined;
  if (!isNode(body)) throw new TrackingError('unreadable answer');
  if (body.Fault !== undefined) throw new TrackingError(faultMessage(body.Fault));
  const answer = isNode(body.sprawdzPrzesylkeResponse)
    ? body.sprawdzPrzesylkeResponse.return
    : undefined;
  if (!isNode(answer)) throw new TrackingError('unreadable answer');
  const status = Number(text(answer.status));
  if (NOT_YET.has(status)) return { events: [], delivered: false };
  if (!FOUND.has(status)) {
    throw new TrackingError(
      Number.isInteger(status) ? `service status ${status}` : 'unreadable answer',
    );
  }
  const data = isNode(answer.danePrzesylki) ? answer.danePrzesylki : {};
  const list = isNode(data.zdarzenia) ? data.zdarzenia.zdarzenie : undefined;
  const raw = Array.isArray(list) ? list.filter(isNode) : [];
  const events: (TrackingEvent & { finishing: boolean; code: string })[] = [];
  for (const item of raw) {
    const occurredAt = parseWarsawTime(text(item.czas));
    const status = text(item.nazwa);
    if (!occurredAt || !status) throw new TrackingError('unreadable event');
    const unit = isNode(item.jednostka) ? text(item.jednostka.nazwa) : '';
    events.push({
      status: status.slice(0, 200),
      occurredAt,
      place: unit ? unit.slice(0, 200) : null,
      finishing: text(item.konczace) === 'true',
      code: text(item.kod),
    });
  }
  events.sort((a, b) => a.occurredAt.getTime() - b.occurredAt.getTime());
  const last = events.at(-1);
  const delivered =
    last !== undefined &&
    last.finishing &&
    (DELIVERY_CODE.test(last.code) || DELIVERY_NAME.test(last.status));
  return {
    events: events.map(({ status, occurredAt, place }) => ({ status, occurredAt, place })),
    delivered,
  };
}

export interface PocztaPolskaOptions {
  /** The service's address; tests point it at a local fake. */
  url?: string | null;
}

/** Asks Poczta Polska about one waybill per call. */
export class PocztaPolskaProvider implements TrackingProvider {
  readonly name = 'poczta-polska';
  readonly #url: string;

  constructor(options: PocztaPolskaOptions = {}) {
    this.#url = options.url ?? POCZTA_POLSKA_URL;
  }

  async track(query: TrackingQuery, signal: AbortSignal): Promise<TrackingResult> {
    let answer: string;
    try {
      const res = await fetch(this.#url, {
        method: 'POST',
        headers: {
          'content-type': 'text/xml; charset=utf-8',
          soapaction: SOAP_ACTION,
        },
        body: trackingEnvelope(query.trackingCode),
        signal,
      });
      // SOAP 1.1 answers a Fault with HTTP 500 (1.2 may use 400): read it for its reason.
      const faultStatus = res.status === 500 || res.status === 400;
      const isXml = /xml/i.test(res.headers.get('content-type') ?? '');
      if (!res.ok && !(faultStatus && isXml)) {
        await res.body?.cancel();
        throw new TrackingError(`HTTP ${res.status}`);
      }
      answer = await res.text();
      if (!res.ok) {
        if (answer.length > MAX_ANSWER_CHARS) throw new TrackingError(`HTTP ${res.status}`);
        try {
          parseTrackingAnswer(answer);
        } catch (error) {
          if (error instanceof TrackingError && error.message.startsWith('service fault')) {
            throw error;
          }
        }
        throw new TrackingError(`HTTP ${res.status}`);
      }
    } catch (error) {
      if (error instanceof TrackingError) throw error;
      throw new TrackingError(signal.aborted ? 'timed out' : 'service unreachable');
    }
    if (answer.length > MAX_ANSWER_CHARS) throw new TrackingError('answer too large');
    return parseTrackingAnswer(answer);
  }
}
