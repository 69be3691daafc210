/**
 * Told when sessions end by someone's action in this process (a session ended from the settings
 * page, the other sessions ended by a password change), so the log sockets opened in them close
 * at once. Sessions that end elsewhere (expiry, the CLI, another instance) are caught by the
 * gateway's periodic check instead.
 */
export type TSessionEnds = ReturnType<typeof createSessionEnds>;

export function createSessionEnds() {
  const listeners = new Set<(sids: string[]) => void>();
  return {
    subscribe(listener: (sids: string[]) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    publish(sids: string[]): void {
      if (sids.length === 0) return;
      for (const listener of listeners) listener(sids);
    },
  };
}
