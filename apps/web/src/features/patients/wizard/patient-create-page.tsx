import { modals } from '@mantine/modals';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { patientCreateBody } from '@portal/shared';
import type { SessionUser } from '@portal/shared';
import type { z } from 'zod';
import { confirmAction } from '../../../components/confirm';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { can } from '../../../lib/permissions';
import { useSession } from '../../../lib/session';
import { useNextProjectNumber, useRegisterPatient } from '../../../entities/patients/patients-api';
import { handOverCredentials } from '../registration-credentials';
import { resetCreationDraft, useCreationDraft } from './creation-draft';
import { PatientWizard } from './patient-wizard';
import { submitFailure } from './submit-errors';
import { toCreateBody } from './wizard-state';
import type { WizardAction } from './wizard-state';

const LIST = '/patients';

type CreateBody = z.output<typeof patientCreateBody>;

/** /patients/create: 'Rejestracja nowego pacjenta'. */
export function PatientCreatePage() {
  const session = useSession();
  // Behind RequireSession there is always a session.
  return session ? <CreateWizard user={session.user} /> : null;
}

function CreateWizard({
  user,
}: {
  user: Pick<SessionUser, 'id' | 'permissions' | 'unit_id' | 'doctor_id'>;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  // Without patients.all_units (a doctor) the patient belongs to the own unit and doctor.
  const ownUnitOnly = !can(user, 'patients.all_units');
  const [state, dispatch] = useCreationDraft({
    id: user.id,
    unit_id: ownUnitOnly ? user.unit_id : null,
    doctor_id: ownUnitOnly ? user.doctor_id : null,
  });
  const register = useRegisterPatient();
  // The next free project number, offered in the field and editable (ADR 041): filled once per
  // offer while the field is empty, so a number the user typed or cleared is left alone.
  const next = useNextProjectNumber();
  const offered = useRef<string | null>(null);
  const typedNumber = state.personal.project_number;
  useEffect(() => {
    const number = next.data?.project_number;
    if (!number || offered.current === number) return;
    offered.current = number;
    if (typedNumber === '')
      dispatch({ type: 'setPersonal', field: 'project_number', value: number });
  }, [next.data, typedNumber, dispatch]);

  function send(body: CreateBody, print: boolean) {
    register.mutate(body, {
      onSuccess: ({ patient }) => {
        notifySuccess(t('patients.created'));
        resetCreationDraft();
        // "Drukuj": the list opens the login details sheet; closing it leaves the user there.
        if (print) handOverCredentials(patient);
        void navigate(LIST);
      },
      onError: (error) => {
        const failure = submitFailure(error);
        if (failure.kind === 'exist_patient') notifyError(t('patients.exist'));
        else if (failure.kind === 'validation') {
          const action: WizardAction = {
            type: 'setErrors',
            errors: failure.errors,
            goToFirst: true,
          };
          dispatch(action);
          notifyError(t('common.validationError'));
        } else if (failure.kind === 'forbidden') notifyError(t('common.forbidden'));
        else notifyError(t('patients.serverError'));
      },
    });
  }

  function askPrint(body: CreateBody) {
    modals.openConfirmModal({
      title: t('patients.wizard.printQuestion'),
      centered: true,
      withCloseButton: false,
      labels: { confirm: t('patients.wizard.print'), cancel: t('patients.wizard.printCancel') },
      onCancel: () => send(body, false),
      onConfirm: () => send(body, true),
    });
  }

  // An abandoned registration must not linger: everything typed, consent included, goes.
  function askClear() {
    confirmAction({
      question: t('patients.wizard.clearQuestion'),
      detail: t('patients.wizard.clearDetail'),
      confirmLabel: t('patients.wizard.clearConfirm'),
      cancelLabel: t('common.cancel'),
      danger: true,
      onConfirm: () => {
        resetCreationDraft();
        // The emptied form is offered the number again.
        offered.current = null;
        void next.refetch();
      },
    });
  }

  return (
    <PatientWizard
      title={t('patients.wizard.createTitle')}
      state={state}
      dispatch={dispatch}
      schema={patientCreateBody}
      toBody={toCreateBody}
      onSubmit={askPrint}
      onClear={askClear}
      busy={register.isPending}
      lockedUnit={ownUnitOnly && user.unit_id !== null}
    />
  );
}
