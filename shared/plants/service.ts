import { failField } from '../errors.ts';
import type { TenantRef } from '../store/keys.ts';
import type { TokenPrincipal } from '../tokens/resource-server.ts';
import type { PlantDeps } from './deps.ts';
import { roundedIntegers } from './exact-numbers.ts';
import type { NewPlant, Plant } from './schemas.ts';

/**
 * Stores a new plant in the caller's tenant and returns it as stored: `tag`
 * only when one was given. A taken id, or an id JSON.parse rounded (`source`
 * is the request body as sent), is a 400 and nothing is written.
 */
export async function createPlant(
  deps: PlantDeps,
  caller: { tenant: TenantRef; principal: TokenPrincipal },
  input: NewPlant,
  source: string | undefined,
): Promise<Plant> {
  if (source !== undefined && roundedIntegers(source).length > 0) {
    const message = 'must be an integer that a JSON number holds exactly (this one would be altered)';
    throw failField('id', message);
  }
  const plant: Plant = { id: input.id, name: input.name, ...(input.tag === undefined ? {} : { tag: input.tag }) };
  const created = await deps.plants.create(caller.tenant, plant, {
    createdBy: caller.principal.sub,
    createdAt: deps.clock.now().toISOString(),
  });
  if (!created) {
    const message = 'is taken: a plant with this id exists';
    throw failField('id', message);
  }
  return plant;
}
