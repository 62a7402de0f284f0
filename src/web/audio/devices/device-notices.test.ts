import { describe, expect, it } from 'vitest';
import { missingNotice, noticeFor } from './device-notices';

describe('device notices', () => {
  it('names the device unplugged and the default taking over', () => {
    const notice = noticeFor({ type: 'lost', role: 'microphone', device: { deviceId: 'h', kind: 'audioinput', label: 'headset' } });
    expect(notice).toEqual({ kind: 'warning', title: 'Your headset was disconnected; using the default microphone' });
  });

  it('offers a new microphone for calls', () => {
    const notice = noticeFor({ type: 'found', device: { deviceId: 'h', kind: 'audioinput', label: 'USB Headset' } });
    expect(notice.title).toBe('New microphone found: USB Headset. Use it?');
    expect(notice.offer).toEqual({ role: 'microphone', deviceId: 'h', label: 'Use it' });
  });

  it('offers a new speaker for the call audio', () => {
    expect(noticeFor({ type: 'found', device: { deviceId: 's', kind: 'audiooutput', label: '' } }).offer?.role).toBe('speaker');
  });

  it('says when a chosen device is not there at the start of a call', () => {
    expect(missingNotice('speaker')).toBe('The speaker you chose is not connected; using the default speaker');
  });
});
