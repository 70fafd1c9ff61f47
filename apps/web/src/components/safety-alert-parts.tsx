import { Anchor, Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import type { FormEvent } from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { SafetyAlert } from '@portal/shared';
import { useAcknowledgeAlert } from '../api/alerts';
import { isApiError } from '../lib/api';
import { commonErrorKey, isStaleVersion } from '../lib/api-errors';
import { formatMeasured } from '../lib/measured-value';
import { notifyError, notifySuccess } from '../lib/notify';

/**
 * The parts of a safety alert that the alerts page and the patient card's banner share: the
 * rule and its values in words, the link to where it came from and the acknowledge dialog.
 */

/** "ALT: 200 (GGN 59)": each value with its limit, in the order the server gave them. */
export function useAlertDetailsText() {
  const { t, i18n } = useTranslation();
  return (details: SafetyAlert['details']): string =>
    Object.entries(details)
      .map(
        ([key, value]) =>
          `${t(`alerts.details.${key}`, { defaultValue: key })}: ${formatMeasured(value, i18n.language)}`,
      )
      .join(', ');
}

/** The sample's page or the visit card the alert was raised by. */
export function AlertSourceLink({ alert }: { alert: SafetyAlert }) {
  const { t } = useTranslation();
  if (alert.probe_id !== null) {
    return (
      <Anchor component={Link} to={`/probes/${alert.probe_id}`} size="sm">
        {t('alerts.sourceProbe')}
      </Anchor>
    );
  }
  if (alert.visit_id !== null) {
    return (
      <Anchor
        component={Link}
        to={`/patients/${alert.patient_id}/visits/${alert.visit_id}`}
        size="sm"
      >
        {t('alerts.sourceVisit')}
      </Anchor>
    );
  }
  return <>-</>;
}

function AcknowledgeForm({ alert, onClose }: { alert: SafetyAlert; onClose: () => void }) {
  const { t } = useTranslation();
  const acknowledge = useAcknowledgeAlert();
  const [comment, setComment] = useState('');
  const [error, setError] = useState<string | undefined>();

  function submit(event: FormEvent) {
    event.preventDefault();
    acknowledge.mutate(
      { alert, comment },
      {
        onSuccess: () => {
          notifySuccess(t('alerts.acknowledged'));
          onClose();
        },
        onError: (failure) => {
          if (isApiError(failure) && failure.status === 'already_acknowledged') {
            notifyError(t('alerts.alreadyAcknowledged'));
            onClose();
          } else if (isStaleVersion(failure)) {
            notifyError(t('alerts.conflict'));
            onClose();
          } else {
            if (commonErrorKey(failure) === 'common.validationError') {
              setError(t('validation.too_long'));
            }
            notifyError(t(commonErrorKey(failure)));
          }
        },
      },
    );
  }

  return (
    <form onSubmit={submit} noValidate aria-busy={acknowledge.isPending}>
      <Stack gap="sm">
        <Text size="sm">{t(`alerts.rules.${alert.rule}`)}</Text>
        <Textarea
          label={t('alerts.comment')}
          description={t('alerts.commentHint')}
          value={comment}
          onChange={(event) => setComment(event.currentTarget.value)}
          maxLength={1000}
          autosize
          minRows={3}
          error={error}
          data-autofocus
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={acknowledge.isPending}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={acknowledge.isPending}>
            {t('alerts.acknowledge')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** "Potwierdź": confirms that the alert was seen, with an optional comment. */
export function AcknowledgeDialog({
  alert,
  onClose,
}: {
  alert: SafetyAlert | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={alert !== null}
      onClose={onClose}
      title={t('alerts.acknowledgeTitle')}
      centered
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      {alert && <AcknowledgeForm alert={alert} onClose={onClose} />}
    </Modal>
  );
}
