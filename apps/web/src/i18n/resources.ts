import { validationMessages } from '@portal/shared';
import en from './en.json';
import pl from './pl.json';

/**
 * The shared validation catalogue is merged in under `validation.*`, so a form translates the
 * same codes the server answers with and both say the same words. Kept apart from i18n.ts, which
 * touches the browser when loaded, so that tests can translate without a DOM.
 */
export const resources = {
  pl: { translation: { ...pl, validation: validationMessages.pl } },
  en: { translation: { ...en, validation: validationMessages.en } },
} as const;
