import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { InNextTask } from './in-next-task';

describe('InNextTask', () => {
  it('shows the fallback as it mounts and its children a task later', async () => {
    render(
      <InNextTask fallback={<p>Loading...</p>}>
        <p>Dialer</p>
      </InNextTask>,
    );
    expect(screen.getByText('Loading...')).toBeInTheDocument();
    expect(screen.queryByText('Dialer')).toBeNull();

    expect(await screen.findByText('Dialer')).toBeInTheDocument();
    expect(screen.queryByText('Loading...')).toBeNull();
  });
});
