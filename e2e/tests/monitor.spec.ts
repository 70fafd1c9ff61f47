import type { Page } from '@playwright/test';
import { PortalApi, expect, openSignedIn, test } from '../fixtures.js';
import { expectAccessible } from '../a11y.js';
import { createMonitor, monitorApi, openSignedInAs } from '../monitor.js';
import { e2eSeed } from '../seed.js';
import type { Credentials } from '../fixtures.js';

// Issue 23 item 4 on screen (ADR 051): a monitor signs in, reads without the patient's identity,
// verifies a visit and raises a query on one of its fields; the site's doctor answers and
// corrects the visit with the reason the query suggests, which clears the mark; the monitor
// closes the query and finds it in the list by its status.

const DAY_TIME = /\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}/;

async function changeFirstPassword(page: Page, printed: Credentials, password: string) {
  await expect(page).toHaveURL(/\/changepassword$/);
  await page.getByRole('textbox', { name: 'Stare hasło', exact: true }).fill(printed.password);
  await page.getByRole('textbox', { name: 'Nowe hasło', exact: true }).fill(password);
  await page.getByRole('textbox', { name: 'Powtórz nowe hasło', exact: true }).fill(password);
  await page.getByRole('button', { name: 'Zapisz' }).click();
  await expect(page.getByText('Zmiany zostały zapisane')).toBeVisible();
}

test.describe('Monitor badania', () => {
  test('verifies a visit and queries its QT; the doctor answers and corrects; the monitor closes it', async ({
    page,
    request,
    api,
  }) => {
    test.setTimeout(180_000);
    const seed = e2eSeed();
    const { patient_id: patientId, visit_id: visitId } = seed.monitor;
    const cardPath = `/patients/${patientId}/visits/${visitId}`;
    // The visit as the doctor recorded it (a first entry: no reason asked).
    const { api: doctorApi } = await PortalApi.signIn(request, 'doctor', seed.doctor);
    const current = await doctorApi.call<{ version: number }>('GET', `/visits/${visitId}`);
    await doctorApi.call('PUT', `/visits/${visitId}/results`, {
      isDone: true,
      comment: '<p>Rytm zatokowy.</p>',
      results: { qt: 400, rr: 800, pq: 160, qrs: 90 },
      version: current.version,
    });
    const { monitor, printed } = await createMonitor(api, [seed.unit.id]);
    const monitorName = `${monitor.firstname} ${monitor.surname}`;
    const password = `Monitor-${monitor.id}-2026`;

    // ---- the monitor signs in on the staff login page, as "Monitor badania" ----
    await page.goto('/login');
    const roles = page.getByRole('radiogroup', { name: 'Rola' });
    await roles.getByText('Monitor badania', { exact: true }).click();
    await expect(roles.getByRole('radio', { name: 'Monitor badania' })).toBeChecked();
    await expect(page.getByText('Monitor loguje się adresem e-mail.')).toBeVisible();
    await expectAccessible(page, 'logowanie monitora');
    await page.getByLabel('Login').fill(printed.login);
    await page.getByLabel('Hasło', { exact: true }).fill(printed.password);
    await page.getByLabel('Hasło', { exact: true }).press('Enter');
    await changeFirstPassword(page, printed, password);
    await expect(page).toHaveURL(/\/dashboard$/);

    // Its menu: what it may read and its queries, nothing it may not.
    const menu = page.getByRole('navigation', { name: 'Menu główne' });
    for (const item of ['Pacjenci', 'Próbki', 'Zapytania']) {
      await expect(menu.getByRole('link', { name: item, exact: true })).toBeVisible();
    }
    for (const item of ['Lekarze', 'Administratorzy', 'Przyjęcie próbek', 'Import danych']) {
      await expect(menu.getByRole('link', { name: item, exact: true })).toHaveCount(0);
    }

    // The audit trail is read patient by patient: the screen asks for one first.
    await menu.getByRole('link', { name: 'Historia zmian', exact: true }).click();
    await expect(
      page.getByText('Wybierz pacjenta, aby zobaczyć historię zmian jego danych.'),
    ).toBeVisible();

    // ---- the patient card: PESEL and contacts hidden, said so; no writes offered ----
    await page.goto(`/patients/card/${patientId}`);
    await expect(
      page.getByRole('heading', { level: 1, name: 'Monitorowana Monika' }),
    ).toBeVisible();
    await expect(page.getByTestId('patient-pesel')).toHaveText('***********');
    await expect(page.getByText('PESEL: *********** (ukryte)')).toBeVisible();
    // Address, phone and e-mail of "Dane kontaktowe".
    await expect(page.getByText('ukryte', { exact: true })).toHaveCount(3);
    await expect(page.getByRole('button', { name: 'Pokaż' })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Edytuj' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Usuń', exact: true })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Oznacz jako zweryfikowane' })).toBeVisible();
    await expectAccessible(page, 'karta pacjenta u monitora');

    // ---- the visit card: verify, then a query on QT ----
    await page.goto(cardPath);
    await expect(page.getByRole('heading', { level: 1, name: 'Karta wizyty' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Popraw zapis' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Dodaj plik EKG' })).toHaveCount(0);
    await page.getByRole('button', { name: 'Oznacz jako zweryfikowane' }).click();
    await expect(page.getByText('Oznaczono jako zweryfikowane')).toBeVisible();
    const mark = page.getByTestId('verification-visit');
    await expect(mark).toContainText(`Zweryfikowano: ${monitorName}, `);
    await expect(mark).toContainText(DAY_TIME);
    await expect(page.getByRole('button', { name: 'Oznacz jako zweryfikowane' })).toHaveCount(0);

    await page.getByRole('button', { name: 'Otwórz zapytanie' }).click();
    const dialog = page.getByRole('dialog', { name: 'Otwórz zapytanie' });
    await expect(dialog).toBeVisible();
    // Nothing written: the text is required, in Polish.
    await dialog.getByRole('button', { name: 'Otwórz zapytanie' }).click();
    await expect(dialog.getByText('To pole musi być wypełnione')).toBeVisible();
    await dialog.getByRole('combobox', { name: 'Pole' }).click();
    await page.getByRole('option', { name: 'QT', exact: true }).click();
    await dialog
      .getByRole('textbox', { name: 'Treść zapytania' })
      .fill('QT w karcie (400 ms) różni się od wydruku EKG (410 ms).');
    await expectAccessible(page, 'otwieranie zapytania');
    await dialog.getByRole('button', { name: 'Otwórz zapytanie' }).click();
    await expect(page.getByText('Zapytanie zostało otwarte')).toBeVisible();
    await expect(dialog).toBeHidden();
    const query = page.getByRole('article', { name: 'Zapytanie: QT' });
    await expect(query).toContainText('Otwarte');
    await expect(query).toContainText('QT w karcie (400 ms) różni się od wydruku EKG (410 ms).');
    await expect(query).toContainText('otwarte dziś');
    await expect(page.getByRole('heading', { name: 'Zapytania (otwarte: 1)' })).toBeVisible();
    await expectAccessible(page, 'karta wizyty z zapytaniem u monitora');

    // ---- the site's doctor answers and corrects, with the reason the query suggests ----
    await openSignedIn(page, request, cardPath, 'doctor', seed.doctor);
    const doctorQuery = page.getByRole('article', { name: 'Zapytanie: QT' });
    await expect(doctorQuery).toBeVisible();
    await expect(doctorQuery.getByRole('button', { name: 'Zamknij zapytanie' })).toHaveCount(0);
    await expect(page.getByTestId('verification-visit')).toContainText('Zweryfikowano:');
    await expect(page.getByRole('button', { name: 'Oznacz jako zweryfikowane' })).toHaveCount(0);
    await doctorQuery
      .getByRole('textbox', { name: 'Odpowiedź' })
      .fill('Sprawdzone z wydrukiem: QT 410 ms, poprawiam.');
    await doctorQuery.getByRole('button', { name: 'Odpowiedz' }).click();
    await expect(page.getByText('Odpowiedź została wysłana')).toBeVisible();
    await expect(doctorQuery).toContainText('Z odpowiedzią');
    await expect(doctorQuery).toContainText('Sprawdzone z wydrukiem: QT 410 ms, poprawiam.');

    await doctorQuery.getByRole('link', { name: 'Popraw dane' }).click();
    await expect(page).toHaveURL(/\?query=\d+$/);
    await page.getByRole('textbox', { name: 'QT (ms)', exact: true }).fill('410');
    await page.getByRole('button', { name: 'Zapisz wizytę' }).click();
    const reason = page.getByRole('dialog', { name: 'Powód zmiany' });
    await expect(reason).toBeVisible();
    await expect(reason.getByRole('combobox', { name: 'Powód', exact: true })).toHaveValue(
      'Odpowiedź na zapytanie monitora',
    );
    await reason.getByRole('button', { name: 'Zapisz zmianę' }).click();
    await expect(reason).toBeHidden();
    await expect(page.getByText('Wizyta została zapisana')).toBeVisible();
    await expect(page.getByTestId('ecg-qt')).toContainText('410 ms');
    // The change cleared the mark, and the card says so.
    await expect(page.getByTestId('verification-visit')).toContainText('Zmieniono po weryfikacji');
    await expect(page.getByTestId('verification-visit')).not.toContainText('Zweryfikowano:');
    await expectAccessible(page, 'karta wizyty po korekcie');

    // ---- the monitor finds the answered query in the list and closes it ----
    await openSignedInAs(page, request, '/queries', 'monitor', {
      login: printed.login,
      password,
    });
    await expect(page.getByRole('heading', { level: 1, name: 'Zapytania' })).toBeVisible();
    const filters = page.getByRole('region', { name: 'Filtry zapytań' });
    await filters.getByRole('combobox', { name: 'Status' }).click();
    await page.getByRole('option', { name: 'Z odpowiedzią' }).click();
    await expect(page).toHaveURL(/status=answered/);
    const table = page.getByRole('table', { name: 'Zapytania' });
    const row = table.getByRole('row').filter({ hasText: 'Sprawdzone z wydrukiem' });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('QT');
    await expect(row).toContainText('dziś');
    await expectAccessible(page, 'lista zapytań z odpowiedzią');
    await row.getByRole('link', { name: `Wizyta nr ${visitId}` }).click();
    await expect(page).toHaveURL(new RegExp(`${cardPath}$`));
    await expect(page.getByTestId('verification-visit')).toContainText('Zmieniono po weryfikacji');
    const answered = page.getByRole('article', { name: 'Zapytanie: QT' });
    await answered.getByRole('button', { name: 'Zamknij zapytanie' }).click();
    await expect(page.getByText('Zapytanie zostało zamknięte')).toBeVisible();
    await expect(answered).toContainText('Zamknięte');
    await expect(answered.getByRole('button', { name: 'Otwórz ponownie' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Zapytania (otwarte: 0)' })).toBeVisible();

    // Closed: no longer among the answered, found among the closed.
    await page.goto('/queries?status=answered');
    await expect(
      page.getByRole('table', { name: 'Zapytania' }).getByText('Sprawdzone z wydrukiem'),
    ).toHaveCount(0);
    await page.goto('/queries?status=closed');
    await expect(
      page
        .getByRole('table', { name: 'Zapytania' })
        .getByRole('row')
        .filter({ hasText: 'Sprawdzone z wydrukiem' }),
    ).toHaveCount(1);

    // On a phone the list is cards, as every list.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(page.getByRole('table', { name: 'Zapytania' })).toHaveCount(0);
    const card = page.getByRole('listitem').filter({ hasText: 'Sprawdzone z wydrukiem' });
    await expect(card).toHaveCount(1);
    await expect(card).toContainText('Zamknięte');
    await expect(card.getByRole('link', { name: `Wizyta nr ${visitId}` })).toBeVisible();
    await expectAccessible(page, 'lista zapytań na telefonie');
  });
});

test.describe('Zapytania: lista i karta pacjenta', () => {
  test('an administrator filters the queries by unit and status; the card counts them; another unit’s doctor sees none', async ({
    page,
    request,
    api,
  }) => {
    const seed = e2eSeed();
    const patientId = seed.monitor.patient_id;
    const { printed } = await createMonitor(api, [seed.unit.id]);
    const password = `Monitor-${Date.now()}`;
    const first = await monitorApi(request, printed);
    await first.call('PUT', '/change_password', {
      oldPassword: printed.password,
      newPassword: password,
      passwordConfirm: password,
    });
    const monitor = await monitorApi(request, { login: printed.login, password });
    const text = `Masa ciała w źródle inna niż w karcie (${Date.now()}).`;
    await monitor.call('POST', '/queries', {
      record_type: 'patient',
      record_id: patientId,
      field: 'weight',
      text,
    });

    await openSignedIn(page, request, `/queries?status=open&unit_id=${seed.unit.id}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Zapytania' })).toBeVisible();
    const filters = page.getByRole('region', { name: 'Filtry zapytań' });
    await expect(filters.getByRole('combobox', { name: 'Jednostka' })).toHaveValue(seed.unit.name);
    await expect(filters.getByRole('combobox', { name: 'Status' })).toHaveValue('Otwarte');
    const row = page.getByRole('table', { name: 'Zapytania' }).getByRole('row').filter({
      hasText: text,
    });
    await expect(row).toContainText('Masa ciała');
    await expect(row).toContainText('Otwarte');
    await expect(row).toContainText(seed.unit.name);
    await expectAccessible(page, 'lista zapytań administratora');
    await row.getByRole('link', { name: /^Pacjent nr / }).click();
    await expect(page).toHaveURL(new RegExp(`/patients/card/${patientId}$`));

    // The card's tab counts the unresolved queries and shows the thread; an administrator
    // answers for the site but neither verifies nor closes.
    const tab = page.getByRole('tab', { name: /^Zapytania \(\d+\)$/ });
    await tab.click();
    const query = page.getByRole('article', { name: 'Zapytanie: Masa ciała' }).filter({
      hasText: text,
    });
    await expect(query).toContainText('Otwarte');
    await expect(query.getByRole('button', { name: 'Odpowiedz' })).toBeVisible();
    await expect(query.getByRole('link', { name: 'Popraw dane' })).toHaveAttribute(
      'href',
      new RegExp(`/patients/${patientId}/edit\\?query=\\d+$`),
    );
    await expect(query.getByRole('button', { name: 'Zamknij zapytanie' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Oznacz jako zweryfikowane' })).toHaveCount(0);
    await expectAccessible(page, 'karta pacjenta: zapytania');

    // A doctor of another unit: no unit filter, and none of this unit's queries.
    const unit = await api.createUnit();
    const { credentials } = await api.readyDoctor(unit.id);
    await openSignedIn(page, request, '/queries', 'doctor', credentials);
    await expect(page.getByRole('heading', { level: 1, name: 'Zapytania' })).toBeVisible();
    await expect(page.getByRole('combobox', { name: 'Jednostka' })).toHaveCount(0);
    await expect(page.getByText(text)).toHaveCount(0);
  });
});

test.describe('Monitor: własne jednostki i kafelki pulpitu', () => {
  test('the monitor’s unit filters offer its own units only; the tiles open the lists filtered as they count', async ({
    page,
    request,
    api,
  }) => {
    const seed = e2eSeed();
    const second = await api.createUnit();
    const beyond = await api.createUnit();
    const { printed } = await createMonitor(api, [seed.unit.id, second.id]);
    const password = `Monitor-${Date.now()}`;
    const first = await monitorApi(request, printed);
    await first.call('PUT', '/change_password', {
      oldPassword: printed.password,
      newPassword: password,
      passwordConfirm: password,
    });
    const monitor = await monitorApi(request, { login: printed.login, password });
    const text = `Wzrost w źródle inny niż w karcie (${Date.now()}).`;
    await monitor.call('POST', '/queries', {
      record_type: 'patient',
      record_id: seed.monitor.patient_id,
      field: 'height',
      text,
    });

    await openSignedInAs(page, request, '/dashboard', 'monitor', {
      login: printed.login,
      password,
    });
    await expect(page.getByRole('heading', { level: 1, name: 'Pulpit' })).toBeVisible();
    // The dashboard's unit choice: the assigned units, not a third one.
    await page.getByRole('combobox', { name: 'Jednostka' }).click();
    await expect(page.getByRole('option', { name: seed.unit.name })).toBeVisible();
    await expect(page.getByRole('option', { name: second.name })).toBeVisible();
    await expect(page.getByRole('option', { name: beyond.name })).toHaveCount(0);
    await page.keyboard.press('Escape');

    // The open-queries tile: the unresolved queries of the monitor's units.
    await page.getByRole('link', { name: /^Otwarte zapytania monitora/ }).click();
    await expect(page).toHaveURL(/\/queries\?status=open(,|%2C)answered$/);
    const filters = page.getByRole('region', { name: 'Filtry zapytań' });
    await expect(filters.getByRole('combobox', { name: 'Status' })).toHaveValue('Nierozwiązane');
    await expect(
      page.getByRole('table', { name: 'Zapytania' }).getByRole('row').filter({ hasText: text }),
    ).toHaveCount(1);
    // The list's unit filter: the same two units (a third would be the API's 404).
    await filters.getByRole('combobox', { name: 'Jednostka' }).click();
    await expect(page.getByRole('option', { name: seed.unit.name })).toBeVisible();
    await expect(page.getByRole('option', { name: second.name })).toBeVisible();
    await expect(page.getByRole('option', { name: beyond.name })).toHaveCount(0);
    await page.getByRole('option', { name: second.name }).click();
    await expect(page).toHaveURL(new RegExp(`unit_id=${second.id}`));
    await expect(page.getByText('Nie udało się')).toHaveCount(0);
    await expectAccessible(page, 'zapytania monitora: własne jednostki');

    // The patients tile: active patients only, shown as a filter that can be cleared.
    await page.goto('/dashboard');
    await page.getByRole('link', { name: /^Pacjenci w badaniu/ }).click();
    await expect(page).toHaveURL(/\/patients\?deleted=0$/);
    await expect(page.getByRole('combobox', { name: 'Usunięci pacjenci' })).toHaveValue(
      'Bez usuniętych',
    );
    await expectAccessible(page, 'pacjenci z pulpitu: bez usuniętych');
    await page.getByRole('button', { name: 'Wyczyść filtry' }).click();
    await expect(page).toHaveURL(/\/patients$/);
  });
});
