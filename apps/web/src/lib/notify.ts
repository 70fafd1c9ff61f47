import { notifications } from '@mantine/notifications';
import { i18n } from '../i18n/i18n';

// Auto-close time is set once on <Notifications> (TOAST_AUTO_CLOSE_MS). The close button is an
// icon only: it gets its name here, in the language of the moment.
function show(color: 'green' | 'red' | 'yellow', message: string, sticky = false, id?: string) {
  const toast = {
    color,
    message,
    closeButtonProps: { 'aria-label': i18n.t('common.close') },
    ...(sticky ? { autoClose: false } : {}),
  };
  // A toast with an id is shown once: asked again, it is brought back rather than repeated.
  if (id) {
    notifications.hide(id);
    notifications.show({ ...toast, id });
  } else {
    notifications.show(toast);
  }
}

/**
 * Takes a toast away: a validation toast leaves as soon as what it asked for is done (the
 * wizard's step, ADR 039), rather than standing over the fixed form until it times out.
 */
export function hideToast(id: string) {
  notifications.hide(id);
}

export function notifySuccess(message: string) {
  show('green', message);
}

/**
 * `sticky`: stays until closed (the booking dialog's validation error); `id`: one
 * toast that `hideToast` can take away.
 */
export function notifyError(message: string, options: { sticky?: boolean; id?: string } = {}) {
  show('red', message, options.sticky, options.id);
}

/** Something the user must do before going on (not an error of the server). */
export function notifyWarning(message: string, options: { id?: string } = {}) {
  show('yellow', message, false, options.id);
}
