import { Button } from '@mantine/core';
import { IconPrinter } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

export interface LabelPrintButtonProps {
  probe: { id: number; code: string; type_of_material: string; collect_place: string };
}

// Issue 10 in progress: the label dialog (ZPL and PDF) is built on its own branch and replaces
// this file; the samples tab and the sample's page place the button already.
export function LabelPrintButton({ probe }: LabelPrintButtonProps) {
  const { t } = useTranslation();
  return (
    <Button variant="light" leftSection={<IconPrinter size={16} />} data-probe={probe.id}>
      {t('probe.printLabels')}
    </Button>
  );
}
