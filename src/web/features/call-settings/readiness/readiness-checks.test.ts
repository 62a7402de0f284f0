import { describe, expect, it } from 'vitest';
import { problemsOf, readinessChecks, readinessSummary, type CheckId, type ReadinessFacts } from './readiness-checks';

const ready: ReadinessFacts = {
  microphone: 'granted',
  microphoneLevel: 40,
  speakerConfirmed: true,
  notificationsWanted: true,
  notifications: 'granted',
  audio: 'running',
  realtime: 'connected',
  numbers: 1,
};

function check(id: CheckId, facts: Partial<ReadinessFacts>) {
  return readinessChecks({ ...ready, ...facts }).find((found) => found.id === id)!;
}

describe('readiness checks', () => {
  it('are all OK when everything works', () => {
    const checks = readinessChecks(ready);
    expect(checks.map((found) => [found.id, found.status])).toEqual([
      ['microphone', 'ok'],
      ['speaker', 'ok'],
      ['notifications', 'ok'],
      ['autoplay', 'ok'],
      ['realtime', 'ok'],
      ['numbers', 'ok'],
    ]);
    expect(readinessSummary(checks)).toBe('Ready to take calls.');
  });

  it('fail the microphone when blocked, and offer "Allow microphone" while it is only not asked yet', () => {
    expect(check('microphone', { microphone: 'denied' })).toMatchObject({ status: 'failed' });
    expect(check('microphone', { microphone: 'denied' }).fix).toBeUndefined();
    expect(check('microphone', { microphone: 'prompt' })).toMatchObject({ status: 'warning', fix: { action: 'allow-microphone', label: 'Allow microphone' } });
    expect(check('microphone', { microphone: 'unknown' }).fix?.action).toBe('allow-microphone');
  });

  it('warn when the allowed microphone hears nothing', () => {
    expect(check('microphone', { microphoneLevel: 2 }).status).toBe('warning');
    expect(check('microphone', { microphoneLevel: null }).status).toBe('ok');
  });

  it('ask for the speaker test until the tone was heard', () => {
    expect(check('speaker', { speakerConfirmed: false })).toMatchObject({ status: 'warning', fix: { action: 'play-tone' } });
  });

  it('look at notifications only when the preference is on', () => {
    expect(check('notifications', { notificationsWanted: false, notifications: 'denied' }).status).toBe('ok');
    expect(check('notifications', { notifications: 'default' })).toMatchObject({ status: 'warning', fix: { action: 'allow-notifications', label: 'Allow notifications' } });
    expect(check('notifications', { notifications: 'denied' }).status).toBe('failed');
    expect(check('notifications', { notifications: 'unsupported' }).status).toBe('warning');
  });

  it('offer a click that unlocks sound when the browser holds it back', () => {
    expect(check('autoplay', { audio: 'suspended' })).toMatchObject({ status: 'warning', fix: { action: 'unlock-sound' } });
  });

  it('fail without the realtime connection, with Reconnect', () => {
    expect(check('realtime', { realtime: 'disconnected' })).toMatchObject({ status: 'failed', fix: { action: 'reconnect', label: 'Reconnect' } });
    expect(check('realtime', { realtime: 'unknown' }).status).toBe('warning');
  });

  it('fail without a number, pointing to where one is rented', () => {
    expect(check('numbers', { numbers: 0 })).toMatchObject({ status: 'failed', fix: { action: 'rent-number' } });
    expect(check('numbers', { numbers: null }).status).toBe('warning');
    expect(check('numbers', { numbers: 3 }).detail).toBe('Calls to your 3 numbers ring here.');
  });

  it('list failures before warnings, and sum them up', () => {
    const checks = readinessChecks({ ...ready, speakerConfirmed: false, realtime: 'disconnected' });
    expect(problemsOf(checks).map((found) => found.id)).toEqual(['realtime', 'speaker']);
    expect(readinessSummary(checks)).toBe('1 check failed, 1 with warnings.');
    expect(readinessSummary(readinessChecks({ ...ready, speakerConfirmed: false }))).toBe('Ready, with 1 warning.');
  });
});
