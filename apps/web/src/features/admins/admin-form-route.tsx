import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { commonErrorKey } from '../../lib/api-errors';
import { notifyError } from '../../lib/notify';
import { AdminFormModal } from './admin-form-modal';
import { useAdmin } from './admins-api';

const LIST = '/admins';

/** /admins/create */
export function AdminCreateRoute() {
  const navigate = useNavigate();
  return <AdminFormModal admin={null} onClose={() => void navigate(LIST)} />;
}

/** /admins/{id}/edit: loads the administrator, then shows the dialog. */
export function AdminEditRoute() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const params = useParams();
  const id = Number(params.id);
  const valid = Number.isInteger(id) && id > 0;
  const admin = useAdmin(valid ? id : null);

  useEffect(() => {
    if (!valid || admin.isError) {
      notifyError(t(admin.isError ? commonErrorKey(admin.error) : 'common.notFound'));
      void navigate(LIST, { replace: true });
    }
  }, [valid, admin.isError, admin.error, navigate, t]);

  return (
    <AdminFormModal
      admin={admin.data ?? null}
      loading={!admin.data}
      onClose={() => void navigate(LIST)}
    />
  );
}
