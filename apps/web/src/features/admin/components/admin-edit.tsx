import type { TAdminProxyRow } from '@portico/shared/admin/api';
import type { TProxyConfiguration } from '@portico/shared/proxy/api';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import * as React from 'react';
import { proxyConfigurationQueryOptions } from '@/lib/live-deployment/queries';
import { toastFailure } from '@/lib/toast-outcome';
import { useAdminTexts } from '@/lib/use-group-texts';
import { allProxiesKey, proxiesByUserKey } from '../api/queries';

type TAdminEditProps = {
  proxy: TProxyConfiguration;
  owner: { username: string; email: string };
  open: boolean;
  onOpenChange: (open: boolean) => void;
};
/** The edit dialog in admin mode, supplied by the app layer (features never import each other). */
export type TRenderAdminEdit = (props: TAdminEditProps) => React.ReactNode;

/**
 * The admin row lacks the SSH fields the dialog edits, so the full configuration is read first
 * (admins may read any); saving then never blanks a field the row did not carry.
 */
export function AdminEdit({
  row,
  onClose,
  renderEdit,
}: {
  row: TAdminProxyRow;
  onClose: () => void;
  renderEdit: TRenderAdminEdit;
}) {
  const { t } = useAdminTexts();
  const queryClient = useQueryClient();
  const { data, isError, error } = useQuery(proxyConfigurationQueryOptions(row.id));
  // biome-ignore lint/correctness/useExhaustiveDependencies: react once to the failure
  React.useEffect(() => {
    if (!isError) return;
    toastFailure(error, t, t('admin.errors.loadProxy'));
    onClose();
  }, [isError]);
  if (!data) return null;
  return renderEdit({
    proxy: data,
    owner: { username: row.username, email: row.email },
    open: true,
    onOpenChange: (open) => {
      if (open) return;
      void queryClient.invalidateQueries({ queryKey: allProxiesKey });
      void queryClient.invalidateQueries({ queryKey: proxiesByUserKey });
      onClose();
    },
  });
}
