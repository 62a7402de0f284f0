/** The pages issue 22 measures, and whether each needs a signed-in user. */
export const PAGES = [
  { path: '/', signedIn: false },
  { path: '/auth', signedIn: false },
  { path: '/dialer', signedIn: true },
  { path: '/call-settings', signedIn: true },
] as const;
