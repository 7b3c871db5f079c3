import type { ComponentChildren } from 'preact';
import { useId, useRef } from 'preact/hooks';
import { t } from '../i18n/index.ts';
import type { SentenceOverrides } from '../messages.ts';
import { Button, Problem, useAction } from '../ui.tsx';
import './confirm.css';

/**
 * A button that asks before it acts: it opens a modal `<dialog>` with the question, the confirming button and
 * Cancel (focused first, so that Enter on a hurried keyboard does not destroy anything; Escape cancels too).
 * `onConfirm` runs while the dialog stays open: its failure is said there as a sentence, and the dialog closes
 * when it succeeds. Focus goes back to the opening button when it closes.
 *
 * @example
 * <Confirm label="Delete user" question="Delete ann@example.com? This cannot be undone."
 *   confirmLabel="Delete" danger onConfirm={() => client.admin.users.delete(id)} />
 */
export function Confirm(props: {
  /** The opening button's text. */
  label: string;
  /**
   * The opening button's full name for screen readers, when the visible label leans on its table row
   * ("Revoke" → "Revoke CASHIER"); it starts with `label`, so that speech control finds it.
   */
  fullLabel?: string;
  /** What the dialog asks, as a sentence or two. */
  question: ComponentChildren;
  /** The confirming button's text (a verb: "Delete", "Disable"). */
  confirmLabel: string;
  onConfirm(): unknown;
  /** A red confirming button (and opening button), for what cannot be undone. */
  danger?: boolean;
  /** Sharper sentences for failure codes, as `<Problem overrides>`. */
  overrides?: SentenceOverrides;
  disabled?: boolean;
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
        class={`button ${props.danger ? 'danger' : 'secondary'}`}
        aria-haspopup="dialog"
        aria-label={props.fullLabel}
        disabled={props.disabled}
        onClick={open}
      >
        {props.label}
      </button>
      <dialog ref={dialog} class="confirm" aria-labelledby={questionId}>
        <p id={questionId} class="confirm-question">
          {props.question}
        </p>
        <Problem error={action.error} overrides={props.overrides} />
        <div class="confirm-actions">
          <Button type="button" kind={props.danger ? 'danger' : 'primary'} busy={action.busy} onClick={action.run}>
            {props.confirmLabel}
          </Button>
          <button ref={cancel} type="button" class="button secondary" onClick={() => dialog.current?.close()}>
            {t('consoleCommon.cancel')}
          </button>
        </div>
      </dialog>
    </>
  );
}
