/** Conversions between the wire format (signed 16-bit little-endian PCM) and Float32 samples. */

export function int16ToFloat32(input: Int16Array, output: Float32Array = new Float32Array(input.length)): Float32Array {
  for (let i = 0; i < input.length; i += 1) output[i] = input[i]! / 32768;
  return output;
}

export function float32ToInt16(input: Float32Array, output: Int16Array = new Int16Array(input.length)): Int16Array {
  for (let i = 0; i < input.length; i += 1) {
    const clamped = Math.max(-1, Math.min(1, input[i]!));
    output[i] = Math.round(clamped * 32767);
  }
  return output;
}
