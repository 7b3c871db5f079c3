import type { ComponentChildren } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { t } from '../i18n/index.ts';
import { useReauthenticated } from '../reauth.tsx';
import type { TotpSetupResponse } from '../sdk.ts';
import { useSession } from '../session.tsx';
import { Button, CodeField, Notice, onSubmit, Problem, useAction, useAutoFocus } from '../ui.tsx';
import { grouped, QrCode, secretOf } from './qr.tsx';
import { Section } from './section.tsx';

const totpSentences = () => ({ INVALID_CODE: t('account.totp.wrongCode') });

type Stage = { kind: 'idle' } | { kind: 'setup'; setup: TotpSetupResponse } | { kind: 'codes'; codes: string[] };

/**
 * Two-step verification with an authenticator app: set up (QR code and setup
 * key, then a first code), the backup codes shown once, and removal where the
 * tenant allows it. Init, verify and disable may ask the user to confirm it
 * is them (useReauthenticated).
 */
export function TotpSection(props: { onChanged(): void }) {
  const { client, tenant, user, setUser } = useSession();
  // Setting up goes on after the user confirmed it is them at a provider (the page loaded again on the way back). The
  // later steps hold what the page showed (the QR code, a code typed): made again, they find the session fresh.
  const reauth = useReauthenticated({ 'totp.setUp': () => begin.run() });
  const [stage, setStage] = useState<Stage>({ kind: 'idle' });
  const [turnedOff, setTurnedOff] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const enabled = Boolean(user?.totpEnabled);

  const begin = useAction(async () => {
    setTurnedOff(false);
    const setup = await reauth.run(() => client.me.totp.init(), { key: 'totp.setUp' });
    setStage({ kind: 'setup', setup });
  });

  if (!tenant.totpAllowed && !enabled) return null;

  const finished = async (next: Stage) => {
    setUser(await client.me.get());
    setStage(next);
    props.onChanged();
  };

  let body: ComponentChildren;
  if (stage.kind === 'setup') {
    body = (
      <SetupStep
        setup={stage.setup}
        verify={(code) => reauth.run(() => client.me.totp.verify({ code }))}
        onDone={() => finished({ kind: 'codes', codes: stage.setup.backupCodes })}
        onCancel={() => {
          setStage({ kind: 'idle' });
          heading.current?.focus();
        }}
      />
    );
  } else if (stage.kind === 'codes') {
    body = (
      <BackupCodes
        codes={stage.codes}
        onClose={() => {
          setStage({ kind: 'idle' });
          heading.current?.focus();
        }}
      />
    );
  } else if (enabled) {
    body = (
      <>
        <p>
          <span class="badge on">{t('account.totp.on')}</span> {t('account.totp.onText')}
        </p>
        {tenant.allowUserDisableTotp ? (
          <DisableForm
            disable={(code) => reauth.run(() => client.me.totp.disable({ code }))}
            onDone={async () => {
              await finished({ kind: 'idle' });
              setTurnedOff(true);
            }}
          />
        ) : (
          <p class="muted">{t('account.totp.required', { name: tenant.name })}</p>
        )}
      </>
    );
  } else {
    body = (
      <>
        {turnedOff && <Notice>{t('account.totp.turnedOff')}</Notice>}
        <p>
          <span class="badge">{t('account.totp.off')}</span> {t('account.totp.offText')}
        </p>
        <form onSubmit={onSubmit(begin.run)}>
          <Problem error={begin.error} />
          <Button busy={begin.busy}>{t('account.totp.setUp')}</Button>
        </form>
      </>
    );
  }
  return (
    <Section id="two-step" title={t('account.totp.title')} headingRef={heading}>
      {body}
      {reauth.prompt}
    </Section>
  );
}

function SetupStep(props: {
  setup: TotpSetupResponse;
  verify(code: string): Promise<void>;
  onDone(): Promise<void>;
  onCancel(): void;
}) {
  const [code, setCode] = useState('');
  const focus = useAutoFocus<HTMLHeadingElement>();
  const secret = secretOf(props.setup.qrUri);
  const confirm = useAction(async () => {
    await props.verify(code.trim());
    await props.onDone();
  });
  return (
    <div class="totp-setup">
      <h3 tabIndex={-1} ref={focus}>
        {t('account.totp.scan')}
      </h3>
      <div class="qr-and-key">
        <QrCode value={props.setup.qrUri} label={t('account.totp.qr')} />
        {secret && (
          <div>
            <p>{t('account.totp.byHand')}</p>
            <p class="secret">{grouped(secret)}</p>
          </div>
        )}
      </div>
      <h3>{t('account.totp.enter')}</h3>
      <form onSubmit={onSubmit(confirm.run)} noValidate>
        <CodeField
          label={t('account.totp.code')}
          value={code}
          onInput={(e) => setCode(e.currentTarget.value)}
          autoSubmit
        />
        <Problem error={confirm.error} overrides={totpSentences()} />
        <div class="actions">
          <Button busy={confirm.busy}>{t('account.totp.turnOn')}</Button>
          <button type="button" class="button secondary" onClick={props.onCancel}>
            {t('account.cancel')}
          </button>
        </div>
      </form>
    </div>
  );
}

/** The backup codes, this once: to copy, to download as a .txt file, and a plain word that they will not come back. */
function BackupCodes(props: { codes: string[]; onClose(): void }) {
  const { tenant, user } = useSession();
  const [copied, setCopied] = useState<boolean | null>(null);
  const focus = useAutoFocus<HTMLHeadingElement>();
  const text = useMemo(
    () =>
      [
        t('account.totp.fileTitle', { email: user?.email ?? t('account.totp.fileYourAccount'), name: tenant.name }),
        t('account.totp.fileText'),
        '',
        ...props.codes,
        '',
      ].join('\n'),
    [props.codes, tenant.name, user?.email],
  );
  const href = useMemo(() => URL.createObjectURL(new Blob([text], { type: 'text/plain' })), [text]);
  useEffect(() => () => URL.revokeObjectURL(href), [href]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.codes.join('\n'));
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  return (
    <div class="backup-codes">
      <Notice>{t('account.totp.isOn')}</Notice>
      <h3 tabIndex={-1} ref={focus}>
        {t('account.totp.codesTitle')}
      </h3>
      <p class="warning">
        <strong>{t('account.totp.shownOnce')}</strong> {t('account.totp.keepThem')}
      </p>
      <ul class="codes" aria-label={t('account.totp.codes')}>
        {props.codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <div class="actions">
        <button type="button" class="button secondary" onClick={copy}>
          {t('account.totp.copy')}
        </button>
        <a class="button secondary" href={href} download={`backup-codes-${tenant.subdomain}.txt`}>
          {t('account.totp.download')}
        </a>
        <button type="button" class="button primary" onClick={props.onClose}>
          {t('account.totp.saved')}
        </button>
      </div>
      <p class="copy-status" role="status">
        {copied === true && t('account.totp.copied')}
        {copied === false && t('account.totp.notCopied')}
      </p>
    </div>
  );
}

function DisableForm(props: { disable(code: string): Promise<void>; onDone(): Promise<void> }) {
  const [code, setCode] = useState('');
  const off = useAction(async () => {
    await props.disable(code.trim());
    await props.onDone();
  });
  return (
    <form onSubmit={onSubmit(off.run)} noValidate>
      <CodeField
        orBackupCode
        label={t('account.totp.disableCode')}
        hint={t('account.totp.disableHint')}
        value={code}
        onInput={(e) => setCode(e.currentTarget.value)}
      />
      <Problem error={off.error} overrides={totpSentences()} />
      <Button kind="danger" busy={off.busy}>
        {t('account.totp.turnOff')}
      </Button>
    </form>
  );
}
