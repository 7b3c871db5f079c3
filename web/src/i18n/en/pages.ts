/** The sign-in pages' texts in English: sign-in, sign-up, codes, password reset, the OpenID Connect pages, re-authentication. */
const texts = {
  // Sign-in (pages/sign-in.tsx). A heading that names the tenant comes with a short title for the browser's tab,
  // which names it after the page ("Sign in · Fernhouse").
  'signIn.title': 'Sign in to {name}',
  'signIn.pageTitle': 'Sign in',
  'signIn.expired': 'Your session has ended. Sign in again to go on.',
  'signIn.reset': 'Your password was changed. Sign in with the new one.',
  'signIn.registered': 'Your account is ready. Sign in to go on.',
  /** `{continue}` is a link, signIn.continue. */
  'signIn.signedInAs': 'You are signed in as {email}. {continue}',
  'signIn.continue': 'Continue',
  'signIn.how': 'How do you want to sign in?',
  'signIn.withPassword': 'With my password',
  'signIn.withCode': 'With a code sent to my e-mail',
  'signIn.email': 'E-mail address',
  'signIn.password': 'Password',
  'signIn.submit': 'Sign in',
  'signIn.sendCode': 'E-mail me a code',
  /** A navigation's name, for screen readers: the links below a form. */
  'signIn.otherOptions': 'Other options',
  'signIn.forgot': 'Forgot your password?',
  'signIn.createAccount': 'Create an account',
  'signIn.invited': 'Have an invitation? Sign up',
  'signIn.invalidCode': 'That code is not right, or it has expired. Check it, or start again for a new one.',
  'signIn.disabled': 'This account is disabled. Contact the administrator of this service.',
  'signIn.inactive':
    'This account is not active yet. Finish signing up with the code we e-mailed you, or sign up again.',
  // Its second step: a mailed code, or an authenticator app's.
  'signIn.twoStep': 'Two-step verification',
  'signIn.codeSent': 'If {email} has an account at {name}, we have sent it a 6-digit code. It works for 10 minutes.',
  'signIn.codeResent':
    'If {email} has an account at {name}, we have sent it a new code. Use the newest one: it works for 10 minutes.',
  'signIn.totpHelp': 'Enter the 6-digit code your authenticator app shows for {email}.',
  'signIn.backupHelp':
    'Enter one of the backup codes you saved when you set up your authenticator app for {email}. Each works once.',
  // The same after signing in with a provider, where no address was typed.
  'signIn.totpHelpAccount': 'Enter the 6-digit code your authenticator app shows for your {name} account.',
  'signIn.backupHelpAccount':
    'Enter one of the backup codes you saved when you set up your authenticator app for your {name} account. Each works once.',
  'signIn.backupCode': 'Backup code',
  'signIn.wrongBackup': 'That backup code is not right, or it was used already.',
  'signIn.wrongTotp': 'That code is not right. Enter the code your authenticator app shows now, before it changes.',
  'signIn.verify': 'Verify',
  'signIn.useTotp': 'Use my authenticator app instead',
  'signIn.useBackup': 'Use a backup code instead',
  'signIn.startAgain': 'Start again',

  // Codes, wherever one is asked for (pages/code-clock.tsx and the forms).
  'code.checkMail': 'Check your e-mail',
  'code.fromMail': 'Code from the e-mail',
  'code.authenticator': 'Authenticator code',
  'code.wrongSendNew': 'That code is not right, or it has expired. Check it, or send a new code.',
  /** `{wait}` is minutes and seconds: "0:42". */
  'code.resendIn': 'Send a new code in {wait}',
  'code.resend': 'Send a new code',
  'code.expired': 'This code has expired. Send a new code, and use the one in the newest e-mail.',

  // Sign-up (pages/sign-up.tsx).
  'signUp.title': 'Create your {name} account',
  'signUp.pageTitle': 'Create your account',
  'signUp.firstName': 'First name',
  'signUp.lastName': 'Last name',
  'signUp.passwordOptional': 'Password (optional)',
  'signUp.passwordNote': 'Without one, you sign in with a code we e-mail you.',
  'signUp.submit': 'Create account',
  'signUp.haveAccount': 'I already have an account: sign in',
  'signUp.pausedToday': 'New sign-ups are paused for today. Try again in {wait}.',
  'signUp.tooMany': 'Too many sign-ups from your network. Try again in {wait}.',
  'signUp.byInvitation': 'Sign-up is by invitation',
  'signUp.byInvitationText':
    'Accounts at {name} are created by invitation only. If you were invited, open the link in your invitation e-mail to create your account.',
  'signUp.acceptTitle': 'Accept your invitation to {name}',
  'signUp.acceptPageTitle': 'Accept your invitation',
  'signUp.checking': 'Checking your invitation…',
  'signUp.checkFailed': 'Your invitation could not be checked',
  'signUp.deadLinkTitle': 'This invitation link cannot be used',
  'signUp.deadLink':
    'This invitation link does not work any more: it has expired, was already used, or was withdrawn. Ask an administrator for a new invitation.',
  'signUp.acceptedAlready': 'If you already accepted it, your account is ready: sign in instead.',
  'signUp.invitationUnusable':
    'This invitation cannot be used any more: it may have expired, been used already, or been withdrawn. Ask an administrator for a new invitation.',
  'signUp.invitedBy': '{inviter} invited you to join {name}.',
  'signUp.invited': 'You were invited to join {name}.',
  /** `{date}` is a date and time in the reader's locale. */
  'signUp.invitationUntil': 'The invitation works until {date}.',
  'signUp.invitedAddress':
    'The invitation was sent to this address, so your account uses it. For another address, ask for an invitation to that one.',
  // Its second step, the mailed code.
  'signUp.codeSent':
    'We sent a 6-digit code to {email}. Enter it below to finish creating your account. It works for 10 minutes.',
  'signUp.codeResent': 'We sent a new code to {email}. Use the newest one: it works for 10 minutes.',
  'signUp.existing':
    'If the address already has an account, the e-mail says so instead: then sign in, or reset your password.',
  'signUp.verify': 'Verify and sign in',
  'signUp.changeEmail': 'Change the e-mail address',

  // Forgot password and reset (pages/forgot-password.tsx, pages/reset-password.tsx).
  'forgot.title': 'Forgot your password?',
  'forgot.intro':
    'Enter the e-mail address of your {name} account. We will e-mail you a code to choose a new password.',
  'forgot.backToSignIn': 'Back to sign-in',
  'forgot.haveCode': 'I already have a code',
  'reset.title': 'Choose a new password',
  'reset.newPassword': 'New password',
  'reset.sent': 'If {email} has an account, we have e-mailed it a 6-digit code. It works for 10 minutes.',
  'reset.resent': 'If {email} has an account, we have e-mailed it a new code. Use the newest one.',
  /** Said as `{email}` when the page does not know the address. */
  'reset.thatAddress': 'that address',
  'reset.theAddress': 'the address',
  'reset.noRequest':
    'This browser has no code request for that address, or it has expired. Send a new code, then enter the code from the newest e-mail.',
  'reset.submit': 'Set the new password',

  // The OpenID Connect sign-in page (pages/authorize.tsx): `{client}` is the app's name, `{tenant}` the service's.
  'authorize.refused.INVALID_REQUEST':
    'The app that sent you here made a sign-in request that {tenant} cannot accept. Go back to the app and try again; if it happens again, tell the app’s makers.',
  'authorize.refused.UNKNOWN_CLIENT':
    'The app that sent you here is not registered with {tenant}, so you cannot sign in to it with your {tenant} account.',
  'authorize.refused.REDIRECT_URI_MISMATCH':
    'The app that sent you here asked to send you back to an address it has not registered with {tenant}. For your safety, you are not sent there.',
  'authorize.refusedUnknown': 'This sign-in request cannot be used. Go back to the app and start again.',
  'authorize.cannotGoOn': 'This sign-in cannot go on',
  'authorize.expiredTitle': 'This sign-in has expired',
  'authorize.expired': 'This sign-in link has expired or was already used. Go back to the app and start again.',
  'authorize.signingIn': 'Signing you in…',
  'authorize.oneMoment': 'One moment…',
  'authorize.returning': 'Returning to {client}…',
  /** `{link}` is a link, authorize.continueTo. */
  'authorize.ifNothing': 'If nothing happens, {link}.',
  'authorize.continueTo': 'continue to {client}',
  'authorize.signInTitle': 'Sign in to continue to {client}',
  'authorize.continueTitle': 'Continue to {client}',
  'authorize.confirmReason': '{client} asks you to confirm it is you before going on.',
  'authorize.confirm': 'Confirm it is you',
  'authorize.continuing': 'Continuing to {client}…',
  'authorize.consentTitle': 'Allow {client} to use your {name} account?',
  'authorize.consentPageTitle': 'Allow {client} to use your account?',
  'authorize.asksFor': '{client} asks for:',
  // What each scope lets the app have.
  'authorize.scope.openid': 'Know who you are (your account id)',
  'authorize.scope.profile': 'Your name',
  'authorize.scope.email': 'Your e-mail address',
  'authorize.scope.phone': 'Your phone number',
  'authorize.scope.roles': 'Your roles (what your account may do here)',
  'authorize.scope.offline_access': 'Stay signed in when you are away',
  'authorize.allow': 'Allow',
  'authorize.deny': 'Deny',
  'authorize.signOutLater': 'You can sign {client} out at any time from your account page.',
  /** `{email}` is shown in bold. */
  'authorize.signedInAs': 'Signed in as {email}.',
  'authorize.notYou': 'Not you? Use another account',

  // The end of an app's sign-out (pages/sign-out.tsx).
  'signOut.working': 'Signing you out…',
  'signOut.returningTitle': 'You are signed out',
  /** `{link}` is a link, signOut.continue. */
  'signOut.returning': 'Returning to the app… If nothing happens, {link}.',
  'signOut.continue': 'continue',
  'signOut.title': 'Signed out',
  'signOut.done': 'You are signed out.',
  'signOut.signInAgain': 'Sign in again',

  // Confirming it is you before a guarded change (reauth.tsx).
  'reauth.title': 'Confirm it is you',
  'reauth.why': 'You signed in more than 10 minutes ago. For your safety, prove it is you before this change goes on.',
  'reauth.how': 'How do you want to confirm?',
  'reauth.codeSent': 'We have sent a 6-digit code to {email}. It works for 10 minutes.',
  'reauth.willSend': 'We will e-mail a 6-digit code to {email}.',
  'reauth.totpHint': 'The 6-digit code your authenticator app shows, or one of your backup codes.',
  'reauth.wrongPassword': 'That password is not right.',
  'reauth.wrongCode': 'That code is not right, or it has expired.',
  'reauth.confirm': 'Confirm',
  'reauth.cancel': 'Cancel',
  'reauth.withPasskey': 'Use a passkey',
  /** `{name}`: a sign-in provider linked to the account (its name as the tenant set it). */
  'reauth.withProvider': 'Continue with {name}',
  'reauth.backFrom': 'Confirmed with {name}. Enter your authenticator code to finish.',
  'reauth.confirming': 'Confirming it is you with {name}…',
  'reauth.providerNotLinked':
    'The account you used at {name} is not linked to yours. Continue with the one you linked, or confirm another way.',
  'reauth.providerWrongCode':
    'That code is not right, or it has expired. Enter the code your authenticator app shows now to finish with {name}.',
  /** Stands for `{name}` (after "with", "at") when the provider is no longer the tenant's. */
  'reauth.theProvider': 'the provider',
  'reauth.confirmedTitle': 'You have confirmed it is you',
  'reauth.confirmedText': 'Make your change again: for the next 10 minutes, it goes through without asking.',
  'reauth.close': 'OK',
  // Passkeys on the sign-in pages and in the prompt above.
  'passkey.or': 'or',
  'passkey.signIn': 'Sign in with a passkey',
  'passkey.notKnown': 'This passkey is not one of this account’s, or it was removed. Sign in another way.',
  'passkey.offerTitle': 'Sign in faster next time',
  'passkey.offerText':
    'Add a passkey and sign in to {name} with your fingerprint, your face or your screen lock instead of a password.',
  'passkey.offerHow': 'It stays on this device (or in your password manager); nobody else can use it.',
  'passkey.offerAdd': 'Add a passkey',
  'passkey.offerNotNow': 'Not now',

  // Signing in with a provider (pages/providers.tsx): `{name}` and `{provider}` are its name, as the tenant set it.
  'provider.signInWith': 'Sign in with {name}',
  'provider.signUpWith': 'Sign up with {name}',
  'provider.linkRequired': 'There is already an account for {email}. Sign in to it once to link {provider}.',
  'provider.linkedTitle': '{provider} is linked',
  'provider.linkedText': 'Next time, you can sign in with {provider}.',
  'provider.notLinkedTitle': '{provider} could not be linked',
  'provider.linkLapsed':
    'Linking {provider} took too long. You are signed in: sign in with {provider} again to link it.',
  'provider.continue': 'Continue',
};

export default texts;
