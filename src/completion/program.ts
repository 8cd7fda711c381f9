import { completionModel, type CommandModel } from './model.js';

/** The program Tab completes: generated from the command registry when completion runs. */
export const PROGRAM: CommandModel = completionModel();
