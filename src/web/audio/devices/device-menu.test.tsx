import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DeviceMenu } from './device-menu';

function stubDevices(devices: Partial<MediaDeviceInfo>[]) {
  Object.defineProperty(navigator, 'mediaDevices', {
    configurable: true,
    value: { enumerateDevices: vi.fn(async () => devices), addEventListener: vi.fn(), removeEventListener: vi.fn() },
  });
}

afterEach(() => Reflect.deleteProperty(navigator, 'mediaDevices'));

describe('DeviceMenu', () => {
  it('shows its button before its popover has loaded, and opens the popover then if it was pressed meanwhile', async () => {
    stubDevices([{ deviceId: 'default', kind: 'audioinput', label: 'Default - Headset' }]);
    render(<DeviceMenu />);
    const button = screen.getByRole('button', { name: 'Audio devices' });
    fireEvent.click(button);
    expect(button).toHaveAttribute('aria-busy', 'true');
    expect(await screen.findByRole('dialog', { name: 'Audio devices' })).toBeInTheDocument();
    expect(await screen.findByRole('combobox', { name: 'Microphone' })).toBeInTheDocument();
  });

  it('opens and closes once loaded', async () => {
    stubDevices([{ deviceId: 'default', kind: 'audioinput', label: 'Default - Headset' }]);
    render(<DeviceMenu />);
    await userEvent.click(await screen.findByRole('button', { name: 'Audio devices', expanded: false }));
    expect(await screen.findByRole('dialog', { name: 'Audio devices' })).toBeInTheDocument();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog', { name: 'Audio devices' })).not.toBeInTheDocument();
  });
});
