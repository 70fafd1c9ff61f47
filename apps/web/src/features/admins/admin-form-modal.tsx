import { Anchor, Button, Select, Text, TextInput } from '@mantine/core';
import { IconPrinter } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ADMIN_KINDS, adminBody, STRING_MAX } from '@portal/shared';
import type { Admin } from '@portal/shared';
import { confirmNewPassword } from '../../components/confirm';
import { useCredentialsSheet } from '../../components/credentials-modal';
import { FormModal } from '../../components/form-modal';
import { isApiError } from '../../lib/api';
import { commonErrorKey } from '../../lib/api-errors';
import { notifyError, notifySuccess } from '../../lib/notify';
import { handleSaveError } from '../../lib/save-error';
import { useSession } from '../../lib/session';
import { useZodForm } from '../../lib/use-zod-form';
import { usePrintAdminLogin, useReloadAdmin, useSaveAdmin } from './admins-api';

const CHANGE_PASSWORD = '/changepassword';

/**
 * Add or edit an administrator; when editing another administrator, new login details can be
 * generated and printed. The own account is not offered them: the new password would end the
 * own session before it was shown, so the own password is changed on the change-password screen.
 */
export function AdminFormModal({
  admin,
  loading = false,
  onClose,
}: {
  admin: Admin | null;
  loading?: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const save = useSaveAdmin(admin?.id ?? null);
  const reload = useReloadAdmin(admin?.id ?? null);
  const printLogin = usePrintAdminLogin();
  const credentials = useCredentialsSheet();
  const session = useSession();
  // Only administrators reach this dialog, and their logins are unique (the administrator record
  // carries no account id to compare).
  const ownAccount = !!admin && session?.user.login === admin.login;
  // The kind of account (an administrator or the IOD, ADR 053) is chosen once, on creation.
  const form = useZodForm(adminBody, { login: admin?.login ?? '', role: 'admin' });
  // The edited administrator arrives after the dialog opened: fill the form then (no effect).
  const [shownAdmin, setShownAdmin] = useState(admin);
  // The version this form edits: the loaded one, replaced only after a 409 conflict.
  const [version, setVersion] = useState(admin?.version);
  if (admin !== shownAdmin) {
    setShownAdmin(admin);
    // A refetch of the same administrator (after a conflict) keeps what was typed.
    if (admin?.id !== shownAdmin?.id) {
      form.reset({ login: admin?.login ?? '', role: admin?.role ?? 'admin' });
      setVersion(admin?.version);
    }
  }

  const submit = form.onSubmit((body) =>
    save.mutate(
      { body, version },
      {
        onSuccess: () => {
          notifySuccess(t('common.saved'));
          onClose();
        },
        onError: (error) =>
          handleSaveError(error, {
            setServerErrors: form.setServerErrors,
            reload,
            setVersion,
            t,
          }),
      },
    ),
  );

  // Asked first: the administrator's current password stops working once the server answers.
  function print(current: Admin) {
    confirmNewPassword(() => generate(current));
  }

  function generate(current: Admin) {
    printLogin.mutate(current.id, {
      onSuccess: (details) => credentials.open({ details, kind: 'admin', name: current.login }),
      onError: (error) =>
        notifyError(
          isApiError(error) && error.status === 'own_account'
            ? t('admins.ownAccount')
            : t(commonErrorKey(error)),
        ),
    });
  }

  return (
    <>
      <FormModal
        opened
        title={admin || loading ? t('admins.editTitle') : t('admins.createTitle')}
        onClose={onClose}
        onSubmit={submit}
        saving={save.isPending}
        loading={loading}
        extraActions={
          admin &&
          !ownAccount && (
            <Button
              variant="light"
              leftSection={<IconPrinter size={16} aria-hidden />}
              loading={printLogin.isPending}
              onClick={() => print(admin)}
            >
              {t('admins.printLogin')}
            </Button>
          )
        }
      >
        <TextInput
          label={t('admins.login')}
          required
          maxLength={STRING_MAX}
          autoComplete="off"
          data-autofocus
          {...form.getInputProps('login')}
        />
        {!admin && (
          <Select
            label={t('admins.role')}
            data={ADMIN_KINDS.map((kind) => ({
              value: kind,
              label: t(kind === 'iod' ? 'admins.roleIod' : 'admins.roleAdmin'),
            }))}
            allowDeselect={false}
            value={form.values.role}
            onChange={(value) => form.setFieldValue('role', value === 'iod' ? 'iod' : 'admin')}
          />
        )}
        {ownAccount && (
          <Text size="sm">
            {t('admins.ownPasswordHint')}{' '}
            <Anchor component={Link} to={CHANGE_PASSWORD} size="sm">
              {t('nav.changePassword')}
            </Anchor>
          </Text>
        )}
      </FormModal>
      {credentials.modal}
    </>
  );
}
