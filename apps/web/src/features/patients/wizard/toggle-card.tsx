import { Group, UnstyledButton } from '@mantine/core';
import { IconCircle, IconCircleCheckFilled } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import classes from './wizard.module.css';

/**
 * One choice of a list where clicking the chosen one again clears it (docs/product-rules.md
 * "Patient wizard": subgroup, exclusion criterion): a toggle button, so the state is announced as
 * pressed or not.
 */
export function ToggleCard({
  pressed,
  onToggle,
  children,
  disabled = false,
}: {
  pressed: boolean;
  onToggle: () => void;
  children: ReactNode;
  disabled?: boolean;
}) {
  return (
    <UnstyledButton
      className={classes.toggleCard}
      aria-pressed={pressed}
      onClick={onToggle}
      disabled={disabled}
    >
      <Group gap="sm" wrap="nowrap" align="flex-start" w="100%">
        {pressed ? (
          <IconCircleCheckFilled size={20} className={classes.check} aria-hidden />
        ) : (
          <IconCircle size={20} className={classes.check} aria-hidden />
        )}
        <div style={{ minWidth: 0, flex: 1 }}>{children}</div>
      </Group>
    </UnstyledButton>
  );
}
