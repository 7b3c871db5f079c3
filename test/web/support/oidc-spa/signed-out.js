/** The SPA's post-logout redirect URI: oidc-client-ts checks the state it sent, and the stored user is gone. */
const users = new window.oidc.UserManager(window.SPA_CONFIG);
const show = (id, text) => {
  document.getElementById(id).textContent = text;
};

async function finishSignOut() {
  const response = await users.signoutRedirectCallback();
  const user = await users.getUser();
  show('user', user ? `Still holding ${user.profile.sub}` : 'No user stored');
  show('carried', String(response.userState));
  show('status', 'Signed out');
}

finishSignOut().catch((error) => {
  show('status', 'Sign-out failed');
  show('error', `signoutRedirectCallback failed: ${error?.message ?? error}`);
});
