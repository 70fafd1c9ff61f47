import { readFile } from 'node:fs/promises';
import type { Locator, Page } from '@playwright/test';
import { BASE_URL } from '../env.js';
import {
  answerNewPasswordQuestion,
  expect,
  NEW_PASSWORD,
  openSignedIn,
  registerPatient,
  test,
} from '../fixtures.js';
import { expectAccessible } from '../a11y.js';

const PDF = Buffer.from('%PDF-1.4\n%%EOF\n');
const CONFIRM_DELETE = 'Czy na pewno chcesz usunąć wybrany element?';

/** The value next to a label of the card's description lists. */
function fact(page: Page, label: string) {
  return page
    .locator('dl > div')
    .filter({ has: page.locator('dt', { hasText: new RegExp(`^${label}$`) }) })
    .locator('dd');
}

function tabs(page: Page) {
  return page.getByRole('tablist', { name: 'Sekcje karty pacjenta' });
}

async function openTab(page: Page, name: string) {
  await tabs(page).getByRole('tab', { name }).click();
  await expect(tabs(page).getByRole('tab', { name })).toHaveAttribute('aria-selected', 'true');
}

async function confirm(page: Page) {
  await page
    .getByRole('dialog', { name: CONFIRM_DELETE })
    .getByRole('button', { name: 'Tak' })
    .click();
}

/** Closes a toast, so that the same message can be told apart when it comes again. */
async function dismissToast(page: Page, text: string) {
  const toast = page.getByRole('alert').filter({ hasText: text });
  await toast.getByRole('button').click();
  await expect(toast).toHaveCount(0);
}

/** Types into a rich-text editor: plain words, then words in bold. */
async function typeRichText(dialog: Locator, editorName: string, plain: string, bold: string) {
  const editor = dialog.getByRole('textbox', { name: editorName });
  await editor.click();
  await editor.pressSequentially(plain);
  await dialog.getByRole('button', { name: 'Pogrubienie' }).click();
  await editor.pressSequentially(bold);
}

test.describe('Karta pacjenta', () => {
  test('header and the personal, medical and medicines tabs show the registered data', async ({
    page,
    request,
    api,
  }) => {
    const unit = await api.createUnit();
    const doctor = await api.createDoctor(unit.id, { firstname: 'Barbara' });
    const patient = await registerPatient(api, doctor, {
      personal: { email: 'z.wojcik@poczta.test', project_number: `FDC-${Date.now()}` },
      exclusion: { is_classified: true },
    });
    const detail = await api.call<{ login: string; birth_date: string; project_number: string }>(
      'GET',
      `/patients/${patient.id}`,
    );
    await openSignedIn(page, request, '/patients');
    await page.getByRole('searchbox', { name: 'Szukaj' }).fill(patient.pesel);
    await page.getByRole('link', { name: `Karta pacjenta: ${patient.surname} Zofia` }).click();
    await expect(page).toHaveURL(new RegExp(`/patients/card/${patient.id}$`));

    await expect(
      page.getByRole('heading', { level: 1, name: `${patient.surname} Zofia` }),
    ).toBeVisible();
    // Masked until "Pokaż" asks the server for it (a logged read, ADR 053).
    await expect(page.getByText(`PESEL: ${patient.pesel.slice(0, 6)}*****`)).toBeVisible();
    await page.getByRole('button', { name: 'Pokaż PESEL i dane kontaktowe' }).click();
    await expect(page.getByText(`PESEL: ${patient.pesel}`)).toBeVisible();
    for (const name of [
      'Dane osobowe i medyczne',
      'Przyjmowane leki',
      'Wizyty',
      'Komentarze lekarza',
      'Załączniki',
      'Próbki',
      'Komunikaty',
    ]) {
      await expect(tabs(page).getByRole('tab', { name })).toBeVisible();
    }
    await expect(tabs(page).getByRole('tab', { name: 'Dane osobowe i medyczne' })).toHaveAttribute(
      'aria-selected',
      'true',
    );

    const [year, month, day] = detail.birth_date.split('-');
    const expected: [string, string][] = [
      ['Adres', 'ul. Łąkowa 3/12, 90-001 Łódź'],
      ['Telefon', '+48 501 234 567'],
      ['E-mail', 'z.wojcik@poczta.test'],
      ['Login pacjenta', detail.login],
      ['Lekarz', `Barbara ${doctor.surname}`],
      ['Jednostka', unit.name],
      ['Wzrost', '168 cm'],
      ['Waga', '72,5 kg'],
      ['Płeć', 'Kobieta'],
      ['Data urodzenia', `${day}.${month}.${year}`],
      ['Numer uczestnika', String(patient.id)],
      ['Numer projektu', detail.project_number],
      ['Grupa', '1. Nadciśnienie tętnicze'],
      ['Podgrupa', '1B: walsartan + hydrochlorotiazyd'],
      ['Dawka', '160 mg'],
      ['Kwalifikacja', 'Zakwalifikowany'],
      ['Kryterium wyłączenia', 'Brak'],
      ['Powyżej 18 lat', 'Tak'],
      ['Zakończył udział w programie', 'Nie'],
    ];
    for (const [label, value] of expected) await expect(fact(page, label)).toHaveText(value);
    await expectAccessible(page, 'karta: dane osobowe');
    await expect(fact(page, 'E-mail').getByRole('link')).toHaveAttribute(
      'href',
      'mailto:z.wojcik@poczta.test',
    );

    await openTab(page, 'Przyjmowane leki');
    await expect(page).toHaveURL(/\?tab=medicines$/);
    const study = page.locator('section').filter({
      has: page.getByRole('heading', { name: 'Leki badania' }),
    });
    await expect(study.getByRole('row').filter({ hasText: 'walsartan' })).toContainText('160 mg');
    await expect(study.getByRole('row').filter({ hasText: 'hydrochlorotiazyd' })).toContainText(
      '12,5 mg',
    );
    await expect(
      study.getByRole('link', { name: 'Karta substancji (CAS): walsartan' }),
    ).toHaveAttribute('href', 'https://commonchemistry.cas.org/detail?cas_rn=137862-53-4');
    const other = page.locator('section').filter({
      has: page.getByRole('heading', { name: 'Inne leki' }),
    });
    await expect(other.getByRole('row').filter({ hasText: 'Metformina' })).toContainText('500 mg');
    await expectAccessible(page, 'karta: leki');

    // The tab is in the address, so a reload comes back to it.
    await page.reload();
    await expect(tabs(page).getByRole('tab', { name: 'Przyjmowane leki' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
  });

  test("doctor's comments: a rich-text comment is added with its author and date, then deleted", async ({
    page,
    request,
    api,
  }) => {
    const unit = await api.createUnit();
    const { doctor, credentials } = await api.readyDoctor(unit.id);
    const patient = await registerPatient(api, doctor);
    await openSignedIn(
      page,
      request,
      `/patients/card/${patient.id}?tab=notes`,
      'doctor',
      credentials,
    );

    await expect(tabs(page).getByRole('tab', { name: 'Komentarze lekarza' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await expect(page.getByText('Brak komentarzy.')).toBeVisible();
    await page.getByRole('button', { name: 'Dodaj komentarz' }).click();
    const dialog = page.getByRole('dialog', { name: 'Dodaj komentarz' });
    await expect(dialog).toBeVisible();

    // An empty comment is not saved.
    await dialog.getByRole('button', { name: 'Zapisz' }).click();
    await expect(dialog.getByText('To pole musi być wypełnione')).toBeVisible();
    await expectAccessible(page, 'karta: nowy komentarz z błędem');

    await typeRichText(dialog, 'Treść komentarza', 'Ciśnienie 150/95. ', 'Zwiększyć dawkę.');
    await expect(dialog.locator('strong')).toHaveText('Zwiększyć dawkę.');
    await dialog.getByRole('button', { name: 'Zapisz' }).click();
    await expect(page.getByText('Komentarz został dodany')).toBeVisible();
    await expect(dialog).toBeHidden();

    const note = page.getByRole('listitem').filter({ hasText: 'Ciśnienie 150/95.' });
    await expect(note).toBeVisible();
    await expect(note).toContainText(`${doctor.firstname} ${doctor.surname}`);
    await expect(note.getByText(/^Dodano: \d{2}\.\d{2}\.\d{4} \d{2}:\d{2}$/)).toBeVisible();
    await expect(note.locator('strong')).toHaveText('Zwiększyć dawkę.');
    await expectAccessible(page, 'karta: komentarze');

    // A deletion asks first; "Nie" keeps the comment.
    await note.getByRole('button', { name: 'Usuń komentarz' }).click();
    await page
      .getByRole('dialog', { name: CONFIRM_DELETE })
      .getByRole('button', { name: 'Nie' })
      .click();
    await expect(note).toBeVisible();
    await note.getByRole('button', { name: 'Usuń komentarz' }).click();
    await confirm(page);
    await expect(page.getByText('Komentarz został usunięty')).toBeVisible();
    await expect(note).toHaveCount(0);
    await expect(page.getByText('Brak komentarzy.')).toBeVisible();
  });

  test('attachments: upload a PDF with a comment, download it under its name, refuse a fake PDF, delete', async ({
    page,
    request,
    api,
  }) => {
    const unit = await api.createUnit();
    const doctor = await api.createDoctor(unit.id);
    const patient = await registerPatient(api, doctor);
    const fileName = 'Wyniki badań 2026.pdf';
    await openSignedIn(page, request, `/patients/card/${patient.id}`);
    await openTab(page, 'Załączniki');
    await expect(page.getByText('Brak załączników.')).toBeVisible();
    await expect(page.getByText('Przeciągnij plik tutaj lub kliknij, aby go wybrać')).toBeVisible();

    const picker = page.locator('input[type="file"]');
    await picker.setInputFiles({ name: fileName, mimeType: 'application/pdf', buffer: PDF });
    const modal = page.getByRole('dialog', { name: 'Prześlij załącznik' });
    await expect(modal).toBeVisible();
    await expect(modal.getByText(fileName)).toBeVisible();
    await expectAccessible(page, 'karta: przesyłanie załącznika');
    await typeRichText(modal, 'Komentarz (opcjonalnie)', 'EKG z ', 'poradni');
    await modal.getByRole('button', { name: 'Prześlij' }).click();
    await expect(page.getByText('Plik został przesłany')).toBeVisible();
    await expect(modal).toBeHidden();

    const files = page.getByRole('table', { name: 'Załączniki' });
    const row = files.getByRole('row').filter({ hasText: fileName });
    await expect(row).toBeVisible();
    await expect(row).toContainText('EKG z poradni');
    await expect(row.locator('strong')).toHaveText('poradni');
    await expect(row).toContainText(/\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}/);
    await expectAccessible(page, 'karta: załączniki');

    // Clicking the name downloads the file under its original name, unchanged.
    const downloading = page.waitForEvent('download');
    await row.getByRole('button', { name: `Pobierz plik ${fileName}` }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(fileName);
    const saved = await download.path();
    expect(await readFile(saved)).toEqual(PDF);

    // A kind of file the study does not take is refused at once.
    await picker.setInputFiles({
      name: 'zdjecie.png',
      mimeType: 'image/png',
      buffer: Buffer.from('89504e470d0a1a0a', 'hex'),
    });
    await expect(page.getByText('Nieprawidłowy rodzaj pliku')).toBeVisible();
    await expect(modal).toBeHidden();
    await dismissToast(page, 'Nieprawidłowy rodzaj pliku');

    // A file named .pdf that is not a PDF is refused by its content.
    await picker.setInputFiles({
      name: 'skan.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from('To nie jest dokument PDF, tylko zwykły tekst.\n'),
    });
    await expect(modal.getByText('skan.pdf')).toBeVisible();
    await modal.getByRole('button', { name: 'Prześlij' }).click();
    await expect(page.getByText('Nieprawidłowy rodzaj pliku')).toBeVisible();
    await modal.getByRole('button', { name: 'Anuluj' }).click();
    await expect(modal).toBeHidden();
    await expect(files.getByRole('row').filter({ hasText: 'skan.pdf' })).toHaveCount(0);

    await row.getByRole('button', { name: `Usuń plik: ${fileName}` }).click();
    await confirm(page);
    await expect(page.getByText('Plik został usunięty')).toBeVisible();
    await expect(page.getByText('Brak załączników.')).toBeVisible();
  });

  test('messages: a new one is sent, shown unread, edited and deleted', async ({
    page,
    request,
    api,
  }) => {
    const unit = await api.createUnit();
    const doctor = await api.createDoctor(unit.id);
    const patient = await registerPatient(api, doctor);
    await openSignedIn(page, request, `/patients/card/${patient.id}`);
    await openTab(page, 'Komunikaty');
    await expect(page.getByText('Brak komunikatów.')).toBeVisible();

    await page.getByRole('button', { name: 'Dodaj nowy komunikat' }).click();
    const send = page.getByRole('dialog', { name: 'Nowy komunikat' });
    await typeRichText(send, 'Treść komunikatu', 'Proszę o kontakt z poradnią ', 'przed wizytą.');
    await send.getByRole('button', { name: 'Wyślij' }).click();
    await expect(page.getByText('Komunikat został wysłany')).toBeVisible();
    await expect(send).toBeHidden();

    const message = page.getByRole('listitem').filter({ hasText: 'Proszę o kontakt z poradnią' });
    await expect(message).toHaveAttribute('data-unread', 'true');
    await expect(message.getByText('Nieprzeczytany')).toBeVisible();
    await expect(message).toContainText('Administrator');
    await expect(message).toContainText(/\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}/);
    await expectAccessible(page, 'karta: komunikaty');
    // Highlighted: an unread message does not look like the page around it.
    const background = await message.evaluate((el) => getComputedStyle(el).backgroundColor);
    const pageBackground = await page
      .locator('main')
      .evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(background).not.toBe(pageBackground);

    // An unread message opens for editing.
    await message.getByRole('button').click();
    const edit = page.getByRole('dialog', { name: 'Edycja komunikatu' });
    const editor = edit.getByRole('textbox', { name: 'Treść komunikatu' });
    await expect(editor).toContainText('Proszę o kontakt z poradnią przed wizytą.');
    await expect(edit.locator('strong')).toHaveText('przed wizytą.');
    await editor.click();
    await page.keyboard.press('ControlOrMeta+a');
    await editor.pressSequentially('Wizyta przesunięta na piątek.');
    await edit.getByRole('button', { name: 'Zapisz' }).click();
    await expect(page.getByText('Zmiany zostały zapisane')).toBeVisible();
    await expect(edit).toBeHidden();
    const changed = page.getByRole('listitem').filter({ hasText: 'Wizyta przesunięta na piątek.' });
    await expect(changed).toHaveAttribute('data-unread', 'true');
    await expect(message).toHaveCount(0);

    await changed.getByRole('button').click();
    await edit.getByRole('button', { name: 'Usuń', exact: true }).click();
    await confirm(page);
    await expect(page.getByText('Komunikat został usunięty')).toBeVisible();
    await expect(edit).toBeHidden();
    await expect(page.getByText('Brak komunikatów.')).toBeVisible();
  });

  test('a doctor may delete only the own comments and edit only the own messages', async ({
    page,
    request,
    api,
  }) => {
    const unit = await api.createUnit();
    const { doctor, credentials } = await api.readyDoctor(unit.id);
    const patient = await registerPatient(api, doctor);
    // The administrator (the api fixture) writes a comment and a message on the doctor's patient.
    await api.call('POST', '/patients/notes', {
      content: '<p>Uwaga administratora.</p>',
      ref_type: 'patient',
      ref_id: patient.id,
    });
    const basic = await api.call<{ user_id: number }>('GET', `/patients/${patient.id}/basic`);
    await api.call('POST', '/notifications', {
      content: '<p>Komunikat administratora.</p>',
      receiver_user_id: basic.user_id,
    });
    await openSignedIn(
      page,
      request,
      `/patients/card/${patient.id}?tab=notes`,
      'doctor',
      credentials,
    );

    const note = page.getByRole('listitem').filter({ hasText: 'Uwaga administratora.' });
    await expect(note).toContainText('Administrator');
    await expect(note.getByRole('button', { name: 'Usuń komentarz' })).toHaveCount(0);

    await openTab(page, 'Komunikaty');
    const message = page.getByRole('listitem').filter({ hasText: 'Komunikat administratora.' });
    await expect(message).toHaveAttribute('data-unread', 'true');
    // Unread, but another sender's: it opens for reading, not for editing.
    await message.getByRole('button').click();
    const view = page.getByRole('dialog', { name: 'Komunikat' });
    await expect(view).toContainText('Komunikat administratora.');
    await expect(page.getByRole('dialog', { name: 'Edycja komunikatu' })).toHaveCount(0);
    await expect(view.getByRole('button', { name: 'Usuń', exact: true })).toHaveCount(0);
  });

  test('reset password asks first: "Anuluj" changes nothing, "Generuj" shows the new login details', async ({
    page,
    request,
    api,
  }) => {
    const unit = await api.createUnit();
    const doctor = await api.createDoctor(unit.id);
    const patient = await registerPatient(api, doctor);
    await openSignedIn(page, request, `/patients/card/${patient.id}`);
    // Patients do not sign in to this portal: that no reset was asked of the server shows that
    // the password was kept.
    const resets: string[] = [];
    page.on('request', (sent) => {
      if (sent.url().includes('/print_password/')) resets.push(sent.url());
    });

    await page.getByRole('button', { name: 'Resetuj hasło' }).click();
    const question = page.getByRole('dialog', { name: NEW_PASSWORD.question });
    await expect(question).toContainText(NEW_PASSWORD.detail);
    await expectAccessible(page, 'karta: pytanie o nowe hasło');
    await answerNewPasswordQuestion(page, 'Anuluj');
    const sheet = page.getByRole('dialog', { name: 'Dane logowania' });
    await expect(sheet).toHaveCount(0);
    expect(resets).toEqual([]);

    await page.getByRole('button', { name: 'Resetuj hasło' }).click();
    await answerNewPasswordQuestion(page, 'Generuj');
    await expect(sheet).toBeVisible();
    expect(resets).toHaveLength(1);
    const value = (heading: string) =>
      sheet.getByRole('row', { name: new RegExp(`^${heading} `) }).getByRole('cell');
    await expect(value('Login')).toHaveText(patient.login);
    await expect(value('Hasło')).toHaveText(/^\S{12}$/);
    await expect(value('Hasło')).not.toHaveText(patient.password);
    await expect(value('Adres logowania')).toHaveText(BASE_URL);
    await expect(sheet.locator('iframe[title="PDF"]')).toBeVisible();
    await sheet.getByRole('button', { name: 'Zamknij' }).click();
    await expect(sheet).toBeHidden();
  });
});

test.describe('Karta pacjenta na telefonie', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the tabs are a menu that also shows the user's login and the password and logout links", async ({
    page,
    request,
    api,
  }) => {
    const unit = await api.createUnit();
    const doctor = await api.createDoctor(unit.id);
    const patient = await registerPatient(api, doctor);
    await openSignedIn(page, request, `/patients/card/${patient.id}`);
    await expect(
      page.getByRole('heading', { level: 1, name: `${patient.surname} Zofia` }),
    ).toBeVisible();
    await expect(page.getByRole('tablist')).toHaveCount(0);

    const trigger = page.getByRole('button', { name: 'Sekcja karty: Dane osobowe i medyczne' });
    await trigger.click();
    const menu = page.getByRole('menu');
    for (const name of [
      'Dane osobowe i medyczne',
      'Przyjmowane leki',
      'Wizyty',
      'Komentarze lekarza',
      'Załączniki',
      'Komunikaty',
    ]) {
      await expect(menu.getByRole('menuitem', { name })).toBeVisible();
    }
    await expect(menu.getByText('Zalogowano jako: koordynator')).toBeVisible();
    await expect(menu.getByRole('menuitem', { name: 'Zmień hasło' })).toHaveAttribute(
      'href',
      '/changepassword',
    );
    await expect(menu.getByRole('menuitem', { name: 'Wyloguj się' })).toBeVisible();
    await expectAccessible(page, 'karta: menu sekcji (telefon)');

    await menu.getByRole('menuitem', { name: 'Komunikaty' }).click();
    await expect(menu).toBeHidden();
    await expect(page.getByRole('button', { name: 'Sekcja karty: Komunikaty' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Komunikaty' })).toContainText(
      'Brak komunikatów.',
    );

    await page.getByRole('button', { name: 'Sekcja karty: Komunikaty' }).click();
    await page.getByRole('menu').getByRole('menuitem', { name: 'Przyjmowane leki' }).click();
    await expect(page.getByRole('region', { name: 'Przyjmowane leki' })).toContainText('walsartan');
    await expectAccessible(page, 'karta: leki (telefon)');

    await page.getByRole('button', { name: 'Sekcja karty: Przyjmowane leki' }).click();
    await page.getByRole('menu').getByRole('menuitem', { name: 'Zmień hasło' }).click();
    await expect(page).toHaveURL(/\/changepassword$/);
    await expect(page.getByRole('heading', { name: 'Zmiana hasła' })).toBeVisible();
  });
});
