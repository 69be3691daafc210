import {
  ZEmailCodeInput,
  ZLanguageInput,
  ZNotificationSettings,
  ZNotificationSettingsInput,
  ZNotificationTestResult,
} from '@portico/shared/notifications/schemas';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ACCOUNT_ERRORS, ACCOUNT_TAGS } from '../../lib/account-routes';
import { errorResponses } from '../../lib/error-responses';
import type { TMessageRateLimits } from '../../lib/rate-limits';
import type { TNotificationsService } from './notifications.service';

/** The Notifications section of the settings page: signed-in browser sessions only. */
export async function notificationsRoutes(
  app: FastifyInstance,
  options: { notifications: TNotificationsService; limits: TMessageRateLimits },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { notifications, limits } = options;
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

  // Each test and each code is a message Portico sends where the user says: counted per account.
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
      preHandler: app.routeLimit(
        'notification-test',
        [{ ...limits.testSend, by: 'user' }],
        'test_send_limited',
      ),
    },
    async (request) => notifications.sendTest(request.user!, request.language),
  );

  r.post(
    '/api/account/notifications/email/code',
    {
      schema: {
        tags,
        summary: 'Mail a code that verifies the address alerts go to',
        operationId: 'sendNotificationEmailCode',
        response: { 200: ZNotificationSettings, ...ACCOUNT_ERRORS, ...errorResponses(502) },
      },
      config,
      preValidation,
      preHandler: app.routeLimit(
        'email-code',
        [{ ...limits.emailCode, by: 'user' }],
        'email_code_limited',
      ),
    },
    async (request) => notifications.sendEmailCode(request.user!, request.language),
  );

  r.post(
    '/api/account/notifications/email/verify',
    {
      schema: {
        tags,
        summary: 'Verify the address alerts go to with the code mailed there',
        operationId: 'verifyNotificationEmail',
        body: ZEmailCodeInput,
        response: { 200: ZNotificationSettings, ...ACCOUNT_ERRORS },
      },
      config,
      preValidation,
    },
    async (request) => notifications.verifyEmail(request.user!, request.body.code),
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
