/**
 * The JSON text of a stored document as answers carry it: `head` (members the answer puts
 * first, ending inside an open string that the id completes: `{"$schema":"…","selfRef":"…/nodes/`),
 * the id URI-encoded, then the stored document after its `{`. Stored documents are objects that
 * start with `{` and hold at least `id`, so nothing is parsed or serialised again. One function,
 * used where answers are rendered (rest/representation.ts) and where reader threads render
 * whole runs of a list (dialects/sqlite/read-worker.ts).
 */
export function documentText(head: string, id: string, doc: string): string {
  return `${head}${encodeURIComponent(id)}",${doc.slice(1)}`;
}

/** Rows (`id`, `doc`) as runs of texts: each documentText(head, id, doc), joined by commas. */
export interface TextRun {
  readonly head: string;
}

/** Rows per run where the rows are rendered on the event loop (PostgreSQL). */
const RUN = 256;

/** `rows` as runs of at most RUN texts, rendered here (SQLite's readers render on their threads). */
export async function* textRuns(rows: AsyncIterable<Readonly<Record<string, unknown>>>, run: TextRun): AsyncIterable<string> {
  let text = '';
  let count = 0;
  for await (const row of rows) {
    text += `${count === 0 ? '' : ','}${documentText(run.head, String(row.id), String(row.doc))}`;
    if (++count === RUN) {
      yield text;
      text = '';
      count = 0;
    }
  }
  if (count > 0) yield text;
}
