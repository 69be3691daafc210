import type { TSshServer } from '@portico/shared/ssh-servers/schemas';
import type { TSshServerRow, TUserRow } from '../../db/schema';
import { sshServerErrors } from './ssh-server-errors';
import { toSshServer } from './ssh-server-view';
import type { TSshServersRepository } from './ssh-servers.repository';

export type TActor = Pick<TUserRow, 'id' | 'username' | 'role'>;

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
  repository: Pick<TSshServersRepository, 'ownerOf' | 'proxyCount'>,
  row: TSshServerRow,
  actor: TActor,
): Promise<TSshServer> {
  const owner = row.userId === actor.id ? actor.username : await repository.ownerOf(row.userId);
  return toSshServer(row, owner, await repository.proxyCount(row.id));
}
