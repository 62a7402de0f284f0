/**
 * How long a tab could not take a call: neither listening nor on a call. A tab on a call is busy,
 * not lost: its listening resumes when the call ends (src/web/lib/realtime.tsx, holdForCall).
 */
export class UnreachableTime {
  totalMs = 0;
  longestMs = 0;
  /** Separate stretches of being unreachable. */
  spells = 0;
  private since: number | null = null;

  /** The tab's state at `now`: whether it listens or holds a call. */
  update(reachable: boolean, now: number) {
    if (!reachable && this.since === null) {
      this.since = now;
      this.spells += 1;
    } else if (reachable && this.since !== null) {
      const ms = now - this.since;
      this.totalMs += ms;
      this.longestMs = Math.max(this.longestMs, ms);
      this.since = null;
    }
  }

  /** Whether the tab is unreachable now (a stretch the end of the run closes). */
  get unreachable(): boolean {
    return this.since !== null;
  }
}
