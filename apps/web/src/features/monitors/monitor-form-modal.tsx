import { useTranslation } from 'react-i18next';
import { monitorBody } from '@portal/shared';
import type { Monitor } from '@portal/shared';
import { PersonFields, UnitPicker } from '../../components/account-fields';
import { AccountFormModal } from '../../components/account-form-modal';
import { usePrintMonitorLogin, useReloadMonitor, useSaveMonitor } from './monitors-api';

function initialValues(monitor: Monitor | null) {
  return {
    firstname: monitor?.firstname ?? '',
    surname: monitor?.surname ?? '',
    email: monitor?.email ?? '',
    phone_number: monitor?.phone_number ?? '',
    unit_ids: monitor ? [...monitor.unit_ids] : ([] as number[]),
  };
}

/**
 * Add or edit a monitor (ADR 051), as a doctor is (the e-mail is the login), with the units the
 * monitor may read chosen from a searchable list; for an existing monitor new login details can
 * be generated and printed (the account form, components/).
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
  return (
    <AccountFormModal
      account={monitor}
      loading={loading}
      onClose={onClose}
      titles={{ create: t('monitors.createTitle'), edit: t('monitors.editTitle') }}
      schema={monitorBody}
      initialValues={initialValues}
      save={useSaveMonitor(monitor?.id ?? null)}
      reload={useReloadMonitor(monitor?.id ?? null)}
      printLogin={{
        label: t('monitors.printLogin'),
        mutation: usePrintMonitorLogin(),
        kind: 'monitor',
        name: (current) => `${current.firstname} ${current.surname}`,
      }}
    >
      {(form) => (
        <>
          <PersonFields form={form} texts="monitors" />
          <UnitPicker
            multiple
            label={t('monitors.units')}
            placeholder={t('monitors.unitsPlaceholder')}
            assigned={monitor?.units ?? []}
            value={form.values.unit_ids}
            onChange={(ids) => form.setFieldValue('unit_ids', ids)}
            error={form.errors.unit_ids}
          />
        </>
      )}
    </AccountFormModal>
  );
}
