import { MoonIcon, SunIcon } from 'lucide-react';
import { useTheme } from '../lib/theme';
import { Button } from './ui/button';

export function ThemeToggle() {
  const { theme, toggleTheme } = useTheme();
  const label = theme === 'dark' ? 'Switch to light mode' : 'Switch to dark mode';
  // Only the home and auth pages show it: the browser's own title, since IconTooltip's positioning
  // library would take them over their first-load ceilings (docs/decisions/021).
  return (
    <Button variant="ghost" size="icon" onClick={toggleTheme} aria-label={label} title={label}>
      {theme === 'dark' ? <SunIcon /> : <MoonIcon />}
    </Button>
  );
}
