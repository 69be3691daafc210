import type { TSshTestResult } from '@portico/shared/proxy/api';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api';

type TTestSshInput =
  | {
      serverIp: string;
      username: string;
      port: number;
      /** Left out when resuming: the server uses the stored password of configurationId. */
      password?: string;
      configurationId?: string;
    }
  | { sshServerId: string };

export function testSsh(input: TTestSshInput) {
  return api.requestJson<TSshTestResult>('POST', '/api/test-ssh', input);
}

export function useTestSsh() {
  return useMutation({ mutationFn: testSsh });
}
