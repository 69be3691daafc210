import { ReplaceIcon } from 'lucide-react';
import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { PlanDialogFrame } from '@/components/plan/plan-dialog';
import { toast } from '@/hooks/use-toast';
import { toastFailure } from '@/lib/toast-outcome';
import { useServersTexts } from '@/lib/use-group-texts';
import { useConvertPlan, useConvertProxy } from '../api/convert-proxy';

/**
 * "Convert to Portico's configuration": the plan first (read anew at each opening: the
 * hand-written file removed, Portico's written, the certificate kept), then the conversion with
 * the plan's fingerprint; the server refuses it when the file changed since.
 */
export function ConvertDialog({
  proxyId,
  domain,
  open,
  onOpenChange,
}: {
  proxyId: string;
  domain: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { t } = useServersTexts();
  const { t: tAll } = useTranslation();
  const plan = useConvertPlan();
  const convert = useConvertProxy();
  const { mutate, reset } = plan;

  React.useEffect(() => {
    if (open) mutate({ id: proxyId });
    else reset();
  }, [open, proxyId, mutate, reset]);

  const run = async (fingerprint: string) => {
    try {
      await convert.mutateAsync({ id: proxyId, fingerprint });
      toast({ title: t('servers.adopted.converted', { domain }) });
      onOpenChange(false);
    } catch (error) {
      toastFailure(error, tAll, t('servers.adopted.convertFailed'));
      mutate({ id: proxyId });
    }
  };

  return (
    <PlanDialogFrame
      open={open}
      onOpenChange={onOpenChange}
      title={t('servers.adopted.convertTitle', { domain })}
      description={t('servers.adopted.convertDescription')}
      plan={plan}
      onApply={run}
      applying={convert.isPending}
      labels={{
        close: t('servers.adopted.convertClose'),
        apply: t('servers.adopted.convertApply'),
        applying: t('servers.adopted.converting'),
      }}
      icon={<ReplaceIcon aria-hidden="true" />}
      testId="convert"
    />
  );
}
