import { notifications } from '@mantine/notifications';

// Auto-close time is set once on <Notifications> (TOAST_AUTO_CLOSE_MS).
export function notifySuccess(message: string) {
  notifications.show({ color: 'green', message });
}

export function notifyError(message: string) {
  notifications.show({ color: 'red', message });
}
