// Query keys, one factory per resource. A key is also the URL the default query function reads
// (its parts joined by '/'), and one key always holds one type of data.

/** The session answer (GET /api/auth/user); lib code needs it to react to an expired session. */
export const sessionQueryKey = ['/api/auth/user'] as const;

export const proxyKeys = {
  /** GET /api/user/proxy-configurations: the prefix of its pages' keys (invalidate it for all). */
  list: ['/api/user/proxy-configurations'] as const,
  /** One page of the caller's proxies (TProxyPage), by its list parameters. */
  page: (query: Record<string, string>) =>
    ['/api/user/proxy-configurations', 'page', query] as const,
  /** GET /api/proxy-configurations/{id}: one configuration (TProxyConfiguration). */
  detail: (id: string) => ['/api/proxy-configurations', id] as const,
};

/** GET /api/destination-servers: the destinations (TDestinationServer[]; the wizard's and the admin's). */
export const destinationServersKey = ['/api/destination-servers'] as const;

/** The saved SSH servers (docs/PRODUCT.md#ssh-servers): GET /api/ssh-servers and one server. */
export const sshServerKeys = {
  list: ['/api/ssh-servers'] as const,
  detail: (id: string) => ['/api/ssh-servers', id] as const,
};

/** GET /api/deployment-logs/{id}: a configuration's log lines, oldest first (TDeploymentLogEntry[]). */
export const deploymentLogsKey = (id: string) => ['/api/deployment-logs', id] as const;
