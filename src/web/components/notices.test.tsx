import { act, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithRoute } from '../../../tests/support/render-web';
import { toast } from '../lib/toast';

describe("the app's notices", () => {
  it('put nothing on the page until the first notice, which then shows', async () => {
    renderWithRoute(<p>Contacts</p>);
    await screen.findByText('Contacts');
    // Were the Toaster mounted with the page, its chunk would have rendered by the end of this.
    await act(async () => {
      await import('./ui/sonner');
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
    expect(document.querySelector('section[aria-label^="Notifications"]')).toBeNull();

    act(() => toast.success('Contact saved'));

    expect(await screen.findByText('Contact saved')).toBeInTheDocument();
    expect(document.querySelector('section[aria-label^="Notifications"]')).not.toBeNull();
  });
});
