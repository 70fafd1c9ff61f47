import { Button } from '@mantine/core';
import { IconPrinter } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ProbeLabelTarget } from '../../components/probe-label-slot';

export interface LabelPrintButtonProps {
  /** A sample, or a kit order's kits (`of: 'probe-sets'`). */
  probe: ProbeLabelTarget;
}

// The dialog (and the Browser Print client) loads when first opened, not with every sample card.
const LabelPrintDialog = lazy(() =>
  import('./label-print-dialog').then((m) => ({ default: m.LabelPrintDialog })),
);

/** "Drukuj etykiety" ("… zestawów" for a kit order): opens the label dialog (Zebra printer through Browser Print, or a PDF). */
export function LabelPrintButton({ probe }: LabelPrintButtonProps) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button
        variant="light"
        leftSection={<IconPrinter size={16} />}
        {...(probe.of === 'probe-sets'
          ? { 'data-probe-set': probe.id }
          : { 'data-probe': probe.id })}
        onClick={() => setOpened(true)}
      >
        {probe.of === 'probe-sets' ? t('labels.printKitLabels') : t('probe.printLabels')}
      </Button>
      {opened && (
        <Suspense fallback={null}>
          <LabelPrintDialog probe={probe} onClose={() => setOpened(false)} />
        </Suspense>
      )}
    </>
  );
}
