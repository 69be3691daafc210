import type { TImportReport } from '@portico/shared/transfer/schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { proxyKeys } from '@/lib/query-keys';

// Export and import of the account's servers and proxies (docs/PRODUCT.md#export-and-import).

/** The export as a file, saved through a link the browser downloads. */
export function useExportAccount() {
  return useMutation({
    mutationFn: async (passphrase: string) => {
      const res = await api.request(
        'POST',
        '/api/account/export',
        passphrase ? { passphrase } : {},
      );
      const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1];
      const url = URL.createObjectURL(await res.blob());
      const link = document.createElement('a');
      link.href = url;
      link.download = name ?? 'portico-export.json';
      document.body.append(link);
      link.click();
      link.remove();
      // After the click's task: the download has taken the blob by then.
      setTimeout(() => URL.revokeObjectURL(url), 0);
    },
  });
}

/** An export file's servers and proxies added to the account; their lists read again. */
export function useImportAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { document: unknown; passphrase?: string }) =>
      api.requestJson<TImportReport>('POST', '/api/account/import', input),
    // Not awaited: the import is done; the lists read again whenever they are next shown.
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: proxyKeys.list });
      void queryClient.invalidateQueries({ queryKey: ['/api/ssh-servers'] });
    },
  });
}
