import * as v from 'valibot';
import { LANGUAGES } from '../i18n/languages.ts';

/** One of the languages the pages and mails are written in. */
export const DefaultLanguage = v.picklist(LANGUAGES, `must be ${LANGUAGES.join(' or ')}`);

export const LoginMode = v.picklist(['PASSWORD', 'OTP_EMAIL', 'PASSWORD_OR_OTP_EMAIL']);
export const SignupMode = v.picklist(['OPEN', 'INVITATION_ONLY']);
export type LoginMode = v.InferOutput<typeof LoginMode>;

/** The kinds of sign-in provider a tenant may add (shared/sign-in-providers/). */
export const PROVIDER_KINDS = ['GOOGLE', 'APPLE', 'MICROSOFT', 'GITHUB', 'OIDC'] as const;
export type ProviderKind = (typeof PROVIDER_KINDS)[number];

/** A "Sign in with …" button of the sign-in page: a provider the tenant has on, in discovery, in order. */
export const SignInProviderButton = v.object({
  id: v.string(),
  kind: v.picklist(PROVIDER_KINDS),
  displayName: v.string(),
});
export type SignInProviderButton = v.InferOutput<typeof SignInProviderButton>;
export type SignupMode = v.InferOutput<typeof SignupMode>;

/** `#rrggbb` colours, as the brief and the client's form rules have them. */
export const HexColour = v.pipe(v.string(), v.regex(/^#[0-9a-fA-F]{6}$/, 'must be a #rrggbb colour'));

/** An Origin as browsers send it: scheme, host and optional port, nothing else. */
export const Origin = v.pipe(
  v.string(),
  v.maxLength(256),
  v.check((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value;
    } catch {
      return false;
    }
  }, 'must be an origin such as https://shop.example.com (scheme, host and port only)'),
);

export const DiscoveryQuery = v.object({
  /** The public client key. A hosted page (web/) may send only `slug`, naming its own tenant. */
  clientId: v.optional(v.pipe(v.string(), v.minLength(1, 'is required'), v.maxLength(256))),
  /** The tenant's subdomain: with `clientId` only logged; alone, from the tenant's hosted pages, it names the tenant. */
  slug: v.optional(v.pipe(v.string(), v.maxLength(256))),
});

export const DiscoveryResponse = v.object({
  name: v.string(),
  app: v.string(),
  mid: v.string(),
  publicApiKey: v.string(),
  subdomain: v.string(),
  logoUrl: v.nullable(v.string()),
  primaryColor: v.nullable(HexColour),
  secondaryColor: v.nullable(HexColour),
  /** A dark colour scheme's pair; null: the pages derive it from the light pair. */
  darkPrimaryColor: v.nullable(HexColour),
  darkSecondaryColor: v.nullable(HexColour),
  /** Linked from the footer of every hosted page when set. */
  privacyPolicyUrl: v.nullable(v.string()),
  termsUrl: v.nullable(v.string()),
  /** The pages' and mails' language when the reader's browser names none of ours. */
  defaultLanguage: DefaultLanguage,
  loginMode: LoginMode,
  signupMode: SignupMode,
  totpAllowed: v.boolean(),
  allowUserDisableTotp: v.boolean(),
  /** Whether the pages offer passkeys: the tenant's setting, in a deployment with hosted pages (their host is the RP ID). */
  passkeysAllowed: v.boolean(),
  /** The sign-in page's "Sign in with …" buttons, in order: the providers turned on. */
  signInProviders: v.array(SignInProviderButton),
});
export type DiscoveryResponse = v.InferOutput<typeof DiscoveryResponse>;
