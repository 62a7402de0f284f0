import { act, render, screen } from '@testing-library/react';
import { Component, type ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { LazyModule, useLazyModule } from './lazy-module';

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

function Greeting({ lazy }: { lazy: LazyModule<{ greet: () => string }> }) {
  const module = useLazyModule(lazy);
  return <p>{module ? module.greet() : 'Loading...'}</p>;
}

class Boundary extends Component<{ children: ReactNode }, { error: string | null }> {
  override state = { error: null as string | null };
  static getDerivedStateFromError(error: Error) {
    return { error: error.message };
  }
  override render() {
    return this.state.error ? <p role="alert">{this.state.error}</p> : this.props.children;
  }
}

describe('LazyModule', () => {
  it('loads once, for every component and caller, and shows the module when it arrives', async () => {
    const arrival = deferred<{ greet: () => string }>();
    let imports = 0;
    const lazy = new LazyModule(() => {
      imports += 1;
      return arrival.promise;
    });
    render(
      <>
        <Greeting lazy={lazy} />
        <Greeting lazy={lazy} />
      </>,
    );
    expect(await screen.findAllByText('Loading...')).toHaveLength(2);
    expect(lazy.loaded).toBeNull();

    await act(async () => arrival.resolve({ greet: () => 'Hello' }));
    expect(await screen.findAllByText('Hello')).toHaveLength(2);
    expect(await lazy.load()).toBe(lazy.loaded);
    expect(imports).toBe(1);
  });

  it('throws a failed load to the error boundary, and rejects its callers', async () => {
    const arrival = deferred<{ greet: () => string }>();
    const lazy = new LazyModule(() => arrival.promise);
    render(
      <Boundary>
        <Greeting lazy={lazy} />
      </Boundary>,
    );
    await screen.findByText('Loading...');

    await act(async () => arrival.reject(new Error('Failed to fetch dynamically imported module: /assets/phone.js')));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to fetch dynamically imported module');
    await expect(lazy.load()).rejects.toThrow('Failed to fetch');
    expect(lazy.loaded).toBeNull();
  });
});
