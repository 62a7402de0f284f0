import { Suspense } from 'react';
import { Outlet } from 'react-router-dom';
import { CallProvider } from '../calls/call-context';
import { InNextTask } from './in-next-task';
import { NavBar } from './nav-bar';
import { PageLoading } from './page-loading';
import { PendingPaymentVerifier } from './pending-payment-verifier';
import { SiteFooter } from './site-footer';
import { TooltipProvider } from './ui/tooltip';
import { VoicemailAlerts } from './voicemail-alerts';
import { PreferencesThemeSync } from '../lib/preferences';
import { RealtimeProvider } from '../lib/realtime';
import { SyncWithOtherTabs } from '../lib/use-sync';

/** The signed-in pages' frame: the realtime socket, the call engine and the navigation around each page. */
export function AppLayout() {
  return (
    <RealtimeProvider>
      <PreferencesThemeSync />
      <CallProvider>
        <PendingPaymentVerifier />
        <VoicemailAlerts />
        <SyncWithOtherTabs />
        {/* Here rather than among the app's providers: the public pages load no tooltip code (docs/decisions/021). */}
        <TooltipProvider>
          <div className="flex min-h-screen flex-col">
            <NavBar />
            {/* At least a screen tall, so the footer starts below the fold: as a page's data arrives and it
                grows, the footer does not jump out of view (a layout shift Lighthouse counted at 0.11). */}
            <main className="mx-auto min-h-dvh w-full max-w-6xl flex-1 px-4 py-6">
              <Suspense fallback={<PageLoading />}>
                <InNextTask fallback={<PageLoading />}>
                  <Outlet />
                </InNextTask>
              </Suspense>
            </main>
            <SiteFooter />
          </div>
        </TooltipProvider>
      </CallProvider>
    </RealtimeProvider>
  );
}
