import { Suspense } from 'react';
import { Outlet } from 'react-router-dom';
import { CallProvider } from '../calls/call-context';
import { NavBar } from './nav-bar';
import { PageLoading } from './page-loading';
import { PendingPaymentVerifier } from './pending-payment-verifier';
import { SiteFooter } from './site-footer';

export function AppLayout() {
  return (
    <CallProvider>
      <PendingPaymentVerifier />
      <div className="flex min-h-screen flex-col">
        <NavBar />
        <main className="mx-auto w-full max-w-6xl flex-1 px-4 py-6">
          <Suspense fallback={<PageLoading />}>
            <Outlet />
          </Suspense>
        </main>
        <SiteFooter />
      </div>
    </CallProvider>
  );
}
