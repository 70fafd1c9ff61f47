import { useNavigate } from 'react-router';
import { useRouteRecord } from '../../components/use-route-record';
import { DoctorFormModal } from './doctor-form-modal';
import { useDoctor } from './doctors-api';

const LIST = '/doctors';

/** /doctors/create */
export function DoctorCreateRoute() {
  const navigate = useNavigate();
  return <DoctorFormModal doctor={null} onClose={() => void navigate(LIST)} />;
}

/** /doctors/{id}/edit: loads the doctor, then shows the dialog; a missing one returns to the list. */
export function DoctorEditRoute() {
  const edit = useRouteRecord(useDoctor, LIST);
  return <DoctorFormModal doctor={edit.record} loading={edit.loading} onClose={edit.close} />;
}
