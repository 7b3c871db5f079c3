/** The account page's texts in English. */
const texts = {};

export default texts;
