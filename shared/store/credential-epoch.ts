/**
 * The credential epoch, as expressions: a profile attribute `credentialEpoch`
 * (absent = 0) and a session attribute `epoch` (absent = 0, sessions stored
 * before epochs). A session whose epoch is not its profile's is dead, so
 * moving the profile's epoch on ends every session in one write, whatever
 * their number (docs/security.md#sessions-and-the-credential-epoch).
 */

/** A session's epoch as a number: sessions stored before epochs are at 0. */
export const epochOf = (session: { epoch?: unknown }): number =>
  typeof session.epoch === 'number' ? session.epoch : 0;

/** Placeholders an expression builder collects. */
export interface Placeholders {
  names: Record<string, string>;
  values: Record<string, unknown>;
}

/**
 * A condition that `attribute` (an epoch) still holds `epoch`. Absent counts
 * as 0: profiles and sessions stored before epochs are at epoch 0.
 */
export function epochIs(attribute: string, epoch: number, at: Placeholders, tag = 'ep'): string {
  at.names[`#${tag}`] = attribute;
  at.values[`:${tag}`] = epoch;
  return epoch === 0 ? `(attribute_not_exists(#${tag}) OR #${tag} = :${tag})` : `#${tag} = :${tag}`;
}

/**
 * How a change ends the user's sessions: the epoch moves on by one. With
 * `from`, only while the profile is still at that epoch (the caller read it
 * before checking a credential, and re-stamps a session with `from + 1` in
 * the same transaction); `keep` is that session, listed alone afterwards.
 */
export interface EpochBump {
  from?: number;
  keep?: { id: string; createdAt: string };
}

/**
 * The clauses of a profile update that end every session: `ADD` starts an
 * absent epoch at 0 (profiles from before epochs), the live-session list is
 * emptied (nothing listed is live any more) but for `keep`; with `from`, a
 * condition too.
 */
export function bumpClauses(bump: EpochBump, at: Placeholders): { set: string; add: string; condition: string | null } {
  at.names['#epoch'] = 'credentialEpoch';
  at.names['#live'] = 'liveSessions';
  at.values[':epochStep'] = 1;
  at.values[':live'] = bump.keep ? { [bump.keep.id]: bump.keep.createdAt } : {};
  return {
    set: '#live = :live',
    add: '#epoch :epochStep',
    condition: bump.from === undefined ? null : epochIs('credentialEpoch', bump.from, at, 'epochFrom'),
  };
}
