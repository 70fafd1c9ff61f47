import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { validationMessages } from '@portal/shared';
import pl from './pl.json';

export const LANGUAGES = ['pl', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'pl';
export const LANGUAGE_KEY = 'portal.lang';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

function storedLanguage(): Language {
  try {
    const value = window.localStorage.getItem(LANGUAGE_KEY);
    return isLanguage(value) ? value : DEFAULT_LANGUAGE;
  } catch {
    return DEFAULT_LANGUAGE;
  }
}

function applyLanguage(language: string) {
  const lang = isLanguage(language) ? language : DEFAULT_LANGUAGE;
  document.documentElement.lang = lang;
  try {
    window.localStorage.setItem(LANGUAGE_KEY, lang);
  } catch {
    // Private mode may refuse storage; the choice then lasts for this page only.
  }
}

export function currentLanguage(): Language {
  return isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : DEFAULT_LANGUAGE;
}

i18n.on('languageChanged', applyLanguage);

/**
 * The catalogue comes in two parts per language (ADR 019): `shell`, the words of what the login
 * route shows (pl.json, en.json), and `app`, those of the signed-in screens (pl.app.json,
 * en.app.json), each its own chunk. Polish's shell ships with the login page; every other part is
 * fetched on first need: English when chosen, the app's words before the first signed-in screen
 * renders (`loadAppWords`, awaited by every lazy route).
 */
type Part = 'shell' | 'app';
type Words = Record<string, unknown>;

const catalogue: Record<Part, Record<Language, () => Promise<Words>>> = {
  shell: {
    pl: () => Promise.resolve(pl),
    en: () => import('./en.json').then((module) => module.default),
  },
  app: {
    pl: () => import('./pl.app.json').then((module) => module.default),
    en: () => import('./en.app.json').then((module) => module.default),
  },
};

/** The parts the screens shown so far need, in whichever language is chosen. */
const wanted = new Set<Part>(['shell']);
/** Each `language/part` fetched (or on its way), so that it is fetched once. */
const added = new Map<string, Promise<void>>([['pl/shell', Promise.resolve()]]);

function addPart(language: Language, part: Part): Promise<void> {
  const id = `${language}/${part}`;
  let adding = added.get(id);
  if (!adding) {
    adding = catalogue[part][language]().then((words) => {
      // Each part holds whole top-level groups of its own, so a shallow merge loses nothing.
      i18n.addResourceBundle(
        language,
        'translation',
        part === 'shell' ? { ...words, validation: validationMessages[language] } : words,
      );
    });
    // A failed fetch (offline, a new deployment) is tried again on the next need.
    adding.catch(() => added.delete(id));
    added.set(id, adding);
  }
  return adding;
}

/** Fetches every part the screens need in this language, and a part wanted meanwhile too. */
async function addWantedParts(language: Language): Promise<void> {
  let parts: Part[] = [];
  while (parts.length < wanted.size) {
    parts = [...wanted];
    await Promise.all(parts.map((part) => addPart(language, part)));
  }
}

/** The signed-in screens' words in the current language; resolves at once after the first time. */
export function loadAppWords(): Promise<void> {
  wanted.add('app');
  return addPart(currentLanguage(), 'app');
}

/** Switches the language, fetching its catalogue parts first when they have not been loaded yet. */
export async function changeLanguage(language: Language): Promise<void> {
  await addWantedParts(language);
  await i18n.changeLanguage(language);
}

// Read before init: init announces Polish, and applyLanguage would store that over the choice.
const initialLanguage = storedLanguage();

void i18n.use(initReactI18next).init({
  resources: { pl: { translation: { ...pl, validation: validationMessages.pl } } },
  // Polish until the stored language's catalogue has arrived (`i18nReady`).
  lng: DEFAULT_LANGUAGE,
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: LANGUAGES,
  initAsync: false,
  // React escapes already.
  interpolation: { escapeValue: false },
  returnNull: false,
});

/** Resolves once the stored language can be shown; the app renders after it. */
export const i18nReady: Promise<void> = changeLanguage(initialLanguage).catch(() => {
  // The English chunk failed to load (offline, a new deployment): Polish still works.
});

export { i18n };
