import { useState } from 'react';
import { useCallReceiver } from '../../calls/use-call-receiver';
import { PageHeading } from '../../components/page-heading';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs';
import { CallReceiverTab } from './components/call-receiver-tab';
import { VoiceChangerTab } from './components/voice-changer-tab';

type CallSettingsTab = 'voice-changer' | 'call-receiver';

/** docs/product.md §2: Voice Changer (the default) and Call Receiver. */
export function CallSettingsPage() {
  // The receiver belongs to the page, not to its tab: switching tabs is not leaving the page (docs/product.md §4).
  const receiver = useCallReceiver();
  const [tab, setTab] = useState<CallSettingsTab>('voice-changer');
  const [shownCallId, setShownCallId] = useState<string | null>(null);

  // A call that comes in brings the Call Receiver tab forward, where it can be answered.
  const callId = receiver.call?.callId ?? null;
  if (callId !== shownCallId) {
    setShownCallId(callId);
    if (callId) setTab('call-receiver');
  }

  return (
    <>
      <PageHeading title="Call Settings">Change how you sound and take calls in the browser.</PageHeading>
      <Tabs value={tab} onValueChange={(value) => setTab(value as CallSettingsTab)} className="flex flex-col gap-6">
        <TabsList layout="grid" className="grid-cols-2 sm:w-fit">
          <TabsTrigger value="voice-changer">Voice Changer</TabsTrigger>
          <TabsTrigger value="call-receiver">Call Receiver</TabsTrigger>
        </TabsList>
        <TabsContent value="voice-changer">
          <VoiceChangerTab />
        </TabsContent>
        <TabsContent value="call-receiver">
          <CallReceiverTab receiver={receiver} />
        </TabsContent>
      </Tabs>
    </>
  );
}
