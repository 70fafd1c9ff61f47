import { Button, Group, Modal, Select, Stack, Textarea } from '@mantine/core';
import { useState } from 'react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { QUERY_FIELDS } from '@portal/shared';
import type { MonitoredRecordType } from '@portal/shared';
import { commonErrorKey, serverFieldErrors } from '../../lib/api-errors';
import { notifyError, notifySuccess } from '../../lib/notify';
import { useOpenQuery } from './monitoring-api';
import { useFieldLabel } from './query-format';

/** The whole record in the field picker (the API's `field` left out). */
const WHOLE = 'whole';

/**
 * "Otwórz zapytanie" (ADR 051): the monitor picks the record or one of its fields, by its
 * readable name, and writes the question.
 */
export function OpenQueryDialog({
  opened,
  onClose,
  recordType,
  recordId,
}: {
  opened: boolean;
  onClose: () => void;
  recordType: MonitoredRecordType;
  recordId: number;
}) {
  const { t } = useTranslation();
  const open = useOpenQuery();
  const fieldLabel = useFieldLabel();
  const [field, setField] = useState<string>(WHOLE);
  const [text, setText] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});

  const close = () => {
    setField(WHOLE);
    setText('');
    setErrors({});
    onClose();
  };

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!text.trim()) {
      setErrors({ text: t('validation.required') });
      return;
    }
    open.mutate(
      {
        record_type: recordType,
        record_id: recordId,
        field: field === WHOLE ? null : field,
        text: text.trim(),
      },
      {
        onSuccess: () => {
          notifySuccess(t('monitoring.queryOpened'));
          close();
        },
        onError: (error) => {
          const fields = serverFieldErrors(error);
          if (Object.keys(fields).length) setErrors(fields);
          else notifyError(t(commonErrorKey(error)));
        },
      },
    );
  }

  const options = [
    { value: WHOLE, label: t('monitoring.wholeRecord') },
    ...QUERY_FIELDS[recordType].map((name) => ({
      value: name,
      label: fieldLabel(recordType, name),
    })),
  ];

  return (
    <Modal
      opened={opened}
      onClose={close}
      title={t('monitoring.openQuery')}
      centered
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <form onSubmit={submit} noValidate>
        <Stack>
          <Select
            label={t('monitoring.field')}
            data={options}
            value={field}
            onChange={(value) => setField(value ?? WHOLE)}
            allowDeselect={false}
            searchable
            error={errors.field}
            comboboxProps={{ withinPortal: true }}
          />
          <Textarea
            label={t('monitoring.queryText')}
            required
            value={text}
            onChange={(event) => {
              setText(event.currentTarget.value);
              setErrors({});
            }}
            autosize
            minRows={3}
            maxLength={5000}
            error={errors.text}
            data-autofocus
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={open.isPending}>
              {t('monitoring.openQuerySubmit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
