/** docs/product.md §9: a tooltip opens after 700 ms of hover; the next one within 300 ms opens at once. */
export const TOOLTIP_DELAY_MS = 700;
const TOOLTIP_SKIP_DELAY_MS = 300;

/** Whether a tooltip closed less than TOOLTIP_SKIP_DELAY_MS ago, so that the next opens at once. */
export class SkipDelay {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private recent = false;

  get active(): boolean {
    return this.recent;
  }

  /** A tooltip just closed. A timer rather than a clock, so that tests' faked timers drive it. */
  closed(): void {
    this.recent = true;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => (this.recent = false), TOOLTIP_SKIP_DELAY_MS);
  }
}

/** One tooltip's hover delay and whether its control is pressed (a click's focus shows no tooltip). */
export class HoverIntent {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private pressed = false;

  get pointerDown(): boolean {
    return this.pressed;
  }

  /** Runs `open` after `delay` unless it is already waiting. */
  openAfter(delay: number, open: () => void): void {
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      open();
    }, delay);
  }

  cancel(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  press(): void {
    this.pressed = true;
    document.addEventListener('pointerup', () => (this.pressed = false), { once: true });
  }
}
