import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  NotificationList,
  NotificationPreferences,
  NotificationPreferencesBody,
  OutboxList,
  SmtpSettingResponse,
  SmtpValue,
} from '@portal/shared';
import { api } from '../../lib/api-client';

/** Everything of this feature under one key: a write refreshes it all. */
const KEY = 'notifications';
const keys = {
  bell: () => [KEY, 'bell'] as const,
  preferences: () => [KEY, 'preferences'] as const,
  smtp: () => [KEY, 'smtp'] as const,
  failed: () => [KEY, 'outbox', 'failed'] as const,
};

/** How often the bell asks for news while the page is open (it is a count and ten rows). */
const BELL_REFRESH_MS = 60_000;

/** The caller's ten newest notifications and the unread count (the bell). */
export function useBell() {
  return useQuery({
    queryKey: keys.bell(),
    queryFn: ({ signal }) => api.request<NotificationList>('/notifications?limit=10', { signal }),
    refetchInterval: BELL_REFRESH_MS,
  });
}

export function useMarkRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.post<{ unread: number }>(`/notifications/${id}/read`, {}),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.bell() }),
  });
}

export function usePreferences() {
  return useQuery({
    queryKey: keys.preferences(),
    queryFn: ({ signal }) =>
      api
        .request<{ data: NotificationPreferences }>('/me/notification_preferences', { signal })
        .then((answer) => answer.data),
  });
}

export function useSavePreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: NotificationPreferencesBody) =>
      api
        .put<{ data: NotificationPreferences }>('/me/notification_preferences', body)
        .then((answer) => answer.data),
    onSuccess: (saved) => queryClient.setQueryData(keys.preferences(), saved),
  });
}

export function useSmtp() {
  return useQuery({
    queryKey: keys.smtp(),
    queryFn: ({ signal }) =>
      api.request<SmtpSettingResponse>('/settings/smtp', { signal }).then((answer) => answer.data),
  });
}

export function useSaveSmtp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ value, version }: { value: SmtpValue; version: number }) =>
      api
        .post<SmtpSettingResponse>('/settings/smtp', { value, version })
        .then((answer) => answer.data),
    onSuccess: (saved) => queryClient.setQueryData(keys.smtp(), saved),
  });
}

export function useTestSmtp() {
  return useMutation({
    mutationFn: () => api.post<{ status: 'success'; to: string }>('/settings/smtp/test', {}),
  });
}

/** E-mails that did not go (bounced addresses, attempts used up), newest first. */
export function useFailedMail() {
  return useQuery({
    queryKey: keys.failed(),
    queryFn: ({ signal }) =>
      api.request<OutboxList>('/notifications/outbox?status=failed&limit=20', { signal }),
  });
}
