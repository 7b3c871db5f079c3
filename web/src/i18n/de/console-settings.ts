import type en from '../en/console-settings.ts';

/** The console's texts, in German (Sie): settings, sign-in clients, API keys, the console's frame. */
const texts: Record<keyof typeof en, string> = {};

export default texts;
