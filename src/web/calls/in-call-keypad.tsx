import { DTMF_KEYS } from '../../dsp/dtmf';
import { playDtmfTone } from '../audio/dtmf';
import { Button } from '../components/ui/button';

const KEY_NAMES: Partial<Record<string, string>> = { '*': 'Star', '#': 'Pound' };

/** The keypad of a call in progress: each key plays its tone here and goes to the far side as a touch-tone. */
export function InCallKeypad({ onPress, disabled }: { onPress: (key: string) => void; disabled: boolean }) {
  return (
    <div className="grid grid-cols-3 gap-2" role="group" aria-label="Call keypad">
      {DTMF_KEYS.map((key) => (
        <Button
          key={key}
          type="button"
          variant="outline"
          size="custom"
          className="h-9 gap-2 rounded-md px-4 py-2 text-lg tabular-nums"
          aria-label={KEY_NAMES[key] ?? key}
          disabled={disabled}
          onClick={() => {
            playDtmfTone(key);
            onPress(key);
          }}
        >
          {key}
        </Button>
      ))}
    </div>
  );
}
