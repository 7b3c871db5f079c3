import type { Merchant } from '../tenancy/types.ts';

/** The languages the service writes in (its mails): English, its own, and German. */
export const LANGUAGES = ['en', 'de'] as const;
export type Language = (typeof LANGUAGES)[number];

/** The service's own language: every text exists in it first. */
export const DEFAULT_LANGUAGE: Language = 'en';

/**
 * The language a tenant's mails and pages are in when the reader names none of ours: the merchant's setting
 * (`defaultLanguage`), English for a request that names no tenant. Mails to someone who has sent no request
 * (an invitation, a reset an admin sends) are in it too.
 */
export function tenantDefaultLanguage(tenant: Pick<Merchant, 'defaultLanguage'> | undefined): Language {
  return tenant?.defaultLanguage ?? DEFAULT_LANGUAGE;
}

/** A stored value as one of ours: a tenant stored before it had a language reads English. */
export function languageOr(value: unknown, fallback: Language = DEFAULT_LANGUAGE): Language {
  return (LANGUAGES as readonly unknown[]).includes(value) ? (value as Language) : fallback;
}

/** Where a request says which language its user reads, in the order they are asked. */
export interface LanguageSources {
  /** OpenID Connect `ui_locales`: BCP 47 tags separated by spaces, the preferred first. */
  uiLocales?: string | undefined;
  /** The `Accept-Language` header (RFC 9110 §12.5.4): ranges with optional q-values, `*` for any. */
  acceptLanguage?: string | undefined;
  /** When neither names one of ours: the tenant's default (tenantDefaultLanguage). */
  fallback: Language;
}

// A header or parameter is read no further than this: its cost stays the same however long the input. Real
// browsers send well under 200 characters and a handful of ranges.
const MAX_INPUT_LENGTH = 512;
const MAX_ENTRIES = 16;

/** A language tag or range as BCP 47 spells it: a 1–8 letter primary subtag, then 1–8 letters or digits each. */
const TAG = /^([A-Za-z]{1,8})(?:-[A-Za-z0-9]{1,8})*$/;
/** `q=` and a qvalue (RFC 9110 §12.4.2): 0 to 1 with at most three decimals. */
const WEIGHT = /^[qQ]\s*=\s*(0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/** How much a header accepts a language, and where (the entry's index) it said so. */
interface Acceptance {
  q: number;
  at: number;
}

const isOurs = (value: string): value is Language => (LANGUAGES as readonly string[]).includes(value);

/** The first `MAX_ENTRIES` entries of a list, cut at its bound; an entry the bound splits is left out. */
function boundedEntries(value: string, separator: RegExp): string[] {
  const cut = value.length > MAX_INPUT_LENGTH;
  const entries = value.slice(0, MAX_INPUT_LENGTH).split(separator);
  if (cut) entries.pop();
  return entries.slice(0, MAX_ENTRIES);
}

/** The language of a tag we write in (`de-AT` → `de`, `DE` → `de`), or null for any other tag or bad input. */
function languageOfTag(tag: string): Language | null {
  const primary = TAG.exec(tag)?.[1]?.toLowerCase();
  return primary !== undefined && isOurs(primary) ? primary : null;
}

/** The first of ours among `ui_locales`' tags; tags we do not write in, and malformed ones, are passed over. */
function fromUiLocales(value: string): Language | null {
  for (const tag of boundedEntries(value, / +/)) {
    const language = languageOfTag(tag);
    if (language) return language;
  }
  return null;
}

/**
 * The language of ours the header accepts most (RFC 9110 §12.5.4, RFC 4647 §3.3.1): each of ours takes the
 * highest q of the ranges naming it (`de`, `de-AT`, …), or, when none names it, that of `*`. The highest q wins;
 * of equal ones, a language named over one only `*` accepts, then the one named first, then the fallback. A q of
 * 0 refuses. A malformed entry is left out; none of ours accepted: null.
 */
function fromAcceptLanguage(value: string, fallback: Language): Language | null {
  const named = new Map<Language, Acceptance>();
  let wildcard: Acceptance | null = null;
  for (const [at, entry] of boundedEntries(value, /,/).entries()) {
    const [range = '', ...params] = entry.split(';').map((part) => part.trim());
    // A range takes one parameter, its weight (RFC 9110 §12.5.4); anything else makes the entry malformed.
    if (params.length > 1) continue;
    const weight = params[0] === undefined ? '1' : WEIGHT.exec(params[0])?.[1];
    if (weight === undefined) continue;
    const acceptance = { q: Number(weight), at };
    if (range === '*') {
      if (!wildcard || acceptance.q > wildcard.q) wildcard = acceptance;
      continue;
    }
    const language = languageOfTag(range);
    if (!language) continue;
    const seen = named.get(language);
    if (!seen || acceptance.q > seen.q) named.set(language, acceptance);
  }
  const ranked = LANGUAGES.flatMap((language) => {
    const acceptance = named.get(language) ?? wildcard;
    if (!acceptance || acceptance.q <= 0) return [];
    return [{ language, ...acceptance, named: named.has(language) }];
  });
  ranked.sort(
    (a, b) =>
      b.q - a.q ||
      Number(b.named) - Number(a.named) ||
      a.at - b.at ||
      Number(b.language === fallback) - Number(a.language === fallback),
  );
  return ranked[0]?.language ?? null;
}

/**
 * The language to write to a request's user in: `ui_locales` when it names one of ours, else the best of ours
 * `Accept-Language` accepts, else the fallback. Pure, and bounded: a long or hostile value costs no more than
 * its first few hundred characters, and nothing in it throws.
 */
export function chooseLanguage(sources: LanguageSources): Language {
  return matchLanguage(sources) ?? sources.fallback;
}

/**
 * The language `ui_locales` or `Accept-Language` name of ours, or null when neither names one: a caller that
 * learns its fallback later (the hosted pages, before the tenant's default is known) asks this first. The
 * fallback, when given, only breaks a tie in `Accept-Language`.
 */
export function matchLanguage(sources: Omit<LanguageSources, 'fallback'> & { fallback?: Language }): Language | null {
  return (
    (sources.uiLocales ? fromUiLocales(sources.uiLocales) : null) ??
    (sources.acceptLanguage ? fromAcceptLanguage(sources.acceptLanguage, sources.fallback ?? DEFAULT_LANGUAGE) : null)
  );
}
