/** The account page's texts in English. */
const texts = {
  // The page and its sections' links (page.tsx).
  'account.title': 'Your account',
  'account.sections': 'Account sections',
  'account.onThisPage': 'On this page',
  'account.signedInAs': 'Signed in as {email}',
  'account.cancel': 'Cancel',

  // Profile (profile.tsx).
  'account.profile.title': 'Profile',
  'account.profile.firstName': 'First name',
  'account.profile.lastName': 'Last name',
  'account.profile.phone': 'Phone',
  /** The phone field's label inside a sentence ("The phone number must be…"). */
  'account.profile.phoneInSentence': 'The phone number',
  'account.profile.phoneHint': 'Optional. With the country code for a number abroad, such as +44 20 7946 0000.',
  'account.profile.saved': 'Your profile was saved.',
  'account.profile.save': 'Save profile',

  // Password (password.tsx).
  'account.password.title': 'Password',
  'account.password.none':
    '{name} signs you in with a code sent to your e-mail address: there is no password to change.',
  'account.password.current': 'Current password',
  'account.password.new': 'New password',
  'account.password.code': 'Authenticator code',
  'account.password.codeHint': 'The 6-digit code your authenticator app shows, or one of your backup codes.',
  'account.password.wrongCurrent': 'Your current password is not right.',
  'account.password.wrongCode': 'That authenticator code is not right, or it has expired.',
  'account.password.changed':
    'Your password was changed. Every other session of your account was signed out: sign in again there with the new password.',
  'account.password.change': 'Change password',

  // E-mail address (email.tsx).
  'account.email.title': 'E-mail address',
  'account.email.yours': 'Your address is {email}.',
  'account.email.changed': 'Your e-mail address is now {email}. Sign in with it from now on.',
  'account.email.new': 'New e-mail address',
  'account.email.newHint': 'We will send a code to the new address, to check that it is yours.',
  'account.email.send': 'Send a code',
  'account.email.sent':
    'We have sent a 6-digit code to {email}. It works for 10 minutes. Your address changes once you enter it.',
  'account.email.code': 'Code from the e-mail',
  'account.email.wrongCode': 'That code is not right, or it has expired. Check it, or start again for a new one.',
  'account.email.conflict': 'That address cannot be used for this account. Choose another one.',
  'account.email.confirm': 'Change my address',
  'account.email.restart': 'Start again',

  // Two-step verification (totp.tsx, qr.tsx).
  'account.totp.title': 'Two-step verification',
  'account.totp.on': 'On',
  'account.totp.off': 'Off',
  'account.totp.onText':
    'Signing in asks for the code your authenticator app shows, after your password or e-mail code.',
  'account.totp.required': '{name} requires two-step verification: it cannot be turned off.',
  'account.totp.turnedOff': 'Two-step verification is off. Your backup codes no longer work.',
  'account.totp.offText':
    'Add an authenticator app (such as Google Authenticator, Microsoft Authenticator or 1Password): signing in will then also ask for the code it shows, so that a stolen password is not enough.',
  'account.totp.setUp': 'Set up an authenticator app',
  'account.totp.wrongCode':
    'That code is not right. Check the time on your phone, then enter the code the app shows now.',
  'account.totp.scan': '1. Scan this QR code with your authenticator app',
  'account.totp.qr': 'QR code to add this account to an authenticator app',
  'account.totp.byHand':
    'Cannot scan it? Add the account in the app by hand, as a time-based key, with this setup key:',
  'account.totp.enter': '2. Enter the code the app shows',
  'account.totp.code': 'Code from the app',
  'account.totp.turnOn': 'Turn on two-step verification',
  /** The first line of the backup codes' text file. */
  'account.totp.fileTitle': 'Backup codes for {email} at {name}',
  'account.totp.fileYourAccount': 'your account',
  'account.totp.fileText': 'Each code signs you in once, in place of the authenticator app.',
  'account.totp.isOn': 'Two-step verification is on.',
  'account.totp.codesTitle': 'Your backup codes',
  'account.totp.shownOnce': 'These codes are shown only now.',
  'account.totp.keepThem':
    'Save them somewhere safe, away from your phone. If you lose your authenticator app, each code signs you in once.',
  'account.totp.codes': 'Backup codes',
  'account.totp.copy': 'Copy the codes',
  'account.totp.download': 'Download as a text file',
  'account.totp.saved': 'I have saved my backup codes',
  'account.totp.copied': 'The codes are copied to your clipboard.',
  'account.totp.notCopied': 'Copying is not allowed here: select the codes, or download them.',
  'account.totp.disableCode': 'Code from your authenticator app',
  'account.totp.disableHint': 'To turn two-step verification off, enter the code the app shows now, or a backup code.',
  'account.totp.turnOff': 'Turn off two-step verification',

  // Sessions (sessions.tsx).
  'account.sessions.title': 'Where you are signed in',
  'account.sessions.app': '{app} (an app you signed in to with this account)',
  'account.sessions.unknownBrowser': 'Unknown browser',
  'account.sessions.unknownSystem': 'an unknown system',
  'account.sessions.appSignedOut': 'Your sign-in to {app} was signed out.',
  'account.sessions.deviceSignedOut': 'The session on {device} was signed out.',
  'account.sessions.loading': 'Loading your sessions…',
  'account.sessions.table': 'Your sessions',
  'account.sessions.caption': 'Your signed-in sessions, the most recently active first',
  'account.sessions.device': 'Device',
  'account.sessions.ip': 'IP address',
  'account.sessions.lastActive': 'Last active',
  'account.sessions.signedIn': 'Signed in',
  'account.sessions.thisDevice': 'This device',
  'account.sessions.signOut': 'Sign out',
  /** After "Sign out", for screen readers only. */
  'account.sessions.signOutApp': 'your sign-in to {app}, last active {when}',
  'account.sessions.signOutDevice': 'the session on {device}, last active {when}',
  'account.sessions.everywhereQuestion': 'Sign out everywhere?',
  'account.sessions.everywhereText': 'Every session of your account ends, this one too: you will sign in again here.',
  'account.sessions.everywhereYes': 'Yes, sign out everywhere',
  'account.sessions.everywhere': 'Sign out everywhere…',

  // Recent activity (activity.tsx): each kind as the user would say it.
  'account.activity.title': 'Recent activity',
  'account.activity.LOGIN': 'Signed in',
  'account.activity.LOGOUT': 'Signed out',
  'account.activity.LOGIN_FAILED': 'A sign-in failed',
  'account.activity.PASSWORD_CHANGE': 'Password changed',
  'account.activity.EMAIL_CHANGE': 'E-mail address changed',
  'account.activity.TOTP_ENABLED': 'Two-step verification turned on',
  'account.activity.TOTP_DISABLED': 'Two-step verification turned off',
  'account.activity.SESSION_REVOKED': 'A session was signed out',
  'account.activity.ROLE_ASSIGNED': 'A role was given',
  'account.activity.ROLE_REVOKED': 'A role was taken away',
  'account.activity.USER_DISABLED': 'Account disabled',
  'account.activity.USER_ENABLED': 'Account enabled',
  'account.activity.SIGNUP': 'Account created',
  'account.activity.PASSWORD_RESET': 'Password reset',
  'account.activity.USER_COMPROMISED': 'Account marked as compromised',
  'account.activity.ACCOUNT_LOCKED': 'Signing in locked after too many attempts',
  'account.activity.REFRESH_TOKEN_REUSED': 'A session was ended: it was used from two places',
  'account.activity.REFRESH_TOKEN_GRACE': 'A session was renewed twice at once',
  'account.activity.REAUTHENTICATED': 'Confirmed it was you',
  'account.activity.PASSKEY_ADDED': 'Passkey added',
  'account.activity.PASSKEY_REMOVED': 'Passkey removed',
  'account.activity.PASSKEY_COUNTER_MISMATCH': 'Passkey refused: it may have been copied',
  'account.activity.byApiKey': '{what} (by an API key)',
  'account.activity.byAdmin': '{what} (by an administrator)',
  'account.activity.loading': 'Loading your activity…',
  'account.activity.none': 'Nothing yet.',
  'account.activity.list': 'Your activity, newest first',
  'account.activity.more': 'Load more',
};

export default texts;
