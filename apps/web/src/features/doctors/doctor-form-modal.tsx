import { Button, Select, SimpleGrid, TextInput } from '@mantine/core';
import { IconPrinter } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { doctorBody, PHONE_DIGITS, PHONE_PREFIX, STRING_MAX } from '@portal/shared';
import type { Doctor } from '@portal/shared';
import { useUnitOptions } from '../../api/units';
import { confirmNewPassword } from '../../components/confirm';
import { useCredentialsSheet } from '../../components/credentials-modal';
import { FormModal } from '../../components/form-modal';
import { isApiError } from '../../lib/api';
import { commonErrorKey } from '../../lib/api-errors';
import { notifyError, notifySuccess } from '../../lib/notify';
import { handleSaveError } from '../../lib/save-error';
import { useZodForm } from '../../lib/use-zod-form';
import { usePrintDoctorLogin, useReloadDoctor, useSaveDoctor } from './doctors-api';

function initialValues(doctor: Doctor | null) {
  return {
    firstname: doctor?.firstname ?? '',
    surname: doctor?.surname ?? '',
    email: doctor?.email ?? '',
    phone_number: doctor?.phone_number ?? '',
    // A number, as the API takes it (a string id is refused, ADR 037); the select holds text.
    unit_id: doctor ? doctor.unit_id : (null as number | null),
  };
}

/**
 * Add or edit a doctor. The phone is typed as 9 digits after a fixed +48; for an existing doctor
 * new login details can be generated and printed.
 */
export function DoctorFormModal({
  doctor,
  loading = false,
  onClose,
}: {
  doctor: Doctor | null;
  loading?: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const save = useSaveDoctor(doctor?.id ?? null);
  const reload = useReloadDoctor(doctor?.id ?? null);
  const units = useUnitOptions();
  const printLogin = usePrintDoctorLogin();
  const credentials = useCredentialsSheet();
  const form = useZodForm(doctorBody, initialValues(doctor));
  // The edited doctor arrives after the dialog opened: fill the form then, keeping the dialog
  // mounted (React's "adjust state when a prop changes" pattern, no effect).
  const [shownDoctor, setShownDoctor] = useState(doctor);
  // The version this form edits: the loaded one, replaced only after a 409 conflict, so that a
  // refetch in the background never turns someone else's change into a silent overwrite.
  const [version, setVersion] = useState(doctor?.version);
  if (doctor !== shownDoctor) {
    setShownDoctor(doctor);
    // A refetch of the same doctor (after a conflict) keeps what was typed.
    if (doctor?.id !== shownDoctor?.id) {
      form.reset(initialValues(doctor));
      setVersion(doctor?.version);
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

  // Asked first: the doctor's current password stops working once the server answers.
  function print(current: Doctor) {
    confirmNewPassword(() => generate(current));
  }

  function generate(current: Doctor) {
    printLogin.mutate(current.id, {
      onSuccess: (details) =>
        credentials.open({
          details,
          kind: 'doctor',
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
  // A doctor of a deleted unit still shows the unit's name.
  if (doctor && !unitOptions.some((option) => option.value === String(doctor.unit_id))) {
    unitOptions.push({ value: String(doctor.unit_id), label: doctor.unit.name });
  }

  return (
    <>
      <FormModal
        opened
        title={doctor || loading ? t('doctors.editTitle') : t('doctors.createTitle')}
        onClose={onClose}
        onSubmit={submit}
        saving={save.isPending}
        loading={loading}
        extraActions={
          doctor && (
            <Button
              variant="light"
              leftSection={<IconPrinter size={16} aria-hidden />}
              loading={printLogin.isPending}
              onClick={() => print(doctor)}
            >
              {t('doctors.printLogin')}
            </Button>
          )
        }
      >
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <TextInput
            label={t('doctors.firstname')}
            required
            maxLength={STRING_MAX}
            autoComplete="off"
            data-autofocus
            {...form.getInputProps('firstname')}
          />
          <TextInput
            label={t('doctors.surname')}
            required
            maxLength={STRING_MAX}
            autoComplete="off"
            {...form.getInputProps('surname')}
          />
        </SimpleGrid>
        <TextInput
          label={t('doctors.email')}
          type="email"
          required
          maxLength={STRING_MAX}
          autoComplete="off"
          {...form.getInputProps('email')}
        />
        <TextInput
          label={t('doctors.phone')}
          type="tel"
          inputMode="numeric"
          required
          maxLength={PHONE_DIGITS}
          leftSection={PHONE_PREFIX}
          leftSectionWidth={48}
          autoComplete="off"
          {...form.getInputProps('phone_number')}
        />
        <Select
          label={t('doctors.unit')}
          placeholder={t('doctors.unitPlaceholder')}
          required
          searchable
          data={unitOptions}
          nothingFoundMessage={t('list.empty')}
          comboboxProps={{ withinPortal: true }}
          value={form.values.unit_id === null ? null : String(form.values.unit_id)}
          onChange={(value) => form.setFieldValue('unit_id', value ? Number(value) : null)}
          error={form.errors.unit_id}
        />
      </FormModal>
      {credentials.modal}
    </>
  );
}
