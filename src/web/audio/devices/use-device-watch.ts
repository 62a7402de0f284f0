import { useEffect } from 'react';
import { toast } from '../../lib/toast';
import { canChooseOutput } from './audio-output';
import { diffDevices, resolveDevice, type AudioDevice, type DeviceRole } from './device-choice';
import { deviceChoice } from './device-choice-store';
import { missingNotice, noticeFor } from './device-notices';
import { reopenLiveMicrophone } from './live-microphone';
import { listAudioDevices, onDeviceChange } from './media-devices';

function show(notice: ReturnType<typeof noticeFor>) {
  const { offer } = notice;
  if (!offer) return toast.warning(notice.title);
  toast(notice.title, { duration: 15_000, action: { label: offer.label, onClick: () => deviceChoice.choose(offer.role, offer.deviceId) } });
}

/**
 * While a call is up (docs/product.md "Devices"): says when a chosen device is missing at the
 * start; when a chosen microphone is unplugged, the call goes on with the default one; a device
 * plugged in is offered. Speakers are offered only where the browser can choose them.
 */
export function useDeviceWatch() {
  useEffect(() => {
    let known: AudioDevice[] | null = null;
    let stopped = false;
    const roles: DeviceRole[] = canChooseOutput() ? ['microphone', 'speaker'] : ['microphone'];
    void listAudioDevices().then((devices) => {
      if (stopped) return;
      known = devices;
      for (const role of roles) if (resolveDevice(deviceChoice.getSnapshot(), role, devices).missing) toast.warning(missingNotice(role));
    });
    const unsubscribe = onDeviceChange(() => {
      void listAudioDevices().then((after) => {
        if (stopped) return;
        const before = known;
        known = after;
        if (!before) return;
        for (const change of diffDevices(before, after, deviceChoice.getSnapshot())) {
          const role = change.type === 'lost' ? change.role : change.device.kind === 'audioinput' ? 'microphone' : 'speaker';
          if (!roles.includes(role)) continue;
          show(noticeFor(change));
          if (change.type === 'lost' && change.role === 'microphone') {
            reopenLiveMicrophone().catch((error: unknown) => toast.error('No microphone could be opened', { description: (error as Error).message }));
          }
        }
      });
    });
    return () => {
      stopped = true;
      unsubscribe();
    };
  }, []);
}
