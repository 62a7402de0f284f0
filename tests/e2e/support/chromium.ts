/**
 * How the E2E suite launches Chromium: Debian's package (never a Playwright-downloaded browser),
 * with the flags that are known to work on this kind of machine (docs/machine-notes.md#chromium-for-the-e2e-suite).
 */
export const CHROMIUM_PATH = '/usr/bin/chromium';

export const CHROMIUM_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Flags that replace the microphone with a WAV file and grant media permission without a prompt.
 * `loop: false` appends `%noloop`: the file plays once and then its last 10 ms repeat forever,
 * so WAVs meant for it should end in silence (writeSineWav pads them).
 */
export function fakeMicrophoneArgs(wavPath: string, { loop = false }: { loop?: boolean } = {}): string[] {
  return [
    '--use-fake-ui-for-media-stream',
    '--use-fake-device-for-media-stream',
    `--use-file-for-fake-audio-capture=${wavPath}${loop ? '' : '%noloop'}`,
  ];
}
