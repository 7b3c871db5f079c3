import type { Language } from '../i18n/languages.ts';
import type { LoginMode, SignInProviderButton, SignupMode } from './schemas.ts';

/** A tenant. `app` and `mid` identify it on every request (X-App-ID, X-Mid-Key). */
export interface Merchant {
  id: string;
  app: string;
  mid: string;
  name: string;
  /** Public: identifies the tenant to discovery (`clientId`). Not a secret. */
  publicApiKey: string;
  subdomain: string;
  logoUrl: string | null;
  primaryColor: string | null;
  secondaryColor: string | null;
  /** The colours in a dark colour scheme; null: derived from the light pair by the hosted pages (web/src/tenant.ts). */
  darkPrimaryColor: string | null;
  darkSecondaryColor: string | null;
  /** https links the hosted pages show in their footer, when set. */
  privacyPolicyUrl: string | null;
  termsUrl: string | null;
  /** The language of the hosted pages and the mails when the reader names none of ours (tenantDefaultLanguage). */
  defaultLanguage: Language;
  loginMode: LoginMode;
  signupMode: SignupMode;
  totpAllowed: boolean;
  allowUserDisableTotp: boolean;
  /** Whether users may add and sign in with passkeys (shared/passkeys/); on unless the merchant turns it off. */
  passkeysAllowed: boolean;
  /** The sign-in providers turned on, as the sign-in page's buttons, in order (shared/sign-in-providers/). */
  signInProviders: SignInProviderButton[];
  /** Moved on with every change of `signInProviders`: two admins' changes never lose one another's. */
  signInProvidersVersion: number;
  /**
   * The first admin, made with the tenant (the tenant CLI's `adminUserId`).
   * Null only on a tenant stored before it was kept, until its first merchant
   * read fills it in (merchants.recordFirstAdmin).
   */
  adminUserId: string | null;
  /** Browser origins allowed to call the API for this tenant (CORS and CSRF defence). */
  allowedOrigins: string[];
  createdAt: string;
  updatedAt: string;
}

export type SystemRoleName = 'SUPER_ADMIN' | 'ADMIN' | 'USER' | 'DEFAULT';

export interface Role {
  id: string;
  name: string;
  priority: number;
  owner: 'SYSTEM' | 'MERCHANT';
  /** False on SYSTEM roles; on MERCHANT roles what creation said (default true). */
  custom: boolean;
  description: string | null;
  createdAt: string;
}

export interface NewUser {
  id: string;
  email: string;
  passwordHash: string;
  status: 'ACTIVE';
  emailStatus: 'VALIDATED';
  registeredAt: string;
}
