import type { ClientInfo } from '#shared/http/request-state.ts';

/**
 * The people `npm run users -- seed` makes: the n-th person is always the same (names, address, device), so two
 * runs on two machines make the same tenant, and a failing run can be repeated. Names from many languages, accents
 * kept in the name and folded in the address, as people write them; addresses at the domains reserved for
 * examples (RFC 2606), which reach no one even if mail ever left the machine.
 */

const FIRST_NAMES = [
  'Amara',
  'Liam',
  'Sofía',
  'Noah',
  'Yuki',
  'Olivia',
  'Mateo',
  'Chloé',
  'Arjun',
  'Emma',
  'Björn',
  'Fatima',
  'Lucas',
  'Mei',
  'Tomás',
  'Zoë',
  'Kwame',
  'Isabella',
  'Hiroshi',
  'Ava',
  'José',
  'Priya',
  'Elias',
  'Nadia',
  'Oliver',
  'Leila',
  'Mohammed',
  'Grace',
  'Sebastián',
  'Ingrid',
  'Chen',
  'Hannah',
  'Diego',
  'Aisha',
  'Finn',
  'Renée',
  'Kofi',
  'Maja',
  'Rafael',
  'Anjali',
  'Jonas',
  'Lucía',
  'Tariq',
  'Elena',
  'Dmitri',
  'Camille',
  'Samuel',
  'Ngozi',
  'Mia',
  'Ravi',
] as const;

const LAST_NAMES = [
  'Okafor',
  'García',
  'Nguyễn',
  'Smith',
  'Tanaka',
  'Müller',
  'Rossi',
  'Johansson',
  'Patel',
  'Dubois',
  'Kowalski',
  'Haddad',
  'Silva',
  'Kim',
  'Andersen',
  'Mensah',
  'Fernández',
  'Cohen',
  'Yamamoto',
  'Brown',
  'Çelik',
  'Novák',
  'Ivanova',
  'Martin',
  'Osei',
  'Singh',
  'López',
  'Wang',
  'Nielsen',
  'Moreau',
  'Dvořák',
  'Hughes',
  'Rahman',
  'Costa',
  'Schmidt',
  'Adeyemi',
  'Lindqvist',
  'Romero',
  'Kaur',
  'Bianchi',
  'Şahin',
  "O'Brien",
  'Nakamura',
  'Petrov',
  'Walker',
  'Mbeki',
  'Svensson',
  'Herrera',
  'Chowdhury',
  'Fischer',
] as const;

/** Customers' addresses: the second-level domains reserved for examples, and hosts under them. */
const DOMAINS = ['example.com', 'example.org', 'example.net', 'mail.example.com', 'post.example.org'] as const;

/** What people sign in from: the user agents of common browsers on common systems. */
const USER_AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
] as const;

/** A 32-bit mix of the person's index and a purpose (murmur3's finaliser): the same inputs, the same number. */
function mix(index: number, salt: number): number {
  let h = (Math.imul(index + 1, 0x9e3779b1) ^ Math.imul(salt + 1, 0x85ebca6b)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
  return (h ^ (h >>> 16)) >>> 0;
}

const pick = <T>(list: readonly T[], index: number, salt: number): T => list[mix(index, salt) % list.length] as T;

/** A number in [0, 1) for the person and the purpose: the seed's times are drawn with it. */
export function fraction(index: number, salt: number): number {
  return mix(index, salt) / 2 ** 32;
}

/** `Nguyễn` → `nguyen`, `O'Brien` → `obrien`: what an address keeps of a name. */
function folded(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
}

export interface Person {
  firstName: string;
  lastName: string;
  email: string;
  /** The browser they sign in with, and the address they come from (documentation ranges, RFC 5737). */
  client: ClientInfo;
}

/**
 * The `index`-th person. `domain`: the address's domain (staff have the tenant's); else one of the example domains.
 * `attempt` > 0 gives the same person another address, for when the first one is taken.
 */
export function personAt(index: number, options: { domain?: string; attempt?: number } = {}): Person {
  const firstName = pick(FIRST_NAMES, index, 1);
  const lastName = pick(LAST_NAMES, index, 2);
  const first = folded(firstName);
  const last = folded(lastName);
  const styles = [
    `${first}.${last}`,
    `${first}${last}`,
    `${first[0]}.${last}`,
    `${first}_${last}`,
    `${last}.${first}`,
    `${first}.${last}${10 + (mix(index, 3) % 90)}`,
  ];
  const style = options.domain ? 0 : mix(index, 4) % styles.length;
  const attempt = options.attempt ?? 0;
  // Another address of the same person: the index makes it differ from every other person's first choice too.
  const local = attempt === 0 ? styles[style] : `${styles[style]}.${index}${attempt > 1 ? `-${attempt}` : ''}`;
  const domain = options.domain ?? pick(DOMAINS, index, 5);
  const net = ['192.0.2', '198.51.100', '203.0.113'][mix(index, 6) % 3];
  return {
    firstName,
    lastName,
    email: `${local}@${domain}`,
    client: { ip: `${net}.${1 + (mix(index, 7) % 254)}`, userAgent: pick(USER_AGENTS, index, 8), language: 'en' },
  };
}
