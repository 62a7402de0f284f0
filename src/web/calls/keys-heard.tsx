/** The keys the other side of the call has pressed, announced politely as they come. */
export function KeysHeard({ keys }: { keys: string }) {
  return (
    <p role="status" className="truncate text-xs tabular-nums text-muted-foreground">
      {keys ? `Keys pressed: ${keys}` : ''}
    </p>
  );
}
