import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BRIEF_RESOURCES, type Field, type ResourceName, violationsOf } from '#test/support/brief-resources.ts';

/**
 * The brief's field tables (test/support/brief-resources.ts, kept by
 * hand) against the committed OpenAPI document: every resource it
 * documents has exactly the table's fields, all required, with the table's
 * types, nullability and values. The http project holds the wire to the same
 * tables (test/http/contract/resources.test.ts).
 */

type Json = Record<string, any>;
const document = JSON.parse(readFileSync(new URL('../../../openapi.json', import.meta.url), 'utf8')) as Json;

function resolve(schema: Json): Json {
  if (typeof schema.$ref !== 'string') return schema;
  const name = schema.$ref.replace('#/components/schemas/', '');
  const found = document.components.schemas[name];
  if (!found) throw new Error(`no component ${name}`);
  return resolve(found);
}

const component = (name: string) => resolve({ $ref: `#/components/schemas/${name}` });
const success = (path: string, method: string) => {
  const responses = document.paths[path]?.[method]?.responses ?? {};
  const status = Object.keys(responses).find((code) => /^2\d\d$/.test(code)) ?? '';
  return resolve(responses[status]?.content?.['application/json']?.schema ?? {});
};

/** Where the document describes each resource of the brief. */
const DOCUMENTED: { [R in ResourceName]: () => Json } = {
  UserResponse: () => component('UserResponse'),
  AdminUserResponse: () => component('AdminUserResponse'),
  MailSuppression: () => component('MailSuppression'),
  UserRole: () => resolve(component('UserResponse').properties.roles.items),
  SessionResponse: () => component('SessionResponse'),
  DeviceResponse: () => component('DeviceResponse'),
  ActivityResponse: () => resolve(component('ActivityPage').properties.items.items),
  ActivityPage: () => component('ActivityPage'),
  MerchantResponse: () => component('MerchantResponse'),
  DiscoveryResponse: () => component('DiscoveryResponse'),
  GenerateApiKeyResponse: () => component('GenerateApiKeyResponse'),
  ApiKeyResponse: () => component('ApiKeyResponse'),
  RoleResponse: () => component('RoleResponse'),
  TotpSetupResponse: () => component('TotpSetupResponse'),
  EmailChangeResponse: () => success('/users/me/email-change', 'post'),
  ChallengeIdResponse: () => success('/auth/forgot-password', 'post'),
  EmailChangeVerifyResponse: () => component('EmailChangeVerifyResponse'),
  InviteUserResponse: () => success('/users/invitations', 'post'),
  LoginTokens: () => component('TokensResponse'),
  LoginChallenge: () => component('ChallengeResponse'),
  HealthResponse: () => component('HealthResponse'),
  OidcClientResponse: () => component('OidcClientResponse'),
  OidcClientWithSecretResponse: () => component('OidcClientWithSecretResponse'),
  PasskeyResponse: () => component('PasskeyResponse'),
  SignInProviderButton: () => component('SignInProviderButton'),
  SignInProviderResponse: () => component('SignInProviderResponse'),
  AppleKeyInfo: () => component('AppleKeyInfo'),
  IdentityResponse: () => component('IdentityResponse'),
  WebhookEndpointResponse: () => component('WebhookEndpointResponse'),
  WebhookEndpointWithSecret: () => component('WebhookEndpointWithSecret'),
  DeliveryAttemptResponse: () => component('DeliveryAttemptResponse'),
  DeliveryAttemptPage: () => success('/webhook-endpoints/{endpointId}/attempts', 'get'),
  QueuedResponse: () => success('/webhook-endpoints/{endpointId}/test', 'post'),
};

/** A JSON Schema as the table says it: its types (null included) and allowed values. */
function shapeOf(schema: Json): { types: string[]; values?: unknown[] } {
  const s = resolve(schema);
  if (Array.isArray(s.anyOf)) {
    const parts = s.anyOf.map(shapeOf);
    const values = parts.flatMap((p: { values?: unknown[] }) => p.values ?? []);
    return {
      types: [...new Set(parts.flatMap((p: { types: string[] }) => p.types))].sort(),
      ...(values.length ? { values } : {}),
    };
  }
  if ('const' in s) return { types: [typeof s.const], values: [s.const] };
  if (Array.isArray(s.enum))
    return { types: [...new Set(s.enum.map((e: unknown) => typeof e))].sort() as string[], values: s.enum };
  return { types: [s.type].flat().sort() };
}

function expectedShape(field: Field): { types: string[]; values?: unknown[] } {
  const base = field.type === 'integer' ? 'integer' : field.type;
  return {
    types: [base, ...(field.nullable ? ['null'] : [])].sort(),
    ...(field.values ? { values: [...field.values] } : {}),
  };
}

describe("the brief's resources in the OpenAPI document", () => {
  it.each(Object.keys(BRIEF_RESOURCES) as ResourceName[])(
    '%s: exactly the brief fields (and ours), all required, each with its type, nullability and values',
    (resource) => {
      const fields: Record<string, Field> = BRIEF_RESOURCES[resource];
      const schema = DOCUMENTED[resource]();
      expect(Object.keys(schema.properties ?? {}).sort()).toEqual(Object.keys(fields).sort());
      expect([...(schema.required ?? [])].sort()).toEqual(Object.keys(fields).sort());
      for (const [name, field] of Object.entries(fields)) {
        expect({ field: name, ...shapeOf(schema.properties[name]) }).toEqual({ field: name, ...expectedShape(field) });
      }
    },
  );
});

describe('violationsOf (the check the http tests make)', () => {
  const role = {
    id: 'rol_1',
    name: 'Gardener',
    app: 'app_1',
    mid: 'mid_1',
    custom: true,
    priority: 5,
    owner: 'MERCHANT',
    createdAt: '2026-11-23T10:00:00.000Z',
    description: null,
  };

  it('finds nothing in an exact resource', () => {
    expect(violationsOf('RoleResponse', role)).toEqual([]);
  });

  it('fails a renamed, a missing or an extra field, a wrong type, a null the brief has not, a value it does not allow', () => {
    const { custom, ...withoutCustom } = role;
    expect(violationsOf('RoleResponse', { ...withoutCustom, isCustom: custom })).toEqual([
      'RoleResponse.custom: missing',
      "RoleResponse.isCustom: not in the brief's RoleResponse (nor marked ours)",
    ]);
    expect(violationsOf('RoleResponse', { ...role, priority: '5' })).toEqual([
      'RoleResponse.priority: is string, the brief says integer',
    ]);
    expect(violationsOf('RoleResponse', { ...role, name: null })).toEqual([
      'RoleResponse.name: is null, the brief says string',
    ]);
    expect(violationsOf('RoleResponse', { ...role, owner: 'TENANT' })).toEqual([
      'RoleResponse.owner: "TENANT" is not one of SYSTEM, MERCHANT',
    ]);
    expect(violationsOf('RoleResponse', { ...role, createdAt: 'yesterday' })).toEqual([
      'RoleResponse.createdAt: not an ISO 8601 UTC timestamp',
    ]);
  });

  it('looks inside arrays and nested resources', () => {
    const user = {
      id: 'usr_1',
      email: 'a@b.test',
      emailStatus: 'PENDING',
      firstName: null,
      lastName: null,
      phone: null,
      status: 'ACTIVE',
      totpEnabled: false,
      roles: [{ roleId: 'rol_1', name: 'DEFAULT', priority: 99 }],
      registeredAt: '2026-11-23T10:00:00.000Z',
      lastLoginAt: null,
    };
    expect(violationsOf('UserResponse', user)).toEqual([
      'UserResponse.emailStatus: "PENDING" is not one of VALIDATED, VALIDATION_SENT, UNVALIDATED',
      'UserResponse.roles[0].expiresAt: missing',
    ]);
  });
});
