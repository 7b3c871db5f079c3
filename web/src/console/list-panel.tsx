import type { ComponentChildren } from 'preact';
import { t } from '../i18n/index.ts';
import { Button, Problem, type Resource, ScrollingTable, TableHead } from '../ui.tsx';
import { EmptyState, Loading, SkeletonRows } from './table-states.tsx';

/**
 * The panel of a console list whose entries each open a page of their own (sign-in providers, webhook endpoints): its
 * heading; then the list's problem with a way to try again, or the empty state with the way to add one, or the table
 * (skeleton rows while it is read) with, below it, the way to add one or the sentence that says the list is full.
 */
export function ListPanel<T extends { id: string }>(props: {
  headingId: string;
  heading: string;
  list: Pick<Resource<readonly T[]>, 'data' | 'error' | 'loading' | 'reload'>;
  /** What an empty list means. */
  empty: string;
  /** The link that adds one. */
  add: ComponentChildren;
  /** The sentence that says no more can be added, once the list is full; null while it is not. */
  full: string | null;
  table: { label: string; loading: string; class: string; columns: string[] };
  row(item: T): ComponentChildren;
}) {
  const { list, table } = props;
  const items = list.data;
  return (
    <section class="panel" aria-labelledby={props.headingId}>
      <h2 id={props.headingId}>{props.heading}</h2>
      {list.error ? (
        <>
          <Problem error={list.error} />
          <Button type="button" kind="secondary" busy={list.loading} onClick={list.reload}>
            {t('boot.tryAgain')}
          </Button>
        </>
      ) : items?.length === 0 ? (
        <EmptyState action={props.add}>{props.empty}</EmptyState>
      ) : (
        <>
          <ScrollingTable label={table.label} busy={items === null}>
            {items === null && <Loading>{table.loading}</Loading>}
            <table class={table.class}>
              <TableHead columns={table.columns} />
              {items === null && <SkeletonRows columns={table.columns.length} rows={2} />}
              <tbody>
                {items?.map((item) => (
                  <tr key={item.id}>{props.row(item)}</tr>
                ))}
              </tbody>
            </table>
          </ScrollingTable>
          {items && (props.full === null ? props.add : <p class="muted">{props.full}</p>)}
        </>
      )}
    </section>
  );
}
