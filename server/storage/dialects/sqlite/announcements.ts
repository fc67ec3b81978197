import type { Announcements } from '../../contract/adapter.js';

/**
 * SQLite has no channel between processes: the processes that share a file are the workers of one
 * cluster, and their primary relays word of each commit (server/cluster.ts).
 */
export const sqliteAnnouncements: Announcements = {
  reachOtherProcesses: false,
  announce(): void {},
  interest(): void {},
  async listen(): Promise<() => Promise<void>> {
    return async () => {};
  },
};
