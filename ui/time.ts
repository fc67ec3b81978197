/**
 * The time bar: which instant the picture shows (a slider from the oldest version the page holds
 * to now; at its right end the picture is live), and whether it marks what changed since a second
 * instant (docs/ui.md, "The topology as it was"). It only reads the controls and says what they
 * ask for; main.ts reads the service and draws.
 */

/** What the picture shows: live (`at` and `since` absent), the state at `at`, and/or the changes since `since` (µs). */
export interface TimeView {
  readonly at?: number;
  readonly since?: number;
}

const $ = <T extends HTMLElement>(root: HTMLElement, selector: string): T => root.querySelector<T>(selector)!;

/** A millisecond slider value as the µs instant it stands for: the end of that millisecond. */
const micros = (ms: number): number => ms * 1000 + 999;

/** A µs instant as a readable UTC time, to the millisecond. */
export const instantText = (ts: number): string => new Date(Math.floor(ts / 1000)).toISOString().replace('T', ' ').replace('Z', ' UTC');

export class TimeBar {
  private readonly at: HTMLInputElement;
  private readonly since: HTMLInputElement;
  private readonly compare: HTMLInputElement;
  private readonly label: HTMLOutputElement;
  private timer: number | undefined;

  constructor(
    private readonly bar: HTMLElement,
    private readonly changed: (view: TimeView) => void,
  ) {
    this.at = $(bar, '#time-at');
    this.since = $(bar, '#time-since');
    this.compare = $(bar, '#time-compare');
    this.label = $(bar, '#time-label');
    // The right end is "now" whenever someone reaches for the slider.
    for (const slider of [this.at, this.since]) slider.addEventListener('pointerdown', () => this.extend());
    this.at.addEventListener('input', () => this.describe());
    this.since.addEventListener('input', () => this.describe());
    this.at.addEventListener('change', () => this.settle());
    this.since.addEventListener('change', () => this.settle());
    this.compare.addEventListener('change', () => {
      this.since.disabled = !this.compare.checked;
      this.settle();
    });
    $<HTMLButtonElement>(bar, '#time-now').addEventListener('click', () => {
      this.extend();
      this.at.value = this.at.max;
      this.compare.checked = false;
      this.since.disabled = true;
      this.settle();
    });
  }

  /** The slider's range: from `oldest` (µs, the oldest version the page holds) to now. */
  range(oldest: number): void {
    const from = Math.floor(oldest / 1000) - 1;
    this.at.min = this.since.min = String(from);
    this.extend();
    this.at.value = this.at.max;
    this.since.value = String(from);
    this.describe();
  }

  /** What the controls ask for now. */
  view(): TimeView {
    const live = Number(this.at.value) >= Number(this.at.max);
    return { ...(live ? {} : { at: micros(Number(this.at.value)) }), ...(this.compare.checked ? { since: micros(Number(this.since.value)) } : {}) };
  }

  /** Move the controls to `view` (for links and tests) and show it. */
  set(view: TimeView): void {
    this.extend();
    if (view.at !== undefined) this.at.value = String(Math.floor(view.at / 1000));
    else this.at.value = this.at.max;
    this.compare.checked = view.since !== undefined;
    this.since.disabled = view.since === undefined;
    if (view.since !== undefined) this.since.value = String(Math.floor(view.since / 1000));
    this.describe();
  }

  private extend(): void {
    this.at.max = this.since.max = String(Date.now());
  }

  private describe(): void {
    const { at, since } = this.view();
    const shown = at === undefined ? 'now (live)' : instantText(at);
    this.label.value = since === undefined ? shown : `changes from ${instantText(since)} to ${shown}`;
    this.bar.dataset.mode = at === undefined && since === undefined ? 'live' : 'past';
  }

  /** Tell once the slider rests (keyboard steps come one after another). */
  private settle(): void {
    this.describe();
    window.clearTimeout(this.timer);
    this.timer = window.setTimeout(() => this.changed(this.view()), 150);
  }
}
