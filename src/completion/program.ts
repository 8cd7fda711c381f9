// The program Tab and the fast path read a line against; in the bundle, data written at build time.
import { completionModel, type CommandModel } from './model.js';

/** The program Tab completes: generated from the command registry when completion runs. */
export const PROGRAM: CommandModel = completionModel();
