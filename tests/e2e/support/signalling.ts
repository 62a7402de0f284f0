import type { Page } from '@playwright/test';

/** Watches the messages the page sends on its signalling socket (/api/v1/realtime): how many of a type so far. */
export function watchSignalling(page: Page) {
  const sent: string[] = [];
  page.on('websocket', (socket) => {
    if (new URL(socket.url()).pathname !== '/api/v1/realtime') return;
    socket.on('framesent', ({ payload }) => {
      if (typeof payload !== 'string') return;
      try {
        const { type } = JSON.parse(payload) as { type?: unknown };
        if (typeof type === 'string') sent.push(type);
      } catch {
        // Not a message of ours.
      }
    });
  });
  return (type: string) => sent.filter((sentType) => sentType === type).length;
}
