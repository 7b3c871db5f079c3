import { useEffect, useRef, useState } from 'preact/hooks';
import { t } from '../i18n/index.ts';
import { when } from '../messages.ts';
import { backFromProvider, ProviderMark } from '../pages/providers.tsx';
import { useReauthenticated } from '../reauth.tsx';
import type { Identity, SignInProviderButton } from '../sdk.ts';
import { useSession } from '../session.tsx';
import { Notice, Problem, ScrollingTable, TableHead, useAction, useResource } from '../ui.tsx';
import { Section } from './section.tsx';

/** A link to unlink: which provider, by its name. */
type Unlinking = Pick<Identity, 'providerId' | 'displayName'>;

/** A linked provider's name; one the tenant has since deleted is said so (it signs in no more). */
const nameOf = (identity: Pick<Identity, 'displayName'>) => identity.displayName ?? t('account.providers.deleted');

/**
 * The provider accounts linked to the user (GET /users/me/identities): which provider, the address it gave, when
 * linked and last used. Each of the tenant's providers not linked yet can be linked (the browser goes to the
 * provider and back here); a linked one unlinked, unless it is the last way to sign in. Both need a sign-in within
 * 10 minutes (the prompt asks when it is older). Shown while the tenant has providers, or the user has links.
 */
export function ProvidersSection(props: { onChanged(): void }) {
  const { client, tenant } = useSession();
  // Each change goes on after the user confirmed it is them at a provider (the page loaded again on the way back).
  const reauth = useReauthenticated({
    'providers.complete': () => completing.run(),
    'providers.link': (providerId) => {
      const provider = tenant.signInProviders?.find((p) => p.id === providerId);
      if (provider) link.run(provider);
    },
    'providers.unlink': (data) => unlink.run(data as Unlinking),
  });
  const heading = useRef<HTMLHeadingElement>(null);
  const list = useResource(() => client.me.identities.list());
  const identities = list.data;
  const [news, setNews] = useState<string | null>(null);
  const [unlinking, setUnlinking] = useState<Unlinking | null>(null);

  const done = async (sentence: string) => {
    await list.reload();
    setNews(sentence);
    props.onChanged();
    heading.current?.focus();
  };

  // Back from linking at the provider: the link is made (or why not is said) when the page opens. A sign-in grown
  // older than 10 minutes meanwhile asks to confirm it is you; the result, kept, is linked then.
  const completing = useAction(async () => {
    const identity = await reauth.run(
      async () => (await client.me.identities.completeLink()) ?? (await client.me.identities.linkPending()),
      { key: 'providers.complete' },
    );
    if (identity) await done(t('account.providers.linked', { name: nameOf(identity) }));
  });
  useEffect(() => {
    // Not the way back from confirming it is you at a provider: the prompt takes that one.
    if (backFromProvider() && !client.pendingProviderReauthentication()) {
      completing.run().finally(() => heading.current?.focus());
    }
  }, []);

  const link = useAction(async (provider: SignInProviderButton) => {
    await reauth.run(() => client.me.identities.link(provider.id, { returnTo: `${location.origin}/account` }), {
      key: 'providers.link',
      data: provider.id,
    });
  });
  const unlink = useAction(async (identity: Unlinking) => {
    try {
      await reauth.run(() => client.me.identities.unlink(identity.providerId), {
        key: 'providers.unlink',
        data: { providerId: identity.providerId, displayName: identity.displayName },
      });
    } finally {
      // Unlinked, or refused (the last way to sign in): the question is answered either way.
      setUnlinking(null);
    }
    await done(t('account.providers.unlinked', { name: nameOf(identity) }));
  });

  const providers = tenant.signInProviders ?? [];
  if (providers.length === 0 && !identities?.length) return null;
  const unlinked = identities ? providers.filter((p) => !identities.some((i) => i.providerId === p.id)) : [];
  return (
    <Section id="providers" title={t('account.providers.title')} headingRef={heading}>
      <p>{t('account.providers.intro')}</p>
      {news && <Notice>{news}</Notice>}
      <Problem error={list.error ?? completing.error} />
      {identities === null && !list.error && <p class="muted">{t('account.providers.loading')}</p>}
      {identities?.length === 0 && <p class="muted">{t('account.providers.none')}</p>}
      {identities && identities.length > 0 && (
        <ScrollingTable label={t('account.providers.table')}>
          <table>
            <caption class="visually-hidden">{t('account.providers.caption')}</caption>
            <TableHead
              columns={[
                t('account.providers.provider'),
                t('account.providers.address'),
                t('account.providers.linkedAt'),
                t('account.providers.lastUsed'),
              ]}
              actions
            />
            <tbody>
              {identities.map((identity) => (
                <tr key={identity.providerId}>
                  <td>
                    <span class="provider-name">
                      <ProviderMark kind={identity.kind} />
                      {nameOf(identity)}
                    </span>
                  </td>
                  <td>{identity.email ?? '–'}</td>
                  <td>
                    <time dateTime={identity.linkedAt}>{when(identity.linkedAt)}</time>
                  </td>
                  <td>
                    {identity.lastUsedAt ? (
                      <time dateTime={identity.lastUsedAt}>{when(identity.lastUsedAt)}</time>
                    ) : (
                      t('account.providers.never')
                    )}
                  </td>
                  <td class="row-actions">
                    <button
                      type="button"
                      class="button secondary small"
                      onClick={() => {
                        unlink.setError(null);
                        setUnlinking(identity);
                      }}
                    >
                      {t('account.providers.unlink')}
                      <span class="visually-hidden"> {nameOf(identity)}</span>
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollingTable>
      )}
      <Problem error={unlink.error} />
      {unlinking && (
        <UnlinkConfirm
          key={unlinking.providerId}
          name={nameOf(unlinking)}
          busy={unlink.busy}
          onUnlink={() => unlink.run(unlinking)}
          onCancel={() => setUnlinking(null)}
        />
      )}
      <Problem error={link.error} />
      {unlinked.length > 0 && (
        <div class="link-providers">
          {unlinked.map((provider) => (
            <button
              key={provider.id}
              type="button"
              class="button secondary provider"
              disabled={link.busy}
              onClick={() => link.run(provider)}
            >
              <ProviderMark kind={provider.kind} />
              <span>{t('account.providers.link', { name: provider.displayName })}</span>
            </button>
          ))}
        </div>
      )}
      {reauth.prompt}
    </Section>
  );
}

function UnlinkConfirm(props: { name: string; busy: boolean; onUnlink(): void; onCancel(): void }) {
  const confirm = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    confirm.current?.focus();
  }, []);
  return (
    <fieldset class="confirm">
      <legend>{t('account.providers.unlinkQuestion', { name: props.name })}</legend>
      <p>{t('account.providers.unlinkText', { name: props.name })}</p>
      <div class="actions">
        <button ref={confirm} type="button" class="button danger" disabled={props.busy} onClick={props.onUnlink}>
          {t('account.providers.unlinkYes', { name: props.name })}
        </button>
        <button type="button" class="button secondary" onClick={props.onCancel}>
          {t('account.cancel')}
        </button>
      </div>
    </fieldset>
  );
}
