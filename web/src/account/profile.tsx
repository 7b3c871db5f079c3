import { useState } from 'preact/hooks';
import { t } from '../i18n/index.ts';
import { fieldSentences, formProblem } from '../messages.ts';
import { formSchemas, type UpdateUserRequest, validateForm } from '../sdk.ts';
import { useSession } from '../session.tsx';
import { Button, Field, Notice, onSubmit, Problem, useAction } from '../ui.tsx';
import { Section } from './section.tsx';

const labels = () => ({
  firstName: t('account.profile.firstName'),
  lastName: t('account.profile.lastName'),
  phone: t('account.profile.phoneInSentence'),
});

/** First name, last name and phone (PATCH /users/me), checked first with the SDK's `formSchemas.profile`. */
export function ProfileSection(props: { onChanged(): void }) {
  const { client, user, setUser } = useSession();
  const [firstName, setFirstName] = useState(user?.firstName ?? '');
  const [lastName, setLastName] = useState(user?.lastName ?? '');
  const [phone, setPhone] = useState(user?.phone ?? '');
  const [saved, setSaved] = useState(false);

  const save = useAction(async () => {
    setSaved(false);
    // A name never set may stay empty; one that was set cannot be cleared (the service requires 1+ characters).
    const body: UpdateUserRequest = {};
    // The phone only when it changed: a number stored before phones were checked is kept as it is until edited.
    if (phone.trim() !== (user?.phone ?? '').trim()) body.phone = phone.trim() || null;
    if (firstName.trim() || user?.firstName) body.firstName = firstName;
    if (lastName.trim() || user?.lastName) body.lastName = lastName;
    const checked = validateForm(formSchemas.profile, body);
    if (!checked.success) throw formProblem(checked.errors);
    setUser(await client.me.update(checked.output));
    setSaved(true);
    props.onChanged();
  });
  const problems = fieldSentences(save.error, labels());

  return (
    <Section id="profile" title={t('account.profile.title')}>
      <form onSubmit={onSubmit(save.run)} noValidate>
        <div class="row">
          <Field
            label={t('account.profile.firstName')}
            name="firstName"
            autocomplete="given-name"
            value={firstName}
            onInput={(e) => setFirstName(e.currentTarget.value)}
            problem={problems.firstName}
          />
          <Field
            label={t('account.profile.lastName')}
            name="lastName"
            autocomplete="family-name"
            value={lastName}
            onInput={(e) => setLastName(e.currentTarget.value)}
            problem={problems.lastName}
          />
        </div>
        <Field
          label={t('account.profile.phone')}
          name="phone"
          type="tel"
          autocomplete="tel"
          hint={t('account.profile.phoneHint')}
          value={phone}
          onInput={(e) => setPhone(e.currentTarget.value)}
          problem={problems.phone}
        />
        <Problem error={save.error} />
        {saved && <Notice>{t('account.profile.saved')}</Notice>}
        <Button busy={save.busy}>{t('account.profile.save')}</Button>
      </form>
    </Section>
  );
}
