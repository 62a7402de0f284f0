import { useSyncExternalStore } from 'react';

type LoadState<T> = { module: T | null; failure: unknown };

/**
 * A module fetched after the page has shown, which components wait for: its load starts once, when
 * the first component asks or `load` is called, and every component waiting re-renders when it arrives.
 */
export class LazyModule<T> {
  private state: LoadState<T> = { module: null, failure: null };
  private loading: Promise<T> | null = null;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly importModule: () => Promise<T>) {}

  /** The module, fetched on the first call; a failed fetch rejects, and is kept for components to throw. */
  readonly load = (): Promise<T> => {
    this.loading ??= this.importModule().then(
      (module) => {
        this.settle({ module, failure: null });
        return module;
      },
      (failure: unknown) => {
        this.settle({ module: null, failure });
        throw failure;
      },
    );
    return this.loading;
  };

  /** The module when it has arrived, else null. */
  get loaded(): T | null {
    return this.state.module;
  }

  readonly subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    this.load().catch(() => undefined);
    return () => this.listeners.delete(listener);
  };

  readonly getSnapshot = () => this.state;

  private settle(next: LoadState<T>) {
    this.state = next;
    for (const listener of this.listeners) listener();
  }
}

/**
 * The module once it has arrived, else null (and its load is started), so a component shows its
 * loading state meanwhile. A failed load is thrown, as a page's chunk that did not load is, for the
 * route's error screen (where a deploy's stale chunk reloads the page).
 */
export function useLazyModule<T>(lazy: LazyModule<T>): T | null {
  const { module, failure } = useSyncExternalStore(lazy.subscribe, lazy.getSnapshot);
  if (failure) throw failure;
  return module;
}

/**
 * The module once it has arrived, else null (and its load is started), for what can do without it:
 * a failed load leaves it null instead of failing the component.
 */
export function useLazyModuleIfLoaded<T>(lazy: LazyModule<T>): T | null {
  return useSyncExternalStore(lazy.subscribe, lazy.getSnapshot).module;
}
