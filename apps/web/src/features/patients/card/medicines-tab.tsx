import { Anchor, Card, Stack, Table, Text, Title } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { PatientDetail } from '@portal/shared';
import { formatNumber } from '../../../entities/patients/patient-format';
import { useMedicines } from '../../../api/lookups';

/** 'Przyjmowane leki': study medicines with dose and CAS reference; other medicines. */
export function MedicinesTab({ patient }: { patient: PatientDetail }) {
  const { t, i18n } = useTranslation();
  const medicines = useMedicines();
  const language = i18n.resolvedLanguage ?? 'pl';
  const mg = (dose: number | null) =>
    dose === null ? '–' : t('card.personal.unitMg', { value: formatNumber(dose, language, 2) });

  return (
    <Stack gap="md">
      <Card withBorder padding="md" component="section">
        <Title order={2} size="h4" mb="sm">
          {t('card.medicines.study')}
        </Title>
        {patient.medicines.length === 0 ? (
          <Text c="dimmed" size="sm">
            {t('card.medicines.noStudy')}
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={420}>
            <Table striped verticalSpacing="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('card.medicines.name')}</Table.Th>
                  <Table.Th>{t('card.medicines.dose')}</Table.Th>
                  <Table.Th>{t('card.medicines.reference')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {patient.medicines.map((m) => {
                  const link = medicines.data?.find((d) => d.id === m.medicine_id)?.link;
                  return (
                    <Table.Tr key={m.medicine_id}>
                      <Table.Td>{m.name}</Table.Td>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>{mg(m.dose)}</Table.Td>
                      <Table.Td>
                        {link ? (
                          <Anchor
                            href={link}
                            fz="sm"
                            target="_blank"
                            rel="noopener noreferrer"
                            aria-label={t('card.medicines.casLinkFor', { name: m.name })}
                            display="inline-flex"
                            style={{ alignItems: 'center', gap: 4 }}
                          >
                            {t('card.medicines.casLink')}
                            <IconExternalLink size={14} aria-hidden />
                          </Anchor>
                        ) : (
                          '–'
                        )}
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Card>

      <Card withBorder padding="md" component="section">
        <Title order={2} size="h4" mb="sm">
          {t('card.medicines.other')}
        </Title>
        {patient.additional_medicines.length === 0 ? (
          <Text c="dimmed" size="sm">
            {t('card.medicines.noOther')}
          </Text>
        ) : (
          <Table striped verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('card.medicines.name')}</Table.Th>
                <Table.Th>{t('card.medicines.dose')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {patient.additional_medicines.map((m) => (
                <Table.Tr key={m.id}>
                  <Table.Td>{m.name}</Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{mg(m.dose)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Card>
    </Stack>
  );
}
