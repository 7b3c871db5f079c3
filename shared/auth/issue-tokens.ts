import type { Deps } from '../deps.ts';
import { effectiveRoles } from '../roles/authority.ts';
import type { Merchant } from '../tenancy/types.ts';
import { issueAccessToken } from '../tokens/access-token.ts';
import type { User } from '../users/types.ts';
import { toUserResponse } from '../users/view.ts';

export type LoginResult = {
  accessToken: string;
  refreshToken: string;
  tokenType: 'Bearer';
  expiresIn: number;
  user: ReturnType<typeof toUserResponse>;
};

/** The tokens of a session for a user, as LoginResponse carries them. */
export async function tokensFor(
  deps: Deps,
  tenant: Merchant,
  user: User,
  sessionId: string,
  refreshToken: string,
): Promise<LoginResult> {
  const now = deps.clock.now();
  const { accessToken, expiresIn } = await issueAccessToken(deps, {
    sub: user.id,
    sid: sessionId,
    app: tenant.app,
    mid: tenant.mid,
    roles: effectiveRoles(user, now).names,
  });
  return { accessToken, refreshToken, tokenType: 'Bearer', expiresIn, user: toUserResponse(user, now) };
}
