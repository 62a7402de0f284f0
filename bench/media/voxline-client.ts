import type { PlaceCallResult } from '../../src/common/api/calls';
import { DEFAULT_SOUND_TEST_NUMBER, WIDEBAND_RATE } from '../../src/common/calls';
import type { SocketCodec } from '../../src/common/media';
import { mediaSocketUrl, type MediaTarget } from './load';
import { BENCH_ORIGIN, type BenchUser } from './protocol';

/** A bench user's side of the HTTP API, as the web app calls it. */
export class VoxlineCaller {
  phoneNumber: string | null = null;

  constructor(
    private readonly baseUrl: string,
    private readonly user: BenchUser,
  ) {}

  private async call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: { cookie: this.user.cookie, origin: BENCH_ORIGIN, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path} as ${this.user.email}: ${response.status} ${text}`);
    return JSON.parse(text) as T;
  }

  /** Rents the first US number the virtual carrier offers. */
  async rentNumber() {
    const { numbers } = await this.call<{ numbers: { phoneNumber: string }[] }>('GET', '/api/v1/numbers/available?country=US');
    const offer = numbers[0];
    if (!offer) throw new Error('the virtual carrier offered no US number');
    const rented = await this.call<{ phoneNumber: string }>('POST', '/api/v1/numbers', { country: 'US', phoneNumber: offer.phoneNumber });
    this.phoneNumber = rented.phoneNumber;
  }

  /**
   * Calls the sound-test line; answers where to connect the call's audio in `codec`. A voice
   * notice means the saved voice was set aside, so the voice changer would not be measured.
   */
  async callSoundTestLine(codec: SocketCodec): Promise<MediaTarget> {
    if (!this.phoneNumber) throw new Error(`${this.user.email} has no number`);
    const placed = await this.call<Pick<PlaceCallResult, 'call' | 'mediaPath' | 'sampleRate' | 'voiceNotice'>>('POST', '/api/v1/calls', {
      from: this.phoneNumber,
      to: DEFAULT_SOUND_TEST_NUMBER,
    });
    if (placed.call.state !== 'answered' || placed.sampleRate !== WIDEBAND_RATE || placed.voiceNotice !== undefined) {
      throw new Error(`the sound-test line answered ${JSON.stringify(placed)}`);
    }
    return { url: mediaSocketUrl(this.baseUrl, placed.mediaPath, codec), headers: { cookie: this.user.cookie, origin: BENCH_ORIGIN } };
  }
}
