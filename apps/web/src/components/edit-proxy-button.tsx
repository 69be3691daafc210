import type { TProxyStatus } from '@portico/shared/proxy/schemas';
import { PencilIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Unavailable } from '@/components/ui/unavailable';
import { unavailableReason } from '@/lib/proxy-status';

type TProps = {
  status: TProxyStatus;
  /** Adopted as it is: its file, which Portico never writes (the edit is refused). */
  adoption?: { file: string } | undefined;
  /** The visible word. */
  label: string;
  /** The accessible name, naming the proxy ("Edit app.example.com"). */
  name: string;
  onClick: () => void;
  testId: string;
};

/**
 * Edit on a proxy, for its owner (home) and for an admin (All Proxies): unavailable, with the
 * reason, while the server would refuse the edit (a deployment runs, the site is adopted).
 */
export function EditProxyButton({ status, adoption, label, name, onClick, testId }: TProps) {
  const { t } = useTranslation();
  return (
    <Unavailable reason={unavailableReason(t, { status, adoption }, 'edit')}>
      <Button variant="outline" size="sm" onClick={onClick} aria-label={name} data-testid={testId}>
        <PencilIcon aria-hidden="true" />
        {label}
      </Button>
    </Unavailable>
  );
}
