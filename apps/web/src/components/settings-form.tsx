import { Button, Group, Paper, Stack, Text } from '@mantine/core';
import type { MantineSpacing } from '@mantine/core';
import type { FormEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The frame of a settings screen's form: a bordered card, an optional hint above the fields and
 * "Zapisz" at the bottom right (with the screen's own buttons beside it). Enter submits.
 */
export function SettingsForm({
  onSubmit,
  saving,
  maw,
  gap = 'md',
  hint,
  actions,
  children,
}: {
  onSubmit: (event: FormEvent) => void;
  saving: boolean;
  /** The card's widest, in pixels: what its fields need. */
  maw: number;
  gap?: MantineSpacing;
  hint?: string;
  /** Buttons of the screen's own, before "Zapisz" (the mail server's test). */
  actions?: ReactNode;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p={{ base: 'sm', sm: 'lg' }} radius="md" maw={maw}>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap={gap}>
          {hint && (
            <Text size="sm" c="dimmed">
              {hint}
            </Text>
          )}
          {children}
          <Group justify="flex-end">
            {actions}
            <Button type="submit" loading={saving}>
              {t('common.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
