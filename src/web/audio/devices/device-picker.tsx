import { useId, useSyncExternalStore } from 'react';
import { Label } from '../../components/ui/label';
import { NativeSelect } from '../../components/ui/native-select';
import { canChooseOutput, NO_OUTPUT_CHOICE_NOTE } from './audio-output';
import { deviceName, isSystemEntry, kindOf, resolveDevice, type AudioDevice, type DeviceRole } from './device-choice';
import { deviceChoice } from './device-choice-store';

const deviceRoleLabels: Record<DeviceRole, string> = { microphone: 'Microphone', speaker: 'Call speaker', ringtone: 'Ringtone speaker' };

const DEFAULT_VALUE = 'default';

/**
 * The chosen device for one role; "System default" when none is chosen or the chosen one is gone
 * (said below it). The browser's own select: Call Settings shows three of them, and Radix Select
 * rendered every option of each as the page loaded.
 */
export function DevicePicker({ role, devices }: { role: DeviceRole; devices: readonly AudioDevice[] }) {
  const id = useId();
  const noteId = useId();
  const choice = useSyncExternalStore(deviceChoice.subscribe, deviceChoice.getSnapshot);
  const options = devices.filter((device) => device.kind === kindOf(role) && !isSystemEntry(device));
  const { deviceId, missing } = resolveDevice(choice, role, devices);
  const outputFixed = role !== 'microphone' && !canChooseOutput();
  const note = outputFixed ? NO_OUTPUT_CHOICE_NOTE : missing ? `The ${deviceRoleLabels[role].toLowerCase()} you chose is not connected; the system's default is used.` : null;
  return (
    <div className="flex flex-col gap-2">
      <Label htmlFor={id}>{deviceRoleLabels[role]}</Label>
      <div className="sm:w-80">
        <NativeSelect
          id={id}
          value={outputFixed ? DEFAULT_VALUE : (deviceId ?? DEFAULT_VALUE)}
          onChange={(event) => deviceChoice.choose(role, event.currentTarget.value)}
          disabled={outputFixed}
          aria-describedby={note ? noteId : undefined}
        >
          <option value={DEFAULT_VALUE}>System default</option>
          {options.map((device, index) => (
            <option key={device.deviceId} value={device.deviceId}>
              {deviceName(device, index)}
            </option>
          ))}
        </NativeSelect>
      </div>
      {note && (
        <p id={noteId} className="text-sm text-muted-foreground">
          {note}
        </p>
      )}
    </div>
  );
}
