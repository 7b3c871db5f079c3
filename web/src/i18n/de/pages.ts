import type en from '../en/pages.ts';

/** The sign-in pages' texts, in German (Sie): sign-in, sign-up, codes, password reset, the OpenID Connect pages, re-authentication. */
const texts: Record<keyof typeof en, string> = {};

export default texts;
