import type * as React from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Button } from '@/components/ui/button';
import { toastOutcome } from '@/lib/toast-outcome';
import { useCertificateTexts } from '@/lib/use-group-texts';

/**
 * A certificate section's "remove" (an uploaded certificate, a DNS challenge): a confirmation
 * first, then the removal, told as it ended. `texts` is the catalog prefix holding `remove`,
 * `removeConfirm.{title,description,confirm}`, `removed`, `deployHint` and `removeFailed`.
 */
export function RemoveWithConfirm({
  texts,
  testId,
  icon,
  params,
  remove,
}: {
  texts: 'certificate.upload' | 'certificate.dns' | 'certificate.wildcard';
  testId: string;
  icon: React.ReactNode;
  params?: Record<string, string>;
  remove: () => Promise<unknown>;
}) {
  const { t } = useCertificateTexts();
  return (
    <ConfirmDialog
      testId={testId}
      title={t(`${texts}.removeConfirm.title`)}
      description={t(`${texts}.removeConfirm.description`, params)}
      confirm={t(`${texts}.removeConfirm.confirm`)}
      onConfirm={() =>
        void toastOutcome(remove, t, {
          success: t(`${texts}.removed`),
          successDescription: t(`${texts}.deployHint`),
          failure: t(`${texts}.removeFailed`),
        })
      }
      trigger={
        <Button variant="outline" size="sm" data-testid={testId}>
          {icon}
          {t(`${texts}.remove`)}
        </Button>
      }
    />
  );
}
