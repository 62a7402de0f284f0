/** Session-storage key of a payment reference waiting to be verified once the visitor is signed in. */
export const PENDING_PAYMENT_KEY = 'pendingPaymentReference';

export function savePendingPaymentReference(reference: string) {
  try {
    window.sessionStorage.setItem(PENDING_PAYMENT_KEY, reference);
  } catch {
    // Without session storage the reference is simply not remembered.
  }
}

function readPendingPaymentReference(): string | null {
  try {
    return window.sessionStorage.getItem(PENDING_PAYMENT_KEY);
  } catch {
    return null;
  }
}

/** The waiting reference, removed from storage so it is verified once. */
export function takePendingPaymentReference(): string | null {
  const reference = readPendingPaymentReference();
  try {
    window.sessionStorage.removeItem(PENDING_PAYMENT_KEY);
  } catch {
    // Nothing was stored.
  }
  return reference;
}
