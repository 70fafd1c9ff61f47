import { Textarea } from '@mantine/core';
import { useState } from 'react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { probeSetDecisionBody } from '@portal/shared';
import type { ProbeSet } from '@portal/shared';
import { FormModal } from '../../components/form-modal';
import { isApiError } from '../../lib/api';
import { commonErrorKey, serverFieldErrors } from '../../lib/api-errors';
import { validateWith } from '../../lib/form-validation';
import { notifyError, notifySuccess } from '../../lib/notify';
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
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>();
  const decide = useDecideProbeSet(order.id);

  function submit(event: FormEvent) {
    event.preventDefault();
    const result = validateWith(probeSetDecisionBody, {
      status: 2,
      reason,
      version: order.version,
    });
    if (!result.ok) {
      const code = result.codes.reason ?? 'required';
      setError(t(`validation.${code}` as 'validation.required'));
      return;
    }
    decide.mutate(result.data, {
      onSuccess: () => {
        notifySuccess(t('probeSets.rejected'));
        onClose();
      },
      onError: (failure) => {
        if (isApiError(failure) && failure.httpStatus === 422) {
          setError(serverFieldErrors(failure).reason ?? t('common.validationError'));
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
    });
  }

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
        value={reason}
        onChange={(event) => {
          setReason(event.currentTarget.value);
          setError(undefined);
        }}
        error={error}
        data-autofocus
      />
    </FormModal>
  );
}
