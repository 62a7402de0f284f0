/** SPEC §2 Voice Changer tab. The Voice Accent Changer panel comes with the voice changer issue. */
export function VoiceChangerTab() {
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-col gap-1">
        <h2 className="text-xl font-semibold tracking-tight">Voice Settings</h2>
        <p className="text-muted-foreground">These settings apply to all your outgoing calls.</p>
      </div>
      <p className="rounded-lg border border-dashed p-6 text-center text-sm text-muted-foreground">The voice changer is coming soon.</p>
    </div>
  );
}
