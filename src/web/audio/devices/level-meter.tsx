import { useEffect, useState } from 'react';
import { watchMicrophoneLevel } from './microphone-level';

/** The microphone's live level as a bar (role="meter", 0…100), while `stream` is open. */
export function LevelMeter({ stream, label = 'Microphone level' }: { stream: MediaStream; label?: string }) {
  const [level, setLevel] = useState(0);
  useEffect(() => watchMicrophoneLevel(stream, setLevel), [stream]);
  return (
    <div role="meter" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={level} className="h-2 w-full max-w-xs overflow-hidden rounded-full bg-muted">
      <div className="h-full bg-green-600 transition-[width] duration-100 dark:bg-green-500" style={{ width: `${level}%` }} />
    </div>
  );
}
