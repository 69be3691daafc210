import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api';

export const SCRIPT_MAX_BYTES = 64 * 1024;

export type TScriptProblem = 'type' | 'size' | 'empty';

/** `.sh` only, at most 64 KiB (docs/PRODUCT.md#custom-deployment-script); the server checks again (text, size). */
export function scriptProblem(file: Pick<File, 'name' | 'size'>): TScriptProblem | null {
  if (!/\.sh$/i.test(file.name)) return 'type';
  if (file.size === 0) return 'empty';
  if (file.size > SCRIPT_MAX_BYTES) return 'size';
  return null;
}

/** Multipart upload (field `script`) through the shared client: its CSRF token and retry. */
export function uploadScript(file: File, configurationId?: string) {
  const url = configurationId
    ? `/api/upload-script?configurationId=${encodeURIComponent(configurationId)}`
    : '/api/upload-script';
  const body = new FormData();
  body.append('script', file, file.name);
  return api.requestJson<{ filename: string }>('POST', url, body);
}

export function useUploadScript() {
  return useMutation({
    mutationFn: ({ file, configurationId }: { file: File; configurationId?: string }) =>
      uploadScript(file, configurationId),
  });
}
