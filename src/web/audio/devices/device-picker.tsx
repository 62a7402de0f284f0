import { useId, useSyncExternalStore } from 'react';
import { Label } from '../../components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../components/ui/select';
import { canChooseOutput, NO_OUTPUT_CHOICE_NOTE } from './audio-output';
import { deviceName, isSystemEntry, kindOf, resolveDevice, type AudioDevice, type DeviceRole } from './device-choice';
import { deviceChoice } from './device-choice-store';

const deviceRoleLabels: Record<DeviceRole, string> = { microphone: 'Microphone', speaker: 'Call speaker', ringtone: 'Ringtone speaker' };

const DEFAULT_VALUE = 'default';

/** The chosen device for one role; "System default" when none is chosen or the chosen one is gone (said below it). */
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
      <Select value={outputFixed ? DEFAULT_VALUE : (deviceId ?? DEFAULT_VALUE)} onValueChange={(next) => deviceChoice.choose(role, next)} disabled={outputFixed}>
        <SelectTrigger id={id} aria-label={deviceRoleLabels[role]} aria-describedby={note ? noteId : undefined} className="w-full sm:w-80">
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          <SelectItem value={DEFAULT_VALUE}>System default</SelectItem>
          {options.map((device, index) => (
            <SelectItem key={device.deviceId} value={device.deviceId}>
              {deviceName(device, index)}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
      {note && (
        <p id={noteId} className="text-sm text-muted-foreground">
          {note}
        </p>
      )}
    </div>
  );
}
