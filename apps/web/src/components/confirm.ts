import { modals } from '@mantine/modals';
import { i18n } from '../i18n/i18n';

/**
 * A yes/no question (Tak/Nie). The question is the dialog's title, so it is also the
 * dialog's accessible name; `detail` says what follows and becomes its description. Buttons
 * that name the action ("Generuj" / "Anuluj") replace Tak/Nie where no wording is fixed.
 */
export function confirmAction(options: {
  question: string;
  detail?: string;
  confirmLabel?: string;
  cancelLabel?: string;
  danger?: boolean;
  onConfirm: () => void;
}) {
  modals.openConfirmModal({
    title: options.question,
    centered: true,
    withCloseButton: false,
    ...(options.detail ? { children: options.detail } : {}),
    labels: {
      confirm: options.confirmLabel ?? i18n.t('common.yes'),
      cancel: options.cancelLabel ?? i18n.t('common.no'),
    },
    confirmProps: { color: options.danger ? 'red' : undefined },
    onConfirm: options.onConfirm,
  });
}

/**
 * Before a new password is generated (login details of doctors and administrators, a patient's
 * password reset): the current password stops working the moment the server answers.
 */
export function confirmNewPassword(onConfirm: () => void) {
  confirmAction({
    question: i18n.t('credentials.confirmTitle'),
    detail: i18n.t('credentials.confirmDetail'),
    confirmLabel: i18n.t('credentials.confirmGenerate'),
    cancelLabel: i18n.t('common.cancel'),
    onConfirm,
  });
}
