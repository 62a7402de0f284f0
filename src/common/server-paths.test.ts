import { describe, expect, it } from 'vitest';
import { isServerPath } from './server-paths';

describe('isServerPath', () => {
  it("counts the server's own paths, their roots included", () => {
    for (const path of ['/api/v1/session', '/api', '/functions/v1/vonage-phone', '/sandbox/checkout/ref', '/dev/outbox', '/providers/vonage/answer', '/metrics']) {
      expect(isServerPath(path), path).toBe(true);
    }
  });

  it("leaves the web app's pages and files to the app", () => {
    for (const path of ['/', '/dialer', '/settings', '/apis', '/developer', '/assets/index-abc.js', '/sw.js', '/offline.html']) {
      expect(isServerPath(path), path).toBe(false);
    }
  });
});
