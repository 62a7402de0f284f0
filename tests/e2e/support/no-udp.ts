import type { Page } from '@playwright/test';

/**
 * A network that lets no UDP through (a strict firewall, no TURN): every peer connection the page
 * makes may use only TURN relays, and the server hands out none, so ICE finds no candidate pair at
 * all and the call's audio falls back to its websocket (docs/calls.md#media). Call before page.goto.
 */
export async function blockUdp(page: Page) {
  await page.addInitScript(`(() => {
    const Native = window.RTCPeerConnection;
    window.RTCPeerConnection = class extends Native {
      constructor(configuration = {}) { super({ ...configuration, iceTransportPolicy: 'relay' }); }
    };
  })();`);
}
