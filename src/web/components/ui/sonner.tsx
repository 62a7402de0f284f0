import type { CSSProperties } from 'react';
import { Toaster as Sonner } from 'sonner';
import { useTheme } from '../../lib/theme';

/**
 * Sonner's light rich colours put text on their tinted backgrounds below WCAG AA's 4.5:1 (axe measured
 * 4.25 for success): the same hues, darker. Its dark ones pass as they are.
 */
const lightRichColors = {
  '--success-text': 'hsl(140, 100%, 22%)',
  '--info-text': 'hsl(210, 92%, 35%)',
  '--warning-text': 'hsl(31, 92%, 28%)',
  '--error-text': 'hsl(360, 100%, 38%)',
} as CSSProperties;

/**
 * docs/product.md §9: notices show for 4 to 5 seconds, at most three at a time. They sit above the height of
 * the active-call bar so they never cover its Mute and End call buttons.
 */
export function Toaster() {
  const { theme } = useTheme();
  return (
    <Sonner
      // The app is English, left to right: without it sonner asks getComputedStyle on each render,
      // a forced style recalculation of the whole page that profiled at 118 ms (4x CPU slowdown) while Call Settings loaded.
      dir="ltr"
      theme={theme}
      style={theme === 'light' ? lightRichColors : undefined}
      visibleToasts={3}
      duration={4500}
      closeButton
      richColors
      position="bottom-right"
      offset={{ bottom: 96 }}
      mobileOffset={{ bottom: 96 }}
    />
  );
}
