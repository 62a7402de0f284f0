import { PhoneIcon } from 'lucide-react';
import { useState } from 'react';
import { Link, Navigate, useLocation, useSearchParams, type To } from 'react-router-dom';
import { SiteFooter } from '../../components/site-footer';
import { ThemeToggle } from '../../components/theme-toggle';
import { Card, CardContent, CardDescription, CardHeader } from '../../components/ui/card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs';
import { useSession } from '../../lib/session';
import { LoginForm } from './components/login-form';
import { ResetForm } from './components/reset-form';
import { SignUpForm } from './components/sign-up-form';
import { UpdatePasswordForm } from './components/update-password-form';

type AuthTab = 'login' | 'signup' | 'reset';

function toAuthTab(value: string | null): AuthTab {
  return value === 'signup' || value === 'reset' ? value : 'login';
}

/** Where the guard was sending the visitor (location state `from`), else the dialer (docs/product.md §2). */
function destinationAfterSignIn(state: unknown): To {
  const from = (state as { from?: { pathname?: unknown; search?: unknown; hash?: unknown } } | null)?.from;
  if (typeof from?.pathname === 'string' && from.pathname.startsWith('/') && from.pathname !== '/auth') {
    return {
      pathname: from.pathname,
      search: typeof from.search === 'string' ? from.search : '',
      hash: typeof from.hash === 'string' ? from.hash : '',
    };
  }
  return '/dialer';
}

/** docs/product.md §2 and §4: Login, Sign Up and Reset; ?tab=updatePassword&token=… is the reset email's link. */
export function AuthPage() {
  const session = useSession();
  const location = useLocation();
  const [params, setParams] = useSearchParams();
  // One address typed once serves every tab; after signing up it is already in the Login form.
  const [email, setEmail] = useState('');

  if (session.data) return <Navigate to={destinationAfterSignIn(location.state)} replace />;

  const selectTab = (tab: string) => setParams({ tab }, { replace: true, state: location.state });
  const showLogin = () => selectTab('login');

  return (
    <div className="flex min-h-screen flex-col">
      <main className="flex flex-1 items-start justify-center px-4 py-8 sm:items-center sm:py-12">
        <Card className="w-full max-w-md">
          <CardHeader layout="row" className="items-start">
            <div className="flex flex-col gap-1.5">
              <h1 className="text-xl font-semibold">
                <Link to="/" className="flex items-center gap-2">
                  <PhoneIcon className="size-5 text-primary" aria-hidden="true" />
                  Voxline
                </Link>
              </h1>
              <CardDescription>Unlimited calls everywhere</CardDescription>
            </div>
            <ThemeToggle />
          </CardHeader>
          <CardContent>
            {params.get('tab') === 'updatePassword' ? (
              <UpdatePasswordForm
                token={params.get('token')}
                onUpdated={showLogin}
                onRequestNewLink={() => selectTab('reset')}
                onBackToLogin={showLogin}
              />
            ) : (
              <Tabs value={toAuthTab(params.get('tab'))} onValueChange={selectTab} className="flex flex-col gap-4">
                <TabsList layout="grid" className="grid-cols-3">
                  <TabsTrigger value="login">Login</TabsTrigger>
                  <TabsTrigger value="signup">Sign Up</TabsTrigger>
                  <TabsTrigger value="reset">Reset</TabsTrigger>
                </TabsList>
                <TabsContent value="login">
                  <LoginForm email={email} onEmailChange={setEmail} onForgotPassword={() => selectTab('reset')} />
                </TabsContent>
                <TabsContent value="signup">
                  <SignUpForm email={email} onEmailChange={setEmail} onSignedUp={showLogin} />
                </TabsContent>
                <TabsContent value="reset">
                  <ResetForm email={email} onEmailChange={setEmail} onBackToLogin={showLogin} />
                </TabsContent>
              </Tabs>
            )}
          </CardContent>
        </Card>
      </main>
      <SiteFooter />
    </div>
  );
}
