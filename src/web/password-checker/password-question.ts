import { judgePassword, personalWords, preparePasswordChecker, type PasswordVerdict } from '../../common/password-strength';

/** What the page asks the password checker's worker: how guessable a password is for this person. */
export interface PasswordQuestion {
  id: number;
  password: string;
  /** The person's name and address, when known: the first words a guesser tries. */
  personal: (string | undefined)[];
}

/** The worker's answer to the question of the same id. */
export interface PasswordAnswer {
  id: number;
  verdict: PasswordVerdict;
}

/** Ranks zxcvbn's dictionaries, before the first question rather than in it. */
export function prepareToAnswer(): void {
  preparePasswordChecker();
}

/** The verdict on a question, as the worker answers it. */
export function answerPasswordQuestion({ id, password, personal }: PasswordQuestion): PasswordAnswer {
  return { id, verdict: judgePassword(password, personalWords(...personal)) };
}
