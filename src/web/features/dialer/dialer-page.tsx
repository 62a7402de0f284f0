import { useQuery } from '@tanstack/react-query';
import { Suspense, useState } from 'react';
import { lazyComponent } from '../../lib/lazy-component';
import { toast } from '../../lib/toast';
import type { CallRecord } from '../../../common/api/calls';
import { useCall } from '../../calls/call-context';
import { PageHeading } from '../../components/page-heading';
import { Card, CardContent } from '../../components/ui/card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs';
import { usePhoneLibrary } from '../../lib/phone-library';
import { phoneNumbersQuery } from '../../lib/phone-numbers';
import { CallHistoryLoading } from './components/call-history-loading';
import { DialerPad } from './components/dialer-pad';
import { MinutesLeft } from './components/minutes-left';
import { readStoredVoiceSettings } from '../../lib/voice-settings-storage';
import { subscriptionQuery } from '../../lib/subscription';
import { activeVoiceLabel } from './voice-notice';

// The second tab, with its recordings and their confirmation, is fetched once the dialer has shown,
// not in its first load (decision 041).
const { Component: CallHistory, useLoadAfterShow: useLoadCallHistory } = lazyComponent(async () => (await import('./components/call-history')).CallHistory);

export function DialerPage() {
  const { call, start, pressKey } = useCall();
  const numbers = useQuery(phoneNumbersQuery);
  const subscription = useQuery(subscriptionQuery);
  // The call history, whose entries redial, shows once the library has loaded.
  const phone = usePhoneLibrary();
  useLoadCallHistory();
  const [tab, setTab] = useState('dialer');
  const busy = call.phase !== 'idle';

  // docs/product.md §2: clicking a history entry or its button calls that number again, from the same number when it is still yours.
  const redial = (record: CallRecord) => {
    const other = record.direction === 'outbound' ? record.to : record.from;
    const mine = record.direction === 'outbound' ? record.from : record.to;
    const owned = numbers.data ?? [];
    const from = owned.find((number) => number.phoneNumber === mine)?.phoneNumber ?? owned[0]?.phoneNumber;
    if (!from) {
      toast.error('No phone number available', { description: 'You need to add a phone number to your account first' });
      return;
    }
    const target = phone?.splitInternational(other);
    void start({ from, to: other, countryCode: target?.country.dialCode ?? '', voiceChanger: activeVoiceLabel(readStoredVoiceSettings(), subscription.data?.tier) !== null });
  };

  return (
    <div>
      <PageHeading title="Dialer">Call anyone from one of your numbers.</PageHeading>
      <Tabs value={tab} onValueChange={setTab} className="flex flex-col gap-4">
        <TabsList>
          <TabsTrigger value="dialer">Dialer</TabsTrigger>
          <TabsTrigger value="history">Call History</TabsTrigger>
        </TabsList>
        <Card>
          <CardContent>
            <TabsContent value="dialer" className="flex flex-col gap-4">
              <MinutesLeft />
              <DialerPad onCall={(request) => void start(request)} busy={busy} onCallKey={pressKey} />
            </TabsContent>
            <TabsContent value="history">
              <Suspense fallback={<CallHistoryLoading />}>
                <CallHistory onRedial={redial} />
              </Suspense>
            </TabsContent>
          </CardContent>
        </Card>
      </Tabs>
    </div>
  );
}
