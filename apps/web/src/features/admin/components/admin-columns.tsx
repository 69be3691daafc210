import { Breakable } from '@/components/ui/breakable';
import type { TColumn } from '@/components/ui/data-table';

/** Who owns a row of an admin list: the username, the e-mail under it. */
export function OwnerCell({ username, email }: { username: string; email: string }) {
  return (
    <div className="min-w-0 [overflow-wrap:anywhere]">
      <div className="font-medium">{username}</div>
      <div className="text-xs text-muted-foreground">
        <Breakable text={email} />
      </div>
    </div>
  );
}

/** The columns every admin list has: the proxy's domain, and its owner. */
export function domainAndOwnerColumns<
  T extends { domain: string; username: string; email: string },
>(domain: string, owner: string): { domain: TColumn<T>; owner: TColumn<T> } {
  return {
    domain: {
      key: 'domain',
      header: domain,
      className: 'max-w-[14rem] font-medium [overflow-wrap:anywhere]',
      cell: (row) => <Breakable text={row.domain} />,
    },
    owner: {
      key: 'owner',
      header: owner,
      className: 'max-w-[14rem]',
      cell: (row) => <OwnerCell username={row.username} email={row.email} />,
    },
  };
}
