/**
 * The SPA's redirect URI: oidc-client-ts redeems the code (PKCE, at the token endpoint, cross-origin), then
 * the page calls the userinfo endpoint from its own origin with the access token, and writes all of it into
 * the page for the journey to read.
 */
const users = new window.oidc.UserManager(window.SPA_CONFIG);
const show = (id, text) => {
  document.getElementById(id).textContent = text;
};

async function finishSignIn() {
  const user = await users.signinRedirectCallback();
  show('sub', user.profile.sub);
  show('email', user.profile.email ?? '');
  show('iss', user.profile.iss);
  show('access-token', user.access_token);
  const endpoint = await users.metadataService.getUserInfoEndpoint();
  const answer = await fetch(endpoint, { headers: { authorization: `Bearer ${user.access_token}` } });
  show('userinfo-status', String(answer.status));
  show('userinfo', await answer.text());
  show('has-refresh-token', user.refresh_token ? 'yes' : 'no');
  show('status', `Signed in as ${user.profile.email}`);
  document.getElementById('renew').disabled = false;
  document.getElementById('sign-out').disabled = false;
}

// signinSilent with a stored refresh token: the library's refresh_token grant, a public client's (no secret).
document.getElementById('renew').addEventListener('click', () => {
  users
    .signinSilent()
    .then((user) => show('renewed-access-token', user.access_token))
    .catch((error) => show('error', `signinSilent failed: ${error?.message ?? error}`));
});

// RP-initiated logout: the library sends the ID token as the hint, the post-logout URI, and a state of its own
// (it sends one only when given data to carry).
document.getElementById('sign-out').addEventListener('click', () => {
  users.signoutRedirect({ state: 'back-to-the-garden' }).catch((error) => {
    show('error', `signoutRedirect failed: ${error?.message ?? error}`);
  });
});

finishSignIn().catch((error) => {
  show('status', 'Sign-in failed');
  show('error', `signinRedirectCallback failed: ${error?.message ?? error}`);
});
