import { Center, Loader } from '@mantine/core';
import { useEffect, useReducer } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { patientUpdateBody } from '@portal/shared';
import type { PatientDetail } from '@portal/shared';
import { commonErrorKey, isStaleVersion } from '../../../lib/api-errors';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useCan } from '../../../lib/permissions';
import { usePatient, useUpdatePatient } from '../../../entities/patients/patients-api';
import { PatientWizard } from './patient-wizard';
import { submitFailure } from './submit-errors';
import { stateFromDetail, toUpdateBody, wizardReducer } from './wizard-state';

const LIST = '/patients';

/** /patients/{id}/edit: 'Edycja danych pacjenta', loaded from GET /patients/{id}. */
export function PatientEditPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const params = useParams();
  const id = Number(params.id);
  const valid = Number.isInteger(id) && id > 0;
  const patient = usePatient(valid ? id : null);

  useEffect(() => {
    if (!valid || patient.isError) {
      notifyError(t(patient.isError ? commonErrorKey(patient.error) : 'common.notFound'));
      void navigate(LIST, { replace: true });
    }
  }, [valid, patient.isError, patient.error, navigate, t]);

  if (!patient.data) {
    return (
      <Center py="xl">
        <Loader role="status" aria-label={t('app.loading')} />
      </Center>
    );
  }
  return (
    <EditWizard
      key={patient.data.id}
      detail={patient.data}
      reload={async () => (await patient.refetch()).data?.version}
    />
  );
}

/**
 * The wizard copies the record once (reducer); a refetch after a 409 conflict only hands over the
 * stored version, so that what the user typed stays and the next save goes through.
 */
function EditWizard({
  detail,
  reload,
}: {
  detail: PatientDetail;
  reload: () => Promise<number | undefined>;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const can = useCan();
  const [state, dispatch] = useReducer(wizardReducer, detail, stateFromDetail);
  const update = useUpdatePatient(detail.id);

  return (
    <PatientWizard
      title={t('patients.wizard.editTitle')}
      state={state}
      dispatch={dispatch}
      schema={patientUpdateBody}
      toBody={toUpdateBody}
      busy={update.isPending}
      patientId={detail.id}
      onCancelEdit={() => void navigate(LIST)}
      lockedUnit={!can('patients.all_units')}
      knownUnit={detail.unit}
      knownDoctor={{ ...detail.doctor, unit_id: detail.unit_id }}
      onSubmit={(body) =>
        update.mutate(body, {
          onSuccess: () => {
            notifySuccess(t('patients.updated'));
            void navigate(LIST);
          },
          onError: (error) => {
            if (isStaleVersion(error)) {
              // Said once the stored version is in the form, so that saving again wins.
              reload().then(
                (version) => {
                  if (version) dispatch({ type: 'setVersion', version });
                  notifyError(t('common.conflict'));
                },
                (reloadError: unknown) => notifyError(t(commonErrorKey(reloadError))),
              );
              return;
            }
            const failure = submitFailure(error);
            if (failure.kind === 'exist_patient') notifyError(t('patients.exist'));
            else if (failure.kind === 'validation') {
              dispatch({ type: 'setErrors', errors: failure.errors, goToFirst: true });
              notifyError(t('common.validationError'));
            } else if (failure.kind === 'forbidden') notifyError(t('common.forbidden'));
            else if (failure.kind === 'not_found') notifyError(t('common.notFound'));
            else notifyError(t('patients.serverError'));
          },
        })
      }
    />
  );
}
