import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { ChangePasswordRequest, EmailChangeVerifyRequest, UpdateUserRequest } from '#shared/account/schemas.ts';
import { NewPassword } from '#shared/auth/password-policy.ts';
import { SignupRequest } from '#shared/auth/schemas.ts';
import { UpdateMerchantRequest } from '#shared/merchants/schemas.ts';
import { PostLogoutRedirectUris, RedirectUris } from '#shared/oidc/schemas.ts';
import { CreateRoleRequest } from '#shared/roles/schemas.ts';
import { Email, Phone } from '#shared/users/schemas.ts';
import { formSchemas, validateForm } from '../../client/src/index.ts';

/**
 * The client's form rules are copies of the service's request rules (the
 * client package cannot import server code). This table holds them side by
 * side: for every input, both must accept or both refuse, so they cannot drift.
 */
const ok = (schema: v.GenericSchema, input: unknown) => v.safeParse(schema, input).success;

const long = (n: number, c = 'a') => c.repeat(n);

const tables: Array<{ name: string; client: v.GenericSchema; server: v.GenericSchema; inputs: unknown[] }> = [
  {
    name: 'email ↔ Email',
    client: formSchemas.email,
    server: Email,
    inputs: [
      'ann@shop.test',
      '  Ann@Shop.Test  ',
      'ann@shop',
      'ann@@shop.test',
      'ann shop@shop.test',
      'ann@shop..test',
      '@shop.test',
      'ann@',
      '',
      `${long(244)}@shop.test`,
      `${long(247)}@shop.test`,
      42,
      null,
    ],
  },
  {
    name: 'profile ↔ UpdateUserRequest',
    client: formSchemas.profile,
    server: UpdateUserRequest,
    inputs: [
      {},
      { firstName: 'Fern' },
      { firstName: 'F', lastName: 'G' },
      { firstName: '' },
      { firstName: '   ' },
      { firstName: '  Ivy  ' },
      { lastName: '' },
      { firstName: long(256) },
      { firstName: long(257) },
      { firstName: 42 },
      { firstName: null },
      { phone: '' },
      { phone: 'call me maybe' },
      { phone: '+44 20 7946 0000' },
      { phone: null },
      { phone: long(15, '1') },
      { phone: long(16, '1') },
      { phone: `${long(60, ' ')}1234` },
      { phone: long(65, '1') },
      { phone: 5 },
      { email: 'x@shop.test' },
      { firstName: 'Fern', role: 'ADMIN' },
      null,
      'Fern',
    ],
  },
  {
    name: 'phone ↔ the phone of UpdateUserRequest and SignupRequest',
    client: formSchemas.phone,
    server: Phone,
    inputs: [
      '+442079460000',
      '+44 20 7946 0000',
      '+44 (0)20 7946 0000',
      '(202) 555-0143',
      '020-7946-0000',
      '+1-555-123-4567',
      '  555-0100  ',
      '12345',
      '1234',
      '1234567890123456',
      '123456789012345',
      '',
      '   ',
      'call me maybe',
      '+44 20 7946 0000 ext 2',
      '0800 FLOWERS',
      '555.123.4567',
      '++44 20 7946 0000',
      '+ 44 20 7946 0000',
      '44 20 7946 0000+',
      '020--7946 0000',
      '(020 7946 0000',
      '() 020 7946 0000',
      '(0(20)) 7946 0000',
      '١٢٣٤٥٦٧',
      '020\n7946 0000',
      42,
      null,
    ],
  },
  {
    name: 'changePassword ↔ ChangePasswordRequest',
    client: formSchemas.changePassword,
    server: ChangePasswordRequest,
    inputs: [
      { currentPassword: 'old', newPassword: 'fernfern1' },
      { currentPassword: 'old', newPassword: 'fernfer1' },
      { currentPassword: 'old', newPassword: 'fernfe1' },
      { currentPassword: 'old', newPassword: 'fernfern' },
      { currentPassword: 'old', newPassword: '12345678' },
      { currentPassword: 'old', newPassword: 'пароль123' },
      { currentPassword: 'old', newPassword: '密码密码密码密码1' },
      { currentPassword: 'old', newPassword: '🌿🌿🌿🌿🌿🌿a1' },
      { currentPassword: 'old', newPassword: '🌿🌿🌿a1' },
      { currentPassword: 'old', newPassword: `a1${long(126)}` },
      { currentPassword: 'old', newPassword: `a1${long(127)}` },
      { currentPassword: 'old', newPassword: 'fern fern 1' },
      { currentPassword: '', newPassword: 'fernfern1' },
      { currentPassword: long(129), newPassword: 'fernfern1' },
      { currentPassword: 'old', newPassword: 'fernfern1', totpCode: '123456' },
      { currentPassword: 'old', newPassword: 'fernfern1', totpCode: 'abcd-efgh' },
      { currentPassword: 'old', newPassword: 'fernfern1', totpCode: '   ' },
      { currentPassword: 'old', newPassword: 'fernfern1', totpCode: long(33, '1') },
      { currentPassword: 'old' },
      { newPassword: 'fernfern1' },
      { currentPassword: 'old', newPassword: 'fernfern1', extra: true },
    ],
  },
  {
    name: 'newPassword ↔ NewPassword',
    client: formSchemas.newPassword,
    server: NewPassword,
    inputs: [
      'fernfern1',
      'a1',
      'abcdefgh',
      '1234567a',
      'ÄÖÜäöü12',
      '١٢٣٤٥٦٧a',
      `${long(127)}1`,
      `${long(128)}1`,
      12345678,
      null,
    ],
  },
  {
    name: 'totpCode ↔ the 6-digit code of EmailChangeVerifyRequest',
    client: formSchemas.totpCode,
    server: EmailChangeVerifyRequest.entries.code,
    inputs: ['123456', '000000', ' 123456 ', '12345', '1234567', '12345a', '１２３４５６', '', 123456, null],
  },
  {
    name: 'merchantColours ↔ UpdateMerchantRequest (colour fields)',
    client: formSchemas.merchantColours,
    server: UpdateMerchantRequest,
    inputs: [
      {},
      { primaryColor: '#a1B2c3' },
      { primaryColor: '#000000', secondaryColor: '#FFFFFF' },
      { primaryColor: null, secondaryColor: null },
      { primaryColor: '#abc' },
      { primaryColor: 'a1b2c3' },
      { primaryColor: '#a1b2c3d4' },
      { primaryColor: '#gggggg' },
      { secondaryColor: 'red' },
      { secondaryColor: ' #a1b2c3' },
      { primaryColor: 123456 },
      { darkPrimaryColor: '#8fd3b6', darkSecondaryColor: '#0F1A14' },
      { darkPrimaryColor: null, darkSecondaryColor: null },
      { darkPrimaryColor: '#8fd3b' },
      { darkSecondaryColor: 'black' },
    ],
  },
  {
    name: 'role ↔ CreateRoleRequest (name, priority, description)',
    client: formSchemas.role,
    server: CreateRoleRequest,
    inputs: [
      { name: 'CASHIER', priority: 60 },
      { name: 'c', priority: 2 },
      { name: '  Shift_lead-2 ', priority: 1000, description: 'Runs the till' },
      { name: 'CASHIER', priority: 60, description: null },
      { name: 'CASHIER', priority: 60, description: long(256) },
      { name: 'CASHIER', priority: 60, description: long(257) },
      { name: `A${long(63)}`, priority: 60 },
      { name: `A${long(64)}`, priority: 60 },
      { name: '', priority: 60 },
      { name: '2FAST', priority: 60 },
      { name: '_under', priority: 60 },
      { name: 'has space', priority: 60 },
      { name: 'CASHIER', priority: 1 },
      { name: 'CASHIER', priority: 0 },
      { name: 'CASHIER', priority: 1001 },
      { name: 'CASHIER', priority: 2.5 },
      { name: 'CASHIER', priority: Number.NaN },
      { name: 'CASHIER', priority: '60' },
      { name: 'CASHIER' },
      { priority: 60 },
      { name: 42, priority: 60 },
    ],
  },
  {
    name: 'oidcClientRedirects ↔ RedirectUris and PostLogoutRedirectUris of CreateOidcClientRequest',
    client: formSchemas.oidcClientRedirects,
    server: v.object({ redirectUris: RedirectUris, postLogoutRedirectUris: v.optional(PostLogoutRedirectUris) }),
    inputs: [
      ...[
        'https://shop.example/callback',
        'https://shop.example/cb?x=1',
        'https://shop.example/cb#part',
        'https://*.shop.example/cb',
        'https://shop.example/c b',
        'shop.example/callback',
        'https://user:pw@shop.example/cb',
        'https://SHOP.example/cb',
        'https://shop.example',
        'http://localhost:3000/cb',
        'http://127.0.0.1:8080/cb',
        'http://[::1]/cb',
        'http://shop.example/cb',
        'com.example.app:/callback',
        'myapp:/callback',
        'ftp://shop.example/cb',
        `https://shop.example/${long(2030)}`,
        `https://shop.example/${long(2040)}`,
      ].map((uri) => ({ redirectUris: [uri] })),
      { redirectUris: [] },
      { redirectUris: Array.from({ length: 10 }, (_, i) => `https://shop.example/${i}`) },
      { redirectUris: Array.from({ length: 11 }, (_, i) => `https://shop.example/${i}`) },
      { redirectUris: ['https://shop.example/cb', 'https://shop.example/cb'] },
      { redirectUris: ['https://shop.example/cb'], postLogoutRedirectUris: [] },
      { redirectUris: ['https://shop.example/cb'], postLogoutRedirectUris: ['https://shop.example/bye'] },
      { redirectUris: ['https://shop.example/cb'], postLogoutRedirectUris: ['https://shop.example/bye#x'] },
      {
        redirectUris: ['https://shop.example/cb'],
        postLogoutRedirectUris: ['https://a.example/', 'https://a.example/'],
      },
      {
        redirectUris: ['https://shop.example/cb'],
        postLogoutRedirectUris: Array.from({ length: 11 }, (_, i) => `https://shop.example/${i}`),
      },
      { redirectUris: 'https://shop.example/cb' },
      { redirectUris: [42] },
    ],
  },
];

describe('formSchemas agree with the service', () => {
  for (const table of tables) {
    it.each(table.inputs.map((input) => [JSON.stringify(input), input] as const))(
      `${table.name}: %s`,
      (_label, input) => {
        expect(ok(table.client, input)).toBe(ok(table.server, input));
      },
    );
  }
});

describe('formSchemas rules', () => {
  it('profile: first and last name need 1+ characters; a phone is a number, not a note', () => {
    expect(ok(formSchemas.profile, { firstName: 'F', lastName: 'G', phone: '+44 20 7946 0000' })).toBe(true);
    expect(ok(formSchemas.profile, { phone: 'whenever' })).toBe(false);
    expect(ok(formSchemas.profile, { firstName: '' })).toBe(false);
    expect(ok(formSchemas.profile, { lastName: '' })).toBe(false);
  });

  it('the service takes one phone rule wherever a phone is given: the profile and signup', () => {
    for (const [phone, accepted] of [
      ['+1 (202) 555-0143', true],
      ['0800 FLOWERS', false],
    ] as const) {
      expect(ok(UpdateUserRequest, { phone })).toBe(accepted);
      const signup = { app: 'app_x', mid: 'mid_x', email: 'a@shop.test', firstName: 'A', lastName: 'B', phone };
      expect(ok(SignupRequest, signup)).toBe(accepted);
    }
  });

  it('changePassword: newPassword needs 8+ characters with a letter and a digit', () => {
    const issues = v.safeParse(formSchemas.changePassword, { currentPassword: 'x', newPassword: 'abcdefgh' }).issues;
    expect(issues?.map((i) => i.message)).toEqual(['needs a digit']);
    expect(ok(formSchemas.changePassword, { currentPassword: 'x', newPassword: 'abcdefg1' })).toBe(true);
    expect(ok(formSchemas.changePassword, { currentPassword: 'x', newPassword: 'abcdef1' })).toBe(false);
    expect(ok(formSchemas.changePassword, { currentPassword: 'x', newPassword: '12345678' })).toBe(false);
  });

  it('totpCode: exactly 6 digits', () => {
    expect(ok(formSchemas.totpCode, '123456')).toBe(true);
    expect(ok(formSchemas.totpCode, '12345')).toBe(false);
    expect(ok(formSchemas.totpCode, '1234567')).toBe(false);
    expect(ok(formSchemas.totpCode, 'abcdef')).toBe(false);
  });

  it('merchantColours: #rrggbb', () => {
    expect(ok(formSchemas.merchantColours, { primaryColor: '#2e7d32', secondaryColor: '#A5D6A7' })).toBe(true);
    expect(ok(formSchemas.merchantColours, { primaryColor: '#2e7d3' })).toBe(false);
    expect(v.safeParse(formSchemas.merchantColours, { primaryColor: 'green' }).issues?.[0]?.message).toBe(
      'must be a #rrggbb colour',
    );
  });
});

describe('validateForm', () => {
  it("answers the parsed output, or field errors shaped like the service's errors[]", () => {
    expect(validateForm(formSchemas.profile, { firstName: '  Ivy ' })).toEqual({
      success: true,
      output: { firstName: 'Ivy' },
    });
    expect(validateForm(formSchemas.changePassword, { currentPassword: '', newPassword: 'abcdefgh' })).toEqual({
      success: false,
      errors: [
        { path: 'currentPassword', message: 'is required' },
        { path: 'newPassword', message: 'needs a digit' },
      ],
    });
    expect(validateForm(formSchemas.totpCode, '12a456')).toEqual({
      success: false,
      errors: [{ path: '', message: 'must be 6 digits' }],
    });
  });
});
