import type { Page } from '@playwright/test';
import { PortalApi, expect, openSignedIn, test } from '../fixtures.js';
import type { Credentials } from '../fixtures.js';
import { expectAccessible } from '../a11y.js';
import { giveReason } from '../reason.js';
import { e2eSeed } from '../seed.js';
import { giveReasonIn, warsawToday } from '../signweb.js';

const INVALIDATED = 'Podpis nieważny — rekord zmieniono po podpisaniu';

const visitPath = () => {
  const { signing } = e2eSeed();
  return `/patients/${signing.patient_id}/visits/${signing.visit_id}`;
};
const signaturesOf = (page: Page) => page.getByRole('region', { name: 'Podpisy elektroniczne' });

/** Signs what is open with the meaning and the password; the dialog stays open on a refusal. */
async function sign(page: Page, meaning: string, password: string) {
  const dialog = page.getByRole('dialog', { name: 'Podpis elektroniczny' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('radio', { name: meaning }).check();
  await dialog.getByRole('textbox', { name: 'Hasło', exact: true }).fill(password);
  await dialog.getByRole('button', { name: 'Podpisz' }).click();
  return dialog;
}

/**
 * Issue 23 items 2 and 3 on screen (ADRs 048, 050): a doctor signs a visit card (a wrong password
 * first), the signature's manifestation shows; an administrator locks it (edits say so) and
 * unlocks it, each with a reason; a correction invalidates the signature, which stays listed, and
 * a lock is then refused as not signed; a sample's results are signed too.
 */
test.describe.serial('Podpis elektroniczny i blokada rekordu', () => {
  let doctor: Credentials;
  let doctorName: string;

  test.beforeAll(async ({ playwright }) => {
    const request = await playwright.request.newContext();
    const { api } = await PortalApi.signIn(request);
    // A doctor of the seeded unit of their own: a wrong password counts against this login only.
    const ready = await api.readyDoctor(e2eSeed().unit.id);
    doctor = ready.credentials;
    doctorName = `${ready.doctor.firstname} ${ready.doctor.surname}`;
    await request.dispose();
  });

  test('a doctor signs the visit card: wrong password, then the right one; the manifestation shows', async ({
    page,
    request,
  }) => {
    await openSignedIn(page, request, visitPath(), 'doctor', doctor);
    await expect(page.getByRole('heading', { level: 1, name: 'Karta wizyty' })).toBeVisible();
    await expect(signaturesOf(page)).toContainText('Rekord nie został jeszcze podpisany.');
    await signaturesOf(page).getByRole('button', { name: 'Podpisz' }).click();

    const dialog = page.getByRole('dialog', { name: 'Podpis elektroniczny' });
    // What is signed, in words, and who signs.
    const content = dialog.getByTestId('signed-content');
    await expect(content).toContainText('QT');
    await expect(content).toContainText('400 ms');
    await expect(content).toContainText('Rytm zatokowy miarowy.');
    await expect(dialog.getByTestId('signer-name')).toHaveText(doctorName);
    await expectAccessible(page, 'sign dialog');

    // The meaning is a choice: none chosen, nothing sent.
    await dialog.getByRole('textbox', { name: 'Hasło', exact: true }).fill('nie-to-haslo');
    await dialog.getByRole('button', { name: 'Podpisz' }).click();
    await expect(dialog.getByText('Wybierz znaczenie podpisu')).toBeVisible();

    await sign(page, 'Autor', 'nie-to-haslo');
    await expect(dialog.getByText('Niepoprawne hasło')).toBeVisible();
    // The password is typed again every time.
    await expect(dialog.getByRole('textbox', { name: 'Hasło', exact: true })).toHaveValue('');
    await expectAccessible(page, 'sign dialog, wrong password');

    await sign(page, 'Autor', doctor.password);
    await expect(page.getByText('Rekord został podpisany')).toBeVisible();
    await expect(dialog).toBeHidden();
    const signature = signaturesOf(page).getByTestId('signature');
    await expect(signature).toHaveCount(1);
    await expect(signature).toContainText(doctorName);
    await expect(signature).toContainText(new RegExp(`${warsawToday()} \\d{2}:\\d{2}`));
    await expect(signature).toContainText('Autor');
    await expect(signature).not.toContainText(INVALIDATED);
    // A doctor neither locks nor unlocks.
    await expect(signaturesOf(page).getByRole('button', { name: 'Zablokuj rekord' })).toHaveCount(
      0,
    );
    await expectAccessible(page, 'visit card signed');
  });

  test('an administrator locks the signed visit with a reason: edits say it is locked; then unlocks it', async ({
    page,
    request,
  }) => {
    await openSignedIn(page, request, visitPath());
    await expect(page.getByRole('heading', { level: 1, name: 'Karta wizyty' })).toBeVisible();
    await signaturesOf(page).getByRole('button', { name: 'Zablokuj rekord' }).click();
    await giveReasonIn(page, 'Powód blokady rekordu', 'Inny', 'Karta zweryfikowana, zamknięcie');
    await expect(page.getByText('Rekord został zablokowany')).toBeVisible();
    await expect(page.getByTestId('record-lock-badge').first()).toHaveText('Rekord zablokowany');
    await expect(page.getByTestId('record-locked')).toContainText('Zmiany nie są możliwe');
    // The edit actions stay, disabled, and say why.
    await expect(page.getByRole('button', { name: 'Popraw zapis' })).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Edytuj notatki' })).toBeDisabled();
    await expect(page.getByText('Rekord zablokowany — edycja niemożliwa').first()).toBeVisible();
    await expectAccessible(page, 'visit card locked');

    await signaturesOf(page).getByRole('button', { name: 'Odblokuj rekord' }).click();
    await giveReasonIn(page, 'Powód odblokowania rekordu', 'Odpowiedź na zapytanie monitora');
    await expect(page.getByText('Rekord został odblokowany')).toBeVisible();
    await expect(page.getByTestId('record-lock-badge')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Popraw zapis' })).toBeEnabled();
  });

  test('a correction with a reason invalidates the signature, which stays listed; a lock is then refused', async ({
    page,
    request,
  }) => {
    await openSignedIn(page, request, visitPath(), 'doctor', doctor);
    await page.getByRole('button', { name: 'Popraw zapis' }).click();
    await page.getByRole('textbox', { name: 'QT (ms)', exact: true }).fill('410');
    await page.getByRole('button', { name: 'Zapisz wizytę' }).click();
    await giveReason(page, 'Korekta na podstawie dokumentacji źródłowej');
    await expect(page.getByText('Wizyta została zapisana')).toBeVisible();
    const signature = signaturesOf(page).getByTestId('signature');
    await expect(signature).toHaveCount(1);
    await expect(signature).toContainText(doctorName);
    await expect(signature.getByTestId('signature-invalidated')).toContainText(INVALIDATED);
    await expectAccessible(page, 'visit card with an invalidated signature');

    // No valid signature left: the lock is refused, and the screen says why.
    await openSignedIn(page, request, visitPath());
    await signaturesOf(page).getByRole('button', { name: 'Zablokuj rekord' }).click();
    await giveReasonIn(page, 'Powód blokady rekordu', 'Błąd wprowadzania danych');
    await expect(
      page.getByText('Nie można zablokować rekordu: nie ma ważnego podpisu.'),
    ).toBeVisible();
    await expect(page.getByTestId('record-lock-badge')).toHaveCount(0);
  });

  test("a doctor signs a sample's results as approved", async ({ page, request }) => {
    const { signing } = e2eSeed();
    await openSignedIn(page, request, `/probes/${signing.probe_id}`, 'doctor', doctor);
    await expect(page.getByRole('heading', { level: 1 })).toContainText(signing.probe_code);
    await signaturesOf(page).getByRole('button', { name: 'Podpisz' }).click();
    const dialog = page.getByRole('dialog', { name: 'Podpis elektroniczny' });
    await expect(dialog.getByTestId('signed-content')).toContainText('30 U/l');
    await sign(page, 'Zatwierdzam', doctor.password);
    await expect(dialog).toBeHidden();
    const signature = signaturesOf(page).getByTestId('signature');
    await expect(signature).toContainText('Zatwierdzam');
    await expect(signature).toContainText(doctorName);
    await expectAccessible(page, 'sample signed');
  });
});
