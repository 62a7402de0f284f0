import { useState } from 'react';
import { problemsOf } from './readiness-checks';
import { useReadiness } from './use-readiness';

/**
 * The checks run when Receive Calls is pressed (docs/product.md "Ready to take calls"): with only
 * warnings listening starts at once and the receiver lists them; a failed check holds the start
 * until the person fixes it or starts anyway.
 */
export function useReadinessGate(start: () => void) {
  const readiness = useReadiness({ listenToMicrophone: false });
  const [held, setHeld] = useState(false);
  const problems = readiness.checks ? problemsOf(readiness.checks) : [];

  async function begin() {
    let checks;
    try {
      checks = await readiness.run();
    } catch (error) {
      console.warn('The readiness checks could not run; listening starts:', error);
      return start();
    }
    if (problemsOf(checks).some((check) => check.status === 'failed')) return setHeld(true);
    setHeld(false);
    start();
  }

  function startAnyway() {
    setHeld(false);
    start();
  }

  return { readiness, held, problems, begin, startAnyway, cancel: () => setHeld(false) };
}

export type ReadinessGate = ReturnType<typeof useReadinessGate>;
