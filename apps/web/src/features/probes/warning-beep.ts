let context: AudioContext | null = null;

/**
 * A short, low double beep for a scan that needs attention (unknown or already scanned), so that
 * a technician looking at the tubes notices it. Silent where audio is unavailable or blocked.
 */
export function warningBeep(): void {
  try {
    context ??= new AudioContext();
    const start = context.currentTime;
    for (const offset of [0, 0.25]) {
      const oscillator = context.createOscillator();
      const gain = context.createGain();
      oscillator.type = 'square';
      oscillator.frequency.value = 440;
      gain.gain.value = 0.15;
      oscillator.connect(gain).connect(context.destination);
      oscillator.start(start + offset);
      oscillator.stop(start + offset + 0.18);
    }
  } catch {
    // No audio (an old browser, a policy): the red alert alone has to do.
  }
}
