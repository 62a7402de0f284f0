import { afterEach, describe, expect, it, vi } from 'vitest';
import { deviceChoice } from './device-choice-store';
import { followMicrophoneChoice, hasLiveMicrophone, reopenLiveMicrophone } from './live-microphone';

function stream(name: string) {
  const tracks = [{ stop: vi.fn() }];
  return { name, getTracks: () => tracks } as unknown as MediaStream;
}

afterEach(() => deviceChoice.choose('microphone', undefined));

describe('the call in progress follows the microphone choice', () => {
  it('opens the newly chosen microphone and hands it to the call', async () => {
    const link = { replaceMicrophone: vi.fn(async () => undefined) };
    const next = stream('headset');
    const open = vi.fn(async () => next);
    const stop = followMicrophoneChoice(link, open);
    deviceChoice.choose('microphone', 'headset');
    await vi.waitFor(() => expect(link.replaceMicrophone).toHaveBeenCalledWith(next));
    stop();
  });

  it('re-opens on demand (a chosen microphone unplugged), and not once the call has ended', async () => {
    const link = { replaceMicrophone: vi.fn(async () => undefined) };
    const stop = followMicrophoneChoice(link, async () => stream('default'));
    await reopenLiveMicrophone();
    expect(link.replaceMicrophone).toHaveBeenCalledTimes(1);
    stop();
    expect(hasLiveMicrophone()).toBe(false);
    await reopenLiveMicrophone();
    deviceChoice.choose('microphone', 'other');
    expect(link.replaceMicrophone).toHaveBeenCalledTimes(1);
  });

  it('stops a microphone opened for a call that ended meanwhile', async () => {
    const link = { replaceMicrophone: vi.fn(async () => undefined) };
    const opened = stream('late');
    let release: (value: MediaStream) => void = () => undefined;
    const stop = followMicrophoneChoice(link, () => new Promise((resolve) => (release = resolve)));
    const reopening = reopenLiveMicrophone();
    stop();
    release(opened);
    await reopening;
    expect(link.replaceMicrophone).not.toHaveBeenCalled();
    expect(opened.getTracks()[0]!.stop).toHaveBeenCalled();
  });
});
