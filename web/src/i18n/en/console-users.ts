/** The console's texts in English: users, a user, invitations, roles. */
const texts = {};

export default texts;
