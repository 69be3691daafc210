import type {
  TNotificationSettings,
  TNotificationSettingsInput,
  TNotificationTestResult,
} from '@portico/shared/notifications/schemas';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';

// The Notifications section's calls (issue 15): certificate alerts by e-mail and webhook.
export const notificationsKey = ['/api/account/notifications'] as const;

export const useNotificationSettings = () =>
  useQuery({
    queryKey: notificationsKey,
    queryFn: api.getQueryFn<TNotificationSettings>({ on401: 'throw' }),
  });

export function useSaveNotifications() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: TNotificationSettingsInput) =>
      api.requestJson<TNotificationSettings>('PUT', '/api/account/notifications', input),
    onSuccess: (settings) => queryClient.setQueryData(notificationsKey, settings),
  });
}

export const useSendTestNotification = () =>
  useMutation({
    mutationFn: () =>
      api.requestJson<TNotificationTestResult>('POST', '/api/account/notifications/test'),
  });
