import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { type TextKey, t, tx } from '../i18n/index.ts';
import { ReauthPrompt } from '../reauth.tsx';
import { ApiError, type AuthorizationCancelError, type AuthorizationRequest } from '../sdk.ts';
import { useSession } from '../session.tsx';
import { BrandMark, Button, Problem, useTitle } from '../ui.tsx';
import { SignIn } from './sign-in.tsx';
import './auth.css';
import './authorize.css';

/**
 * `/authorize`: the hosted page of an OpenID Connect sign-in (shared/oidc/README.md, The sign-in page).
 * `?error=` is the authorize endpoint refusing a request it could not send back to the client (no link to
 * the client: its address is not to be trusted); `?request=` is a request to finish: sign in (or confirm it
 * is you, or allow the client), then back to the client with its code, or with an error it asked for.
 */
export function Authorize() {
  const { query } = useLocation();
  return query.request ? <AuthorizationFlow requestId={query.request} /> : <RefusedRequest code={query.error} />;
}

/** The authorize endpoint's refusals, each a sentence; `{tenant}` is the tenant's name. */
const REFUSALS: Record<string, TextKey> = {
  INVALID_REQUEST: 'authorize.refused.INVALID_REQUEST',
  UNKNOWN_CLIENT: 'authorize.refused.UNKNOWN_CLIENT',
  REDIRECT_URI_MISMATCH: 'authorize.refused.REDIRECT_URI_MISMATCH',
};

function RefusedRequest(props: { code: string | undefined }) {
  const { tenant } = useSession();
  const key = (props.code && Object.hasOwn(REFUSALS, props.code) && REFUSALS[props.code]) || 'authorize.refusedUnknown';
  return (
    <Step title={t('authorize.cannotGoOn')}>
      <p class="alert" role="alert">
        {t(key, { tenant: tenant.name })}
      </p>
    </Step>
  );
}

/** What each scope lets the client have, as the consent card lists it (unknown scopes are ignored, as the service does). */
const SCOPE_SENTENCES: Record<string, TextKey> = {
  openid: 'authorize.scope.openid',
  profile: 'authorize.scope.profile',
  email: 'authorize.scope.email',
  phone: 'authorize.scope.phone',
  roles: 'authorize.scope.roles',
  offline_access: 'authorize.scope.offline_access',
};

/** The request is gone (404: expired, completed or cancelled) or its id was never one (400). */
const isExpired = (error: unknown) =>
  error instanceof ApiError && (error.status === 404 || error.code === 'VALIDATION_FAILED');

type Stage =
  | { kind: 'loading' }
  | { kind: 'sign-in'; email: string | undefined }
  | { kind: 'working' }
  | { kind: 'consent' }
  | { kind: 'reauth'; open: boolean }
  | { kind: 'returning'; to: string }
  | { kind: 'failed'; error: unknown };

const codeOf = (error: unknown) => (error instanceof ApiError ? error.code : undefined);

/** A refusal that means there is no usable session: the access token and its refresh are gone. */
const signedOut = (error: unknown) => error instanceof ApiError && error.status === 401;

function AuthorizationFlow(props: { requestId: string }) {
  const { client, user, setUser } = useSession();
  const [request, setRequest] = useState<AuthorizationRequest | null>(null);
  const [stage, setStage] = useState<Stage>({ kind: 'loading' });
  const [deciding, setDeciding] = useState<'GRANTED' | 'DENIED' | null>(null);

  const go = (to: string) => {
    setStage({ kind: 'returning', to });
    location.assign(to);
  };
  const fail = (error: unknown) => setStage({ kind: 'failed', error });

  const cancel = async (req: AuthorizationRequest, error: AuthorizationCancelError) => {
    setStage({ kind: 'working' });
    try {
      go((await client.oidc.cancelAuthorization(req.requestId, error)).redirectTo);
    } catch (failure) {
      fail(failure);
    }
  };

  /** The signed-in user's answer to the client: its code, or what stands in the way (prompt=none never asks). */
  const complete = async (req: AuthorizationRequest, consent?: 'GRANTED' | 'DENIED') => {
    if (consent) setDeciding(consent);
    else setStage({ kind: 'working' });
    try {
      go((await client.oidc.completeAuthorization(req.requestId, consent ? { consent } : undefined)).redirectTo);
    } catch (error) {
      const silent = req.prompt === 'none';
      if (codeOf(error) === 'REAUTHENTICATION_REQUIRED') {
        if (silent) await cancel(req, 'login_required');
        else setStage({ kind: 'reauth', open: true });
      } else if (codeOf(error) === 'CONSENT_REQUIRED') {
        if (silent) await cancel(req, 'consent_required');
        else setStage({ kind: 'consent' });
      } else if (signedOut(error)) {
        setUser(null);
        if (silent) await cancel(req, 'login_required');
        else setStage({ kind: 'sign-in', email: req.loginHint ?? undefined });
      } else {
        fail(error);
      }
    } finally {
      setDeciding(null);
    }
  };

  const start = async () => {
    setStage({ kind: 'loading' });
    let req: AuthorizationRequest;
    try {
      req = await client.oidc.authorizationRequest(props.requestId);
    } catch (error) {
      fail(error);
      return;
    }
    setRequest(req);
    if (user) await complete(req);
    else if (req.prompt === 'none') await cancel(req, 'login_required');
    else setStage({ kind: 'sign-in', email: req.loginHint ?? undefined });
  };

  // Once per request: the session the page opened with decides the first step.
  useEffect(() => {
    start();
  }, [props.requestId]);

  /** "Not you?": this browser signs out of the hosted pages, and the form takes another account. */
  const switchAccount = async () => {
    await client.logout();
    setUser(null);
    setStage({ kind: 'sign-in', email: undefined });
  };

  if (stage.kind === 'failed') {
    const expired = isExpired(stage.error);
    return (
      <Step title={expired ? t('authorize.expiredTitle') : t('authorize.cannotGoOn')}>
        <Problem
          error={stage.error}
          overrides={expired ? { [codeOf(stage.error) ?? '']: t('authorize.expired') } : {}}
        />
        {!expired && (
          <button type="button" class="button secondary" onClick={() => start()}>
            {t('boot.tryAgain')}
          </button>
        )}
      </Step>
    );
  }
  if (!request || stage.kind === 'loading') {
    return (
      <Step title={t('authorize.signingIn')}>
        <p role="status">{t('authorize.oneMoment')}</p>
      </Step>
    );
  }
  const name = request.client.name;
  switch (stage.kind) {
    case 'returning':
      return (
        <Step title={t('authorize.returning', { client: name })}>
          <p role="status">
            {tx('authorize.ifNothing', {
              link: <a href={stage.to}>{t('authorize.continueTo', { client: name })}</a>,
            })}
          </p>
        </Step>
      );
    case 'sign-in':
      return (
        <SignIn
          title={t('authorize.signInTitle', { client: name })}
          email={stage.email}
          returnTo={`/authorize?request=${encodeURIComponent(props.requestId)}`}
          onSignedIn={() => {
            complete(request);
          }}
        />
      );
    case 'reauth':
      return (
        <Step title={t('authorize.continueTitle', { client: name })}>
          <p>{t('authorize.confirmReason', { client: name })}</p>
          <SignedInAs email={user?.email} onSwitch={switchAccount} />
          <Button type="button" onClick={() => setStage({ kind: 'reauth', open: true })}>
            {t('authorize.confirm')}
          </Button>
          {stage.open && (
            <ReauthPrompt
              reason={t('authorize.confirmReason', { client: name })}
              // Back from a provider, this page opens the prompt again by itself, which then finishes.
              resume={{ key: 'authorize' }}
              onProven={() => {
                complete(request);
              }}
              onDismiss={() => setStage({ kind: 'reauth', open: false })}
            />
          )}
        </Step>
      );
    case 'consent':
      return (
        <Consent
          request={request}
          email={user?.email}
          deciding={deciding}
          onDecide={(consent) => complete(request, consent)}
          onSwitch={switchAccount}
        />
      );
    default:
      return (
        <Step title={t('authorize.continuing', { client: name })}>
          <p role="status">{t('authorize.oneMoment')}</p>
        </Step>
      );
  }
}

/** The consent card: who asks, for what, for which account; Allow or Deny. */
function Consent(props: {
  request: AuthorizationRequest;
  email: string | undefined;
  deciding: 'GRANTED' | 'DENIED' | null;
  onDecide(consent: 'GRANTED' | 'DENIED'): void;
  onSwitch(): void;
}) {
  const { tenant } = useSession();
  const name = props.request.client.name;
  // Every scope the grant covers is named: one this page has no sentence for yet, by its own name.
  const asked = props.request.scopes.map((scope) =>
    Object.hasOwn(SCOPE_SENTENCES, scope) ? t(SCOPE_SENTENCES[scope] as TextKey) : scope,
  );
  return (
    <Step
      title={t('authorize.consentTitle', { client: name, name: tenant.name })}
      pageTitle={t('authorize.consentPageTitle', { client: name })}
    >
      <p id="consent-scopes">{t('authorize.asksFor', { client: name })}</p>
      <ul class="scopes" aria-labelledby="consent-scopes">
        {asked.map((sentence) => (
          <li key={sentence}>{sentence}</li>
        ))}
      </ul>
      <SignedInAs email={props.email} onSwitch={props.onSwitch} />
      <div class="decide">
        <Button
          type="button"
          busy={props.deciding === 'GRANTED'}
          disabled={props.deciding !== null}
          onClick={() => props.onDecide('GRANTED')}
        >
          {t('authorize.allow')}
        </Button>
        <Button
          type="button"
          kind="secondary"
          busy={props.deciding === 'DENIED'}
          disabled={props.deciding !== null}
          onClick={() => props.onDecide('DENIED')}
        >
          {t('authorize.deny')}
        </Button>
      </div>
      <p class="muted">{t('authorize.signOutLater', { client: name })}</p>
    </Step>
  );
}

function SignedInAs(props: { email: string | undefined; onSwitch(): void }) {
  if (!props.email) return null;
  return (
    <p class="signed-in-as">
      {tx('authorize.signedInAs', { email: <strong>{props.email}</strong> })}{' '}
      <button type="button" class="link" onClick={props.onSwitch}>
        {t('authorize.notYou')}
      </button>
    </p>
  );
}

/**
 * One card of the flow, as the sign-in pages look. Its heading takes focus when the step appears, so that
 * keyboard and screen reader users hear where the flow went (the consent question, a failure). A heading that names
 * the tenant comes with `pageTitle`, without it, for the document title (as AuthLayout's).
 */
function Step(props: { title: string; pageTitle?: string; children: ComponentChildren }) {
  const { tenant } = useSession();
  const heading = useRef<HTMLHeadingElement>(null);
  useTitle(props.pageTitle ?? props.title);
  useEffect(() => {
    heading.current?.focus();
  }, [props.title]);
  return (
    <main class="auth">
      <div class="card">
        <BrandMark name={tenant.name} logoUrl={tenant.logoUrl} />
        <h1 tabIndex={-1} ref={heading}>
          {props.title}
        </h1>
        {props.children}
      </div>
    </main>
  );
}
