/**
 * What the page a visit lands on needs before it can show: the modules (source paths under src/web)
 * whose chunks it loads, and the /api/v1 GETs its page makes as it first shows. The build writes it
 * into index.html (landing-plugin.ts), whose script starts both while the HTML is read, before any
 * of the app's modules has loaded (decision 042). router.tsx loads the same modules; its test keeps
 * the two in step.
 */
export interface Landing {
  modules: readonly string[];
  data: readonly string[];
}

/** The signed-in pages' frame (components/app-layout.tsx): its theme sync and voicemail alerts ask as it shows. */
const signedInFrame: Landing = { modules: ['components/app-layout.tsx'], data: ['/preferences', '/voicemail'] };

function signedIn(page: Landing): Landing {
  return { modules: [...signedInFrame.modules, ...page.modules], data: [...signedInFrame.data, ...page.data] };
}

export const LANDINGS: Readonly<Record<string, Landing>> = {
  '/': { modules: ['features/home/home-page.tsx'], data: [] },
  '/auth': { modules: ['features/auth/auth-page.tsx'], data: [] },
  // The dialer's pad waits for the phone library as well as for its numbers.
  '/dialer': signedIn({ modules: ['features/dialer/dialer-page.tsx', 'lib/phone-library-module.ts'], data: ['/subscription/minutes', '/numbers', '/subscription'] }),
  '/contacts': signedIn({ modules: ['features/contacts/contacts-page.tsx'], data: ['/numbers', '/contacts'] }),
  '/voicemail': signedIn({ modules: ['features/voicemail/voicemail-page.tsx'], data: ['/contacts'] }),
  '/call-settings': signedIn({ modules: ['features/call-settings/call-settings-page.tsx'], data: ['/numbers', '/calls/lines', '/voice-settings'] }),
  '/settings': signedIn({ modules: ['features/settings/settings-page.tsx'], data: ['/subscription', '/storage', '/subscription/minutes'] }),
};
