/**
 * Every key the service writes, built in one place. The tenant (`app`, `mid`)
 * is the first segment of every tenant-owned key, so a read scoped to one
 * tenant cannot reach another's items. The access patterns are listed in
 * ./README.md; change both together.
 */
export interface TenantRef {
  app: string;
  mid: string;
}

/** `#` separates segments, so it may not appear inside one (ids, app and mid are generated without it). */
function segment(value: string): string {
  if (value.includes('#')) throw new Error('key segment contains #');
  return value;
}

/** Free text (e-mail addresses, role names) may hold `#`: percent-encode it into one segment. */
function text(value: string): string {
  return encodeURIComponent(value);
}

const tenantPrefix = (t: TenantRef) => `T#${segment(t.app)}#${segment(t.mid)}`;
const userPartition = (t: TenantRef, userId: string) => `${tenantPrefix(t)}#U#${segment(userId)}`;

export const keys = {
  /** The merchant item; also indexed by its public client key for discovery. */
  merchant: (t: TenantRef) => ({ pk: tenantPrefix(t), sk: 'MERCHANT' }),
  merchantByClientKey: (publicApiKey: string) => ({ gsi1pk: `CLIENT#${segment(publicApiKey)}`, gsi1sk: 'MERCHANT' }),
  /** Global uniqueness of subdomains (the item exists while a tenant holds it). */
  subdomain: (subdomain: string) => ({ pk: `SUBDOMAIN#${segment(subdomain)}`, sk: 'SUBDOMAIN' }),
  /** Which tenants allow an origin: answers CORS preflight, which carries no tenant headers. */
  originAllowed: (origin: string, t: TenantRef) => ({ pk: `ORIGIN#${segment(origin)}`, sk: tenantPrefix(t) }),
  originPartition: (origin: string) => `ORIGIN#${segment(origin)}`,

  role: (t: TenantRef, roleId: string) => ({ pk: tenantPrefix(t), sk: `ROLE#${segment(roleId)}` }),
  rolePrefix: 'ROLE#',
  /** Role names are unique per tenant (upper-cased). */
  roleName: (t: TenantRef, name: string) => ({ pk: tenantPrefix(t), sk: `ROLENAME#${segment(name.toUpperCase())}` }),

  /** The user lives in its own partition, so one busy tenant spreads over many partitions. */
  user: (t: TenantRef, userId: string) => ({ pk: `${tenantPrefix(t)}#U#${segment(userId)}`, sk: 'PROFILE' }),
  usersOfTenant: (t: TenantRef, userId: string) => ({
    gsi1pk: `${tenantPrefix(t)}#USERS`,
    gsi1sk: `U#${segment(userId)}`,
  }),
  /** E-mail uniqueness within a tenant; holds the user id (lower-cased, trimmed e-mail). */
  userEmail: (t: TenantRef, email: string) => ({ pk: `${tenantPrefix(t)}#EMAIL#${segment(email)}`, sk: 'EMAIL' }),
  grant: (t: TenantRef, userId: string, roleId: string) => ({
    pk: `${tenantPrefix(t)}#U#${segment(userId)}`,
    sk: `GRANT#${segment(roleId)}`,
  }),
} as const;
