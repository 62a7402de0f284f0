/**
 * The one place where a number changes format for Vonage: Voxline carries E.164 (+14155550123)
 * everywhere; Vonage's Numbers API, Voice API and webhooks, and the /functions/v1 compatibility
 * routes that keep Vonage's field names, carry msisdn (the same digits without the '+').
 */

/** Vonage's msisdn form of an E.164 number. */
export function toMsisdn(e164: string): string {
  return e164.replace(/^\+/, '');
}

/** The E.164 form of a Vonage msisdn; a '+' sent along is not doubled. Validity is the caller's to check. */
export function fromMsisdn(msisdn: string): string {
  return `+${msisdn.replace(/^\+/, '')}`;
}
