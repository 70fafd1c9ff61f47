import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { resources } from './resources';

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

void i18n.use(initReactI18next).init({
  resources,
  lng: storedLanguage(),
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: LANGUAGES,
  initAsync: false,
  // React escapes already.
  interpolation: { escapeValue: false },
  returnNull: false,
});

export { i18n };
