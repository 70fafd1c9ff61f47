import {
  Alert,
  Badge,
  Button,
  Group,
  Paper,
  Radio,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { IconCircle, IconCircleCheckFilled } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { STRING_MAX } from '@portal/shared';
import type { CriteriaGroup, Subgroup } from '@portal/shared';
import { formatNumber } from '../../../entities/patients/patient-format';
import { ToggleCard } from './toggle-card';
import { doseOptions } from './wizard-state';
import type { InclusionValues, WizardAction } from './wizard-state';

function DoseChoice({
  subgroup,
  values,
  errors,
  dispatch,
}: {
  subgroup: Subgroup;
  values: InclusionValues;
  errors: Record<string, string>;
  dispatch: (action: WizardAction) => void;
}) {
  const { t, i18n } = useTranslation();
  const doses = doseOptions(subgroup);
  const mg = (dose: number) =>
    t('patients.inclusion.doseMg', { dose: formatNumber(dose, i18n.language, 3) });
  return (
    <Paper bg="gray.0" p="md" radius="sm" aria-label={subgroup.name} component="section">
      <Stack gap="sm">
        {subgroup.is_fixed_dose ? (
          <div>
            <Text size="sm" fw={500}>
              {t('patients.inclusion.dose')}
            </Text>
            <Badge size="lg" variant="light" mt={4}>
              {t('patients.inclusion.fixedDose', {
                dose: formatNumber(doses[0] ?? 0, i18n.language, 3),
              })}
            </Badge>
            {errors['inclusion.dose'] && (
              <Text size="sm" c="red" mt={4}>
                {errors['inclusion.dose']}
              </Text>
            )}
          </div>
        ) : (
          <Radio.Group
            label={t('patients.inclusion.dose')}
            value={values.dose === null ? null : String(values.dose)}
            onChange={(value) => dispatch({ type: 'setDose', dose: Number(value) })}
            error={errors['inclusion.dose']}
          >
            <Group gap="lg" mt={6}>
              {doses.map((dose) => (
                <Radio key={dose} value={String(dose)} label={mg(dose)} />
              ))}
            </Group>
          </Radio.Group>
        )}
        {subgroup.allow_custom_interval === 1 && (
          <TextInput
            label={t('patients.inclusion.interval')}
            placeholder={t('patients.inclusion.intervalPlaceholder')}
            value={values.interval}
            onChange={(event) =>
              dispatch({ type: 'setInterval', interval: event.currentTarget.value })
            }
            error={errors['inclusion.interval']}
            maxLength={STRING_MAX}
            maw={420}
          />
        )}
      </Stack>
    </Paper>
  );
}

/**
 * Step 2: inclusion criteria, one group and one of its subgroups with a dose (docs/product-rules.md
 * "Patient wizard").
 */
export function InclusionStep({
  groups,
  values,
  errors,
  dispatch,
}: {
  groups: CriteriaGroup[];
  values: InclusionValues;
  errors: Record<string, string>;
  dispatch: (action: WizardAction) => void;
}) {
  const { t } = useTranslation();
  // Messages that belong to no single input (the server's, on a refused save).
  const general = ['inclusion.group_id', 'inclusion.subgroup_id', 'inclusion']
    .map((key) => errors[key])
    .filter(Boolean);

  return (
    <Stack gap="md">
      <Text c="dimmed" size="sm">
        {t('patients.inclusion.hint')}
      </Text>
      {general.length > 0 && (
        <Alert color="red" role="alert">
          {general.join(' ')}
        </Alert>
      )}
      {groups.map((group) => {
        const groupSelected = values.group_id === group.id;
        const chosen = group.sub_groups.find((s) => s.id === values.subgroup_id);
        return (
          <Paper key={group.id} withBorder p="md" component="section" aria-label={group.name}>
            <Stack gap="sm">
              <Button
                variant={groupSelected ? 'filled' : 'light'}
                aria-pressed={groupSelected}
                onClick={() => dispatch({ type: 'selectGroup', groupId: group.id })}
                leftSection={
                  groupSelected ? (
                    <IconCircleCheckFilled size={18} aria-hidden />
                  ) : (
                    <IconCircle size={18} aria-hidden />
                  )
                }
                justify="flex-start"
                styles={{
                  root: { height: 'auto', minHeight: 36 },
                  label: { whiteSpace: 'normal', textAlign: 'left' },
                }}
                py={6}
              >
                {t('patients.inclusion.group', { nr: group.nr, name: group.name })}
              </Button>
              <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="sm">
                {group.sub_groups.map((subgroup) => (
                  <ToggleCard
                    key={subgroup.id}
                    pressed={values.subgroup_id === subgroup.id}
                    onToggle={() =>
                      dispatch({
                        type: 'selectSubgroup',
                        subgroup: {
                          id: subgroup.id,
                          group_id: subgroup.group_id,
                          doses: doseOptions(subgroup),
                        },
                      })
                    }
                  >
                    <Text fw={600} size="sm">
                      {subgroup.name}
                    </Text>
                    {subgroup.description && (
                      <Text size="sm" mt={2}>
                        {subgroup.description}
                      </Text>
                    )}
                    {subgroup.medicines && (
                      <Text size="xs" c="dimmed" mt={4}>
                        {t('patients.inclusion.medicines', { medicines: subgroup.medicines })}
                      </Text>
                    )}
                  </ToggleCard>
                ))}
              </SimpleGrid>
              {chosen && (
                <DoseChoice subgroup={chosen} values={values} errors={errors} dispatch={dispatch} />
              )}
            </Stack>
          </Paper>
        );
      })}
    </Stack>
  );
}
