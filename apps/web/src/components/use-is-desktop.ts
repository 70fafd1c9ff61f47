import { useMediaQuery } from '@mantine/hooks';
import { MOBILE_MAX_WIDTH } from '@portal/shared';

// em, like Mantine's breakpoints, so that browser zoom and font size behave the same way.
const DESKTOP_QUERY = `(min-width: ${MOBILE_MAX_WIDTH / 16}em)`;
const PHONE_QUERY = '(max-width: 37.49em)';

/**
 * Desktop layout from 1280 px; below it the bottom bar and cards (docs/product-rules.md "Screens
 * and layout").
 */
export function useIsDesktop(): boolean {
  // Read synchronously: a client-only app has no server render to match.
  return useMediaQuery(DESKTOP_QUERY, true, { getInitialValueInEffect: false });
}

/** Narrow phones get full-screen dialogs. */
export function useIsPhone(): boolean {
  return useMediaQuery(PHONE_QUERY, false, { getInitialValueInEffect: false });
}
