import type { ComponentChildren } from 'preact';

/**
 * Placeholder rows while a table's rows are read, in a body of their own: the table's own columns, so that nothing
 * jumps when the rows arrive. Hidden from screen readers, which are told by the region's `aria-busy` and a
 * `<Loading>` sentence.
 */
export function SkeletonRows(props: { columns: number; rows?: number }) {
  const rows = Array.from({ length: props.rows ?? 5 }, (_, row) => row);
  const columns = Array.from({ length: props.columns }, (_, column) => column);
  return (
    <tbody class="skeleton-rows" aria-hidden="true">
      {rows.map((row) => (
        <tr key={row}>
          {columns.map((column) => (
            <td key={column}>
              {/* Widths vary by row and column, as text does. */}
              <span class={`skeleton skeleton-${(row + column) % 3}`} />
            </td>
          ))}
        </tr>
      ))}
    </tbody>
  );
}

/** What is being read, for screen readers (the skeleton rows beside it say it to the eye). */
export function Loading(props: { children: ComponentChildren }) {
  return (
    <p role="status" class="visually-hidden">
      {props.children}
    </p>
  );
}

/** A list with nothing in it yet: what that means, and the one thing to do about it. */
export function EmptyState(props: { children: ComponentChildren; action?: ComponentChildren }) {
  return (
    <div class="empty-state">
      <p>{props.children}</p>
      {props.action}
    </div>
  );
}
