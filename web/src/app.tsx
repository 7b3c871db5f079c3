import { useEffect } from 'preact/hooks';
import { ErrorBoundary, LocationProvider, lazy, Route, Router, useLocation } from 'preact-iso';
import { SiteFooter } from './footer.tsx';
import { loadTexts, t } from './i18n/index.ts';
import { Authorize } from './pages/authorize.tsx';
import { ForgotPassword } from './pages/forgot-password.tsx';
import { ResetPassword } from './pages/reset-password.tsx';
import { SignIn } from './pages/sign-in.tsx';
import { SignOut } from './pages/sign-out.tsx';
import { SignUp } from './pages/sign-up.tsx';
import { ProviderReauthReturn } from './reauth.tsx';
import { useSession } from './session.tsx';

// The account page and the console load on demand: the sign-in pages carry neither (budget: 60 KB gzipped).
// Each with its texts in the language in use (i18n/), fetched beside its code.
const Account = lazy(() => {
  const texts = loadTexts('account');
  return import('./account/page.tsx').then((m) => texts.then(() => m.Account));
});
const Console = lazy(() => {
  const texts = loadTexts('console');
  return import('./console/console.tsx').then((m) => texts.then(() => m.Console));
});

/** `/`: the account page when signed in, the sign-in page otherwise. */
function Home() {
  const { user } = useSession();
  const { route } = useLocation();
  useEffect(() => route(user ? '/account' : '/sign-in', true), [user, route]);
  return null;
}

function NotFound() {
  return (
    <main class="auth">
      <div class="card">
        <h1>{t('boot.notFound')}</h1>
        <p>
          <a href="/sign-in">{t('boot.toSignIn')}</a>
        </p>
      </div>
    </main>
  );
}

/**
 * The SDK's expiry signal (a refresh refused: the session was revoked or ran out) sends the user to sign-in,
 * to come back where they were.
 */
function ExpiryWatcher() {
  const { client, setUser } = useSession();
  const { route } = useLocation();
  useEffect(
    () =>
      client.onSessionExpired(() => {
        setUser(null);
        // With its query: an OpenID Connect sign-in (`/authorize?request=…`) carries on after signing in again.
        route(`/sign-in?expired=1&next=${encodeURIComponent(location.pathname + location.search)}`);
      }),
    [client, setUser, route],
  );
  return null;
}

export function App() {
  return (
    <LocationProvider>
      <ExpiryWatcher />
      <ProviderReauthReturn />
      <ErrorBoundary>
        <Router>
          <Route path="/" component={Home} />
          <Route path="/sign-in" component={SignIn} />
          <Route path="/sign-up" component={SignUp} />
          <Route path="/forgot-password" component={ForgotPassword} />
          <Route path="/reset-password" component={ResetPassword} />
          <Route path="/authorize" component={Authorize} />
          <Route path="/sign-out" component={SignOut} />
          <Route path="/account" component={Account} />
          <Route path="/console" component={Console} />
          <Route path="/console/*" component={Console} />
          <Route default component={NotFound} />
        </Router>
      </ErrorBoundary>
      <SiteFooter />
    </LocationProvider>
  );
}
