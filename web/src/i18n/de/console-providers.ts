import type en from '../en/console-providers.ts';

/** The console's texts, in German (Sie): sign-in providers, and the providers a user has linked. */
const texts: Record<keyof typeof en, string> = {
  'console.section.providers': 'Anmeldeanbieter',

  'providers.title': 'Anmeldeanbieter',
  'providers.intro':
    'Lassen Sie Menschen sich mit einem Konto anmelden, das sie schon haben: bei Google, Apple, Microsoft, GitHub oder einem beliebigen OpenID-Anbieter. Jeder eingeschaltete Anbieter erscheint als Schaltfläche „Anmelden mit …“ auf Ihrer Anmeldeseite, in der hier angegebenen Reihenfolge.',
  'providers.heading': 'Anbieter',
  'providers.table': 'Anmeldeanbieter in der Reihenfolge ihrer Schaltflächen',
  'providers.loading': 'Die Anmeldeanbieter werden geladen…',
  'providers.empty':
    'Es gibt noch keine Anmeldeanbieter. Mit einem Anbieter melden sich Menschen statt mit Passwort oder Code mit ihrem Google-, Apple-, Microsoft- oder GitHub-Konto an, oder mit einem Konto bei einem OpenID-Anbieter Ihrer Wahl: Seine Schaltfläche erscheint auf Ihrer Anmeldeseite.',
  'providers.add': 'Anbieter hinzufügen',
  'providers.column.name': 'Name',
  'providers.column.kind': 'Art',
  'providers.column.enabled': 'Status',
  'providers.column.trustEmail': 'Für E-Mail vertraut',
  'providers.column.order': 'Reihenfolge',
  'providers.on': 'Ein',
  'providers.off': 'Aus',
  'providers.yes': 'Ja',
  'providers.no': 'Nein',
  'providers.back': 'Zurück zu den Anmeldeanbietern',

  'providers.addTitle': 'Anmeldeanbieter hinzufügen',
  'providers.addIntro':
    'Legen Sie zuerst beim Anbieter eine App (einen OAuth-Client) an; er gibt Ihnen eine Client-ID und ein Secret. Sobald Sie den Anbieter hier hinzugefügt haben, zeigt seine Seite die Redirect-URI, die Sie dort eintragen.',
  'providers.addHeading': 'Anbieter',
  'providers.addButton': 'Anbieter hinzufügen',
  'providers.cancel': 'Abbrechen',
  'providers.added':
    'Der Anbieter „{name}“ ist hinzugefügt. Tragen Sie seine Redirect-URI beim Anbieter ein, bevor jemand ihn verwendet.',
  'providers.leaveQuestion': 'Der Anbieter ist nicht gespeichert. Diese Seite verlassen und die Eingaben verwerfen?',

  'providers.kind': 'Art',
  'providers.kindIs': 'Art:',
  'providers.kindNever':
    'Die Art eines Anbieters ändert sich nie: Fügen Sie für eine andere einen neuen Anbieter hinzu.',
  'providers.kind.GOOGLE': 'Google',
  'providers.kind.APPLE': 'Apple',
  'providers.kind.MICROSOFT': 'Microsoft',
  'providers.kind.GITHUB': 'GitHub',
  'providers.kind.OIDC': 'Beliebiger OpenID-Anbieter',
  'providers.kindNote.GOOGLE': 'Google-Konten, auch Gmail und Google Workspace.',
  'providers.kindNote.APPLE': 'Apple Accounts. Setzt eine Mitgliedschaft im Apple Developer Program voraus.',
  'providers.kindNote.MICROSOFT': 'Geschäfts- und Schulkonten (Microsoft Entra ID) sowie persönliche Microsoft-Konten.',
  'providers.kindNote.GITHUB': 'GitHub-Konten.',
  'providers.kindNote.OIDC': 'Jeder Anbieter, der OpenID Connect unterstützt, etwa Okta, Auth0, Keycloak oder GitLab.',

  'providers.issuer': 'Issuer-URL',
  'providers.issuerHint':
    'Die Adresse des Anbieters, von der seine Einstellungen gelesen werden (sein /.well-known/openid-configuration), etwa https://login.example.com.',
  'providers.displayName': 'Name auf der Schaltfläche',
  'providers.displayNameOptional': 'Name auf der Schaltfläche (optional)',
  'providers.displayNameHint': 'Man sieht „Anmelden mit …“ und diesen Namen; leer für {name}.',
  'providers.displayNameHintOidc':
    'Man sieht „Anmelden mit …“ und diesen Namen, etwa den Namen der Anmeldung Ihres Unternehmens.',
  'providers.directory': 'Verzeichnis (optional)',
  'providers.directoryHint': 'Wer sich anmelden darf:',
  'providers.directory.common': '{value} (Standard): Geschäfts-, Schul- und persönliche Microsoft-Konten.',
  'providers.directory.organizations': '{value}: nur Geschäfts- und Schulkonten.',
  'providers.directory.consumers': '{value}: nur persönliche Microsoft-Konten.',
  'providers.directory.single':
    'Oder die ID oder Domain eines Verzeichnisses (etwa contoso.onmicrosoft.com): nur dessen Mitglieder.',
  'providers.clientId': 'Client-ID',
  'providers.servicesId': 'Services ID',
  'providers.clientIdHint.GOOGLE':
    'Die Client-ID des OAuth-Clients (Typ Webanwendung) in der Google Cloud Console, unter APIs & Dienste › Anmeldedaten.',
  'providers.clientIdHint.APPLE':
    'Die Kennung der für „Sign in with Apple“ eingerichteten Services ID, etwa com.example.signin.',
  'providers.clientIdHint.MICROSOFT': 'Die Anwendungs-ID (Client-ID) der App-Registrierung in Microsoft Entra.',
  'providers.clientIdHint.GITHUB': 'Die Client ID der OAuth-App in den Developer settings von GitHub.',
  'providers.clientIdHint.OIDC': 'Die Client-ID, die der Anbieter Ihrer App gegeben hat.',
  'providers.clientSecret': 'Client-Secret',
  'providers.secretHint':
    'Das Secret, das der Anbieter Ihrer App gegeben hat. Es wird verschlüsselt gespeichert und nie wieder angezeigt.',
  'providers.secretHint.GITHUB':
    'Ein für die OAuth-App erzeugtes Client-Secret. Es wird verschlüsselt gespeichert und nie wieder angezeigt.',
  'providers.secretKeep':
    'Leer lassen, um das gespeicherte Secret zu behalten. Ein hier eingegebenes Secret ersetzt es.',
  'providers.teamId': 'Team-ID',
  'providers.teamIdHint':
    'Zehn Buchstaben und Ziffern, zu finden in den Mitgliedschaftsdetails Ihres Apple-Developer-Kontos.',
  'providers.keyId': 'Key-ID',
  'providers.keyIdHint': 'Zehn Buchstaben und Ziffern: die ID des für „Sign in with Apple“ aktivierten Schlüssels.',
  'providers.privateKey': 'Privater Schlüssel (.p8)',
  'providers.privateKeyHint':
    'Öffnen Sie die .p8-Datei, die Apple Sie einmal herunterladen ließ, und fügen Sie ihren ganzen Inhalt hier ein. Er wird verschlüsselt gespeichert und nie wieder angezeigt.',
  'providers.privateKeyKeep':
    'Leer lassen, um den gespeicherten Schlüssel zu behalten. Um Team- oder Key-ID zu ändern, fügen Sie den zugehörigen Schlüssel ein.',
  'providers.scopes': 'Scopes (optional)',
  'providers.scopesHint':
    'Durch Leerzeichen getrennt; leer für die angezeigten. openid wird immer angefragt. Fragen Sie weitere nur an, wenn Ihre App sie braucht.',
  'providers.scopesHintGithub':
    'Durch Leerzeichen getrennt; leer für die angezeigten, die das Konto und seine Adressen lesen.',
  'providers.order': 'Reihenfolge (optional)',
  'providers.orderHint':
    'Eine Zahl von 0 bis 99: Die niedrigste steht unter den Schaltflächen zuerst. Leer: nach den anderen.',
  'providers.orderHintEdit': 'Eine Zahl von 0 bis 99: Die niedrigste steht unter den Schaltflächen zuerst.',
  'providers.enabled': 'Eingeschaltet',
  'providers.enabledNote':
    'Seine Schaltfläche erscheint auf Ihrer Anmeldeseite. Ausgeschaltet zeigt er keine Schaltfläche und niemand meldet sich mit ihm an; die mit ihm verknüpften Konten bleiben aber verknüpft.',
  'providers.trustEmail': 'Den bestätigten E-Mail-Adressen dieses Anbieters vertrauen',
  'providers.trustEmailNote':
    'Wessen Adresse dieser Anbieter bestätigt hat, wird beim bestehenden Konto mit dieser Adresse angemeldet, ohne sich zuerst anders anzumelden. Lassen Sie dies aus, wenn Sie dem Anbieter nicht zutrauen, Adressen zu prüfen: Sonst meldet man sich zuerst mit Passwort, Code oder Passkey an, um den Anbieter zu verknüpfen.',

  'providers.field.displayName': 'Name auf der Schaltfläche',
  'providers.field.clientId': 'Client-ID',
  'providers.field.clientSecret': 'Client-Secret',
  'providers.field.teamId': 'Team-ID',
  'providers.field.keyId': 'Key-ID',
  'providers.field.privateKey': 'Privater Schlüssel',
  'providers.field.issuer': 'Issuer-URL',
  'providers.field.directory': 'Verzeichnis',
  'providers.field.scopes': 'Scopes',
  'providers.field.order': 'Reihenfolge',
  'providers.problem.name': 'Geben Sie den Namen ein, den man auf der Schaltfläche sieht.',
  'providers.problem.nameLength': 'Der Name auf der Schaltfläche darf höchstens {max} Zeichen haben.',
  'providers.problem.clientId': 'Geben Sie die Client-ID ein.',
  'providers.problem.clientSecret': 'Geben Sie das Client-Secret ein.',
  'providers.problem.teamId': 'Geben Sie die Team-ID ein: zehn Großbuchstaben und Ziffern.',
  'providers.problem.keyId': 'Geben Sie die Key-ID ein: zehn Großbuchstaben und Ziffern.',
  'providers.problem.privateKey': 'Fügen Sie den privaten Schlüssel aus der .p8-Datei ein.',
  'providers.problem.privateKeyForm':
    'Das ist kein .p8-Schlüssel: Fügen Sie die ganze Datei ein, mit ihrer BEGIN- und ihrer END-Zeile.',
  'providers.problem.privateKeyAgain': 'Fügen Sie den privaten Schlüssel ein, der zur neuen Team- oder Key-ID gehört.',
  'providers.problem.issuer': 'Geben Sie die Issuer-URL des Anbieters ein.',
  'providers.problem.issuerUrl': 'Geben Sie eine vollständige Adresse ein, beginnend mit https://.',
  'providers.problem.issuerQuery': 'Die Issuer-URL darf keine Abfrage (?) und kein Fragment (#) haben.',
  'providers.problem.directory':
    'Geben Sie common, organizations, consumers oder die ID oder Domain eines Verzeichnisses ein (Buchstaben, Ziffern, Punkte und Bindestriche).',
  'providers.problem.scope':
    '„{scope}“ ist kein Scope: Scopes werden durch Leerzeichen getrennt, ohne Anführungszeichen oder Backslashes.',
  'providers.problem.scopes': 'Höchstens {max} Scopes.',
  'providers.problem.order': 'Geben Sie eine ganze Zahl von 0 bis 99 ein, oder lassen Sie das Feld leer.',
  'providers.problem.detail': 'Was schiefging: {detail}.',
  'providers.predicate.appleId': 'muss aus zehn Großbuchstaben oder Ziffern bestehen',
  'providers.predicate.p8': 'muss der ganze .p8-Schlüssel sein',
  'providers.predicate.absolute': 'muss eine vollständige Adresse sein, etwa https://login.example.com',
  'providers.predicate.queryFragment': 'darf keine Abfrage (?) und kein Fragment (#) haben',
  'providers.predicate.scope': 'müssen durch Leerzeichen getrennte Scopes sein',
  'providers.predicate.directory':
    'muss common, organizations, consumers oder die ID oder Domain eines Verzeichnisses sein',
  'providers.gone': 'Diesen Anmeldeanbieter gibt es nicht, oder er wurde gelöscht.',

  'providers.providerTitle': 'Anmeldeanbieter',
  'providers.loadingOne': 'Der Anmeldeanbieter wird geladen…',
  'providers.redirectHeading': 'Redirect-URI',
  'providers.register.GOOGLE':
    'Öffnen Sie in der Google Cloud Console APIs & Dienste › Anmeldedaten und Ihren OAuth-Client, und fügen Sie diese Adresse unter „Autorisierte Weiterleitungs-URIs“ hinzu.',
  'providers.register.APPLE':
    'Öffnen Sie in Ihrem Apple-Developer-Konto Certificates, Identifiers & Profiles › Identifiers und Ihre Services ID, konfigurieren Sie „Sign in with Apple“, und fügen Sie diese Adresse unter „Return URLs“ hinzu.',
  'providers.register.MICROSOFT':
    'Öffnen Sie im Microsoft Entra Admin Center App-Registrierungen, Ihre App und Authentifizierung, und fügen Sie diese Adresse als „Umleitungs-URI“ der Plattform Web hinzu.',
  'providers.register.GITHUB':
    'Öffnen Sie bei GitHub Settings › Developer settings › OAuth Apps und Ihre App, und tragen Sie diese Adresse als „Authorization callback URL“ ein.',
  'providers.register.OIDC':
    'Fügen Sie diese Adresse in den Einstellungen Ihrer App (des Clients) beim Anbieter zu den erlaubten Redirect-URIs hinzu; manche Anbieter nennen sie Callback- oder Rücksprung-URLs.',
  'providers.copy': 'Redirect-URI kopieren',
  'providers.copied': 'Die Redirect-URI ist in die Zwischenablage kopiert.',
  'providers.noClipboard':
    'Die Zwischenablage ist hier nicht verfügbar. Die Redirect-URI ist markiert: Kopieren Sie sie mit der Tastatur.',
  'providers.issuerIs': 'Issuer',
  'providers.status': 'Status',
  'providers.secretSet': 'Secret gesetzt',
  'providers.keySet': 'Schlüssel gesetzt',
  'providers.created': 'Hinzugefügt',
  'providers.editHeading': 'Einstellungen',
  'providers.save': 'Änderungen speichern',
  'providers.unsaved': 'Nicht gespeicherte Änderungen',
  'providers.saved': 'Der Anbieter „{name}“ ist gespeichert.',
  'providers.nothingChanged': 'Es wurde nichts geändert.',
  'providers.deleteHeading': 'Diesen Anbieter löschen',
  'providers.deleteIntro':
    'Seine Schaltfläche verschwindet von Ihrer Anmeldeseite, und wer sein Konto bei diesem Anbieter verknüpft hat, kann sich nicht mehr damit anmelden. Um ihn nur eine Zeit lang abzustellen, schalten Sie ihn stattdessen aus.',
  'providers.delete': 'Anbieter löschen',
  'providers.deleteQuestion':
    '{name} löschen? Wer sein Konto bei diesem Anbieter verknüpft hat, kann sich nicht mehr damit anmelden, sondern meldet sich mit Passwort, Code oder Passkey an. Das lässt sich nicht rückgängig machen.',
  'providers.deleteConfirm': 'Löschen',
  'providers.deleted': 'Der Anbieter „{name}“ wurde gelöscht.',
  'providers.deletedAlready': 'Der Anbieter „{name}“ war bereits gelöscht.',

  'user.identities.title': 'Anmeldeanbieter',
  'user.identities.table': 'Verknüpfte Anmeldeanbieter',
  'user.identities.loading': 'Die verknüpften Anmeldeanbieter werden geladen…',
  'user.identities.none': 'Der Benutzer hat kein Konto bei einem Anmeldeanbieter verknüpft.',
  'user.identities.provider': 'Anbieter',
  'user.identities.email': 'Adresse',
  'user.identities.linked': 'Verknüpft',
  'user.identities.lastUsed': 'Zuletzt verwendet',
  'user.identities.deletedProvider': 'Ein gelöschter Anbieter',
};

export default texts;
