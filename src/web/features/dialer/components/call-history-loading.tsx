/** The Call History tab while its code (fetched after the dialer shows), its entries or the phone library are on their way. */
export function CallHistoryLoading() {
  return <p className="p-6 text-center text-muted-foreground">Loading call history...</p>;
}
