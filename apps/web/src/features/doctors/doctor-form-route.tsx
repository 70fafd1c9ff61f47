import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { commonErrorKey } from '../../lib/api-errors';
import { notifyError } from '../../lib/notify';
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
  const { t } = useTranslation();
  const navigate = useNavigate();
  const params = useParams();
  const id = Number(params.id);
  const valid = Number.isInteger(id) && id > 0;
  const doctor = useDoctor(valid ? id : null);

  useEffect(() => {
    if (!valid || doctor.isError) {
      notifyError(t(doctor.isError ? commonErrorKey(doctor.error) : 'common.notFound'));
      void navigate(LIST, { replace: true });
    }
  }, [valid, doctor.isError, doctor.error, navigate, t]);

  return (
    <DoctorFormModal
      doctor={doctor.data ?? null}
      loading={!doctor.data}
      onClose={() => void navigate(LIST)}
    />
  );
}
