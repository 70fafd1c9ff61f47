import { Button, TextInput } from '@mantine/core';
import { IconPrinter } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminBody, STRING_MAX } from '@portal/shared';
import type { Admin } from '@portal/shared';
import { useCredentialsSheet } from '../../components/credentials-modal';
import { FormModal } from '../../components/form-modal';
import { commonErrorKey, isStaleVersion, serverFieldErrors } from '../../lib/api-errors';
import { notifyError, notifySuccess } from '../../lib/notify';
import { useZodForm } from '../../lib/use-zod-form';
import { usePrintAdminLogin, useReloadAdmin, useSaveAdmin } from './admins-api';

/** Add or edit an administrator; when editing, new login details can be generated and printed. */
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
  const form = useZodForm(adminBody, { login: admin?.login ?? '' });
  // The edited administrator arrives after the dialog opened: fill the form then (no effect).
  const [shownAdmin, setShownAdmin] = useState(admin);
  // The version this form edits: the loaded one, replaced only after a 409 conflict.
  const [version, setVersion] = useState(admin?.version);
  if (admin !== shownAdmin) {
    setShownAdmin(admin);
    // A refetch of the same administrator (after a conflict) keeps what was typed.
    if (admin?.id !== shownAdmin?.id) {
      form.reset({ login: admin?.login ?? '' });
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
        onError: (error) => {
          if (isStaleVersion(error)) {
            // Said once the stored version is in the form, so that saving again right away wins.
            reload().then(
              (fresh) => {
                setVersion(fresh?.version);
                notifyError(t('common.conflict'));
              },
              (reloadError: unknown) => notifyError(t(commonErrorKey(reloadError))),
            );
            return;
          }
          const fields = serverFieldErrors(error);
          if (Object.keys(fields).length > 0) form.setServerErrors(fields);
          else notifyError(t(commonErrorKey(error)));
        },
      },
    ),
  );

  function print(current: Admin) {
    printLogin.mutate(current.id, {
      onSuccess: (details) => credentials.open({ details, kind: 'admin', name: current.login }),
      onError: (error) => notifyError(t(commonErrorKey(error))),
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
          admin && (
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
      </FormModal>
      {credentials.modal}
    </>
  );
}
