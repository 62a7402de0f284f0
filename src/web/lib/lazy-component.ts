import { lazy, useEffect, type ComponentType } from 'react';

/**
 * A component whose code is fetched apart from the page's: `Component` suspends until it has
 * arrived, `load` starts the fetch (once), and `useLoadAfterShow` in the page that shows it starts
 * the fetch as that page shows, so it is there by the time anyone opens it (decision 041). A
 * failed fetch fails `Component` as a page's chunk fails, for the route's error screen.
 */
export function lazyComponent<Props extends object>(importComponent: () => Promise<ComponentType<Props>>) {
  let loading: Promise<ComponentType<Props>> | undefined;
  const load = () => (loading ??= importComponent());
  const Component = lazy(async () => ({ default: await load() }));
  const useLoadAfterShow = () => useEffect(() => void load().catch(() => undefined), []);
  return { Component, load, useLoadAfterShow };
}
