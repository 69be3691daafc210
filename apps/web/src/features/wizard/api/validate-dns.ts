import type { TDnsValidationResult } from '@portico/shared/proxy/api';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api';

type TValidateDnsInput = { domain: string; serverIp: string };

export function validateDns(input: TValidateDnsInput) {
  return api.requestJson<TDnsValidationResult>('POST', '/api/validate-dns', input);
}

export function useValidateDns() {
  return useMutation({ mutationFn: validateDns });
}
