// Questions to the person at the terminal: one line, yes or no, the editor, and the one question before
// a change. A run on several devices gives each device a prompt of its own (src/cli/fleet.ts) that
// asks in turn, names the device, and waits for the run's one question.
import { CmdbError, EXIT } from '../errors.js';
import type { IO } from '../output/index.js';
import type { Printer } from '../output/printer.js';
import { sanitizeMultiline } from '../output/text.js';
import { variable } from '../settings.js';

export interface Prompt {
  /** Whether a person can answer: stdin is a terminal. */
  readonly interactive: boolean;
  /** Asks one line on the terminal (hidden for secrets). */
  ask(question: string, options?: { hidden?: boolean }): Promise<string>;
  /** A yes/no question; anything but y or yes is no. */
  confirm(question: string): Promise<boolean>;
  /** Asks on a terminal, or fails with the flag that gives the answer without one. */
  askOrFail(question: string, flag: string, options?: { hidden?: boolean }): Promise<string>;
  /**
   * Before a change a person should look at twice (a delete, a write to several VDOMs or devices):
   * on a terminal, shows what will happen and asks [y/N], once per run however many writes follow.
   * No terminal: goes ahead without asking (a command with --yes or --dry-run does not ask). Declined:
   * exit 2, nothing sent.
   */
  confirmChange(question: string, details?: string[]): Promise<void>;
  /**
   * The question before a plan's `changes` are made (apply), answered. On several devices the run
   * asks once for all of them, after every device has shown its plan (src/cli/fleet.ts).
   */
  approvedPlan(changes: number, question: string): Promise<boolean>;
  /** Opens text in the user's editor ($VISUAL, $EDITOR, else vi) and returns what was saved. */
  editText(text: string, name: string): Promise<string>;
}

/** A question answered no (or left unanswered): nothing was done, at the user's word (exit 2). */
export function declined(): CmdbError {
  return new CmdbError('cancelled: nothing was changed', EXIT.USAGE, 'give --yes to go ahead without the question');
}

/** The prompt of a run on the process's terminal. */
export function terminalPrompt(io: IO, env: NodeJS.ProcessEnv, out: Printer): Prompt {
  let confirmation: Promise<boolean> | undefined;
  const prompts = () => import('../output/prompt.js');
  const prompt: Prompt = {
    get interactive() {
      return !!io.stdin.isTTY;
    },
    async ask(question, options = {}) {
      out.clearStatus();
      return (await prompts()).ask(io, question, options);
    },
    async confirm(question) {
      out.clearStatus();
      return (await prompts()).confirm(io, question);
    },
    async askOrFail(question, flag, options = {}) {
      out.clearStatus();
      return (await prompts()).askOrFail(io, question, flag, options);
    },
    async confirmChange(question, details = []) {
      if (!prompt.interactive) return;
      confirmation ??= (async () => {
        for (const line of details) out.status(`  ${sanitizeMultiline(line)}\n`);
        return prompt.confirm(question);
      })();
      if (!(await confirmation)) throw declined();
    },
    async approvedPlan(_changes, question) {
      if (!prompt.interactive) return true;
      confirmation ??= prompt.confirm(question);
      return confirmation;
    },
    async editText(text, name) {
      const editor = variable(env, 'visual') ?? variable(env, 'editor');
      return (await import('./editor.js')).editText(io, editor, text, name);
    },
  };
  return prompt;
}
