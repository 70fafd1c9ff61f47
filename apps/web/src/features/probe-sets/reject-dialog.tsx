import { Textarea } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { probeSetDecisionBody } from '@portal/shared';
import type { ProbeSet } from '@portal/shared';
import { FormModal } from '../../components/form-modal';
import { isApiError } from '../../lib/api';
import { commonErrorKey, serverFieldErrors } from '../../lib/api-errors';
import { notifyError, notifySuccess } from '../../lib/notify';
import { useZodForm } from '../../lib/use-zod-form';
import { orderRefusalKey } from './decision-errors';
import { useDecideProbeSet } from './probe-sets-api';

/** "Odrzuć": the reason is required (docs/product-rules.md "Validation"). */
export function RejectDialog({
  order,
  onClose,
  onMovedOn,
}: {
  order: ProbeSet;
  onClose: () => void;
  onMovedOn: () => void;
}) {
  const { t } = useTranslation();
  const form = useZodForm(
    probeSetDecisionBody,
    { reason: '' },
    { toBody: ({ reason }) => ({ status: 2, reason, version: order.version }) },
  );
  const decide = useDecideProbeSet(order.id);

  const submit = form.onSubmit((body) =>
    decide.mutate(body, {
      onSuccess: () => {
        notifySuccess(t('probeSets.rejected'));
        onClose();
      },
      onError: (failure) => {
        if (isApiError(failure) && failure.httpStatus === 422) {
          form.setServerErrors({
            reason: serverFieldErrors(failure).reason ?? t('common.validationError'),
          });
          return;
        }
        const refusal = orderRefusalKey(failure);
        if (refusal) {
          notifyError(t(refusal));
          onMovedOn();
          onClose();
          return;
        }
        notifyError(t(commonErrorKey(failure)));
      },
    }),
  );

  return (
    <FormModal
      opened
      title={t('probeSets.rejectTitle', { id: order.id })}
      onClose={onClose}
      onSubmit={submit}
      saving={decide.isPending}
      submitLabel={t('probeSets.reject')}
    >
      <Textarea
        label={t('probeSets.reason')}
        required
        autosize
        minRows={3}
        maxLength={1000}
        {...form.getInputProps('reason')}
        data-autofocus
      />
    </FormModal>
  );
}
