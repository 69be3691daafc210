import type { TSshServer } from '@portico/shared/ssh-servers/schemas';
import type { TSshServerRow, TUserRow } from '../../db/schema';
import { sshServerErrors } from './ssh-server-errors';
import { toSshServer } from './ssh-server-view';
import type { TSshServersRepository } from './ssh-servers.repository';

export type TActor = Pick<TUserRow, 'id' | 'username' | 'role'>;

/** What the saved servers ask of the users module about an owner (services.ts hands it over). */
export interface TServerOwnerReads {
  /** The owner's name, shown beside a server that is not the caller's. */
  usernameOf(userId: string): Promise<string>;
  /** The address a site adopted on the owner's server is recorded with (the proxy's e-mail). */
  emailOf(userId: string): Promise<string>;
}

/** The row when the actor may see it: its owner, or an admin; 404 otherwise. */
export async function loadServer(
  repository: Pick<TSshServersRepository, 'findById'>,
  actor: TActor,
  id: string,
): Promise<TSshServerRow> {
  const row = await repository.findById(id);
  if (!row || (row.userId !== actor.id && actor.role !== 'admin')) {
    throw sshServerErrors.notFound();
  }
  return row;
}

/** The API view of a row, with its owner's name and its proxy count. */
export async function serverView(
  repository: Pick<TSshServersRepository, 'proxyCount'>,
  owners: Pick<TServerOwnerReads, 'usernameOf'>,
  row: TSshServerRow,
  actor: TActor,
): Promise<TSshServer> {
  const owner = row.userId === actor.id ? actor.username : await owners.usernameOf(row.userId);
  return toSshServer(row, owner, await repository.proxyCount(row.id));
}
