import type en from '../en/pages.ts';

/** The sign-in pages' texts, in German (Sie): sign-in, sign-up, codes, password reset, the OpenID Connect pages, re-authentication. */
const texts: Record<keyof typeof en, string> = {
  'signIn.title': 'Bei {name} anmelden',
  'signIn.pageTitle': 'Anmelden',
  'signIn.expired': 'Ihre Sitzung ist beendet. Melden Sie sich erneut an, um fortzufahren.',
  'signIn.reset': 'Ihr Passwort wurde geändert. Melden Sie sich mit dem neuen an.',
  'signIn.registered': 'Ihr Konto ist bereit. Melden Sie sich an, um fortzufahren.',
  'signIn.signedInAs': 'Sie sind als {email} angemeldet. {continue}',
  'signIn.continue': 'Weiter',
  'signIn.how': 'Wie möchten Sie sich anmelden?',
  'signIn.withPassword': 'Mit meinem Passwort',
  'signIn.withCode': 'Mit einem Code per E-Mail',
  'signIn.email': 'E-Mail-Adresse',
  'signIn.password': 'Passwort',
  'signIn.submit': 'Anmelden',
  'signIn.sendCode': 'Code per E-Mail senden',
  'signIn.otherOptions': 'Weitere Möglichkeiten',
  'signIn.forgot': 'Passwort vergessen?',
  'signIn.createAccount': 'Konto erstellen',
  'signIn.invited': 'Sie haben eine Einladung? Registrieren',
  'signIn.invalidCode':
    'Dieser Code stimmt nicht oder ist abgelaufen. Prüfen Sie ihn oder beginnen Sie von vorn, um einen neuen zu erhalten.',
  'signIn.disabled': 'Dieses Konto ist gesperrt. Wenden Sie sich an die Administration dieses Dienstes.',
  'signIn.inactive':
    'Dieses Konto ist noch nicht aktiv. Schließen Sie die Registrierung mit dem Code ab, den wir Ihnen gemailt haben, oder registrieren Sie sich erneut.',
  'signIn.twoStep': 'Bestätigung in zwei Schritten',
  'signIn.codeSent':
    'Falls {email} ein Konto bei {name} hat, haben wir einen 6-stelligen Code an diese Adresse gesendet. Er gilt 10 Minuten.',
  'signIn.codeResent':
    'Falls {email} ein Konto bei {name} hat, haben wir einen neuen Code an diese Adresse gesendet. Verwenden Sie den neuesten: Er gilt 10 Minuten.',
  'signIn.totpHelp': 'Geben Sie den 6-stelligen Code ein, den Ihre Authenticator-App für {email} anzeigt.',
  'signIn.backupHelp':
    'Geben Sie einen der Backup-Codes ein, die Sie beim Einrichten Ihrer Authenticator-App für {email} gespeichert haben. Jeder gilt einmal.',
  'signIn.totpHelpAccount':
    'Geben Sie den 6-stelligen Code ein, den Ihre Authenticator-App für Ihr Konto bei {name} anzeigt.',
  'signIn.backupHelpAccount':
    'Geben Sie einen der Backup-Codes ein, die Sie beim Einrichten Ihrer Authenticator-App für Ihr Konto bei {name} gespeichert haben. Jeder gilt einmal.',
  'signIn.backupCode': 'Backup-Code',
  'signIn.wrongBackup': 'Dieser Backup-Code stimmt nicht oder wurde schon verwendet.',
  'signIn.wrongTotp':
    'Dieser Code stimmt nicht. Geben Sie den Code ein, den Ihre Authenticator-App jetzt anzeigt, bevor er wechselt.',
  'signIn.verify': 'Bestätigen',
  'signIn.useTotp': 'Stattdessen meine Authenticator-App verwenden',
  'signIn.useBackup': 'Stattdessen einen Backup-Code verwenden',
  'signIn.startAgain': 'Von vorn beginnen',

  'code.checkMail': 'Prüfen Sie Ihr Postfach',
  'code.fromMail': 'Code aus der E-Mail',
  'code.authenticator': 'Code der Authenticator-App',
  'code.wrongSendNew': 'Dieser Code stimmt nicht oder ist abgelaufen. Prüfen Sie ihn oder senden Sie einen neuen Code.',
  'code.resendIn': 'Neuen Code in {wait} senden',
  'code.resend': 'Neuen Code senden',
  'code.expired':
    'Dieser Code ist abgelaufen. Senden Sie einen neuen Code und verwenden Sie den aus der neuesten E-Mail.',

  'signUp.title': 'Ihr Konto bei {name} erstellen',
  'signUp.pageTitle': 'Konto erstellen',
  'signUp.firstName': 'Vorname',
  'signUp.lastName': 'Nachname',
  'signUp.passwordOptional': 'Passwort (optional)',
  'signUp.passwordNote': 'Ohne Passwort melden Sie sich mit einem Code an, den wir Ihnen per E-Mail senden.',
  'signUp.submit': 'Konto erstellen',
  'signUp.haveAccount': 'Ich habe schon ein Konto: anmelden',
  'signUp.pausedToday': 'Neue Registrierungen sind für heute ausgesetzt. Versuchen Sie es in {wait} wieder.',
  'signUp.tooMany': 'Zu viele Registrierungen aus Ihrem Netzwerk. Versuchen Sie es in {wait} wieder.',
  'signUp.byInvitation': 'Registrieren nur mit Einladung',
  'signUp.byInvitationText':
    'Konten bei {name} werden nur auf Einladung erstellt. Wenn Sie eingeladen wurden, öffnen Sie den Link in Ihrer Einladungs-E-Mail, um Ihr Konto zu erstellen.',
  'signUp.acceptTitle': 'Ihre Einladung zu {name} annehmen',
  'signUp.acceptPageTitle': 'Einladung annehmen',
  'signUp.checking': 'Ihre Einladung wird geprüft …',
  'signUp.checkFailed': 'Ihre Einladung konnte nicht geprüft werden',
  'signUp.deadLinkTitle': 'Dieser Einladungslink kann nicht verwendet werden',
  'signUp.deadLink':
    'Dieser Einladungslink funktioniert nicht mehr: Er ist abgelaufen, wurde schon verwendet oder wurde zurückgezogen. Bitten Sie eine Administratorin oder einen Administrator um eine neue Einladung.',
  'signUp.acceptedAlready':
    'Wenn Sie die Einladung schon angenommen haben, ist Ihr Konto bereit: Melden Sie sich stattdessen an.',
  'signUp.invitationUnusable':
    'Diese Einladung kann nicht mehr verwendet werden: Sie ist vielleicht abgelaufen, wurde schon verwendet oder wurde zurückgezogen. Bitten Sie eine Administratorin oder einen Administrator um eine neue Einladung.',
  'signUp.invitedBy': '{inviter} hat Sie zu {name} eingeladen.',
  'signUp.invited': 'Sie wurden zu {name} eingeladen.',
  'signUp.invitationUntil': 'Die Einladung gilt bis {date}.',
  'signUp.invitedAddress':
    'Die Einladung ging an diese Adresse, deshalb verwendet Ihr Konto sie. Für eine andere Adresse bitten Sie um eine Einladung an diese.',
  'signUp.codeSent':
    'Wir haben einen 6-stelligen Code an {email} gesendet. Geben Sie ihn unten ein, um Ihr Konto fertig zu erstellen. Er gilt 10 Minuten.',
  'signUp.codeResent':
    'Wir haben einen neuen Code an {email} gesendet. Verwenden Sie den neuesten: Er gilt 10 Minuten.',
  'signUp.existing':
    'Hat die Adresse schon ein Konto, steht das stattdessen in der E-Mail: Melden Sie sich dann an oder setzen Sie Ihr Passwort zurück.',
  'signUp.verify': 'Bestätigen und anmelden',
  'signUp.changeEmail': 'E-Mail-Adresse ändern',

  'forgot.title': 'Passwort vergessen?',
  'forgot.intro':
    'Geben Sie die E-Mail-Adresse Ihres Kontos bei {name} ein. Wir senden Ihnen einen Code, mit dem Sie ein neues Passwort wählen.',
  'forgot.backToSignIn': 'Zurück zur Anmeldung',
  'forgot.haveCode': 'Ich habe schon einen Code',
  'reset.title': 'Neues Passwort wählen',
  'reset.newPassword': 'Neues Passwort',
  'reset.sent':
    'Falls {email} ein Konto hat, haben wir einen 6-stelligen Code an diese Adresse gesendet. Er gilt 10 Minuten.',
  'reset.resent':
    'Falls {email} ein Konto hat, haben wir einen neuen Code an diese Adresse gesendet. Verwenden Sie den neuesten.',
  'reset.thatAddress': 'diese Adresse',
  'reset.theAddress': 'die Adresse',
  'reset.noRequest':
    'Dieser Browser hat für diese Adresse keinen Code angefordert, oder die Anforderung ist abgelaufen. Senden Sie einen neuen Code und geben Sie dann den Code aus der neuesten E-Mail ein.',
  'reset.submit': 'Neues Passwort festlegen',

  'authorize.refused.INVALID_REQUEST':
    'Die App, die Sie hierher geschickt hat, hat eine Anmeldung angefragt, die {tenant} nicht annehmen kann. Gehen Sie zurück zur App und versuchen Sie es noch einmal; passiert es wieder, informieren Sie die Entwickler der App.',
  'authorize.refused.UNKNOWN_CLIENT':
    'Die App, die Sie hierher geschickt hat, ist bei {tenant} nicht registriert. Sie können sich dort also nicht mit Ihrem Konto bei {tenant} anmelden.',
  'authorize.refused.REDIRECT_URI_MISMATCH':
    'Die App, die Sie hierher geschickt hat, wollte Sie an eine Adresse zurückschicken, die sie bei {tenant} nicht registriert hat. Zu Ihrer Sicherheit werden Sie nicht dorthin geschickt.',
  'authorize.refusedUnknown':
    'Diese Anmeldeanfrage kann nicht verwendet werden. Gehen Sie zurück zur App und beginnen Sie von vorn.',
  'authorize.cannotGoOn': 'Diese Anmeldung kann nicht fortgesetzt werden',
  'authorize.expiredTitle': 'Diese Anmeldung ist abgelaufen',
  'authorize.expired':
    'Dieser Anmeldelink ist abgelaufen oder wurde schon verwendet. Gehen Sie zurück zur App und beginnen Sie von vorn.',
  'authorize.signingIn': 'Sie werden angemeldet …',
  'authorize.oneMoment': 'Einen Moment …',
  'authorize.returning': 'Zurück zu {client} …',
  'authorize.ifNothing': 'Falls nichts passiert: {link}.',
  'authorize.continueTo': 'weiter zu {client}',
  'authorize.signInTitle': 'Anmelden, um zu {client} zu gelangen',
  'authorize.continueTitle': 'Weiter zu {client}',
  'authorize.confirmReason': '{client} bittet Sie zu bestätigen, dass Sie es sind, bevor es weitergeht.',
  'authorize.confirm': 'Bestätigen, dass Sie es sind',
  'authorize.continuing': 'Weiter zu {client} …',
  'authorize.consentTitle': 'Darf {client} Ihr Konto bei {name} verwenden?',
  'authorize.consentPageTitle': 'Darf {client} Ihr Konto verwenden?',
  'authorize.asksFor': '{client} möchte:',
  'authorize.scope.openid': 'Wissen, wer Sie sind (Ihre Konto-ID)',
  'authorize.scope.profile': 'Ihren Namen',
  'authorize.scope.email': 'Ihre E-Mail-Adresse',
  'authorize.scope.phone': 'Ihre Telefonnummer',
  'authorize.scope.roles': 'Ihre Rollen (was Ihr Konto hier darf)',
  'authorize.scope.offline_access': 'Angemeldet bleiben, während Sie nicht da sind',
  'authorize.allow': 'Erlauben',
  'authorize.deny': 'Ablehnen',
  'authorize.signOutLater': 'Sie können {client} jederzeit auf Ihrer Kontoseite abmelden.',
  'authorize.signedInAs': 'Angemeldet als {email}.',
  'authorize.notYou': 'Nicht Sie? Anderes Konto verwenden',

  'signOut.working': 'Sie werden abgemeldet …',
  'signOut.returningTitle': 'Sie sind abgemeldet',
  'signOut.returning': 'Zurück zur App … Falls nichts passiert: {link}.',
  'signOut.continue': 'weiter',
  'signOut.title': 'Abgemeldet',
  'signOut.done': 'Sie sind abgemeldet.',
  'signOut.signInAgain': 'Erneut anmelden',

  'reauth.title': 'Bestätigen Sie, dass Sie es sind',
  'reauth.why':
    'Sie haben sich vor mehr als 10 Minuten angemeldet. Bestätigen Sie zu Ihrer Sicherheit, dass Sie es sind, bevor diese Änderung ausgeführt wird.',
  'reauth.how': 'Wie möchten Sie bestätigen?',
  'reauth.codeSent': 'Wir haben einen 6-stelligen Code an {email} gesendet. Er gilt 10 Minuten.',
  'reauth.willSend': 'Wir senden einen 6-stelligen Code an {email}.',
  'reauth.totpHint': 'Der 6-stellige Code, den Ihre Authenticator-App anzeigt, oder einer Ihrer Backup-Codes.',
  'reauth.wrongPassword': 'Dieses Passwort stimmt nicht.',
  'reauth.wrongCode': 'Dieser Code stimmt nicht oder ist abgelaufen.',
  'reauth.confirm': 'Bestätigen',
  'reauth.cancel': 'Abbrechen',
  'reauth.withPasskey': 'Passkey verwenden',
  'reauth.withProvider': 'Weiter mit {name}',
  'reauth.backFrom': 'Mit {name} bestätigt. Geben Sie zum Abschluss Ihren Authenticator-Code ein.',
  'reauth.confirming': 'Es wird mit {name} bestätigt, dass Sie es sind …',
  'reauth.providerNotLinked':
    'Das Konto, das Sie bei {name} verwendet haben, ist nicht mit Ihrem verknüpft. Fahren Sie mit dem verknüpften fort oder bestätigen Sie auf anderem Weg.',
  'reauth.providerWrongCode':
    'Dieser Code stimmt nicht oder ist abgelaufen. Geben Sie den Code ein, den Ihre Authenticator-App jetzt anzeigt, um mit {name} abzuschließen.',
  'reauth.theProvider': 'dem Anbieter',
  'reauth.confirmedTitle': 'Sie haben bestätigt, dass Sie es sind',
  'reauth.confirmedText':
    'Nehmen Sie Ihre Änderung erneut vor: In den nächsten 10 Minuten wird sie ohne Rückfrage ausgeführt.',
  'reauth.close': 'OK',
  'passkey.or': 'oder',
  'passkey.signIn': 'Mit einem Passkey anmelden',
  'passkey.notKnown':
    'Dieser Passkey gehört nicht zu diesem Konto oder wurde entfernt. Melden Sie sich auf anderem Weg an.',
  'passkey.offerTitle': 'Nächstes Mal schneller anmelden',
  'passkey.offerText':
    'Fügen Sie einen Passkey hinzu und melden Sie sich bei {name} mit Fingerabdruck, Gesicht oder Displaysperre an statt mit einem Passwort.',
  'passkey.offerHow': 'Er bleibt auf diesem Gerät (oder in Ihrem Passwortmanager); niemand sonst kann ihn verwenden.',
  'passkey.offerAdd': 'Passkey hinzufügen',
  'passkey.offerNotNow': 'Jetzt nicht',
  'provider.signInWith': 'Mit {name} anmelden',
  'provider.signUpWith': 'Mit {name} registrieren',
  'provider.linkRequired':
    'Für {email} gibt es bereits ein Konto. Melden Sie sich einmal dort an, um {provider} zu verknüpfen.',
  'provider.linkedTitle': '{provider} ist verknüpft',
  'provider.linkedText': 'Beim nächsten Mal können Sie sich mit {provider} anmelden.',
  'provider.notLinkedTitle': '{provider} konnte nicht verknüpft werden',
  'provider.linkLapsed':
    'Das Verknüpfen von {provider} hat zu lange gedauert. Sie sind angemeldet: Melden Sie sich erneut mit {provider} an, um es zu verknüpfen.',
  'provider.continue': 'Weiter',
};

export default texts;
