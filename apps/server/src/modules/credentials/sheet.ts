import type { CredentialsSheetBody, Locale } from '@portal/shared';
import { newPdf, pdfToBuffer } from '../../lib/pdf.js';

const texts = {
  pl: {
    title: {
      doctor: 'Dane logowania lekarza',
      admin: 'Dane logowania administratora',
      patient: 'Dane logowania pacjenta',
      monitor: 'Dane logowania monitora badania',
    },
    name: 'Imię i nazwisko',
    login: 'Login',
    password: 'Hasło',
    address: 'Adres logowania',
    notice:
      'Przy pierwszym logowaniu system poprosi o ustawienie własnego hasła. ' +
      'Nie udostępniaj tych danych innym osobom i przechowuj wydruk w bezpiecznym miejscu.',
    support: 'W razie problemów:',
  },
  en: {
    title: {
      doctor: "Doctor's login details",
      admin: "Administrator's login details",
      patient: "Patient's login details",
      monitor: "Study monitor's login details",
    },
    name: 'Name',
    login: 'Login',
    password: 'Password',
    address: 'Login address',
    notice:
      'At the first sign-in you will be asked to choose your own password. ' +
      'Do not share these details and keep this sheet in a safe place.',
    support: 'If you have any problems:',
  },
} as const;

/**
 * A one-page sheet with a user's login, password and the address to sign in at, and the support
 * line to call when signing in fails (the phone setting's `support`, when set; doctors and
 * patients only).
 */
export async function credentialsSheet(
  input: CredentialsSheetBody,
  loginAddress: string,
  locale: Locale,
  supportPhone: string | null = null,
): Promise<Buffer> {
  const t = texts[locale];
  const doc = await newPdf(t.title[input.kind]);
  doc.font('bold').fontSize(20).text(t.title[input.kind]);
  doc.moveDown(1.5);
  const row = (label: string, value: string, font: 'regular' | 'mono' = 'regular') => {
    doc.font('regular').fontSize(11).fillColor('#555555').text(label);
    doc.font(font).fontSize(16).fillColor('#000000').text(value);
    doc.moveDown(0.8);
  };
  if (input.name) row(t.name, input.name);
  row(t.login, input.login, 'mono');
  row(t.password, input.password, 'mono');
  row(t.address, loginAddress);
  doc.moveDown(1);
  doc.font('regular').fontSize(10).fillColor('#333333').text(t.notice);
  // Administrators are the support: their own sheet does not send them to it.
  if (supportPhone && input.kind !== 'admin') {
    doc.moveDown(1);
    doc.font('bold').fontSize(12).fillColor('#000000').text(`${t.support} ${supportPhone}`);
  }
  return pdfToBuffer(doc);
}
