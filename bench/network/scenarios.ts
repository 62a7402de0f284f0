import { callBetween, callSoundTest, hangUp, type Party } from './browser-party';

export const scenarioNames = ['sound-test', 'two-users'] as const;
export type ScenarioName = (typeof scenarioNames)[number];

/** One talker's audio as one listener hears it. */
interface Direction {
  talker: Party;
  listener: Party;
}

/** A kind of call the bench measures, between parties already signed in. */
export interface Scenario {
  name: ScenarioName;
  /** The browsers in the call, whose traffic shares the link. */
  parties: Party[];
  directions: Direction[];
  /** Delay the call adds on purpose, left out of mouth-to-ear: the sound-test line's echo. */
  intendedDelayMs: number;
  connect(): Promise<void>;
  hangUp(): Promise<void>;
}

/** docs/calls.md: the echo party plays back what it hears after about 300 ms. */
const ECHO_DELAY_MS = 300;

/** (a) One user calls the sound-test line and hears their own voice come back. */
export function soundTestScenario(user: Party): Scenario {
  return {
    name: 'sound-test',
    parties: [user],
    directions: [{ talker: user, listener: user }],
    intendedDelayMs: ECHO_DELAY_MS,
    connect: () => callSoundTest(user),
    hangUp: () => hangUp(user),
  };
}

/** (b) A call between two users: the caller dials the callee's number, the callee answers in the Call Receiver. */
export function twoUsersScenario(caller: Party, callee: Party): Scenario {
  return {
    name: 'two-users',
    parties: [caller, callee],
    directions: [
      { talker: caller, listener: callee },
      { talker: callee, listener: caller },
    ],
    intendedDelayMs: 0,
    connect: () => callBetween(caller, callee),
    hangUp: () => hangUp(caller),
  };
}
