/** A Lambda handler that fails, as a function that crashed would. */
export const handler = async () => {
  throw new Error('crashed');
};
