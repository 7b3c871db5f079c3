import type { ComponentChildren } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { useReauthenticated } from '../reauth.tsx';
import type { TotpSetupResponse } from '../sdk.ts';
import { useSession } from '../session.tsx';
import { Button, CodeField, Notice, onSubmit, Problem, useAction, useAutoFocus } from '../ui.tsx';
import { grouped, QrCode, secretOf } from './qr.tsx';
import { Section } from './section.tsx';

const TOTP_SENTENCES = {
  INVALID_CODE: 'That code is not right. Check the time on your phone, then enter the code the app shows now.',
};

type Stage = { kind: 'idle' } | { kind: 'setup'; setup: TotpSetupResponse } | { kind: 'codes'; codes: string[] };

/**
 * Two-step verification with an authenticator app: set up (QR code and setup
 * key, then a first code), the backup codes shown once, and removal where the
 * tenant allows it. Init, verify and disable may ask the user to confirm it
 * is them (useReauthenticated).
 */
export function TotpSection(props: { onChanged(): void }) {
  const { client, tenant, user, setUser } = useSession();
  const reauth = useReauthenticated();
  const [stage, setStage] = useState<Stage>({ kind: 'idle' });
  const [turnedOff, setTurnedOff] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const enabled = Boolean(user?.totpEnabled);

  const begin = useAction(async () => {
    setTurnedOff(false);
    const setup = await reauth.run(() => client.me.totp.init());
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
          <span class="badge on">On</span> Signing in asks for the code your authenticator app shows, after your
          password or e-mail code.
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
          <p class="muted">{tenant.name} requires two-step verification: it cannot be turned off.</p>
        )}
      </>
    );
  } else {
    body = (
      <>
        {turnedOff && <Notice>Two-step verification is off. Your backup codes no longer work.</Notice>}
        <p>
          <span class="badge">Off</span> Add an authenticator app (such as Google Authenticator, Microsoft Authenticator
          or 1Password): signing in will then also ask for the code it shows, so that a stolen password is not enough.
        </p>
        <form onSubmit={onSubmit(begin.run)}>
          <Problem error={begin.error} />
          <Button busy={begin.busy}>Set up an authenticator app</Button>
        </form>
      </>
    );
  }
  return (
    <Section id="two-step" title="Two-step verification" headingRef={heading}>
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
        1. Scan this QR code with your authenticator app
      </h3>
      <div class="qr-and-key">
        <QrCode value={props.setup.qrUri} label="QR code to add this account to an authenticator app" />
        {secret && (
          <div>
            <p>Cannot scan it? Add the account in the app by hand, as a time-based key, with this setup key:</p>
            <p class="secret">{grouped(secret)}</p>
          </div>
        )}
      </div>
      <h3>2. Enter the code the app shows</h3>
      <form onSubmit={onSubmit(confirm.run)} noValidate>
        <CodeField label="Code from the app" value={code} onInput={(e) => setCode(e.currentTarget.value)} autoSubmit />
        <Problem error={confirm.error} overrides={TOTP_SENTENCES} />
        <div class="actions">
          <Button busy={confirm.busy}>Turn on two-step verification</Button>
          <button type="button" class="button secondary" onClick={props.onCancel}>
            Cancel
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
        `Backup codes for ${user?.email ?? 'your account'} at ${tenant.name}`,
        'Each code signs you in once, in place of the authenticator app.',
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
      <Notice>Two-step verification is on.</Notice>
      <h3 tabIndex={-1} ref={focus}>
        Your backup codes
      </h3>
      <p class="warning">
        <strong>These codes are shown only now.</strong> Save them somewhere safe, away from your phone. If you lose
        your authenticator app, each code signs you in once.
      </p>
      <ul class="codes" aria-label="Backup codes">
        {props.codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <div class="actions">
        <button type="button" class="button secondary" onClick={copy}>
          Copy the codes
        </button>
        <a class="button secondary" href={href} download={`backup-codes-${tenant.subdomain}.txt`}>
          Download as a text file
        </a>
        <button type="button" class="button primary" onClick={props.onClose}>
          I have saved my backup codes
        </button>
      </div>
      <p class="copy-status" role="status">
        {copied === true && 'The codes are copied to your clipboard.'}
        {copied === false && 'Copying is not allowed here: select the codes, or download them.'}
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
        label="Code from your authenticator app"
        hint="To turn two-step verification off, enter the code the app shows now, or a backup code."
        value={code}
        onInput={(e) => setCode(e.currentTarget.value)}
      />
      <Problem error={off.error} overrides={TOTP_SENTENCES} />
      <Button kind="danger" busy={off.busy}>
        Turn off two-step verification
      </Button>
    </form>
  );
}
