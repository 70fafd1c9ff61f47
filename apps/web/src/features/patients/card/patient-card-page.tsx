import {
  Alert,
  Anchor,
  Badge,
  Box,
  Button,
  Center,
  Group,
  Loader,
  Menu,
  Stack,
  Tabs,
  Title,
} from '@mantine/core';
import {
  IconArrowLeft,
  IconCheck,
  IconChevronDown,
  IconKey,
  IconLogout,
  IconPencil,
  IconRefresh,
  IconTrash,
} from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import type { PatientDetail } from '@portal/shared';
import { confirmAction, confirmNewPassword } from '../../../components/confirm';
import { useCredentialsSheet } from '../../../components/credentials-modal';
import { PatientAlertsBanner } from '../../../components/patient-alerts-banner';
import { useIsDesktop } from '../../../components/use-is-desktop';
import { isApiError } from '../../../lib/api';
import { commonErrorKey } from '../../../lib/api-errors';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useCan } from '../../../lib/permissions';
import { useSession } from '../../../lib/session';
import { useLogout } from '../../../lib/use-logout';
import { usePatient } from '../../../entities/patients/patients-api';
import { RecordQueries } from '../../../entities/monitoring/record-queries';
import { VerificationMark } from '../../../entities/monitoring/verification-mark';
import { PatientIdentityLine } from './identity-line';
import { AttachmentsTab } from './attachments-tab';
import { CARD_TABS, tabFrom } from './card-tabs';
import type { CardTab } from './card-tabs';
import { MedicinesTab } from './medicines-tab';
import { MessagesTab } from './messages-tab';
import { NotesTab } from './notes-tab';
import { useDeletePatient, useResetPatientPassword } from './patient-api';
import { PatientCopyMenu } from './patient-copy';
import { PersonalTab } from './personal-tab';
import { SamplesTab } from './samples-tab';
import { VisitsTab } from './visits-tab';

const PATIENTS_PATH = '/patients';

function CardHeader({ patient }: { patient: PatientDetail }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const credentials = useCredentialsSheet();
  const reset = useResetPatientPassword(patient.id);
  const remove = useDeletePatient(patient.id);
  const can = useCan();
  const deleted = !!patient.deleted_at;
  const { abilities } = patient;

  // Asked first: the patient's current password stops working once the server answers.
  function askResetPassword() {
    confirmNewPassword(resetPassword);
  }

  function resetPassword() {
    reset.mutate(undefined, {
      onSuccess: (details) =>
        credentials.open({
          details,
          kind: 'patient',
          name: `${patient.firstname} ${patient.surname}`,
        }),
      onError: (error) => notifyError(t(commonErrorKey(error))),
    });
  }

  function askDelete() {
    confirmAction({
      question: t('card.confirmDelete'),
      danger: true,
      onConfirm: () =>
        remove.mutate(undefined, {
          onSuccess: () => {
            notifySuccess(t('card.deleted'));
            void navigate(PATIENTS_PATH);
          },
          onError: (error) => notifyError(t(commonErrorKey(error))),
        }),
    });
  }

  return (
    <Stack gap="xs" mb="md">
      <Anchor component={Link} to={PATIENTS_PATH} size="sm" w="fit-content">
        <Group gap={4} component="span">
          <IconArrowLeft size={14} aria-hidden />
          {t('card.backToList')}
        </Group>
      </Anchor>
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
        <div>
          <Group gap="sm" align="center">
            <Title order={1} size="h2">
              {patient.surname} {patient.firstname}
            </Title>
            {deleted && (
              <Badge color="red" variant="filled" size="lg">
                {t('card.deletedBadge')}
              </Badge>
            )}
          </Group>
          <PatientIdentityLine patient={patient} />
          <VerificationMark
            recordType="patient"
            recordId={patient.id}
            facts={patient}
            canVerify={patient.abilities.verify}
          />
          {can('audit.read') && (
            <Anchor component={Link} to={`/audit_trial?patientIds=${patient.id}`} size="sm">
              {t('card.auditHistory')}
            </Anchor>
          )}
          {can('access_log.read') && (
            <Anchor
              component={Link}
              to={`/access_log?patientIds=${patient.id}`}
              size="sm"
              ml={can('audit.read') ? 'md' : 0}
            >
              {t('card.whoSaw')}
            </Anchor>
          )}
          {can('patients.export') && (
            <div>
              <PatientCopyMenu patientId={patient.id} />
            </div>
          )}
        </div>
        {/* Actions as the server allows them (ADR 045): a deleted patient is read-only. */}
        {(abilities.edit || abilities.delete) && (
          <Group gap="sm" wrap="wrap">
            {abilities.edit && (
              <Button
                variant="default"
                leftSection={<IconRefresh size={16} aria-hidden />}
                loading={reset.isPending}
                onClick={askResetPassword}
              >
                {t('card.resetPassword')}
              </Button>
            )}
            {abilities.delete && (
              <Button
                color="red"
                variant="light"
                leftSection={<IconTrash size={16} aria-hidden />}
                loading={remove.isPending}
                onClick={askDelete}
              >
                {t('card.delete')}
              </Button>
            )}
            {abilities.edit && (
              <Button
                component={Link}
                to={`${PATIENTS_PATH}/${patient.id}/edit`}
                leftSection={<IconPencil size={16} aria-hidden />}
              >
                {t('card.edit')}
              </Button>
            )}
          </Group>
        )}
      </Group>
      {deleted && (
        <Alert color="red" variant="light">
          {t('card.deletedNotice')}
        </Alert>
      )}
      {credentials.modal}
    </Stack>
  );
}

/** The tabs the user may open: the queries' only with `queries.read` (ADR 051). */
function useCardTabs(): readonly CardTab[] {
  const can = useCan();
  return CARD_TABS.filter((item) => item !== 'queries' || can('queries.read'));
}

/** A tab's name; the queries' with the count of unresolved ones ("Zapytania (2)"). */
function useTabLabel(patient: PatientDetail) {
  const { t } = useTranslation();
  return (item: CardTab) =>
    item === 'queries'
      ? t('card.tabs.queriesCount', { count: patient.open_queries ?? 0 })
      : t(`card.tabs.${item}`);
}

/** Below 1280 px: the tabs as a menu, with the user's login, change password and logout. */
function MobileTabMenu({
  tab,
  onChange,
  tabs,
  label,
}: {
  tab: CardTab;
  onChange: (tab: CardTab) => void;
  tabs: readonly CardTab[];
  label: (tab: CardTab) => string;
}) {
  const { t } = useTranslation();
  const session = useSession();
  const logout = useLogout();
  return (
    <Menu position="bottom-start" width="target" withinPortal>
      <Menu.Target>
        <Button
          variant="default"
          fullWidth
          justify="space-between"
          rightSection={<IconChevronDown size={16} aria-hidden />}
          aria-label={`${t('card.sectionMenu')}: ${label(tab)}`}
        >
          {label(tab)}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{t('card.sectionMenu')}</Menu.Label>
        {tabs.map((item) => (
          <Menu.Item
            key={item}
            onClick={() => onChange(item)}
            aria-current={item === tab ? 'true' : undefined}
            leftSection={
              item === tab ? <IconCheck size={16} aria-hidden /> : <Box w={16} aria-hidden />
            }
            fw={item === tab ? 600 : undefined}
          >
            {label(item)}
          </Menu.Item>
        ))}
        <Menu.Divider />
        <Menu.Label>
          {t('card.signedInAs')}: {session?.user.login}
        </Menu.Label>
        <Menu.Item
          component={Link}
          to="/changepassword"
          leftSection={<IconKey size={16} aria-hidden />}
        >
          {t('nav.changePassword')}
        </Menu.Item>
        <Menu.Item leftSection={<IconLogout size={16} aria-hidden />} onClick={() => void logout()}>
          {t('nav.logout')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

function CardBody({ patient }: { patient: PatientDetail }) {
  const { t } = useTranslation();
  const isDesktop = useIsDesktop();
  const [params, setParams] = useSearchParams();
  const tabs = useCardTabs();
  const label = useTabLabel(patient);
  const named = tabFrom(params.get('tab'));
  const tab = tabs.includes(named) ? named : 'personal';
  // A deleted patient is read-only; who may not edit the patient (a monitor) adds nothing either.
  const readOnly = !!patient.deleted_at || !patient.abilities.edit;

  const select = (next: CardTab) =>
    setParams(
      (current) => {
        const copy = new URLSearchParams(current);
        if (next === 'personal') copy.delete('tab');
        else copy.set('tab', next);
        return copy;
      },
      { replace: true },
    );

  const panel = (item: CardTab): ReactNode => {
    switch (item) {
      case 'personal':
        return <PersonalTab patient={patient} />;
      case 'medicines':
        return <MedicinesTab patient={patient} />;
      case 'visits':
        return <VisitsTab patient={patient} />;
      case 'notes':
        return <NotesTab patientId={patient.id} readOnly={readOnly} />;
      case 'attachments':
        return <AttachmentsTab patientId={patient.id} readOnly={readOnly} />;
      case 'samples':
        return <SamplesTab patient={patient} readOnly={readOnly} />;
      case 'messages':
        return <MessagesTab userId={patient.user_id} readOnly={readOnly} />;
      case 'queries':
        return (
          <RecordQueries
            scope={{ patient_id: patient.id }}
            record={{ type: 'patient', id: patient.id }}
            bare
          />
        );
    }
  };

  if (!isDesktop) {
    return (
      <Stack gap="md">
        <MobileTabMenu tab={tab} onChange={select} tabs={tabs} label={label} />
        <section aria-label={label(tab)}>{panel(tab)}</section>
      </Stack>
    );
  }

  return (
    <Tabs
      value={tab}
      onChange={(value) => select(tabFrom(value))}
      keepMounted={false}
      activateTabWithKeyboard
    >
      <Tabs.List aria-label={t('card.tabsLabel')} mb="md">
        {tabs.map((item) => (
          <Tabs.Tab key={item} value={item}>
            {label(item)}
          </Tabs.Tab>
        ))}
      </Tabs.List>
      {tabs.map((item) => (
        <Tabs.Panel key={item} value={item}>
          {item === tab && panel(item)}
        </Tabs.Panel>
      ))}
    </Tabs>
  );
}

/** /patients/card/{patientId}: the patient's header, actions and tabs. */
export function PatientCardPage() {
  const { t } = useTranslation();
  const { patientId } = useParams();
  const id = Number(patientId);
  const valid = Number.isInteger(id) && id > 0;
  const patient = usePatient(valid ? id : null);

  if (
    !valid ||
    (patient.isError && isApiError(patient.error) && patient.error.httpStatus === 404)
  ) {
    return (
      <Alert color="yellow" role="alert" title={t('card.title')}>
        {t('card.notFound')}{' '}
        <Anchor component={Link} to={PATIENTS_PATH} fz="sm">
          {t('card.backToList')}
        </Anchor>
      </Alert>
    );
  }
  if (patient.isPending) {
    return (
      <Center py="xl">
        <Loader role="status" aria-label={t('app.loading')} />
      </Center>
    );
  }
  if (patient.isError) {
    return (
      <Alert color="red" role="alert" title={t('card.title')}>
        {t('card.loadError')}
      </Alert>
    );
  }
  return (
    <>
      <CardHeader patient={patient.data} />
      <PatientAlertsBanner patientId={patient.data.id} />
      <CardBody patient={patient.data} />
    </>
  );
}
