// Generated from self-tests/catalogue/requirement-ids.json by scripts/generate.ts. Do not edit by hand.

/** The id of a requirement of the catalogue (retired ids are not). */
export type RequirementId =
  | 'service.json-content-type'
  | 'auth.missing-key'
  | 'auth.wrong-key'
  | 'auth.empty-token'
  | 'auth.other-scheme'
  | 'auth.valid-key'
  | 'auth.before-validation'
  | 'auth.challenge'
  | 'auth.challenge.error-code'
  | 'auth.scheme-case'
  | 'errors.body'
  | 'errors.status-field'
  | 'errors.content-type'
  | 'errors.no-server-error'
  | 'listPets.ok'
  | 'listPets.limit.min'
  | 'listPets.limit.max'
  | 'listPets.limit.respected'
  | 'listPets.limit.default'
  | 'listPets.limit.exact'
  | 'listPets.limit.default-exact'
  | 'listPets.limit.out-of-range'
  | 'listPets.limit.malformed'
  | 'listPets.limit.rejected'
  | 'listPets.status.filter'
  | 'listPets.status.with-limit'
  | 'listPets.status.exact'
  | 'listPets.status.unknown'
  | 'listPets.status.unknown-rejected'
  | 'createPet.minimal'
  | 'createPet.status-echo'
  | 'createPet.status-omitted'
  | 'createPet.missing-name'
  | 'createPet.missing-category'
  | 'createPet.name-type'
  | 'createPet.category-type'
  | 'createPet.category-range'
  | 'createPet.status-enum'
  | 'createPet.body-not-object'
  | 'createPet.client-id'
  | 'createPet.int64-extremes'
  | 'createPet.unicode'
  | 'createPet.distinct-ids'
  | 'createPet.gaps'
  | 'getPet.existing'
  | 'getPet.unknown'
  | 'getPet.malformed-id'
  | 'getPet.removal'
  | 'getPet.deprecation-header'
  | 'getPet.sunset-header'
  | 'getPet.successor-link'
  | 'getPet.no-deprecation-elsewhere'
  | 'consistency.create-then-list'
  | 'consistency.model'
  | 'errors.unknown-path'
  | 'errors.undefined-method'
  | 'errors.refused-body'
  | 'errors.malformed-uri'
  | 'listPets.distinct-ids';

/** A requirement excluded from a set after an accepted challenge (issue URL, day), by a patch release of the set. */
export interface Exclusion {
  readonly id: string;
  readonly issue: string;
  readonly date: string;
}

/** The requirement sets, oldest first: each certifies its own ids and those of every set before it. */
export const REQUIREMENT_SETS: readonly { id: string; adds: readonly string[]; exclusions: readonly Exclusion[] }[] = [{"id":"1.0.0+2026.11.21","adds":["service.json-content-type","auth.missing-key","auth.wrong-key","auth.empty-token","auth.other-scheme","auth.valid-key","auth.before-validation","auth.challenge","auth.challenge.error-code","auth.scheme-case","errors.body","errors.status-field","errors.content-type","errors.no-server-error","listPets.ok","listPets.limit.min","listPets.limit.max","listPets.limit.respected","listPets.limit.default","listPets.limit.exact","listPets.limit.default-exact","listPets.limit.out-of-range","listPets.limit.malformed","listPets.limit.rejected","listPets.status.filter","listPets.status.with-limit","listPets.status.exact","listPets.status.unknown","listPets.status.unknown-rejected","createPet.minimal","createPet.status-echo","createPet.status-omitted","createPet.missing-name","createPet.missing-category","createPet.name-type","createPet.category-type","createPet.category-range","createPet.status-enum","createPet.body-not-object","createPet.client-id","createPet.int64-extremes","createPet.unicode","createPet.distinct-ids","createPet.gaps","getPet.existing","getPet.unknown","getPet.malformed-id","getPet.removal","getPet.deprecation-header","getPet.sunset-header","getPet.successor-link","getPet.no-deprecation-elsewhere","consistency.create-then-list","consistency.model"],"exclusions":[]},{"id":"1.0.0+2026.11.24","adds":["errors.unknown-path","errors.undefined-method","errors.refused-body","errors.malformed-uri"],"exclusions":[]},{"id":"1.0.0+2026.11.26","adds":["listPets.distinct-ids"],"exclusions":[]}];

/** The set this release certifies against: the last. */
export const CURRENT_REQUIREMENT_SET = '1.0.0+2026.11.26';
