/** An amount in minor units (cents, kobo) as a decimal string with two places: 125 → '1.25'. */
export function minorToDecimal(amountMinor: number): string {
  return (amountMinor / 100).toFixed(2);
}
