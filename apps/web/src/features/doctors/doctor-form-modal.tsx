import { useTranslation } from 'react-i18next';
import { doctorBody } from '@portal/shared';
import type { Doctor } from '@portal/shared';
import { PersonFields, UnitPicker } from '../../components/account-fields';
import { AccountFormModal } from '../../components/account-form-modal';
import { usePrintDoctorLogin, useReloadDoctor, useSaveDoctor } from './doctors-api';

function initialValues(doctor: Doctor | null) {
  return {
    firstname: doctor?.firstname ?? '',
    surname: doctor?.surname ?? '',
    email: doctor?.email ?? '',
    phone_number: doctor?.phone_number ?? '',
    unit_id: doctor ? doctor.unit_id : (null as number | null),
  };
}

/**
 * Add or edit a doctor: the person, and the one unit the doctor works in; for an existing doctor
 * new login details can be generated and printed (the account form, components/).
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
  return (
    <AccountFormModal
      account={doctor}
      loading={loading}
      onClose={onClose}
      titles={{ create: t('doctors.createTitle'), edit: t('doctors.editTitle') }}
      schema={doctorBody}
      initialValues={initialValues}
      save={useSaveDoctor(doctor?.id ?? null)}
      reload={useReloadDoctor(doctor?.id ?? null)}
      printLogin={{
        label: t('doctors.printLogin'),
        mutation: usePrintDoctorLogin(),
        kind: 'doctor',
        name: (current) => `${current.firstname} ${current.surname}`,
      }}
    >
      {(form) => (
        <>
          <PersonFields form={form} texts="doctors" />
          <UnitPicker
            label={t('doctors.unit')}
            placeholder={t('doctors.unitPlaceholder')}
            // A doctor of a deleted unit still shows the unit's name.
            assigned={doctor ? [{ id: doctor.unit_id, name: doctor.unit.name }] : []}
            value={form.values.unit_id}
            onChange={(id) => form.setFieldValue('unit_id', id)}
            error={form.errors.unit_id}
          />
        </>
      )}
    </AccountFormModal>
  );
}
