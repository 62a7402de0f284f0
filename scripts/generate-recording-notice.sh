#!/bin/sh
# Makes the spoken notice that callers on outside numbers hear when a Voxline user starts recording
# (docs/calls.md#recording). Run once; its output is committed, so nothing runs at start-up:
# Debian's espeak-ng speaks it, sox makes it 16 kHz mono 16-bit PCM WAV.
# Needs `apt-get install espeak-ng sox`.
set -eu
root="$(dirname "$0")/.."
out="$root/src/server/recordings/assets/recording-notice.wav"
spoken="$(mktemp --suffix=.wav)"
trap 'rm -f "$spoken"' EXIT
espeak-ng -v en-us -s 160 -w "$spoken" "This call is being recorded."
sox "$spoken" -r 16000 -c 1 -b 16 -e signed-integer "$out" norm -6 silence 1 0.02 0.5% reverse silence 1 0.02 0.5% reverse
