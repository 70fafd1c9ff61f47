import {
  PortalApi,
  expect,
  openSignedIn,
  registerPatient,
  signInThroughUi,
  test,
} from '../fixtures.js';
import { expectAccessible } from '../a11y.js';
import { expectNoSidewaysScroll } from '../layout.js';

/** "listopad 2026": the month of today in Warsaw, as the recruitment table names it. */
const thisMonth = () =>
  new Intl.DateTimeFormat('pl-PL', {
    month: 'long',
    year: 'numeric',
    timeZone: 'Europe/Warsaw',
  }).format(new Date());

test.describe('Pulpit badania', () => {
  test('a doctor lands on the own unit’s dashboard, reads a chart as a table and follows a tile', async ({
    page,
    api,
    request,
  }) => {
    const unit = await api.createUnit();
    const { doctor, credentials } = await api.readyDoctor(unit.id);
    for (let i = 0; i < 3; i++) await registerPatient(api, doctor);
    // Another unit's patient counts nowhere on this doctor's dashboard.
    const elsewhere = await api.readyDoctor((await api.createUnit()).id);
    await registerPatient(api, elsewhere.doctor);

    await signInThroughUi(page, 'doctor', credentials);
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Pulpit' })).toBeVisible();
    const patientsTile = page.getByRole('link', { name: /^Pacjenci w badaniu\s*:\s*3$/ });
    await expect(patientsTile).toBeVisible();
    await expect(page.getByRole('link', { name: /^Zaległe wizyty\s*:\s*0$/ })).toBeVisible();
    // No unit picker for a doctor: the own unit only.
    await expect(page.getByRole('combobox', { name: 'Jednostka' })).toHaveCount(0);

    // The recruitment chart's text summary, then its figures as a table.
    const recruitment = page.getByRole('region', { name: 'Rekrutacja w miesiącach' });
    await expect(recruitment.getByText(/Pacjentów w badaniu: 3/)).toBeVisible();
    await recruitment
      .getByRole('button', { name: 'Pokaż tabelę: Rekrutacja w miesiącach' })
      .click();
    const table = recruitment.getByRole('table', { name: 'Rekrutacja w miesiącach' });
    await expect(table).toBeVisible();
    await expect(table.getByRole('row', { name: `${thisMonth()} 3` })).toBeVisible();
    await expect(
      recruitment.getByRole('button', { name: 'Ukryj tabelę: Rekrutacja w miesiącach' }),
    ).toHaveAttribute('aria-expanded', 'true');

    const groups = page.getByRole('region', { name: 'Pacjenci według grup' });
    await groups.getByRole('button', { name: 'Pokaż tabelę: Pacjenci według grup' }).click();
    await expect(
      groups.getByRole('table', { name: 'Pacjenci według grup' }).getByRole('row', {
        name: /Grupa \d+ 3/,
      }),
    ).toBeVisible();
    await expectAccessible(page, 'pulpit lekarza z tabelami');

    // A tile leads to its list, filtered as it counts: active patients (ADR 060).
    await patientsTile.click();
    await expect(page).toHaveURL(/\/patients\?deleted=0$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Pacjenci' })).toBeVisible();
    await expect(page.getByRole('combobox', { name: 'Usunięci pacjenci' })).toHaveValue(
      'Bez usuniętych',
    );

    // The figures are the API's for this unit (its answer, not the screen's arithmetic).
    const { api: asDoctor } = await PortalApi.signIn(request, 'doctor', credentials);
    const figures = await asDoctor.call<{ patients: { total: number } }>('GET', '/dashboard');
    expect(figures.patients.total).toBe(3);
    const other = await asDoctor.send('GET', `/dashboard?unit_id=${elsewhere.doctor.unit_id}`);
    expect(other.status()).toBe(403);
  });

  // It sets the study's one recruitment target: @study-wide runs it apart (ADR 065).
  test(
    'an administrator chooses a unit on a phone, numbers written the Polish way',
    {
      tag: '@study-wide',
    },
    async ({ page, request, api }) => {
      const unit = await api.createUnit();
      const { doctor } = await api.readyDoctor(unit.id);
      await registerPatient(api, doctor);
      await api.call('POST', '/settings/recruitment_target', {
        value: { per_unit_month: 12345, total: null },
      });

      await page.setViewportSize({ width: 390, height: 844 });
      await openSignedIn(page, request, '/dashboard');
      await expect(page.getByRole('heading', { level: 1, name: 'Pulpit' })).toBeVisible();
      await page.getByRole('combobox', { name: 'Jednostka' }).fill(unit.name);
      await page.getByRole('option', { name: unit.name }).click();
      await expect(page).toHaveURL(new RegExp(`/dashboard\\?unit_id=${unit.id}$`));
      await expect(page.getByRole('link', { name: /^Pacjenci w badaniu\s*:\s*1$/ })).toBeVisible();
      // Polish groups thousands with a non-breaking space: "12 345".
      await expect(page.getByText(/Cel: 12\s345 pacjentów na miesiąc\./)).toBeVisible();
      await expectNoSidewaysScroll(page);
      await expectAccessible(page, 'pulpit administratora (telefon)');

      // The overdue tile keeps the unit in its link, as the overdue list reads it.
      await page.getByRole('link', { name: /^Zaległe wizyty\s*:\s*0$/ }).click();
      await expect(page).toHaveURL(new RegExp(`/visits/overdue\\?unit_id=${unit.id}$`));
      await expect(page.getByRole('combobox', { name: 'Jednostka' })).toHaveValue(unit.name);
      await api.call('POST', '/settings/recruitment_target', {
        value: { per_unit_month: null, total: null },
      });
    },
  );
});
