import { exportPKCS8, exportSPKI, generateKeyPair, importSPKI, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { isPublicAddress, publicUrlProblem } from '#shared/http/outbound-url.ts';
import { emailVerifiedIn } from '#shared/sign-in-providers/kinds.ts';
import { appleClientSecret, directoryIssuer } from '#shared/sign-in-providers/upstream.ts';
import type { StoredSignInProvider } from '#shared/store/sign-in-provider-repo.ts';

describe('the addresses a provider URL may lead to', () => {
  it.each([
    ['10.1.2.3', false],
    ['172.16.0.1', false],
    ['172.31.255.255', false],
    ['192.168.1.1', false],
    ['127.0.0.1', false],
    ['169.254.169.254', false],
    ['100.64.0.1', false],
    ['0.0.0.0', false],
    ['224.0.0.1', false],
    ['::1', false],
    ['fd00:ec2::254', false],
    ['fe80::1', false],
    ['::ffff:10.0.0.1', false],
    ['172.32.0.1', true],
    ['8.8.8.8', true],
    ['142.250.185.78', true],
    ['2607:f8b0:4004:c1b::65', true],
    ['not an address', false],
  ])('%s is public: %s', (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });

  it('refuses plain http, credentials and private literals; loopback only where the local stack allows it', async () => {
    expect(await publicUrlProblem('http://id.example.com', { allowLoopback: false })).toBe('must use https');
    expect(await publicUrlProblem('https://u:p@id.example.com', { allowLoopback: false })).toMatch(/user information/);
    expect(await publicUrlProblem('https://10.0.0.1/', { allowLoopback: false })).toBe('must name a public host');
    expect(await publicUrlProblem('https://localhost/', { allowLoopback: false })).toBe('must name a public host');
    expect(await publicUrlProblem('http://127.0.0.1:8080/', { allowLoopback: false })).toBe('must use https');
    expect(await publicUrlProblem('http://127.0.0.1:8080/', { allowLoopback: true })).toBeNull();
    expect(await publicUrlProblem('https://8.8.8.8/', { allowLoopback: false })).toBeNull();
  });
});

describe("each kind's word on an address", () => {
  it('takes email_verified (Apple sends a string), and for Entra ID only xms_edov', () => {
    expect(emailVerifiedIn('GOOGLE', { email_verified: true })).toBe(true);
    expect(emailVerifiedIn('GOOGLE', { email_verified: false })).toBe(false);
    expect(emailVerifiedIn('OIDC', {})).toBe(false);
    expect(emailVerifiedIn('APPLE', { email_verified: 'true' })).toBe(true);
    expect(emailVerifiedIn('MICROSOFT', { email_verified: true })).toBe(false);
    expect(emailVerifiedIn('MICROSOFT', { xms_edov: true })).toBe(true);
  });
});

describe("Entra ID's multi-tenant issuer", () => {
  const template = 'https://login.microsoftonline.com/{tenantid}/v2.0';
  const tokenWith = (claims: Record<string, unknown>) =>
    new Response(JSON.stringify({ id_token: `x.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.y` }));

  it('is the directory the token names (tid), checked afterwards like any issuer; the response is left readable', async () => {
    const tid = '9188040d-6c67-4c5b-b112-36a304b66dad';
    const response = tokenWith({ tid });
    expect(await directoryIssuer(template, response)).toBe(`https://login.microsoftonline.com/${tid}/v2.0`);
    expect(await response.json()).toHaveProperty('id_token');
  });

  it('refuses a token without a directory id, or with one that is not an id', async () => {
    await expect(directoryIssuer(template, tokenWith({}))).rejects.toThrow(/tid/);
    await expect(directoryIssuer(template, tokenWith({ tid: '../evil' }))).rejects.toThrow(/tid/);
  });
});

describe("Apple's client secret", () => {
  it('is an ES256 JWT from the team to Apple about the service, signed with the merchant key, short-lived', async () => {
    const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
    const pem = await exportPKCS8(privateKey);
    const provider = {
      clientId: 'com.shop.signin',
      apple: { teamId: 'TEAM123456', keyId: 'KEY1234567' },
    } as StoredSignInProvider;
    const now = new Date();
    const secret = await appleClientSecret(provider, pem, now);
    const { payload, protectedHeader } = await jwtVerify(
      secret,
      await importSPKI(await exportSPKI(publicKey), 'ES256'),
      {
        issuer: 'TEAM123456',
        audience: 'https://appleid.apple.com',
        subject: 'com.shop.signin',
      },
    );
    expect(protectedHeader).toMatchObject({ alg: 'ES256', kid: 'KEY1234567' });
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBeLessThanOrEqual(300);
  });
});
