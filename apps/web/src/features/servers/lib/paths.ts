/** The saved servers' list and one server's page. */
export const SERVERS_HREF = '/servers';
export const serverHref = (id: string) => `${SERVERS_HREF}/${encodeURIComponent(id)}`;
