// Which exit code of several is the most severe.
import { EXIT } from './errors.js';

/**
 * CLI.md's severity order, most severe first: a run that did several things (bulk items, VDOMs,
 * devices) exits with the first of these that any of them ended with. An internal error or a device
 * that answered nonsense outranks an unreachable device, which outranks a refusal, and so on down to
 * a difference found (10) and success.
 */
export const SEVERITY: readonly number[] = [
  EXIT.INTERNAL,
  EXIT.DEVICE,
  EXIT.UNREACHABLE,
  EXIT.AUTH,
  EXIT.FORBIDDEN,
  EXIT.BLOCKED,
  EXIT.REJECTED,
  EXIT.NOT_FOUND,
  EXIT.USAGE,
  EXIT.DIFFERENT,
  EXIT.OK,
];

function rank(code: number): number {
  const at = SEVERITY.indexOf(code);
  // A code outside the contract can only be a defect: as severe as an internal error.
  return Math.max(at, 0);
}

/** The most severe of several exit codes (0 for none). */
export function mostSevere(codes: Iterable<number>): number {
  let worst: number = EXIT.OK;
  for (const code of codes) if (rank(code) < rank(worst)) worst = code;
  return worst;
}
