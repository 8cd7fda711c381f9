// The fewest moves that put a table's objects in the document's order.
import { keyId } from '../objects/normalize.js';

type Key = string | number;

/** One move: the object `key` placed right before or right after another object of the document. */
export type OrderMove = { key: Key; before: Key } | { key: Key; after: Key };

/**
 * The indexes of one longest strictly increasing subsequence of `values` (patience sorting,
 * O(n log n)): the objects already in the right relative order, which need not move.
 */
function longestIncreasing(values: number[]): Set<number> {
  const tails: number[] = [];
  const previous: number[] = new Array(values.length).fill(-1);
  for (let i = 0; i < values.length; i++) {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (values[tails[mid]] < values[i]) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) previous[i] = tails[lo - 1];
    tails[lo] = i;
  }
  const kept = new Set<number>();
  for (let i = tails.length ? tails[tails.length - 1] : -1; i >= 0; i = previous[i]) kept.add(i);
  return kept;
}

/**
 * The fewest moves that put the document's objects in the document's order on the device, where
 * `device` is the table's keys in the device's order once the creates have landed (objects the
 * document does not list may be among them; they stay where they are). Every object outside one
 * longest run already in order is moved, in document order, right after the document's previous
 * object (the first one before the first object that stays), so each anchor is already in place.
 */
export function orderMoves(device: Key[], desired: Key[]): OrderMove[] {
  const position = new Map(device.map((key, i) => [keyId(key), i]));
  const present = desired.filter((key) => position.has(keyId(key)));
  const positions = present.map((key) => position.get(keyId(key))!);
  // In order already (an in-sync table): nothing to move.
  if (positions.every((p, i) => i === 0 || positions[i - 1] < p)) return [];
  const kept = longestIncreasing(positions);
  if (kept.size === present.length) return [];
  let first = present.length;
  for (const i of kept) first = Math.min(first, i);
  const firstKept = present[first];
  return present.flatMap((key, i): OrderMove[] => {
    if (kept.has(i)) return [];
    return i === 0 ? [{ key, before: firstKept }] : [{ key, after: present[i - 1] }];
  });
}
