import { randomBytes } from 'node:crypto';
import { getCountryCallingCode, getExampleNumber, parsePhoneNumberFromString } from 'libphonenumber-js';
import examples from 'libphonenumber-js/mobile/examples';
import type { SupportedCountryCode } from '../../../../common/countries';
import { isReservedNumber } from '../../../../common/phone';
import { TelephonyError, type Money, type NumberOffer, type NumberRef, type NumberSearch, type TelephonyProvider } from '../telephony-provider';
import { seededRandom } from './seeded-random';

/** Monthly price of a virtual number, in US cents, by country. */
const MONTHLY_COST_CENTS: Record<SupportedCountryCode, number> = {
  US: 100, GB: 125, CA: 100, AU: 150, DE: 150, FR: 150, IN: 100, NG: 200, BR: 175, MX: 150,
  ES: 150, IT: 150, NL: 150, SE: 175, JP: 250, ZA: 175, KE: 200, GH: 200, IE: 150, NZ: 175,
};

// Random national numbers are drawn and kept when libphonenumber-js calls them valid for the
// country; a pattern no valid number can start with ends the search after this many draws.
const MAX_DRAWS = 12_000;
const DRAWS_PER_LENGTH = 3_000;

export interface LocalCarrierOptions {
  /** Seeds the offers: the same seed, country and pattern give the same numbers. Default: random per process and day. */
  seed?: string;
  /** Which of these E.164 numbers are already rented (and so never offered). */
  findRented?: (numbers: string[]) => Promise<Set<string>>;
}

function monthlyCost(country: SupportedCountryCode): Money {
  return { amountMinor: MONTHLY_COST_CENTS[country], currency: 'USD' };
}

/** National-number lengths to draw, the usual one for the country first. */
function nationalLengths(country: SupportedCountryCode, startsWith: string): number[] {
  const usual = getExampleNumber(country, examples)?.nationalNumber.length ?? 9;
  const longest = 15 - getCountryCallingCode(country).length;
  const lengths: number[] = [];
  for (let distance = 0; distance <= 3; distance += 1) {
    for (const length of distance === 0 ? [usual] : [usual + distance, usual - distance]) {
      if (length >= Math.max(4, startsWith.length) && length <= longest) lengths.push(length);
    }
  }
  return lengths;
}

/** Valid, never-reserved numbers of the country starting with the pattern, in a seeded order, without repeats. */
function* drawNumbers(country: SupportedCountryCode, startsWith: string, random: () => number): Generator<string> {
  const callingCode = getCountryCallingCode(country);
  const seen = new Set<string>();
  let draws = 0;
  for (const length of nationalLengths(country, startsWith)) {
    for (let i = 0; i < DRAWS_PER_LENGTH && draws < MAX_DRAWS; i += 1, draws += 1) {
      let national = startsWith;
      while (national.length < length) national += Math.floor(random() * 10).toString();
      const e164 = `+${callingCode}${national}`;
      if (seen.has(e164)) continue;
      seen.add(e164);
      const parsed = parsePhoneNumberFromString(e164);
      // A draw that libphonenumber-js reads by dropping a trunk prefix (+64 0…, +55 90…) is not E.164 as written.
      if (parsed?.isValid() && parsed.number === e164 && parsed.country === country && !isReservedNumber(e164)) yield e164;
    }
  }
}

/**
 * The built-in virtual carrier (TELEPHONY=local): offers numbers valid for each of the 20
 * countries, never one already rented or reserved, and rents them instantly.
 */
export function createLocalCarrier(options: LocalCarrierOptions = {}): TelephonyProvider {
  const baseSeed = options.seed ?? randomBytes(8).toString('hex');
  const findRented = options.findRented ?? (async () => new Set<string>());
  // Without a fixed seed the offers change each day, so a list is not the same for everyone forever.
  const seedFor = (search: NumberSearch) =>
    [baseSeed, options.seed ? '' : new Date().toISOString().slice(0, 10), search.country, search.startsWith ?? ''].join(':');

  return {
    name: 'local',

    async searchNumbers(search): Promise<NumberOffer[]> {
      const draw = drawNumbers(search.country, search.startsWith ?? '', seededRandom(seedFor(search)));
      const offers: NumberOffer[] = [];
      while (offers.length < search.limit) {
        // Pulled with next(): breaking out of a for-of would close the generator.
        const batch: string[] = [];
        for (let next = draw.next(); !next.done; next = draw.next()) {
          batch.push(next.value);
          if (batch.length >= search.limit * 2) break;
        }
        if (batch.length === 0) break;
        const rented = await findRented(batch);
        for (const e164 of batch) {
          if (offers.length < search.limit && !rented.has(e164)) {
            offers.push({ phoneNumber: e164, country: search.country, monthlyCost: monthlyCost(search.country) });
          }
        }
      }
      return offers;
    },

    async rentNumber({ country, phoneNumber }: NumberRef) {
      const parsed = parsePhoneNumberFromString(phoneNumber);
      if (!parsed?.isValid() || parsed.country !== country || isReservedNumber(phoneNumber)) {
        throw new TelephonyError('number_unavailable', 'This number is not offered for rent');
      }
      return { monthlyCost: monthlyCost(country) };
    },

    async configureInboundVoice() {
      // Calls to a local number reach Voxline already: the virtual carrier is Voxline.
    },

    async releaseNumber() {},
  };
}
