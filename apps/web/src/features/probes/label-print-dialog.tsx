import {
  Alert,
  Box,
  Button,
  Group,
  List,
  Modal,
  NumberInput,
  Paper,
  Stack,
  Text,
} from '@mantine/core';
import { IconDownload, IconPrinter, IconQrcode } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useIsPhone } from '../../components/use-is-desktop';
import { commonErrorKey } from '../../lib/api-errors';
import { isApiError } from '../../lib/api';
import { notifyError, notifySuccess } from '../../lib/notify';
import { BrowserPrintError, printZpl } from './browser-print';
import type { PrintFailure } from './browser-print';
import { downloadLabelPdf, fetchLabelZpl, isLabelAmount, labelHeading } from './labels-api';
import type { LabelPrintButtonProps } from './label-print-button';

/**
 * "Drukuj etykiety": the label's preview, the amount (0–10, default 1), printing the ZPL on the
 * default Zebra printer through Browser Print, or downloading the PDF sheet. Printer problems
 * show the printer alerts (docs/product-rules.md "Labels") inside the dialog, where the nurse is
 * looking.
 */
export function LabelPrintDialog({
  probe,
  onClose,
}: LabelPrintButtonProps & { onClose: () => void }) {
  const { t } = useTranslation();
  const fullScreen = useIsPhone();
  const [amount, setAmount] = useState<number | string>(probe.labels_amount ?? 1);
  const [failure, setFailure] = useState<PrintFailure | null>(null);
  const [busy, setBusy] = useState<'zpl' | 'pdf' | null>(null);

  const valid = isLabelAmount(amount);
  const amountError = valid ? null : t('labels.amountRange');
  const count = valid ? amount : 0;

  async function print() {
    if (!valid || count === 0) return;
    setFailure(null);
    setBusy('zpl');
    try {
      const device = await printZpl(() => fetchLabelZpl(probe, count));
      notifySuccess(t('labels.printed', { count, printer: device.name }));
    } catch (error) {
      if (error instanceof BrowserPrintError) setFailure(error.failure);
      else notifyError(t(commonErrorKey(error)));
    } finally {
      setBusy(null);
    }
  }

  async function download() {
    if (!valid || count === 0) return;
    setBusy('pdf');
    try {
      await downloadLabelPdf(probe, count);
    } catch (error) {
      notifyError(
        isApiError(error) && error.httpStatus === 422
          ? t('labels.amountRange')
          : t(commonErrorKey(error)),
      );
    } finally {
      setBusy(null);
    }
  }

  return (
    <Modal
      opened
      onClose={onClose}
      title={t('labels.title')}
      centered={!fullScreen}
      fullScreen={fullScreen}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <Stack gap="md">
        <Paper
          withBorder
          p="sm"
          radius="sm"
          aria-label={t('labels.preview')}
          role="img"
          style={{ aspectRatio: '2 / 1', maxWidth: 320, width: '100%', alignSelf: 'center' }}
        >
          <Group wrap="nowrap" h="100%" gap="sm" align="center">
            <Box
              aria-hidden
              style={{
                height: '100%',
                aspectRatio: '1 / 1',
                display: 'flex',
                alignItems: 'center',
                justifyContent: 'center',
                border: '1px dashed var(--mantine-color-gray-6)',
              }}
            >
              <IconQrcode size={48} stroke={1.2} />
            </Box>
            <Stack gap={4} style={{ minWidth: 0 }}>
              <Text fw={700} data-testid="label-heading">
                {labelHeading(probe)}
              </Text>
              <Text ff="monospace" size="sm" style={{ wordBreak: 'break-all' }}>
                {probe.code}
              </Text>
              {probe.of === 'probe-sets' && (
                <Text size="xs" c="dimmed">
                  {t('labels.kitNote')}
                </Text>
              )}
            </Stack>
          </Group>
        </Paper>
        <Text size="xs" c="dimmed">
          {probe.of === 'probe-sets' ? t('labels.kitPreviewHint') : t('labels.previewHint')}
        </Text>

        <NumberInput
          label={t('labels.amount')}
          description={
            probe.of === 'probe-sets' ? t('labels.amountPerKitHint') : t('labels.amountHint')
          }
          value={amount}
          onChange={setAmount}
          min={0}
          max={10}
          step={1}
          allowDecimal={false}
          allowNegative={false}
          clampBehavior="none"
          error={amountError}
          data-autofocus
        />
        {valid && count === 0 && (
          <Text size="sm" c="dimmed">
            {t('labels.nothingToPrint')}
          </Text>
        )}

        {failure && <PrinterAlert failure={failure} />}

        <Group justify="flex-end" gap="sm">
          <Button
            variant="default"
            leftSection={<IconDownload size={16} />}
            onClick={() => void download()}
            loading={busy === 'pdf'}
            disabled={!valid || count === 0 || busy !== null}
          >
            {t('labels.downloadPdf')}
          </Button>
          <Button
            leftSection={<IconPrinter size={16} />}
            onClick={() => void print()}
            loading={busy === 'zpl'}
            disabled={!valid || count === 0 || busy !== null}
          >
            {t('labels.printZebra')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/**
 * The printer alerts (docs/product-rules.md "Labels"), with the printer's reasons when not ready.
 */
function PrinterAlert({ failure }: { failure: PrintFailure }) {
  const { t } = useTranslation();
  const title =
    failure.kind === 'init'
      ? t('labels.printer.init')
      : t('labels.printer.unavailable', {
          code: { no_printer: '#104', status: '#204', not_ready: '#304' }[failure.kind],
        });
  return (
    <Alert color="red" role="alert" title={title}>
      {failure.kind === 'not_ready' && (
        <List size="sm">
          {failure.reasons.map((reason) => (
            <List.Item key={reason}>{t(`labels.reason.${reason}`)}</List.Item>
          ))}
        </List>
      )}
      {failure.kind === 'init' && <Text size="sm">{t('labels.printer.initHint')}</Text>}
    </Alert>
  );
}
