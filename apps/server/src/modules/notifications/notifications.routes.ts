import { pickLanguage } from '@portico/shared/api-error';
import {
  ZLanguageInput,
  ZNotificationSettings,
  ZNotificationSettingsInput,
  ZNotificationTestResult,
} from '@portico/shared/notifications/schemas';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ACCOUNT_ERRORS, ACCOUNT_TAGS } from '../../lib/account-routes';
import type { TNotificationsService } from './notifications.service';

/** The Notifications section of the settings page: signed-in browser sessions only. */
export async function notificationsRoutes(
  app: FastifyInstance,
  options: { notifications: TNotificationsService },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { notifications } = options;
  const config = { sessionOnly: true };
  const tags = ACCOUNT_TAGS;
  const preValidation = app.requireUser;

  r.get(
    '/api/account/notifications',
    {
      schema: {
        tags,
        summary: 'Get where certificate alerts are sent',
        operationId: 'getNotificationSettings',
        response: { 200: ZNotificationSettings, ...ACCOUNT_ERRORS },
      },
      config,
      preValidation,
    },
    async (request) => notifications.settings(request.user!),
  );

  r.put(
    '/api/account/notifications',
    {
      schema: {
        tags,
        summary: 'Choose where certificate alerts are sent',
        operationId: 'saveNotificationSettings',
        body: ZNotificationSettingsInput,
        response: { 200: ZNotificationSettings, ...ACCOUNT_ERRORS },
      },
      config,
      preValidation,
    },
    async (request) => notifications.save(request.user!, request.body),
  );

  r.post(
    '/api/account/notifications/test',
    {
      schema: {
        tags,
        summary: 'Send a test alert to the configured channels',
        operationId: 'sendTestNotification',
        response: { 200: ZNotificationTestResult, ...ACCOUNT_ERRORS },
      },
      config,
      preValidation,
    },
    async (request) =>
      notifications.sendTest(request.user!, pickLanguage(request.headers['accept-language'])),
  );

  // The screen's language, told by the web when it changes: alerts are written in it. Allowed
  // before a required two-factor setup too (the language menu is on that screen).
  r.put(
    '/api/account/language',
    {
      schema: {
        tags,
        summary: 'Set the language alerts are written in',
        operationId: 'setLanguage',
        body: ZLanguageInput,
        response: { 200: z.object({ language: z.enum(['en', 'es']) }), ...ACCOUNT_ERRORS },
      },
      config: { ...config, beforeTwoFactorSetup: true },
      preValidation,
    },
    async (request) => {
      await notifications.setLanguage(request.user!, request.body.language);
      return { language: request.body.language };
    },
  );
}
