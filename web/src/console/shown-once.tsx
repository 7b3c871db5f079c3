import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { t } from '../i18n/index.ts';
import { Notice } from '../ui.tsx';

/**
 * A credential just made (an API key, a client secret), shown this once: focus on its heading, a copy button
 * (or, without a clipboard, the value selected for the keyboard's copy), and "I have stored it".
 */
export function ShownOnce(props: {
  id: string;
  heading: ComponentChildren;
  children: ComponentChildren;
  value: string;
  /** What it is, in the buttons and notices: "key", "secret" (in the language in use). */
  noun: string;
  testId: string;
  onDone(): void;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  const secret = useRef<HTMLElement>(null);
  const [copied, setCopied] = useState<boolean | null>(null);
  useEffect(() => {
    heading.current?.focus();
    setCopied(null);
  }, [props.value]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.value);
      setCopied(true);
    } catch {
      // No clipboard (permission, insecure context): select it, for the keyboard's copy.
      const range = document.createRange();
      if (secret.current) range.selectNodeContents(secret.current);
      getSelection()?.removeAllRanges();
      getSelection()?.addRange(range);
      setCopied(false);
    }
  };
  return (
    <section class="panel new-key" aria-labelledby={props.id}>
      <h2 id={props.id} tabIndex={-1} ref={heading}>
        {props.heading}
      </h2>
      <p>{props.children}</p>
      <code class="secret" ref={secret} data-testid={props.testId}>
        {props.value}
      </code>
      <div class="actions">
        <button type="button" class="button primary" onClick={copy}>
          {t('consoleCommon.copy', { noun: props.noun })}
        </button>
        <button type="button" class="button secondary" onClick={props.onDone}>
          {t('consoleCommon.stored')}
        </button>
      </div>
      {copied === true && <Notice>{t('consoleCommon.copied', { noun: props.noun })}</Notice>}
      {copied === false && (
        <p class="hint" role="status">
          {t('consoleCommon.noClipboard', { noun: props.noun })}
        </p>
      )}
    </section>
  );
}
