import { Link } from 'wouter';
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

/** A proxy's domain as the link to its details page (an admin may open anyone's). */
export function DomainLink({ id, domain }: { id: string; domain: string }) {
  return (
    <Link
      href={`/proxy-details/${encodeURIComponent(id)}`}
      className="rounded-sm text-primary underline-offset-4 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
      data-testid="admin-domain-link"
    >
      <Breakable text={domain} />
    </Link>
  );
}

/** The columns every admin list has: the proxy's domain (a link to it), and its owner. */
export function domainAndOwnerColumns<
  T extends { domain: string; username: string; email: string },
>(
  domain: string,
  owner: string,
  idOf: (row: T) => string,
): { domain: TColumn<T>; owner: TColumn<T> } {
  return {
    domain: {
      key: 'domain',
      header: domain,
      className: 'min-w-[15rem] max-w-[20rem] font-medium',
      cell: (row) => <DomainLink id={idOf(row)} domain={row.domain} />,
    },
    owner: {
      key: 'owner',
      header: owner,
      className: 'max-w-[14rem]',
      cell: (row) => <OwnerCell username={row.username} email={row.email} />,
    },
  };
}
