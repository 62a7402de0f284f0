import { answerPasswordQuestion, prepareToAnswer, type PasswordQuestion } from './password-question';

/**
 * jsdom has no Worker: this one answers in the test's own thread with the worker's own code,
 * asynchronously as a real one does. Installed with vi.stubGlobal('Worker', InProcessPasswordWorker).
 */
export class InProcessPasswordWorker extends EventTarget {
  static started = 0;
  /** The worker the page holds, for a test that makes it fail. */
  static latest: InProcessPasswordWorker | undefined;

  constructor(url: URL | string, options?: WorkerOptions) {
    super();
    if (options?.type !== 'module' || !String(url).includes('password-checker.worker')) throw new Error(`Not the password checker's module worker: ${String(url)}`);
    InProcessPasswordWorker.started += 1;
    InProcessPasswordWorker.latest = this;
    prepareToAnswer();
  }

  postMessage(question: PasswordQuestion) {
    setTimeout(() => this.dispatchEvent(new MessageEvent('message', { data: answerPasswordQuestion(question) })));
  }

  terminate() {}
}

/** A worker that never loads, as when its file is gone after a deploy: the error event, no answer. */
export class UnloadableWorker extends EventTarget {
  static started = 0;

  constructor() {
    super();
    UnloadableWorker.started += 1;
    setTimeout(() => this.dispatchEvent(new ErrorEvent('error', { message: '' })));
  }

  postMessage() {}

  terminate() {}
}
