const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Wait until `find` returns something, or fail naming `what`. */
export async function eventually<T>(what: string, find: () => T | undefined, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}
