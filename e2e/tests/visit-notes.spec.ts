import { expect, openSignedIn, registerPatient, test } from '../fixtures.js';
import { expectAccessible } from '../a11y.js';

/** Today in Warsaw, YYYY-MM-DD (the test runner's own zone may differ). */
function warsawToday(): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Warsaw' }).format(new Date());
}

/** The first Monday–Friday at least `days` after `day`. */
function weekdayAfter(day: string, days: number): string {
  const moved = new Date(`${day}T12:00:00Z`);
  moved.setUTCDate(moved.getUTCDate() + days);
  while ([0, 6].includes(moved.getUTCDay())) moved.setUTCDate(moved.getUTCDate() + 1);
  return moved.toISOString().slice(0, 10);
}

test.describe('Notatki wizyty (ADR 038)', () => {
  test('the doctor writes rich-text notes on the visit card, edits and clears them', async ({
    page,
    request,
    api,
  }) => {
    const unit = await api.createUnit();
    const { doctor, credentials } = await api.readyDoctor(unit.id);
    const patient = await registerPatient(api, doctor, { personal: { surname: 'Notatkowa' } });
    const day = weekdayAfter(warsawToday(), 9);
    const booked = await api.call<{ visit: { id: number } }>('POST', '/visits', {
      patient_id: patient.id,
      date: day,
      started_at: '12:00',
    });

    await openSignedIn(
      page,
      request,
      `/patients/${patient.id}/visits/${booked.visit.id}`,
      'doctor',
      credentials,
    );
    await expect(page.getByRole('heading', { level: 1, name: 'Karta wizyty' })).toBeVisible();
    const notes = page.getByRole('region', { name: 'Notatki' });
    await expect(notes.getByText('Brak notatek.')).toBeVisible();
    await expectAccessible(page, 'visit card without notes');

    await notes.getByRole('button', { name: 'Edytuj notatki' }).click();
    const dialog = page.getByRole('dialog', { name: 'Notatki z wizyty' });
    const editor = dialog.getByRole('textbox', { name: 'Treść notatek' });
    await editor.click();
    await editor.pressSequentially('Przygotować skierowanie na ');
    await dialog.getByRole('button', { name: 'Pogrubienie' }).click();
    await editor.pressSequentially('Holter EKG');
    await expectAccessible(page, 'visit notes dialog');
    await dialog.getByRole('button', { name: 'Zapisz notatki' }).click();
    await expect(page.getByText('Notatki zostały zapisane')).toBeVisible();
    await expect(dialog).toBeHidden();
    const shown = page.getByTestId('visit-notes');
    await expect(shown).toContainText('Przygotować skierowanie na Holter EKG');
    await expect(shown.locator('strong')).toHaveText('Holter EKG');

    // The server kept them: a reload shows the same, and the API answers them.
    await page.reload();
    await expect(page.getByTestId('visit-notes').locator('strong')).toHaveText('Holter EKG');
    const stored = await api.call<{ notes: string | null; version: number }>(
      'GET',
      `/visits/${booked.visit.id}`,
    );
    expect(stored.notes).toContain('<strong>Holter EKG</strong>');

    // Someone else saves meanwhile: this screen's version is stale, it says so and reloads.
    await api.call('PUT', `/visits/${booked.visit.id}/notes`, {
      notes: '<p>Zmiana koordynatora</p>',
      version: stored.version,
    });
    await page
      .getByRole('region', { name: 'Notatki' })
      .getByRole('button', { name: 'Edytuj notatki' })
      .click();
    const stale = page.getByRole('dialog', { name: 'Notatki z wizyty' });
    await stale.getByRole('textbox', { name: 'Treść notatek' }).pressSequentially(' (dopisek)');
    await stale.getByRole('button', { name: 'Zapisz notatki' }).click();
    await expect(page.getByText('Ktoś inny zmienił tę wizytę w międzyczasie')).toBeVisible();
    await expect(page.getByTestId('visit-notes')).toHaveText('Zmiana koordynatora');

    // Emptied, the notes are cleared.
    await page
      .getByRole('region', { name: 'Notatki' })
      .getByRole('button', { name: 'Edytuj notatki' })
      .click();
    const clear = page.getByRole('dialog', { name: 'Notatki z wizyty' });
    const box = clear.getByRole('textbox', { name: 'Treść notatek' });
    await box.click();
    await box.press('ControlOrMeta+a');
    await box.press('Delete');
    await clear.getByRole('button', { name: 'Zapisz notatki' }).click();
    await expect(
      page.getByRole('region', { name: 'Notatki' }).getByText('Brak notatek.'),
    ).toBeVisible();
    await expectAccessible(page, 'visit card after clearing the notes');
  });
});

test.describe('Ustawienia wizyt: horyzont rezerwacji (ADR 038)', () => {
  test.afterEach(async ({ api }) => {
    const current = await api.call<{ data: { value: Record<string, unknown> } }>(
      'GET',
      '/settings/visits',
    );
    await api.call('POST', '/settings/visits', {
      value: { ...current.data.value, booking_horizon_days: 730 },
    });
  });

  test('shows two years by default and saves another horizon', async ({ page, request, api }) => {
    await openSignedIn(page, request, '/settings/visits');
    const horizon = page.getByRole('textbox', { name: 'Rezerwacja najpóźniej na (dni od dziś)' });
    await expect(horizon).toHaveValue('730');
    await expectAccessible(page, 'visit settings with the booking horizon');
    await horizon.fill('400');
    await page.getByRole('button', { name: 'Zapisz' }).click();
    await expect(page.getByText('Zmiany zostały zapisane')).toBeVisible();
    const saved = await api.call<{ data: { value: { booking_horizon_days: number } } }>(
      'GET',
      '/settings/visits',
    );
    expect(saved.data.value.booking_horizon_days).toBe(400);
  });
});
