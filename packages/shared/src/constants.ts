/** Business constants (docs/product-rules.md), shared by the server and the web app. */
export const PAGE_SIZES = [10, 20, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;
export const STRING_MAX = 255;
export const PASSWORD_MIN = 8;
export const GENERATED_PASSWORD_LENGTH = 12;
export const PHONE_DIGITS = 9;
export const PHONE_PREFIX = '+48';
export const SEARCH_DEBOUNCE_MS = 500;
/** A filtered list counts its matches up to this many, then answers "10 000+" (ADR 019). */
export const COUNT_CAP = 10_000;
/** Search-as-you-type pickers answer at most this many matches. */
export const PICKER_LIMIT = 20;
export const TOAST_AUTO_CLOSE_MS = 6000;
export const PASSWORD_CHANGED_REDIRECT_MS = 1000;
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
export const REFRESH_TOKEN_TTL_SECONDS = 12 * 60 * 60;
export const BREAKPOINTS = { xs: 600, sm: 960, md: 1280, lg: 1560 } as const;
/** Below this width the web app shows the mobile layout (bottom bar, cards). */
export const MOBILE_MAX_WIDTH = BREAKPOINTS.md;

/** Staff roles: who signs in to the portal (the web app's login offers these). */
export const ROLES = ['admin', 'doctor'] as const;
export type Role = (typeof ROLES)[number];
/**
 * Every role an account may hold: the staff roles, `patient`, who signs in only through the
 * patient API (`POST /api/auth/login/patient`, `/api/me/*`), never to the portal, `monitor`
 * (a sponsor's CRA: reads the assigned units, writes only verification marks and queries; ADR 051)
 * and `iod`, the data protection officer (ADR 053), who signs in to the portal to read its logs.
 */
export const ACCOUNT_ROLES = [...ROLES, 'patient', 'monitor', 'iod'] as const;
export type AccountRole = (typeof ACCOUNT_ROLES)[number];

/** Labels per print and per kit (0 to 10, default 1; ADR 035). */
export const LABEL_AMOUNT_MAX = 10;
export const LABEL_AMOUNT_DEFAULT = 1;

export const EXPIRED_TOKEN_ERROR = 'Expired Token';
