#!/bin/sh
# Makes the voicemail greeting callers hear when the owner has recorded none (shipped in the
# repository, so nothing runs at start-up): Debian's espeak-ng speaks it, sox makes it 16 kHz mono
# 16-bit PCM, and scripts/encode-default-greeting.ts writes it as mono Ogg Opus with the server's own encoder.
# Needs `apt-get install espeak-ng sox`.
set -eu
root="$(dirname "$0")/.."
out="$root/src/server/voicemail/assets/default-greeting.ogg"
spoken="$(mktemp --suffix=.wav)"
wav="$(mktemp --suffix=.wav)"
trap 'rm -f "$spoken" "$wav"' EXIT
espeak-ng -v en-us -s 150 -w "$spoken" "The person you are calling is not available. Please leave a message after the tone."
sox "$spoken" -r 16000 -c 1 -b 16 -e signed-integer "$wav" norm -3
npx tsx "$root/scripts/encode-default-greeting.ts" "$wav" "$out"
