import i18next from 'i18next';
import { resources } from './resources';

/**
 * A translate function on the app's catalogues without the browser-bound setup of i18n.ts:
 * tests of screen logic read the words a screen would show.
 */
export function translator(language: keyof typeof resources) {
  const instance = i18next.createInstance({
    resources,
    lng: language,
    initAsync: false,
    interpolation: { escapeValue: false },
  });
  void instance.init();
  return instance.getFixedT(language);
}
