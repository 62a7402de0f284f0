import { playDtmfTone } from '../../../audio/dtmf';
import { Button } from '../../../components/ui/button';

const KEYS = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '*', '0', '#'] as const;
const LETTERS: Partial<Record<(typeof KEYS)[number], string>> = {
  '2': 'ABC', '3': 'DEF', '4': 'GHI', '5': 'JKL', '6': 'MNO', '7': 'PQRS', '8': 'TUV', '9': 'WXYZ', '0': '+',
};

/** docs/product.md §2 keypad: 1–9, *, 0, #; each press plays its tone locally. */
export function Keypad({ onPress }: { onPress: (key: string) => void }) {
  return (
    <div className="grid grid-cols-3 gap-3" role="group" aria-label="Keypad">
      {KEYS.map((key) => (
        <Button
          key={key}
          variant="outline"
          size="custom"
          className="h-14 flex-col gap-0 rounded-md px-4 py-2 text-xl"
          aria-label={key === '*' ? 'Star' : key === '#' ? 'Pound' : key}
          onClick={() => {
            playDtmfTone(key);
            onPress(key);
          }}
        >
          {key}
          {LETTERS[key] && <span className="text-[10px] font-normal tracking-widest text-muted-foreground">{LETTERS[key]}</span>}
        </Button>
      ))}
    </div>
  );
}
