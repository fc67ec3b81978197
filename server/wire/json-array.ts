import { Readable } from 'node:stream';
import type { Context } from 'koa';

/** Bytes gathered before a list response writes to the socket. */
const LIST_CHUNK = 64 * 1024;

/**
 * Answer the JSON texts `texts` makes of `items` as one JSON array, streamed in chunks of about
 * LIST_CHUNK bytes. The first item is read before `head` sets the status and headers, so that a
 * query that fails at once still gets its own status; a HEAD gets the headers alone.
 */
export async function streamArray<T>(ctx: Context, items: AsyncIterable<T>, texts: (item: T) => string | Promise<string>, head: () => void): Promise<void> {
  const iterator = items[Symbol.asyncIterator]();
  const first = await iterator.next();
  head();
  if (ctx.method === 'HEAD') {
    await iterator.return?.();
    // No Content-Length: the list's length is not known without writing it (RFC 9110 §9.3.2
    // forbids one that differs from GET's; `ctx.body = ''` would send 0).
    ctx.body = Readable.from([]);
    return;
  }
  ctx.body = Readable.from(
    (async function* () {
      let buffer = '[';
      let separator = '';
      try {
        for (let next = first; !next.done; next = await iterator.next()) {
          const text = texts(next.value);
          buffer += separator + (typeof text === 'string' ? text : await text);
          separator = ',';
          if (buffer.length >= LIST_CHUNK) {
            yield buffer;
            buffer = '';
          }
        }
        yield `${buffer}]`;
      } finally {
        await iterator.return?.();
      }
    })(),
    { objectMode: false },
  );
}
