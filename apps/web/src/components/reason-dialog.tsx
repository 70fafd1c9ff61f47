import { useState } from 'react';
import { Button, Group, Select, Stack, Text, Textarea } from '@mantine/core';
import { modals } from '@mantine/modals';
import { REASON_CODES } from '@portal/shared';
import type { ChangeReason, ReasonCode } from '@portal/shared';
import { useTranslation } from 'react-i18next';
import { i18n } from '../i18n/i18n';
import { ApiError } from '../lib/api';
import { suggestedReason } from './reason-suggestion';

function ReasonForm({
  initialCode,
  onDone,
}: {
  initialCode: ReasonCode | null;
  onDone: (reason: ChangeReason | null) => void;
}) {
  const { t } = useTranslation();
  const [code, setCode] = useState<ReasonCode | null>(initialCode);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = () => {
    if (!code) {
      setError(t('changeReason.textRequired'));
      return;
    }
    const trimmed = text.trim();
    if (code === 'other' && !trimmed) {
      setError(t('changeReason.textRequired'));
      return;
    }
    onDone({ code, text: trimmed || null });
  };
  return (
    <Stack>
      <Text size="sm">{t('changeReason.intro')}</Text>
      <Select
        label={t('changeReason.code')}
        required
        data={REASON_CODES.map((value) => ({ value, label: t(`changeReason.codes.${value}`) }))}
        value={code}
        onChange={(value) => {
          setCode(value);
          setError(null);
        }}
        error={!code && error ? error : undefined}
        data-autofocus
      />
      <Textarea
        label={t('changeReason.text')}
        required={code === 'other'}
        value={text}
        onChange={(event) => {
          setText(event.currentTarget.value);
          setError(null);
        }}
        error={code && error ? error : undefined}
        autosize
        minRows={2}
        maxLength={1000}
      />
      <Group justify="flex-end">
        <Button variant="default" onClick={() => onDone(null)}>
          {t('changeReason.cancel')}
        </Button>
        <Button onClick={submit}>{t('changeReason.save')}</Button>
      </Group>
    </Stack>
  );
}

/**
 * Asks for the reason for change (ADR 048) in a dialog; null when the user cancels. Every edit of
 * a record holding entered clinical data goes through it before it is saved.
 */
export function askReason(
  title = i18n.t('changeReason.title'),
  initialCode: ReasonCode | null = suggestedReason(),
): Promise<ChangeReason | null> {
  return new Promise((resolve) => {
    let settled = false;
    const done = (reason: ChangeReason | null) => {
      if (settled) return;
      settled = true;
      modals.close(id);
      resolve(reason);
    };
    const id = modals.open({
      title,
      centered: true,
      closeButtonProps: { 'aria-label': i18n.t('common.close') },
      children: <ReasonForm initialCode={initialCode} onDone={done} />,
      onClose: () => done(null),
    });
  });
}

/** The user closed the reason dialog: nothing was saved, nothing to report. */
export class ReasonCancelled extends Error {
  constructor() {
    super('reason_cancelled');
    this.name = 'ReasonCancelled';
  }
}

/**
 * Saves; when the server answers that the record holds entered clinical data (422
 * `reason_required`), asks for the reason and saves again with it. The server decides, so the
 * screen never guesses whether a record was already entered. Cancelling throws ReasonCancelled.
 */
export async function saveWithReason<T>(save: (reason?: ChangeReason) => Promise<T>): Promise<T> {
  try {
    return await save();
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 'reason_required') throw error;
  }
  const reason = await askReason();
  if (!reason) throw new ReasonCancelled();
  return save(reason);
}
