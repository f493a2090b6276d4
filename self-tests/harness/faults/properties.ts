// Faults a property of the requirement they break found first (tests/properties/): each value
// they spoil now has an example case too, so every seed catches them, not only a lucky one.
import { isObject, isOp, mapRequestJson, type Fault } from '../faults-kit.js';

export const propertyFaults: Fault[] = [
  {
    name: 'supplementary-ideographs-dropped',
    breaks: 'createPet.unicode',
    does: 'drops code points from plane 2 up (rare CJK ideographs, tags, private use) from names; emoji and plane-1 letters survive',
    wrap: mapRequestJson(
      (b) =>
        isObject(b) && typeof b.name === 'string' ? { ...b, name: b.name.replace(/[\u{20000}-\u{10FFFF}]/gu, '') } : b,
      isOp('createPet'),
    ),
  },
  {
    name: 'negative-category-through-double',
    breaks: 'createPet.int64-extremes',
    does: 'reads a categoryId below -2^53 as a double, losing its low digits (-2^63 itself survives)',
    wrap: mapRequestJson(
      (b) =>
        isObject(b) && typeof b.categoryId === 'bigint' && b.categoryId < 0n
          ? { ...b, categoryId: BigInt(Number(b.categoryId)) }
          : b,
      isOp('createPet'),
    ),
  },
];
