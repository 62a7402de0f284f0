import fs from 'node:fs';
import { Vonage } from '@vonage/server-sdk';
import { getCountryCallingCode } from 'libphonenumber-js';
import { TelephonyError, type Money, type NumberOffer, type NumberRef, type OutboundCallRequest, type TelephonyProvider } from '../telephony-provider';
import { fromMsisdn, toMsisdn } from './msisdn';

type NumbersClient = Vonage['numbers'];
type Ncco = Extract<Parameters<Vonage['voice']['createOutboundCall']>[0], { ncco: unknown }>['ncco'];
type SearchFilter = Parameters<NumbersClient['getAvailableNumbers']>[0];
type Feature = NonNullable<SearchFilter['features']>[number];
type Country = SearchFilter['country'];

const VOICE = 'VOICE' as Feature;
// Vonage's search_pattern: 0 means "starts with", the pattern including the country code.
const STARTS_WITH = 0;
const REQUEST_TIMEOUT_MS = 15_000;
/** The largest page GET /account/numbers answers. */
const OWNED_PAGE_SIZE = 100;
/** Vonage's ringing_timer accepts 1 to 120 seconds. */
const MAX_RINGING_TIMER_SEC = 120;

export interface VonageSettings {
  apiKey: string;
  apiSecret: string;
  applicationId: string;
  /** PEM text (escaped `\n` allowed) or the path of a PEM file. */
  privateKey: string;
  /** Numbers API host, https://rest.nexmo.com unless a test points it at a fake. */
  restUrl: string;
  /** Voice API host, https://api.nexmo.com unless a test points it at a fake. */
  apiUrl: string;
}

/** The private key as PEM text: read from a file, or with the `\n` escapes of an environment variable undone. */
export function resolvePrivateKey(value: string): string {
  if (value.includes('-----BEGIN')) return value.replace(/\\n/g, '\n');
  return fs.readFileSync(value, 'utf8');
}

interface VonageAnswer {
  status: number;
  label: string;
}

/** The HTTP status and Vonage's reason from an SDK error, or null when no answer came back. */
async function answerOf(error: unknown): Promise<VonageAnswer | null> {
  const response = (error as { response?: { status?: unknown; statusText?: string; text?: () => Promise<string> } } | null)?.response;
  if (!response || typeof response.status !== 'number') return null;
  let label = response.statusText || 'no reason given';
  try {
    const body = JSON.parse((await response.text?.()) ?? '') as Record<string, unknown>;
    const reason = body['error-code-label'] ?? body.detail ?? body.title;
    if (typeof reason === 'string' && reason) label = reason;
  } catch {
    // A body that is not JSON leaves the status text as the reason.
  }
  return { status: response.status, label };
}

/** The SDK error as a TelephonyError; `answer` is given when the caller has read the body already (it reads once). */
async function toTelephonyError(error: unknown, answer?: VonageAnswer | null): Promise<TelephonyError> {
  if (error instanceof TelephonyError) return error;
  if (answer === undefined) answer = await answerOf(error);
  if (answer?.status === 401) return new TelephonyError('rejected', `Vonage rejected Voxline's credentials (${answer.label})`, { cause: error });
  if (answer) return new TelephonyError('rejected', `Vonage answered ${answer.status}: ${answer.label}`, { cause: error });
  const reason = (error as Error | null)?.name === 'AbortError' ? 'no answer in time' : ((error as Error | null)?.message ?? String(error));
  return new TelephonyError('unreachable', `Vonage could not be reached: ${reason}`, { cause: error });
}

/** A buy, update or cancel answer: HTTP 200 whose error-code is 200 (or absent). */
function checkResult(result: { errorCode?: string; errorCodeLabel?: string }, doing: string) {
  if (result.errorCode === undefined || result.errorCode === '200' || result.errorCode === 'undefined') return;
  throw new TelephonyError('rejected', `Vonage refused to ${doing}: ${result.errorCodeLabel ?? `error ${result.errorCode}`}`);
}

/**
 * Connects the answered call to our media websocket: 16-bit linear PCM at 16 kHz (docs/calls.md#media).
 * Written as JSON by hand because the SDK's camelCase `contentType` reaches the API unchanged and
 * is ignored there (docs/providers.md#connecting-a-call-to-our-websocket); the SDK passes `ncco` through as given.
 */
function mediaNcco({ mediaUrl, callId }: Pick<OutboundCallRequest, 'mediaUrl' | 'callId'>) {
  return [{ action: 'connect', endpoint: [{ type: 'websocket', uri: mediaUrl, 'content-type': 'audio/l16;rate=16000', headers: { callId } }] }];
}

/** What Vonage plays to a caller whose call Voxline cannot take; the call ends after it. */
export function talkNcco(message: string) {
  return [{ action: 'talk', text: message, language: 'en-US' }];
}

/** The answer webhook's NCCO: the caller is connected to our media socket while the callee rings. */
export function inboundNcco({ mediaUrl, eventUrl, callId }: { mediaUrl: string; eventUrl: string; callId: string }) {
  return [{ action: 'connect', eventUrl: [eventUrl], endpoint: mediaNcco({ mediaUrl, callId })[0]!.endpoint }];
}

function costOf(cost: string | undefined): Money {
  const euros = Number(cost);
  return { amountMinor: Number.isFinite(euros) ? Math.round(euros * 100) : 0, currency: 'EUR' };
}

/**
 * TELEPHONY=vonage: numbers searched, bought, pointed at our Vonage application and cancelled
 * through the Vonage Numbers API; calls placed and hung up through the Voice API. Numbers come in
 * and go out as E.164; only the requests to Vonage carry msisdn (./msisdn.ts).
 */
export function createVonageProvider(settings: VonageSettings): TelephonyProvider {
  const vonage = new Vonage(
    {
      apiKey: settings.apiKey,
      apiSecret: settings.apiSecret,
      applicationId: settings.applicationId,
      privateKey: resolvePrivateKey(settings.privateKey),
    },
    { restHost: settings.restUrl.replace(/\/+$/, ''), apiHost: settings.apiUrl.replace(/\/+$/, ''), timeout: REQUEST_TIMEOUT_MS },
  );

  async function call<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw await toTelephonyError(error);
    }
  }

  async function endCall(work: () => Promise<void>) {
    try {
      await work();
    } catch (error) {
      const answer = await answerOf(error);
      // A call that has ended already is not found any more: it is hung up.
      if (answer?.status === 404) return;
      throw await toTelephonyError(error, answer);
    }
  }

  async function search(filter: SearchFilter) {
    const found = await call(() => vonage.numbers.getAvailableNumbers(filter));
    return found.numbers ?? [];
  }

  /** The number as Vonage offers it right now, or null when it is not for sale. */
  async function findOffer({ country, phoneNumber }: NumberRef) {
    const msisdn = toMsisdn(phoneNumber);
    const numbers = await search({ country: country as Country, pattern: msisdn, searchPattern: STARTS_WITH, features: [VOICE], size: 10 });
    return numbers.find((number) => number.msisdn === msisdn) ?? null;
  }

  const unavailable = () => new TelephonyError('number_unavailable', 'Number no longer available');

  return {
    name: 'vonage',

    async searchNumbers({ country, startsWith, limit }): Promise<NumberOffer[]> {
      // Our patterns are national digits; Vonage matches from the country code on.
      const callingCode = getCountryCallingCode(country);
      const numbers = await search({
        country: country as Country,
        features: [VOICE],
        size: limit,
        ...(startsWith ? { pattern: `${callingCode}${startsWith}`, searchPattern: STARTS_WITH } : {}),
      });
      return numbers
        .filter((number): number is typeof number & { msisdn: string } => typeof number.msisdn === 'string' && /^\d+$/.test(number.msisdn))
        .slice(0, limit)
        .map((number) => ({ phoneNumber: fromMsisdn(number.msisdn), country, monthlyCost: costOf(number.cost) }));
    },

    async rentNumber(number) {
      const offer = await findOffer(number);
      if (!offer) throw unavailable();
      try {
        checkResult(await vonage.numbers.buyNumber({ country: number.country as Country, msisdn: toMsisdn(number.phoneNumber) }), 'sell the number');
      } catch (error) {
        // 420 "method failed" means a number taken since the search, no credit, or a country rule: tell them apart.
        const answer = error instanceof TelephonyError ? null : await answerOf(error);
        if (answer?.status === 420) {
          if (!(await findOffer(number))) throw unavailable();
          throw new TelephonyError('rejected', `Vonage refused to sell the number: ${answer.label}`, { cause: error });
        }
        throw await toTelephonyError(error, answer);
      }
      return { monthlyCost: costOf(offer.cost) };
    },

    async configureInboundVoice({ country, phoneNumber }) {
      const result = await call(() => vonage.numbers.updateNumber({ country: country as Country, msisdn: toMsisdn(phoneNumber), appId: settings.applicationId }));
      checkResult(result, 'route the number to Voxline');
    },

    async releaseNumber({ country, phoneNumber }) {
      const msisdn = toMsisdn(phoneNumber);
      try {
        checkResult(await vonage.numbers.cancelNumber({ country: country as Country, msisdn }), 'release the number');
      } catch (error) {
        const answer = error instanceof TelephonyError ? null : await answerOf(error);
        if (answer?.status === 420) {
          // A number the account no longer owns is released already.
          const owned = await call(() => vonage.numbers.getOwnedNumbers({ country: country as Country, pattern: msisdn, searchPattern: STARTS_WITH }));
          if (!(owned.numbers ?? []).some((owned) => owned.msisdn === msisdn)) return;
          throw new TelephonyError('rejected', `Vonage refused to release the number: ${answer.label}`, { cause: error });
        }
        throw await toTelephonyError(error, answer);
      }
    },

    // GET /account/numbers answers each number's `app_id`: the numbers linked to our application are
    // those whose calls reach us. One released at Vonage, or pointed elsewhere, is not among them.
    async routedNumbers() {
      const routed = new Set<string>();
      for (let index = 1; ; index += 1) {
        const owned = await call(() => vonage.numbers.getOwnedNumbers({ applicationId: settings.applicationId, size: OWNED_PAGE_SIZE, index }));
        const numbers = (owned.numbers ?? []) as (NonNullable<typeof owned.numbers>[number] & { app_id?: string })[];
        for (const number of numbers) {
          if (number.msisdn && number.app_id === settings.applicationId) routed.add(fromMsisdn(number.msisdn));
        }
        if (numbers.length < OWNED_PAGE_SIZE || index * OWNED_PAGE_SIZE >= (owned.count ?? 0)) return routed;
      }
    },

    calls: {
      async place(request) {
        const result = await call(() =>
          vonage.voice.createOutboundCall({
            to: [{ type: 'phone', number: toMsisdn(request.to) }],
            from: { type: 'phone', number: toMsisdn(request.from) },
            ncco: mediaNcco(request) as unknown as Ncco,
            eventUrl: [request.eventUrl],
            ringingTimer: Math.min(MAX_RINGING_TIMER_SEC, Math.max(1, Math.ceil(request.ringTimeoutSec))),
          }),
        );
        if (typeof result?.uuid !== 'string' || !result.uuid) throw new TelephonyError('unreachable', 'Vonage answered without a call id');
        return { providerCallId: result.uuid };
      },

      async hangup(providerCallId) {
        await endCall(() => vonage.voice.hangupCall(providerCallId));
      },

      async sayAndHangUp(providerCallId, message) {
        await endCall(() => vonage.voice.transferCallWithNCCO(providerCallId, talkNcco(message) as unknown as Ncco));
      },

      async sendDtmf(providerCallId, digits) {
        await call(() => vonage.voice.playDTMF(providerCallId, digits));
      },
    },
  };
}
