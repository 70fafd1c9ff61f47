import {
  Badge,
  Button,
  Checkbox,
  Collapse,
  Group,
  MultiSelect,
  Paper,
  Select,
  SimpleGrid,
} from '@mantine/core';
import { IconChevronDown, IconChevronUp, IconFilter, IconX } from '@tabler/icons-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDoctorOptions } from '../../../api/doctors';
import { useCriteriaGroups, useMedicines } from '../../../api/lookups';
import { useReachableUnitOptions } from '../../../api/units';
import {
  activeFilterCount,
  emptyFilters,
  groupValue,
  subgroupValue,
} from './patient-filters-state';
import type { PatientFilters } from './patient-filters-state';

const toIds = (values: string[]) => values.map(Number).filter((n) => Number.isInteger(n));

/**
 * The collapsible filter panel of the patients list: medicines, groups and subgroups (grouped),
 * doctors, finished participation, the unit (for who reaches several) and deleted patients. Open
 * from the start when a link named filters (the dashboard's tiles), so that they show.
 */
export function PatientFiltersPanel({
  filters,
  onChange,
  severalUnits,
}: {
  filters: PatientFilters;
  onChange: (next: PatientFilters) => void;
  severalUnits: boolean;
}) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(() => activeFilterCount(filters) > 0);
  const units = useReachableUnitOptions({ enabled: severalUnits });
  const panelId = useId();
  const medicines = useMedicines();
  const groups = useCriteriaGroups();
  const doctors = useDoctorOptions();
  const count = activeFilterCount(filters);

  const medicineOptions = (medicines.data ?? []).map((m) => ({
    value: String(m.id),
    label: m.name,
  }));
  const inclusionOptions = (groups.data ?? []).map((group) => ({
    group: t('patients.filters.groupLabel', { nr: group.nr, name: group.name }),
    items: [
      { value: groupValue(group.id), label: t('patients.filters.wholeGroup', { nr: group.nr }) },
      ...group.sub_groups.map((s) => ({ value: subgroupValue(s.id), label: s.name })),
    ],
  }));
  const doctorOptions = (doctors.data ?? []).map((d) => ({
    value: String(d.id),
    label: `${d.surname} ${d.firstname}`,
  }));

  return (
    <Paper withBorder p="sm" mb="md">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Button
          variant="subtle"
          leftSection={<IconFilter size={16} aria-hidden />}
          rightSection={
            opened ? (
              <IconChevronUp size={16} aria-hidden />
            ) : (
              <IconChevronDown size={16} aria-hidden />
            )
          }
          aria-expanded={opened}
          aria-controls={panelId}
          onClick={() => setOpened((o) => !o)}
        >
          {t('patients.filters.toggle')}
          {count > 0 && (
            <Badge
              ml="xs"
              size="sm"
              circle
              aria-label={t('patients.filters.activeCount', { count })}
            >
              {count}
            </Badge>
          )}
        </Button>
        {count > 0 && (
          <Button
            variant="subtle"
            color="gray"
            size="xs"
            leftSection={<IconX size={14} aria-hidden />}
            onClick={() => onChange(emptyFilters())}
          >
            {t('patients.filters.clear')}
          </Button>
        )}
      </Group>
      <Collapse expanded={opened}>
        <div id={panelId} role="group" aria-label={t('patients.filters.toggle')}>
          <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="sm" mt="sm">
            <MultiSelect
              label={t('patients.filters.medicines')}
              placeholder={filters.medicines.length ? undefined : t('patients.filters.any')}
              data={medicineOptions}
              value={filters.medicines.map(String)}
              onChange={(values) => onChange({ ...filters, medicines: toIds(values) })}
              searchable
              clearable
              nothingFoundMessage={t('list.empty')}
            />
            <MultiSelect
              label={t('patients.filters.groups')}
              placeholder={filters.inclusion.length ? undefined : t('patients.filters.any')}
              data={inclusionOptions}
              value={filters.inclusion}
              onChange={(values) => onChange({ ...filters, inclusion: values })}
              searchable
              clearable
              nothingFoundMessage={t('list.empty')}
            />
            <MultiSelect
              label={t('patients.filters.doctors')}
              placeholder={filters.doctors.length ? undefined : t('patients.filters.any')}
              data={doctorOptions}
              value={filters.doctors.map(String)}
              onChange={(values) => onChange({ ...filters, doctors: toIds(values) })}
              searchable
              clearable
              nothingFoundMessage={t('list.empty')}
            />
            {severalUnits && (
              <Select
                label={t('patients.filters.unit')}
                placeholder={t('patients.filters.allUnits')}
                data={(units.data ?? []).map((unit) => ({
                  value: String(unit.id),
                  label: unit.name,
                }))}
                value={filters.unitId === null ? null : String(filters.unitId)}
                onChange={(value) => onChange({ ...filters, unitId: value ? Number(value) : null })}
                searchable
                clearable
                nothingFoundMessage={t('list.empty')}
                comboboxProps={{ withinPortal: true }}
              />
            )}
            <Select
              label={t('patients.filters.deleted')}
              placeholder={t('patients.filters.deletedAny')}
              data={[
                { value: '0', label: t('patients.filters.activeOnly') },
                { value: '1', label: t('patients.filters.deletedOnly') },
              ]}
              value={filters.deleted}
              onChange={(value) =>
                onChange({ ...filters, deleted: value === '0' || value === '1' ? value : null })
              }
              clearable
              comboboxProps={{ withinPortal: true }}
            />
          </SimpleGrid>
          <Checkbox
            mt="md"
            label={t('patients.filters.finished')}
            checked={filters.finished}
            onChange={(event) => onChange({ ...filters, finished: event.currentTarget.checked })}
          />
        </div>
      </Collapse>
    </Paper>
  );
}
