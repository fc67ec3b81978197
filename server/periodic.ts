/**
 * Run `task` every `intervalMs`, one run at a time (a tick that finds the last run still going is
 * skipped); the task handles its own failures. Returns the function that stops it and waits for
 * a run under way, to call before what the task uses is closed. The timer keeps no process alive.
 */
export function every(intervalMs: number, task: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    running ??= task().finally(() => {
      running = undefined;
    });
  }, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
