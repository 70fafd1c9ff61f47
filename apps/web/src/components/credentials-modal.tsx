import {
  Alert,
  Anchor,
  Button,
  Center,
  Group,
  Loader,
  Modal,
  Stack,
  Table,
  Text,
} from '@mantine/core';
import { IconDownload, IconPrinter } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CredentialsSheetBody, LoginDetails } from '@portal/shared';
import { api } from '../lib/api-client';
import { useIsPhone } from './use-is-desktop';

interface Shown {
  details: LoginDetails;
  kind: CredentialsSheetBody['kind'];
  name?: string;
}

/**
 * Generated login details: shown on screen (login, password, login address) and as a printable
 * PDF from POST /api/credentials/pdf. The PDF lives in a blob URL, revoked on close.
 */
export function useCredentialsSheet() {
  const { t } = useTranslation();
  const fullScreen = useIsPhone();
  const [shown, setShown] = useState<Shown | null>(null);
  const [pdfUrl, setPdfUrl] = useState<string | null>(null);
  const frame = useRef<HTMLIFrameElement>(null);
  const urlRef = useRef<string | null>(null);

  const pdf = useMutation({
    mutationFn: (body: CredentialsSheetBody) =>
      api.request<Blob>('/credentials/pdf', { method: 'POST', body, responseType: 'blob' }),
    onSuccess: (blob) => {
      const url = URL.createObjectURL(new Blob([blob], { type: 'application/pdf' }));
      urlRef.current = url;
      setPdfUrl(url);
    },
  });

  // A blob URL left behind when the screen unmounts with the dialog open.
  useEffect(
    () => () => {
      if (urlRef.current) URL.revokeObjectURL(urlRef.current);
    },
    [],
  );

  function open(next: Shown) {
    setShown(next);
    pdf.mutate({
      login: next.details.login,
      password: next.details.password,
      kind: next.kind,
      ...(next.name ? { name: next.name } : {}),
    });
  }

  function close() {
    if (urlRef.current) URL.revokeObjectURL(urlRef.current);
    urlRef.current = null;
    setPdfUrl(null);
    setShown(null);
    pdf.reset();
  }

  function print() {
    const target = frame.current?.contentWindow;
    try {
      target?.focus();
      target?.print();
    } catch {
      // Some browsers keep the PDF viewer out of reach; opening the file lets the user print it.
      if (pdfUrl) window.open(pdfUrl, '_blank', 'noopener');
    }
  }

  const modal = (
    <Modal
      opened={shown !== null}
      onClose={close}
      title={t('credentials.title')}
      size="xl"
      centered={!fullScreen}
      fullScreen={fullScreen}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      {shown && (
        <Stack gap="md">
          <Table variant="vertical" withTableBorder layout="fixed">
            <Table.Tbody>
              <Table.Tr>
                <Table.Th w="35%">{t('credentials.login')}</Table.Th>
                <Table.Td>
                  <Text ff="monospace" style={{ wordBreak: 'break-all' }}>
                    {shown.details.login}
                  </Text>
                </Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>{t('credentials.password')}</Table.Th>
                <Table.Td>
                  <Text ff="monospace" style={{ wordBreak: 'break-all' }}>
                    {shown.details.password}
                  </Text>
                </Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>{t('credentials.address')}</Table.Th>
                <Table.Td>
                  <Text ff="monospace" style={{ wordBreak: 'break-all' }}>
                    {shown.details.login_url}
                  </Text>
                </Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
          <Text size="sm" c="dimmed">
            {t('credentials.notice')}
          </Text>

          {pdf.isError && (
            <Alert color="red" role="alert">
              {t('credentials.pdfError')}
            </Alert>
          )}
          {pdf.isPending && (
            <Center py="md">
              <Loader size="sm" role="status" aria-label={t('credentials.pdfLoading')} />
            </Center>
          )}
          {pdfUrl && (
            <>
              <iframe
                ref={frame}
                src={pdfUrl}
                title="PDF"
                style={{
                  width: '100%',
                  height: 420,
                  border: '1px solid var(--mantine-color-gray-3)',
                }}
              />
              <Group justify="flex-end" gap="sm">
                <Anchor
                  href={pdfUrl}
                  download="dane-logowania.pdf"
                  display="inline-flex"
                  style={{ alignItems: 'center', gap: 4 }}
                >
                  <IconDownload size={16} aria-hidden />
                  {t('credentials.download')}
                </Anchor>
                <Button leftSection={<IconPrinter size={16} aria-hidden />} onClick={print}>
                  {t('credentials.print')}
                </Button>
              </Group>
            </>
          )}
        </Stack>
      )}
    </Modal>
  );

  return { open, modal };
}
