/**
 * Refuses a key that could leave the store's folder or name nothing: keys are relative paths of
 * plain segments such as `recordings/<userId>/<id>.ogg`.
 */
export function assertObjectKey(key: string): void {
  const segments = key.split('/');
  const bad = key.length === 0 || key.length > 512 || key.includes('\\') || key.includes('\0') || segments.some((segment) => segment === '' || segment === '.' || segment === '..');
  if (bad) throw new RangeError(`not an object key: "${key}" (relative path of plain segments, no "..", no leading "/")`);
}
