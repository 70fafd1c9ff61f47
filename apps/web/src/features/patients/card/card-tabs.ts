/** The card's tabs in their fixed order (docs/product-rules.md "Fixed orders and words"). */
export const CARD_TABS = [
  'personal',
  'medicines',
  'visits',
  'notes',
  'attachments',
  'samples',
  'messages',
  // A monitor's queries on the patient's records (ADR 051): for who may read them.
  'queries',
] as const;
export type CardTab = (typeof CARD_TABS)[number];

/** The tab named in the address (?tab=notes), or the first one. */
export function tabFrom(value: string | null): CardTab {
  return (CARD_TABS as readonly (string | null)[]).includes(value)
    ? (value as CardTab)
    : 'personal';
}
