import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { personAt } from '#local/seed-people.ts';
import { Email } from '#shared/users/schemas.ts';

describe('the people `npm run users -- seed` makes', () => {
  const people = Array.from({ length: 2000 }, (_, index) => personAt(index));

  it('are the same person for the same index, run after run', () => {
    expect(personAt(7)).toEqual(people[7]);
    expect(personAt(7, { domain: 'shop.example' })).toEqual({
      ...personAt(7),
      email: expect.stringMatching(/@shop\.example$/),
    });
  });

  it('have addresses the service takes as they are: lower-case ASCII, at the example domains', () => {
    for (const { email } of people) {
      expect(v.parse(Email, email)).toBe(email);
      expect(email).toMatch(/^[a-z][a-z0-9._-]*@(mail\.|post\.)?example\.(com|org|net)$/);
    }
    // Names keep what an address folds away.
    expect(people.some((person) => /[^\x20-\x7e]/.test(person.firstName + person.lastName))).toBe(true);
  });

  it('give a taken address another one that no other person has first', () => {
    const firstChoices = new Set(people.map((person) => person.email));
    for (const index of [0, 1, 999]) {
      for (const attempt of [1, 2, 3]) expect(firstChoices.has(personAt(index, { attempt }).email)).toBe(false);
    }
    expect(new Set([1, 2, 3].map((attempt) => personAt(5, { attempt }).email)).size).toBe(3);
  });
});
