#!/bin/sh
# Makes the spoken phrase the virtual carrier's simulated callers play (shipped in the repository,
# so nothing runs at start-up): Debian's espeak-ng speaks it, sox makes it 16 kHz mono 16-bit PCM.
# Needs `apt-get install espeak-ng sox`.
set -eu
out="$(dirname "$0")/../src/server/calls/assets/simulated-caller.wav"
tmp="$(mktemp --suffix=.wav)"
trap 'rm -f "$tmp"' EXIT
espeak-ng -v en-us -s 150 -w "$tmp" "Hello! This is a test call from the Voxline virtual carrier. If you can hear me, receiving calls works. You can hang up whenever you like."
sox "$tmp" -r 16000 -c 1 -b 16 -e signed-integer "$out" norm -3
echo "wrote $out"
