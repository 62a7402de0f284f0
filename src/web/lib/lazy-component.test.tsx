import { render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { describe, expect, it } from 'vitest';
import { deferred } from '../../../tests/support/deferred';
import { ErrorMessageBoundary } from '../../../tests/support/error-boundary';
import { lazyComponent } from './lazy-component';

function Greeting({ name }: { name: string }) {
  return <p>Hello, {name}</p>;
}

describe('lazyComponent', () => {
  it('starts fetching as the page that uses it shows, once, and the component renders from that fetch', async () => {
    const arrival = deferred<typeof Greeting>();
    let imports = 0;
    const { Component, load, useLoadAfterShow } = lazyComponent(() => {
      imports += 1;
      return arrival.promise;
    });
    function Page({ open }: { open: boolean }) {
      useLoadAfterShow();
      return (
        <>
          <h1>Page</h1>
          {open && (
            <Suspense fallback={<p>Loading...</p>}>
              <Component name="Ada" />
            </Suspense>
          )}
        </>
      );
    }

    const { rerender } = render(<Page open={false} />);
    await screen.findByRole('heading', { name: 'Page' });
    expect(imports).toBe(1);

    rerender(<Page open />);
    await screen.findByText('Loading...');
    void load();
    arrival.resolve(Greeting);
    await screen.findByText('Hello, Ada');
    expect(imports).toBe(1);
  });

  it('fails the component, for the route error screen, when its fetch fails', async () => {
    const { Component, load } = lazyComponent<{ name: string }>(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module')));
    await expect(load()).rejects.toThrow('dynamically imported module');
    render(
      <ErrorMessageBoundary>
        <Suspense fallback={null}>
          <Component name="Ada" />
        </Suspense>
      </ErrorMessageBoundary>,
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to fetch dynamically imported module');
  });
});
