import type en from '../en/console-users.ts';

/** The console's texts, in German (Sie): users, a user, invitations, roles. */
const texts: Record<keyof typeof en, string> = {};

export default texts;
