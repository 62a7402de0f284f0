import type { Config } from '../../config';
import { createLocalCarrier } from './local/local-carrier';
import type { TelephonyProvider } from './telephony-provider';

export interface TelephonyDependencies {
  /** Which of these E.164 numbers are rented already (the virtual carrier never offers them). */
  findRented: (numbers: string[]) => Promise<Set<string>>;
}

/** The provider TELEPHONY names; config.ts has already refused vonage without its variables. */
export async function createTelephonyProvider(config: Config, { findRented }: TelephonyDependencies): Promise<TelephonyProvider> {
  if (config.TELEPHONY === 'vonage') {
    // Loaded only when chosen: the Vonage SDK adds about a second to start-up.
    const { createVonageProvider } = await import('./vonage/vonage-provider');
    return createVonageProvider({
      apiKey: config.VONAGE_API_KEY!,
      apiSecret: config.VONAGE_API_SECRET!,
      applicationId: config.VONAGE_APPLICATION_ID!,
      privateKey: config.VONAGE_PRIVATE_KEY!,
      restUrl: config.VONAGE_REST_URL,
      apiUrl: config.VONAGE_API_URL,
    });
  }
  return createLocalCarrier({ findRented });
}
