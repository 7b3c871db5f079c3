/**
 * What every page shares, in English, the pages' own language: the frame, the fields, the problem sentences.
 * Every other language has each key (test/web/catalogues.test.ts). `{placeholder}`s are filled by `t`; a key ending
 * `.one` / `.other` is said with a count (`tn`).
 */
const texts = {
  // Problem codes, each as a sentence for the person at the screen (messages.ts).
  'problem.VALIDATION_FAILED': 'Some of what you entered is not valid. Check the highlighted fields.',
  'problem.MALFORMED_JSON': 'The request could not be read. Reload the page and try again.',
  'problem.TENANT_REQUIRED': 'This page does not know which service it belongs to. Open it from your service’s link.',
  'problem.PASSWORD_TOO_COMMON':
    'That password is too common or too easy to guess. Choose a longer, less predictable one.',
  'problem.UNAUTHENTICATED': 'You are signed out. Sign in again to go on.',
  // OAuth's token and revocation endpoints answer these to client apps; a page shows them only if an app passes one on.
  'problem.INVALID_CLIENT': 'The app could not prove who it is to this service. Its owner needs to check its settings.',
  'problem.INVALID_GRANT': 'That sign-in has expired or was already used. Go back to the app and sign in again.',
  'problem.UNAUTHORIZED_CLIENT': 'The app is not allowed to sign in this way. Its owner needs to check its settings.',
  'problem.UNSUPPORTED_GRANT_TYPE': 'The app asked for a kind of sign-in this service does not offer.',
  'problem.INVALID_SCOPE':
    'The app asked for access this service does not give. Its owner needs to check its settings.',
  'problem.UNSUPPORTED_RESPONSE_TYPE': 'The app asked for a kind of sign-in this service does not offer.',
  'problem.REQUEST_NOT_SUPPORTED': 'The app sent its request in a form this service does not accept.',
  'problem.REQUEST_URI_NOT_SUPPORTED': 'The app sent its request in a form this service does not accept.',
  'problem.INVALID_CREDENTIALS': 'The e-mail address or password is not right.',
  'problem.INVALID_CODE': 'That code is not right, or it has expired. Check it or ask for a new one.',
  'problem.REFRESH_TOKEN_INVALID': 'Your session has ended. Sign in again.',
  'problem.REFRESH_TOKEN_REUSED':
    'Your session was ended for your safety because it was used from two places. Sign in again.',
  'problem.SESSION_REVOKED': 'This session was signed out. Sign in again.',
  'problem.FORBIDDEN': 'You do not have permission to do that.',
  'problem.REAUTHENTICATION_REQUIRED': 'For your safety, confirm it is you before making this change.',
  'problem.CONSENT_REQUIRED': 'This app needs your permission to use your account. Allow it, or deny it.',
  'problem.ORIGIN_NOT_ALLOWED': 'This site is not allowed to use this service.',
  'problem.TENANT_MISMATCH': 'You are signed in to a different service. Sign out and sign in here.',
  'problem.TOTP_NOT_ALLOWED': 'Authenticator apps are not enabled for this service.',
  'problem.PASSKEYS_NOT_ALLOWED': 'Passkeys are not enabled for this service.',
  'problem.PASSKEY_NOT_VERIFIED': 'The passkey could not be checked. Please try again.',
  'problem.PASSKEY_LIMIT_REACHED': 'This account has as many passkeys as it can hold. Remove one to add another.',
  'problem.PROVIDER_DISCOVERY_FAILED':
    "The provider's settings could not be read from its issuer. Check the issuer address and try again.",
  'problem.PROVIDER_SIGN_IN_FAILED': 'Signing in with that provider did not work. Please try again.',
  'problem.PROVIDER_SIGN_IN_CANCELLED': 'Signing in with that provider was cancelled. Nothing has changed.',
  'problem.PROVIDER_EMAIL_NOT_VERIFIED':
    'That provider has not verified your e-mail address. Verify it there, or sign in another way.',
  'problem.PROVIDER_ALREADY_LINKED': 'That provider account is already linked to an account here.',
  'problem.LAST_SIGN_IN_METHOD': 'This is your only way to sign in. Add another before removing it.',
  'problem.PROVIDER_LIMIT_REACHED':
    'This service has as many sign-in providers as it can hold. Remove one to add another.',
  'problem.WEBHOOK_URL_NOT_ALLOWED':
    'This address cannot receive webhooks: it must start with https:// and name a public host.',
  'problem.WEBHOOK_LIMIT_REACHED':
    'This service has as many webhook endpoints as it can hold. Delete one to add another.',
  'problem.TOTP_REMOVAL_NOT_ALLOWED': 'This service requires you to keep your authenticator app.',
  'problem.LOGIN_MODE_NOT_ALLOWED': 'This way of signing in is not offered here.',
  'problem.SIGNUP_NOT_ALLOWED': 'Sign-up is by invitation only. Ask an administrator for an invitation.',
  'problem.ACCOUNT_DISABLED': 'This account is disabled. Contact an administrator.',
  'problem.ACCOUNT_INACTIVE': 'This account is not active yet. Finish signing up with the code we e-mailed you.',
  'problem.NOT_FOUND': 'That could not be found. It may have been deleted.',
  'problem.TENANT_NOT_FOUND': 'There is no service at this address.',
  'problem.METHOD_NOT_ALLOWED': 'That action is not available.',
  'problem.CONFLICT': 'Something changed in the meantime. Reload and try again.',
  'problem.ALREADY_EXISTS': 'That already exists.',
  'problem.TOTP_ALREADY_ENABLED': 'An authenticator app is already set up for this account.',
  'problem.PAYLOAD_TOO_LARGE': 'What you entered is too long.',
  'problem.UNSUPPORTED_MEDIA_TYPE': 'The request could not be read. Reload the page and try again.',
  'problem.TOO_MANY_ATTEMPTS': 'Too many attempts. For your safety, wait before trying again.',
  'problem.RATE_LIMITED': 'Too many requests from here. Wait a moment and try again.',
  'problem.INTERNAL': 'Something went wrong on our side. Try again in a moment.',
  'problem.UNAVAILABLE': 'The service is busy or unavailable. Try again in a moment.',
  'problem.NETWORK_ERROR': 'We could not reach the service. Check your connection and try again.',
  'problem.INVALID_RESPONSE': 'The service gave an answer we did not understand. Try again in a moment.',
  'problem.NO_REFRESH_TOKEN': 'You are signed out. Sign in again to go on.',
  'problem.PASSKEYS_UNSUPPORTED': 'This browser cannot use passkeys. Sign in another way, or try another browser.',
  'problem.PASSKEY_CANCELLED': 'The passkey request was closed before it finished. Try again when you are ready.',
  'problem.PASSKEY_ALREADY_ON_DEVICE': 'This device already has a passkey for your account.',
  'problem.PASSKEY_FAILED': 'Your browser could not use a passkey just now. Try again, or sign in another way.',
  // Problem codes that come with Retry-After, said with the wait.
  'wait.TOO_MANY_ATTEMPTS': 'Too many attempts. For your safety, this is locked: try again in {wait}.',
  'wait.RATE_LIMITED': 'Too many requests from here. Try again in {wait}.',
  'wait.UNAVAILABLE': 'The service is busy. Try again in {wait}.',
  'hours.one': '1 hour',
  'hours.other': '{count} hours',
  'minutes.one': '1 minute',
  'minutes.other': '{count} minutes',
  'seconds.one': '1 second',
  'seconds.other': '{count} seconds',

  // A field's problem as a sentence (messages.ts, fieldSentences): `{noun}` is the field's label inside a sentence.
  'field.required': 'Enter your {noun}.',
  'field.requiredCode': 'Enter the {noun}.',
  'field.email': 'Enter an e-mail address, like name@example.com.',
  /** A predicate said of a field's label: "Password needs a digit." */
  'field.predicate': '{label} {predicate}.',
  /** A note that is no predicate, said of a field's label: "Redirect URIs: at least one redirect URI." */
  'field.note': '{label}: {predicate}.',
  // The service's and the SDK's field messages, as the pages say them in a sentence.
  'predicate.atMostCharacters.one': 'must be at most 1 character',
  'predicate.atMostCharacters.other': 'must be at most {count} characters',
  'predicate.needsAtLeastCharacters.one': 'needs at least 1 character',
  'predicate.needsAtLeastCharacters.other': 'needs at least {count} characters',
  'predicate.needsAtMostCharacters.one': 'needs at most 1 character',
  'predicate.needsAtMostCharacters.other': 'needs at most {count} characters',
  'predicate.needsLetter': 'needs a letter',
  'predicate.needsDigit': 'needs a digit',
  'predicate.digits.one': 'must be 1 digit',
  'predicate.digits.other': 'must be {count} digits',
  'predicate.colour': 'must be a #rrggbb colour',
  'predicate.httpsUrl': 'must be an https URL',
  'predicate.httpUrl': 'must be an http or https URL',
  'predicate.repeatedUri': 'must not repeat a URI',
  'predicate.phone': 'must be 5 to 15 digits, with spaces, dashes or parentheses if you like, and + only in front',
  'predicate.notEmpty': 'must not be empty',
  'predicate.tooLong': 'is too long',

  // The rules of a new password, as its checklist lists them (ui.tsx).
  'password.needs': 'It needs:',
  'password.rule.atLeast': 'At least {count} characters',
  'password.rule.atMost': 'At most {count} characters',
  'password.rule.letter': 'A letter',
  'password.rule.digit': 'A digit',
  'password.rule.done': '(done)',
  'password.advice': 'A long phrase is best; a common password is refused.',
  'password.show': 'Show',
  'password.hide': 'Hide',
  /** After Show or Hide, for screen readers only. */
  'password.showWhat': 'password',

  'table.actions': 'Actions',
  'agent.unknownDevice': 'an unknown device',
  /** A browser and a system, parsed from a user agent: "Firefox on Windows". */
  'agent.browserOn': '{browser} on {system}',

  // The frame of the signed-in pages (shell.tsx).
  'shell.skip': 'Skip to content',
  'shell.menu': 'Menu',
  'shell.mainNav': 'Main',
  'shell.account': 'Account',
  'shell.console': 'Console',
  'shell.signOut': 'Sign out',
  'shell.noAccess': 'No access',
  'shell.noAccessText': 'The console is for administrators of this service. Your account is not one.',
  'shell.toAccount': 'Go to your account',

  // The foot of every page (footer.tsx).
  'footer.policies': '{name}’s policies',
  'footer.privacy': 'Privacy policy',
  'footer.terms': 'Terms of service',
  'footer.newTab': '(opens in a new tab)',
  'footer.language': 'Language',

  // A page that could not start, or is not there (main.tsx, app.tsx).
  'boot.failed': 'This page cannot be shown',
  'boot.tryAgain': 'Try again',
  'boot.notFound': 'Page not found',
  'boot.toSignIn': 'Go to sign-in',
};

export default texts;
