import { LazyModule, useLazyModule, useLazyModuleIfLoaded } from './lazy-module';
import type * as PhoneLibraryModule from './phone-library-module';

/**
 * Reading and formatting phone numbers: libphonenumber-js with its metadata, about 29 kB gzip. The
 * pages that show numbers fetch it as they show, beside their own requests, rather than with the
 * first load every signed-in page pays for (decision 041).
 */
const phoneLibrary = new LazyModule(() => import('./phone-library-module'));

export type PhoneLibrary = typeof PhoneLibraryModule;

export const loadPhoneLibrary = phoneLibrary.load;

/** The library once it has loaded, else null: a list of numbers shows its loading state until then. */
export function usePhoneLibrary(): PhoneLibrary | null {
  return useLazyModule(phoneLibrary);
}

/**
 * For what a call or a voicemail event says: the number formatted once the library has loaded, as
 * it has by the time anyone can call; in the moment before, the number as the server sent it (E.164).
 */
export function formatPhoneNumberNow(e164: string): string {
  const library = phoneLibrary.loaded;
  if (library) return library.formatPhoneNumber(e164);
  phoneLibrary.load().catch(() => undefined);
  return e164;
}

/**
 * A number on a call's card, which must show whatever happens to the library: formatted once it has
 * loaded (its load is started), as the server sent it (E.164) before then or if it could not load.
 */
export function useFormattedPhoneNumber(e164: string): string {
  return useLazyModuleIfLoaded(phoneLibrary)?.formatPhoneNumber(e164) ?? e164;
}
