import { useState } from 'preact/hooks';
import { t, tx } from '../i18n/index.ts';
import { fieldSentences } from '../messages.ts';
import { authorityOf, formSchemas, hasRoles, mayGrant, type Role, validateForm } from '../sdk.ts';
import { useSession } from '../session.tsx';
import { Button, Field, Notice, onSubmit, Problem, ScrollingTable, TableHead, useAction, useResource } from '../ui.tsx';
import { Confirm } from './confirm.tsx';
import { ConsolePage } from './layout.tsx';
import { deleteOnce, useListNews } from './list-news.ts';
import { Loading, SkeletonRows } from './table-states.tsx';

/** A bound of a number schema's pipe (its minValue or maxValue), so the form says the range the SDK checks. */
function boundOf(schema: { pipe: readonly { type: string }[] }, type: 'min_value' | 'max_value'): number {
  return Number((schema.pipe.find((action) => action.type === type) as { requirement?: unknown }).requirement);
}

/** Merchant roles' priorities, as the service takes them: 0 and 1 are SUPER_ADMIN and ADMIN. */
const LOWEST_MERCHANT_PRIORITY = boundOf(formSchemas.role.entries.priority, 'min_value');
const HIGHEST_PRIORITY = boundOf(formSchemas.role.entries.priority, 'max_value');

const roleSentences = () => ({
  ALREADY_EXISTS: t('roles.exists'),
  FORBIDDEN: t('roles.forbidden'),
});

/**
 * The tenant's roles by priority: the SYSTEM ones every tenant has (marked,
 * never deletable) and the merchant's own, which an admin creates and deletes.
 */
export function Roles() {
  const { client, user } = useSession();
  // A role of less authority than the caller's only, unless the caller is SUPER_ADMIN (users-shared.tsx).
  const authority = user ? authorityOf(user) : Number.POSITIVE_INFINITY;
  const lowest = Math.max(LOWEST_MERCHANT_PRIORITY, hasRoles(user, ['SUPER_ADMIN']) ? 0 : authority + 1);
  const list = useResource(async () =>
    [...(await client.admin.roles.list())].sort((a, b) => a.priority - b.priority || a.name.localeCompare(b.name)),
  );
  const roles = list.data;
  // After a deletion the row and its button are gone: focus goes to the list's heading, beside the news.
  const { news, setNews, heading: listHeading, say } = useListNews(list);

  const [name, setName] = useState('');
  const [priority, setPriority] = useState('');
  const [description, setDescription] = useState('');
  const [local, setLocal] = useState<Record<string, string>>({});
  const create = useAction(async () => {
    setNews(null);
    const problems: Record<string, string> = {};
    const number = Number(priority);
    const checked = validateForm(formSchemas.role, { name, priority: priority.trim() === '' ? Number.NaN : number });
    const wrong = new Set(checked.success ? [] : checked.errors.map((error) => error.path));
    if (wrong.has('name')) problems.name = t('roles.nameRule');
    if (wrong.has('priority') || number < lowest) {
      problems.priority = t('roles.priorityRule', { lowest, highest: HIGHEST_PRIORITY });
    }
    setLocal(problems);
    if (Object.keys(problems).length > 0) return;
    const role = await client.admin.roles.create({
      name: name.trim(),
      priority: number,
      ...(description.trim() ? { description: description.trim() } : {}),
    });
    setName('');
    setPriority('');
    setDescription('');
    await list.reload();
    setNews(t('roles.created', { role: role.name, priority: role.priority }));
  });
  const remote = fieldSentences(create.error, {
    name: t('roles.name'),
    priority: t('roles.priority'),
    description: t('roles.descriptionInSentence'),
  });

  const remove = async (role: Role) =>
    say(
      await deleteOnce(() => client.admin.roles.delete(role.id), {
        now: t('roles.deleted', { role: role.name }),
        already: t('roles.deletedAlready', { role: role.name }),
      }),
    );

  return (
    <ConsolePage title={t('roles.title')}>
      <p class="muted">{t('roles.intro')}</p>
      {news && <Notice>{news}</Notice>}
      <section class="panel" aria-labelledby="roles-heading">
        <h2 id="roles-heading" tabIndex={-1} ref={listHeading}>
          {t('roles.byPriority')}
        </h2>
        <Problem error={list.error} />
        {list.error && (
          <button type="button" class="button secondary" onClick={list.reload}>
            {t('boot.tryAgain')}
          </button>
        )}
        {roles === null && !list.error && <Loading>{t('roles.loading')}</Loading>}
        {(roles || !list.error) && (
          <ScrollingTable label={t('roles.table')} busy={roles === null}>
            <table>
              <caption class="visually-hidden">{t('roles.caption')}</caption>
              <TableHead
                columns={[t('roles.column.priority'), t('roles.column.role'), t('roles.column.kind')]}
                actions
              />
              {roles === null && <SkeletonRows columns={4} rows={4} />}
              <tbody>
                {roles?.map((role) => (
                  <tr key={role.id}>
                    <td>{role.priority}</td>
                    <th scope="row">
                      <span class="role-name">{role.name}</span>
                      {role.description && <span class="role-description">{role.description}</span>}
                    </th>
                    <td>
                      {role.owner === 'SYSTEM' ? (
                        <span class="badge system">{t('roles.system')}</span>
                      ) : (
                        <span class="badge merchant">{t('roles.own')}</span>
                      )}
                    </td>
                    <td>
                      {role.owner === 'SYSTEM' ? (
                        <span class="muted">{t('roles.builtIn')}</span>
                      ) : mayGrant(user, role) ? (
                        <Confirm
                          label={t('roles.delete')}
                          fullLabel={t('roles.deleteFull', { role: role.name })}
                          danger
                          question={tx('roles.deleteQuestion', { role: <strong>{role.name}</strong> })}
                          confirmLabel={t('roles.deleteConfirm')}
                          overrides={roleSentences()}
                          onConfirm={() => remove(role)}
                        />
                      ) : (
                        <span class="muted">{t('roles.higher')}</span>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollingTable>
        )}
      </section>
      <section class="panel" aria-labelledby="new-role-heading">
        <h2 id="new-role-heading">{t('roles.create')}</h2>
        <form onSubmit={onSubmit(create.run)} noValidate>
          <div class="row top">
            <Field
              label={t('roles.name')}
              name="name"
              required
              autocomplete="off"
              hint={t('roles.nameHint')}
              value={name}
              onInput={(e) => setName(e.currentTarget.value)}
              problem={local.name ?? remote.name}
            />
            <Field
              label={t('roles.priority')}
              name="priority"
              type="number"
              inputMode="numeric"
              min={lowest}
              max={HIGHEST_PRIORITY}
              step={1}
              required
              hint={t('roles.priorityHint', { lowest, highest: HIGHEST_PRIORITY })}
              value={priority}
              onInput={(e) => setPriority(e.currentTarget.value)}
              problem={local.priority ?? remote.priority}
            />
          </div>
          <Field
            label={t('roles.description')}
            name="description"
            maxLength={256}
            value={description}
            onInput={(e) => setDescription(e.currentTarget.value)}
            problem={remote.description}
          />
          <Problem error={create.error} overrides={roleSentences()} />
          <Button busy={create.busy}>{t('roles.createButton')}</Button>
        </form>
      </section>
    </ConsolePage>
  );
}
