/**
 * How long fetched data counts as fresh. Study configuration (criteria, medicines) changes only
 * with an imported configuration file, so it is fetched about once per session; pickers of units,
 * doctors and patients change with every registration, so they are short-lived.
 */
export const LOOKUP_CACHE = { staleTime: 30 * 60_000, gcTime: 60 * 60_000 } as const;
export const PICKER_CACHE = { staleTime: 30_000 } as const;

/** `enabled: false` keeps a hook waiting, e.g. for a unit to be chosen or a permission. */
export interface QueryToggle {
  enabled?: boolean;
}
