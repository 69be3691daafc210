import type { TCheckDuplicateResponse } from '@portico/shared/proxy/api';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api';

type TCheckDuplicateInput = {
  domain: string;
  serverIp: string;
  sshUser: string;
  /** The configuration being resumed is not its own duplicate. */
  configurationId?: string;
};

function checkDuplicate(input: TCheckDuplicateInput) {
  return api.requestJson<TCheckDuplicateResponse>(
    'POST',
    '/api/check-duplicate-configuration',
    input,
  );
}

export function useCheckDuplicate() {
  return useMutation({ mutationFn: checkDuplicate });
}
