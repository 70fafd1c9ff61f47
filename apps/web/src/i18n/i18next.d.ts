import 'i18next';
import type { resources } from './resources';

// Typed keys: a misspelt translation key fails type checking.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: (typeof resources)['pl'];
  }
}
