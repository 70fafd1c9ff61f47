import { NumberInput, SimpleGrid, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { LABEL_AMOUNT_MAX, PROBE_SET_AMOUNT_MAX, probeSetBody } from '@portal/shared';
import type { PatientDetail } from '@portal/shared';
import { FormModal } from '../../components/form-modal';
import { isApiError } from '../../lib/api';
import { commonErrorKey, serverFieldErrors } from '../../lib/api-errors';
import { numberFromInput } from '../../lib/form-number';
import { notifyError, notifySuccess } from '../../lib/notify';
import { useZodForm } from '../../lib/use-zod-form';
import { initialOrder } from './probe-set-order-form';
import type { OrderValues } from './probe-set-order-form';
import { useCreateProbeSet } from './probe-sets-api';

type AddressField = 'street' | 'building' | 'postcode' | 'city';

/** "Zamów zestawy": home-sampling kits for the patient (issue 11), sent to the address given. */
export function ProbeSetOrderDialog({
  opened,
  patient,
  onClose,
}: {
  opened: boolean;
  patient: PatientDetail;
  onClose: () => void;
}) {
  // Mounted afresh for every opening: a new order starts from the patient's address again.
  return opened ? <OrderForm patient={patient} onClose={onClose} /> : null;
}

function OrderForm({ patient, onClose }: { patient: PatientDetail; onClose: () => void }) {
  const { t } = useTranslation();
  const form = useZodForm<OrderValues, typeof probeSetBody>(probeSetBody, initialOrder(patient), {
    toBody: (values) => ({
      patient_id: patient.id,
      ...values,
      // An emptied number input holds '': the schema then reports it as missing (the labels'
      // amount takes its default). The API takes JSON numbers only (ADR 037).
      amount: values.amount === '' ? undefined : numberFromInput(values.amount),
      labels_amount:
        values.labels_amount === '' ? undefined : numberFromInput(values.labels_amount),
    }),
  });
  const create = useCreateProbeSet();

  const text = (field: AddressField) => ({
    ...form.getInputProps(field),
    required: true,
    maxLength: 255,
  });

  const submit = form.onSubmit(
    (body) =>
      create.mutate(body, {
        onSuccess: () => {
          notifySuccess(t('common.saved'));
          onClose();
        },
        onError: (error) => {
          if (isApiError(error) && error.httpStatus === 422) {
            form.setServerErrors(serverFieldErrors(error));
            notifyError(t('common.validationError'));
            return;
          }
          notifyError(t(commonErrorKey(error)));
        },
      }),
    () => notifyError(t('common.validationError')),
  );

  return (
    <FormModal
      opened
      title={t('probeSets.order.title')}
      onClose={onClose}
      onSubmit={submit}
      saving={create.isPending}
      submitLabel={t('probeSets.order.submit')}
    >
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <NumberInput
          label={t('probeSets.order.amount')}
          description={t('probeSets.order.amountHint')}
          required
          min={1}
          max={PROBE_SET_AMOUNT_MAX}
          allowDecimal={false}
          allowNegative={false}
          {...form.getInputProps('amount')}
          data-autofocus
        />
        <NumberInput
          label={t('probeSets.order.labelsAmount')}
          description={t('probeSets.order.labelsAmountHint')}
          required
          min={0}
          max={LABEL_AMOUNT_MAX}
          allowDecimal={false}
          allowNegative={false}
          {...form.getInputProps('labels_amount')}
        />
      </SimpleGrid>
      <Title order={3} size="h5" mt="sm">
        {t('probeSets.order.address')}
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <TextInput label={t('probeSets.order.street')} {...text('street')} />
        <TextInput label={t('probeSets.order.building')} {...text('building')} />
        <TextInput label={t('probeSets.order.postcode')} {...text('postcode')} />
        <TextInput label={t('probeSets.order.city')} {...text('city')} />
      </SimpleGrid>
    </FormModal>
  );
}
