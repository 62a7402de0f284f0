import { Toaster as Sonner } from 'sonner';
import { useTheme } from '../../lib/theme';

/** SPEC §9: notices show for 4 to 5 seconds, at most three at a time. */
export function Toaster() {
  const { theme } = useTheme();
  return <Sonner theme={theme} visibleToasts={3} duration={4500} closeButton richColors position="bottom-right" />;
}
