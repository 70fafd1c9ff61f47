import { Button, Center, Group, Loader, Modal, Stack } from '@mantine/core';
import type { FormEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useIsPhone } from './use-is-desktop';

/**
 * An add/edit dialog around a form: Mantine's Modal traps focus and is named by its title;
 * Enter submits; Anuluj/Zapisz at the bottom.
 */
export function FormModal({
  opened,
  title,
  onClose,
  onSubmit,
  saving,
  loading = false,
  extraActions,
  submitLabel,
  children,
}: {
  opened: boolean;
  title: string;
  onClose: () => void;
  onSubmit: (event: FormEvent) => void;
  saving: boolean;
  /** The edited record is still loading. */
  loading?: boolean;
  extraActions?: ReactNode;
  /** The submit button's words where "Zapisz" does not fit (the booking dialog's "Umów"). */
  submitLabel?: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const fullScreen = useIsPhone();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={title}
      size="lg"
      centered={!fullScreen}
      fullScreen={fullScreen}
      closeButtonProps={{ 'aria-label': t('common.close') }}
      // Escape closes this dialog only when pressed inside it, so that a question asked above it
      // (a confirmation, the login details sheet) closes alone. An open select keeps its Escape.
      closeOnEscape={false}
      onKeyDown={(event) => {
        const target = event.target as HTMLElement;
        if (event.key !== 'Escape' || event.nativeEvent.isComposing) return;
        if (target.getAttribute('data-mantine-stop-propagation') === 'true') return;
        onClose();
      }}
    >
      {loading ? (
        <Center py="xl">
          <Loader role="status" aria-label={t('app.loading')} />
        </Center>
      ) : (
        <form onSubmit={onSubmit} noValidate>
          <Stack gap="sm">{children}</Stack>
          <Group justify="space-between" mt="xl" gap="sm">
            <Group gap="sm">{extraActions}</Group>
            <Group gap="sm" ml="auto">
              <Button variant="default" onClick={onClose}>
                {t('common.cancel')}
              </Button>
              <Button type="submit" loading={saving}>
                {submitLabel ?? t('common.save')}
              </Button>
            </Group>
          </Group>
        </form>
      )}
    </Modal>
  );
}
