import { describe, expect, it } from 'vitest';
import { DEVICE_CHOICE_KEY, diffDevices, readDeviceChoice, resolveDevice, withDevice, writeDeviceChoice, type AudioDevice } from './device-choice';
import { DeviceChoiceStore } from './device-choice-store';

const defaultMic: AudioDevice = { deviceId: 'default', kind: 'audioinput', label: 'Default - Built-in' };
const builtIn: AudioDevice = { deviceId: 'mic-1', kind: 'audioinput', label: 'Built-in Microphone' };
const headset: AudioDevice = { deviceId: 'mic-2', kind: 'audioinput', label: 'USB Headset' };
const headsetOut: AudioDevice = { deviceId: 'out-2', kind: 'audiooutput', label: 'USB Headset' };
const speakers: AudioDevice = { deviceId: 'out-1', kind: 'audiooutput', label: 'Speakers' };

/** localStorage as a Map, as a reload sees it. */
function memoryStorage(entries: Record<string, string> = {}): Storage {
  const map = new Map(Object.entries(entries));
  return {
    getItem: (key) => map.get(key) ?? null,
    setItem: (key, value) => void map.set(key, value),
    removeItem: (key) => void map.delete(key),
    clear: () => map.clear(),
    key: (index) => [...map.keys()][index] ?? null,
    get length() {
      return map.size;
    },
  };
}

describe('device choice persistence', () => {
  it('is kept per browser and read back after a reload', () => {
    const storage = memoryStorage();
    const store = new DeviceChoiceStore(() => storage);
    store.choose('microphone', 'mic-2');
    store.choose('ringtone', 'out-2');
    expect(JSON.parse(storage.getItem(DEVICE_CHOICE_KEY)!)).toEqual({ microphone: 'mic-2', ringtone: 'out-2' });
    expect(new DeviceChoiceStore(() => storage).getSnapshot()).toEqual({ microphone: 'mic-2', ringtone: 'out-2' });
  });

  it('goes back to the default when "default" is chosen, and tells its listeners only of a change', () => {
    const store = new DeviceChoiceStore(() => memoryStorage());
    let told = 0;
    store.subscribe(() => (told += 1));
    store.choose('speaker', 'out-1');
    store.choose('speaker', 'out-1');
    store.choose('speaker', 'default');
    expect(store.getSnapshot()).toEqual({});
    expect(told).toBe(2);
  });

  it('reads anything that is not a choice as no choice', () => {
    for (const stored of ['not json', '[1,2]', '{"microphone":3}', '{"camera":"x"}', 'null']) {
      expect(readDeviceChoice(memoryStorage({ [DEVICE_CHOICE_KEY]: stored }))).toEqual({});
    }
  });

  it('says false when storage refuses, and keeps the choice for the page', () => {
    const refusing = { ...memoryStorage(), setItem: () => { throw new DOMException('full', 'QuotaExceededError'); } };
    expect(writeDeviceChoice(refusing, { microphone: 'mic-1' })).toBe(false);
    const store = new DeviceChoiceStore(() => refusing);
    store.choose('microphone', 'mic-1');
    expect(store.getSnapshot()).toEqual({ microphone: 'mic-1' });
  });

  it('sets and clears one role without touching the others', () => {
    expect(withDevice({ speaker: 'out-1' }, 'microphone', 'mic-2')).toEqual({ speaker: 'out-1', microphone: 'mic-2' });
    expect(withDevice({ speaker: 'out-1', microphone: 'mic-2' }, 'microphone', undefined)).toEqual({ speaker: 'out-1' });
  });
});

describe('resolveDevice', () => {
  const devices = [defaultMic, builtIn, headset, speakers];

  it('uses the chosen device while it is connected', () => {
    expect(resolveDevice({ microphone: 'mic-2' }, 'microphone', devices)).toEqual({ deviceId: 'mic-2', missing: false });
  });

  it('falls back to the default, saying so, when the chosen device is gone', () => {
    expect(resolveDevice({ speaker: 'out-2' }, 'speaker', devices)).toEqual({ deviceId: undefined, missing: true });
  });

  it('does not take a device of the other kind with the same id', () => {
    expect(resolveDevice({ ringtone: 'mic-1' }, 'ringtone', devices).missing).toBe(true);
  });

  it('is the default, not missing, when nothing is chosen', () => {
    expect(resolveDevice({}, 'microphone', devices)).toEqual({ deviceId: undefined, missing: false });
  });
});

describe('diffDevices on devicechange', () => {
  it('reports the chosen microphone unplugged, once', () => {
    const changes = diffDevices([defaultMic, builtIn, headset, headsetOut], [defaultMic, builtIn], { microphone: 'mic-2', speaker: 'out-1' });
    expect(changes).toEqual([{ type: 'lost', role: 'microphone', device: headset }]);
  });

  it('reports an output chosen for both speaker and ringtone under the first role only', () => {
    const changes = diffDevices([speakers, headsetOut], [speakers], { speaker: 'out-2', ringtone: 'out-2' });
    expect(changes).toEqual([{ type: 'lost', role: 'speaker', device: headsetOut }]);
  });

  it('offers a device plugged in, but not the browser’s default entries', () => {
    const changes = diffDevices([builtIn], [builtIn, defaultMic, headset, { deviceId: 'communications', kind: 'audioinput', label: 'Communications' }], {});
    expect(changes).toEqual([{ type: 'found', device: headset }]);
  });

  it('says nothing when a device that was not chosen goes away', () => {
    expect(diffDevices([builtIn, headset], [builtIn], { microphone: 'mic-1' })).toEqual([]);
  });
});
