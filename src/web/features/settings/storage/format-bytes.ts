const UNITS = ['kB', 'MB', 'GB', 'TB'] as const;

/** A size in words people read ("2.4 MB"): decimal units, as operating systems show file sizes. */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return bytes === 1 ? '1 byte' : `${bytes} bytes`;
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 999.95 && unit < UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${value < 9.95 ? value.toFixed(1) : Math.round(value)} ${UNITS[unit]}`;
}
