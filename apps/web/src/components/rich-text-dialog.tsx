import { Button, Group, Modal, Stack } from '@mantine/core';
import type { FormEvent, ReactNode } from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isBlankHtml } from '../lib/rich-text';
import { useIsPhone } from './use-is-desktop';
import { RichTextField } from './rich-text-field';

interface DialogProps {
  opened: boolean;
  title: string;
  /** Name of the editor. */
  label: string;
  initialValue?: string;
  submitLabel: string;
  saving: boolean;
  /** Blocks saving and closing while another request of the dialog runs (delete). */
  busy?: boolean;
  onSubmit: (html: string) => void;
  onClose: () => void;
  /** Buttons on the left (e.g. delete). */
  extraActions?: ReactNode;
  /** Saving an empty text is allowed (it clears the field): `onSubmit` then gets ''. */
  allowBlank?: boolean;
}

function DialogForm({
  label,
  initialValue = '',
  submitLabel,
  saving,
  busy = false,
  onSubmit,
  onClose,
  extraActions,
  allowBlank = false,
}: Omit<DialogProps, 'opened' | 'title'>) {
  const { t } = useTranslation();
  const [html, setHtml] = useState(initialValue);
  const [error, setError] = useState<string | null>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (isBlankHtml(html)) {
      if (allowBlank) onSubmit('');
      else setError(t('validation.required'));
      return;
    }
    onSubmit(html);
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <RichTextField
          label={label}
          initialValue={initialValue}
          autoFocus
          error={error}
          disabled={saving || busy}
          onChange={(next) => {
            setHtml(next);
            if (error && !isBlankHtml(next)) setError(null);
          }}
        />
      </Stack>
      <Group justify="space-between" mt="xl" gap="sm">
        <Group gap="sm">{extraActions}</Group>
        <Group gap="sm" ml="auto">
          <Button variant="default" onClick={onClose} disabled={saving || busy}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={saving} disabled={busy}>
            {submitLabel}
          </Button>
        </Group>
      </Group>
    </form>
  );
}

/**
 * A dialog around one rich-text field: add a comment, send or edit a message, edit a sample's
 * adverse events. The form is
 * mounted only while open, so every opening starts from `initialValue`.
 */
export function RichTextDialog({ opened, title, onClose, saving, busy, ...form }: DialogProps) {
  const { t } = useTranslation();
  const fullScreen = useIsPhone();
  const locked = saving || !!busy;
  return (
    <Modal
      opened={opened}
      onClose={() => {
        if (!locked) onClose();
      }}
      title={title}
      size="lg"
      centered={!fullScreen}
      fullScreen={fullScreen}
      closeOnClickOutside={!locked}
      closeOnEscape={!locked}
      closeButtonProps={{ 'aria-label': t('common.close'), disabled: locked }}
    >
      {opened && <DialogForm {...form} saving={saving} busy={busy ?? false} onClose={onClose} />}
    </Modal>
  );
}
