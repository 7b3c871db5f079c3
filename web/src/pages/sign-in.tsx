import { useEffect, useRef, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { t, tx } from '../i18n/index.ts';
import { fieldSentences, formProblem } from '../messages.ts';
import { ApiError, type LoginChallenge, type LoginResult, type ProviderLinkRequired, type User } from '../sdk.ts';
import { safeNext, useSession, withQuery } from '../session.tsx';
import {
  AccountEmailField,
  AuthLayout,
  Button,
  CodeField,
  Notice,
  onSubmit,
  PasswordField,
  Problem,
  useAction,
  useAutoFocus,
} from '../ui.tsx';
import { checkForm, saidAtFields, useFocusFirstProblem } from './auth-forms.ts';
import { CodeExpiry, ResendButton, useCodeSent } from './code-clock.tsx';
import {
  cancelledPasskey,
  PasskeyOffer,
  passkeySentences,
  shouldOfferPasskey,
  usePasskeySupport,
} from './passkeys.tsx';
import { backFromProvider, LinkConfirmation, type LinkOutcome, ProviderButtons } from './providers.tsx';
import './auth.css';

type Method = 'PASSWORD' | 'OTP_EMAIL';

const labels = () => ({ email: t('signIn.email'), password: t('signIn.password') });

/** What the sign-in form says for codes whose meaning is sharper here than in general. */
const signInSentences = () => ({
  INVALID_CODE: t('signIn.invalidCode'),
  ACCOUNT_DISABLED: t('signIn.disabled'),
  ACCOUNT_INACTIVE: t('signIn.inactive'),
});

export interface SignInProps {
  /**
   * Called with the signed-in user instead of going to `?next=` (the OpenID Connect sign-in page carries on
   * with its request). The session's user is set first either way.
   */
  onSignedIn?: ((user: User) => void) | undefined;
  /** The address to fill in (a client's `login_hint`); else the page's `?email=`. */
  email?: string | undefined;
  /** The heading; `Sign in to <tenant>` by default. */
  title?: string | undefined;
  /**
   * Where "Create an account" comes back to once the account is made and signed in (the OpenID Connect
   * sign-in page's own address, so that a new user still reaches the app that sent them).
   */
  returnTo?: string | undefined;
}

/**
 * Sign-in in the tenant's login mode: a password, a code mailed to the
 * address, or the choice of both; then, when the account has an
 * authenticator app, its code or a backup code.
 */
export function SignIn(props: SignInProps) {
  const { client, tenant, user, setUser } = useSession();
  const { query, route } = useLocation();
  const methods: Method[] =
    tenant.loginMode === 'PASSWORD_OR_OTP_EMAIL' ? ['PASSWORD', 'OTP_EMAIL'] : [tenant.loginMode as Method];
  const [method, setMethod] = useState<Method>(methods[0] as Method);
  const [email, setEmail] = useState(props.email ?? query.email ?? '');
  const [password, setPassword] = useState('');
  const [challenge, setChallenge] = useState<LoginChallenge | null>(null);
  /** Back from the second step: focus returns to the form's first field. */
  const [restarted, setRestarted] = useState(false);
  /** A new code was asked for on the second step. */
  const [resent, setResent] = useState(false);
  /** Signed in by password or code, and offered a passkey for next time before going on. */
  const [offerTo, setOfferTo] = useState<User | null>(null);
  /** Back from a provider: its result is being presented (the page shows a moment's wait, not the form). */
  const [completing, setCompleting] = useState(backFromProvider);
  /** The provider's address has an account here: signing in to it links the provider. */
  const [linking, setLinking] = useState<ProviderLinkRequired | null>(null);
  /** Signed in and the provider linked (or not): said before going on. */
  const [linked, setLinked] = useState<LinkOutcome | null>(null);
  const support = usePasskeySupport();
  const emailField = useRef<HTMLInputElement>(null);
  const passwordField = useRef<HTMLInputElement>(null);
  const next = safeNext(query.next);
  useEffect(() => {
    if (restarted && !challenge) emailField.current?.focus();
  }, [restarted, challenge]);

  const proceed = (signedIn: User) => {
    if (props.onSignedIn) props.onSignedIn(signedIn);
    else route(next);
  };
  /**
   * Signed in, by whatever means. A provider waiting to be linked is linked first, and the outcome said; else, after
   * a password or a code, a passkey is offered where it makes sense.
   */
  const signedIn = async (user: User, offerPasskey: boolean) => {
    setUser(user);
    if (linking) {
      const provider = linking.providerName;
      try {
        const identity = await client.me.identities.linkPending();
        setLinked({ user, provider, identity, error: null });
      } catch (error) {
        setLinked({ user, provider, identity: null, error });
      }
      setLinking(null);
      return;
    }
    if (offerPasskey && (await shouldOfferPasskey(client, tenant.passkeysAllowed, user))) setOfferTo(user);
    else proceed(user);
  };
  /** Signed in (by password, code or provider, with TOTP if asked), or the next step. */
  const finish = async (result: LoginResult) => {
    if (!('user' in result)) {
      setChallenge(result);
      return;
    }
    await signedIn(result.user, true);
  };

  // The browser's autofill offers the passkeys in the e-mail field (conditional UI) while the form shows. A
  // ceremony started by the button ends this request; when that one is over, `armed` asks for a new one.
  const [armed, setArmed] = useState(0);
  const autofill = Boolean(support?.autofill) && !challenge && !offerTo;
  useEffect(() => {
    if (!autofill) return;
    let live = true;
    client.signInWithPasskey({ conditional: true }).then(
      (result) => {
        if (live) signedIn(result.user, false);
      },
      (error: unknown) => {
        // Only the service's refusal of a passkey the person picked is worth a sentence: the platform's own
        // refusals of a background offer (no authenticator that holds passkeys, say) are not the person's doing.
        if (live && error instanceof ApiError && error.status > 0) passkey.setError(error);
      },
    );
    return () => {
      live = false;
      client.cancelPasskeySignIn();
    };
  }, [autofill, armed]);
  const passkey = useAction(async () => {
    try {
      const result = await client.signInWithPasskey();
      await signedIn(result.user, false);
    } catch (error) {
      setArmed((n) => n + 1);
      if (!cancelledPasskey(error)) throw error;
    }
  });

  /**
   * The last code mailed from this page. Asked again for the same address within its minute (after "start
   * again"), the page goes back to it: the service would hold a new mail back, and the code on its way is the one.
   */
  const lastCode = useRef<{ email: string; challenge: LoginChallenge; at: number } | null>(null);
  const sendCode = async (): Promise<LoginResult> => {
    const address = email.trim();
    const result = await client.login({ email: address, ...(methods.length > 1 ? { loginMode: 'OTP_EMAIL' } : {}) });
    if (!('user' in result)) lastCode.current = { email: address.toLowerCase(), challenge: result, at: Date.now() };
    return result;
  };
  const codeOnItsWay = (): LoginChallenge | undefined => {
    const last = lastCode.current;
    return last && last.email === email.trim().toLowerCase() && Date.now() - last.at < 60_000
      ? last.challenge
      : undefined;
  };
  const start = useAction(async () => {
    const local = checkForm(
      { email, password },
      { required: method === 'PASSWORD' ? ['email', 'password'] : ['email'], email: 'email' },
    );
    if (local.length > 0) throw formProblem(local);
    finish(
      method === 'PASSWORD'
        ? await client.login({
            email: email.trim(),
            password,
            ...(methods.length > 1 ? { loginMode: 'PASSWORD' } : {}),
          })
        : (codeOnItsWay() ?? (await sendCode())),
    );
  });

  // Back from a provider: its result presented once, when the page opens.
  useEffect(() => {
    if (!completing) return;
    client
      .completeProviderSignIn()
      .then(async (result) => {
        if (!result) return;
        if ('linkRequired' in result) {
          setLinking(result);
          setEmail(result.email);
        } else {
          await finish(result);
        }
      })
      .catch((error: unknown) => start.setError(error))
      .finally(() => setCompleting(false));
  }, []);
  // Asked to sign in to link a provider: the address is filled in, the next field is the one to type in.
  useEffect(() => {
    if (linking) (passwordField.current ?? emailField.current)?.focus();
  }, [linking]);

  if (completing) {
    return (
      <AuthLayout title={t('authorize.signingIn')}>
        <p role="status">{t('authorize.oneMoment')}</p>
      </AuthLayout>
    );
  }

  if (linked) return <LinkConfirmation outcome={linked} onContinue={() => proceed(linked.user)} />;

  if (offerTo) return <PasskeyOffer user={offerTo} onDone={() => proceed(offerTo)} />;

  if (challenge) {
    return (
      <ChallengeStep
        key={challenge.challengeId}
        challenge={challenge}
        email={email.trim()}
        resent={resent}
        onResult={finish}
        onResend={async () => {
          const result = await sendCode();
          setResent(true);
          finish(result);
        }}
        onRestart={() => {
          setChallenge(null);
          setPassword('');
          setRestarted(true);
          setResent(false);
        }}
      />
    );
  }

  const fields = labels();
  const problems = fieldSentences(start.error, fields);
  const providers = tenant.signInProviders ?? [];
  useFocusFirstProblem(start.error);
  return (
    <AuthLayout
      title={props.title ?? t('signIn.title', { name: tenant.name })}
      pageTitle={props.title ? undefined : t('signIn.pageTitle')}
    >
      {query.expired && <Notice>{t('signIn.expired')}</Notice>}
      {query.reset && <Notice>{t('signIn.reset')}</Notice>}
      {query.registered && <Notice>{t('signIn.registered')}</Notice>}
      {linking && (
        // Not an error of theirs, but theirs to act on: sign in here once.
        <p class="warning" role="status">
          {t('provider.linkRequired', { email: linking.email, provider: linking.providerName })}
        </p>
      )}
      {user && !props.onSignedIn && (
        <Notice>
          {tx('signIn.signedInAs', { email: user.email, continue: <a href={next}>{t('signIn.continue')}</a> })}
        </Notice>
      )}
      {methods.length > 1 && (
        <fieldset class="choice">
          <legend>{t('signIn.how')}</legend>
          <label>
            <input type="radio" name="method" checked={method === 'PASSWORD'} onChange={() => setMethod('PASSWORD')} />{' '}
            {t('signIn.withPassword')}
          </label>
          <label>
            <input
              type="radio"
              name="method"
              checked={method === 'OTP_EMAIL'}
              onChange={() => setMethod('OTP_EMAIL')}
            />{' '}
            {t('signIn.withCode')}
          </label>
        </fieldset>
      )}
      <form onSubmit={onSubmit(start.run)} noValidate>
        <AccountEmailField
          inputRef={emailField}
          autocomplete={support?.autofill ? 'username webauthn' : 'username'}
          label={fields.email}
          value={email}
          onInput={(e) => setEmail(e.currentTarget.value)}
          problem={problems.email}
        />
        {method === 'PASSWORD' && (
          <PasswordField
            inputRef={passwordField}
            label={fields.password}
            name="password"
            autocomplete="current-password"
            required
            value={password}
            onInput={(e) => setPassword(e.currentTarget.value)}
            problem={problems.password}
          />
        )}
        {!saidAtFields(start.error, fields) && <Problem error={start.error} overrides={signInSentences()} />}
        <Button busy={start.busy}>{method === 'PASSWORD' ? t('signIn.submit') : t('signIn.sendCode')}</Button>
      </form>
      {(support?.passkeys || (!linking && providers.length > 0)) && (
        <p class="or" aria-hidden="true">
          {t('passkey.or')}
        </p>
      )}
      {support?.passkeys && (
        <div class="passkey-sign-in">
          <Problem error={passkey.error} overrides={passkeySentences()} />
          <Button type="button" kind="secondary" busy={passkey.busy} onClick={() => passkey.run()}>
            {t('passkey.signIn')}
          </Button>
        </div>
      )}
      {/* Linking one provider, the others would only lead astray. */}
      {!linking && <ProviderButtons verb="signIn" />}
      <nav class="links" aria-label={t('signIn.otherOptions')}>
        {method === 'PASSWORD' && (
          <a href={withQuery('/forgot-password', { email: email.trim(), next: props.returnTo })}>
            {t('signIn.forgot')}
          </a>
        )}
        <a href={withQuery('/sign-up', { next: props.returnTo })}>
          {tenant.signupMode === 'OPEN' ? t('signIn.createAccount') : t('signIn.invited')}
        </a>
      </nav>
    </AuthLayout>
  );
}

/**
 * The second step: the mailed code (with "send a new code"), or the
 * authenticator's code (or a backup code instead). Focus starts in the code
 * field, and returns there when the kind of code changes.
 */
export function ChallengeStep(props: {
  challenge: LoginChallenge;
  email: string;
  resent: boolean;
  onResult(result: LoginResult): void;
  onResend(): Promise<void>;
  onRestart(): void;
}) {
  const { client, tenant } = useSession();
  const [code, setCode] = useState('');
  const [backup, setBackup] = useState(false);
  const focus = useAutoFocus<HTMLInputElement>();
  const byMail = props.challenge.challengeType === 'OTP_EMAIL';
  const verify = useAction(async () => {
    props.onResult(await client.verifyLogin({ challengeId: props.challenge.challengeId, code: code.trim() }));
  });
  // Remounted for each challenge: its code was mailed when it appeared.
  const mailed = useCodeSent(byMail);
  const resend = useAction(async () => {
    await props.onResend();
  });
  const title = byMail ? t('code.checkMail') : t('signIn.twoStep');
  // After a provider, the address was never typed here: the account is named by the tenant alone.
  const totpHelp = props.email
    ? t(backup ? 'signIn.backupHelp' : 'signIn.totpHelp', { email: props.email, name: tenant.name })
    : t(backup ? 'signIn.backupHelpAccount' : 'signIn.totpHelpAccount', { name: tenant.name });
  const sentences = signInSentences();
  const wrongCode = byMail ? sentences.INVALID_CODE : backup ? t('signIn.wrongBackup') : t('signIn.wrongTotp');
  const codeLabel = byMail ? t('code.fromMail') : backup ? t('signIn.backupCode') : t('code.authenticator');
  const who = { email: props.email, name: tenant.name };
  return (
    <AuthLayout title={title}>
      {byMail ? (
        <Notice>{props.resent ? t('signIn.codeResent', who) : t('signIn.codeSent', who)}</Notice>
      ) : (
        <p>{totpHelp}</p>
      )}
      <form onSubmit={onSubmit(verify.run)} noValidate>
        <CodeField
          inputRef={focus}
          label={codeLabel}
          inputMode={backup ? 'text' : 'numeric'}
          class={backup ? undefined : 'code'}
          value={code}
          onInput={(e) => setCode(e.currentTarget.value)}
          autoSubmit={!backup}
        />
        {byMail && <CodeExpiry sentAt={mailed.sentAt} />}
        <Problem error={verify.error} overrides={{ ...sentences, INVALID_CODE: wrongCode }} />
        <Problem error={resend.error} overrides={sentences} />
        <Button busy={verify.busy}>{t('signIn.verify')}</Button>
      </form>
      <nav class="links" aria-label={t('signIn.otherOptions')}>
        {byMail ? (
          <ResendButton sentAt={mailed.sentAt} busy={resend.busy} onResend={() => resend.run()} />
        ) : (
          <button
            type="button"
            class="link"
            onClick={() => {
              setBackup(!backup);
              setCode('');
              verify.setError(null);
              focus.current?.focus();
            }}
          >
            {backup ? t('signIn.useTotp') : t('signIn.useBackup')}
          </button>
        )}
        <button type="button" class="link" onClick={props.onRestart}>
          {t('signIn.startAgain')}
        </button>
      </nav>
    </AuthLayout>
  );
}
