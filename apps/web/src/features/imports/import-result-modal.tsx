import { Box, Button, Group, List, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useIsPhone } from '../../components/use-is-desktop';
import type { ImportOutcome } from './import-outcome';
import { useCountsText } from './import-counts';

/**
 * After "Importuj wyniki" / "Importuj dane pacjentów" (docs/product-rules.md "Imports"): the
 * success heading with what was written, or the error heading with EVERY error of the rejected
 * batch.
 */
export function ImportResultModal({
  outcome,
  onClose,
}: {
  outcome: ImportOutcome | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const isPhone = useIsPhone();
  const countsText = useCountsText();
  const success = outcome?.status === 'success';

  return (
    <Modal
      opened={outcome !== null}
      onClose={onClose}
      centered
      fullScreen={isPhone}
      size="lg"
      withCloseButton={false}
      title={success ? t('imports.result.successTitle') : t('imports.result.errorTitle')}
    >
      {outcome && (
        <Stack gap="md">
          {outcome.status === 'success' ? (
            <Text>{t('imports.result.imported', { counts: countsText(outcome.imported) })}</Text>
          ) : (
            <>
              <Text fw={500} id="import-errors-intro">
                {t('imports.result.errorIntro')}
              </Text>
              {/* Focusable so that a keyboard can scroll a long list (axe: scrollable region). */}
              <Box
                tabIndex={0}
                role="region"
                aria-labelledby="import-errors-intro"
                mah={isPhone ? undefined : 360}
                style={{ overflowY: 'auto' }}
              >
                <List size="sm" spacing={4} data-testid="import-errors">
                  {outcome.errors.map((error, index) => (
                    // Two rows may fail with the same text in different files: the index keeps keys unique.
                    <List.Item key={`${index}:${error}`}>{error}</List.Item>
                  ))}
                </List>
              </Box>
              <Text size="sm" c="dimmed">
                {t('imports.result.nothingImported', { count: outcome.errors.length })}
              </Text>
            </>
          )}
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
