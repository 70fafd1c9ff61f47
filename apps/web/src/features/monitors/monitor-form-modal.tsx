import { Button, MultiSelect, SimpleGrid, TextInput } from '@mantine/core';
import { IconPrinter } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { monitorBody, PHONE_DIGITS, PHONE_PREFIX, STRING_MAX } from '@portal/shared';
import type { Monitor } from '@portal/shared';
import { useUnitOptions } from '../../api/units';
import { ComboboxMessage } from '../../components/combobox-message';
import { confirmNewPassword } from '../../components/confirm';
import { useCredentialsSheet } from '../../components/credentials-modal';
import { FormModal } from '../../components/form-modal';
import { isApiError } from '../../lib/api';
import { commonErrorKey } from '../../lib/api-errors';
import { notifyError, notifySuccess } from '../../lib/notify';
import { handleSaveError } from '../../lib/save-error';
import { useZodForm } from '../../lib/use-zod-form';
import { usePrintMonitorLogin, useReloadMonitor, useSaveMonitor } from './monitors-api';

function initialValues(monitor: Monitor | null) {
  return {
    firstname: monitor?.firstname ?? '',
    surname: monitor?.surname ?? '',
    email: monitor?.email ?? '',
    phone_number: monitor?.phone_number ?? '',
    // Numbers, as the API takes them (a string id is refused, ADR 037); the select holds text.
    unit_ids: monitor ? [...monitor.unit_ids] : ([] as number[]),
  };
}

/**
 * Add or edit a monitor (ADR 051), as a doctor is (the e-mail is the login), with the units the
 * monitor may read chosen from a searchable list; for an existing monitor new login details can
 * be generated and printed.
 */
export function MonitorFormModal({
  monitor,
  loading = false,
  onClose,
}: {
  monitor: Monitor | null;
  loading?: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const save = useSaveMonitor(monitor?.id ?? null);
  const reload = useReloadMonitor(monitor?.id ?? null);
  const units = useUnitOptions();
  const printLogin = usePrintMonitorLogin();
  const credentials = useCredentialsSheet();
  const form = useZodForm(monitorBody, initialValues(monitor));
  // The edited monitor arrives after the dialog opened: fill the form then (as the doctor's).
  const [shownMonitor, setShownMonitor] = useState(monitor);
  // The version this form edits: the loaded one, replaced only after a 409 conflict (ADR 018).
  const [version, setVersion] = useState(monitor?.version);
  if (monitor !== shownMonitor) {
    setShownMonitor(monitor);
    if (monitor?.id !== shownMonitor?.id) {
      form.reset(initialValues(monitor));
      setVersion(monitor?.version);
    }
  }

  const submit = form.onSubmit((body) =>
    save.mutate(
      { body, version },
      {
        onSuccess: () => {
          notifySuccess(t('common.saved'));
          onClose();
        },
        onError: (error) =>
          handleSaveError(error, {
            setServerErrors: form.setServerErrors,
            reload,
            setVersion,
            t,
          }),
      },
    ),
  );

  // Asked first: the monitor's current password stops working once the server answers.
  function print(current: Monitor) {
    confirmNewPassword(() => generate(current));
  }

  function generate(current: Monitor) {
    printLogin.mutate(current.id, {
      onSuccess: (details) =>
        credentials.open({
          details,
          kind: 'monitor',
          name: `${current.firstname} ${current.surname}`,
        }),
      onError: (error) =>
        notifyError(t(isApiError(error) ? commonErrorKey(error) : 'common.unexpectedError')),
    });
  }

  const unitOptions = (units.data ?? []).map((unit) => ({
    value: String(unit.id),
    label: unit.name,
  }));
  // A unit assigned before it was deleted still shows its name (and can be taken away).
  for (const unit of monitor?.units ?? []) {
    if (!unitOptions.some((option) => option.value === String(unit.id))) {
      unitOptions.push({ value: String(unit.id), label: unit.name });
    }
  }

  return (
    <>
      <FormModal
        opened
        title={monitor || loading ? t('monitors.editTitle') : t('monitors.createTitle')}
        onClose={onClose}
        onSubmit={submit}
        saving={save.isPending}
        loading={loading}
        extraActions={
          monitor && (
            <Button
              variant="light"
              leftSection={<IconPrinter size={16} aria-hidden />}
              loading={printLogin.isPending}
              onClick={() => print(monitor)}
            >
              {t('monitors.printLogin')}
            </Button>
          )
        }
      >
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <TextInput
            label={t('monitors.firstname')}
            required
            maxLength={STRING_MAX}
            autoComplete="off"
            data-autofocus
            {...form.getInputProps('firstname')}
          />
          <TextInput
            label={t('monitors.surname')}
            required
            maxLength={STRING_MAX}
            autoComplete="off"
            {...form.getInputProps('surname')}
          />
        </SimpleGrid>
        <TextInput
          label={t('monitors.email')}
          type="email"
          required
          maxLength={STRING_MAX}
          autoComplete="off"
          {...form.getInputProps('email')}
        />
        <TextInput
          label={t('monitors.phone')}
          type="tel"
          inputMode="numeric"
          required
          maxLength={PHONE_DIGITS}
          leftSection={PHONE_PREFIX}
          leftSectionWidth={48}
          autoComplete="off"
          {...form.getInputProps('phone_number')}
        />
        <MultiSelect
          label={t('monitors.units')}
          placeholder={form.values.unit_ids.length ? undefined : t('monitors.unitsPlaceholder')}
          required
          searchable
          data={unitOptions}
          nothingFoundMessage={<ComboboxMessage>{t('list.empty')}</ComboboxMessage>}
          comboboxProps={{ withinPortal: true }}
          value={form.values.unit_ids.map(String)}
          onChange={(values) => form.setFieldValue('unit_ids', values.map(Number))}
          error={form.errors.unit_ids}
        />
      </FormModal>
      {credentials.modal}
    </>
  );
}
