import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, openSignedIn, registerPatient, test } from '../fixtures.js';
import type { PortalApi } from '../fixtures.js';
import { expectAccessible } from '../a11y.js';
import { expectNoSidewaysScroll } from '../layout.js';
import { DEVICE, READY, fakeBrowserPrint } from '../fake-printer.js';
import type { FakePrinter } from '../fake-printer.js';

const TITLE = 'Zestawy próbek';
const ORDER_DIALOG = 'Zamów zestawy do pobrań';
const REQUIRED = 'To pole musi być wypełnione';
const SAVED = 'Zmiany zostały zapisane';
/** The fake provider's statuses (TRACKING_PROVIDER=fake in playwright.config.ts). */
/** The fake provider's statuses (modules/shipments/fake-provider.ts FAKE_STEPS). */
const FAKE_STATUS =
  /Przyjęcie przesyłki w placówce|Wysłanie przesyłki z placówki|Przyjęcie przesyłki w sortowni|Wydanie przesyłki do doręczenia|Doręczenie przesyłki/;

interface Order {
  id: number;
  version: number;
  sets: { id: number; kit_number: number; version: number }[];
}

function samplesPath(patientId: number) {
  return `/patients/card/${patientId}?tab=samples`;
}

/** A unit with a doctor and one patient of it (the patient's address fills the order form). */
async function arrange(api: PortalApi) {
  const unit = await api.createUnit();
  const { doctor, credentials } = await api.readyDoctor(unit.id);
  const patient = await registerPatient(api, { id: doctor.id, unit_id: unit.id });
  return { unit, doctor, credentials, patient };
}

/** An order arranged through the API, as the card would send it. */
async function order(api: PortalApi, patientId: number, amount = 1): Promise<Order> {
  const answer = await api.call<{ probe_set: Order }>('POST', '/probe-sets', {
    patient_id: patientId,
    amount,
    labels_amount: 2,
    street: 'ul. Łąkowa',
    building: '3/12',
    postcode: '90-001',
    city: 'Łódź',
  });
  return answer.probe_set;
}

const toast = (page: Page, text: string | RegExp) =>
  page.locator('.mantine-Notification-root').filter({ hasText: text }).last();
const kit = (page: Page, number: number) =>
  page.getByRole('region', { name: `Zestaw ${number}`, exact: true });
const waybill = (page: Page, number: number) =>
  kit(page, number).getByRole('textbox', { name: 'Numer przesyłki' });

test.describe('Zestawy próbek', () => {
  test('an administrator orders kits from the card, accepts the order, enters, locks and unlocks a waybill and refreshes the tracking', async ({
    page,
    request,
    api,
  }) => {
    // The whole way of an order, with eight axe runs: more than the default minute on a busy machine.
    test.slow();
    const { patient } = await arrange(api);
    const patientName = `${patient.surname} ${patient.firstname}`;

    // The card: "Zamów zestawy", prefilled with the patient's address.
    await openSignedIn(page, request, samplesPath(patient.id));
    await expect(page.getByText('Pacjent nie ma jeszcze zamówień zestawów.')).toBeVisible();
    await page.getByRole('button', { name: 'Zamów zestawy' }).click();
    const dialog = page.getByRole('dialog', { name: ORDER_DIALOG });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('textbox', { name: 'Ulica' })).toHaveValue('ul. Łąkowa');
    await expect(dialog.getByRole('textbox', { name: 'Numer domu / lokalu' })).toHaveValue('3/12');
    await expect(dialog.getByRole('textbox', { name: 'Liczba etykiet' })).toHaveValue('1');
    await expectAccessible(page, 'zamów zestawy');

    // A missing city is marked; then two kits with three labels each.
    await dialog.getByRole('textbox', { name: 'Miejscowość' }).fill('');
    await dialog.getByRole('button', { name: 'Zamów' }).click();
    await expect(dialog.getByText(REQUIRED)).toBeVisible();
    await dialog.getByRole('textbox', { name: 'Miejscowość' }).fill('Łódź');
    await dialog.getByRole('textbox', { name: 'Liczba zestawów' }).fill('2');
    await dialog.getByRole('textbox', { name: 'Liczba etykiet' }).fill('3');
    await dialog.getByRole('button', { name: 'Zamów' }).click();
    await expect(toast(page, SAVED)).toBeVisible();
    await expect(dialog).toBeHidden();
    const card = page.getByRole('listitem').filter({ hasText: /Zamówienie nr \d+/ });
    await expect(card).toHaveCount(1);
    await expect(card).toContainText('Nowe');
    await expect(card).toContainText('Zestawy: 2');
    await expectAccessible(page, 'próbki pacjenta z zamówieniem');

    // The list, through the menu: the new order with its address, status and shipment.
    await page
      .getByRole('navigation', { name: 'Menu główne' })
      .getByRole('link', { name: TITLE, exact: true })
      .click();
    await expect(page.getByRole('heading', { name: TITLE })).toBeVisible();
    await page.getByRole('searchbox', { name: 'Szukaj' }).fill(patient.surname);
    const table = page.getByRole('table', { name: TITLE });
    const row = table.getByRole('row').filter({ hasText: patientName });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText(/\d\d\.\d\d\.\d{4} \d\d:\d\d/);
    await expect(row).toContainText('ul. Łąkowa 3/12, 90-001 Łódź');
    await expect(row.getByRole('cell').nth(2)).toHaveText('2');
    await expect(row.getByRole('cell').nth(4)).toHaveText('Nowe');
    await expect(row.getByRole('cell').nth(5)).toHaveText('-');
    await expectAccessible(page, 'lista zestawów');

    // The detail: accept.
    await row.getByRole('link', { name: /^Szczegóły zamówienia nr/ }).click();
    await expect(page.getByRole('heading', { level: 1, name: /Zamówienie nr \d+/ })).toBeVisible();
    await expect(page.getByTestId('order-status')).toHaveText('Nowe');
    await expect(page.getByTestId('order-facts')).toContainText(patientName);
    await expect(page.getByRole('region', { name: 'Zestawy' })).toHaveCount(0);
    await expectAccessible(page, 'zamówienie nowe');
    // "Zaakceptuj" asks first; "Anuluj" leaves the order new.
    const orderId = /Zamówienie nr (\d+)/.exec(
      (await page.getByRole('heading', { level: 1 }).textContent()) ?? '',
    )![1]!;
    const confirmAccept = page.getByRole('dialog', {
      name: `Zaakceptować zamówienie nr ${orderId}?`,
    });
    await page.getByRole('button', { name: 'Zaakceptuj' }).click();
    await expect(confirmAccept).toBeVisible();
    await expect(confirmAccept).toContainText('zamówienia nie będzie można już odrzucić');
    await expectAccessible(page, 'pytanie przed akceptacją');
    await confirmAccept.getByRole('button', { name: 'Anuluj' }).click();
    await expect(confirmAccept).toBeHidden();
    await expect(page.getByTestId('order-status')).toHaveText('Nowe');
    await page.getByRole('button', { name: 'Zaakceptuj' }).click();
    await confirmAccept.getByRole('button', { name: 'Zaakceptuj' }).click();
    await expect(toast(page, 'Zamówienie zostało zaakceptowane')).toBeVisible();
    await expect(page.getByTestId('order-status')).toHaveText('Zaakceptowane');
    await expect(page.getByRole('button', { name: 'Zaakceptuj' })).toHaveCount(0);
    await expect(kit(page, 1)).toBeVisible();
    await expect(kit(page, 2)).toBeVisible();

    // A waybill: a wrong one is refused in place; a right one is saved and locked.
    await waybill(page, 1).fill('A-1');
    await kit(page, 1).getByRole('button', { name: 'Zapisz' }).click();
    await expect(
      kit(page, 1).getByText('Numer przesyłki to od 4 do 40 liter i cyfr'),
    ).toBeVisible();
    await waybill(page, 1).fill('rr 123-456-789 pl');
    await kit(page, 1).getByRole('button', { name: 'Zapisz' }).click();
    await expect(toast(page, SAVED)).toBeVisible();
    await expect(waybill(page, 1)).toHaveValue('RR123456789PL');
    await expect(waybill(page, 1)).toHaveAttribute('readonly', '');
    await expectAccessible(page, 'zamówienie z listem przewozowym');

    // "Edytuj" unlocks it; a new number is saved and locked again.
    await kit(page, 1).getByRole('button', { name: 'Edytuj' }).click();
    await expect(waybill(page, 1)).not.toHaveAttribute('readonly', '');
    await waybill(page, 1).fill('RR987654321PL');
    await waybill(page, 1).press('Enter');
    await expect(waybill(page, 1)).toHaveAttribute('readonly', '');
    await expect(waybill(page, 1)).toHaveValue('RR987654321PL');

    // A kit with a waybill says when the post was last asked (saving queues a check).
    await expect(kit(page, 1).getByTestId('kit-checked')).toContainText('Ostatnio sprawdzono:');
    await expect(kit(page, 2).getByTestId('kit-checked')).toHaveCount(0);

    // "Odśwież teraz": this order's kits only (the check queued by the save may have taken kit 1
    // already, hence any count); the fake post moves the shipment on, never to a time after now;
    // the history and "Ostatnio sprawdzono" show it.
    const before = Date.now();
    await page.getByRole('button', { name: 'Odśwież teraz' }).click();
    await expect(
      toast(
        page,
        /Sprawdzono przesyłki tego zamówienia: \d+, zmienione: \d+, błędy: 0|Żadna przesyłka tego zamówienia nie czeka/,
      ),
    ).toBeVisible();
    await expect(kit(page, 1).getByTestId('kit-checked')).toContainText(
      /Ostatnio sprawdzono: \d\d\.\d\d\.\d{4} \d\d:\d\d/,
    );
    const checked = await api.call<{
      sets: { shipment: unknown; events: { occurred_at: string }[] }[];
    }>('GET', `/probe-sets/${orderId}`);
    const times = checked.sets[0]!.events.map((event) => Date.parse(event.occurred_at));
    expect(times.length).toBeGreaterThan(0);
    expect(Math.max(...times)).toBeLessThanOrEqual(Date.now());
    expect(Math.max(...times)).toBeGreaterThan(before - 5 * 60_000);
    await expect(kit(page, 1).getByTestId('kit-status')).toContainText(FAKE_STATUS);
    await expect(
      kit(page, 1).getByTestId('kit-events').getByRole('listitem').first(),
    ).toContainText('Przyjęcie przesyłki w placówce');
    await expect(kit(page, 2).getByTestId('kit-status')).toHaveText('Status przesyłki: -');
    await expectAccessible(page, 'zamówienie po odświeżeniu');
  });

  test('an administrator rejects an order only with a reason; a decision made elsewhere reloads', async ({
    page,
    request,
    api,
  }) => {
    const { patient } = await arrange(api);
    const rejected = await order(api, patient.id);
    const decidedElsewhere = await order(api, patient.id);

    await openSignedIn(page, request, `/probe-sets/${rejected.id}`);
    await expect(page.getByTestId('order-status')).toHaveText('Nowe');
    await page.getByRole('button', { name: 'Odrzuć' }).click();
    const dialog = page.getByRole('dialog', { name: `Odrzucenie zamówienia nr ${rejected.id}` });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Odrzuć' }).click();
    await expect(dialog.getByText(REQUIRED)).toBeVisible();
    await expectAccessible(page, 'odrzucenie bez powodu');
    await dialog.getByRole('textbox', { name: 'Powód odrzucenia' }).fill('Pacjent wyjechał');
    await dialog.getByRole('button', { name: 'Odrzuć' }).click();
    await expect(dialog).toBeHidden();
    await expect(toast(page, 'Zamówienie zostało odrzucone')).toBeVisible();
    await expect(page.getByTestId('order-status')).toHaveText('Odrzucone');
    await expect(page.getByTestId('order-facts')).toContainText('Pacjent wyjechał');
    await expect(page.getByRole('button', { name: 'Zaakceptuj' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Odrzuć' })).toHaveCount(0);
    await expectAccessible(page, 'zamówienie odrzucone');

    // Someone else accepts while this screen still shows the order as new.
    await page.goto(`/probe-sets/${decidedElsewhere.id}`);
    await expect(page.getByTestId('order-status')).toHaveText('Nowe');
    await api.call('PUT', `/probe-sets/${decidedElsewhere.id}`, {
      status: 1,
      version: decidedElsewhere.version,
    });
    await page.getByRole('button', { name: 'Odrzuć' }).click();
    await page.getByRole('textbox', { name: 'Powód odrzucenia' }).fill('Za późno');
    await page.getByRole('dialog').getByRole('button', { name: 'Odrzuć' }).click();
    await expect(toast(page, 'Ktoś inny właśnie zmienił to zamówienie')).toBeVisible();
    await expect(page.getByTestId('order-status')).toHaveText('Zaakceptowane');
  });

  test('a home sample names a kit of an accepted order and shows on the order with its labels', async ({
    page,
    request,
    api,
  }) => {
    const { patient } = await arrange(api);
    const accepted = await order(api, patient.id, 2);
    await api.call('PUT', `/probe-sets/${accepted.id}`, { status: 1, version: accepted.version });
    await order(api, patient.id); // a new order: its kits are not offered

    await openSignedIn(page, request, samplesPath(patient.id));
    await page.getByRole('button', { name: 'Dodaj próbkę' }).click();
    const dialog = page.getByRole('dialog', { name: 'Wyślij próbkę do analizy' });
    await expect(dialog).toBeVisible();
    const kitSelect = dialog.getByRole('combobox', { name: 'Zestaw do pobrań' });
    await expect(kitSelect).toHaveCount(0);
    await dialog.getByRole('radio', { name: 'Dom' }).check();
    await kitSelect.click();
    await expect(page.getByRole('option', { name: /^Zestaw \d z zamówienia nr/ })).toHaveCount(2);
    await page.getByRole('option', { name: `Zestaw 2 z zamówienia nr ${accepted.id}` }).click();
    await expectAccessible(page, 'próbka z zestawu');
    // The administrator has no name of their own: the orderer is typed.
    await dialog.getByRole('textbox', { name: 'Imię zlecającego' }).fill('Jan');
    await dialog.getByRole('textbox', { name: 'Nazwisko zlecającego' }).fill('Koordynator');
    await dialog.getByRole('combobox', { name: 'Rodzaj pojemnika', exact: true }).click();
    // A tube takes the dialog's default venous blood (a DBS card would be questioned, ADR 041).
    await page.getByRole('option', { name: 'Probówka EDTA' }).click();
    await dialog.getByRole('button', { name: 'Wyślij' }).click();
    await expect(dialog).toBeHidden();

    await page.goto(`/probe-sets/${accepted.id}`);
    const samples = page.getByRole('region', { name: 'Próbki z zestawów' });
    const sample = samples.getByRole('listitem');
    await expect(sample).toHaveCount(1);
    await expect(sample.getByRole('link', { name: /^Próbka nr / })).toHaveAttribute(
      'href',
      /\/probes\/\d+$/,
    );
    await sample.getByRole('button', { name: 'Drukuj etykiety' }).click();
    const labels = page.getByRole('dialog', { name: 'Drukuj etykiety' });
    await expect(labels.getByRole('textbox', { name: 'Liczba etykiet' })).toHaveValue('2');
  });

  test('the kits of an accepted order get their labels before any sample is drawn', async ({
    page,
    request,
    api,
  }) => {
    const { credentials, patient } = await arrange(api);
    const fresh = await order(api, patient.id);
    const accepted = await order(api, patient.id, 2);
    await api.call('PUT', `/probe-sets/${accepted.id}`, { status: 1, version: accepted.version });
    const printer: FakePrinter = {
      defaultDevice: DEVICE,
      status: READY,
      written: [],
      unreachable: false,
    };
    await fakeBrowserPrint(page, printer);

    // The doctor of the patient's unit prints them; a new order has no kits to label yet.
    await openSignedIn(page, request, `/probe-sets/${fresh.id}`, 'doctor', credentials);
    await expect(page.getByTestId('order-status')).toHaveText('Nowe');
    await expect(page.getByRole('button', { name: 'Drukuj etykiety zestawów' })).toHaveCount(0);

    await page.goto(`/probe-sets/${accepted.id}`);
    await expect(kit(page, 2).getByTestId('kit-code')).toHaveText(
      `Kod zestawu: ZESTAW-${accepted.id}-2`,
    );
    await page.getByRole('button', { name: 'Drukuj etykiety zestawów' }).click();
    const dialog = page.getByRole('dialog', { name: 'Drukuj etykiety' });
    await expect(dialog).toContainText('ZESTAW 1/2');
    await expect(dialog).toContainText(`od ZESTAW-${accepted.id}-1 do ZESTAW-${accepted.id}-2`);
    const amount = dialog.getByRole('textbox', { name: 'Liczba etykiet' });
    // The order asked for 2 labels per kit.
    await expect(amount).toHaveValue('2');
    await expect(dialog).toContainText('Od 0 do 10 na każdy zestaw');
    await expectAccessible(page, 'etykiety zestawów');

    await amount.fill('1');
    await dialog.getByRole('button', { name: 'Drukuj na drukarce Zebra' }).click();
    await expect(
      page.getByText(`Etykiety wysłane do drukarki ${DEVICE.name} (liczba: 1)`),
    ).toBeVisible();
    const zpl = printer.written[1]!;
    expect(zpl.match(/\^XA/g)).toHaveLength(2);
    expect(zpl).toMatch(new RegExp(`\\^BX[^\\n]*\\^FDZESTAW-${accepted.id}-1\\^FS`));
    expect(zpl).toMatch(new RegExp(`\\^BX[^\\n]*\\^FDZESTAW-${accepted.id}-2\\^FS`));
    expect(zpl).toContain('^PQ1,');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByRole('button', { name: 'Pobierz PDF' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`zestawy-${accepted.id}.pdf`);
    expect(
      readFileSync(await download.path())
        .subarray(0, 5)
        .toString('latin1'),
    ).toBe('%PDF-');
  });

  test('a doctor sees the own unit orders but cannot accept, reject or enter waybills', async ({
    page,
    request,
    api,
  }) => {
    const { credentials, patient } = await arrange(api);
    const fresh = await order(api, patient.id);
    const accepted = await order(api, patient.id);
    await api.call('PUT', `/probe-sets/${accepted.id}`, { status: 1, version: accepted.version });
    await api.call('PUT', `/probe-sets/tracking/${accepted.sets[0]!.id}`, {
      tracking_code: 'RR111222333PL',
      version: accepted.sets[0]!.version,
    });

    await openSignedIn(page, request, '/probe-sets', 'doctor', credentials);
    await expect(page.getByRole('heading', { name: TITLE })).toBeVisible();
    const table = page.getByRole('table', { name: TITLE });
    await expect(table.getByRole('row').filter({ hasText: patient.surname })).toHaveCount(2);
    await expectAccessible(page, 'lista zestawów lekarza');

    await page.goto(`/probe-sets/${fresh.id}`);
    await expect(page.getByTestId('order-status')).toHaveText('Nowe');
    await expect(page.getByRole('button', { name: 'Zaakceptuj' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Odrzuć' })).toHaveCount(0);

    await page.goto(`/probe-sets/${accepted.id}`);
    await expect(page.getByTestId('order-status')).toHaveText('Zaakceptowane');
    await expect(waybill(page, 1)).toHaveValue('RR111222333PL');
    await expect(waybill(page, 1)).toHaveAttribute('readonly', '');
    await expect(kit(page, 1).getByRole('button', { name: 'Edytuj' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Odśwież teraz' })).toHaveCount(0);
    await expectAccessible(page, 'zamówienie u lekarza');
  });
});

test.describe('Zestawy próbek na telefonie', () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test('the list, the detail and the order dialog fit a 375 px screen', async ({
    page,
    request,
    api,
  }) => {
    const { patient } = await arrange(api);
    const accepted = await order(api, patient.id, 2);
    await api.call('PUT', `/probe-sets/${accepted.id}`, { status: 1, version: accepted.version });

    await openSignedIn(page, request, '/probe-sets');
    await expect(page.getByRole('heading', { name: TITLE })).toBeVisible();
    await page.getByRole('searchbox', { name: 'Szukaj' }).fill(patient.surname);
    await expect(page.getByText(`Zamówienie nr ${accepted.id}`, { exact: true })).toBeVisible();
    await expectNoSidewaysScroll(page);
    await expectAccessible(page, 'lista zestawów na telefonie');

    await page.goto(`/probe-sets/${accepted.id}`);
    await expect(kit(page, 2)).toBeVisible();
    await waybill(page, 2).fill('RR444555666PL');
    await kit(page, 2).getByRole('button', { name: 'Zapisz' }).click();
    await expect(waybill(page, 2)).toHaveAttribute('readonly', '');
    await expectNoSidewaysScroll(page);
    await expectAccessible(page, 'zamówienie na telefonie');

    await page.goto(samplesPath(patient.id));
    await expect(page.getByRole('heading', { name: `Zamówienie nr ${accepted.id}` })).toBeVisible();
    await expectNoSidewaysScroll(page);
    await page.getByRole('button', { name: 'Zamów zestawy' }).click();
    await expect(page.getByRole('dialog', { name: ORDER_DIALOG })).toBeVisible();
    await expectAccessible(page, 'zamów zestawy na telefonie');
  });
});
