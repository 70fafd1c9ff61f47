import { z } from 'zod';
import { LABEL_AMOUNT_MAX, PASSWORD_MIN, PHONE_DIGITS, STRING_MAX } from './constants.js';
import { isAcceptableLogin, normalizeLogin } from './login.js';

/**
 * Validation messages travel as codes. The server answers 422 with the message in the caller's
 * language; the web app translates the same codes, so a form and the API say the same words.
 */
export const validationMessages = {
  pl: {
    required: 'To pole musi być wypełnione',
    too_long: 'Wartość tego pola jest za długa',
    invalid_email: 'To pole musi być poprawnym adresem e-mail',
    invalid_phone: 'Numer telefonu musi składać się z 9 cyfr',
    invalid_number: 'To pole musi być liczbą',
    invalid_date: 'To pole musi być poprawną datą',
    invalid_time: 'To pole musi być poprawną godziną',
    invalid: 'Niektóre pola są nieprawidłowe',
    password_too_short: `Hasło musi mieć co najmniej ${PASSWORD_MIN} znaków`,
    password_same_as_old: 'Pole musi być inne niż stare hasło',
    password_confirm_mismatch: 'Pole musi być takie samo jak nowe hasło.',
    wrong_password: 'Niepoprawne hasło',
    invalid_field: 'Ten rekord nie ma takiego pola',
    end_before_start: 'To pole musi mieć wartość po lub równą czasie rozpoczęcia',
    length_not_dividing_day:
      'Czas pracy w ciągu dnia musi dzielić się bez reszty na wizyty tej długości',
    invalid_pesel: 'Niepoprawny numer PESEL',
    pesel_taken: 'Pacjent o podanym numerze PESEL istnieje już w bazie.',
    acceptance_required: 'Pacjent musi wyrazić zgodę na przetwarzanie danych osobowych',
    select_inclusion: 'Wybierz kryterium włączenia',
    invalid_dose: 'Wybierz dawkę z listy',
    not_qualifiable: 'Pacjent niespełniający kryteriów nie może zostać zakwalifikowany',
    doctor_not_in_unit: 'Lekarz nie należy do wybranej jednostki',
    invalid_file_type: 'Nieprawidłowy rodzaj pliku',
    file_too_large: 'Plik jest za duży (maksymalnie 20 MB)',
    invalid_login:
      'Login może zawierać tylko widoczne znaki, bez spacji, a litery tylko z jednego alfabetu',
    single_line: 'To pole nie może zawierać znaków nowej linii ani znaków sterujących',
    window_reason_required: 'Wizyta poza oknem wizyty wymaga podania powodu',
    implausible_value: 'Ta wartość jest poza możliwym zakresem',
    future_date: 'Ta data nie może być z przyszłości',
    negative_value: 'Ta wartość nie może być ujemna',
    date_range_reversed: 'Data końcowa nie może być wcześniejsza niż data początkowa',
    amount_out_of_range: `Liczba etykiet musi być od 0 do ${LABEL_AMOUNT_MAX}`,
    pdf_needs_a_label: 'Plik PDF musi mieć co najmniej jedną etykietę: podaj liczbę od 1',
    // The report's columns (docs/product-rules.md "Validation" 'empty' / 'not valid').
    empty: 'Nie wybrano żadnej kolumny raportu',
    not_valid: 'Raport wymaga co najmniej dwóch kolumn',
    // ADR 041.
    project_number_taken:
      'Ten numer projektu ma już inny uczestnik badania (wielkość liter, spacje i polskie znaki nie mają znaczenia)',
    // ADR 048.
    reason_text_required: 'Podaj powód zmiany',
  },
  en: {
    required: 'This field is required',
    too_long: 'The value of this field is too long',
    invalid_email: 'This field must be a valid e-mail address',
    invalid_phone: 'The phone number must have 9 digits',
    invalid_number: 'This field must be a number',
    invalid_date: 'This field must be a valid date',
    invalid_time: 'This field must be a valid time',
    invalid: 'Some fields are invalid',
    password_too_short: `The password must have at least ${PASSWORD_MIN} characters`,
    password_same_as_old: 'The new password must differ from the old one',
    password_confirm_mismatch: 'The field must match the new password.',
    wrong_password: 'Incorrect password',
    invalid_field: 'This record has no such field',
    end_before_start: 'This field must be at or after the start time',
    length_not_dividing_day: 'The working day must divide into whole visits of this length',
    invalid_pesel: 'Invalid PESEL number',
    pesel_taken: 'A patient with this PESEL number already exists.',
    acceptance_required: 'The patient must consent to the processing of personal data',
    select_inclusion: 'Select an inclusion criterion',
    invalid_dose: 'Choose a dose from the list',
    not_qualifiable: 'A patient who does not meet the criteria cannot be qualified',
    doctor_not_in_unit: 'The doctor does not belong to the selected unit',
    invalid_file_type: 'Invalid file type',
    file_too_large: 'The file is too large (20 MB at most)',
    invalid_login:
      'The login may hold only visible characters, no spaces, and letters of one alphabet only',
    single_line: 'This field cannot contain line breaks or control characters',
    window_reason_required: 'A visit outside its window needs a reason',
    implausible_value: 'This value is outside the possible range',
    future_date: 'This date cannot be in the future',
    negative_value: 'This value cannot be negative',
    date_range_reversed: 'The end date cannot be before the start date',
    amount_out_of_range: `The number of labels must be from 0 to ${LABEL_AMOUNT_MAX}`,
    pdf_needs_a_label: 'A PDF needs at least one label: give a number from 1',
    empty: 'No report column was chosen',
    not_valid: 'A report needs at least two columns',
    project_number_taken:
      'Another participant of the study already has this project number (letter case, spaces and accents do not count)',
    reason_text_required: 'Give the reason for the change',
  },
} as const;

export type ValidationCode = keyof (typeof validationMessages)['pl'];
export type Locale = keyof typeof validationMessages;

export function isValidationCode(code: string): code is ValidationCode {
  return Object.hasOwn(validationMessages.pl, code);
}

/** The message for a code in a locale; unknown codes become the generic "some fields are invalid". */
export function validationMessage(code: string, locale: Locale = 'pl'): string {
  return validationMessages[locale][isValidationCode(code) ? code : 'invalid'];
}

/**
 * Control characters a multi-line text may not hold: C0 but tab, line feed and carriage return
 * (CRLF line ends pasted into a text area), DEL and C1. A U+0000 cannot be stored by PostgreSQL
 * at all, and none of them belongs in a note or a message.
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;

/**
 * What a single-line text may not hold (ADR 037): every C0 character (tab, LF and CR included),
 * DEL, C1 (NEL U+0085 among them) and the Unicode line and paragraph separators. A CR in a
 * project number became a segment break in the HL7 the portal writes; a tab splits a cell of the
 * report and an export; neither can be seen in an input.
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const LINE_BREAKS_OR_CONTROLS = /[\u0000-\u001F\u007F-\u009F\u2028\u2029]/;

/** True when a text holds a control character a multi-line field refuses. */
export function hasControlCharacters(value: string): boolean {
  return CONTROL_CHARACTERS.test(value);
}

/** True when a text holds no line break, tab or other control character. */
export function isSingleLine(value: string): boolean {
  return !LINE_BREAKS_OR_CONTROLS.test(value);
}

export interface TextOptions {
  /** The longest value in characters (after trimming); longer says `too_long`. */
  max?: number;
  /** Passwords and rich text keep their spaces; everything else is trimmed. */
  trim?: boolean;
  /** The code for a value that is not a string at all. */
  error?: ValidationCode;
  /**
   * Keeps line feeds, carriage returns and tabs (comments, notes, messages, reasons, rich text).
   * Off by default: a field is single-line unless it says otherwise (ADR 037).
   */
  multiline?: boolean;
}

/**
 * The one builder of text inputs (bodies, query strings, path parameters, multipart fields).
 * Checked before anything else, on the value as sent (a trailing line break is refused, not
 * trimmed away): a single-line text refuses line breaks, tabs and every other control character
 * (`single_line`); a multi-line one keeps LF, CR and tab and refuses the rest (`invalid`). A long
 * value says `too_long`. Every string a client sends goes through it.
 */
export function text({
  max = STRING_MAX,
  trim = true,
  error = 'invalid',
  multiline = false,
}: TextOptions = {}) {
  const base = multiline
    ? z
        .string({ error })
        .refine((value) => !hasControlCharacters(value), { error: 'invalid', abort: true })
    : z.string({ error }).refine(isSingleLine, { error: 'single_line', abort: true });
  return (trim ? base.trim() : base).max(max, { error: 'too_long' });
}

/** A text that keeps its line breaks: comments, notes, reasons, rich text (ADR 037). */
export const multilineText = (options: Omit<TextOptions, 'multiline'> = {}) =>
  text({ ...options, multiline: true });

/** A required, trimmed, single-line text of at most `max` characters. */
export const requiredText = (max = STRING_MAX) =>
  text({ max, error: 'required' }).min(1, { error: 'required' });

/** An optional single-line text: empty input becomes null. */
export const optionalText = (max = STRING_MAX) =>
  text({ max })
    .nullish()
    .transform((value) => (value ? value : null));

/** A required multi-line text (a reason): trimmed, line breaks kept. */
export const requiredMultilineText = (max = STRING_MAX) =>
  multilineText({ max, error: 'required' }).min(1, { error: 'required' });

/** An optional multi-line text (a comment): trimmed, line breaks kept, empty becomes null. */
export const optionalMultilineText = (max = STRING_MAX) =>
  multilineText({ max })
    .nullish()
    .transform((value) => (value ? value : null));

/**
 * A required secret (password): kept exactly as typed (spaces count), single-line like the input
 * it is typed into, so a password never holds a character no sign-in form can send.
 */
export const secretText = (max = STRING_MAX) =>
  text({ max, trim: false, error: 'required' }).min(1, { error: 'required' });

/**
 * A login as stored: NFKC, trimmed, visible characters of one script (ADR 016); the database
 * refuses one that looks like an existing login.
 */
export const loginField = () =>
  requiredText()
    .transform(normalizeLogin)
    .pipe(z.string().refine(isAcceptableLogin, { error: 'invalid_login' }));

/** An e-mail address, lower case; also a doctor's login, so it is normalised as one. */
export const emailField = () =>
  requiredText()
    .transform(normalizeLogin)
    .pipe(
      z
        .string()
        .refine(isAcceptableLogin, { error: 'invalid_login', abort: true })
        .pipe(z.email({ error: 'invalid_email' })),
    )
    .transform((v) => v.toLowerCase());

/** A Polish phone number as its 9 digits; spaces and the +48 prefix are tolerated on input. */
export const phoneField = () =>
  // Single-line first: `\s` below would otherwise strip a pasted line break unseen.
  text({ error: 'required' })
    .transform((value) => value.replace(/\s|-/g, '').replace(/^(\+48|0048)/, ''))
    .pipe(
      z
        .string()
        .min(1, { error: 'required', abort: true })
        .regex(new RegExp(`^\\d{${PHONE_DIGITS}}$`), { error: 'invalid_phone' }),
    );

/** The largest id a row can have (PostgreSQL `integer`). */
export const ID_MAX = 2_147_483_647;
/**
 * The issue code of an id beyond any row's (docs/api-conventions.md: such ids answer 404, not 422).
 * It is no message: the server answers 404 when it is the only issue; among others it reads
 * `invalid`.
 */
export const NOT_FOUND_CODE = 'not_found';

/** True when every issue is an id beyond `ID_MAX`: the request names a row that cannot exist. */
export function onlyNotFound(issues: readonly { message?: string }[]): boolean {
  return issues.length > 0 && issues.every((issue) => issue.message === NOT_FOUND_CODE);
}

/**
 * The message of a value of the wrong type: `absent` when nothing was sent (undefined, null or an
 * emptied input's ''), `wrong` otherwise, e.g. a number sent as a string (ADR 037).
 */
export const typeError =
  (absent: ValidationCode, wrong: ValidationCode) =>
  (issue: { input?: unknown }): ValidationCode =>
    issue.input === undefined || issue.input === null || issue.input === '' ? absent : wrong;

/** An id as a number: beyond `ID_MAX` it is `not_found` and never reaches SQL. */
const idNumber = (
  error: string,
  wrongType: string | ((issue: { input?: unknown }) => string) = error,
) =>
  z
    .number({ error: wrongType })
    .max(ID_MAX, { error: NOT_FOUND_CODE, abort: true })
    .int({ error })
    .positive({ error });

/**
 * A row id in a JSON body: a number. A string ("5") is a wrong type like any other and says
 * `invalid_number`; nothing sent says `error` (ADR 037).
 */
export const idField = (error: ValidationCode = 'invalid') =>
  idNumber(error, typeError(error, 'invalid_number'));

export const requiredId = () => idField('required');

/** An id written as text: plain decimal digits, no sign, space, point, exponent or leading 0. */
const ID_DIGITS = /^[1-9][0-9]*$/;

/**
 * A row id in a query string or a multipart field, which are always text: plain digits only
 * (`' 1'`, `'+1'`, `'1.0'`, `'1e0'`, `'0x1'` and `'0'` say `error`); beyond `ID_MAX` `not_found`.
 */
export const queryIdField = (error: ValidationCode = 'invalid') =>
  z
    .string({ error })
    .regex(ID_DIGITS, { error, abort: true })
    .transform(Number)
    .pipe(idNumber(error));

/**
 * A row id in a URL path. Anything but plain digits names no row, so it is `not_found` (404) like
 * an id beyond any row's: `/api/patients/1%0d%0a`, `1.0`, `+1`, `0x1`, `1e0` never reach record 1.
 */
export const pathIdField = () =>
  z
    .string({ error: NOT_FOUND_CODE })
    .regex(ID_DIGITS, { error: NOT_FOUND_CODE, abort: true })
    .transform(Number)
    .pipe(idNumber(NOT_FOUND_CODE));

export const idParam = pathIdField();

/** A comma-separated list of ids in a query string (`groups=1,2`). */
export const idListField = () =>
  z
    .string({ error: 'invalid' })
    .regex(/^\d+(,\d+)*$/, { error: 'invalid', abort: true })
    .refine((list) => list.split(',').every((id) => id.length <= 10 && Number(id) <= ID_MAX), {
      error: NOT_FOUND_CODE,
    })
    .transform((list) => list.split(',').map(Number));

/**
 * A calendar day, YYYY-MM-DD: a real date (no month 13, no 30 February) from year 1 on
 * (PostgreSQL has no year 0).
 */
export const dayField = () =>
  z.iso
    .date({ error: 'invalid_date' })
    .refine((day) => !day.startsWith('0000'), { error: 'invalid_date' });

/** Groups zod issues by top-level field path (`a.b` for nested), keeping the message codes. */
export function issuesByField(issues: readonly z.core.$ZodIssue[]): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const issue of issues) {
    const key = issue.path.length ? issue.path.map(String).join('.') : '_';
    const code = isValidationCode(issue.message) ? issue.message : 'invalid';
    const list = (errors[key] ??= []);
    if (!list.includes(code)) list.push(code);
  }
  return errors;
}
