import { answerPasswordQuestion, prepareToAnswer, type PasswordQuestion } from './password-question';

// zxcvbn's dictionaries (about 1 MB) load and rank here, never on the page's thread (decision 014).
// Questions sent while this module loads wait in the worker's queue until it has run.
self.addEventListener('message', (event: MessageEvent<PasswordQuestion>) => {
  self.postMessage(answerPasswordQuestion(event.data));
});
prepareToAnswer();
