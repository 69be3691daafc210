import { ZCsrfTokenResponse } from '@portico/shared/auth/schemas';
import { useMutation } from '@tanstack/react-query';
import { throwIfResNotOk } from '@/lib/api-client';
import { currentLanguage } from '@/lib/i18n';

export const SCRIPT_MAX_BYTES = 64 * 1024;

export type TScriptProblem = 'type' | 'size' | 'empty';

/** `.sh` only, at most 64 KiB (docs/PRODUCT.md#custom-deployment-script); the server checks again (text, size). */
export function scriptProblem(file: Pick<File, 'name' | 'size'>): TScriptProblem | null {
  if (!/\.sh$/i.test(file.name)) return 'type';
  if (file.size === 0) return 'empty';
  if (file.size > SCRIPT_MAX_BYTES) return 'size';
  return null;
}

async function csrfToken(): Promise<string> {
  const res = await fetch('/api/csrf-token', {
    credentials: 'include',
    headers: { Accept: 'application/json', 'Accept-Language': currentLanguage() },
  });
  await throwIfResNotOk(res);
  return ZCsrfTokenResponse.parse(await res.json()).token;
}

/**
 * Multipart upload (field `script`). The shared client only sends JSON bodies, so this asks for
 * its own CSRF token and retries once on a CSRF refusal, as the client does.
 */
export async function uploadScript(file: File, configurationId?: string) {
  const url = configurationId
    ? `/api/upload-script?configurationId=${encodeURIComponent(configurationId)}`
    : '/api/upload-script';
  const send = async () => {
    const body = new FormData();
    body.append('script', file, file.name);
    return fetch(url, {
      method: 'POST',
      body,
      credentials: 'include',
      headers: {
        Accept: 'application/json',
        'Accept-Language': currentLanguage(),
        'X-CSRF-Token': await csrfToken(),
      },
    });
  };
  let res = await send();
  if (res.status === 403 && /csrf/i.test(await res.clone().text())) res = await send();
  await throwIfResNotOk(res);
  return (await res.json()) as { filename: string };
}

export function useUploadScript() {
  return useMutation({
    mutationFn: ({ file, configurationId }: { file: File; configurationId?: string }) =>
      uploadScript(file, configurationId),
  });
}
