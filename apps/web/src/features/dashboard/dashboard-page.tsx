import '@mantine/charts/styles.layer.css';
import { BarChart } from '@mantine/charts';
import {
  Alert,
  Anchor,
  Box,
  Button,
  Card,
  Group,
  Loader,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useId, useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { UNRESOLVED_QUERY_STATUSES } from '@portal/shared';
import type { DashboardResponse } from '@portal/shared';
import { useCriteriaGroups, useMedicines } from '../../api/lookups';
import { useReachableUnitOptions } from '../../api/units';
import { PageHeader } from '../../components/page-header';
import { useCan } from '../../lib/permissions';
import { useSession } from '../../lib/session';
import { useDashboard } from './dashboard-api';
import {
  formatCount,
  formatDays,
  formatMonth,
  formatRate,
  monthlyTarget,
} from './dashboard-format';

interface Row {
  label: string;
  value: number;
  /** The value as the table and the summary write it. */
  text: string;
}

/**
 * A chart with its text summary (read by screen readers instead of the drawing, which is hidden
 * from them) and a table view of the same figures behind a toggle (ADR 060).
 */
function ChartCard({
  title,
  summary,
  rows,
  valueHeader,
  chart,
  link,
  links,
}: {
  title: string;
  summary: string;
  rows: Row[];
  valueHeader: string;
  chart: ReactNode;
  link?: { to: string; label: string };
  /** One link per bar, to the list filtered as the bar counts (ADR 060). */
  links?: { to: string; label: string }[];
}) {
  const { t } = useTranslation();
  const [table, setTable] = useState(false);
  const id = useId();
  return (
    <Card withBorder padding="md" component="section" aria-labelledby={`${id}-title`}>
      <Group justify="space-between" align="flex-start" mb="xs" wrap="wrap" gap="xs">
        <Title order={2} size="h4" id={`${id}-title`}>
          {title}
        </Title>
        <Button
          variant="subtle"
          size="compact-sm"
          aria-expanded={table}
          aria-controls={`${id}-table`}
          onClick={() => setTable((shown) => !shown)}
        >
          {table ? t('dashboard.hideTable', { title }) : t('dashboard.showTable', { title })}
        </Button>
      </Group>
      <Text size="sm" mb="sm">
        {summary}
      </Text>
      {rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('dashboard.noData')}
        </Text>
      ) : (
        <Box aria-hidden="true">{chart}</Box>
      )}
      <Box id={`${id}-table`} hidden={!table} mt="sm">
        {table && (
          <Table.ScrollContainer minWidth={240}>
            <Table striped withTableBorder>
              <Table.Caption>{title}</Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('dashboard.category')}</Table.Th>
                  <Table.Th scope="col" ta="right">
                    {valueHeader}
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((row) => (
                  <Table.Tr key={row.label}>
                    <Table.Th scope="row" fw={400}>
                      {row.label}
                    </Table.Th>
                    <Table.Td ta="right">{row.text}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Box>
      {links && links.length > 0 && (
        <Group
          component="ul"
          aria-label={t('dashboard.listsLabel', { title })}
          gap="xs"
          mt="xs"
          p={0}
          style={{ listStyle: 'none' }}
        >
          {links.map((item) => (
            <li key={item.to}>
              <Anchor component={Link} to={item.to} size="sm">
                {item.label}
              </Anchor>
            </li>
          ))}
        </Group>
      )}
      {link && (
        <Anchor component={Link} to={link.to} size="sm" mt="xs" display="inline-block">
          {link.label}
        </Anchor>
      )}
    </Card>
  );
}

/** A figure that leads to its list, filtered as the figure counts. */
function Tile({
  label,
  value,
  to,
  hint,
}: {
  label: string;
  value: string;
  to: string | null;
  hint?: string;
}) {
  const body = (
    <>
      <Text size="sm" c="dimmed" component="span" display="block">
        {label}
        {/* Read as "label: value" (the link's name is its visible text, WCAG 2.5.3). */}
        <VisuallyHidden component="span">:</VisuallyHidden>
      </Text>
      <Text fz={28} fw={700} component="span" display="block">
        {value}
      </Text>
      {hint && (
        <Text size="xs" c="dimmed" component="span" display="block">
          {hint}
        </Text>
      )}
    </>
  );
  return (
    <Card withBorder padding="md">
      {to ? (
        <Anchor component={Link} to={to} underline="hover" c="inherit">
          {body}
        </Anchor>
      ) : (
        body
      )}
    </Card>
  );
}

const BAR_PROPS = { accessibilityLayer: false, isAnimationActive: false } as const;

function Figures({ data, unitId }: { data: DashboardResponse; unitId: string | null }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const groups = useCriteriaGroups();
  const medicines = useMedicines();
  const count = (n: number) => formatCount(n, language);
  const groupName = (id: number) => {
    const group = groups.data?.find((g) => g.id === id);
    return group
      ? t('dashboard.groupName', { nr: group.nr })
      : t('dashboard.groupName', { nr: id });
  };
  // Every list a tile leads to takes the chosen unit (a doctor's lists are the own unit's); the
  // patients list its active patients only (`deleted=0`), as the tiles count them (ADR 060).
  const unitQuery = unitId ? `?unit_id=${unitId}` : '';
  const unitParam = unitId ? `&unit_id=${unitId}` : '';
  const analyteName = (analyte: string) => {
    const medicine = /^medicine_(\d+)$/.exec(analyte);
    if (!medicine) return t(`probeDetail.analytes.${analyte}`, { defaultValue: analyte });
    const found = medicines.data?.find((m) => m.id === Number(medicine[1]));
    return t('dashboard.concentration', { name: found?.name ?? medicine[1] });
  };

  const recruitment = data.patients.recruitment;
  const target = monthlyTarget(
    data.recruitment_target,
    data.patients.by_unit.length,
    recruitment.length,
  );
  const recruitmentRows: Row[] = recruitment.map((m) => ({
    label: formatMonth(m.month, language),
    value: m.count,
    text: count(m.count),
  }));
  const last = recruitment[recruitment.length - 1];
  const recruitmentSummary =
    recruitment.length === 0
      ? t('dashboard.noData')
      : t('dashboard.recruitmentSummary', {
          total: count(data.patients.total),
          months: count(recruitment.length),
          last: last ? formatMonth(last.month, language) : '',
          lastCount: count(last?.count ?? 0),
        }) +
        (target !== null
          ? ` ${t('dashboard.targetSummary', { target: formatDays(target, language) })}`
          : '');

  const groupRows: Row[] = data.patients.by_group.map((g) => ({
    label: groupName(g.group_id),
    value: g.count,
    text: count(g.count),
  }));
  const statusRows: Row[] = data.samples.by_status.map((s) => ({
    label: t(`probe.status.${s.status}`, { defaultValue: s.status }),
    value: s.count,
    text: count(s.count),
  }));
  const samplesTotal = data.samples.by_status.reduce((sum, s) => sum + s.count, 0);
  const normRows: Row[] = data.out_of_norm.map((a) => ({
    label: analyteName(a.analyte),
    value: Math.round(a.rate * 1000) / 10,
    text: formatRate(a.rate, language),
  }));
  const listOf = (rows: Row[]) => rows.map((row) => `${row.label}: ${row.text}`).join(', ');
  const median = data.samples.median_days_to_results;

  return (
    <Stack gap="lg">
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="md">
        <Tile
          label={t('dashboard.patients')}
          value={count(data.patients.total)}
          to={`/patients?deleted=0${unitParam}`}
        />
        <Tile
          label={t('dashboard.thisWeek')}
          value={count(data.visits.this_week)}
          to={`/visits?from=${data.week.from}&to=${data.week.to}${unitParam}`}
        />
        <Tile
          label={t('dashboard.overdue')}
          value={count(data.visits.overdue)}
          to={`/visits/overdue${unitQuery}`}
        />
        <Tile
          label={t('dashboard.inWindowTile')}
          value={count(data.visits.in_window)}
          to={`/visits?out_of_window=0${unitParam}`}
        />
        <Tile
          label={t('dashboard.outOfWindow')}
          value={count(data.visits.out_of_window)}
          to={`/visits?out_of_window=1${unitParam}`}
        />
        <Tile
          label={t('dashboard.samples')}
          value={count(samplesTotal)}
          to={`/probes${unitQuery}`}
        />
        <Tile
          label={t('dashboard.medianDays')}
          value={median === null ? '—' : formatDays(median, language)}
          to={`/probes${unitQuery}`}
        />
        <Tile
          label={t('dashboard.alertsOpen')}
          value={count(data.alerts_open)}
          to={`/alerts?status=open${unitParam}`}
        />
        <Tile
          label={t('dashboard.queriesOpen')}
          value={count(data.queries_open)}
          to={`/queries?status=${UNRESOLVED_QUERY_STATUSES.join(',')}${unitParam}`}
        />
      </SimpleGrid>

      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <ChartCard
          title={t('dashboard.recruitment')}
          summary={recruitmentSummary}
          rows={recruitmentRows}
          valueHeader={t('dashboard.count')}
          link={{ to: `/patients?deleted=0${unitParam}`, label: t('dashboard.toPatients') }}
          chart={
            <BarChart
              h={220}
              data={recruitmentRows.map((r) => ({ month: r.label, count: r.value }))}
              dataKey="month"
              series={[{ name: 'count', label: t('dashboard.count'), color: 'blue.6' }]}
              referenceLines={
                target !== null
                  ? [{ y: target, label: t('dashboard.target'), color: 'red.6' }]
                  : undefined
              }
              valueFormatter={(n) => formatCount(n, language)}
              barChartProps={BAR_PROPS}
              withTooltip={false}
            />
          }
        />
        <ChartCard
          title={t('dashboard.byGroup')}
          summary={groupRows.length ? listOf(groupRows) : t('dashboard.noData')}
          rows={groupRows}
          valueHeader={t('dashboard.count')}
          links={data.patients.by_group.map((g, i) => ({
            to: `/patients?groups=${g.group_id}&deleted=0${unitParam}`,
            label: t('dashboard.toGroup', { name: groupRows[i]?.label ?? '' }),
          }))}
          chart={
            <BarChart
              h={220}
              data={groupRows.map((r) => ({ group: r.label, count: r.value }))}
              dataKey="group"
              series={[{ name: 'count', label: t('dashboard.count'), color: 'teal.6' }]}
              valueFormatter={(n) => formatCount(n, language)}
              barChartProps={BAR_PROPS}
              withTooltip={false}
            />
          }
        />
        <ChartCard
          title={t('dashboard.samplesByStatus')}
          summary={
            statusRows.length
              ? `${t('dashboard.samplesTotal', { n: count(samplesTotal) })} ${listOf(statusRows)}.`
              : t('dashboard.noData')
          }
          rows={statusRows}
          valueHeader={t('dashboard.count')}
          links={data.samples.by_status.map((s, i) => ({
            to: `/probes?status=${s.status}${unitParam}`,
            label: t('dashboard.toStatus', { name: statusRows[i]?.label ?? s.status }),
          }))}
          chart={
            <BarChart
              h={220}
              data={statusRows.map((r) => ({ status: r.label, count: r.value }))}
              dataKey="status"
              series={[{ name: 'count', label: t('dashboard.count'), color: 'grape.6' }]}
              valueFormatter={(n) => formatCount(n, language)}
              barChartProps={BAR_PROPS}
              withTooltip={false}
            />
          }
        />
        <ChartCard
          title={t('dashboard.outOfNorm')}
          summary={normRows.length ? listOf(normRows) : t('dashboard.noData')}
          rows={normRows}
          valueHeader={t('dashboard.rate')}
          links={data.out_of_norm.map((a, i) => ({
            to: `/probes?out_of_norm=${a.analyte}${unitParam}`,
            label: t('dashboard.toOutOfNorm', { name: normRows[i]?.label ?? a.analyte }),
          }))}
          chart={
            <BarChart
              h={220}
              data={normRows.map((r) => ({ analyte: r.label, rate: r.value }))}
              dataKey="analyte"
              series={[{ name: 'rate', label: t('dashboard.rate'), color: 'orange.6' }]}
              valueFormatter={(n) => formatRate(n / 100, language)}
              barChartProps={BAR_PROPS}
              withTooltip={false}
            />
          }
        />
      </SimpleGrid>
    </Stack>
  );
}

/**
 * `/dashboard` ("Pulpit"), the staff's start page (ADR 060): the study's figures for a doctor's
 * unit, or for every unit within reach or the one an administrator or a monitor chooses (kept in
 * the URL as `unit_id`).
 */
export function DashboardPage() {
  const { t } = useTranslation();
  const can = useCan();
  const session = useSession();
  // A doctor sees the own unit; administrators and monitors choose among the units they reach.
  const severalUnits = !(session?.user.unit_id && !can('patients.all_units'));
  const [params, setParams] = useSearchParams();
  const unitId = severalUnits ? params.get('unit_id') : null;
  const dashboard = useDashboard(unitId);
  const units = useReachableUnitOptions({ enabled: severalUnits });

  return (
    <>
      <PageHeader title={t('dashboard.title')} />
      <Stack gap="md">
        {severalUnits && (
          <Select
            label={t('dashboard.unit')}
            placeholder={t('dashboard.allUnits')}
            data={(units.data ?? []).map((unit) => ({ value: String(unit.id), label: unit.name }))}
            value={unitId}
            onChange={(value) => setParams(value ? { unit_id: value } : {}, { replace: true })}
            searchable
            clearable
            w={{ base: '100%', xs: 320 }}
            comboboxProps={{ withinPortal: true }}
          />
        )}
        {dashboard.isPending ? (
          <Loader aria-label={t('app.loading')} />
        ) : dashboard.isError ? (
          <Alert color="red" role="alert">
            {t('dashboard.loadError')}
          </Alert>
        ) : (
          <Figures data={dashboard.data} unitId={unitId} />
        )}
      </Stack>
    </>
  );
}
