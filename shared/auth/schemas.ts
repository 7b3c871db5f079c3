import * as v from 'valibot';
import { Email, Phone, UserResponse } from '../users/schemas.ts';
import { NewPassword, PresentedPassword } from './password-policy.ts';

const Text = (max = 256) => v.pipe(v.string('must be a string'), v.maxLength(max, `must be at most ${max} characters`));
const Required = (max = 256) => v.pipe(Text(max), v.trim(), v.minLength(1, 'is required'));
const ChallengeId = v.pipe(v.string('must be a string'), v.minLength(1, 'is required'), v.maxLength(64));
/** An e-mail code, a TOTP code or a backup code. */
const Code = v.pipe(v.string('must be a string'), v.trim(), v.minLength(1, 'is required'), v.maxLength(32));

/** The ApiResponse envelope of login, login/verify, refresh, signup and signup/verify. */
const envelope = <T extends v.GenericSchema>(data: T) => v.object({ success: v.literal(true), data });

export const SignupRequest = v.strictObject({
  app: Required(128),
  mid: Required(128),
  email: Email,
  password: v.optional(NewPassword),
  firstName: Required(),
  lastName: Required(),
  phone: v.optional(v.nullable(Phone)),
  invitationToken: v.optional(Text(128)),
});
export type SignupRequest = v.InferOutput<typeof SignupRequest>;

/** POST /auth/invitations/lookup: the token an invitation link carries. */
export const InvitationLookupRequest = v.strictObject({ invitationToken: Required(128) });

/**
 * An open invitation as its link shows it: the tenant's name, the invited address (the one signup takes with this
 * token), the names the admin typed (null when none), the inviter's name as the mail gave it (null for an API key
 * or an admin without a name) and when the invitation lapses.
 */
export const InvitationResponse = v.object({
  tenantName: v.string(),
  email: v.string(),
  firstName: v.nullable(v.string()),
  lastName: v.nullable(v.string()),
  inviterName: v.nullable(v.string()),
  expiresAt: v.string(),
});
export type InvitationResponse = v.InferOutput<typeof InvitationResponse>;

export const SignupResponse = envelope(v.nullable(v.object({ challengeId: v.string() })));

export const CodeVerifyRequest = v.strictObject({ challengeId: ChallengeId, code: Code });
export type CodeVerifyRequest = v.InferOutput<typeof CodeVerifyRequest>;

export const LoginRequest = v.strictObject({
  email: Email,
  password: v.optional(PresentedPassword),
  loginMode: v.optional(v.picklist(['PASSWORD', 'OTP_EMAIL'], 'must be PASSWORD or OTP_EMAIL')),
});
export type LoginRequest = v.InferOutput<typeof LoginRequest>;

export const TokensResponse = v.object({
  accessToken: v.string(),
  refreshToken: v.string(),
  tokenType: v.literal('Bearer'),
  expiresIn: v.pipe(v.number(), v.integer()),
  user: UserResponse,
});

export const ChallengeResponse = v.object({
  challengeRequired: v.literal(true),
  challengeType: v.picklist(['OTP_EMAIL', 'TOTP']),
  challengeId: v.string(),
  expiresAt: v.string(),
});

export const LoginResponse = envelope(v.union([TokensResponse, ChallengeResponse]));
export const TokensEnvelope = envelope(TokensResponse);

export const RefreshRequest = v.strictObject({
  refreshToken: v.pipe(v.string(), v.minLength(1, 'is required'), v.maxLength(256)),
});

export const ForgotPasswordRequest = v.strictObject({ email: Email });
export const ChallengeIdResponse = v.object({ challengeId: v.string() });

/**
 * POST /auth/reauthenticate, one object for its three bodies (as LoginRequest
 * is, so unknown keys are refused and OpenAPI shows one schema):
 * `{ password, totpCode? }`, `{ loginMode: "OTP_EMAIL" }` (mails a code) and
 * `{ challengeId, code, totpCode? }`. Which one it is, and whether the
 * tenant's login mode takes it, is judged by reauthMethod (reauthenticate.ts).
 */
export const ReauthenticateRequest = v.strictObject({
  password: v.optional(PresentedPassword),
  /** A TOTP code or a backup code; required when TOTP is on. */
  totpCode: v.optional(Code),
  loginMode: v.optional(v.picklist(['PASSWORD', 'OTP_EMAIL'], 'must be PASSWORD or OTP_EMAIL')),
  challengeId: v.optional(ChallengeId),
  code: v.optional(Code),
});
export type ReauthenticateRequest = v.InferOutput<typeof ReauthenticateRequest>;

export const ResetPasswordRequest = v.strictObject({ challengeId: ChallengeId, code: Code, newPassword: NewPassword });
