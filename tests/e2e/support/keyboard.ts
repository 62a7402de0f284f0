import type { Locator, Page } from '@playwright/test';
import { expect } from '../fixtures';

interface FocusStop {
  /** How the focused element reads: its role or tag, its name or text, and its look focused and not. */
  label: string;
  /** Whether focus shows: an outline, a ring (box-shadow), a border or a background unlike the same element unfocused. */
  visible: boolean;
}

/**
 * Where focus is now (null when on nothing, or outside the page), and whether it shows. The element's look is compared with an unfocused copy
 * of it (same classes and attributes) placed beside it for the measurement, so the check changes no
 * focus and fires no handler.
 */
function focusStop(page: Page): Promise<FocusStop | null> {
  return page.evaluate(() => {
    const element = document.activeElement;
    // Tab from the last stop leaves the page for the browser's own controls, and the page keeps its activeElement.
    if (!document.hasFocus() || !(element instanceof HTMLElement) || element === document.body) return null;
    const look = (target: HTMLElement) => {
      const style = getComputedStyle(target);
      const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0 ? `${style.outlineStyle} ${style.outlineWidth} ${style.outlineColor}` : 'none';
      return { outline, boxShadow: style.boxShadow, borderColor: style.borderColor, background: style.backgroundColor };
    };
    const focused = look(element);
    const copy = element.cloneNode(false) as HTMLElement;
    copy.removeAttribute('id');
    copy.style.position = 'absolute';
    copy.style.visibility = 'hidden';
    copy.style.pointerEvents = 'none';
    element.after(copy);
    const unfocused = look(copy);
    copy.remove();
    const name = element.getAttribute('aria-label') ?? element.textContent?.trim().slice(0, 40) ?? '';
    return {
      label: `${element.getAttribute('role') ?? element.tagName.toLowerCase()} "${name}" (focused ${JSON.stringify(focused)}, unfocused ${JSON.stringify(unfocused)})`,
      visible: focused.outline !== unfocused.outline || focused.boxShadow !== unfocused.boxShadow || focused.borderColor !== unfocused.borderColor || focused.background !== unfocused.background,
    };
  });
}

/** Reads again for a moment: a ring can be part-way through a transition when the key has just been pressed. */
async function expectFocusShows(page: Page, where: string) {
  let last: FocusStop | null = null;
  await expect
    .poll(
      async () => {
        last = await focusStop(page);
        return last?.visible ?? true;
      },
      { timeout: 2_000, message: `visible focus (${where})` },
    )
    .toBe(true)
    .catch(() => {
      throw new Error(`no visible focus on ${last?.label} (${where})`);
    });
}

/** Presses Tab (or Shift+Tab) until `target` has focus, checking that focus shows at every stop on the way. */
export async function tabTo(page: Page, target: Locator, { backwards = false, maxPresses = 60 } = {}) {
  for (let presses = 0; presses < maxPresses; presses += 1) {
    if (await target.evaluate((element) => element === document.activeElement).catch(() => false)) return;
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
    await expectFocusShows(page, `tabbing to ${String(target)}`);
  }
  throw new Error(`${String(target)} was not reached in ${maxPresses} presses of ${backwards ? 'Shift+Tab' : 'Tab'}`);
}

/**
 * Tabs through everything the page (or its open dialog, which holds focus) lets a keyboard reach,
 * from the start, and fails on the first stop where focus does not show. Answers how many stops there were.
 */
export async function expectFocusVisibleEverywhere(page: Page, what: string, maxPresses = 80) {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  const seen = new Set<string>();
  for (let presses = 0; presses < maxPresses; presses += 1) {
    await page.keyboard.press('Tab');
    if (!(await focusStop(page))) break;
    await expectFocusShows(page, what);
    const key = await page.evaluate(() => {
      const element = document.activeElement as HTMLElement;
      const path: number[] = [];
      for (let node: Element | null = element; node?.parentElement; node = node.parentElement) path.push([...node.parentElement.children].indexOf(node));
      return path.join('.');
    });
    if (seen.has(key)) break;
    seen.add(key);
  }
  return seen.size;
}
