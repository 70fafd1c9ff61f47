import { Anchor, SimpleGrid } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDay } from '@portal/shared';
import type { PatientDetail } from '@portal/shared';
import { formatPhone } from '../../../lib/format';
import {
  identityHidden,
  formatNumber,
  patientAddress,
  personName,
} from '../../../entities/patients/patient-format';
import { FactsSection } from './facts';
import { useCriteriaGroups, useExclusionCriteria } from '../../../api/lookups';

/** 'Dane osobowe i medyczne': contact, doctor and unit, medical data, programme data. */
export function PersonalTab({ patient }: { patient: PatientDetail }) {
  const { t, i18n } = useTranslation();
  const groups = useCriteriaGroups();
  const exclusions = useExclusionCriteria();
  const language = i18n.resolvedLanguage ?? 'pl';
  const yesNo = (value: boolean) => (value ? t('card.personal.yes') : t('card.personal.no'));
  const number = (value: number | null, key: 'unitCm' | 'unitKg' | 'unitMg') =>
    value === null ? null : t(`card.personal.${key}`, { value: formatNumber(value, language, 2) });

  const inclusion = patient.inclusion;
  const group = groups.data?.find((g) => g.id === inclusion?.group_id);
  const subgroup = group?.sub_groups.find((s) => s.id === inclusion?.subgroup_id);
  const exclusion = exclusions.data?.find((e) => e.id === patient.exclusion_criteria_id);

  // Hidden from this user by the server (a monitor, ADR 051): said so, not shown as missing.
  const hiddenText = t('card.identityHidden');
  const contactFacts: [string, ReactNode][] = identityHidden(patient)
    ? [
        [t('card.personal.address'), hiddenText],
        [t('card.personal.phone'), hiddenText],
        [t('card.personal.email'), hiddenText],
        [t('card.personal.login'), patient.login],
      ]
    : [
        [t('card.personal.address'), patientAddress(patient)],
        [
          t('card.personal.phone'),
          <Anchor key="phone" fz="sm" href={`tel:+48${patient.phone_number}`}>
            {formatPhone(patient.phone_number)}
          </Anchor>,
        ],
        [
          t('card.personal.email'),
          patient.email ? (
            <Anchor key="email" fz="sm" href={`mailto:${patient.email}`}>
              {patient.email}
            </Anchor>
          ) : null,
        ],
        [t('card.personal.login'), patient.login],
      ];

  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
      <FactsSection title={t('card.personal.contact')} facts={contactFacts} />
      <FactsSection
        title={t('card.personal.doctorAndUnit')}
        facts={[
          [t('card.personal.doctor'), personName(patient.doctor, '')],
          [t('card.personal.unit'), patient.unit.name],
        ]}
      />
      <FactsSection
        title={t('card.personal.medical')}
        facts={[
          [t('card.personal.height'), number(patient.height, 'unitCm')],
          [t('card.personal.weight'), number(patient.weight, 'unitKg')],
          [
            t('card.personal.sex'),
            patient.sex === 'M' ? t('card.personal.male') : t('card.personal.female'),
          ],
          [t('card.personal.birthDate'), formatDay(patient.birth_date)],
        ]}
      />
      <FactsSection
        title={t('card.personal.programme')}
        facts={[
          [t('card.participantNumber'), patient.id],
          [t('card.personal.projectNumber'), patient.project_number],
          [
            t('card.personal.group'),
            group ? `${group.nr}. ${group.name}` : (inclusion?.group_id ?? null),
          ],
          [t('card.personal.subgroup'), subgroup?.name ?? inclusion?.subgroup_id ?? null],
          [t('card.personal.dose'), number(inclusion?.dose ?? null, 'unitMg')],
          [t('card.personal.interval'), inclusion?.interval ?? null],
          [
            t('card.personal.qualification'),
            patient.is_classified ? t('card.personal.qualified') : t('card.personal.notQualified'),
          ],
          [
            t('card.personal.exclusion'),
            patient.exclusion_criteria_id === null
              ? t('card.personal.noExclusion')
              : (exclusion?.name ?? patient.exclusion_criteria_id),
          ],
          [t('card.personal.above18'), yesNo(patient.is_above_18)],
          [t('card.personal.finished'), yesNo(patient.is_finished === 1)],
        ]}
      />
    </SimpleGrid>
  );
}
