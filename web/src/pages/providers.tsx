import { useState } from 'preact/hooks';
import { t } from '../i18n/index.ts';
import type { Identity, SignInProviderButton, SignInProviderKind, User } from '../sdk.ts';
import { useSession } from '../session.tsx';
import { AuthLayout, Button, Notice, Problem, useAction, useAutoFocus } from '../ui.tsx';
import './providers.css';

/**
 * Signing in with the tenant's providers (Google, Apple, Microsoft, GitHub, any OpenID provider): their buttons, and
 * what the sign-in pages need to know of a provider sending the browser back.
 */

/** The parameters the service's callback brings back (the SDK reads them, and takes them out of the address bar). */
const RETURN_PARAMS = ['provider_result', 'provider_error'];

/** Whether the provider has just sent the browser back to this page. */
export function backFromProvider(): boolean {
  const params = new URLSearchParams(location.search);
  return RETURN_PARAMS.some((name) => params.has(name));
}

/** This page's address to come back to, without the notices of how it was reached ("your session has ended"). */
function thisPage(): string {
  const url = new URL(location.href);
  for (const name of ['expired', 'reset', 'registered']) url.searchParams.delete(name);
  return url.toString();
}

/**
 * A provider's mark, so that its button is recognised at a glance: the four who have one their own, and a key for
 * any other OpenID provider. Drawn inline (the pages load nothing from the providers' sites), hidden from screen
 * readers: the button's text names the provider.
 */
export function ProviderMark(props: { kind: SignInProviderKind }) {
  switch (props.kind) {
    case 'GOOGLE':
      return (
        <svg class="provider-mark" aria-hidden="true" focusable="false" viewBox="0 0 48 48">
          <path
            fill="#EA4335"
            d="M24 9.5c3.54 0 6.71 1.22 9.21 3.6l6.85-6.85C35.9 2.38 30.47 0 24 0 14.62 0 6.51 5.38 2.56 13.22l7.98 6.19C12.43 13.72 17.74 9.5 24 9.5z"
          />
          <path
            fill="#4285F4"
            d="M46.98 24.55c0-1.57-.15-3.09-.38-4.55H24v9.02h12.94c-.58 2.96-2.26 5.48-4.78 7.18l7.73 6c4.51-4.18 7.09-10.36 7.09-17.65z"
          />
          <path
            fill="#FBBC05"
            d="M10.53 28.59c-.48-1.45-.76-2.99-.76-4.59s.27-3.14.76-4.59l-7.98-6.19C.92 16.46 0 20.12 0 24c0 3.88.92 7.54 2.56 10.78l7.97-6.19z"
          />
          <path
            fill="#34A853"
            d="M24 48c6.48 0 11.93-2.13 15.89-5.81l-7.73-6c-2.15 1.45-4.92 2.3-8.16 2.3-6.26 0-11.57-4.22-13.47-9.91l-7.98 6.19C6.51 42.62 14.62 48 24 48z"
          />
        </svg>
      );
    case 'APPLE':
      return (
        <svg class="provider-mark" aria-hidden="true" focusable="false" viewBox="0 0 24 24">
          <path
            fill="currentColor"
            d="M12.152 6.896c-.948 0-2.415-1.078-3.96-1.04-2.04.027-3.91 1.183-4.961 3.014-2.117 3.675-.546 9.103 1.519 12.09 1.013 1.454 2.208 3.09 3.792 3.039 1.52-.065 2.09-.987 3.935-.987 1.831 0 2.35.987 3.96.948 1.637-.026 2.676-1.48 3.676-2.948 1.156-1.688 1.636-3.325 1.662-3.415-.039-.013-3.182-1.221-3.22-4.857-.026-3.04 2.48-4.494 2.597-4.559-1.429-2.09-3.623-2.324-4.39-2.376-2-.156-3.675 1.09-4.61 1.09zM15.53 3.83c.843-1.012 1.4-2.427 1.245-3.83-1.207.052-2.662.805-3.532 1.818-.78.896-1.454 2.338-1.273 3.714 1.338.104 2.715-.688 3.559-1.701"
          />
        </svg>
      );
    case 'MICROSOFT':
      return (
        <svg class="provider-mark" aria-hidden="true" focusable="false" viewBox="0 0 21 21">
          <rect x="0" y="0" width="10" height="10" fill="#F25022" />
          <rect x="11" y="0" width="10" height="10" fill="#7FBA00" />
          <rect x="0" y="11" width="10" height="10" fill="#00A4EF" />
          <rect x="11" y="11" width="10" height="10" fill="#FFB900" />
        </svg>
      );
    case 'GITHUB':
      return (
        <svg class="provider-mark" aria-hidden="true" focusable="false" viewBox="0 0 16 16">
          <path
            fill="currentColor"
            d="M8 0C3.58 0 0 3.58 0 8c0 3.54 2.29 6.53 5.47 7.59.4.07.55-.17.55-.38 0-.19-.01-.82-.01-1.49-2.01.37-2.53-.49-2.69-.94-.09-.23-.48-.94-.82-1.13-.28-.15-.68-.52-.01-.53.63-.01 1.08.58 1.23.82.72 1.21 1.87.87 2.33.66.07-.52.28-.87.51-1.07-1.78-.2-3.64-.89-3.64-3.95 0-.87.31-1.59.82-2.15-.08-.2-.36-1.02.08-2.12 0 0 .67-.21 2.2.82.64-.18 1.32-.27 2-.27.68 0 1.36.09 2 .27 1.53-1.04 2.2-.82 2.2-.82.44 1.1.16 1.92.08 2.12.51.56.82 1.27.82 2.15 0 3.07-1.87 3.75-3.65 3.95.29.25.54.73.54 1.48 0 1.07-.01 1.93-.01 2.2 0 .21.15.46.55.38A8.013 8.013 0 0016 8c0-4.42-3.58-8-8-8z"
          />
        </svg>
      );
    default:
      // Any other OpenID provider: a key.
      return (
        <svg class="provider-mark" aria-hidden="true" focusable="false" viewBox="0 0 24 24">
          <g fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">
            <circle cx="7.5" cy="15.5" r="4.5" />
            <path d="M10.7 12.3 20 3m-4 4 3 3m-5.5-.5 2 2" />
          </g>
        </svg>
      );
  }
}

/**
 * "Sign in with Google", one button per provider the tenant has on, in its order. A press leaves for the provider
 * (the SDK keeps this tab's PKCE verifier); it sends the browser back to `returnTo` (default: this page), whose
 * sign-in form finishes. `verb`: "Sign in with" or, on the sign-up page, "Sign up with".
 */
export function ProviderButtons(props: { verb: 'signIn' | 'signUp'; returnTo?: string; loginHint?: string }) {
  const { client, tenant } = useSession();
  const [pressed, setPressed] = useState<string | null>(null);
  const start = useAction(async (provider: SignInProviderButton) => {
    setPressed(provider.id);
    try {
      await client.signInWith(provider.id, {
        returnTo: props.returnTo ?? thisPage(),
        ...(props.loginHint ? { loginHint: props.loginHint } : {}),
      });
    } catch (error) {
      setPressed(null);
      throw error;
    }
  });
  const providers = tenant.signInProviders ?? [];
  if (providers.length === 0) return null;
  return (
    <div class="provider-buttons">
      <Problem error={start.error} />
      {providers.map((provider) => (
        <Button
          key={provider.id}
          type="button"
          kind="secondary provider"
          // The browser is on its way to the provider: no second press meanwhile.
          disabled={pressed !== null}
          busy={pressed === provider.id}
          onClick={() => start.run(provider)}
        >
          <ProviderMark kind={provider.kind} />
          <span>
            {props.verb === 'signIn'
              ? t('provider.signInWith', { name: provider.displayName })
              : t('provider.signUpWith', { name: provider.displayName })}
          </span>
        </Button>
      ))}
    </div>
  );
}

/** A sign-in that was to link a provider: linked (`identity`), or why not (`error`; neither: the result had lapsed). */
export interface LinkOutcome {
  user: User;
  provider: string;
  identity: Identity | null;
  error: unknown;
}

/** Signed in to link a provider: whether it is linked now, then on to where the sign-in was going. */
export function LinkConfirmation(props: { outcome: LinkOutcome; onContinue(): void }) {
  const { identity, error, provider } = props.outcome;
  const go = useAutoFocus<HTMLButtonElement>();
  return (
    <AuthLayout title={identity ? t('provider.linkedTitle', { provider }) : t('provider.notLinkedTitle', { provider })}>
      {identity ? (
        <Notice>{t('provider.linkedText', { provider })}</Notice>
      ) : error ? (
        <Problem error={error} />
      ) : (
        <p class="alert" role="alert">
          {t('provider.linkLapsed', { provider })}
        </p>
      )}
      <button ref={go} type="button" class="button primary" onClick={props.onContinue}>
        {t('provider.continue')}
      </button>
    </AuthLayout>
  );
}
