import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures';

/** The WCAG 2.0 and 2.1 A and AA rules: the level the product promises (docs/architecture.md#accessibility). */
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

const BLOCKING_IMPACTS = new Set(['serious', 'critical']);

function describeViolation({ id, impact, help, nodes }: { id: string; impact?: string | null; help: string; nodes: { target: unknown[]; failureSummary?: string }[] }) {
  const where = nodes.map(({ target, failureSummary }) => `${target.join(' ')}${failureSummary ? `: ${failureSummary.replace(/\s+/g, ' ')}` : ''}`);
  return `${impact ?? 'unknown'} ${id} (${help}) at ${where.join(' | ')}`;
}

/**
 * Runs axe on what the page shows now (or on `scope` alone, e.g. an open dialog) and fails on any
 * violation of serious or critical impact, naming `what` was checked. Lesser ones become annotations
 * of the test, visible in its report without failing it.
 */
export async function expectAccessible(page: Page, what: string, scope?: string, { disableRules = [] }: { disableRules?: string[] } = {}) {
  let violations = await analyzeSettled(page, scope, disableRules);
  // A notice whose time runs out while axe reads the page fades under it (a toast read at a contrast
  // of 1.57 in CI): a serious violation has to be there on a second reading as well.
  if (violations.some(isBlocking)) violations = await analyzeSettled(page, scope, disableRules);
  const blocking = violations.filter(isBlocking).map(describeViolation);
  const lesser = violations.filter((violation) => !isBlocking(violation)).map(describeViolation);
  for (const violation of lesser) test.info().annotations.push({ type: `axe: ${what}`, description: violation });
  expect(blocking, `axe: serious or critical violations on ${what}`).toEqual([]);
}

function isBlocking(violation: { impact?: string | null }) {
  return BLOCKING_IMPACTS.has(violation.impact ?? '');
}

async function analyzeSettled(page: Page, scope: string | undefined, disableRules: string[]) {
  // A notice or dialog still fading in has colours half-way to its own: measure once it is in place.
  await page.waitForFunction(() =>
    document.getAnimations().every((animation) => animation.playState !== 'running' || animation.effect?.getComputedTiming().iterations === Infinity),
  );
  const builder = new AxeBuilder({ page }).withTags(WCAG_TAGS).disableRules(disableRules);
  if (scope) builder.include(scope);
  return (await builder.analyze()).violations;
}
