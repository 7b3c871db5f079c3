/** The sign-in pages' texts in English: sign-in, sign-up, codes, password reset, the OpenID Connect pages, re-authentication. */
const texts = {};

export default texts;
