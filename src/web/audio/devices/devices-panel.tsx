import { MicIcon, SquareIcon } from 'lucide-react';
import { useEffect, useId, useState, useSyncExternalStore } from 'react';
import { openMicrophone } from '../call-audio';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '../../components/ui/card';
import { isSystemEntry } from './device-choice';
import { deviceChoice } from './device-choice-store';
import { DevicePicker } from './device-picker';
import { LevelMeter } from './level-meter';
import { useAudioDevices } from './media-devices';
import { allowMicrophone } from './microphone-permission';

/** docs/product.md "Devices": the microphone, the call's speaker and the ringtone's speaker, kept in this browser. */
export function DevicesPanel() {
  const titleId = useId();
  const { devices, refresh } = useAudioDevices();
  const chosenMicrophone = useSyncExternalStore(deviceChoice.subscribe, deviceChoice.getSnapshot).microphone;
  const [error, setError] = useState<string | null>(null);
  // Browsers hide device names (and ids) until the microphone has been allowed once.
  const namesHidden = devices !== null && !devices.some((device) => device.kind === 'audioinput' && !isSystemEntry(device) && device.label !== '');

  async function showNames() {
    setError(null);
    try {
      await allowMicrophone();
      refresh();
    } catch {
      setError('Microphone access was refused. Allow the microphone for this site in the browser and try again.');
    }
  }

  return (
    <Card aria-labelledby={titleId}>
      <CardHeader>
        <h3 id={titleId} className="text-lg font-semibold leading-none">
          Devices
        </h3>
        <CardDescription>Choose the microphone and speakers for calls in this browser.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {devices === null ? (
          <p role="status" className="text-muted-foreground">
            Looking for audio devices...
          </p>
        ) : (
          <>
            {namesHidden && (
              <div className="flex flex-wrap items-center gap-3">
                <p className="text-sm">Allow the microphone to see device names.</p>
                <Button variant="outline" size="sm" onClick={() => void showNames()}>
                  Allow microphone
                </Button>
              </div>
            )}
            {error && (
              <p role="alert" className="text-sm text-destructive">
                {error}
              </p>
            )}
            <DevicePicker role="microphone" devices={devices} />
            {/* Another microphone chosen ends the test of the one before. */}
            <MicrophoneTest key={chosenMicrophone ?? 'default'} />
            <DevicePicker role="speaker" devices={devices} />
            <DevicePicker role="ringtone" devices={devices} />
          </>
        )}
      </CardContent>
    </Card>
  );
}

/** Opens the chosen microphone on request and shows its level, so a person sees it hears them. */
function MicrophoneTest() {
  const [stream, setStream] = useState<MediaStream | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => () => stream?.getTracks().forEach((track) => track.stop()), [stream]);

  async function start() {
    setError(null);
    try {
      setStream(await openMicrophone());
    } catch (failure) {
      setError((failure as Error).message);
    }
  }

  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center gap-3">
        {stream ? (
          <Button variant="outline" size="sm" onClick={() => setStream(null)}>
            <SquareIcon aria-hidden="true" />
            Stop microphone test
          </Button>
        ) : (
          <Button variant="outline" size="sm" onClick={() => void start()}>
            <MicIcon aria-hidden="true" />
            Test microphone
          </Button>
        )}
        {stream && <LevelMeter stream={stream} />}
      </div>
      {error && (
        <p role="alert" className="text-sm text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}
