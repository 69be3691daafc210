import type { TDnsValidationResult } from '@portico/shared/proxy/api';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api';

/** Against a typed address, or a saved server's (`sshServerId`). */
type TValidateDnsInput = { domain: string } & ({ serverIp: string } | { sshServerId: string });

export function validateDns(input: TValidateDnsInput) {
  return api.requestJson<TDnsValidationResult>('POST', '/api/validate-dns', input);
}

export function useValidateDns() {
  return useMutation({ mutationFn: validateDns });
}
