import { Toaster as Sonner } from 'sonner';
import { useTheme } from '../../lib/theme';

/**
 * docs/product.md §9: notices show for 4 to 5 seconds, at most three at a time. They sit above the height of
 * the active-call bar so they never cover its Mute and End call buttons.
 */
export function Toaster() {
  const { theme } = useTheme();
  return <Sonner theme={theme} visibleToasts={3} duration={4500} closeButton richColors position="bottom-right" offset={{ bottom: 96 }} mobileOffset={{ bottom: 96 }} />;
}
