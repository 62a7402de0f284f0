export function PageLoading() {
  return (
    <p role="status" className="p-8 text-center text-muted-foreground">
      Loading...
    </p>
  );
}
