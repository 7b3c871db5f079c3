import type en from '../en/common.ts';

/** What every page shares, in German: formal address (Sie), the keys and placeholders of the English texts. */
const texts: Record<keyof typeof en, string> = {
  'problem.VALIDATION_FAILED': 'Einige Angaben sind nicht gültig. Bitte prüfen Sie die markierten Felder.',
  'problem.MALFORMED_JSON':
    'Die Anfrage konnte nicht gelesen werden. Laden Sie die Seite neu und versuchen Sie es noch einmal.',
  'problem.TENANT_REQUIRED':
    'Diese Seite weiß nicht, zu welchem Dienst sie gehört. Öffnen Sie sie über den Link Ihres Dienstes.',
  'problem.PASSWORD_TOO_COMMON':
    'Dieses Passwort ist zu verbreitet oder zu leicht zu erraten. Wählen Sie ein längeres, weniger vorhersehbares.',
  'problem.UNAUTHENTICATED': 'Sie sind abgemeldet. Melden Sie sich wieder an, um fortzufahren.',
  'problem.INVALID_CLIENT':
    'Die App konnte sich bei diesem Dienst nicht ausweisen. Ihr Betreiber muss ihre Einstellungen prüfen.',
  'problem.INVALID_GRANT':
    'Diese Anmeldung ist abgelaufen oder wurde schon verwendet. Gehen Sie zurück zur App und melden Sie sich erneut an.',
  'problem.UNAUTHORIZED_CLIENT':
    'Die App darf sich auf diese Weise nicht anmelden. Ihr Betreiber muss ihre Einstellungen prüfen.',
  'problem.UNSUPPORTED_GRANT_TYPE': 'Die App hat eine Art der Anmeldung angefragt, die dieser Dienst nicht anbietet.',
  'problem.INVALID_SCOPE':
    'Die App hat Zugriff angefragt, den dieser Dienst nicht gewährt. Ihr Betreiber muss ihre Einstellungen prüfen.',
  'problem.UNSUPPORTED_RESPONSE_TYPE':
    'Die App hat eine Art der Anmeldung angefragt, die dieser Dienst nicht anbietet.',
  'problem.REQUEST_NOT_SUPPORTED': 'Die App hat ihre Anfrage in einer Form gesendet, die dieser Dienst nicht annimmt.',
  'problem.REQUEST_URI_NOT_SUPPORTED':
    'Die App hat ihre Anfrage in einer Form gesendet, die dieser Dienst nicht annimmt.',
  'problem.INVALID_CREDENTIALS': 'E-Mail-Adresse oder Passwort stimmen nicht.',
  'problem.INVALID_CODE':
    'Dieser Code stimmt nicht oder ist abgelaufen. Prüfen Sie ihn oder fordern Sie einen neuen an.',
  'problem.REFRESH_TOKEN_INVALID': 'Ihre Sitzung ist beendet. Melden Sie sich erneut an.',
  'problem.REFRESH_TOKEN_REUSED':
    'Ihre Sitzung wurde zu Ihrer Sicherheit beendet, weil sie an zwei Orten verwendet wurde. Melden Sie sich erneut an.',
  'problem.SESSION_REVOKED': 'Diese Sitzung wurde abgemeldet. Melden Sie sich erneut an.',
  'problem.FORBIDDEN': 'Dazu fehlt Ihnen die Berechtigung.',
  'problem.REAUTHENTICATION_REQUIRED':
    'Bestätigen Sie zu Ihrer Sicherheit, dass Sie es sind, bevor Sie diese Änderung vornehmen.',
  'problem.CONSENT_REQUIRED':
    'Diese App braucht Ihre Erlaubnis, um Ihr Konto zu verwenden. Erlauben Sie es oder lehnen Sie ab.',
  'problem.ORIGIN_NOT_ALLOWED': 'Diese Website darf diesen Dienst nicht verwenden.',
  'problem.TENANT_MISMATCH': 'Sie sind bei einem anderen Dienst angemeldet. Melden Sie sich ab und hier wieder an.',
  'problem.TOTP_NOT_ALLOWED': 'Authenticator-Apps sind für diesen Dienst nicht freigeschaltet.',
  'problem.PASSKEYS_NOT_ALLOWED': 'Passkeys sind für diesen Dienst nicht freigeschaltet.',
  'problem.PASSKEY_NOT_VERIFIED': 'Der Passkey konnte nicht geprüft werden. Bitte versuchen Sie es erneut.',
  'problem.PASSKEY_LIMIT_REACHED':
    'Dieses Konto hat bereits so viele Passkeys wie möglich. Entfernen Sie einen, um einen weiteren hinzuzufügen.',
  'problem.PROVIDER_DISCOVERY_FAILED':
    'Die Einstellungen des Anbieters konnten nicht von seinem Aussteller gelesen werden. Prüfen Sie die Adresse und versuchen Sie es erneut.',
  'problem.PROVIDER_SIGN_IN_FAILED':
    'Die Anmeldung über diesen Anbieter hat nicht funktioniert. Bitte versuchen Sie es erneut.',
  'problem.PROVIDER_SIGN_IN_CANCELLED':
    'Die Anmeldung über diesen Anbieter wurde abgebrochen. Es hat sich nichts geändert.',
  'problem.PROVIDER_EMAIL_NOT_VERIFIED':
    'Dieser Anbieter hat Ihre E-Mail-Adresse nicht bestätigt. Bestätigen Sie sie dort, oder melden Sie sich anders an.',
  'problem.PROVIDER_ALREADY_LINKED': 'Dieses Konto des Anbieters ist hier bereits mit einem Konto verknüpft.',
  'problem.LAST_SIGN_IN_METHOD':
    'Dies ist Ihre einzige Möglichkeit, sich anzumelden. Fügen Sie zuerst eine andere hinzu.',
  'problem.PROVIDER_LIMIT_REACHED':
    'Dieser Dienst hat so viele Anmeldeanbieter, wie er haben kann. Entfernen Sie einen, um einen weiteren hinzuzufügen.',
  'problem.WEBHOOK_URL_NOT_ALLOWED':
    'An diese Adresse können keine Webhooks gesendet werden. Die Adresse muss mit https:// beginnen und einen öffentlichen Host nennen.',
  'problem.WEBHOOK_LIMIT_REACHED':
    'Dieser Dienst hat so viele Webhook-Endpunkte, wie er haben kann. Löschen Sie einen, um einen weiteren hinzuzufügen.',
  'problem.TOTP_REMOVAL_NOT_ALLOWED': 'Bei diesem Dienst müssen Sie Ihre Authenticator-App behalten.',
  'problem.LOGIN_MODE_NOT_ALLOWED': 'Diese Art der Anmeldung wird hier nicht angeboten.',
  'problem.SIGNUP_NOT_ALLOWED':
    'Registrieren ist nur mit Einladung möglich. Bitten Sie eine Administratorin oder einen Administrator darum.',
  'problem.ACCOUNT_DISABLED':
    'Dieses Konto ist gesperrt. Wenden Sie sich an eine Administratorin oder einen Administrator.',
  'problem.ACCOUNT_INACTIVE':
    'Dieses Konto ist noch nicht aktiv. Schließen Sie die Registrierung mit dem Code ab, den wir Ihnen gemailt haben.',
  'problem.NOT_FOUND': 'Das wurde nicht gefunden. Vielleicht wurde es gelöscht.',
  'problem.TENANT_NOT_FOUND': 'Unter dieser Adresse gibt es keinen Dienst.',
  'problem.METHOD_NOT_ALLOWED': 'Diese Aktion ist nicht verfügbar.',
  'problem.CONFLICT': 'Inzwischen hat sich etwas geändert. Laden Sie neu und versuchen Sie es noch einmal.',
  'problem.ALREADY_EXISTS': 'Das gibt es schon.',
  'problem.TOTP_ALREADY_ENABLED': 'Für dieses Konto ist bereits eine Authenticator-App eingerichtet.',
  'problem.PAYLOAD_TOO_LARGE': 'Ihre Eingabe ist zu lang.',
  'problem.UNSUPPORTED_MEDIA_TYPE':
    'Die Anfrage konnte nicht gelesen werden. Laden Sie die Seite neu und versuchen Sie es noch einmal.',
  'problem.TOO_MANY_ATTEMPTS': 'Zu viele Versuche. Warten Sie zu Ihrer Sicherheit, bevor Sie es erneut versuchen.',
  'problem.RATE_LIMITED': 'Zu viele Anfragen von hier. Warten Sie einen Moment und versuchen Sie es dann noch einmal.',
  'problem.INTERNAL': 'Bei uns ist etwas schiefgegangen. Versuchen Sie es gleich noch einmal.',
  'problem.UNAVAILABLE': 'Der Dienst ist ausgelastet oder nicht erreichbar. Versuchen Sie es gleich noch einmal.',
  'problem.NETWORK_ERROR':
    'Der Dienst ist nicht erreichbar. Prüfen Sie Ihre Verbindung und versuchen Sie es noch einmal.',
  'problem.PASSKEYS_UNSUPPORTED':
    'Dieser Browser kann keine Passkeys verwenden. Melden Sie sich anders an oder versuchen Sie einen anderen Browser.',
  'problem.PASSKEY_CANCELLED':
    'Die Passkey-Abfrage wurde geschlossen, bevor sie fertig war. Versuchen Sie es erneut, wenn Sie bereit sind.',
  'problem.PASSKEY_ALREADY_ON_DEVICE': 'Dieses Gerät hat bereits einen Passkey für Ihr Konto.',
  'problem.PASSKEY_FAILED':
    'Ihr Browser konnte gerade keinen Passkey verwenden. Versuchen Sie es erneut oder melden Sie sich anders an.',
  'problem.INVALID_RESPONSE':
    'Der Dienst hat eine Antwort gegeben, die wir nicht verstehen. Versuchen Sie es gleich noch einmal.',
  'problem.NO_REFRESH_TOKEN': 'Sie sind abgemeldet. Melden Sie sich wieder an, um fortzufahren.',

  'wait.TOO_MANY_ATTEMPTS':
    'Zu viele Versuche. Zu Ihrer Sicherheit ist dies gesperrt: Versuchen Sie es in {wait} wieder.',
  'wait.RATE_LIMITED': 'Zu viele Anfragen von hier. Versuchen Sie es in {wait} wieder.',
  'wait.UNAVAILABLE': 'Der Dienst ist ausgelastet. Versuchen Sie es in {wait} wieder.',
  'hours.one': '1 Stunde',
  'hours.other': '{count} Stunden',
  'minutes.one': '1 Minute',
  'minutes.other': '{count} Minuten',
  'seconds.one': '1 Sekunde',
  'seconds.other': '{count} Sekunden',

  'field.required': 'Bitte {noun} eingeben.',
  'field.requiredCode': 'Bitte {noun} eingeben.',
  'field.email': 'Geben Sie eine E-Mail-Adresse ein, etwa name@example.com.',
  'field.predicate': '{label}: {predicate}.',
  'field.note': '{label}: {predicate}.',
  'predicate.atMostCharacters.one': 'höchstens 1 Zeichen',
  'predicate.atMostCharacters.other': 'höchstens {count} Zeichen',
  'predicate.needsAtLeastCharacters.one': 'mindestens 1 Zeichen',
  'predicate.needsAtLeastCharacters.other': 'mindestens {count} Zeichen',
  'predicate.needsAtMostCharacters.one': 'höchstens 1 Zeichen',
  'predicate.needsAtMostCharacters.other': 'höchstens {count} Zeichen',
  'predicate.needsLetter': 'braucht einen Buchstaben',
  'predicate.needsDigit': 'braucht eine Ziffer',
  'predicate.digits.one': 'genau 1 Ziffer',
  'predicate.digits.other': 'genau {count} Ziffern',
  'predicate.colour': 'eine Farbe im Format #rrggbb',
  'predicate.httpsUrl': 'eine https-Adresse',
  'predicate.httpUrl': 'eine http- oder https-Adresse',
  'predicate.repeatedUri': 'keine Adresse doppelt',
  'predicate.phone': '5 bis 15 Ziffern, gern mit Leerzeichen, Bindestrichen oder Klammern, ein + nur am Anfang',
  'predicate.notEmpty': 'darf nicht leer sein',
  'predicate.tooLong': 'ist zu lang',

  'password.needs': 'Es braucht:',
  'password.rule.atLeast': 'Mindestens {count} Zeichen',
  'password.rule.atMost': 'Höchstens {count} Zeichen',
  'password.rule.letter': 'Einen Buchstaben',
  'password.rule.digit': 'Eine Ziffer',
  'password.rule.done': '(erfüllt)',
  'password.advice': 'Ein langer Satz ist am besten; ein verbreitetes Passwort wird abgelehnt.',
  'password.show': 'Zeigen',
  'password.hide': 'Verbergen',
  'password.showWhat': 'Passwort',

  'table.actions': 'Aktionen',
  'agent.unknownDevice': 'ein unbekanntes Gerät',
  'agent.browserOn': '{browser} auf {system}',

  'shell.skip': 'Zum Inhalt springen',
  'shell.menu': 'Menü',
  'shell.mainNav': 'Hauptmenü',
  'shell.account': 'Konto',
  'shell.console': 'Konsole',
  'shell.signOut': 'Abmelden',
  'shell.noAccess': 'Kein Zugang',
  'shell.noAccessText': 'Die Konsole ist für Administratoren dieses Dienstes. Ihr Konto gehört nicht dazu.',
  'shell.toAccount': 'Zu Ihrem Konto',

  'footer.policies': 'Richtlinien von {name}',
  'footer.privacy': 'Datenschutzerklärung',
  'footer.terms': 'Nutzungsbedingungen',
  'footer.newTab': '(öffnet in einem neuen Tab)',
  'footer.language': 'Sprache',

  'boot.failed': 'Diese Seite kann nicht angezeigt werden',
  'boot.tryAgain': 'Erneut versuchen',
  'boot.notFound': 'Seite nicht gefunden',
  'boot.toSignIn': 'Zur Anmeldung',
};

export default texts;
