import { SimpleGrid, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { STRING_MAX, unitBody } from '@portal/shared';
import type { Unit } from '@portal/shared';
import { FormModal } from '../../components/form-modal';
import { notifySuccess } from '../../lib/notify';
import { handleSaveError } from '../../lib/save-error';
import { useZodForm } from '../../lib/use-zod-form';
import { useReloadUnit, useSaveUnit } from './units-api';

/** Add or edit a unit; validated with the shared unitBody schema, server 422s under fields. */
export function UnitFormModal({ unit, onClose }: { unit: Unit | null; onClose: () => void }) {
  const { t } = useTranslation();
  const save = useSaveUnit(unit?.id ?? null);
  const reload = useReloadUnit(unit?.id ?? null);
  // The version this form edits; a 409 conflict replaces it with the stored one.
  const [version, setVersion] = useState(unit?.version);
  const form = useZodForm(unitBody, {
    name: unit?.name ?? '',
    street: unit?.street ?? '',
    building_nr: unit?.building_nr ?? '',
    postcode: unit?.postcode ?? '',
    city: unit?.city ?? '',
  });

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

  return (
    <FormModal
      opened
      title={unit ? t('units.editTitle') : t('units.createTitle')}
      onClose={onClose}
      onSubmit={submit}
      saving={save.isPending}
    >
      <TextInput
        label={t('units.name')}
        required
        maxLength={STRING_MAX}
        data-autofocus
        {...form.getInputProps('name')}
      />
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
        <TextInput
          label={t('units.street')}
          required
          maxLength={STRING_MAX}
          {...form.getInputProps('street')}
        />
        <TextInput
          label={t('units.buildingNr')}
          required
          maxLength={STRING_MAX}
          {...form.getInputProps('building_nr')}
        />
        <TextInput
          label={t('units.postcode')}
          required
          maxLength={STRING_MAX}
          {...form.getInputProps('postcode')}
        />
        <TextInput
          label={t('units.city')}
          required
          maxLength={STRING_MAX}
          {...form.getInputProps('city')}
        />
      </SimpleGrid>
    </FormModal>
  );
}
