import * as v from 'valibot';

/**
 * A plant id: int64 in the API. A JSON number reaches us as an IEEE double,
 * which holds every integer only up to 2^53 - 1: JSON.parse turns
 * 9007199254740993 into 9007199254740992 before any code sees it. Such an id
 * could not round-trip, so it is refused (400) rather than stored altered
 * (docs/http.md#plant-store): an integer at or beyond 2^53 in magnitude never
 * parses to a safe integer, and `safeInteger` refuses non-integers too.
 * (A fraction JSON.parse rounds to an integer, such as 9007199254740990.5, is
 * caught on the JSON text: exact-numbers.ts.)
 */
export const PlantId = v.pipe(
  v.number('must be an integer'),
  v.safeInteger('must be an integer between -(2^53 - 1) and 2^53 - 1 (a larger one would not round-trip exactly)'),
  v.metadata({
    format: 'int64',
    description: 'int64; ids beyond ±(2^53 - 1), which a JSON number cannot hold exactly, are refused (400)',
  }),
);

const Name = v.pipe(
  v.string('must be a string'),
  v.minLength(1, 'must not be empty'),
  v.maxLength(256, 'must be at most 256 characters'),
);
const Tag = v.pipe(v.string('must be a string'), v.maxLength(256, 'must be at most 256 characters'));

/** The body of POST /plants. Unknown fields are refused (400), never stored; a missing field "is required". */
export const NewPlant = v.strictObject({ id: PlantId, name: Name, tag: v.optional(Tag) }, 'is required');
export type NewPlant = v.InferOutput<typeof NewPlant>;

/** A plant as stored: `tag` is absent when none was given. */
export const Plant = v.object({ id: PlantId, name: v.string(), tag: v.optional(v.string()) });
export type Plant = v.InferOutput<typeof Plant>;

/** The plant store's documented error body (docs/http.md#plant-store): the HTTP status and a message. */
export const PlantError = v.object({
  error: v.pipe(v.number(), v.integer(), v.metadata({ format: 'int32' })),
  message: v.string(),
});
