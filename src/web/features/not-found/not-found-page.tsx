import { Link } from 'react-router-dom';
import { SiteFooter } from '../../components/site-footer';
import { Button } from '../../components/ui/button';

export function NotFoundPage() {
  return (
    <div className="flex min-h-screen flex-col">
      <main className="flex flex-1 flex-col items-center justify-center gap-4 p-8 text-center">
        <h1 className="text-6xl font-bold">404</h1>
        <p className="text-xl text-muted-foreground">Oops! Page not found</p>
        <Button asChild variant="link">
          <Link to="/">Return to Home</Link>
        </Button>
      </main>
      <SiteFooter />
    </div>
  );
}
