import type { MailCatalogue } from '../catalogue.ts';

/**
 * Every text of the mails in English, the service's own language: the keys every other catalogue must have.
 * `{name}` is the tenant's name; each other `{placeholder}` is named by the template that fills it.
 */
const texts = {
  greeting: 'Hello,',
  footer: 'Sent by {name} about your account. Replies to this address are not read.',
  /** The tenant's name when it has none that can be shown. */
  unnamedTenant: 'Your account',
  'minutes.one': '1 minute',
  'minutes.other': '{count} minutes',
  /** An instant in UTC, spelled out so that no reader takes day for month. */
  dateTime: '{weekday} {day} {month} {year}, {time} UTC',
  codeExpiry: 'It expires in {minutes} and works once.',

  'signupCode.subject': 'Confirm your e-mail address for {name}',
  'signupCode.preheader': 'Your {name} confirmation code is inside. {expiry}',
  'signupCode.intro': 'Use this code to finish creating your {name} account:',
  'signupCode.notYou': 'If you did not sign up, ignore this e-mail: no account is created without the code.',

  'loginCode.subject': 'Your {name} sign-in code',
  'loginCode.preheader': 'Your {name} sign-in code is inside. {expiry}',
  'loginCode.intro': 'Use this code to sign in to {name}:',
  'loginCode.notYou':
    'If you did not try to sign in, ignore this e-mail: nobody can sign in without the code. Never share it; we will never ask you for it.',

  'resetCode.subject': 'Reset your {name} password',
  'resetCode.preheader': 'Your {name} password reset code is inside. {expiry}',
  'resetCode.intro': 'Use this code to choose a new password for your {name} account:',
  'resetCode.pageLead': 'Enter it on this page, in the browser where you asked for it:',
  'resetCode.pageLink': 'Choose a new password',
  'resetCode.notYou': 'If you did not ask to reset your password, ignore this e-mail: your password stays as it is.',

  'adminReset.subject': 'Choose a new {name} password',
  'adminReset.preheader': 'A code to choose a new {name} password is inside. {expiry}',
  'adminReset.intro': 'An administrator of {name} sent you this code to choose a new password for your account:',
  'adminReset.pageLead': 'Enter it on this page:',
  'adminReset.expired': 'Once the code has expired, the page sends you a new one: choose "Send a new code" there.',
  'adminReset.appLead': 'Enter it in {name} with this request:',
  'adminReset.notYou':
    'If you did not expect this, you may ignore it: your password stays as it is until you choose a new one.',

  'emailChangeCode.subject': 'Confirm your new e-mail address for {name}',
  'emailChangeCode.preheader': 'Your {name} confirmation code is inside. {expiry}',
  'emailChangeCode.intro': 'Use this code to make this address the e-mail address of your {name} account:',
  'emailChangeCode.notYou': 'If you did not ask for this, ignore this e-mail: nothing changes without the code.',

  'alreadyRegistered.subject': 'You already have a {name} account',
  'alreadyRegistered.preheader': 'Someone tried to sign up to {name} with this e-mail address.',
  'alreadyRegistered.tried':
    'Someone tried to create a {name} account with this e-mail address, but you already have one.',
  'alreadyRegistered.ifYou':
    'If that was you, sign in instead. If you forgot your password, use "Forgot password" on the sign-in page to reset it.',
  'alreadyRegistered.notYou': 'If it was not you, ignore this e-mail: nothing has changed in your account.',

  'invitation.subjectFrom': '{inviter} invited you to {name}',
  'invitation.subject': 'You are invited to {name}',
  'invitation.preheader': 'Your invitation to join {name} is inside. It works until {until}.',
  'invitation.invitedBy': '{inviter} has invited you to join {name}.',
  'invitation.invited': 'You have been invited to join {name}.',
  'invitation.pageLead': 'To accept, open this link and create your account:',
  'invitation.pageLink': 'Accept the invitation',
  'invitation.tokenLead': 'To accept, sign up to {name} with this invitation:',
  /** `{contact}`: the inviter, or the tenant when the invitation names nobody. */
  'invitation.validity': 'The invitation works once, until {until}. After that, ask {contact} for a new one.',
  'invitation.notYou': 'If you did not expect this invitation, ignore this e-mail: no account is created without you.',

  'passwordChanged.subject': 'Your {name} password was changed',
  'passwordChanged.preheader': 'The password of your {name} account was just changed.',
  'passwordChanged.changed':
    'The password of your {name} account was just changed, and your other sessions were signed out.',
  'passwordChanged.ifYou': 'If you did this, there is nothing more to do.',
  'passwordChanged.notYou':
    'If you did not, someone else knows your password: reset it now with "Forgot password" on the sign-in page.',

  'passwordResetDone.subject': 'Your {name} password was reset',
  'passwordResetDone.preheader': 'The password of your {name} account was reset.',
  'passwordResetDone.reset':
    'The password of your {name} account was reset with a code sent to this address, and every session was signed out.',
  'passwordResetDone.ifYou': 'If you did this, there is nothing more to do.',
  'passwordResetDone.notYou':
    'If you did not, someone can read your e-mail: secure your mailbox first, then reset your password again.',

  'emailChanged.subject': 'Your {name} e-mail address was changed',
  'emailChanged.preheader': 'The e-mail address of your {name} account was changed.',
  'emailChanged.changed': 'The e-mail address of your {name} account was changed to {newEmail}.',
  'emailChanged.mailGoesThere': 'Sign-in codes and account notices now go to that address, no longer to this one.',
  'emailChanged.notYou': 'If you did not do this, contact {name} at once.',

  'emailChangeRequested.subject': 'A change of your {name} e-mail address was requested',
  'emailChangeRequested.preheader': 'Someone asked to move your {name} account to another e-mail address.',
  'emailChangeRequested.asked':
    'Someone signed in to your {name} account asked to change its e-mail address to {newEmail}.',
  'emailChangeRequested.notYet': 'Nothing has changed yet: the change needs a code sent to that address.',
  'emailChangeRequested.notYou':
    'If this was not you, sign out every session and change your password now, then contact {name}.',

  'reauthCode.subject': 'Confirm it is you at {name}',
  'reauthCode.preheader': 'Your {name} confirmation code is inside. {expiry}',
  'reauthCode.intro':
    'Use this code to confirm it is you before changing the security settings of your {name} account:',
  'reauthCode.notYou':
    'If you did not ask for this, someone may be using your signed-in session: sign out every session and change your password. Never share this code.',

  'accountLocked.subject': 'Sign-in to {name} is blocked for {lockedFor}',
  'accountLocked.preheader': 'Too many failed attempts to sign in to your {name} account.',
  'accountLocked.locked':
    'There were too many failed attempts to sign in to your {name} account, so signing in is blocked for {lockedFor}.',
  'accountLocked.ifYou': 'If that was you, wait and try again, or reset your password with "Forgot password".',
  'accountLocked.notYou':
    'If it was not you, someone may be guessing your password: once you can sign in, make sure it is long and used nowhere else.',

  'webhookDisabled.subject': 'A webhook endpoint of {name} was turned off',
  'webhookDisabled.preheader': 'Every delivery to it failed for a day.',
  'webhookDisabled.off':
    'Every delivery of events to this webhook endpoint of {name} has failed for 24 hours, so it was turned off:',
  'webhookDisabled.what':
    'No events are sent to it while it is off. Its delivery log in the console says what went wrong; once the receiver works again, turn the endpoint on and replay the events it missed.',
  'webhookDisabled.pageLink': 'Open the webhooks in the console',
};

export type MailTextKey = keyof typeof texts;

export const en: MailCatalogue = {
  weekdays: ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'],
  months: [
    'January',
    'February',
    'March',
    'April',
    'May',
    'June',
    'July',
    'August',
    'September',
    'October',
    'November',
    'December',
  ],
  texts,
};
