import { useEffect, useId, useRef } from 'preact/hooks';
import { t } from '../i18n/index.ts';
import { guardLeaving } from '../leave-guard.ts';
import './confirm.css';

/**
 * Keeps unsaved work from being lost by leaving the page while `dirty`: closing the tab or reloading gets the
 * browser's own "Leave site?" question (`beforeunload`); following a link of these pages, the Sign out button or
 * the browser's Back button asks first in this dialog (leave-guard.ts holds them back), with Stay focused, so that
 * Enter and Escape stay. Leave carries on with what was held back.
 */
export function LeaveGuard(props: { dirty: boolean; question: string }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const stay = useRef<HTMLButtonElement>(null);
  const questionId = useId();
  /** What Leave carries on with. */
  const go = useRef<(() => void) | null>(null);

  useEffect(() => {
    if (!props.dirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers ask only when a return value is set.
      event.returnValue = '';
    };
    addEventListener('beforeunload', onBeforeUnload);
    const release = guardLeaving({
      ask(carryOn) {
        go.current = carryOn;
        dialog.current?.showModal();
        stay.current?.focus();
      },
    });
    return () => {
      removeEventListener('beforeunload', onBeforeUnload);
      release();
    };
  }, [props.dirty]);

  const leave = () => {
    const carryOn = go.current;
    go.current = null;
    dialog.current?.close();
    carryOn?.();
  };

  return (
    <dialog ref={dialog} class="confirm" aria-labelledby={questionId}>
      <p id={questionId} class="confirm-question">
        {props.question}
      </p>
      <div class="confirm-actions">
        <button ref={stay} type="button" class="button primary" onClick={() => dialog.current?.close()}>
          {t('console.leave.stay')}
        </button>
        <button type="button" class="button secondary" onClick={leave}>
          {t('console.leave.go')}
        </button>
      </div>
    </dialog>
  );
}
