import { Anchor, Button, Group, Stack, Text, Tooltip } from '@mantine/core';
import { IconId, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import type { PatientListItem } from '@portal/shared';
import { useCriteriaGroups } from '../../../api/lookups';
import { ENTITY } from '../../../api/query-keys';
import { DataTable } from '../../../components/data-table';
import type { Column } from '../../../components/data-table';
import { PageHeader } from '../../../components/page-header';
import { RowActions } from '../../../components/row-actions';
import { useListQuery } from '../../../components/use-list-query';
import { useSoftDelete } from '../../../components/use-soft-delete';
import { formatPhone } from '../../../lib/format';
import { useCan } from '../../../lib/permissions';
import { useSession } from '../../../lib/session';
import {
  identityHidden,
  EMPTY_VALUE,
  addressLines,
  formatNumber,
  formatPatientAddress,
  formatVisitDate,
} from '../../../entities/patients/patient-format';
import { PatientFiltersPanel } from './patient-filters';
import classes from './patients-page.module.css';
import { filtersFromSearch, patientFilterParams, searchOfFilters } from './patient-filters-state';
import type { PatientFilters } from './patient-filters-state';
import { useRegistrationCredentials } from '../registration-credentials';

const fullName = (p: PatientListItem) => `${p.surname} ${p.firstname}`;

/**
 * The patients list (docs/product-rules.md "Screens and layout"): filters, search, offset paging,
 * cards below 1280 px.
 */
export function PatientsPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const can = useCan();
  const session = useSession();
  // A doctor's list is the own unit's; administrators and monitors may choose a unit.
  const severalUnits = !(session?.user.unit_id && !can('patients.all_units'));
  // A link may name groups, a unit and active patients only (`?groups=1&unit_id=2&deleted=0`,
  // the dashboard's tiles, ADR 060); the address follows the filters from then on.
  const [params, setParams] = useSearchParams();
  const [filters, setFiltersState] = useState<PatientFilters>(() =>
    filtersFromSearch(params, severalUnits),
  );
  const groups = useCriteriaGroups();
  const list = useListQuery<PatientListItem>({
    entity: ENTITY.patients,
    path: '/patients',
    // Newest first, so a patient just registered heads the list (ADR 039); the server's own
    // default stays ascending (the API's contract), so the web asks for it.
    orderBy: 'id',
    direction: 'desc',
    paging: 'offset',
    params: patientFilterParams(filters, groups.data ?? []),
  });
  const softDelete = useSoftDelete({ entity: ENTITY.patients, path: '/patients' });
  // Login details of a patient registered with "Drukuj" are shown over the list.
  const credentials = useRegistrationCredentials();

  function setFilters(next: PatientFilters) {
    setFiltersState(next);
    list.setPage(1);
    setParams(searchOfFilters(next), { replace: true });
  }

  const medicineText = (m: PatientListItem['medicines'][number]) =>
    m.dose === null
      ? m.name
      : t('patients.list.medicineDose', {
          name: m.name,
          dose: formatNumber(m.dose, i18n.language, 3),
        });

  /** Each medicine on its own line (the cards). */
  const medicines = (p: PatientListItem) =>
    p.medicines.length ? (
      <Stack gap={0}>
        {p.medicines.map((m) => (
          <Text key={m.id} size="sm">
            {medicineText(m)}
          </Text>
        ))}
      </Stack>
    ) : (
      <Text size="sm">{EMPTY_VALUE}</Text>
    );

  /**
   * The table's medicines: at most three lines, the whole list in a tooltip (on hover and on
   * focus) and in the text itself, which screen readers read whole (ADR 039).
   */
  const medicinesCell = (p: PatientListItem) => {
    if (!p.medicines.length) return <Text size="sm">{EMPTY_VALUE}</Text>;
    const list = p.medicines.map(medicineText).join(', ');
    return (
      <Tooltip
        label={list}
        multiline
        w={280}
        openDelay={300}
        events={{ hover: true, focus: true, touch: false }}
      >
        <Text size="sm" lineClamp={3} className={classes.medicines} tabIndex={0}>
          {list}
        </Text>
      </Tooltip>
    );
  };

  const groupNames = (p: PatientListItem) =>
    p.group ? (
      <Stack gap={0}>
        <Text size="sm">{p.group.name}</Text>
        {p.subgroup && (
          <Text size="sm" c="dimmed">
            {p.subgroup.name}
          </Text>
        )}
      </Stack>
    ) : (
      <Text size="sm">{EMPTY_VALUE}</Text>
    );

  /** The table's group column: the group's number and name, the subgroup under them. */
  const groupCell = (p: PatientListItem) =>
    p.group ? (
      <Stack gap={0}>
        <Text size="sm">
          {t('patients.list.groupLine', { nr: p.group.nr, name: p.group.name })}
        </Text>
        {p.subgroup && (
          <Text size="sm" c="dimmed">
            {p.subgroup.name}
          </Text>
        )}
      </Stack>
    ) : (
      <Text size="sm">{EMPTY_VALUE}</Text>
    );

  const contact = (p: PatientListItem) =>
    identityHidden(p) ? (
      <Text size="sm" c="dimmed">
        {t('patients.list.contactHidden')}
      </Text>
    ) : (
      <Stack gap={0}>
        <Anchor href={`tel:+48${p.phone_number}`} size="sm" style={{ whiteSpace: 'nowrap' }}>
          {formatPhone(p.phone_number)}
        </Anchor>
        {p.email && (
          <Anchor href={`mailto:${p.email}`} size="sm" className={classes.email}>
            {p.email}
          </Anchor>
        )}
      </Stack>
    );

  /** Contact and address in one column, so that the table fits from 1280 px (ADR 039). */
  const contactAndAddress = (p: PatientListItem) => (
    <Stack gap={4}>
      {contact(p)}
      <Stack gap={0}>
        {addressLines(p).map((text) => (
          <Text key={text} size="sm">
            {text}
          </Text>
        ))}
      </Stack>
    </Stack>
  );

  // A deleted patient's card stays readable; Restore goes under it so that the column stays narrow.
  const actions = (p: PatientListItem) => (
    <Stack gap="xs" align="flex-start" className={classes.actions}>
      <Button
        component={Link}
        to={`/patients/card/${p.id}`}
        size="xs"
        variant="light"
        leftSection={<IconId size={16} aria-hidden />}
        style={{ flexShrink: 0 }}
        aria-label={t('patients.list.cardOf', { name: fullName(p) })}
      >
        {t('patients.list.card')}
      </Button>
      {p.deleted_at && <RowActions deleted onRestore={() => softDelete.askRestore(p.id)} />}
    </Stack>
  );

  const columns: Column<PatientListItem>[] = [
    { key: 'id', header: t('patients.list.id'), sortKey: 'id', width: 56, cell: (p) => p.id },
    {
      key: 'name',
      header: t('patients.list.name'),
      sortKey: 'surname',
      cell: (p) => (
        <Stack gap={0}>
          {/* The name opens the card, as the card button does. */}
          <Anchor
            component={Link}
            to={`/patients/card/${p.id}`}
            size="sm"
            fw={600}
            className={classes.name}
          >
            {fullName(p)}
          </Anchor>
          <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
            {t('patients.list.pesel')}: {p.pesel}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'group',
      header: t('patients.list.groupAndSubgroup'),
      sortKey: 'group',
      cell: groupCell,
    },
    { key: 'medicines', header: t('patients.list.medicines'), cell: medicinesCell },
    { key: 'contact', header: t('patients.list.contactAndAddress'), cell: contactAndAddress },
    {
      key: 'lastVisit',
      header: t('patients.list.lastVisit'),
      cell: (p) => <span className={classes.date}>{formatVisitDate(p.past_visit_date)}</span>,
    },
    {
      key: 'nextVisit',
      header: t('patients.list.nextVisit'),
      cell: (p) => <span className={classes.date}>{formatVisitDate(p.next_visit_date)}</span>,
    },
    {
      key: 'operations',
      header: t('patients.list.card'),
      actions: true,
      cell: actions,
    },
  ];

  const line = (label: string, value: ReactNode) => (
    <Group gap={6} wrap="nowrap" align="flex-start">
      <Text size="sm" c="dimmed" style={{ flexShrink: 0 }}>
        {label}:
      </Text>
      <div>{value}</div>
    </Group>
  );

  return (
    <>
      <PageHeader
        title={t('patients.title')}
        actions={
          can('patients.write') && (
            <Button
              leftSection={<IconPlus size={16} aria-hidden />}
              onClick={() => void navigate('/patients/create')}
            >
              {t('patients.add')}
            </Button>
          )
        }
      />
      <PatientFiltersPanel filters={filters} onChange={setFilters} severalUnits={severalUnits} />
      <DataTable
        list={list}
        columns={columns}
        label={t('patients.title')}
        dense
        renderCard={(p) => (
          <Stack gap={4}>
            <div>
              <Anchor component={Link} to={`/patients/card/${p.id}`} fw={600}>
                {fullName(p)}
              </Anchor>
              <Text size="sm" c="dimmed">
                {t('patients.list.pesel')}: {p.pesel} · {t('patients.list.id')}: {p.id}
              </Text>
            </div>
            {line(t('patients.list.group'), <Text size="sm">{p.group?.nr ?? EMPTY_VALUE}</Text>)}
            {line(t('patients.list.groupAndSubgroup'), groupNames(p))}
            {line(t('patients.list.medicines'), medicines(p))}
            {contact(p)}
            <Text size="sm">{formatPatientAddress(p)}</Text>
            {line(
              t('patients.list.lastVisit'),
              <Text size="sm">{formatVisitDate(p.past_visit_date)}</Text>,
            )}
            {line(
              t('patients.list.nextVisit'),
              <Text size="sm">{formatVisitDate(p.next_visit_date)}</Text>,
            )}
          </Stack>
        )}
      />
      {credentials}
    </>
  );
}
