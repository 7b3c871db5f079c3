import type { MailCatalogue } from '../catalogue.ts';

/** Every text of the mails in German: formal address (Sie), the keys and placeholders of the English catalogue. */
export const de: MailCatalogue = {
  weekdays: ['Sonntag', 'Montag', 'Dienstag', 'Mittwoch', 'Donnerstag', 'Freitag', 'Samstag'],
  months: [
    'Januar',
    'Februar',
    'März',
    'April',
    'Mai',
    'Juni',
    'Juli',
    'August',
    'September',
    'Oktober',
    'November',
    'Dezember',
  ],
  texts: {
    greeting: 'Guten Tag,',
    footer: 'Diese E-Mail kommt von {name} und betrifft Ihr Konto. Antworten an diese Adresse werden nicht gelesen.',
    unnamedTenant: 'Ihr Konto',
    'minutes.one': '1 Minute',
    'minutes.other': '{count} Minuten',
    dateTime: '{weekday}, {day}. {month} {year}, {time} UTC',
    codeExpiry: 'Er ist {minutes} lang gültig und kann nur einmal verwendet werden.',

    'signupCode.subject': 'Bestätigen Sie Ihre E-Mail-Adresse für {name}',
    'signupCode.preheader': 'Ihr Bestätigungscode für {name} steht in dieser E-Mail. {expiry}',
    'signupCode.intro': 'Mit diesem Code schließen Sie die Registrierung bei {name} ab:',
    'signupCode.notYou':
      'Wenn Sie sich nicht registriert haben, können Sie diese E-Mail ignorieren: Ohne den Code wird kein Konto angelegt.',

    'loginCode.subject': 'Ihr Anmeldecode für {name}',
    'loginCode.preheader': 'Ihr Anmeldecode für {name} steht in dieser E-Mail. {expiry}',
    'loginCode.intro': 'Mit diesem Code melden Sie sich bei {name} an:',
    'loginCode.notYou':
      'Wenn Sie sich nicht anmelden wollten, können Sie diese E-Mail ignorieren: Ohne den Code kann sich niemand anmelden. Geben Sie den Code an niemanden weiter; wir fragen Sie nie danach.',

    'resetCode.subject': 'Passwort für {name} zurücksetzen',
    'resetCode.preheader': 'Ihr Code zum Zurücksetzen Ihres Passworts für {name} steht in dieser E-Mail. {expiry}',
    'resetCode.intro': 'Mit diesem Code legen Sie ein neues Passwort für Ihr Konto bei {name} fest:',
    'resetCode.pageLead': 'Geben Sie ihn auf dieser Seite ein, im selben Browser, in dem Sie ihn angefordert haben:',
    'resetCode.pageLink': 'Neues Passwort festlegen',
    'resetCode.notYou':
      'Wenn Sie kein neues Passwort angefordert haben, können Sie diese E-Mail ignorieren: Ihr Passwort bleibt unverändert.',

    'adminReset.subject': 'Neues Passwort für {name} festlegen',
    'adminReset.preheader': 'Ihr Code für ein neues Passwort bei {name} steht in dieser E-Mail. {expiry}',
    'adminReset.intro':
      'Ein Administrator von {name} hat Ihnen diesen Code geschickt, damit Sie ein neues Passwort für Ihr Konto festlegen können:',
    'adminReset.pageLead': 'Geben Sie ihn auf dieser Seite ein:',
    'adminReset.expired':
      'Ist der Code abgelaufen, schickt Ihnen die Seite einen neuen: Wählen Sie dort „Neuen Code senden“.',
    'adminReset.appLead': 'Geben Sie ihn bei {name} mit dieser Angabe ein:',
    'adminReset.notYou':
      'Wenn Sie damit nicht gerechnet haben, können Sie diese E-Mail ignorieren: Ihr Passwort bleibt unverändert, bis Sie ein neues festlegen.',

    'emailChangeCode.subject': 'Bestätigen Sie Ihre neue E-Mail-Adresse für {name}',
    'emailChangeCode.preheader': 'Ihr Bestätigungscode für {name} steht in dieser E-Mail. {expiry}',
    'emailChangeCode.intro': 'Mit diesem Code machen Sie diese Adresse zur E-Mail-Adresse Ihres Kontos bei {name}:',
    'emailChangeCode.notYou':
      'Wenn Sie das nicht angefordert haben, können Sie diese E-Mail ignorieren: Ohne den Code ändert sich nichts.',

    'alreadyRegistered.subject': 'Sie haben bereits ein Konto bei {name}',
    'alreadyRegistered.preheader': 'Jemand wollte sich mit dieser E-Mail-Adresse bei {name} registrieren.',
    'alreadyRegistered.tried':
      'Jemand wollte mit dieser E-Mail-Adresse ein Konto bei {name} anlegen, aber Sie haben dort bereits eines.',
    'alreadyRegistered.ifYou':
      'Wenn Sie das waren, melden Sie sich einfach an. Falls Sie Ihr Passwort vergessen haben, können Sie es auf der Anmeldeseite über „Passwort vergessen“ zurücksetzen.',
    'alreadyRegistered.notYou':
      'Wenn Sie es nicht waren, können Sie diese E-Mail ignorieren: An Ihrem Konto hat sich nichts geändert.',

    'invitation.subjectFrom': '{inviter} hat Sie zu {name} eingeladen',
    'invitation.subject': 'Ihre Einladung zu {name}',
    'invitation.preheader': 'Ihre Einladung zu {name} steht in dieser E-Mail. Sie gilt bis {until}.',
    'invitation.invitedBy': '{inviter} hat Sie zu {name} eingeladen.',
    'invitation.invited': 'Sie wurden zu {name} eingeladen.',
    'invitation.pageLead': 'Um die Einladung anzunehmen, öffnen Sie diesen Link und legen Sie Ihr Konto an:',
    'invitation.pageLink': 'Einladung annehmen',
    'invitation.tokenLead': 'Um die Einladung anzunehmen, registrieren Sie sich bei {name} mit dieser Einladung:',
    'invitation.validity':
      'Die Einladung kann einmal verwendet werden und gilt bis {until}. Danach bitten Sie {contact} um eine neue.',
    'invitation.notYou':
      'Wenn Sie diese Einladung nicht erwartet haben, können Sie diese E-Mail ignorieren: Ohne Ihr Zutun wird kein Konto angelegt.',

    'passwordChanged.subject': 'Ihr Passwort für {name} wurde geändert',
    'passwordChanged.preheader': 'Das Passwort Ihres Kontos bei {name} wurde soeben geändert.',
    'passwordChanged.changed':
      'Das Passwort Ihres Kontos bei {name} wurde soeben geändert. Ihre anderen Sitzungen wurden beendet.',
    'passwordChanged.ifYou': 'Wenn Sie das waren, müssen Sie nichts weiter tun.',
    'passwordChanged.notYou':
      'Wenn nicht, kennt jemand anderes Ihr Passwort: Setzen Sie es jetzt auf der Anmeldeseite über „Passwort vergessen“ zurück.',

    'passwordResetDone.subject': 'Ihr Passwort für {name} wurde zurückgesetzt',
    'passwordResetDone.preheader': 'Das Passwort Ihres Kontos bei {name} wurde zurückgesetzt.',
    'passwordResetDone.reset':
      'Das Passwort Ihres Kontos bei {name} wurde mit einem Code zurückgesetzt, der an diese Adresse geschickt wurde. Alle Sitzungen wurden beendet.',
    'passwordResetDone.ifYou': 'Wenn Sie das waren, müssen Sie nichts weiter tun.',
    'passwordResetDone.notYou':
      'Wenn nicht, kann jemand Ihre E-Mails lesen: Sichern Sie zuerst Ihr Postfach und setzen Sie dann Ihr Passwort erneut zurück.',

    'emailChanged.subject': 'Ihre E-Mail-Adresse bei {name} wurde geändert',
    'emailChanged.preheader': 'Die E-Mail-Adresse Ihres Kontos bei {name} wurde geändert.',
    'emailChanged.changed': 'Die E-Mail-Adresse Ihres Kontos bei {name} wurde auf {newEmail} geändert.',
    'emailChanged.mailGoesThere':
      'Anmeldecodes und Nachrichten zu Ihrem Konto gehen ab jetzt an die neue Adresse und nicht mehr an diese.',
    'emailChanged.notYou': 'Wenn Sie das nicht waren, wenden Sie sich bitte sofort an {name}.',

    'emailChangeRequested.subject': 'Änderung Ihrer E-Mail-Adresse bei {name} angefordert',
    'emailChangeRequested.preheader': 'Jemand möchte Ihr Konto bei {name} auf eine andere E-Mail-Adresse umstellen.',
    'emailChangeRequested.asked':
      'Jemand, der in Ihrem Konto bei {name} angemeldet ist, möchte dessen E-Mail-Adresse auf {newEmail} ändern.',
    'emailChangeRequested.notYet':
      'Noch hat sich nichts geändert: Dafür ist ein Code nötig, der an die neue Adresse geschickt wurde.',
    'emailChangeRequested.notYou':
      'Wenn Sie das nicht waren, beenden Sie jetzt alle Sitzungen und ändern Sie Ihr Passwort. Wenden Sie sich danach an {name}.',

    'reauthCode.subject': 'Bestätigen Sie bei {name}, dass Sie es sind',
    'reauthCode.preheader': 'Ihr Bestätigungscode für {name} steht in dieser E-Mail. {expiry}',
    'reauthCode.intro':
      'Mit diesem Code bestätigen Sie, dass Sie es sind, bevor Sie die Sicherheitseinstellungen Ihres Kontos bei {name} ändern:',
    'reauthCode.notYou':
      'Wenn Sie das nicht angefordert haben, nutzt möglicherweise jemand Ihre angemeldete Sitzung: Beenden Sie alle Sitzungen und ändern Sie Ihr Passwort. Geben Sie diesen Code an niemanden weiter.',

    'accountLocked.subject': 'Anmeldung bei {name} für {lockedFor} gesperrt',
    'accountLocked.preheader': 'Zu viele fehlgeschlagene Anmeldeversuche für Ihr Konto bei {name}.',
    'accountLocked.locked':
      'Es gab zu viele fehlgeschlagene Anmeldeversuche für Ihr Konto bei {name}. Die Anmeldung ist deshalb für {lockedFor} gesperrt.',
    'accountLocked.ifYou':
      'Wenn Sie das waren, warten Sie und versuchen Sie es dann erneut, oder setzen Sie Ihr Passwort über „Passwort vergessen“ zurück.',
    'accountLocked.notYou':
      'Wenn Sie es nicht waren, versucht möglicherweise jemand, Ihr Passwort zu erraten: Sobald Sie sich wieder anmelden können, sorgen Sie dafür, dass es lang ist und nirgendwo sonst verwendet wird.',

    'webhookDisabled.subject': 'Ein Webhook-Endpunkt von {name} wurde abgeschaltet',
    'webhookDisabled.preheader': 'Jede Zustellung an ihn ist einen Tag lang fehlgeschlagen.',
    'webhookDisabled.off':
      'Jede Zustellung von Ereignissen an diesen Webhook-Endpunkt von {name} ist seit 24 Stunden fehlgeschlagen. Er wurde deshalb abgeschaltet:',
    'webhookDisabled.what':
      'Solange er abgeschaltet ist, werden keine Ereignisse an ihn gesendet. Sein Zustellprotokoll in der Konsole zeigt, was schiefging. Sobald der Empfänger wieder funktioniert, schalten Sie den Endpunkt ein und senden Sie die verpassten Ereignisse erneut.',
    'webhookDisabled.pageLink': 'Webhooks in der Konsole öffnen',
  },
};
