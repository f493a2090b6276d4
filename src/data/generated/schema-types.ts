// Generated from schemas/*.json by scripts/generate.ts. Do not edit by hand.
import type { Int64 } from '../../wire/json.js';

/**
 * Availability status of an animal.
 */
export type PetStatus = "available" | "pending" | "sold";

/**
 * Request body for creating an animal. The service assigns the id.
 */
export interface NewPet {
  /**
   * The animal's name.
   */
  name: string;
  /**
   * Identifier of the category the animal belongs to.
   */
  categoryId: Int64;
  status?: PetStatus;
}

/**
 * An animal: a NewPet plus the identifier the service assigned.
 */
export type Pet = NewPet & {
  /**
   * Unique identifier assigned by the service on creation.
   */
  id: Int64;
};

/**
 * Body of every error response.
 */
export interface Error {
  /**
   * Machine-readable error code.
   */
  code: string;
  /**
   * Human-readable description.
   */
  message: string;
  /**
   * The HTTP status code.
   */
  status: number;
}

export interface BaselineEntry {
  /**
   * A requirement id, an area (e.g. auth) or a glob with * (e.g. getPet.*), as --only takes. Must name at least one requirement.
   */
  id: string;
  /**
   * Why the deviation is accepted, shown beside it in every report.
   */
  reason: string;
  /**
   * Where the fix is tracked (an issue, a ticket), shown beside the entry in every report.
   */
  link?: string;
  /**
   * Last day (UTC) the entry holds; after it the entry counts as not in the baseline.
   */
  until?: string;
}
