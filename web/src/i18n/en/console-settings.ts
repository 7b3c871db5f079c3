/** The console's texts in English: settings, sign-in clients, API keys, the console's frame. */
const texts = {};

export default texts;
