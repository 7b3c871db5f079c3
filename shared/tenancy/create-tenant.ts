import * as v from 'valibot';
import { hashPassword } from '../auth/passwords.ts';
import type { Deps } from '../deps.ts';
import { fail } from '../errors.ts';
import { DEFAULT_LANGUAGE } from '../i18n/languages.ts';
import { newId } from '../random.ts';
import { grantOf } from '../roles/authority.ts';
import { SYSTEM_ROLES } from '../roles/system-roles.ts';
import { merchantRepo } from '../store/merchant-repo.ts';
import { Email } from '../users/schemas.ts';
import { LoginMode, Origin, SignupMode } from './schemas.ts';
import type { Merchant, Role } from './types.ts';

// Its own module, apart from ./service.ts: it hashes with argon2, a native module that only the
// functions that need it carry (discovery and preflight bundles stay small and pure JS).

const Subdomain = v.pipe(
  v.string(),
  v.regex(/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/, 'must be 1-63 lower-case letters, digits or inner hyphens'),
);

export const CreateTenantInput = v.strictObject({
  name: v.pipe(v.string(), v.trim(), v.minLength(1, 'is required'), v.maxLength(128)),
  adminEmail: Email,
  origins: v.pipe(v.array(Origin), v.maxLength(20, 'at most 20 origins')),
  loginMode: v.optional(LoginMode, 'PASSWORD'),
  signupMode: v.optional(SignupMode, 'OPEN'),
  subdomain: v.optional(Subdomain),
  totpAllowed: v.optional(v.boolean(), true),
  allowUserDisableTotp: v.optional(v.boolean(), true),
  passkeysAllowed: v.optional(v.boolean(), true),
});
export type CreateTenantInput = v.InferInput<typeof CreateTenantInput>;

export interface CreatedTenant {
  id: string;
  app: string;
  mid: string;
  publicApiKey: string;
  subdomain: string;
  adminUserId: string;
  adminEmail: string;
  /** Shown once, to the operator who made the tenant; only its argon2id hash is stored. */
  adminPassword: string;
}

/** `Acme Plants!` → `acme-plants`. */
export function subdomainFromName(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '') // accents go, letters stay: Çà → ca
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 63)
    .replace(/-+$/, '');
  return slug || 'tenant';
}

/** A strong first password that meets the policy (a letter and a digit, 8-128 characters). */
function generatePassword(deps: Deps): string {
  for (;;) {
    const candidate = deps.random.token(24);
    if (/[a-z]/.test(candidate) && /\d/.test(candidate)) return candidate;
  }
}

/**
 * Creates a tenant with its SYSTEM roles and first admin (SUPER_ADMIN), all in
 * one transaction. A taken subdomain answers 409 ALREADY_EXISTS.
 */
export async function createTenant(deps: Deps, input: CreateTenantInput): Promise<CreatedTenant> {
  const parsed = v.safeParse(CreateTenantInput, input);
  if (!parsed.success) {
    const errors = parsed.issues.map((issue) => ({ path: v.getDotPath(issue) ?? 'input', message: issue.message }));
    throw fail('VALIDATION_FAILED', { detail: errors.map((e) => `${e.path}: ${e.message}`).join('; '), errors });
  }
  const spec = parsed.output;
  const now = deps.clock.now().toISOString();
  const subdomain = spec.subdomain ?? subdomainFromName(spec.name);
  const adminUserId = newId(deps.random, 'usr');
  const merchant: Merchant = {
    id: newId(deps.random, 'mer'),
    app: `app_${deps.random.token(16)}`,
    mid: `mid_${deps.random.token(16)}`,
    name: spec.name,
    publicApiKey: `pk_${deps.random.token(32)}`,
    subdomain,
    logoUrl: null,
    primaryColor: null,
    secondaryColor: null,
    darkPrimaryColor: null,
    darkSecondaryColor: null,
    privacyPolicyUrl: null,
    defaultLanguage: DEFAULT_LANGUAGE,
    termsUrl: null,
    loginMode: spec.loginMode,
    signupMode: spec.signupMode,
    totpAllowed: spec.totpAllowed,
    allowUserDisableTotp: spec.allowUserDisableTotp,
    passkeysAllowed: spec.passkeysAllowed,
    signInProviders: [],
    signInProvidersVersion: 0,
    adminUserId,
    allowedOrigins: [...new Set(spec.origins)],
    createdAt: now,
    updatedAt: now,
  };
  const roles: Role[] = SYSTEM_ROLES.map((role) => ({
    id: newId(deps.random, 'rol'),
    name: role.name,
    priority: role.priority,
    owner: 'SYSTEM',
    custom: false,
    description: null,
    createdAt: now,
  }));
  const adminPassword = generatePassword(deps);
  const admin = {
    id: adminUserId,
    email: spec.adminEmail,
    passwordHash: await hashPassword(deps.config.argon2, adminPassword),
    status: 'ACTIVE' as const,
    emailStatus: 'VALIDATED' as const,
    registeredAt: now,
  };
  // The first admin holds SUPER_ADMIN, and DEFAULT as every user does.
  const grants = Object.fromEntries(
    roles.filter((r) => r.name === 'SUPER_ADMIN' || r.name === 'DEFAULT').map((r) => [r.id, grantOf(r, now)]),
  );
  const outcome = await merchantRepo(deps.store).create({ merchant, roles, admin: { ...admin, grants } });
  if (!outcome.ok) throw fail('ALREADY_EXISTS', `subdomain "${subdomain}" is taken`);
  return {
    id: merchant.id,
    app: merchant.app,
    mid: merchant.mid,
    publicApiKey: merchant.publicApiKey,
    subdomain,
    adminUserId: admin.id,
    adminEmail: admin.email,
    adminPassword,
  };
}
