/**
 * The SPA's start page: oidc-client-ts's UserManager (the browser bundle's global `oidc`), configured by
 * /config.js, sends the browser to the issuer's authorize endpoint when the user asks to sign in.
 */
const users = new window.oidc.UserManager(window.SPA_CONFIG);
const button = document.getElementById('sign-in');
button.addEventListener('click', () => {
  users.signinRedirect().catch((error) => {
    document.getElementById('error').textContent = `signinRedirect failed: ${error?.message ?? error}`;
  });
});
button.disabled = false;
