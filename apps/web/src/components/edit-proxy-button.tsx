import type { TProxyStatus } from '@portico/shared/proxy/schemas';
import { PencilIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Unavailable } from '@/components/ui/unavailable';
import { unavailableReasonKey } from '@/lib/proxy-status';

type TProps = {
  status: TProxyStatus;
  /** The visible word. */
  label: string;
  /** The accessible name, naming the proxy ("Edit app.example.com"). */
  name: string;
  onClick: () => void;
  testId: string;
};

/**
 * Edit on a proxy, for its owner (home) and for an admin (All Proxies): unavailable, with the
 * reason, while the server would refuse the edit (a deployment runs).
 */
export function EditProxyButton({ status, label, name, onClick, testId }: TProps) {
  const { t } = useTranslation();
  const blocked = unavailableReasonKey({ status }, 'edit');
  return (
    <Unavailable reason={blocked ? t(blocked) : null}>
      <Button variant="outline" size="sm" onClick={onClick} aria-label={name} data-testid={testId}>
        <PencilIcon aria-hidden="true" />
        {label}
      </Button>
    </Unavailable>
  );
}
