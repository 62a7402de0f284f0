/** A monthly price as the API gives it: a decimal string in an ISO 4217 currency. */
export function monthlyCost(cost: string, currency: string): string {
  return `${cost} ${currency}/month`;
}
