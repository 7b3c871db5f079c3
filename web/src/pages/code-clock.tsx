import { useEffect, useState } from 'preact/hooks';
import { t } from '../i18n/index.ts';

/** The service mails one code a minute per address and purpose (docs/security.md#mail-limits-and-budgets). */
const RESEND_AFTER_MS = 60_000;
/** A mailed code works for 10 minutes. */
const CODE_LIFETIME_MS = 10 * 60_000;

/** When the last code was mailed from this page (0: not known here, as on a page opened from the mail's link). */
export function useCodeSent(sentNow = true) {
  const [sentAt, setSentAt] = useState(() => (sentNow ? Date.now() : 0));
  return { sentAt, sent: () => setSentAt(Date.now()) };
}

/**
 * The time, read at each render, with a render once a second until `until`; past it, no timer is left running (a
 * timer set only while the moment is ahead, so nothing re-renders in a loop once it has passed).
 */
function useClockUntil(until: number): number {
  const [, tick] = useState(0);
  const now = Date.now();
  useEffect(() => {
    const left = until - Date.now();
    if (left <= 0) return;
    const timer = setTimeout(() => tick((n) => n + 1), Math.min(1000, left));
    return () => clearTimeout(timer);
  });
  return now;
}

const minutesAndSeconds = (seconds: number) => `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;

/**
 * "Send a new code", which waits out the service's minute: "Send a new code in 0:42" until then, still reachable by
 * keyboard (and read with its wait) but inert. Asked sooner, the service would answer as if it had mailed a code
 * and mail none, so the page does not ask.
 */
export function ResendButton(props: { sentAt: number; busy: boolean; onResend(): void }) {
  const now = useClockUntil(props.sentAt + RESEND_AFTER_MS);
  const wait = Math.ceil((props.sentAt + RESEND_AFTER_MS - now) / 1000);
  const inert = wait > 0 || props.busy;
  return (
    <button
      type="button"
      class="link"
      aria-disabled={inert ? 'true' : undefined}
      onClick={() => {
        if (!inert) props.onResend();
      }}
    >
      {wait > 0 ? t('code.resendIn', { wait: minutesAndSeconds(wait) }) : t('code.resend')}
    </button>
  );
}

/** Once the code's 10 minutes are over, the page says so, rather than let a user type a code that cannot work. */
export function CodeExpiry(props: { sentAt: number }) {
  const expiresAt = props.sentAt + CODE_LIFETIME_MS;
  const [expired, setExpired] = useState(false);
  useEffect(() => {
    if (!props.sentAt) return;
    const left = expiresAt - Date.now();
    setExpired(left <= 0);
    if (left <= 0) return;
    const timer = setTimeout(() => setExpired(true), left);
    return () => clearTimeout(timer);
  }, [props.sentAt, expiresAt]);
  return expired ? (
    <p class="alert" role="status">
      {t('code.expired')}
    </p>
  ) : null;
}
