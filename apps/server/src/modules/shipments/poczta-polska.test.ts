import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeSetKits } from '../../db/schema.js';
import { openTestDatabase } from '../../test/harness.js';
import { insertOrder, insertPatient } from '../../test/kit-fixture.js';
import { faultMessage, parseWarsawTime, PocztaPolskaProvider } from './poczta-polska.js';
import { TrackingError } from '../../lib/tracking-provider.js';
import { refreshShipments } from './refresh.js';

/** An answer shaped like the service's (Axis2: ns/ax21 prefixes), status and events given. */
function answer(status: number, events: string[] = []): string {
  const zdarzenia = events.length ? `<ax21:zdarzenia>${events.join('')}</ax21:zdarzenia>` : '';
  return `<?xml version='1.0' encoding='UTF-8'?><soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Body><ns:sprawdzPrzesylkeResponse xmlns:ns="http://sledzenie.pocztapolska.pl" xmlns:ax21="http://ws.sledzenie.pocztapolska.pl/xsd"><ns:return><ax21:danePrzesylki><ax21:dataNadania>2026-11-20</ax21:dataNadania><ax21:numer>00659007734210841438</ax21:numer><ax21:rodzPrzes>Paczka pocztowa</ax21:rodzPrzes>${zdarzenia}<ax21:zakonczonoObsluge>false</ax21:zakonczonoObsluge></ax21:danePrzesylki><ax21:numer>00659007734210841438</ax21:numer><ax21:status>${status}</ax21:status></ns:return></ns:sprawdzPrzesylkeResponse></soapenv:Body></soapenv:Envelope>`;
}

function event(czas: string, nazwa: string, kod: string, jednostka: string, konczace = false) {
  return `<ax21:zdarzenie><ax21:czas>${czas}</ax21:czas><ax21:jednostka><ax21:nazwa>${jednostka}</ax21:nazwa></ax21:jednostka><ax21:kod>${kod}</ax21:kod><ax21:konczace>${konczace}</ax21:konczace><ax21:nazwa>${nazwa}</ax21:nazwa></ax21:zdarzenie>`;
}

const inTransit = [
  event('2026-11-20 14:05', 'Przyjęcie przesyłki w placówce', 'P_NAD', 'UP Warszawa 1'),
  event('2026-11-20 21:40', 'Wysłanie z placówki', 'P_WZL', 'WER Warszawa'),
];
const deliveredEvents = [
  ...inTransit,
  event('2026-11-21 07:12', 'Wydanie do doręczenia', 'P_WD', 'UP Kraków 12'),
  event('2026-11-21 11:30', 'Doręczenie', 'P_D', 'UP Kraków 12', true),
];

/** What the fake service answers for each waybill (by the `numer` of the request). */
const answers: Record<string, (res: ServerResponse) => void> = {
  FOUND1: (res) => res.end(answer(0, inTransit)),
  DELIVERED1: (res) => res.end(answer(0, deliveredEvents)),
  RETURNED1: (res) =>
    res.end(
      answer(0, [
        ...inTransit,
        event('2026-11-25 09:00', 'Zwrot do nadawcy', 'P_ZWR', 'UP Kraków 12', true),
      ]),
    ),
  NOTYET1: (res) => res.end(answer(-1)),
  NOEVENTS1: (res) => res.end(answer(2)),
  INVALID1: (res) => res.end(answer(-2)),
  ERROR99: (res) => res.end(answer(-99)),
  GARBAGE1: (res) => res.end('<html><body>Service Temporarily Unavailable'),
  NOTXML1: (res) => res.end('{"status":"ok"}'),
  FAULT1: (res) => {
    res.statusCode = 500;
    res.end(
      '<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Body><soapenv:Fault><faultcode>soapenv:Server</faultcode><faultstring>WSDoAllReceiver: security processing failed</faultstring></soapenv:Fault></soapenv:Body></soapenv:Envelope>',
    );
  },
  FAULT12: (res) => {
    res.statusCode = 500;
    res.setHeader('content-type', 'application/soap+xml; charset=utf-8');
    res.end(
      '<env:Envelope xmlns:env="http://www.w3.org/2003/05/soap-envelope"><env:Body><env:Fault><env:Code><env:Value>env:Receiver</env:Value></env:Code><env:Reason><env:Text xml:lang="pl">Usługa\r\nchwilowo niedostępna</env:Text><env:Text xml:lang="en">Service unavailable</env:Text></env:Reason></env:Fault></env:Body></env:Envelope>',
    );
  },
  FAULTLONG1: (res) => {
    res.statusCode = 500;
    res.end(
      `<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Body><soapenv:Fault><faultcode>soapenv:Server</faultcode><faultstring>${'x'.repeat(5000)}</faultstring></soapenv:Fault></soapenv:Body></soapenv:Envelope>`,
    );
  },
  HTML500: (res) => {
    res.statusCode = 500;
    res.setHeader('content-type', 'text/html');
    res.end('<html><body>Internal Server Error</body></html>');
  },
  DOCTYPE1: (res) =>
    res.end(
      `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]>${answer(0, [event('2026-11-20 14:05', '&lol2;', 'P_NAD', 'UP')])}`,
    ),
  ENTITYFILE1: (res) =>
    res.end(
      `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>${answer(0, [event('2026-11-20 14:05', '&xxe;', 'P_NAD', 'UP')])}`,
    ),
  HANG1: () => undefined,
  BADTIME1: (res) => res.end(answer(0, [event('wczoraj', 'Nadanie', 'P_NAD', 'UP')])),
};

let server: Server;
let url: string;
const requests: { body: string; soapAction: string | undefined }[] = [];

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

beforeAll(async () => {
  server = createServer((req, res) => {
    void readBody(req).then((body) => {
      const soapAction = req.headers.soapaction as string | undefined;
      requests.push({ body, soapAction });
      const numer = /<sled:numer>([^<]*)<\/sled:numer>/.exec(body)?.[1] ?? '';
      res.setHeader('content-type', 'text/xml; charset=utf-8');
      // As Axis2 does: an action the WSDL does not bind is dispatched nowhere and answers a Fault.
      if (soapAction !== '"urn:sprawdzPrzesylke"') {
        res.statusCode = 500;
        res.end(
          `<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Body><soapenv:Fault><faultcode>soapenv:Client</faultcode><faultstring>The endpoint reference (EPR) for the Operation not found is /Sledzenie/services/Sledzenie and the WSA Action = ${soapAction ?? 'null'}</faultstring></soapenv:Fault></soapenv:Body></soapenv:Envelope>`,
        );
        return;
      }
      (answers[numer] ?? ((r: ServerResponse) => r.end(answer(-1))))(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/Sledzenie/services/Sledzenie`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const track = (code: string, timeoutMs = 2_000) =>
  new PocztaPolskaProvider({ url }).track(
    { trackingCode: code, known: [] },
    AbortSignal.timeout(timeoutMs),
  );

describe('PocztaPolskaProvider against a local fake of the SOAP service', () => {
  it('sends sprawdzPrzesylke with the public WS-Security account', async () => {
    await track('FOUND1');
    const last = requests.at(-1)!;
    // The WSDL binds <soap:operation soapAction="urn:sprawdzPrzesylke"/>; SOAP 1.1 quotes it.
    expect(last.soapAction).toBe('"urn:sprawdzPrzesylke"');
    expect(last.body).toContain('<wsse:Username>sledzeniepp</wsse:Username>');
    expect(last.body).toMatch(/<wsse:Password Type="[^"]+#PasswordText">PPSA<\/wsse:Password>/);
    expect(last.body).toContain('<sled:sprawdzPrzesylke><sled:numer>FOUND1</sled:numer>');
  });

  it('maps the events of a shipment in transit (Warsaw wall clock, the unit as place)', async () => {
    expect(await track('FOUND1')).toEqual({
      events: [
        {
          status: 'Przyjęcie przesyłki w placówce',
          occurredAt: new Date('2026-11-20T13:05:00Z'),
          place: 'UP Warszawa 1',
        },
        {
          status: 'Wysłanie z placówki',
          occurredAt: new Date('2026-11-20T20:40:00Z'),
          place: 'WER Warszawa',
        },
      ],
      delivered: false,
    });
  });

  it('reports delivered when the finishing event is a delivery, not when it is a return', async () => {
    const delivered = await track('DELIVERED1');
    expect(delivered.delivered).toBe(true);
    expect(delivered.events.at(-1)).toEqual({
      status: 'Doręczenie',
      occurredAt: new Date('2026-11-21T10:30:00Z'),
      place: 'UP Kraków 12',
    });
    const returned = await track('RETURNED1');
    expect(returned.delivered).toBe(false);
    expect(returned.events).toHaveLength(3);
  });

  it('answers no events, not an error, for a shipment not in the system yet', async () => {
    expect(await track('NOTYET1')).toEqual({ events: [], delivered: false });
    expect(await track('NOEVENTS1')).toEqual({ events: [], delivered: false });
  });

  it.each([
    ['INVALID1', 'service status -2'],
    ['ERROR99', 'service status -99'],
    ['GARBAGE1', 'unreadable answer'],
    ['NOTXML1', 'unreadable answer'],
    ['FAULT1', 'service fault: WSDoAllReceiver: security processing failed'],
    ['FAULT12', 'service fault: Usługa chwilowo niedostępna'],
    ['HTML500', 'HTTP 500'],
    ['DOCTYPE1', 'answer with a DOCTYPE refused'],
    ['ENTITYFILE1', 'answer with a DOCTYPE refused'],
    ['BADTIME1', 'unreadable event'],
  ])('turns %s into a TrackingError (%s)', async (code, message) => {
    const error = await track(code).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TrackingError);
    expect((error as Error).message).toBe(message);
  });

  it('keeps a long fault short, one line', async () => {
    const error = await track('FAULTLONG1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TrackingError);
    expect((error as Error).message).toMatch(/^service fault: x+…$/);
    expect((error as Error).message.length).toBeLessThanOrEqual(200);
    expect(faultMessage({})).toBe('service fault');
    expect(faultMessage({ faultstring: ' \u0007 ' })).toBe('service fault');
  });

  it('the fake refuses another SOAPAction, as the service does', async () => {
    const res = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'text/xml; charset=utf-8',
        soapaction: '"http://sledzenie.pocztapolska.pl/sprawdzPrzesylke"',
      },
      body: '<x/>',
    });
    expect(res.status).toBe(500);
    expect(await res.text()).toContain('Operation not found');
  });

  it('gives up on a service that does not answer in time', async () => {
    const started = Date.now();
    const error = await track('HANG1', 300).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TrackingError);
    expect((error as Error).message).toBe('timed out');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('reports an unreachable service', async () => {
    const closed = new PocztaPolskaProvider({ url: 'http://127.0.0.1:9/Sledzenie' });
    const error = await closed
      .track({ trackingCode: 'FOUND1', known: [] }, AbortSignal.timeout(2_000))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TrackingError);
    expect((error as Error).message).toBe('service unreachable');
  });
});

describe("a SOAP Fault becomes the kit's last error", () => {
  it("records the fault's text on the kit and keeps its last known status", async () => {
    const database = await openTestDatabase();
    try {
      const db = database.handle.db;
      const { patientId } = await insertPatient(db);
      const { kitIds } = await insertOrder(db, patientId, ['FAULT1']);
      const provider = new PocztaPolskaProvider({ url });
      const result = await refreshShipments(db, provider, { kitId: kitIds[0]! });
      expect(result).toMatchObject({ checked: 1, failed: 1 });
      const [kit] = await db.select().from(probeSetKits).where(eq(probeSetKits.id, kitIds[0]!));
      expect(kit!.last_error).toBe('service fault: WSDoAllReceiver: security processing failed');
      expect(kit!.last_status).toBeNull();
    } finally {
      await database.close();
    }
  }, 60_000);
});

describe('parseWarsawTime', () => {
  it('reads the wall clock in winter and summer time', () => {
    expect(parseWarsawTime('2026-01-15 10:00')).toEqual(new Date('2026-01-15T09:00:00Z'));
    expect(parseWarsawTime('2026-07-15 10:00:30')).toEqual(new Date('2026-07-15T08:00:30Z'));
    expect(parseWarsawTime('15.01.2026 10:00')).toBeNull();
  });
});
