/** The object store could not be reached or refused the request: the file stays where it was (the spool). */
export class StorageUnavailableError extends Error {
  override readonly name = 'StorageUnavailableError';
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
  }
}
