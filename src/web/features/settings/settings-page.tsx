import { useSearchParams } from 'react-router-dom';
import { PageHeading } from '../../components/page-heading';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs';
import { AccountTab } from './components/account-tab';
import { PreferencesTab } from './components/preferences-tab';
import { SubscriptionTab } from './components/subscription-tab';
import { SupportTab } from './support/support-tab';

type SettingsTab = 'subscription' | 'account' | 'preferences' | 'support';

function toSettingsTab(value: string | null): SettingsTab {
  return value === 'account' || value === 'preferences' || value === 'support' ? value : 'subscription';
}

/** docs/product.md §2: Subscription (the default), Account, Preferences and Support, the tab kept in ?tab=. */
export function SettingsPage() {
  const [params, setParams] = useSearchParams();

  // Other parameters (a payment reference coming back from checkout) stay as they are.
  const selectTab = (tab: string) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.set('tab', tab);
        return next;
      },
      { replace: true },
    );

  return (
    <>
      <PageHeading title="Settings">Your plan, your account and how Voxline behaves.</PageHeading>
      <Tabs value={toSettingsTab(params.get('tab'))} onValueChange={selectTab} className="flex flex-col gap-6">
        <TabsList layout="grid" className="grid-cols-4 sm:w-fit">
          <TabsTrigger value="subscription">Subscription</TabsTrigger>
          <TabsTrigger value="account">Account</TabsTrigger>
          <TabsTrigger value="preferences">Preferences</TabsTrigger>
          <TabsTrigger value="support">Support</TabsTrigger>
        </TabsList>
        <TabsContent value="subscription">
          <SubscriptionTab />
        </TabsContent>
        <TabsContent value="account">
          <AccountTab />
        </TabsContent>
        <TabsContent value="preferences">
          <PreferencesTab />
        </TabsContent>
        <TabsContent value="support">
          <SupportTab />
        </TabsContent>
      </Tabs>
    </>
  );
}
