import { Anchor, Select, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ADMIN_KINDS, adminBody, STRING_MAX } from '@portal/shared';
import type { Admin } from '@portal/shared';
import { AccountFormModal } from '../../components/account-form-modal';
import { isApiError } from '../../lib/api';
import { useSession } from '../../lib/session';
import { usePrintAdminLogin, useReloadAdmin, useSaveAdmin } from './admins-api';

const CHANGE_PASSWORD = '/changepassword';

// The kind of account (an administrator or the IOD, ADR 053) is chosen once, on creation: an
// update does not take it.
const initialValues = (admin: Admin | null) => ({
  login: admin?.login ?? '',
  role: admin?.role ?? ('admin' as const),
});

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
  const session = useSession();
  // Only administrators reach this dialog, and their logins are unique (the administrator record
  // carries no account id to compare).
  const ownAccount = !!admin && session?.user.login === admin.login;
  return (
    <AccountFormModal
      account={admin}
      loading={loading}
      onClose={onClose}
      titles={{ create: t('admins.createTitle'), edit: t('admins.editTitle') }}
      schema={adminBody}
      initialValues={initialValues}
      save={useSaveAdmin(admin?.id ?? null)}
      reload={useReloadAdmin(admin?.id ?? null)}
      printLogin={{
        label: t('admins.printLogin'),
        mutation: usePrintAdminLogin(),
        kind: 'admin',
        name: (current) => current.login,
        offered: !ownAccount,
        refusal: (error) =>
          isApiError(error) && error.status === 'own_account' ? t('admins.ownAccount') : undefined,
      }}
    >
      {(form) => (
        <>
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
        </>
      )}
    </AccountFormModal>
  );
}
