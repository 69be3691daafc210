import type { TDeploymentLogRow } from '../../db/schema';
import type { TProxiesService } from '../proxies/proxies.service';
import type { TSessionsRepository } from '../sessions/sessions.repository';
import type { TUsersRepository } from '../users/users.repository';
import type { TDeploymentsRepository } from './deployments.repository';

export type TLiveLogService = ReturnType<typeof createLiveLogService>;

/** What the log socket reads: who may watch, the current run's lines, whether watchers still may. */
export function createLiveLogService(deps: {
  proxies: TProxiesService;
  deployments: TDeploymentsRepository;
  sessions: TSessionsRepository;
  users: TUsersRepository;
}) {
  return {
    /** The configuration when `user` may watch it (owner or admin); throws otherwise. */
    load: deps.proxies.load,
    /** The newest run of a configuration and its lines so far; none when it never ran. */
    async currentRun(
      configurationId: string,
    ): Promise<{ id: string | null; lines: TDeploymentLogRow[] }> {
      const latest = await deps.deployments.latestFor(configurationId);
      if (!latest) return { id: null, lines: [] };
      return { id: latest.id, lines: await deps.deployments.logsOfRun(latest.id) };
    },
    /** The account each of these sessions is signed in to now (absent: ended). */
    usersOfSessions: (sids: string[]) => deps.sessions.usersOf(sids),
    /** The account's role as stored now (no cache): an admin demoted elsewhere loses streams. */
    async roleOf(userId: string): Promise<string | undefined> {
      return (await deps.users.findById(userId))?.role;
    },
  };
}
