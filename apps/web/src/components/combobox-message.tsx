import type { ReactNode } from 'react';

/**
 * A message in a combobox's dropdown that lists nothing ("type to search", "nothing found").
 * Mantine puts it inside the listbox, and a listbox without an option breaks ARIA (axe:
 * aria-required-children); a disabled option is how screen readers expect to hear it. Mantine's
 * keyboard navigation skips it (it moves between its own options only).
 */
export function ComboboxMessage({ children }: { children: ReactNode }) {
  return (
    <span role="option" aria-disabled="true" aria-selected="false">
      {children}
    </span>
  );
}
