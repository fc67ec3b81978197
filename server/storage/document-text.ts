import type { TextRun } from './contract/rows.js';
import { selfRefSegment } from './id-segment.js';

/**
 * The JSON text of a stored document as answers carry it: `head` (members the answer puts
 * first, ending inside an open string that the id completes: `{"$schema":"…","selfRef":"…/nodes/`),
 * the id as selfRef writes it (id-segment.ts), then the stored document after its `{`. Stored documents are objects that
 * start with `{` and hold at least `id`, so nothing is parsed or serialised again. One function,
 * used where answers are rendered (wire/representation.ts) and where reader threads render
 * whole runs of a list (dialects/sqlite/read-worker.ts).
 */
export function documentText(head: string, id: string, doc: string): string {
  if (doc.startsWith(STORED_SCHEMA)) {
    // A UNIS `$schema` kept as the client sent it (wire/representation.ts stores it first): it
    // takes the place of the head's. Such addresses hold no `"` or `\\` (addresses.ts), so the
    // first `"` after it ends the string.
    const end = doc.indexOf('"', STORED_SCHEMA.length);
    return `${STORED_SCHEMA}${doc.slice(STORED_SCHEMA.length, end)}${head.slice(head.indexOf(HEAD_SELF_REF))}${selfRefSegment(id)}",${doc.slice(end + 2)}`;
  }
  return `${head}${selfRefSegment(id)}",${doc.slice(1)}`;
}

/** How a stored document that keeps its client's `$schema` starts. */
const STORED_SCHEMA = '{"$schema":"';
/** Where the head's `selfRef` starts, after its `$schema` string. */
const HEAD_SELF_REF = '","selfRef":"';

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
