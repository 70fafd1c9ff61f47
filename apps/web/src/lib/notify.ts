import { notifications } from '@mantine/notifications';
import { i18n } from '../i18n/i18n';

// Auto-close time is set once on <Notifications> (TOAST_AUTO_CLOSE_MS). The close button is an
// icon only: it gets its name here, in the language of the moment.
function show(color: 'green' | 'red' | 'yellow', message: string, sticky = false) {
  notifications.show({
    color,
    message,
    closeButtonProps: { 'aria-label': i18n.t('common.close') },
    ...(sticky ? { autoClose: false } : {}),
  });
}

export function notifySuccess(message: string) {
  show('green', message);
}

/** `sticky`: stays until closed (the booking dialog's validation error, spec §8). */
export function notifyError(message: string, options: { sticky?: boolean } = {}) {
  show('red', message, options.sticky);
}

/** Something the user must do before going on (not an error of the server). */
export function notifyWarning(message: string) {
  show('yellow', message);
}
