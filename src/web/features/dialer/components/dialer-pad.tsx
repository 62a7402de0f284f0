import { useQuery } from '@tanstack/react-query';
import { AudioLinesIcon, DeleteIcon, PhoneIcon } from 'lucide-react';
import { useRef, useState, type ClipboardEvent, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { toast } from '../../../lib/toast';
import type { OwnedNumber } from '../../../../common/api/numbers';
import type { CountryOption } from '../../../../common/countries';
import { LoadFailed } from '../../../components/load-failed';
import { Button } from '../../../components/ui/button';
import { IconTooltip } from '../../../components/ui/tooltip';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { NativeSelect } from '../../../components/ui/native-select';
import { usePhoneLibrary, type PhoneLibrary } from '../../../lib/phone-library';
import { phoneNumbersQuery } from '../../../lib/phone-numbers';
import { callLinesQuery } from '../../../calls/call-lines-query';
import { defaultCountry, keypadKeysOnly, touchToneKeysIn } from '../dial-target';
import type { StartCall } from '../../../calls/use-outbound-call';
import { readStoredVoiceSettings } from '../../../lib/voice-settings-storage';
import { subscriptionQuery } from '../../../lib/subscription';
import { dialerVoiceNotice } from '../voice-notice';
import { contactsQuery } from '../../contacts/api/get-contacts';
import { CountryPicker } from './country-picker';
import { Keypad } from './keypad';

const LONG_PRESS_MS = 600;

/**
 * docs/product.md §2 Dialer tab: call from, country, digits, keypad, call and backspace. A keypad
 * key pressed while a call is up goes to it as a touch-tone (`onCallKey` answers true); otherwise
 * it types into the number.
 */
export function DialerPad({ onCall, busy, onCallKey }: { onCall: (call: StartCall) => void; busy: boolean; onCallKey: (key: string) => boolean }) {
  const numbers = useQuery(phoneNumbersQuery);
  const phone = usePhoneLibrary();

  if (numbers.isError) {
    return <LoadFailed message="Failed to load your phone numbers" reason={numbers.error.message} onRetry={() => void numbers.refetch()} retrying={numbers.isFetching} />;
  }
  if (numbers.isPending) return <DialerPadLoading />;
  // No number to format here: a new user's way to add one shows without waiting for the phone library.
  if (numbers.data.length === 0) {
    return (
      <div className="flex flex-col items-center gap-4 p-8 text-center">
        <p>You need to add a phone number to make calls.</p>
        <Button asChild>
          <Link to="/contacts">Add a phone number</Link>
        </Button>
      </div>
    );
  }
  if (!phone) return <DialerPadLoading />;
  return <DialerForm owned={numbers.data} phone={phone} onCall={onCall} busy={busy} onCallKey={onCallKey} />;
}

function DialerPadLoading() {
  return <p className="p-6 text-center text-muted-foreground">Loading your numbers...</p>;
}

interface DialerFormProps {
  owned: OwnedNumber[];
  phone: PhoneLibrary;
  onCall: (call: StartCall) => void;
  busy: boolean;
  onCallKey: (key: string) => boolean;
}

function DialerForm({ owned, phone, onCall, busy, onCallKey }: DialerFormProps) {
  const lines = useQuery(callLinesQuery);
  const [searchParams] = useSearchParams();
  const [from, setFrom] = useState<string | null>(null);
  // A contact's Call button opens the dialer with ?to= filled in.
  const [initialTarget] = useState(() => {
    const to = searchParams.get('to');
    return to ? phone.splitInternational(to) : null;
  });
  const [country, setCountry] = useState<CountryOption>(initialTarget?.country ?? defaultCountry);
  const [digits, setDigits] = useState(initialTarget?.digits ?? '');
  const longPress = useRef<ReturnType<typeof setTimeout> | null>(null);
  const longPressed = useRef(false);
  const subscription = useQuery(subscriptionQuery);
  const contacts = useQuery(contactsQuery);
  const voiceNotice = dialerVoiceNotice(readStoredVoiceSettings(), contacts.data, digits ? phone.toE164(`${country.dialCode}${digits}`) : null, subscription.data?.tier);

  const selectedFrom = from ?? owned[0]?.phoneNumber ?? '';

  const dial = (target: { country: CountryOption; digits: string }) => {
    if (!target.digits) {
      toast.error('Phone number required', { description: 'Please enter a phone number to call' });
      return;
    }
    if (touchToneKeysIn(target.digits)) {
      toast.error('Phone number can hold digits only', { description: '* and # are touch-tones: press them once the call is connected' });
      return;
    }
    if (!selectedFrom) {
      toast.error('No phone number available', { description: 'You need to add a phone number to your account first' });
      return;
    }
    onCall({ from: selectedFrom, to: `${target.country.dialCode}${target.digits}`, countryCode: target.country.dialCode, voiceChanger: voiceNotice?.startsWith('Voice changer active') ?? false });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    dial({ country, digits });
  };

  const paste = (event: ClipboardEvent<HTMLInputElement>) => {
    const text = event.clipboardData.getData('text');
    const target = text.trim().startsWith('+') ? phone.splitInternational(text) : null;
    if (!target) return;
    event.preventDefault();
    setCountry(target.country);
    setDigits(target.digits);
  };

  const startBackspace = () => {
    longPressed.current = false;
    longPress.current = setTimeout(() => {
      longPressed.current = true;
      setDigits('');
    }, LONG_PRESS_MS);
  };
  const endBackspace = () => {
    if (longPress.current) clearTimeout(longPress.current);
    longPress.current = null;
  };

  const soundTest = lines.data?.soundTestNumber;
  return (
    <form onSubmit={submit} className="mx-auto flex w-full max-w-sm flex-col gap-4" aria-label="Dialer">
      <div className="flex flex-col gap-2">
        <Label htmlFor="call-from">Call from</Label>
        <NativeSelect id="call-from" value={selectedFrom} onChange={(event) => setFrom(event.target.value)}>
          {owned.map((number) => (
            <option key={number.id} value={number.phoneNumber}>
              {`${phone.formatPhoneNumber(number.phoneNumber)}${number.friendlyName ? ` · ${number.friendlyName}` : ''}`}
            </option>
          ))}
        </NativeSelect>
      </div>
      <div className="flex flex-col gap-2">
        <span className="text-sm font-medium">Country</span>
        <CountryPicker value={country} onChange={setCountry} />
      </div>
      <div className="flex flex-col gap-2">
        <Label htmlFor="dial-number">Phone number</Label>
        <div className="flex items-center gap-2">
          <span className="rounded-md border bg-muted px-3 py-1.5 text-sm tabular-nums" aria-hidden="true">
            {country.dialCode}
          </span>
          <Input
            id="dial-number"
            inputMode="tel"
            autoComplete="tel-national"
            placeholder="Enter number"
            textSize="lg"
            className="tabular-nums"
            value={digits}
            onChange={(event) => setDigits(keypadKeysOnly(event.target.value))}
            onPaste={paste}
          />
        </div>
      </div>
      {voiceNotice && (
        <p role="status" className="flex items-center gap-2 rounded-md bg-primary/10 px-3 py-2 text-sm text-primary">
          <AudioLinesIcon className="size-4" aria-hidden="true" />
          {voiceNotice}
        </p>
      )}
      <Keypad
        onPress={(key) => {
          if (!onCallKey(key)) setDigits((current) => current + key);
        }}
      />
      <div className="grid grid-cols-3 items-center gap-3">
        <span />
        <IconTooltip label="Call">
          <Button type="submit" variant="call" size="custom" className="h-14 gap-2 rounded-full px-6 text-sm" disabled={busy} aria-label="Call">
            <PhoneIcon className="size-6" />
          </Button>
        </IconTooltip>
        <IconTooltip label="Delete last digit (hold to clear)">
          <Button
            type="button"
            variant="ghost"
            size="custom"
            className="h-14 gap-2 rounded-md px-6 text-sm"
            aria-label="Delete last digit"
            onPointerDown={startBackspace}
            onPointerUp={endBackspace}
            onPointerLeave={endBackspace}
            onClick={() => {
              if (!longPressed.current) setDigits((current) => current.slice(0, -1));
            }}
          >
            <DeleteIcon className="size-6" />
          </Button>
        </IconTooltip>
      </div>
      {soundTest && (
        <Button type="button" variant="outline" disabled={busy} onClick={() => dial(phone.splitInternational(soundTest) ?? { country, digits: '' })}>
          Call the sound-test line ({phone.formatPhoneNumber(soundTest)})
        </Button>
      )}
    </form>
  );
}
