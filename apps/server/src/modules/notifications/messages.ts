import type { Language, NotificationType } from '@portal/shared';

type Params = Record<string, string | number | null>;

export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

/**
 * The e-mails' words, Polish and English (ADR 062). They name what happened and carry a link to
 * the portal, where the reader signs in to see the rest: never a PESEL, a name or a result, since
 * an e-mail crosses servers the study does not control.
 */
interface Words {
  events: Record<NotificationType, (p: Params) => { subject: string; body: string }>;
  open: string;
  footer: string;
  test: { subject: string; body: string };
}

const WORDS: Record<Language, Words> = {
  pl: {
    events: {
      safety_alert: () => ({
        subject: 'Nowy alert bezpieczeństwa',
        body: 'U jednego z Twoich pacjentów pojawił się alert bezpieczeństwa. Szczegóły zobaczysz po zalogowaniu do portalu.',
      }),
      kit_order: (p) => ({
        subject:
          p.decision === 'accepted'
            ? 'Zamówienie zestawu przyjęte'
            : 'Zamówienie zestawu odrzucone',
        body:
          p.decision === 'accepted'
            ? 'Twoje zamówienie zestawu do pobrania próbek zostało przyjęte.'
            : 'Twoje zamówienie zestawu do pobrania próbek zostało odrzucone. Powód zobaczysz po zalogowaniu.',
      }),
      visit_reminder: (p) => ({
        subject: 'Przypomnienie o jutrzejszej wizycie',
        body: `Przypominamy o wizycie w badaniu jutro, ${formatDay(p.date)}, o godzinie ${String(p.time ?? '')}.`,
      }),
      unmatched_result: () => ({
        subject: 'Wynik laboratoryjny bez próbki',
        body: 'Laboratorium przysłało wynik, którego nie udało się przypisać do żadnej próbki. Przypisz go w portalu.',
      }),
      query_opened: () => ({
        subject: 'Nowe zapytanie monitora',
        body: 'Monitor otworzył zapytanie dotyczące pacjenta Twojego ośrodka. Odpowiedz w portalu.',
      }),
    },
    open: 'Otwórz w portalu',
    footer:
      'Wiadomość wysłana automatycznie przez portal badania. Powiadomienia e-mail zmienisz w ustawieniach powiadomień.',
    test: {
      subject: 'Wiadomość testowa portalu badania',
      body: 'Ustawienia serwera poczty działają: ta wiadomość dotarła.',
    },
  },
  en: {
    events: {
      safety_alert: () => ({
        subject: 'New safety alert',
        body: 'A safety alert was raised for one of your patients. Sign in to the portal to see it.',
      }),
      kit_order: (p) => ({
        subject: p.decision === 'accepted' ? 'Kit order accepted' : 'Kit order rejected',
        body:
          p.decision === 'accepted'
            ? 'Your order of a sampling kit was accepted.'
            : 'Your order of a sampling kit was rejected. Sign in to see why.',
      }),
      visit_reminder: (p) => ({
        subject: 'Your study visit is tomorrow',
        body: `A reminder of your study visit tomorrow, ${String(p.date ?? '')}, at ${String(p.time ?? '')}.`,
      }),
      unmatched_result: () => ({
        subject: 'A laboratory result without a sample',
        body: 'The laboratory sent a result that matches no sample. Match it in the portal.',
      }),
      query_opened: () => ({
        subject: 'New monitor query',
        body: 'A monitor opened a query about a patient of your site. Answer it in the portal.',
      }),
    },
    open: 'Open in the portal',
    footer:
      'Sent automatically by the study portal. Change your e-mail notifications in your notification settings.',
    test: {
      subject: 'Study portal test message',
      body: 'The mail server settings work: this message arrived.',
    },
  },
};

/** 2026-12-01 -> 01.12.2026, as Polish readers write dates. */
function formatDay(value: string | number | null | undefined): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(String(value ?? ''));
  return match ? `${match[3]}.${match[2]}.${match[1]}` : String(value ?? '');
}

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function compose(language: Language, subject: string, body: string, link: string): MailContent {
  const words = WORDS[language];
  return {
    subject,
    text: `${body}\n\n${words.open}: ${link}\n\n-- \n${words.footer}\n`,
    html:
      `<p>${escapeHtml(body)}</p>` +
      `<p><a href="${escapeHtml(link)}">${escapeHtml(words.open)}</a></p>` +
      `<p style="color:#555;font-size:small">${escapeHtml(words.footer)}</p>`,
  };
}

/** An event's e-mail in the recipient's language; `link` is absolute (PUBLIC_URL + path). */
export function mailFor(
  type: NotificationType,
  language: Language,
  params: Params,
  link: string,
): MailContent {
  const { subject, body } = WORDS[language].events[type](params);
  return compose(language, subject, body, link);
}

/** The settings screen's test message. */
export function testMail(language: Language, link: string): MailContent {
  const { subject, body } = WORDS[language].test;
  return compose(language, subject, body, link);
}
