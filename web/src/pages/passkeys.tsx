import { useEffect, useState } from 'preact/hooks';
import { t } from '../i18n/index.ts';
import { ApiError, CLIENT_ERROR_CODES, type IdentityClient, type PasskeySupport, type User } from '../sdk.ts';
import { useSession } from '../session.tsx';
import { AuthLayout, Button, Problem, useAction } from '../ui.tsx';

/** The person closed the browser's passkey prompt (or another ceremony replaced it): nothing to say. */
export function cancelledPasskey(error: unknown): boolean {
  return error instanceof ApiError && error.code === CLIENT_ERROR_CODES.PASSKEY_CANCELLED;
}

/** What the passkey prompts say for codes whose meaning is sharper here. */
export const passkeySentences = () => ({
  INVALID_CREDENTIALS: t('passkey.notKnown'),
});

/**
 * What this page can offer: passkeys when the tenant has them on and the browser can use them, and in the e-mail
 * field's autofill when the browser can do that too. Null until the browser has answered.
 */
export function usePasskeySupport(): PasskeySupport | null {
  const { client, tenant } = useSession();
  const [support, setSupport] = useState<PasskeySupport | null>(null);
  useEffect(() => {
    if (!tenant.passkeysAllowed) {
      setSupport({ passkeys: false, autofill: false, platform: false });
      return;
    }
    let live = true;
    client.passkeySupport().then(
      (found) => live && setSupport(found),
      () => live && setSupport({ passkeys: false, autofill: false, platform: false }),
    );
    return () => {
      live = false;
    };
  }, [client, tenant.passkeysAllowed]);
  return support;
}

/** Where "not now" is remembered: per account, in this browser (the offer is about this device). */
const declinedKey = (user: User) => `passkeyOffer.declined.${user.id}`;

function declined(user: User): boolean {
  try {
    return localStorage.getItem(declinedKey(user)) !== null;
  } catch {
    return false;
  }
}

/**
 * Whether to offer a passkey right after a sign-in by password or code (or a sign-up): the tenant has them on,
 * this device has an authenticator that can make one, the account has none yet, and this browser was not told
 * "not now" for it.
 */
export async function shouldOfferPasskey(client: IdentityClient, tenantAllows: boolean, user: User): Promise<boolean> {
  if (!tenantAllows || declined(user)) return false;
  try {
    if (!(await client.passkeySupport()).platform) return false;
    return (await client.passkeys.list()).length === 0;
  } catch {
    // The offer is a courtesy: a failure to ask must never stand between the person and where they were going.
    return false;
  }
}

/**
 * "Sign in faster next time": right after signing in by password or code, one step that makes a passkey on this
 * device (the browser asks for the fingerprint, face or screen lock), or "Not now", remembered for the account in
 * this browser. Either way the person then goes where they were going.
 */
export function PasskeyOffer(props: { user: User; onDone(): void }) {
  const { client, tenant } = useSession();
  const add = useAction(async () => {
    try {
      await client.passkeys.register();
    } catch (error) {
      if (cancelledPasskey(error)) return;
      throw error;
    }
    props.onDone();
  });
  const notNow = () => {
    try {
      localStorage.setItem(declinedKey(props.user), new Date().toISOString());
    } catch {
      // Storage refused (private mode): the offer may come again, nothing worse.
    }
    props.onDone();
  };
  return (
    <AuthLayout title={t('passkey.offerTitle')}>
      <p>{t('passkey.offerText', { name: tenant.name })}</p>
      <p class="hint">{t('passkey.offerHow')}</p>
      <Problem error={add.error} />
      <Button type="button" busy={add.busy} onClick={() => add.run()}>
        {t('passkey.offerAdd')}
      </Button>
      <nav class="links" aria-label={t('signIn.otherOptions')}>
        <button type="button" class="link" onClick={notNow}>
          {t('passkey.offerNotNow')}
        </button>
      </nav>
    </AuthLayout>
  );
}
