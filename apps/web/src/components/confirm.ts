import { modals } from '@mantine/modals';
import { i18n } from '../i18n/i18n';

/**
 * A yes/no question (spec: Nie/Tak). The question is the dialog's title, so it is also the
 * dialog's accessible name.
 */
export function confirmAction(options: {
  question: string;
  danger?: boolean;
  onConfirm: () => void;
}) {
  modals.openConfirmModal({
    title: options.question,
    centered: true,
    withCloseButton: false,
    labels: { confirm: i18n.t('common.yes'), cancel: i18n.t('common.no') },
    confirmProps: { color: options.danger ? 'red' : undefined },
    onConfirm: options.onConfirm,
  });
}
