import { Alert, Button, Center, Group, Loader, Stepper, Title } from '@mantine/core';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import {
  IconArrowLeft,
  IconArrowRight,
  IconDeviceFloppy,
  IconEraser,
  IconUserPlus,
} from '@tabler/icons-react';
import { useEffect, useRef } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { SEARCH_DEBOUNCE_MS } from '@portal/shared';
import { useCriteriaGroups, useExclusionCriteria, useMedicines } from '../../../api/lookups';
import { PageHeader } from '../../../components/page-header';
import { validateWith } from '../../../lib/form-validation';
import { translateCodes } from '../../../lib/use-zod-form';
import { hideToast, notifyError, notifyWarning } from '../../../lib/notify';
import { usePeselStatus } from '../../../entities/patients/patients-api';
import { InclusionStep } from './inclusion-step';
import { MedicinesStep } from './medicines-step';
import { PersonalStep } from './personal-step';
import { QualificationStep } from './qualification-step';
import classes from './wizard.module.css';
import { LAST_STEP, STEPS, inclusionMissing, stepOfField } from './wizard-state';
import type { RawPatientBody, WizardAction, WizardState } from './wizard-state';

/** The wizard's validation toasts, taken away once what they ask for is done (ADR 039). */
const INCLUSION_TOAST = 'wizard-inclusion-missing';
const INVALID_TOAST = 'wizard-invalid';

// Below 960 px the stepper shows numbers only and the step's name moves into the heading.
const COMPACT_QUERY = '(max-width: 59.99em)';

/** After a refused step the keyboard lands on the first field that needs attention. */
function focusFirstInvalid(container: HTMLElement | null) {
  window.setTimeout(() => {
    const field = container?.querySelector<HTMLElement>('[aria-invalid="true"]');
    field?.focus();
  }, 50);
}

export interface PatientWizardProps<S extends z.ZodType> {
  title: string;
  state: WizardState;
  dispatch: (action: WizardAction) => void;
  /** The shared schema of the request: `patientCreateBody` or `patientUpdateBody`. */
  schema: S;
  toBody: (state: WizardState) => RawPatientBody;
  /** Called with the validated body; the page sends it. */
  onSubmit: (body: z.output<S>) => void;
  busy: boolean;
  /** Edit: the patient, excluded from the PESEL check and shown as the participant number. */
  patientId?: number;
  /** Edit: back to the list without saving. */
  onCancelEdit?: () => void;
  /** Registration: "Wyczyść formularz" (the page asks first, then empties every step). */
  onClear?: () => void;
  lockedUnit: boolean;
  knownUnit?: { id: number; name: string };
  knownDoctor?: { id: number; firstname: string; surname: string; unit_id: number };
}

/**
 * The four-step wizard shared by registration and editing (docs/product-rules.md "Patient wizard"):
 * a numbered stepper whose steps can be clicked, the step's form, and the step's buttons.
 */
export function PatientWizard<S extends z.ZodType>(props: PatientWizardProps<S>) {
  const { state, dispatch, schema, toBody, busy } = props;
  const { t } = useTranslation();
  const compact = useMediaQuery(COMPACT_QUERY, false, { getInitialValueInEffect: false });
  const groups = useCriteriaGroups();
  const medicines = useMedicines();
  const criteria = useExclusionCriteria();
  const heading = useRef<HTMLHeadingElement>(null);
  const content = useRef<HTMLDivElement>(null);
  const shownStep = useRef(state.step);

  // Live PESEL check once 11 digits are typed (debounced like the list search).
  const pesel = state.personal.pesel;
  const [checkedPesel] = useDebouncedValue(pesel, SEARCH_DEBOUNCE_MS);
  const peselStatus = usePeselStatus(checkedPesel, props.patientId);
  const complete = /^\d{11}$/.test(pesel);
  const answered = complete && checkedPesel === pesel && peselStatus.data !== undefined;
  let peselError: string | undefined;
  if (answered && peselStatus.data === 'exist_patient') peselError = t('validation.pesel_taken');
  if (answered && peselStatus.data === 'validation_error') {
    peselError = t('validation.invalid_pesel');
  }
  const peselChecking = complete && (checkedPesel !== pesel || peselStatus.isFetching);

  // A new step: the heading takes the focus, so keyboard and screen-reader users start at its top.
  useEffect(() => {
    if (shownStep.current === state.step) return;
    shownStep.current = state.step;
    window.scrollTo({ top: 0 });
    heading.current?.focus({ preventScroll: true });
  }, [state.step]);

  // A validation toast leaves when its step is fixed, and with the wizard.
  const inclusionChosen = !inclusionMissing(state);
  const errorCount = Object.keys(state.errors).length;
  useEffect(() => {
    if (inclusionChosen) hideToast(INCLUSION_TOAST);
  }, [inclusionChosen]);
  useEffect(() => {
    if (errorCount === 0) hideToast(INVALID_TOAST);
  }, [errorCount]);
  useEffect(
    () => () => {
      hideToast(INCLUSION_TOAST);
      hideToast(INVALID_TOAST);
    },
    [],
  );

  const stepLabels: Record<(typeof STEPS)[number], string> = {
    personal: t('patients.wizard.steps.personal'),
    inclusion: t('patients.wizard.steps.inclusion'),
    medicines: t('patients.wizard.steps.medicines'),
    qualification: t('patients.wizard.steps.qualification'),
  };
  const stepName = STEPS[state.step] ?? 'personal';

  /** Client-side messages of the whole form (shared schema plus the live PESEL answer). */
  function formErrors(): { errors: Record<string, string>; data?: z.output<S> } {
    const result = validateWith(schema, toBody(state));
    const errors = result.ok ? {} : translateCodes(t, result.codes);
    if (peselError) errors['personal.pesel'] ??= peselError;
    return Object.keys(errors).length || !result.ok ? { errors } : { errors, data: result.data };
  }

  function selectAnyInclusion() {
    notifyWarning(t('patients.createPatient.inclusion.selectAnyInclusion'), {
      id: INCLUSION_TOAST,
    });
    dispatch({ type: 'goTo', step: 1 });
  }

  function next() {
    const step = state.step;
    if (step === 1 && inclusionMissing(state)) {
      selectAnyInclusion();
      return;
    }
    const onStep = ([key]: [string, string]) => stepOfField(key) === step;
    const stepErrors = Object.entries(formErrors().errors).filter(onStep);
    const kept = Object.entries(state.errors).filter((entry) => !onStep(entry));
    dispatch({ type: 'setErrors', errors: Object.fromEntries([...kept, ...stepErrors]) });
    if (stepErrors.length) {
      focusFirstInvalid(content.current);
      return;
    }
    dispatch({ type: 'goTo', step: step + 1 });
  }

  function submit() {
    if (inclusionMissing(state)) {
      selectAnyInclusion();
      return;
    }
    const { errors, data } = formErrors();
    if (data === undefined) {
      dispatch({ type: 'setErrors', errors, goToFirst: true });
      notifyError(t('common.validationError'), { id: INVALID_TOAST });
      focusFirstInvalid(content.current);
      return;
    }
    props.onSubmit(data);
  }

  const lookupsPending = groups.isPending || medicines.isPending || criteria.isPending;
  const lookupsFailed = groups.isError || medicines.isError || criteria.isError;
  let body: ReactNode;
  if (state.step > 0 && lookupsFailed) {
    body = (
      <Alert color="red" role="alert">
        {t('list.loadError')}
      </Alert>
    );
  } else if (state.step > 0 && lookupsPending) {
    body = (
      <Center py="xl">
        <Loader role="status" aria-label={t('app.loading')} />
      </Center>
    );
  } else if (stepName === 'personal') {
    body = (
      <PersonalStep
        mode={state.mode}
        values={state.personal}
        errors={state.errors}
        dispatch={dispatch}
        {...(props.patientId === undefined ? {} : { participantId: props.patientId })}
        peselError={peselError}
        peselChecking={peselChecking}
        lockedUnit={props.lockedUnit}
        {...(props.knownUnit ? { knownUnit: props.knownUnit } : {})}
        {...(props.knownDoctor ? { knownDoctor: props.knownDoctor } : {})}
      />
    );
  } else if (stepName === 'inclusion') {
    body = (
      <InclusionStep
        groups={groups.data ?? []}
        values={state.inclusion}
        errors={state.errors}
        dispatch={dispatch}
      />
    );
  } else if (stepName === 'medicines') {
    body = (
      <MedicinesStep
        medicines={medicines.data ?? []}
        selected={state.medicines}
        others={state.additional_medicines}
        nextKey={state.nextKey}
        errors={state.errors}
        dispatch={dispatch}
      />
    );
  } else {
    body = (
      <QualificationStep
        criteria={criteria.data ?? []}
        values={state.exclusion}
        errors={state.errors}
        dispatch={dispatch}
      />
    );
  }

  const edit = state.mode === 'edit';
  const last = state.step === LAST_STEP;

  return (
    <>
      <PageHeader title={props.title} />
      <Stepper
        active={state.step}
        onStepClick={(step) => dispatch({ type: 'goTo', step })}
        size={compact ? 'sm' : 'md'}
        wrap={false}
        contentPadding={0}
        mb="lg"
      >
        {STEPS.map((name, index) => {
          // The number and "Krok n" repeat what the aria-label says; hidden from the name's
          // content, the visible label stays a part of the accessible name (WCAG 2.5.3).
          const number = <span aria-hidden>{index + 1}</span>;
          return (
            <Stepper.Step
              key={name}
              label={compact ? undefined : stepLabels[name]}
              description={
                compact ? undefined : (
                  <span aria-hidden>{t('patients.wizard.stepNumber', { step: index + 1 })}</span>
                )
              }
              aria-label={t('patients.wizard.stepOf', {
                step: index + 1,
                total: STEPS.length,
                label: stepLabels[name],
              })}
              aria-current={index === state.step ? 'step' : undefined}
              icon={number}
              progressIcon={number}
              completedIcon={number}
              allowStepSelect
            />
          );
        })}
      </Stepper>

      <Title
        order={2}
        size="h3"
        mb="md"
        ref={heading}
        tabIndex={-1}
        className={classes.stepHeading}
      >
        {compact
          ? t('patients.wizard.stepOf', {
              step: state.step + 1,
              total: STEPS.length,
              label: stepLabels[stepName],
            })
          : stepLabels[stepName]}
      </Title>

      <div ref={content}>{body}</div>

      <Group className={classes.footer} justify="space-between" gap="sm">
        {edit ? (
          <Button variant="subtle" color="gray" onClick={props.onCancelEdit} disabled={busy}>
            {t('patients.wizard.cancelEdit')}
          </Button>
        ) : props.onClear ? (
          <Button
            variant="subtle"
            color="gray"
            leftSection={<IconEraser size={16} aria-hidden />}
            onClick={props.onClear}
            disabled={busy}
          >
            {t('patients.wizard.clear')}
          </Button>
        ) : (
          <span />
        )}
        <Group gap="sm" ml="auto">
          {state.step > 0 && (
            <Button
              variant="default"
              leftSection={<IconArrowLeft size={16} aria-hidden />}
              onClick={() => dispatch({ type: 'goTo', step: state.step - 1 })}
            >
              {t('patients.wizard.back')}
            </Button>
          )}
          {!last && (
            <Button
              variant={edit ? 'light' : 'filled'}
              rightSection={<IconArrowRight size={16} aria-hidden />}
              onClick={next}
            >
              {t('patients.wizard.next')}
            </Button>
          )}
          {edit && (
            <Button
              leftSection={<IconDeviceFloppy size={16} aria-hidden />}
              onClick={submit}
              loading={busy}
            >
              {t('patients.wizard.save')}
            </Button>
          )}
          {!edit && last && (
            <Button
              leftSection={<IconUserPlus size={16} aria-hidden />}
              onClick={submit}
              loading={busy}
            >
              {t('patients.wizard.register')}
            </Button>
          )}
        </Group>
      </Group>
    </>
  );
}
