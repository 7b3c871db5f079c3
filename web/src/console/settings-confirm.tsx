import type { ComponentChildren } from 'preact';
import { useId, useRef } from 'preact/hooks';
import { Button, Problem, useAction } from '../ui.tsx';
import './settings.css';

/**
 * A button that asks before it acts: a modal `<dialog>` with the question, the confirming button and Cancel
 * (focused first, so that a hurried Enter destroys nothing; Escape cancels too). `onConfirm` runs while the
 * dialog stays open: its failure is said there as a sentence, and the dialog closes when it succeeds. The
 * browser gives focus back to the opening button when a modal dialog closes.
 *
 * The roles and API keys pages' own, with the props of console/confirm.tsx (users and invitations), so that
 * the two can become one by changing the import.
 */
export function Confirm(props: {
  /** The opening button's text. */
  label: string;
  /** The opening button's accessible name, when its text alone is ambiguous in a list ("Delete" → "Delete EDITOR"). */
  labelFor?: string;
  /** What the dialog asks, as a sentence or two. */
  question: ComponentChildren;
  /** The confirming button's text (a verb: "Delete", "Revoke"). */
  confirmLabel: string;
  onConfirm(): Promise<unknown> | undefined;
  /** A red confirming button (and opening button), for what cannot be undone. */
  danger?: boolean;
  /** Sharper sentences for failure codes, as `<Problem overrides>`. */
  overrides?: Partial<Record<string, string>>;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const questionId = useId();
  const action = useAction(async () => {
    await props.onConfirm();
    dialog.current?.close();
  });
  const open = () => {
    action.setError(null);
    dialog.current?.showModal();
    cancel.current?.focus();
  };
  return (
    <>
      <button
        type="button"
        class={`button ${props.danger ? 'danger' : 'secondary'} small`}
        aria-haspopup="dialog"
        aria-label={props.labelFor}
        onClick={open}
      >
        {props.label}
      </button>
      <dialog ref={dialog} class="settings-dialog" aria-labelledby={questionId}>
        <p id={questionId} class="dialog-question">
          {props.question}
        </p>
        <Problem error={action.error} overrides={props.overrides} />
        <div class="dialog-actions">
          <Button type="button" kind={props.danger ? 'danger' : 'primary'} busy={action.busy} onClick={action.run}>
            {props.confirmLabel}
          </Button>
          <button ref={cancel} type="button" class="button secondary" onClick={() => dialog.current?.close()}>
            Cancel
          </button>
        </div>
      </dialog>
    </>
  );
}
