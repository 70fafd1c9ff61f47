import { useTranslation } from 'react-i18next';
import type { LabErrorParams, LabLastError, LabRefusal } from '@portal/shared';
import { useMedicines } from '../api/lookups';

const BIOCHEMISTRY = ['alt', 'ast', 'creatine', 'bilirubine'] as const;
const isBiochemistry = (analyte: string): analyte is (typeof BIOCHEMISTRY)[number] =>
  (BIOCHEMISTRY as readonly string[]).includes(analyte);

/**
 * An analyte as people name it: "ALT", "Kreatynina", the medicine's name for `medicine_{id}`,
 * the hours since the dose, or the laboratory's own code for a test the study does not know.
 */
export function useAnalyteName() {
  const { t } = useTranslation();
  const medicines = useMedicines().data ?? [];
  return (analyte: string): string => {
    if (isBiochemistry(analyte)) return t(`unmatched.analytes.${analyte}`);
    if (analyte === 'hours') return t('labErrors.hours');
    const id = /^medicine_(\d+)$/.exec(analyte)?.[1];
    const medicine = id ? medicines.find((m) => m.id === Number(id)) : undefined;
    return medicine?.name ?? analyte;
  };
}

/**
 * A laboratory error in the user's language, naming the sample and the analyte (ADR 032): the
 * server stores a code and its parameters, never a sentence. An error stored before codes
 * existed has only the laboratory's text.
 */
export function useLabErrorText() {
  const { t } = useTranslation();
  const analyteName = useAnalyteName();
  return (error: {
    code: LabRefusal['code'] | LabLastError['code'];
    params: LabErrorParams;
    detail?: string;
  }): string => {
    if (error.code === null) return error.detail ?? '';
    const reason = t(`labErrors.codes.${error.code}`);
    const { probe_code: probe, analyte } = error.params;
    if (probe && analyte) {
      return t('labErrors.sampleAnalyte', { probe, analyte: analyteName(analyte), reason });
    }
    if (probe) return t('labErrors.sample', { probe, reason });
    return t('labErrors.message', { reason });
  };
}
