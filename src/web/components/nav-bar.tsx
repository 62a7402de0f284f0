import { LogOutIcon, MenuIcon, PhoneIcon, SettingsIcon, XIcon } from 'lucide-react';
import { useId, useState } from 'react';
import { Link, NavLink } from 'react-router-dom';
import { useSession } from '../lib/session';
import { useSignOut } from '../lib/sign-out';
import { cn } from '../lib/utils';
import { useUnheardVoicemail } from '../lib/voicemail-query';
import { Button } from './ui/button';
import { IconTooltip } from './ui/tooltip';

const links = [
  { to: '/dialer', label: 'Dialer', mobileLabel: 'Dialer' },
  { to: '/voicemail', label: 'Voicemail', mobileLabel: 'Voicemail' },
  { to: '/contacts', label: 'Contacts', mobileLabel: 'Contacts' },
  { to: '/call-settings', label: 'Call Settings', mobileLabel: 'Call Settings' },
  { to: '/settings', label: 'Subscription', mobileLabel: 'Settings' },
] as const;

/** Shown to administrators only (ADMIN_EMAILS); the page and its API refuse everyone else anyway. */
const adminLink = { to: '/admin', label: 'Admin', mobileLabel: 'Admin' } as const;

function linkClass({ isActive }: { isActive: boolean }) {
  return cn(
    'rounded-md px-3 py-2 text-sm font-medium transition-colors hover:bg-accent hover:text-accent-foreground',
    isActive ? 'bg-accent text-accent-foreground' : 'text-muted-foreground',
  );
}

/** The Voicemail link carries the unheard count: seen as a badge, heard in its name ("Voicemail, 2 unheard"). */
function unheardName(to: string, label: string, unheard: number): string | undefined {
  return to === '/voicemail' && unheard > 0 ? `${label}, ${unheard} unheard` : undefined;
}

function UnheardBadge({ to, unheard }: { to: string; unheard: number }) {
  if (to !== '/voicemail' || unheard === 0) return null;
  return (
    <span aria-hidden="true" className="ml-1.5 inline-flex min-w-5 justify-center rounded-full bg-primary px-1.5 text-xs font-semibold text-primary-foreground">
      {unheard}
    </span>
  );
}

/** docs/product.md §2: the signed-in navigation, collapsing into a menu on narrow screens. */
export function NavBar() {
  const [menuOpen, setMenuOpen] = useState(false);
  const menuId = useId();
  const signOut = useSignOut();
  const session = useSession();
  const shown = session.data?.isAdmin ? [...links, adminLink] : links;
  const unheard = useUnheardVoicemail();

  return (
    <header className="sticky top-0 z-40 border-b bg-background/95 backdrop-blur">
      <nav aria-label="Main" className="mx-auto flex h-14 max-w-6xl items-center gap-2 px-4">
        <Link to="/dialer" className="mr-4 flex items-center gap-2 font-semibold">
          <PhoneIcon className="size-5 text-primary" aria-hidden="true" />
          Voxline
        </Link>
        <ul className="hidden items-center gap-1 md:flex">
          {shown.map((link) => (
            <li key={link.to}>
              <NavLink to={link.to} className={linkClass} aria-label={unheardName(link.to, link.label, unheard)}>
                {link.label}
                <UnheardBadge to={link.to} unheard={unheard} />
              </NavLink>
            </li>
          ))}
        </ul>
        <div className="ml-auto flex items-center gap-1">
          <IconTooltip label="Settings">
            <Button asChild variant="ghost" size="icon">
              <Link to="/settings" aria-label="Settings">
                <SettingsIcon />
              </Link>
            </Button>
          </IconTooltip>
          <Button variant="ghost" onClick={() => void signOut()}>
            <LogOutIcon />
            <span className="sr-only sm:not-sr-only">Sign out</span>
          </Button>
          <IconTooltip label={menuOpen ? 'Close menu' : 'Open menu'}>
            <Button
              variant="ghost"
              size="icon"
              className="md:hidden"
              aria-label={menuOpen ? 'Close menu' : 'Open menu'}
              aria-expanded={menuOpen}
              aria-controls={menuId}
              onClick={() => setMenuOpen((open) => !open)}
            >
              {menuOpen ? <XIcon /> : <MenuIcon />}
            </Button>
          </IconTooltip>
        </div>
      </nav>
      {menuOpen && (
        <nav id={menuId} aria-label="Mobile" className="border-t md:hidden">
          <ul className="flex flex-col gap-1 p-2">
            {shown.map((link) => (
              <li key={link.to}>
                <NavLink
                  to={link.to}
                  className={(state) => cn(linkClass(state), 'block')}
                  aria-label={unheardName(link.to, link.mobileLabel, unheard)}
                  onClick={() => setMenuOpen(false)}
                >
                  {link.mobileLabel}
                  <UnheardBadge to={link.to} unheard={unheard} />
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
      )}
    </header>
  );
}
