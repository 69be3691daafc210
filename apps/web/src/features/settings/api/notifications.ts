import type {
  TEmailCodeInput,
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

/** A write the server answers with the settings as they now are, which the section shows. */
function useSettingsWrite<TInput>(method: 'PUT' | 'POST', url: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: TInput) => api.requestJson<TNotificationSettings>(method, url, input),
    onSuccess: (settings) => queryClient.setQueryData(notificationsKey, settings),
  });
}

export const useSaveNotifications = () =>
  useSettingsWrite<TNotificationSettingsInput>('PUT', '/api/account/notifications');

/** A code to the account's address (the server counts them per account). */
export const useSendEmailCode = () =>
  useSettingsWrite<undefined>('POST', '/api/account/notifications/email/code');

export const useVerifyEmail = () =>
  useSettingsWrite<TEmailCodeInput>('POST', '/api/account/notifications/email/verify');

export const useSendTestNotification = () =>
  useMutation({
    mutationFn: () =>
      api.requestJson<TNotificationTestResult>('POST', '/api/account/notifications/test'),
  });
