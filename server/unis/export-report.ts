/** What the export wrote of one collection. */
export interface ExportCount {
  /** As UNIS names it (`nodes`, `events_cache`, a series' mid): the file is `<collection>.json`. */
  readonly collection: string;
  /** What it holds: `resources` (versions), `series` (registrations) or `points`. */
  readonly role: 'resources' | 'series' | 'points';
  /** Documents written: versions, deletions among them; registrations; points. */
  written: number;
  /** Resources (ids) among the versions. */
  resources?: number;
  /** Versions that are deletions (`$status: "DELETED"`). */
  deletions?: number;
}

/** What could not be exported, and why. */
export interface NotExported {
  readonly collection: string;
  readonly message: string;
}

export interface ExportReport {
  readonly folder: string;
  readonly collections: readonly ExportCount[];
  readonly notExported: readonly NotExported[];
  readonly seconds: number;
}

/** The final table: one row per file, then the totals. */
export function exportTable(report: ExportReport): string {
  const cell = (n: number | undefined): string => (n === undefined ? '' : n.toLocaleString('en-US'));
  const rows: string[][] = [['file', 'as', 'written', 'resources', 'deletions']];
  let written = 0;
  for (const c of report.collections) {
    rows.push([`${c.collection}.json`, c.role, cell(c.written), cell(c.resources), cell(c.deletions)]);
    written += c.written;
  }
  rows.push(['total', '', cell(written), '', '']);
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const line = (r: string[]): string => r.map((text, i) => (i < 2 ? text.padEnd(widths[i]!) : text.padStart(widths[i]!))).join('  ').trimEnd();
  const lines = rows.map(line);
  lines.push('');
  const rate = report.seconds > 0 ? ` (${Math.round(written / report.seconds).toLocaleString('en-US')} a second)` : '';
  lines.push(`${written.toLocaleString('en-US')} documents written to ${report.folder} in ${report.seconds.toFixed(1)} s${rate}`);
  if (report.notExported.length > 0) lines.push(`${report.notExported.length.toLocaleString('en-US')} series could not be exported (named above): exit code 1`);
  return `${lines.join('\n')}\n`;
}

/** A series that could not be exported, as one line of the report. */
export function notExportedLine(entry: NotExported): string {
  return `not exported ${entry.collection}: ${entry.message}`;
}
