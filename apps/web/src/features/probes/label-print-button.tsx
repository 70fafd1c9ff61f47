import { Button } from '@mantine/core';
import { IconPrinter } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';

export interface LabelPrintButtonProps {
  probe: {
    id: number;
    code: string;
    type_of_material: string;
    collect_place: string;
    /** The amount the dialog starts with (a kit order's labels_amount); 1 when not given. */
    labels_amount?: number;
  };
}

// The dialog (and the Browser Print client) loads when first opened, not with every sample card.
const LabelPrintDialog = lazy(() =>
  import('./label-print-dialog').then((m) => ({ default: m.LabelPrintDialog })),
);

/** "Drukuj etykiety": opens the label dialog (Zebra printer through Browser Print, or a PDF). */
export function LabelPrintButton({ probe }: LabelPrintButtonProps) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button
        variant="light"
        leftSection={<IconPrinter size={16} />}
        data-probe={probe.id}
        onClick={() => setOpened(true)}
      >
        {t('probe.printLabels')}
      </Button>
      {opened && (
        <Suspense fallback={null}>
          <LabelPrintDialog probe={probe} onClose={() => setOpened(false)} />
        </Suspense>
      )}
    </>
  );
}
