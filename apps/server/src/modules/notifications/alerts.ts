import type { TUserRow } from '../../db/schema';
import { alertMessage, goesToAdmins, type TAlertEvent } from './alert-message';
import type { TNotificationsService } from './notifications.service';
import { recipientLanguage } from './notifications.service';

export type TAlerts = ReturnType<typeof createAlerts>;

/**
 * Sends a certificate alert to the proxy's owner, and to every administrator for the urgent
 * kinds (danger, a failed check), each in their own language. Delivery failures are logged by
 * the notifications service; an alert never fails the check or the run that raised it.
 */
export function createAlerts(deps: {
  notifications: Pick<TNotificationsService, 'deliver'>;
  findUser: (id: string) => Promise<TUserRow | undefined>;
  listAdmins: () => Promise<TUserRow[]>;
  now: () => Date;
}) {
  return {
    async send(
      proxy: { id: string; domain: string; userId: string },
      event: TAlertEvent,
    ): Promise<void> {
      const owner = await deps.findUser(proxy.userId);
      if (!owner) return;
      const recipients: { user: TUserRow; asAdmin: boolean }[] = [{ user: owner, asAdmin: false }];
      if (goesToAdmins(event)) {
        for (const user of await deps.listAdmins()) {
          if (user.id !== owner.id) recipients.push({ user, asAdmin: true });
        }
      }
      const now = deps.now();
      const details = {
        event: event.kind,
        domain: proxy.domain,
        configurationId: proxy.id,
        notAfter: 'notAfter' in event ? event.notAfter : null,
      };
      await Promise.allSettled(
        recipients.map(({ user, asAdmin }) =>
          deps.notifications.deliver(
            user,
            alertMessage(recipientLanguage(user), event, {
              domain: proxy.domain,
              owner: asAdmin ? owner.username : undefined,
              now,
            }),
            details,
          ),
        ),
      );
    },
  };
}
