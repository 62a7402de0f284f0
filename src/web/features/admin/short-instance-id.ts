/** An instance's id is a UUID: its first group tells instances apart on a page (the whole one is in the title). */
export function shortInstanceId(id: string): string {
  return id.split('-')[0] ?? id;
}
