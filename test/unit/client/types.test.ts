import type * as v from 'valibot';
import { describe, expectTypeOf, it } from 'vitest';
import type * as me from '#shared/account/schemas.ts';
import type * as auth from '#shared/auth/schemas.ts';
import type * as merchants from '#shared/merchants/schemas.ts';
import type * as passkeys from '#shared/passkeys/schemas.ts';
import type * as roles from '#shared/roles/schemas.ts';
import type * as providers from '#shared/sign-in-providers/schemas.ts';
import type * as tenancy from '#shared/tenancy/schemas.ts';
import type * as admin from '#shared/users/admin-schemas.ts';
import type * as users from '#shared/users/schemas.ts';
import type * as sdk from '../../../client/src/types.ts';

/**
 * The client SDK's types (generated from the OpenAPI document, named in
 * client/src/types.ts) held to the server's valibot schemas,
 * at compile time: `npm run typecheck` (tsc over test/) fails when either
 * side renames, adds or drops a field, or changes a type or its nullability.
 * Answers must be the same type both ways; the SDK's request bodies must be
 * bodies the server accepts.
 */
type Answer<S extends v.GenericSchema> = v.InferOutput<S>;
type Body<S extends v.GenericSchema> = v.InferInput<S>;

describe('client SDK types', () => {
  it('name every field of every answer as the server does, with its type and nullability', () => {
    expectTypeOf<sdk.TenantConfig>().toEqualTypeOf<Answer<typeof tenancy.DiscoveryResponse>>();
    expectTypeOf<sdk.User>().toEqualTypeOf<Answer<typeof users.UserResponse>>();
    expectTypeOf<sdk.AdminUser>().toEqualTypeOf<Answer<typeof admin.AdminUserResponse>>();
    expectTypeOf<sdk.MailSuppression>().toEqualTypeOf<Answer<typeof admin.MailSuppression>>();
    expectTypeOf<sdk.UserRole>().toEqualTypeOf<Answer<typeof users.UserRoleResponse>>();
    expectTypeOf<sdk.EmailStatus>().toEqualTypeOf<Answer<typeof users.EmailStatus>>();
    expectTypeOf<sdk.UserStatus>().toEqualTypeOf<Answer<typeof users.UserStatus>>();
    expectTypeOf<sdk.TokensResponse>().toEqualTypeOf<Answer<typeof auth.TokensResponse>>();
    expectTypeOf<sdk.LoginChallenge>().toEqualTypeOf<Answer<typeof auth.ChallengeResponse>>();
    expectTypeOf<sdk.ChallengeIdResponse>().toEqualTypeOf<Answer<typeof auth.ChallengeIdResponse>>();
    expectTypeOf<sdk.Invitation>().toEqualTypeOf<Answer<typeof auth.InvitationResponse>>();
    expectTypeOf<sdk.EmailChangeVerifyResponse>().toEqualTypeOf<Answer<typeof me.EmailChangeVerifyResponse>>();
    expectTypeOf<sdk.TotpSetupResponse>().toEqualTypeOf<Answer<typeof me.TotpSetupResponse>>();
    expectTypeOf<sdk.Session>().toEqualTypeOf<Answer<typeof me.SessionResponse>>();
    expectTypeOf<sdk.Passkey>().toEqualTypeOf<Answer<typeof passkeys.PasskeyResponse>>();
    expectTypeOf<sdk.Device>().toEqualTypeOf<Answer<typeof admin.DeviceResponse>>();
    expectTypeOf<sdk.Activity>().toEqualTypeOf<Answer<typeof admin.ActivityResponse>>();
    expectTypeOf<sdk.ActivityPage>().toEqualTypeOf<Answer<typeof admin.ActivityPage>>();
    expectTypeOf<sdk.InviteUserResponse>().toEqualTypeOf<Answer<typeof admin.InviteUserResponse>>();
    expectTypeOf<sdk.Role>().toEqualTypeOf<Answer<typeof roles.RoleResponse>>();
    expectTypeOf<sdk.Merchant>().toEqualTypeOf<Answer<typeof merchants.MerchantResponse>>();
    expectTypeOf<sdk.ApiKey>().toEqualTypeOf<Answer<typeof merchants.ApiKeyResponse>>();
    expectTypeOf<sdk.GeneratedApiKey>().toEqualTypeOf<Answer<typeof merchants.GenerateApiKeyResponse>>();
    expectTypeOf<sdk.SignInProvider>().toEqualTypeOf<Answer<typeof providers.SignInProviderResponse>>();
    expectTypeOf<sdk.SignInProviderButton>().toEqualTypeOf<Answer<typeof providers.SignInProviderButton>>();
    expectTypeOf<sdk.Identity>().toEqualTypeOf<Answer<typeof providers.IdentityResponse>>();
    expectTypeOf<sdk.ProviderLinkRequired>().toEqualTypeOf<Answer<typeof providers.LinkRequiredResponse>>();
    // A provider sign-in answers as login does (the tokens kept, `{ user }` given back), or the link to make first.
    type ProviderAnswer = Answer<typeof providers.ProviderSignInResponse>['data'];
    expectTypeOf<Exclude<sdk.ProviderSignInResult, sdk.LoginSuccess>>().toEqualTypeOf<
      Exclude<ProviderAnswer, Answer<typeof auth.TokensResponse>>
    >();
  });

  it('send request bodies the server accepts', () => {
    expectTypeOf<sdk.LoginRequest>().toExtend<Body<typeof auth.LoginRequest>>();
    expectTypeOf<sdk.CodeVerifyRequest>().toExtend<Body<typeof auth.CodeVerifyRequest>>();
    // The SDK fills in `app` and `mid` from discovery when they are left out.
    expectTypeOf<sdk.SignupRequest & { app: string; mid: string }>().toExtend<Body<typeof auth.SignupRequest>>();
    expectTypeOf<sdk.ResetPasswordRequest>().toExtend<Body<typeof auth.ResetPasswordRequest>>();
    expectTypeOf<sdk.UpdateUserRequest>().toExtend<Body<typeof me.UpdateUserRequest>>();
    expectTypeOf<sdk.ChangePasswordRequest>().toExtend<Body<typeof me.ChangePasswordRequest>>();
    expectTypeOf<sdk.ReauthenticateRequest>().toExtend<Body<typeof auth.ReauthenticateRequest>>();
    expectTypeOf<sdk.InviteUserRequest>().toExtend<Body<typeof admin.InviteUserRequest>>();
    expectTypeOf<{ status: sdk.SettableUserStatus }>().toExtend<Body<typeof admin.UserStatusRequest>>();
    expectTypeOf<sdk.UpdateMerchantRequest>().toEqualTypeOf<Body<typeof merchants.UpdateMerchantRequest>>();
    expectTypeOf<sdk.CreateRoleRequest>().toEqualTypeOf<Body<typeof roles.CreateRoleRequest>>();
    expectTypeOf<sdk.AssignRoleRequest>().toEqualTypeOf<Body<typeof roles.AssignRoleRequest>>();
    expectTypeOf<sdk.RevokeRoleRequest>().toEqualTypeOf<Body<typeof roles.RevokeRoleRequest>>();
    expectTypeOf<sdk.CreateSignInProviderRequest>().toEqualTypeOf<Body<typeof providers.CreateSignInProviderRequest>>();
    expectTypeOf<sdk.UpdateSignInProviderRequest>().toEqualTypeOf<Body<typeof providers.UpdateSignInProviderRequest>>();
  });
});
