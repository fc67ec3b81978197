/** What the import did with one collection of the source. */
export interface CollectionCount {
  /** As the source names it (`nodes`, `events_cache`, a series' mid). */
  readonly collection: string;
  /** What it was read as: `resources`, `series`, `points`, or `skipped`. */
  readonly role: string;
  /** Why it was skipped, or what changed on the way. */
  note?: string;
  /** Documents (versions, registrations, points) read. */
  read: number;
  /** Stored by this run. */
  imported: number;
  /** Present already (a repeated import), or, for points, not kept by the series (ttl, cap). */
  skipped: number;
  /** Imported, but refused by this service's schemas (each listed as it is met). */
  refused: number;
  /** Could not be read at all (each named with its place). */
  unreadable: number;
}

/** A document this service's schemas refuse: imported all the same, and named. */
export interface Refusal {
  readonly collection: string;
  readonly id: string;
  readonly ts: number;
  readonly pointer: string;
  readonly message: string;
}

/** A document that could not be read: where, and why. */
export interface Unreadable {
  readonly collection: string;
  readonly place: string;
  readonly message: string;
}

/** What the whole run did. */
export interface ImportReport {
  readonly source: string;
  readonly dryRun: boolean;
  readonly collections: readonly CollectionCount[];
  /** The old bases whose references were moved onto this service's. */
  readonly rebased: readonly string[];
  readonly seconds: number;
  /** The process's resident memory when reading began, and its peak over the run (bytes). */
  readonly memory: { readonly start: number; readonly peak: number };
}

const mib = (bytes: number): string => `${Math.round(bytes / 2 ** 20)} MiB`;

const COLUMNS = ['read', 'imported', 'skipped', 'refused', 'unreadable'] as const;

/** The final table: one row per collection, then the totals. */
export function reportTable(report: ImportReport): string {
  const rows: string[][] = [['collection', 'as', ...COLUMNS]];
  const total = { read: 0, imported: 0, skipped: 0, refused: 0, unreadable: 0 };
  for (const c of report.collections) {
    rows.push([c.collection, c.role, ...COLUMNS.map((k) => c[k].toLocaleString('en-US'))]);
    for (const k of COLUMNS) total[k] += c[k];
  }
  rows.push(['total', '', ...COLUMNS.map((k) => total[k].toLocaleString('en-US'))]);
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const line = (r: string[]): string => r.map((cell, i) => (i < 2 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ').trimEnd();
  const rate = report.seconds > 0 ? ` (${Math.round(total.read / report.seconds).toLocaleString('en-US')} a second)` : '';
  const lines = [line(rows[0]!), ...rows.slice(1, -1).map(line), line(rows[rows.length - 1]!)];
  lines.push('');
  for (const c of report.collections) if (c.note !== undefined) lines.push(`${c.collection}${c.role === 'skipped' ? ' was skipped' : ''}: ${c.note}`);
  lines.push(`${report.dryRun ? 'dry run, nothing written: ' : ''}${total.read.toLocaleString('en-US')} read from ${report.source} in ${report.seconds.toFixed(1)} s${rate}`);
  lines.push(`memory: ${mib(report.memory.start)} when reading began, peak ${mib(report.memory.peak)}`);
  if (report.rebased.length > 0) lines.push(`references rebased from ${report.rebased.join(', ')}`);
  if (total.refused > 0) lines.push(`${total.refused.toLocaleString('en-US')} refused by this service's schemas were imported all the same (listed above; npm run check-data lists the current ones)`);
  if (total.unreadable > 0) lines.push(`${total.unreadable.toLocaleString('en-US')} could not be read (named above): exit code 1`);
  return `${lines.join('\n')}\n`;
}

/** A refusal as one line of the report. */
export function refusalLine(r: Refusal): string {
  return `refused ${r.collection}/${r.id} ts=${r.ts} ${r.pointer === '' ? '(document)' : r.pointer}: ${r.message}`;
}

/** An unreadable document as one line of the report. */
export function unreadableLine(u: Unreadable): string {
  return `unreadable ${u.place}: ${u.message}`;
}
