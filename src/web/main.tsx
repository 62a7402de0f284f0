import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { AppProviders } from './app';
import { AppErrorBoundary } from './components/app-error-boundary';
import { createQueryClient } from './lib/query-client';
import { AppRoutes, preloadRoute } from './router';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
// index.html's waiting text goes as the app draws its own: Preact would otherwise try to reuse its
// element and keep attributes the app never set.
root.replaceChildren();

// The landing page's chunks (which index.html's landing script has asked for, in a build) are
// imported now, while React renders the providers around them.
preloadRoute(window.location.pathname).catch(() => undefined);

createRoot(root).render(
  <StrictMode>
    <AppErrorBoundary>
      <AppProviders queryClient={createQueryClient()}>
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
      </AppProviders>
    </AppErrorBoundary>
  </StrictMode>,
);

// Production builds only: the development server has no service worker to register. Its code
// (workbox-window) is a chunk of its own, fetched after the page's: no page needs it to show.
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  import('./pwa/service-worker-updates')
    .then(({ registerServiceWorker }) => registerServiceWorker())
    .catch((error: unknown) => console.warn('The service worker could not be registered:', error));
}
