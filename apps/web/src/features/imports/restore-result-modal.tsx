import { Box, Button, Group, List, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { RestoreResult } from '@portal/shared';
import { useIsPhone } from '../../components/use-is-desktop';
import { useCountsText } from './import-counts';

/**
 * After "Przywróć" when some of the batch's patients stayed deleted: what came back, and each
 * patient an active patient replaced since the flush (a corrected file imported again), with
 * the reason (ADR 032).
 */
export function RestoreResultModal({
  result,
  onClose,
}: {
  result: RestoreResult | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const isPhone = useIsPhone();
  const countsText = useCountsText();

  return (
    <Modal
      opened={result !== null}
      onClose={onClose}
      centered
      fullScreen={isPhone}
      size="lg"
      withCloseButton={false}
      title={t('imports.restoreResult.title')}
    >
      {result && (
        <Stack gap="md">
          <Text>
            {t('imports.restoreResult.restored', { counts: countsText(result.restored) })}
          </Text>
          <Text fw={500} id="restore-skipped-intro">
            {t('imports.restoreResult.skippedIntro', { count: result.skipped.length })}
          </Text>
          {/* Focusable so that a keyboard can scroll a long list (axe: scrollable region). */}
          <Box
            tabIndex={0}
            role="region"
            aria-labelledby="restore-skipped-intro"
            mah={isPhone ? undefined : 360}
            style={{ overflowY: 'auto' }}
          >
            <List size="sm" spacing={4} data-testid="restore-skipped">
              {result.skipped.map((patient) => (
                <List.Item key={patient.patient_id}>
                  {t('imports.restoreResult.patient', {
                    name: `${patient.firstname} ${patient.surname}`,
                    pesel: patient.pesel_masked,
                    reason: t(`imports.restoreResult.reasons.${patient.reason}`),
                  })}
                </List.Item>
              ))}
            </List>
          </Box>
          <Text size="sm" c="dimmed">
            {t('imports.restoreResult.hint')}
          </Text>
          <Group justify="flex-end">
            <Button onClick={onClose} data-autofocus>
              {t('imports.result.ok')}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
