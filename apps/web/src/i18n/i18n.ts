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
 * Polish ships with the login page; English is its own chunk, fetched when chosen (ADR 019:
 * every screen's words are in the catalogues, and carrying both on the login route cost ~10 KB).
 */
const loadCatalogue: Record<Exclude<Language, 'pl'>, () => Promise<typeof pl>> = {
  en: () => import('./en.json').then((module) => module.default),
};

/** Switches the language, fetching its catalogue first when it has not been loaded yet. */
export async function changeLanguage(language: Language): Promise<void> {
  if (language !== 'pl' && !i18n.hasResourceBundle(language, 'translation')) {
    const words = await loadCatalogue[language]();
    i18n.addResourceBundle(language, 'translation', {
      ...words,
      validation: validationMessages[language],
    });
  }
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
