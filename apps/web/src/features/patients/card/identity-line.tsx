import { Button, Group, Text } from '@mantine/core';
import { IconEye } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { maskPesel } from '@portal/shared';
import type { PatientDetail, PatientIdentity } from '@portal/shared';
import { api } from '../../../lib/api-client';
import { commonErrorKey } from '../../../lib/api-errors';
import { notifyError } from '../../../lib/notify';
import { useCan } from '../../../lib/permissions';
import { identityHidden } from '../../../entities/patients/patient-format';

/**
 * The card's PESEL, masked (`440514*****`) until "Pokaż" asks the server for the identity, which
 * the server logs as a read of kind `identity` (ADR 053). A user without
 * `patients.identity.read` gets the masked PESEL from the server and no "Pokaż".
 */
export function PatientIdentityLine({ patient }: { patient: PatientDetail }) {
  const { t } = useTranslation();
  const can = useCan();
  const reveal = useMutation({
    mutationFn: () => api.request<PatientIdentity>(`/patients/${patient.id}/identity`),
    onError: (error) => notifyError(t(commonErrorKey(error))),
  });
  const hidden = identityHidden(patient);
  const pesel = reveal.data?.pesel ?? (hidden ? patient.pesel : maskPesel(patient.pesel));
  return (
    <Group gap="xs" align="center">
      <Text c="dimmed">
        {t('card.pesel')}: <span data-testid="patient-pesel">{pesel}</span>
        {hidden && ` (${t('card.identityHidden')})`}
      </Text>
      {can('patients.identity.read') && !reveal.data && (
        <Button
          size="compact-xs"
          variant="subtle"
          leftSection={<IconEye size={14} aria-hidden />}
          loading={reveal.isPending}
          onClick={() => reveal.mutate()}
          aria-label={t('card.showIdentityLabel')}
        >
          {t('card.showIdentity')}
        </Button>
      )}
    </Group>
  );
}
