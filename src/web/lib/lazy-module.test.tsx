import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { deferred } from '../../../tests/support/deferred';
import { ErrorMessageBoundary } from '../../../tests/support/error-boundary';
import { LazyModule, useLazyModule, useLazyModuleIfLoaded } from './lazy-module';

function Greeting({ lazy }: { lazy: LazyModule<{ greet: () => string }> }) {
  const module = useLazyModule(lazy);
  return <p>{module ? module.greet() : 'Loading...'}</p>;
}

function OptionalGreeting({ lazy }: { lazy: LazyModule<{ greet: () => string }> }) {
  return <p>{useLazyModuleIfLoaded(lazy)?.greet() ?? 'Hi'}</p>;
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
      <ErrorMessageBoundary>
        <Greeting lazy={lazy} />
      </ErrorMessageBoundary>,
    );
    await screen.findByText('Loading...');

    await act(async () => arrival.reject(new Error('Failed to fetch dynamically imported module: /assets/phone.js')));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to fetch dynamically imported module');
    await expect(lazy.load()).rejects.toThrow('Failed to fetch');
    expect(lazy.loaded).toBeNull();
  });

  it('leaves a component that can do without the module as it was when the load fails', async () => {
    const arrival = deferred<{ greet: () => string }>();
    const lazy = new LazyModule(() => arrival.promise);
    render(
      <ErrorMessageBoundary>
        <OptionalGreeting lazy={lazy} />
      </ErrorMessageBoundary>,
    );
    expect(await screen.findByText('Hi')).toBeInTheDocument();

    await act(async () => arrival.reject(new Error('Failed to fetch dynamically imported module: /assets/phone.js')));
    await expect(lazy.load()).rejects.toThrow('Failed to fetch');
    expect(screen.getByText('Hi')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('gives a component that can do without the module the module once it arrives', async () => {
    const arrival = deferred<{ greet: () => string }>();
    const lazy = new LazyModule(() => arrival.promise);
    render(<OptionalGreeting lazy={lazy} />);
    expect(await screen.findByText('Hi')).toBeInTheDocument();

    await act(async () => arrival.resolve({ greet: () => 'Hello' }));
    expect(await screen.findByText('Hello')).toBeInTheDocument();
  });
});
