import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderRoutes } from '../../../../tests/support/render-web';
import { DevicesPanel } from './devices-panel';

/** navigator.mediaDevices with `devices` listed; getUserMedia allows the microphone, after which names show. */
function stubDevices(before: Partial<MediaDeviceInfo>[], after: Partial<MediaDeviceInfo>[]) {
  let allowed = false;
  const track = { stop: vi.fn() };
  const getUserMedia = vi.fn(async () => {
    allowed = true;
    return { getTracks: () => [track] };
  });
  const enumerateDevices = vi.fn(async () => (allowed ? after : before));
  Object.defineProperty(navigator, 'mediaDevices', { configurable: true, value: { getUserMedia, enumerateDevices, addEventListener: vi.fn(), removeEventListener: vi.fn() } });
  return { getUserMedia, track };
}

afterEach(() => Reflect.deleteProperty(navigator, 'mediaDevices'));

describe('DevicesPanel', () => {
  it('asks for the microphone only when the person presses the button, then shows the names', async () => {
    const devices = stubDevices(
      [{ deviceId: '', kind: 'audioinput', label: '' }],
      [
        { deviceId: 'default', kind: 'audioinput', label: 'Default - Headset' },
        { deviceId: 'mic-2', kind: 'audioinput', label: 'Headset' },
      ],
    );
    renderRoutes([{ path: '/', element: <DevicesPanel /> }], '/');
    const panel = await screen.findByRole('region', { name: 'Devices' });
    expect(await within(panel).findByText('Allow the microphone to see device names.')).toBeInTheDocument();
    expect(devices.getUserMedia).not.toHaveBeenCalled();

    await userEvent.click(within(panel).getByRole('button', { name: 'Allow microphone' }));
    expect(devices.getUserMedia).toHaveBeenCalledTimes(1);
    expect(devices.track.stop).toHaveBeenCalled();
    await vi.waitFor(() => expect(within(panel).queryByText('Allow the microphone to see device names.')).not.toBeInTheDocument());
    expect(within(panel).getByRole('combobox', { name: 'Microphone' })).toHaveDisplayValue('System default');
  });

  it("says where the browser cannot choose a speaker", async () => {
    stubDevices([{ deviceId: 'mic-2', kind: 'audioinput', label: 'Headset' }], []);
    renderRoutes([{ path: '/', element: <DevicesPanel /> }], '/');
    const panel = await screen.findByRole('region', { name: 'Devices' });
    // jsdom's media elements have no setSinkId, as in browsers without output choice.
    expect(await within(panel).findAllByText("This browser plays through the system's default speaker.")).toHaveLength(2);
    expect(within(panel).getByRole('combobox', { name: 'Call speaker' })).toBeDisabled();
  });
});
