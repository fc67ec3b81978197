import { TopocatError, type UnauthorizedError } from '../generated/client/rest.js';

const KEY = 'topocat.token';

/** The token this tab was given, if any (sessionStorage: it ends with the tab, never leaves this origin). */
export const storedToken = (): string | undefined => sessionStorage.getItem(KEY) ?? undefined;

/**
 * The token form: shown when the service answers 401, with its reason (no token, or one that was
 * refused or lacks the `read` scope). Resolves with the token entered; it is kept for this tab.
 */
export function askToken(form: HTMLFormElement, error: UnauthorizedError): Promise<string> {
  const message = form.querySelector<HTMLElement>('.message')!;
  const had = storedToken() !== undefined;
  message.textContent = had
    ? `The token was refused: ${error.message}. Enter a token with the read scope.`
    : 'This service needs a token with the read scope to show its topology (TOPOCAT_TOKENS is set). Enter one:';
  form.hidden = false;
  const input = form.querySelector<HTMLInputElement>('input[name="token"]')!;
  input.value = '';
  input.focus();
  return new Promise((resolve) => {
    form.addEventListener(
      'submit',
      (event) => {
        event.preventDefault();
        const token = input.value.trim();
        sessionStorage.setItem(KEY, token);
        form.hidden = true;
        resolve(token);
      },
      { once: true },
    );
  });
}

/** A person's sentence for a failed request: the service's message and its first detail. */
export function describe(error: unknown): string {
  if (error instanceof TopocatError) {
    const detail = error.details[0];
    return `${error.message}${detail ? ` (${detail.path}: ${detail.message})` : ''}`;
  }
  return error instanceof Error ? error.message : String(error);
}
