import { useEffect, useRef, useState } from 'preact/hooks';
import { t } from '../i18n/index.ts';
import { when } from '../messages.ts';
import { cancelledPasskey, usePasskeySupport } from '../pages/passkeys.tsx';
import { useReauthenticated } from '../reauth.tsx';
import type { Passkey } from '../sdk.ts';
import { useSession } from '../session.tsx';
import { Field, Notice, onSubmit, Problem, ScrollingTable, TableHead, useAction, useResource } from '../ui.tsx';
import { Section } from './section.tsx';

/** A passkey as a change names it (kept while the user confirms it is them at a provider). */
type Named = Pick<Passkey, 'id' | 'name'>;
const named = (passkey: Named): Named => ({ id: passkey.id, name: passkey.name });

/** "Synced to your devices" (its provider keeps it on the person's devices) or "One device only". */
const kindOf = (passkey: Passkey) =>
  passkey.deviceType === 'multiDevice' ? t('account.passkeys.synced') : t('account.passkeys.deviceBound');

/**
 * The user's passkeys (GET /users/me/passkeys): name, kind, when added and last used. One can be added on this
 * device (the browser asks for the fingerprint, face or screen lock), renamed or removed; each needs a sign-in
 * within 10 minutes (the prompt asks when it is older). Shown while the tenant has passkeys on, and to a user who
 * still has some after it turned them off (to remove them).
 */
export function PasskeysSection(props: { onChanged(): void }) {
  const { client, tenant } = useSession();
  const support = usePasskeySupport();
  // Each change goes on after the user confirmed it is them at a provider (the page loaded again on the way back).
  const reauth = useReauthenticated({
    'passkeys.add': () => add.run(),
    'passkeys.rename': (data) => {
      const { passkey, name } = data as { passkey: Named; name: string };
      rename.run(passkey, name);
    },
    'passkeys.remove': (passkey) => remove.run(passkey as Named),
  });
  const heading = useRef<HTMLHeadingElement>(null);
  const list = useResource(() => client.passkeys.list());
  const passkeys = list.data;
  /** What just happened, said in a notice. */
  const [news, setNews] = useState<string | null>(null);
  const [renaming, setRenaming] = useState<Passkey | null>(null);
  const [removing, setRemoving] = useState<Passkey | null>(null);

  const done = async (sentence: string) => {
    // The list first: the notice then speaks of what the table shows.
    await list.reload();
    setNews(sentence);
    props.onChanged();
    heading.current?.focus();
  };
  const add = useAction(async () => {
    let added: Passkey;
    try {
      added = await reauth.run(() => client.passkeys.register(), { key: 'passkeys.add' });
    } catch (error) {
      if (cancelledPasskey(error)) return;
      throw error;
    }
    await done(t('account.passkeys.added', { name: added.name }));
  });
  const rename = useAction(async (passkey: Named, name: string) => {
    const renamed = await reauth.run(() => client.passkeys.rename(passkey.id, name.trim()), {
      key: 'passkeys.rename',
      data: { passkey: named(passkey), name },
    });
    setRenaming(null);
    await done(t('account.passkeys.renamed', { name: renamed.name }));
  });
  const remove = useAction(async (passkey: Named) => {
    await reauth.run(() => client.passkeys.remove(passkey.id), { key: 'passkeys.remove', data: named(passkey) });
    setRemoving(null);
    await done(t('account.passkeys.removed', { name: passkey.name }));
  });

  if (!tenant.passkeysAllowed && !passkeys?.length) return null;
  const canAdd = tenant.passkeysAllowed && support?.passkeys;
  return (
    <Section id="passkeys" title={t('account.passkeys.title')} headingRef={heading}>
      <p>{t('account.passkeys.intro')}</p>
      {!tenant.passkeysAllowed && <p class="muted">{t('account.passkeys.off')}</p>}
      {news && <Notice>{news}</Notice>}
      <Problem error={list.error ?? add.error ?? remove.error} />
      {passkeys === null && !list.error && <p class="muted">{t('account.passkeys.loading')}</p>}
      {passkeys?.length === 0 && <p class="muted">{t('account.passkeys.none')}</p>}
      {passkeys && passkeys.length > 0 && (
        <ScrollingTable label={t('account.passkeys.table')}>
          <table>
            <caption class="visually-hidden">{t('account.passkeys.caption')}</caption>
            <TableHead
              columns={[
                t('account.passkeys.name'),
                t('account.passkeys.kind'),
                t('account.passkeys.addedAt'),
                t('account.passkeys.lastUsed'),
              ]}
              actions
            />
            <tbody>
              {passkeys.map((passkey) => (
                <tr key={passkey.id}>
                  <td>{passkey.name}</td>
                  <td>{kindOf(passkey)}</td>
                  <td>
                    <time dateTime={passkey.createdAt}>{when(passkey.createdAt)}</time>
                  </td>
                  <td>
                    {passkey.lastUsedAt ? (
                      <time dateTime={passkey.lastUsedAt}>{when(passkey.lastUsedAt)}</time>
                    ) : (
                      t('account.passkeys.never')
                    )}
                  </td>
                  <td class="row-actions">
                    <button
                      type="button"
                      class="button secondary small"
                      onClick={() => {
                        setRemoving(null);
                        rename.setError(null);
                        setRenaming(passkey);
                      }}
                    >
                      {t('account.passkeys.rename')}
                      <span class="visually-hidden"> {passkey.name}</span>
                    </button>{' '}
                    <button
                      type="button"
                      class="button secondary small"
                      onClick={() => {
                        setRenaming(null);
                        setRemoving(passkey);
                      }}
                    >
                      {t('account.passkeys.remove')}
                      <span class="visually-hidden"> {passkey.name}</span>
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollingTable>
      )}
      {renaming && (
        <RenameForm
          key={renaming.id}
          passkey={renaming}
          busy={rename.busy}
          error={rename.error}
          onSave={(name) => rename.run(renaming, name)}
          onCancel={() => setRenaming(null)}
        />
      )}
      {removing && (
        <RemoveConfirm
          key={removing.id}
          passkey={removing}
          busy={remove.busy}
          onRemove={() => remove.run(removing)}
          onCancel={() => setRemoving(null)}
        />
      )}
      {canAdd && (
        <p>
          <button
            type="button"
            class="button primary"
            disabled={add.busy}
            aria-busy={add.busy}
            onClick={() => add.run()}
          >
            {t('account.passkeys.add')}
          </button>
        </p>
      )}
      {tenant.passkeysAllowed && support && !support.passkeys && (
        <p class="muted">{t('account.passkeys.unsupported')}</p>
      )}
      {reauth.prompt}
    </Section>
  );
}

function RenameForm(props: {
  passkey: Passkey;
  busy: boolean;
  error: unknown;
  onSave(name: string): void;
  onCancel(): void;
}) {
  const [name, setName] = useState(props.passkey.name);
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => {
    field.current?.select();
  }, []);
  return (
    <form class="inline-form" onSubmit={onSubmit(async () => props.onSave(name))} noValidate>
      <Field
        inputRef={field}
        name="passkeyName"
        label={t('account.passkeys.newName', { name: props.passkey.name })}
        required
        maxLength={64}
        value={name}
        onInput={(e) => setName(e.currentTarget.value)}
      />
      <Problem error={props.error} />
      <div class="actions">
        <button type="submit" class="button primary" disabled={props.busy} aria-busy={props.busy}>
          {t('account.passkeys.save')}
        </button>
        <button type="button" class="button secondary" onClick={props.onCancel}>
          {t('account.cancel')}
        </button>
      </div>
    </form>
  );
}

function RemoveConfirm(props: { passkey: Passkey; busy: boolean; onRemove(): void; onCancel(): void }) {
  const confirm = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    confirm.current?.focus();
  }, []);
  return (
    <fieldset class="confirm">
      <legend>{t('account.passkeys.removeQuestion', { name: props.passkey.name })}</legend>
      <p>{t('account.passkeys.removeText')}</p>
      <div class="actions">
        <button ref={confirm} type="button" class="button danger" disabled={props.busy} onClick={props.onRemove}>
          {t('account.passkeys.removeYes')}
        </button>
        <button type="button" class="button secondary" onClick={props.onCancel}>
          {t('account.cancel')}
        </button>
      </div>
    </fieldset>
  );
}
