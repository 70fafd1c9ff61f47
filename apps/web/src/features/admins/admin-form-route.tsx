import { useNavigate } from 'react-router';
import { useRouteRecord } from '../../components/use-route-record';
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
  const edit = useRouteRecord(useAdmin, LIST);
  return <AdminFormModal admin={edit.record} loading={edit.loading} onClose={edit.close} />;
}
