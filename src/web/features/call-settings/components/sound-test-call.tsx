import { useQuery } from '@tanstack/react-query';
import { PhoneCallIcon } from 'lucide-react';
import { useId } from 'react';
import { Link } from 'react-router-dom';
import { useCall } from '../../../calls/call-context';
import { Button } from '../../../components/ui/button';
import { loadPhoneLibrary, useFormattedPhoneNumber } from '../../../lib/phone-library';
import { phoneNumbersQuery } from '../../../lib/phone-numbers';
import { callLinesQuery } from '../../../calls/call-lines-query';

interface SoundTestCallProps {
  /** Whether the call goes out with a changed voice (its 'Calling with voice changer...' notice). */
  voiceChanger: boolean;
  /** Settles the settings still being saved, so the call starts with what the page shows. */
  beforeCall(): Promise<void>;
}

/** Calls the sound-test line from the user's first number: it plays back what a recipient would hear. */
export function SoundTestCall({ voiceChanger, beforeCall }: SoundTestCallProps) {
  const hintId = useId();
  const { call, start } = useCall();
  const numbers = useQuery(phoneNumbersQuery);
  const lines = useQuery(callLinesQuery);
  const from = numbers.data?.[0]?.phoneNumber;
  const soundTest = lines.data?.soundTestNumber;
  const noNumber = numbers.isSuccess && !from;
  const soundTestShown = useFormattedPhoneNumber(soundTest ?? '');

  async function callSoundTest() {
    if (!from || !soundTest) return;
    await beforeCall();
    // The dial code only sets the number apart on the active-call bar: without the library the call goes ahead.
    const dialCode = await loadPhoneLibrary().then(
      (phone) => phone.splitInternational(soundTest)?.country.dialCode ?? '',
      () => '',
    );
    await start({ from, to: soundTest, countryCode: dialCode, voiceChanger });
  }

  return (
    <div className="flex flex-col gap-2">
      <Button variant="outline" className="w-full sm:w-fit" disabled={!from || !soundTest || call.phase !== 'idle'} aria-describedby={hintId} onClick={() => void callSoundTest()}>
        <PhoneCallIcon aria-hidden="true" />
        Call the sound-test line
      </Button>
      <p id={hintId} className="text-sm text-muted-foreground">
        {noNumber ? (
          <>
            You need a phone number to call the sound-test line. Add one on the{' '}
            <Link to="/contacts" className="font-medium underline underline-offset-4">
              Contacts page
            </Link>
            .
          </>
        ) : (
          <>The line{soundTest ? ` (${soundTestShown})` : ''} plays your voice back as the people you call hear it. The call is free.</>
        )}
      </p>
    </div>
  );
}
