import { useRef, useState } from 'preact/hooks';
import { fieldProblems, when } from '../messages.ts';
import { useReauthenticated } from '../reauth.tsx';
import type { ApiKey, GeneratedApiKey } from '../sdk.ts';
import { useSession } from '../session.tsx';
import { Button, Field, Notice, onSubmit, Problem, ScrollingTable, TableHead, useAction, useResource } from '../ui.tsx';
import { Confirm } from './confirm.tsx';
import { ConsolePage } from './layout.tsx';
import { deleteOnce, useListNews } from './list-news.ts';
import { ShownOnce } from './shown-once.tsx';
import { EmptyState, Loading, SkeletonRows } from './table-states.tsx';

const KEY_SENTENCES = {
  FORBIDDEN: 'You may not create API keys. Only administrators who signed in themselves can.',
};

/**
 * The merchant's admin API keys: listed by label and prefix (never the key),
 * created by an administrator (the key is shown this once), revoked at once.
 * Every console user may create them: the contract lets any ADMIN or
 * SUPER_ADMIN user do so (keys themselves cannot, and never reach this page);
 * the service asks for a recent sign-in, which the "confirm it is you" prompt gives.
 */
export function ApiKeys() {
  const { client, user } = useSession();
  const merchant = useRef<string | null>(null);
  const merchantId = async () => {
    merchant.current ??= (await client.admin.merchant.get()).id;
    return merchant.current;
  };
  const list = useResource(async () => client.admin.merchant.apiKeys.list(await merchantId()));
  const keys = list.data;
  // Who made each key, by e-mail address; the id is shown when the list cannot be read.
  const people = useResource(async () => new Map((await client.admin.users.list()).map((u) => [u.id, u.email])));
  const { news, setNews, heading: listHeading, say } = useListNews(list);
  const [created, setCreated] = useState<GeneratedApiKey | null>(null);
  const [label, setLabel] = useState('');
  const labelField = useRef<HTMLInputElement>(null);
  const [localProblem, setLocalProblem] = useState<string | undefined>();
  const reauth = useReauthenticated();

  const create = useAction(async () => {
    setNews(null);
    if (!label.trim()) {
      setLocalProblem('Give the key a label, such as the system that will use it.');
      return;
    }
    setLocalProblem(undefined);
    const id = await merchantId();
    // Signed in more than 10 minutes ago: the prompt asks the user to confirm it is them, then the same call again.
    const key = await reauth.run(() => client.admin.merchant.apiKeys.create(id, { label: label.trim() }));
    setCreated(key);
    setLabel('');
    await list.reload();
  });
  const remote = fieldProblems(create.error);

  const revoke = async (key: ApiKey) => {
    const id = merchant.current;
    if (!id) return;
    const said = await deleteOnce(() => client.admin.merchant.apiKeys.revoke(id, key.keyId), {
      now: `The key “${key.label}” was revoked. Anything still using it is refused from now on.`,
      already: `The key “${key.label}” had been revoked already.`,
    });
    if (created?.keyId === key.keyId) setCreated(null);
    await say(said);
  };

  const createdBy = (key: ApiKey) =>
    key.createdBy === user?.id ? `You (${user.email})` : (people.data?.get(key.createdBy) ?? key.createdBy);

  return (
    <ConsolePage title="API keys">
      <p class="muted">
        An API key lets a server of yours call this service’s admin endpoints with the <code>X-Api-Key</code> header,
        with ADMIN authority at most, and never more than its creator has.
      </p>
      {created && (
        <NewKey
          generated={created}
          onDone={() => {
            setCreated(null);
            listHeading.current?.focus();
          }}
        />
      )}
      {news && <Notice>{news}</Notice>}
      <section class="panel" aria-labelledby="keys-heading">
        <h2 id="keys-heading" tabIndex={-1} ref={listHeading}>
          Keys
        </h2>
        <Problem error={list.error} />
        {list.error && (
          <button type="button" class="button secondary" onClick={list.reload}>
            Try again
          </button>
        )}
        {keys && keys.length === 0 && (
          <EmptyState
            action={
              <button type="button" class="button secondary" onClick={() => labelField.current?.focus()}>
                Create a key
              </button>
            }
          >
            There are no API keys.
          </EmptyState>
        )}
        {keys === null && !list.error && <Loading>Loading the keys…</Loading>}
        {(keys === null ? !list.error : keys.length > 0) && (
          <ScrollingTable label="API keys" busy={keys === null}>
            <table>
              <TableHead columns={['Label', 'Prefix', 'Created by', 'Created', 'Last used']} actions />
              {keys === null && <SkeletonRows columns={6} rows={2} />}
              <tbody>
                {keys?.map((key) => (
                  <tr key={key.keyId}>
                    <th scope="row">{key.label}</th>
                    <td>
                      <code class="key-prefix">{key.keyPrefix}…</code>
                    </td>
                    <td>{createdBy(key)}</td>
                    <td>{when(key.createdAt)}</td>
                    <td>{key.lastUsedAt ? when(key.lastUsedAt) : <span class="muted">Never</span>}</td>
                    <td>
                      <Confirm
                        label="Revoke"
                        fullLabel={`Revoke ${key.label}`}
                        danger
                        question={
                          <>
                            Revoke the key <strong>{key.label}</strong> ({key.keyPrefix}…)? Anything using it is refused
                            at once. This cannot be undone.
                          </>
                        }
                        confirmLabel="Revoke key"
                        overrides={KEY_SENTENCES}
                        onConfirm={() => revoke(key)}
                      />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollingTable>
        )}
      </section>
      <section class="panel" aria-labelledby="new-key-heading">
        <h2 id="new-key-heading">Create a key</h2>
        <form onSubmit={onSubmit(create.run)} noValidate>
          <Field
            label="Label"
            name="label"
            required
            maxLength={64}
            autocomplete="off"
            inputRef={labelField}
            hint="What uses it, so that you know which key to revoke later (e.g. “Order sync”)."
            value={label}
            onInput={(e) => setLabel(e.currentTarget.value)}
            problem={localProblem ?? remote.label}
          />
          <Problem error={create.error} overrides={KEY_SENTENCES} />
          <Button busy={create.busy}>Create key</Button>
        </form>
      </section>
      {reauth.prompt}
    </ConsolePage>
  );
}

/** The key just made, whole: shown this once, with a copy button. */
function NewKey(props: { generated: GeneratedApiKey; onDone(): void }) {
  return (
    <ShownOnce
      id="created-key-heading"
      heading={`Your new key “${props.generated.label}”`}
      value={props.generated.apiKey}
      noun="key"
      testId="new-api-key"
      onDone={props.onDone}
    >
      <strong>Copy it now: you will not see it again.</strong> Only its prefix is kept on this page. Store it where your
      server keeps its secrets.
    </ShownOnce>
  );
}
