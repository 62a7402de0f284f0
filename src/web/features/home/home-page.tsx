import { Globe2Icon, MicIcon, PhoneCallIcon, PhoneIcon, UsersIcon } from 'lucide-react';
import { Link } from 'react-router-dom';
import { SiteFooter } from '../../components/site-footer';
import { ThemeToggle } from '../../components/theme-toggle';
import { Button } from '../../components/ui/button';
import { useSession } from '../../lib/session';

const features = [
  { icon: Globe2Icon, title: 'Numbers in 20 countries', text: 'Rent a local number in seconds and give it a name.' },
  { icon: PhoneCallIcon, title: 'Call from the browser', text: 'No app and no SIM: dial out from any of your numbers.' },
  { icon: MicIcon, title: 'Change your voice live', text: 'Accent presets, pitch and speed, heard by the person you call.' },
  { icon: UsersIcon, title: 'Contacts and history', text: 'Keep your address book and redial in one click.' },
];

export function HomePage() {
  const session = useSession();
  const signedIn = Boolean(session.data);

  return (
    <div className="flex min-h-screen flex-col">
      <header className="mx-auto flex w-full max-w-6xl items-center justify-between px-4 py-4">
        <span className="flex items-center gap-2 font-semibold">
          <PhoneIcon className="size-5 text-primary" aria-hidden="true" />
          Voxline
        </span>
        <ThemeToggle />
      </header>
      <main className="mx-auto flex w-full max-w-6xl flex-1 flex-col items-center gap-12 px-4 py-12 text-center">
        <div className="flex max-w-2xl flex-col items-center gap-6">
          <h1 className="text-4xl font-bold tracking-tight sm:text-5xl">Unlimited calls everywhere</h1>
          <p className="text-lg text-muted-foreground">
            Rent phone numbers around the world, call anyone from your browser, and change how your voice sounds while you talk.
          </p>
          <div className="flex flex-wrap justify-center gap-3">
            {signedIn ? (
              <Button asChild size="lg">
                <Link to="/dialer">Open the dialer</Link>
              </Button>
            ) : (
              <>
                <Button asChild size="lg">
                  <Link to="/auth">Log in</Link>
                </Button>
                <Button asChild size="lg" variant="outline">
                  <Link to="/auth?tab=signup">Sign up</Link>
                </Button>
              </>
            )}
          </div>
        </div>
        <ul className="grid w-full gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {features.map(({ icon: Icon, title, text }) => (
            <li key={title} className="flex flex-col items-center gap-2 rounded-xl border bg-card p-6">
              <Icon className="size-6 text-primary" aria-hidden="true" />
              <h2 className="font-semibold">{title}</h2>
              <p className="text-sm text-muted-foreground">{text}</p>
            </li>
          ))}
        </ul>
      </main>
      <SiteFooter />
    </div>
  );
}
