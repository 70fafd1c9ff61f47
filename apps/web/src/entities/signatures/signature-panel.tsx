import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Modal,
  PasswordInput,
  Radio,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { IconLock, IconLockOpen, IconSignature } from '@tabler/icons-react';
import type { FormEvent } from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SIGNATURE_MEANINGS, formatDateTime } from '@portal/shared';
import type {
  Signature,
  SignatureMeaning,
  SignedRecordAbilities,
  SignedRecordType,
} from '@portal/shared';
import { askReason } from '../../components/reason-dialog';
import { isApiError } from '../../lib/api';
import { commonErrorKey, serverFieldErrors } from '../../lib/api-errors';
import { notifyError, notifySuccess } from '../../lib/notify';
import { useSession } from '../../lib/session';
import { manifestation, plainTranslate, sessionSignerName } from './signature-format';
import type { SignedRow } from './signature-format';
import { useRecordLock, useSignRecord } from './signatures-api';

/** A record's lock as its detail answers it (null: not locked). */
export interface RecordLockState {
  locked_at: string;
  by: { id: number; login: string | null } | null;
}

/** What a visit's or sample's detail answers about its signatures and lock (ADR 048, 050). */
export interface SignableRecord {
  id: number;
  signatures?: Signature[] | undefined;
  lock?: RecordLockState | null | undefined;
  record_abilities?: SignedRecordAbilities | undefined;
}

/** "Rekord zablokowany" beside the record's title. */
export function RecordLockBadge({ lock }: { lock: RecordLockState | null | undefined }) {
  const { t } = useTranslation();
  if (!lock) return null;
  return (
    <Badge
      color="gray"
      variant="filled"
      leftSection={<IconLock size={12} aria-hidden />}
      data-testid="record-lock-badge"
    >
      {t('signatures.lockedBadge')}
    </Badge>
  );
}

/**
 * Said where a locked record's edit actions are (they stay, disabled): no change at all until an
 * administrator unlocks it with a reason (ADR 048).
 */
export function RecordLockedNotice({ lock }: { lock: RecordLockState | null | undefined }) {
  const { t } = useTranslation();
  if (!lock) return null;
  return (
    <Alert color="gray" icon={<IconLock size={18} aria-hidden />} data-testid="record-locked">
      {t('signatures.lockedNotice', {
        at: formatDateTime(lock.locked_at),
        by: lock.by?.login ?? '–',
      })}
    </Alert>
  );
}

function SignDialog({
  type,
  recordId,
  rows,
  opened,
  onClose,
}: {
  type: SignedRecordType;
  recordId: number;
  rows: readonly SignedRow[];
  opened: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const session = useSession();
  const sign = useSignRecord(type, recordId);
  const [meaning, setMeaning] = useState<SignatureMeaning | null>(null);
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ meaning?: string; password?: string }>({});
  const [refusal, setRefusal] = useState<string | null>(null);

  function close() {
    setPassword('');
    setErrors({});
    setRefusal(null);
    setMeaning(null);
    onClose();
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    setRefusal(null);
    const missing = {
      ...(meaning ? {} : { meaning: t('signatures.meaningRequired') }),
      ...(password ? {} : { password: t('signatures.passwordRequired') }),
    };
    setErrors(missing);
    if (!meaning || !password) return;
    sign.mutate(
      { meaning, password },
      {
        onSuccess: () => {
          notifySuccess(t('signatures.signed'));
          close();
        },
        onError: (error) => {
          // The password is typed again after every refusal (it is never kept).
          setPassword('');
          const fields = serverFieldErrors(error);
          if (fields.password) setErrors({ password: fields.password });
          else if (isApiError(error) && error.httpStatus === 429)
            setRefusal(t('auth.tooManyAttempts'));
          else if (isApiError(error) && error.status === 'already_signed')
            setRefusal(t('signatures.alreadySigned'));
          else if (isApiError(error) && error.status === 'not_signable')
            setRefusal(t('signatures.notSignable'));
          else setRefusal(t(commonErrorKey(error)));
        },
      },
    );
  }

  const signer = session ? sessionSignerName(session.user) : '–';
  return (
    <Modal
      opened={opened}
      onClose={close}
      title={t('signatures.dialogTitle')}
      size="lg"
      centered
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <form onSubmit={submit} noValidate aria-busy={sign.isPending}>
        <Stack gap="md">
          <Table.ScrollContainer minWidth={280}>
            <Table verticalSpacing={4} data-testid="signed-content">
              <Table.Caption>{t('signatures.contentCaption')}</Table.Caption>
              <Table.Tbody>
                {rows.map(([label, value]) => (
                  <Table.Tr key={label}>
                    <Table.Th scope="row" fw={500} w="40%">
                      {label}
                    </Table.Th>
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>{value}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Radio.Group
            label={t('signatures.meaning')}
            value={meaning}
            onChange={(value) => {
              setMeaning(SIGNATURE_MEANINGS.find((known) => known === value) ?? null);
              setErrors((current) => ({ ...current, meaning: undefined }));
            }}
            error={errors.meaning}
            required
          >
            <Group mt="xs" gap="lg">
              {SIGNATURE_MEANINGS.map((value) => (
                <Radio key={value} value={value} label={t(`signatures.meanings.${value}`)} />
              ))}
            </Group>
          </Radio.Group>
          <div>
            <Text size="sm" fw={500}>
              {t('signatures.signer')}
            </Text>
            <Text size="sm" data-testid="signer-name">
              {signer}
            </Text>
          </div>
          <PasswordInput
            label={t('signatures.password')}
            description={t('signatures.passwordHint')}
            value={password}
            onChange={(event) => {
              setPassword(event.currentTarget.value);
              setErrors((current) => ({ ...current, password: undefined }));
            }}
            error={errors.password}
            autoComplete="current-password"
            required
            data-autofocus
          />
          {refusal && (
            <Alert color="red" role="alert">
              {refusal}
            </Alert>
          )}
          <Text size="xs" c="dimmed">
            {t('signatures.statement')}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('common.cancel')}
            </Button>
            <Button
              type="submit"
              loading={sign.isPending}
              leftSection={<IconSignature size={16} aria-hidden />}
            >
              {t('signatures.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function SignatureItem({ signature }: { signature: Signature }) {
  const { t } = useTranslation();
  const shown = manifestation(signature, plainTranslate(t));
  return (
    <Stack component="li" gap={2} data-testid="signature">
      <Group gap="xs" wrap="wrap">
        <Text size="sm" fw={600} td={shown.valid ? undefined : 'line-through'}>
          {shown.name}
        </Text>
        <Text size="sm">{shown.at}</Text>
        <Badge variant="light" color={shown.valid ? 'teal' : 'gray'}>
          {shown.meaning}
        </Badge>
      </Group>
      {!shown.valid && (
        <Text size="sm" c="red.9" data-testid="signature-invalidated">
          {t('signatures.invalidated')}
          {shown.invalidatedAt && ` (${shown.invalidatedAt})`}
        </Text>
      )}
    </Stack>
  );
}

/**
 * "Podpisy elektroniczne" of a visit card or a sample (ADR 050): every signature's manifestation
 * (valid and invalidated), "Podpisz" when the server says the user may sign, and the
 * administrator's lock and unlock, each asking a reason (ADR 048).
 */
export function SignaturesSection({
  type,
  record,
  rows,
}: {
  type: SignedRecordType;
  record: SignableRecord;
  rows: readonly SignedRow[];
}) {
  const { t } = useTranslation();
  const [signing, setSigning] = useState(false);
  const lock = useRecordLock(type, record.id);
  const abilities = record.record_abilities;
  const signatures = record.signatures ?? [];
  const title = t('signatures.title');

  async function changeLock(action: 'lock' | 'unlock') {
    const reason = await askReason(
      t(action === 'lock' ? 'signatures.lockReason' : 'signatures.unlockReason'),
    );
    if (!reason) return;
    lock.mutate(
      { action, reason },
      {
        onSuccess: () =>
          notifySuccess(t(action === 'lock' ? 'signatures.lockDone' : 'signatures.unlockDone')),
        onError: (error) => {
          if (isApiError(error) && error.status === 'not_signed')
            notifyError(t('signatures.notSigned'), { sticky: true });
          else notifyError(t(commonErrorKey(error)));
        },
      },
    );
  }

  return (
    <Card withBorder padding="md" component="section" aria-label={title}>
      <Group justify="space-between" align="center" mb="sm" gap="sm" wrap="wrap">
        <Group gap="sm">
          <Title order={2} size="h4">
            {title}
          </Title>
          <RecordLockBadge lock={record.lock} />
        </Group>
        <Group gap="xs">
          {abilities?.sign && (
            <Button
              size="xs"
              leftSection={<IconSignature size={14} aria-hidden />}
              onClick={() => setSigning(true)}
            >
              {t('signatures.sign')}
            </Button>
          )}
          {abilities?.lock && (
            <Button
              size="xs"
              variant="default"
              loading={lock.isPending}
              leftSection={<IconLock size={14} aria-hidden />}
              onClick={() => void changeLock('lock')}
            >
              {t('signatures.lock')}
            </Button>
          )}
          {abilities?.unlock && (
            <Button
              size="xs"
              variant="default"
              loading={lock.isPending}
              leftSection={<IconLockOpen size={14} aria-hidden />}
              onClick={() => void changeLock('unlock')}
            >
              {t('signatures.unlock')}
            </Button>
          )}
        </Group>
      </Group>
      {signatures.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('signatures.none')}
        </Text>
      ) : (
        <Stack component="ul" gap="sm" m={0} p={0} style={{ listStyle: 'none' }}>
          {signatures.map((signature) => (
            <SignatureItem key={signature.id} signature={signature} />
          ))}
        </Stack>
      )}
      {abilities?.sign && (
        <SignDialog
          type={type}
          recordId={record.id}
          rows={rows}
          opened={signing}
          onClose={() => setSigning(false)}
        />
      )}
    </Card>
  );
}
