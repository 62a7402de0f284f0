// What carries a call's audio, in one chunk the page fetches after it shows (browser-call-deps.ts).
export { openMicrophone } from '../audio/call-audio';
export { CallMedia } from './call-media';
