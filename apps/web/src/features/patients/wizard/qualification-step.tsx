import { Alert, Button, Group, Radio, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconCheck, IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { ExclusionCriterion } from '@portal/shared';
import { ToggleCard } from './toggle-card';
import { canQualify } from './wizard-state';
import type { ExclusionValues, WizardAction } from './wizard-state';

const ABOVE = 'above';
const BELOW = 'below';

/**
 * Step 4: age, one exclusion criterion and the qualification decision (docs/product-rules.md
 * "Patient wizard").
 */
export function QualificationStep({
  criteria,
  values,
  errors,
  dispatch,
}: {
  criteria: ExclusionCriterion[];
  values: ExclusionValues;
  errors: Record<string, string>;
  dispatch: (action: WizardAction) => void;
}) {
  const { t } = useTranslation();
  const qualifiable = canQualify(values);
  const messages = Object.entries(errors)
    .filter(([key]) => key.startsWith('exclusion'))
    .map(([, message]) => message);

  return (
    <Stack gap="lg">
      {messages.length > 0 && (
        <Alert color="red" role="alert">
          {[...new Set(messages)].join(' ')}
        </Alert>
      )}
      <Radio.Group
        label={t('patients.qualification.age')}
        value={values.is_above_18 ? ABOVE : BELOW}
        onChange={(value) => dispatch({ type: 'setAbove18', value: value === ABOVE })}
        labelProps={{ fw: 700, mb: 4 }}
      >
        <Group gap="xl" mt={4}>
          <Radio value={ABOVE} label={t('patients.qualification.above18')} />
          <Radio value={BELOW} label={t('patients.qualification.below18')} />
        </Group>
      </Radio.Group>

      <Stack gap="xs" component="section">
        <Title order={3} size="h5">
          {t('patients.qualification.exclusionTitle')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('patients.qualification.exclusionHint')}
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          {criteria.map((criterion) => (
            <ToggleCard
              key={criterion.id}
              pressed={values.exclusion_criteria_id === criterion.id}
              onToggle={() => dispatch({ type: 'toggleExclusion', id: criterion.id })}
            >
              <Text size="sm">{criterion.name}</Text>
            </ToggleCard>
          ))}
        </SimpleGrid>
      </Stack>

      <Stack gap="xs" component="section">
        <Title order={3} size="h5">
          {t('patients.qualification.decisionTitle')}
        </Title>
        <Group gap="sm">
          <Button
            color="green"
            variant={values.is_classified ? 'filled' : 'default'}
            aria-pressed={values.is_classified}
            leftSection={<IconCheck size={16} aria-hidden />}
            disabled={!qualifiable}
            onClick={() => dispatch({ type: 'setClassified', value: true })}
          >
            {t('patients.qualification.classified')}
          </Button>
          <Button
            color="red"
            variant={values.is_classified ? 'default' : 'filled'}
            aria-pressed={!values.is_classified}
            leftSection={<IconX size={16} aria-hidden />}
            onClick={() => dispatch({ type: 'setClassified', value: false })}
          >
            {t('patients.qualification.notClassified')}
          </Button>
        </Group>
        {!qualifiable && (
          <Text size="sm" c="dimmed">
            {t('patients.qualification.cannotQualify')}
          </Text>
        )}
      </Stack>
    </Stack>
  );
}
