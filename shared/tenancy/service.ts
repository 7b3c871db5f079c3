import type { Deps } from '../deps.ts';
import { hostedOrigin, passkeysOffered } from './hosted-pages.ts';
import type { DiscoveryResponse } from './schemas.ts';
import type { Merchant } from './types.ts';

/** The public face of a tenant, as discovery shows it: nothing an attacker could use. */
export function toDiscovery(
  deps: Deps,
  tenant: Merchant,
  context: { slug: string | undefined; requestId: string },
): DiscoveryResponse {
  // The slug is the client's idea of the subdomain: logged only, never used to choose the tenant.
  if (context.slug !== undefined && context.slug !== tenant.subdomain) {
    deps.log.info('discovery slug differs from subdomain', { requestId: context.requestId, app: tenant.app });
  }
  return {
    name: tenant.name,
    app: tenant.app,
    mid: tenant.mid,
    publicApiKey: tenant.publicApiKey,
    subdomain: tenant.subdomain,
    logoUrl: tenant.logoUrl,
    primaryColor: tenant.primaryColor,
    secondaryColor: tenant.secondaryColor,
    darkPrimaryColor: tenant.darkPrimaryColor,
    darkSecondaryColor: tenant.darkSecondaryColor,
    privacyPolicyUrl: tenant.privacyPolicyUrl,
    termsUrl: tenant.termsUrl,
    defaultLanguage: tenant.defaultLanguage,
    loginMode: tenant.loginMode,
    signupMode: tenant.signupMode,
    totpAllowed: tenant.totpAllowed,
    allowUserDisableTotp: tenant.allowUserDisableTotp,
    passkeysAllowed: passkeysOffered(deps.config, tenant),
    // A provider's callback is on the hosted origin: without hosted pages there are no buttons to show.
    signInProviders: hostedOrigin(deps.config, tenant.subdomain) ? tenant.signInProviders : [],
  };
}
