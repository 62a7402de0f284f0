import type { BrowserContext, Page } from '@playwright/test';

/**
 * In-page clocks for the click-to-ring bench. Both pages run on one machine, so their `Date.now()`
 * read the same system clock: a press in the caller's page and a ring in the callee's compare
 * directly, to the millisecond, with no clock offset to estimate.
 */

/** One appearance of the Incoming Call card in the callee's page, wall-clock ms. */
export interface Ring {
  /** When React put the card in the document (the MutationObserver's callback). */
  inDocumentMs: number;
  /** The next animation frame after that: the frame that paints it. */
  nextFrameMs: number | null;
}

interface ProbeWindow {
  voxlineCallPresses: number[];
  voxlineRings: Ring[];
}

/** Records the wall time of every press of the dialer's Call button, taken from the click event's own time stamp. */
export async function recordCallPresses(context: BrowserContext) {
  await context.addInitScript(() => {
    // The default of 250 entries fills within ten calls (callsRequestStarts reads them).
    performance.setResourceTimingBufferSize(100_000);
    const presses: number[] = [];
    (window as unknown as ProbeWindow).voxlineCallPresses = presses;
    document.addEventListener(
      'click',
      (event) => {
        if (!(event.target instanceof Element) || !event.target.closest('button[aria-label="Call"]')) return;
        // event.timeStamp is when the input arrived; the listener may run a little later.
        presses.push(Date.now() - (performance.now() - event.timeStamp));
      },
      true,
    );
  });
}

/** Records each time the Call Receiver's Incoming Call card appears (a section labelled by its "Incoming Call" heading). */
export async function recordRings(context: BrowserContext) {
  await context.addInitScript(() => {
    const rings: Ring[] = [];
    (window as unknown as ProbeWindow).voxlineRings = rings;
    let shown = false;
    // No named functions in here: tsx wraps them in a helper (__name) that the page does not have.
    new MutationObserver(() => {
      const nowShown = [...document.querySelectorAll('section[aria-labelledby]')].some(
        (section) => document.getElementById(section.getAttribute('aria-labelledby') ?? '')?.textContent?.trim() === 'Incoming Call',
      );
      if (nowShown && !shown) {
        const ring: Ring = { inDocumentMs: Date.now(), nextFrameMs: null };
        rings.push(ring);
        requestAnimationFrame(() => {
          ring.nextFrameMs = Date.now();
        });
      }
      shown = nowShown;
    }).observe(document, { childList: true, subtree: true, characterData: true });
  });
}

export function callPresses(page: Page): Promise<number[]> {
  return page.evaluate(() => (window as unknown as ProbeWindow).voxlineCallPresses);
}

export function rings(page: Page): Promise<Ring[]> {
  return page.evaluate(() => (window as unknown as ProbeWindow).voxlineRings);
}

/** Wall-clock starts of the page's requests to /api/v1/calls (placing a call, and the history's GETs), from Resource Timing. */
export function callsRequestStarts(page: Page): Promise<number[]> {
  return page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .filter((entry) => new URL(entry.name).pathname === '/api/v1/calls')
      .map((entry) => Date.now() - performance.now() + entry.startTime),
  );
}
