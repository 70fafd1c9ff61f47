import { validationMessages } from '@portal/shared';
import enApp from './en.app.json';
import en from './en.json';
import plApp from './pl.app.json';
import pl from './pl.json';

/**
 * Each language's whole catalogue: the login route's part and the signed-in screens' part, which
 * the app loads apart (ADR 019), together. The shared validation catalogue is merged in under
 * `validation.*`, so a form translates the same codes the server answers with and both say the
 * same words. Kept apart from i18n.ts, which touches the browser when loaded, so that tests can
 * translate without a DOM.
 */
export const resources = {
  pl: { translation: { ...pl, ...plApp, validation: validationMessages.pl } },
  en: { translation: { ...en, ...enApp, validation: validationMessages.en } },
} as const;
