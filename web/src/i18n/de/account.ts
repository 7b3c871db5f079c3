import type en from '../en/account.ts';

/** The account page's texts, in German (Sie). */
const texts: Record<keyof typeof en, string> = {};

export default texts;
