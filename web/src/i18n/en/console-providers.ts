/** The console's texts in English: sign-in providers, and the providers a user has linked. */
const texts = {
  'console.section.providers': 'Sign-in providers',

  // The list (sign-in-providers.tsx).
  'providers.title': 'Sign-in providers',
  'providers.intro':
    'Let people sign in with an account they already have: Google, Apple, Microsoft, GitHub or any OpenID provider. Each provider that is turned on shows as a “Sign in with …” button on your sign-in page, in the order given here.',
  'providers.heading': 'Providers',
  'providers.table': 'Sign-in providers, in the order of their buttons',
  'providers.loading': 'Loading the sign-in providers…',
  'providers.empty':
    'There are no sign-in providers yet. A provider lets people sign in with their Google, Apple, Microsoft or GitHub account, or an account at any OpenID provider you choose, instead of a password or code: its button shows on your sign-in page.',
  'providers.add': 'Add a provider',
  'providers.column.name': 'Name',
  'providers.column.kind': 'Kind',
  'providers.column.enabled': 'Status',
  'providers.column.trustEmail': 'Trusted for e-mail',
  'providers.column.order': 'Order',
  'providers.on': 'On',
  'providers.off': 'Off',
  'providers.yes': 'Yes',
  'providers.no': 'No',
  'providers.back': 'Back to the sign-in providers',

  // Adding one.
  'providers.addTitle': 'Add a sign-in provider',
  'providers.addIntro':
    'First create an app (an OAuth client) at the provider; it gives you a client ID and a secret. Once you add the provider here, its page shows the redirect URI to register there.',
  'providers.addHeading': 'Provider',
  'providers.addButton': 'Add provider',
  'providers.cancel': 'Cancel',
  'providers.added': 'The provider “{name}” is added. Register its redirect URI at the provider before people use it.',
  'providers.leaveQuestion': 'The provider is not saved. Leave this page and lose what you entered?',

  // The kinds.
  'providers.kind': 'Kind',
  'providers.kindIs': 'Kind:',
  'providers.kindNever': 'A provider’s kind never changes: add a new provider for another.',
  'providers.kind.GOOGLE': 'Google',
  'providers.kind.APPLE': 'Apple',
  'providers.kind.MICROSOFT': 'Microsoft',
  'providers.kind.GITHUB': 'GitHub',
  'providers.kind.OIDC': 'Any OpenID provider',
  'providers.kindNote.GOOGLE': 'Google accounts, including Gmail and Google Workspace.',
  'providers.kindNote.APPLE': 'Apple Accounts. Needs a membership of the Apple Developer Program.',
  'providers.kindNote.MICROSOFT': 'Work and school accounts (Microsoft Entra ID) and personal Microsoft accounts.',
  'providers.kindNote.GITHUB': 'GitHub accounts.',
  'providers.kindNote.OIDC': 'Any provider that supports OpenID Connect, such as Okta, Auth0, Keycloak or GitLab.',

  // The fields (sign-in-provider-fields.tsx).
  'providers.issuer': 'Issuer URL',
  'providers.issuerHint':
    'The provider’s address, where its settings are read from (its /.well-known/openid-configuration), such as https://login.example.com.',
  'providers.displayName': 'Name on the button',
  'providers.displayNameOptional': 'Name on the button (optional)',
  'providers.displayNameHint': 'People see “Sign in with …” and this name; empty for {name}.',
  'providers.displayNameHintOidc':
    'People see “Sign in with …” and this name, such as the name of your company’s login.',
  'providers.directory': 'Directory (optional)',
  'providers.directoryHint': 'Who may sign in:',
  'providers.directory.common': '{value} (the default): work, school and personal Microsoft accounts.',
  'providers.directory.organizations': '{value}: work and school accounts only.',
  'providers.directory.consumers': '{value}: personal Microsoft accounts only.',
  'providers.directory.single': 'Or one directory’s ID or domain (such as contoso.onmicrosoft.com): only its members.',
  'providers.clientId': 'Client ID',
  'providers.servicesId': 'Services ID',
  'providers.clientIdHint.GOOGLE':
    'The client ID of the OAuth client (type Web application) in the Google Cloud console, under APIs & Services › Credentials.',
  'providers.clientIdHint.APPLE':
    'The identifier of the Services ID set up for Sign in with Apple, such as com.example.signin.',
  'providers.clientIdHint.MICROSOFT': 'The Application (client) ID of the app registration in Microsoft Entra.',
  'providers.clientIdHint.GITHUB': 'The Client ID of the OAuth app in GitHub’s Developer settings.',
  'providers.clientIdHint.OIDC': 'The client ID the provider gave your app.',
  'providers.clientSecret': 'Client secret',
  'providers.secretHint': 'The secret the provider gave your app. It is stored encrypted and never shown again.',
  'providers.secretHint.GITHUB':
    'A client secret generated for the OAuth app. It is stored encrypted and never shown again.',
  'providers.secretKeep': 'Leave empty to keep the stored secret. A secret entered here replaces it.',
  'providers.teamId': 'Team ID',
  'providers.teamIdHint': 'Ten letters and digits, shown in your Apple Developer account’s membership details.',
  'providers.keyId': 'Key ID',
  'providers.keyIdHint': 'Ten letters and digits: the ID of the key enabled for Sign in with Apple.',
  'providers.privateKey': 'Private key (.p8)',
  'providers.privateKeyHint':
    'Open the .p8 file Apple let you download once, and paste all of it here. It is stored encrypted and never shown again.',
  'providers.privateKeyKeep':
    'Leave empty to keep the stored key. To change the team or key ID, paste the key that goes with them.',
  'providers.scopes': 'Scopes (optional)',
  'providers.scopesHint':
    'Separated by spaces; empty for the ones shown. openid is always asked for. Ask for more only if your app needs them.',
  'providers.scopesHintGithub':
    'Separated by spaces; empty for the ones shown, which read the account and its addresses.',
  'providers.order': 'Order (optional)',
  'providers.orderHint': 'A number from 0 to 99: the lowest comes first among the buttons. Empty: after the others.',
  'providers.orderHintEdit': 'A number from 0 to 99: the lowest comes first among the buttons.',
  'providers.enabled': 'Turned on',
  'providers.enabledNote':
    'Its button shows on your sign-in page. Turned off, it shows no button and no one signs in with it, but the accounts linked to it stay linked.',
  'providers.trustEmail': 'Trust this provider’s verified e-mail addresses',
  'providers.trustEmailNote':
    'A person whose address this provider has verified is signed in to the existing account with that address, without first signing in another way. Leave it off unless you trust the provider to verify addresses: otherwise the person must first sign in with their password, code or passkey to link the provider.',

  // The form's own checks, and the service's, by field.
  'providers.field.displayName': 'Name on the button',
  'providers.field.clientId': 'Client ID',
  'providers.field.clientSecret': 'Client secret',
  'providers.field.teamId': 'Team ID',
  'providers.field.keyId': 'Key ID',
  'providers.field.privateKey': 'Private key',
  'providers.field.issuer': 'Issuer URL',
  'providers.field.directory': 'Directory',
  'providers.field.scopes': 'Scopes',
  'providers.field.order': 'Order',
  'providers.problem.name': 'Enter the name people see on the button.',
  'providers.problem.nameLength': 'The name on the button can have at most {max} characters.',
  'providers.problem.clientId': 'Enter the client ID.',
  'providers.problem.clientSecret': 'Enter the client secret.',
  'providers.problem.teamId': 'Enter the team ID: ten capital letters and digits.',
  'providers.problem.keyId': 'Enter the key ID: ten capital letters and digits.',
  'providers.problem.privateKey': 'Paste the private key from the .p8 file.',
  'providers.problem.privateKeyForm': 'This is not a .p8 key: paste the whole file, its BEGIN and END lines included.',
  'providers.problem.privateKeyAgain': 'Paste the private key that goes with the new team or key ID.',
  'providers.problem.issuer': 'Enter the provider’s issuer URL.',
  'providers.problem.issuerUrl': 'Enter a whole address, starting with https://.',
  'providers.problem.issuerQuery': 'The issuer URL cannot have a query (?) or a fragment (#).',
  'providers.problem.directory':
    'Enter common, organizations, consumers, or one directory’s ID or domain (letters, digits, dots and hyphens).',
  'providers.problem.scope': '“{scope}” is not a scope: scopes are separated by spaces, without quotes or backslashes.',
  'providers.problem.scopes': 'At most {max} scopes.',
  'providers.problem.order': 'Enter a whole number from 0 to 99, or leave it empty.',
  'providers.problem.detail': 'What went wrong: {detail}.',
  'providers.predicate.appleId': 'must be ten capital letters or digits',
  'providers.predicate.p8': 'must be the whole .p8 key',
  'providers.predicate.absolute': 'must be a whole address, such as https://login.example.com',
  'providers.predicate.queryFragment': 'cannot have a query (?) or a fragment (#)',
  'providers.predicate.scope': 'must be scopes separated by spaces',
  'providers.predicate.directory': 'must be common, organizations, consumers, or one directory’s ID or domain',
  'providers.gone': 'This sign-in provider does not exist, or was deleted.',

  // A provider's page.
  'providers.providerTitle': 'Sign-in provider',
  'providers.loadingOne': 'Loading the sign-in provider…',
  'providers.redirectHeading': 'Redirect URI',
  'providers.register.GOOGLE':
    'In the Google Cloud console, open APIs & Services › Credentials and your OAuth client, and add this address under “Authorized redirect URIs”.',
  'providers.register.APPLE':
    'In your Apple Developer account, open Certificates, Identifiers & Profiles › Identifiers and your Services ID, configure Sign in with Apple, and add this address under “Return URLs”.',
  'providers.register.MICROSOFT':
    'In the Microsoft Entra admin center, open App registrations, your app and Authentication, and add this address as a “Redirect URI” of the platform type Web.',
  'providers.register.GITHUB':
    'In GitHub, open Settings › Developer settings › OAuth Apps and your app, and enter this address as its “Authorization callback URL”.',
  'providers.register.OIDC':
    'In the provider’s settings of your app (the client), add this address to the redirect URIs it allows; some providers call them callback or return URLs.',
  'providers.copy': 'Copy the redirect URI',
  'providers.copied': 'The redirect URI is copied to your clipboard.',
  'providers.noClipboard': 'There is no clipboard here. The redirect URI is selected: copy it with your keyboard.',
  'providers.issuerIs': 'Issuer',
  'providers.status': 'Status',
  'providers.secretSet': 'Secret set',
  'providers.keySet': 'Key set',
  'providers.created': 'Added',
  'providers.editHeading': 'Settings',
  'providers.save': 'Save changes',
  'providers.unsaved': 'Unsaved changes',
  'providers.saved': 'The provider “{name}” is saved.',
  'providers.nothingChanged': 'Nothing was changed.',
  'providers.deleteHeading': 'Delete this provider',
  'providers.deleteIntro':
    'Its button leaves your sign-in page, and people who linked their account at this provider can no longer sign in with it. To stop it for a while, turn it off instead.',
  'providers.delete': 'Delete provider',
  'providers.deleteQuestion':
    'Delete {name}? People who linked their account at this provider can no longer sign in with it; they sign in with their password, a code or a passkey instead. This cannot be undone.',
  'providers.deleteConfirm': 'Delete',
  'providers.deleted': 'The provider “{name}” was deleted.',
  'providers.deletedAlready': 'The provider “{name}” had been deleted already.',

  // A user's linked providers (user-identities.tsx).
  'user.identities.title': 'Sign-in providers',
  'user.identities.table': 'Linked sign-in providers',
  'user.identities.loading': 'Loading the linked sign-in providers…',
  'user.identities.none': 'The user has not linked an account at a sign-in provider.',
  'user.identities.provider': 'Provider',
  'user.identities.email': 'Address',
  'user.identities.linked': 'Linked',
  'user.identities.lastUsed': 'Last used',
  'user.identities.deletedProvider': 'A deleted provider',
};

export default texts;
