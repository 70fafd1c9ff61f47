import { Button, Group } from '@mantine/core';
import { IconFilterOff } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/**
 * The filters above a list: a labelled section that wraps on a phone, and a button that clears
 * every filter, shown only while one is set.
 */
export function ListFilterBar({
  label,
  clearLabel,
  filtered,
  onClear,
  children,
}: {
  label: string;
  clearLabel: string;
  filtered: boolean;
  onClear: () => void;
  children: ReactNode;
}) {
  return (
    <Group component="section" aria-label={label} gap="sm" align="flex-end" wrap="wrap">
      {children}
      {filtered && (
        <Button
          variant="subtle"
          leftSection={<IconFilterOff size={16} aria-hidden />}
          onClick={onClear}
        >
          {clearLabel}
        </Button>
      )}
    </Group>
  );
}
