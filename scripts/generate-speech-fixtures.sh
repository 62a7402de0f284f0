#!/usr/bin/env bash
# Makes the speech fixtures of tests/fixtures/speech with Debian's synthesizers, once: the clips are
# committed, so tests and CI need none of these tools. Needs espeak-ng, festival (with
# festvox-kallpc16k and festvox-czech-krb) and sox. Every clip is 16 kHz mono 16-bit, peak -3 dBFS.
set -euo pipefail

out="$(cd "$(dirname "$0")/.." && pwd)/tests/fixtures/speech"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"

# espeak-ng's own variants stop near 300 Hz (en+f4 at -p 99). One more variant, f4 with only its
# pitch line changed, covers a high child's voice: it lives in a copy of espeak-ng's data in which
# everything else is linked to the original.
data="$(dirname "$(find /usr/lib /usr/share -name phontab -path '*espeak-ng-data*' 2>/dev/null | head -1)")"
mirror="$work/espeak-ng-data"
mkdir -p "$mirror/voices/!v"
for entry in "$data"/*; do [ "$(basename "$entry")" = voices ] || ln -s "$entry" "$mirror/"; done
for entry in "$data"/voices/*; do [ "$(basename "$entry")" = '!v' ] || ln -s "$entry" "$mirror/voices/"; done
for entry in "$data"/voices/'!v'/*; do ln -s "$entry" "$mirror/voices/!v/"; done
sed -e 's/^pitch .*/pitch 330 560/' -e 's/^name .*/name childhigh/' "$data/voices/!v/f4" >"$mirror/voices/!v/childhigh"

english_sample='Hello, this is Voxline. Can you hear me clearly?'
english_question='Really? Oh no, I thought the train left at nine!'
czech_sample='Dobrý den, tady je Voxline. Slyšíte mě dobře?'
czech_question='Opravdu? Já myslel, že vlak jede v devět!'

# Resamples to 16 kHz mono, trims the silence at both ends (keeping 0.1 s) and sets the peak.
finish() {
  sox "$1" -r 16000 -c 1 -b 16 "$2" silence 1 0.02 0.5% reverse silence 1 0.02 0.5% reverse pad 0.1 0.1 gain -n -3
}

espeak() { # name voice pitch sentence
  espeak-ng --path="$work" -v "$2" -p "$3" -w "$work/raw.wav" "$4"
  finish "$work/raw.wav" "$out/$1.wav"
}

festival_voice() { # name voice sentence [extra Scheme, evaluated after the voice is chosen]
  printf '%s\n' "$3" | iconv -f utf-8 -t iso-8859-2 >"$work/text.txt"
  text2wave -eval "(voice_$2)" -eval "${4:-(list)}" "$work/text.txt" -o "$work/raw.wav"
  finish "$work/raw.wav" "$out/$1.wav"
}

# kal_diphone's intonation model, moved from its mean of 170 Hz down to a bass speaking at 72 Hz.
deep="(set! int_lr_params '((target_f0_mean 72) (target_f0_std 9) (model_f0_mean 170) (model_f0_std 34)))"

for sentence in sample-sentence question; do
  if [ "$sentence" = question ]; then english="$english_question" czech="$czech_question"; else english="$english_sample" czech="$czech_sample"; fi
  festival_voice "$sentence-deep-male" kal_diphone "$english" "$deep"
  festival_voice "$sentence-male" kal_diphone "$english"
  espeak "$sentence-female" en-us+f2 60 "$english"
  espeak "$sentence-child" en-us+f4 99 "$english"
  espeak "$sentence-high-child" en-us+childhigh 50 "$english"
  festival_voice "$sentence-czech-child" czech_krb "$czech"
done

# Babble: four voices at once, on sentences of their own, each starting at a different moment.
espeak-ng --path="$work" -v en-us+m3 -p 40 -w "$work/b1.wav" 'We should meet at the station after lunch, if the weather holds.'
espeak-ng --path="$work" -v en-us+f2 -p 55 -w "$work/b2.wav" 'Did you bring the tickets, or are they still on the kitchen table?'
espeak-ng --path="$work" -v en-gb+m1 -p 60 -w "$work/b3.wav" 'The shop on the corner closes early on Sundays, I think.'
espeak-ng --path="$work" -v en-us+f3 -p 70 -w "$work/b4.wav" 'Honestly, nobody told me the meeting had been moved to Friday.'
for i in 1 2 3 4; do sox "$work/b$i.wav" -r 16000 -c 1 "$work/p$i.wav" pad "0.$((i * 2))" 4; done
sox -m "$work"/p1.wav "$work"/p2.wav "$work"/p3.wav "$work"/p4.wav -b 16 "$out/babble-noise.wav" trim 0 4 gain -n -3

# Traffic-like noise: brown noise below 400 Hz rising and falling as vehicles pass. -R makes it repeatable.
sox -R -n -r 16000 -c 1 -b 16 "$out/traffic-noise.wav" synth 4 brownnoise lowpass 400 tremolo 0.3 60 gain -n -3

du -ch "$out"/*.wav | tail -1
